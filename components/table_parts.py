"""Pieces every game table is made of: the felt, seats, piles, a hand of cards, the hand log and
the scoreboard. They build themselves from plain values taken from a view (never from the engine
state), carry data-testid hooks for tests and labels for screen readers."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from nicegui import ui

from app.engine.cards import Card
from app.engine.protocol import IllegalAction
from app.games import GAMES_BY_ID
from app.i18n import CATALOGS, counted, current_language, t
from app.routes import rules_path
from components.card import card_html, card_name, the_card
from components.controls import on_versioned_click
from components.live import GUESS, Direct, Painter, Pieces

MELD_COLOURS = ('#e0b341', '#3b82f6', '#e4572e', '#22a06b', '#a855f7', '#0ea5e9')

TABLE_CSS = '''
.hod-felt { background: radial-gradient(ellipse at center, #2a7a4b 0%, #1f5f3a 60%, #164a2c 100%);
  border-radius: 18px; color: #fff; box-shadow: inset 0 0 40px rgba(0,0,0,.35); }
.hod-card { display: block; border-radius: 6px; box-shadow: 0 1px 3px rgba(0,0,0,.35); background: #fffdf7;
  aspect-ratio: 2 / 3; }   /* every card's art is 100 x 150: its place is kept before the picture has loaded */
.hod-card.hod-card-empty { background: transparent; box-shadow: none; }
.hod-card-lg { width: 84px; } .hod-card-md { width: 68px; } .hod-card-sm { width: 44px; } .hod-card-xs { width: 30px; }
@media (max-width: 640px) { .hod-card-lg { width: 58px; } .hod-card-md { width: 50px; }
  .hod-card-sm { width: 34px; } .hod-card-xs { width: 24px; } }
.hod-slot { position: relative; display: flex; flex-direction: column; align-items: center;
  border-radius: 8px; cursor: pointer; transition: transform .12s ease; padding-top: 16px; }
.hod-slot.hod-selected { transform: translateY(-12px); }
.hod-slot.hod-selected .hod-card { outline: 3px solid var(--hod-gold); outline-offset: 1px; }
.hod-slot:focus-visible { outline: 3px solid #fff; outline-offset: 2px; }
.hod-slot.hod-drop-target .hod-card { outline: 3px dashed #fff; }
.hod-bar { height: 6px; width: 100%; border-radius: 3px; margin-top: 4px; }
.hod-value { position: absolute; top: 0; left: 50%; transform: translateX(-50%); font-size: 11px;
  font-weight: 700; background: #fff; color: #7f1d1d; border-radius: 8px; padding: 0 5px; line-height: 15px;
  box-shadow: 0 1px 2px rgba(0,0,0,.3); }
.hod-lock { position: absolute; top: 0; right: 0; font-size: 11px; background: #fde68a; color: #713f12;
  border-radius: 8px; padding: 0 4px; line-height: 15px; }
/* your hand keeps one row whatever its size: the cards overlap once they outgrow the width (the
   margin's percentage is of the hand's width), so the hand never changes height */
.hod-hand { display: flex; flex-wrap: nowrap; justify-content: center; --hod-cw: 68px; padding: 0 4px; }
.hod-hand .hod-card-md { width: var(--hod-cw); }
.hod-hand > .hod-slot + .hod-slot { margin-left: min(6px, calc((100% - var(--hod-n) * var(--hod-cw)) / (var(--hod-n) - 1))); }
@media (max-width: 640px) { .hod-hand { --hod-cw: 46px; } }
@media (min-width: 1600px) and (min-height: 1000px) { .hod-hand { --hod-cw: 80px; } }
.hod-chip-light { background: rgba(255,255,255,.85); }
.hod-chip { display: inline-block; font-size: 11px; font-weight: 700; border-radius: 9px; padding: 0 6px;
  background: var(--hod-gold); color: #1d2521; }
.hod-fan { display: flex; } .hod-fan > * + * { margin-left: -18px; }
/* cards to be read, not only counted: each overlaps the next only past its corner index */
.hod-open-fan { display: flex; flex-wrap: wrap; row-gap: 4px; padding-left: 18px; }
.hod-open-fan > .hod-card { margin-left: -18px; }
@media (max-width: 640px) { .hod-fan > * + * { margin-left: -16px; } }
.hod-pile { display: flex; flex-direction: column; align-items: center; gap: 4px; border-radius: 10px;
  padding: 4px; border: 2px solid transparent; }
.hod-pile[data-active] { cursor: pointer; border-color: rgba(255,255,255,.6); }
.hod-pile[data-active]:hover { border-color: var(--hod-gold); }
.hod-pile:focus-visible { outline: 3px solid var(--hod-gold); }
.hod-tip { background: rgba(255,255,255,.12); border-left: 3px solid var(--hod-gold); border-radius: 6px;
  padding: 6px 10px; font-size: 13px; }
.hod-spectator .hod-own { display: none !important; }
.hod-room-strip { min-height: 30px; }
.hod-clock { background: rgba(0,0,0,.3); border-radius: 10px; padding: 2px 10px; font-size: 13px; }
.hod-watchers { display: inline-flex; align-items: center; gap: 3px; font-size: 12px; opacity: .85; }
.hod-watchers .material-icons { font-size: 15px; }
.hod-bubble { background: #fff; color: #1d2521; border-radius: 12px; padding: 2px 10px; font-size: 13px;
  animation: hod-fade 5s forwards; }
.hod-felt { position: relative; }   /* where a reaction is pinned over its sender's seat */
.hod-bubble.hod-pinned { position: absolute; transform: translate(-50%, -60%); z-index: 6; white-space: nowrap;
  pointer-events: none; box-shadow: 0 3px 10px rgba(0,0,0,.35); }
@keyframes hod-fade { 0%, 80% { opacity: 1; } 100% { opacity: 0; } }
.hod-btn.hod-reaction-button { font-size: 12px; padding: 2px 10px; min-height: 0; border-radius: 999px;
  border: 1px solid rgba(255,255,255,.55); }   /* an outlined pill: a button, not a label */
.hod-btn.hod-reaction-button:hover:not(:disabled) { border-color: var(--hod-gold); }
@media (max-width: 640px) { .hod-btn.hod-reaction-button { min-height: 44px; min-width: 44px; } }
.hod-notice { background: var(--hod-gold); color: #1d2521; font-weight: 700; border-radius: 8px; padding: 4px 10px; }
@media (max-width: 1023px) {   /* below the side panels' breakpoint the count can outgrow the screen */
  .hod-next { position: sticky; bottom: 10px; z-index: 5; box-shadow: 0 4px 14px rgba(0,0,0,.35); } }
@media (max-width: 640px) { .hod-count.q-card { padding: 10px; gap: 6px; }
  .hod-count .hod-card-sm { width: 27px; } .hod-count .hod-card-xs { width: 19px; }
  .hod-count .q-btn.hod-next { width: 100%; }
  .hod-count .hod-open-fan { padding-left: 12px; } .hod-count .hod-open-fan > .hod-card { width: 32px; margin-left: -12px; } }
.hod-log { max-height: 260px; overflow-y: auto; font-size: 13px; }
.hod-snippet { background: #1d2521; color: #e8efe9; border-radius: 6px; padding: 8px 10px; font-size: 11px;
  overflow-x: auto; white-space: pre; }
'''



def next_hand_button(on_next: Callable[[], None], *, went_on: bool = False) -> ui.button:
    """"Siguiente mano" under a count; once you have gone on at a room whose count still waits for
    the others, it says so and does nothing more."""
    button = ui.button(t('count.went_on') if went_on else t('count.next_hand'), on_click=on_next) \
        .props('unelevated no-caps size=lg data-testid="next-hand"').classes('hod-next').mark('next-hand')
    if went_on:
        button.disable()
    return button


def legend(bar_key: str) -> ui.html:
    """What the marks on your hand and the seats mean: the coloured bar (``bar_key`` says of
    what), the number over a card, and the dealer's mark."""
    bar = (f'<span class="inline-flex items-center gap-1"><span class="hod-bar inline-block" '
           f'style="width: 18px; margin: 0; background: {MELD_COLOURS[0]}"></span>{escape(t(bar_key))}</span>')
    value = (f'<span class="inline-flex items-center gap-1"><span class="hod-chip" style="background: #fff; '
             f'color: #7f1d1d">5</span>{escape(t("legend.value"))}</span>')
    dealer = (f'<span class="inline-flex items-center gap-1"><span class="hod-chip">{escape(t("table.dealer"))}</span>'
              f'{escape(t("legend.dealer"))}</span>')
    return ui.html(f'<div class="flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs opacity-90" data-testid="legend">'
                   f'{bar}{value}{dealer}</div>', sanitize=False).classes('w-full').mark('legend')


class pile(ui.element):
    """The stock (face down) or the discard pile (its top card face up), redrawn in place."""

    def __init__(self, testid: str, on_click: Callable[[int | None], None], painter: Painter | None = None) -> None:
        super().__init__('div')
        self.testid = testid
        self.painter = painter or Direct()
        self.classes('hod-pile').props(f'data-testid="{testid}" role="button"').mark(testid)
        self.classes('gap-1')
        with self:   # picture and caption apart: drawing a card from the stock only changes the count
            self.picture = ui.html('', sanitize=False)
            self.caption = ui.html('', sanitize=False).classes('text-xs opacity-90')
        on_versioned_click(self, on_click, ('click', 'keydown.enter', 'keydown.space'))

    def show(self, top: Card | None, *, face_down: bool, count: int, caption: str, active: bool, aria: str,
             fresh: bool = False, guess: str | None = None) -> None:
        """``fresh``: its top card was just thrown, ringed until the next move; ``guess``: what a
        click on it does now, for the browser to show at once (components/live.py's GUESS)."""
        picture = card_html(None, face_down=True, size='lg') if face_down and count else card_html(top, size='lg')
        self.painter.html(self.picture, picture)
        self.painter.html(self.caption, escape(caption))
        self.painter.attrs(self, {'aria-label': aria, 'tabindex': '0' if active else '-1',
                                  'aria-disabled': str(not active).lower(), 'data-active': '' if active else None,
                                  'data-card': str(top) if top is not None and not face_down else None,
                                  'data-fresh': '' if fresh else None, GUESS: guess})


def discard_aria(top: Card | None, size: int) -> str:
    """What a screen reader says of the discard pile: its caption's words first (the name someone
    who sees "Descarte: 5" says aloud to a voice control), then the card on top."""
    cards = counted('amount.cards', size)
    return t('table.discard_aria', cards=cards, card=the_card(top)) if top else t('table.discard_aria.empty', cards=cards)


@dataclass(frozen=True, slots=True)
class HandCard:
    card: Card
    bar: str | None = None          # meld colour
    value: int | None = None        # shown on loose cards
    locked: bool = False            # taken from the discard pile this turn
    description: str = ''           # extra words for screen readers (meld / loose)
    fresh: bool = False             # just drawn: ringed until your next move


_SLOT = 'const slot = e.target.closest("[data-index]"); if (!slot) return; const i = Number(slot.dataset.index);'
HAND_KEYS_JS = ('(e) => { ' + _SLOT + ' if (e.key === "Enter" || e.key === " ") { e.preventDefault(); emit(["select", i]); }'
                ' else if (e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) { e.preventDefault();'
                ' const to = e.key === "ArrowLeft" ? i - 1 : i + 1;'
                ' document.dispatchEvent(new CustomEvent("hod-moved", {detail: to})); emit(["move", i, to]); } }')
DRAG_START_JS = '(e) => { ' + _SLOT + ' e.dataTransfer.setData("text/plain", String(i)); }'
HAND_DROP_JS = '(e) => { e.preventDefault(); ' + _SLOT + ' emit([Number(e.dataTransfer.getData("text/plain")), i]); }'


Selection = int | frozenset[int] | None   # one card (Chinchón) or several (Continental's meld builder)


def hand_pieces(cards: Sequence[HandCard], selected: Selection) -> Pieces:
    """The hand, a piece per card: a draw sends the card drawn, a selection the cards it changes."""
    slots = []
    for index, item in enumerate(cards):
        chosen = index in selected if isinstance(selected, frozenset) else index == selected
        aria = card_name(item.card) + (f', {item.description}' if item.description else '')
        value = f'<span class="hod-value" aria-hidden="true">{item.value}</span>' if item.value is not None else ''
        lock = f'<span class="hod-lock" title="{escape(t("table.locked"))}">🔒</span>' if item.locked else ''
        slots.append(
            f'<div class="hod-slot{" hod-selected" if chosen else ""}{" hod-fresh" if item.fresh else ""}" '
            f'data-testid="hand-card" '
            f'data-card="{item.card}" data-index="{index}" role="button" tabindex="0" draggable="true" '
            f'aria-pressed="{str(chosen).lower()}" aria-label="{escape(aria)}">{value}{lock}'
            f'{card_html(item.card, size="md")}'
            f'<div class="hod-bar" style="background: {item.bar or "transparent"}"></div></div>')
    return Pieces(f'<div class="hod-hand" style="--hod-n: {max(1, len(cards))}" role="group" '
                  f'aria-label="{escape(t("table.your_hand"))}">', tuple(slots))


class hand_view(ui.element):
    """The player's hand as one block: click/Enter/Space selects, drag or Shift+arrow reorders.
    The browser only reports which slot was used (event delegation), and every change redraws one
    element: a click right after a selection is never lost to a rebuild."""

    def __init__(self, *, on_select: Callable[[int], None], on_move: Callable[[int, int], None],
                 painter: Painter | None = None) -> None:
        super().__init__('div')
        self.painter = painter or Direct()
        self.cards: list[HandCard] = []
        self.interactive = True
        self.classes('w-full').props('data-testid="hand"').mark('hand')
        with self:
            self.drawing = ui.html('', sanitize=False).classes('w-full')

        def select(index: object) -> None:
            if self.interactive and _index(index, len(self.cards)) is not None:
                on_select(index)

        def key(args: object) -> None:
            if self.interactive:
                _hand_key(args, len(self.cards), on_select, on_move)

        def drop(args: object) -> None:
            if self.interactive:
                _hand_drop(args, len(self.cards), on_move)

        self.on('click', lambda e: select(e.args), js_handler='(e) => { ' + _SLOT + ' emit(i); }')
        self.on('keydown', lambda e: key(e.args), js_handler=HAND_KEYS_JS)
        self.on('dragstart', js_handler=DRAG_START_JS)
        self.on('dragover', js_handler='(e) => e.preventDefault()')
        self.on('drop', lambda e: drop(e.args), js_handler=HAND_DROP_JS)

    def show(self, cards: Sequence[HandCard], selected: Selection, *, interactive: bool = True) -> None:
        self.cards, self.interactive = list(cards), interactive
        self.painter.html(self.drawing, hand_pieces(self.cards, selected))

    def show_selection(self, selected: Selection) -> None:
        self.painter.html(self.drawing, hand_pieces(self.cards, selected))
        self.painter.send()


def _index(value: object, size: int) -> int | None:
    # what the browser sends is checked like any other input: a tampered index is ignored
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size else None


def _hand_key(args: object, size: int, on_select: Callable[[int], None], on_move: Callable[[int, int], None]) -> None:
    if not isinstance(args, list) or not args:
        return
    if args[0] == 'select' and len(args) == 2 and _index(args[1], size) is not None:
        on_select(args[1])
    elif args[0] == 'move' and len(args) == 3 and _index(args[1], size) is not None \
            and _index(args[2], size) is not None:
        on_move(args[1], args[2])


def _hand_drop(args: object, size: int, on_move: Callable[[int, int], None]) -> None:
    if isinstance(args, list) and len(args) == 2 and all(_index(value, size) is not None for value in args) \
            and args[0] != args[1]:
        on_move(args[0], args[1])


def drop_target(element: ui.element, on_drop: Callable[[int], None]) -> None:
    """Let hand cards be dropped on `element` (e.g. the discard pile)."""
    element.on('dragover', js_handler='(e) => e.preventDefault()')
    element.on('drop', lambda e: on_drop(e.args) if isinstance(e.args, int) and not isinstance(e.args, bool) else None,
               js_handler='(e) => { e.preventDefault(); emit(Number(e.dataTransfer.getData("text/plain"))); }')


def log_pieces(lines: Sequence[str]) -> Pieces:
    """The log, a piece per line: a move sends its new lines only."""
    return Pieces(f'<div class="hod-log w-full" role="log" aria-live="polite" aria-label="{escape(t("table.log"))}"'
                  ' data-testid="hand-log">',
                  tuple(f'<div class="py-0.5 border-b border-gray-200">{escape(line)}</div>' for line in lines))


def scoreboard_html(names: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]], totals: Sequence[str],
                    total_label: str) -> str:
    """A plain table: one column per seat, one row per hand (or game), totals last."""
    # the corner heads nothing (a screen reader announces a header cell): a plain cell
    head = '<td class="p-1"></td>' + ''.join(f'<th class="text-right p-1">{escape(n)}</th>' for n in names)
    body = ''.join('<tr class="border-t border-gray-200">'
                   f'<td class="p-1 text-gray-600">{escape(label)}</td>'
                   + ''.join(f'<td class="p-1 text-right">{escape(cell)}</td>' for cell in cells) + '</tr>'
                   for label, cells in rows)
    total = (f'<tr class="border-t-2 border-gray-400 font-bold"><td class="p-1">{escape(total_label)}</td>'
             + ''.join(f'<td class="p-1 text-right">{escape(cell)}</td>' for cell in totals) + '</tr>')
    size = 'text-sm' if len(names) <= 4 else 'text-xs'   # six seats still fit the side panel
    return (f'<div class="overflow-x-auto"><table class="w-full {size}" data-testid="scoreboard"><thead><tr>{head}'
            f'</tr></thead><tbody>{body}{total}</tbody></table></div>')


def refusal_text(refusal: IllegalAction, parse_card: Callable[[str], Card] | None = None) -> str:
    """The engine's refusal in the player's language; cards named in words (``parse_card`` reads
    the game's card notation; without it, nothing is read as a card)."""
    def word(value: object) -> object:
        if isinstance(value, Card):
            return the_card(value)
        try:
            return the_card(parse_card(value)) if isinstance(value, str) and parse_card else value
        except ValueError:
            return value

    key = f'illegal.{refusal.code}'
    if key not in CATALOGS[current_language()]:
        return t('illegal.generic')
    return t(key, **{name: word(value) for name, value in refusal.params.items()})


def rules_link_html(game_id: str, classes: str = '') -> str:
    """The tables' link to their game's rules, in the player's language, opening in a new tab so
    the game in progress stays where it is."""
    name = t(GAMES_BY_ID[game_id].name_key)
    return (f'<a href="{rules_path(game_id, current_language())}" target="_blank" rel="noopener" '
            f'class="{classes}" data-testid="rules-link-{game_id}" '
            f'aria-label="{escape(t("rules.link_aria", game=name))}">{escape(t("rules.link"))}</a>')
