"""The Ronda Robada table: every seat's pile, the loose cards, the stock, your hand of three and the
run builder, drawn inside the table shell shared by every game (components/table/shell.py).

A turn is a drop, or a run built step by step: pick a hand card, pair it with a loose card of its
number, then take the next number (a loose card, or a whole pile whose top has it) as long as you
like, and confirm. The board is a few blocks of markup; every choice in it carries
``data-choice`` (``hand:5c``, ``loose:5o``, ``pile:2``) and reaches the server through one
delegated handler, with the version of the screen it was made on."""
from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from nicegui import ui

from app.engine.cards import Card, spanish_card
from app.engine.ronda_robada import Confirm, Drop, StartRun, TakeLoose, TakePile
from app.i18n import counted, personal, t
from app.tables.port import SeatPort
from components.card import card_html, card_name, the_card
from components.controls import action_button, on_choice, version_sent
from components.ronda_robada.count import VERIFY_SNIPPET, count_panel
from components.ronda_robada.log import log_lines
from components.seats import backs_html
from components.table.fit import grow
from components.table.moments import Motion
from components.table.shell import TableScreen

RONDA_CSS = '''
.hod-rr-seats { display: grid; grid-template-columns: repeat(var(--hod-seats), minmax(0, 1fr)); gap: 8px; }
@media (max-width: 640px) { .hod-rr-seats { gap: 4px; } }
.hod-rr-seat { background: rgba(0,0,0,.22); border-radius: 10px; padding: 3px 6px; border: 2px solid transparent;
  display: grid; grid-template-columns: minmax(0, 1fr) auto; grid-template-rows: auto 1fr; column-gap: 6px;
  align-items: center; min-width: 0; position: relative; height: 92px; }
.hod-rr-seat > .hod-rr-name { grid-column: 1; }
.hod-rr-seat > .hod-rr-held { grid-column: 1; grid-row: 2; align-self: start; }
.hod-rr-seat > .hod-rr-pile { grid-column: 2; grid-row: 1 / 3; }
.hod-rr-dealer { position: absolute; top: -9px; left: 6px; font-size: 10px; }
.hod-rr-note { position: absolute; bottom: 2px; left: 4px; max-width: calc(100% - 8px); overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; z-index: 1; }
.hod-rr-seat.hod-turn { border-color: var(--hod-gold); box-shadow: 0 0 12px rgba(224,179,65,.6); }
.hod-rr-seat.hod-robbed { border-color: #f87171; animation: hod-flash 1s ease 2; }
@keyframes hod-flash { 50% { box-shadow: 0 0 18px rgba(248,113,113,.9); } }
.hod-rr-name { font-weight: 700; font-size: 13px; max-width: 100%; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
@media (max-width: 640px) { .hod-rr-seat { display: flex; flex-direction: column; align-items: center; gap: 1px;
  height: 134px; padding: 3px 2px; } .hod-rr-seat > * { flex: none; } }
.hod-rr-pile { display: flex; flex-direction: column; align-items: center; border-radius: 8px; padding: 3px;
  border: 2px solid transparent; }
.hod-choice { cursor: pointer; border-radius: 8px; border: 2px solid var(--hod-gold);
  box-shadow: 0 0 10px rgba(224,179,65,.7); }
.hod-choice:hover, .hod-choice:focus-visible { outline: 3px solid #fff; outline-offset: 1px; }
.hod-rr-loose { display: flex; flex-wrap: wrap; justify-content: center; gap: 6px; min-height: 60px; }
.hod-rr-hand { display: flex; justify-content: center; gap: 10px; height: 128px; align-items: flex-end; }
@media (max-width: 640px) { .hod-rr-hand { height: 92px; } }
.hod-rr-status { height: 40px; display: flex; flex-direction: column; justify-content: center; }
.hod-rr-card { position: relative; padding: 2px; border: 2px solid transparent; border-radius: 8px; }
.hod-rr-card.hod-selected { transform: translateY(-10px); border-color: #fff; }
.hod-rr-mark { position: absolute; top: -8px; left: 50%; transform: translateX(-50%); white-space: nowrap;
  font-size: 10px; font-weight: 700; border-radius: 8px; padding: 0 5px; background: var(--hod-gold);
  color: #1d2521; }
.hod-rr-run { background: rgba(0,0,0,.25); border-radius: 12px; padding: 8px; }
.hod-rr-size { font-size: 11px; font-weight: 700; background: #fff; color: #1d2521; border-radius: 8px;
  padding: 0 5px; }
'''

def _attrs(choice: str | None, label: str, testid: str, extra: str = '') -> str:
    """A card's wrapper: a button when it is a choice now, a plain figure otherwise."""
    action = (f' data-choice="{escape(choice)}" role="button" tabindex="0"' if choice else '')
    return f'data-testid="{testid}"{action} aria-label="{escape(label)}"{extra}'


class RondaRobadaTable(TableScreen):
    parse_card = staticmethod(spanish_card)
    verify_snippet = VERIFY_SNIPPET
    seat_testid = 'rr-seat'

    def __init__(self, port: SeatPort, **handlers: Any) -> None:
        super().__init__(port, **handlers)
        self.selected: str | None = None   # the hand card chosen to play, by its code
        self.log_cache: dict[int, tuple[dict, str | None]] = {}

    # building ---------------------------------------------------------------------------------
    def board(self) -> None:
        ui.add_css(RONDA_CSS)
        self.piles = self._choices(ui.html('', sanitize=False).classes('w-full').mark('piles'))
        with grow().classes('flex flex-col gap-2'):
            self.centre = self._choices(ui.html('', sanitize=False).classes('w-full').mark('centre'))
            self.run_panel = self._choices(ui.html('', sanitize=False).classes('w-full').mark('run'))
        self.status = ui.html('', sanitize=False).classes('w-full text-center hod-status hod-rr-status') \
            .props('aria-live="polite" data-testid="status"').mark('status')
        # your hand and actions (.hod-own: what a spectator's screen leaves out)
        self.hand_view = self._choices(ui.html('', sanitize=False).classes('w-full hod-own').props('data-testid="hand"')
                                       .mark('hand'))
        with self.action_bar():
            self.confirm_button = action_button(t('ronda.confirm'), 'confirm-run', self.speaking(self._confirm),
                                                tone='accent', icon='check', versioned=True)
            self.drop_button = action_button(t('ronda.drop'), 'drop', self.speaking(self._drop), icon='south',
                                             versioned=True)
            self.hint_button = action_button(t('table.hint'), 'hint', self.ask_hint, tone='flat',
                                             icon='lightbulb')

    def _choices(self, element: ui.html) -> ui.html:
        return on_choice(element, self.speaking(self._chosen))

    # what the screen shows ------------------------------------------------------------------------
    def turn_phase(self, view: Any) -> str:
        if view.current_seat != self.seat or view.outcome is not None:
            return 'wait'
        return 'start' if view.run is None else 'run'

    def top_texts(self, view: Any) -> list[str]:
        return [t(self.snap.game.name_key)]

    def others_html(self, view: Any) -> str:
        return ''   # every seat, yours too, is drawn with its pile on the board

    def draw_board(self, view: Any, phase: str) -> None:
        if self.selected is not None and (phase != 'start' or self.selected not in map(str, view.hand)):
            self.selected = None
        recent = self._recent(view)
        self.live.html(self.piles, self._piles_html(view, phase, recent))
        self.live.html(self.centre, self._centre_html(view, phase))
        self.live.html(self.run_panel, self._run_html(view, phase))
        self.live.html(self.status, f'<div class="font-semibold">{escape(self._status(view, phase, recent))}</div>'
                                    f'{self.notice_html()}')
        self.live.html(self.hand_view, self._hand_html(view, phase))
        self.live.attrs(self.confirm_button, {'disabled': None if phase == 'run' else True})
        can_drop = phase == 'start' and self.selected is not None
        self.live.attrs(self.drop_button, {'disabled': None if can_drop else True,
                                           'title': t('illegal.no_drop_after_start') if phase == 'run' else None})
        # no hints chosen: no button; otherwise it keeps its place, usable on your turn
        self.live.attrs(self.hint_button, {'hidden': None if self.snap.options.hints else True,
                                           'disabled': None if phase in ('start', 'run') else True})

    def _recent(self, view: Any) -> list[Any]:
        """The events since the end of the turn before the last one: what the player has to see
        (a stolen pile, a redeal) stays on the board until the next turn is over."""
        ends = [index for index, event in enumerate(view.events) if event.kind in ('confirm', 'drop')]
        start = ends[-2] + 1 if len(ends) >= 2 else 0
        return list(view.events[start:])

    def _piles_html(self, view: Any, phase: str, recent: list[Any]) -> str:
        robbed = {event.data['owner']: event.seat for event in recent if event.kind == 'take_pile'}
        options = self._pile_options(view) if phase == 'run' else set()
        boxes = []
        for seat in self.every_seat():
            on_turn = view.current_seat == seat and view.outcome is None
            classes = 'hod-rr-seat' + (' hod-turn' if on_turn else '') + (' hod-robbed' if seat in robbed else '')
            top, size = view.pile_tops[seat], view.pile_sizes[seat]
            # a badge on the box's top edge: the seats keep one height on a phone too
            dealer = (f'<span class="hod-chip hod-rr-dealer" title="{escape(t("table.dealer_help"))}">'
                      f'{escape(t("table.dealer"))}</span>' if view.dealer == seat else '')
            name = self.names[seat]
            yours = seat == self.seat   # "Tu montón", never "Montón de Tú"
            pile_label = (personal('ronda.pile_aria', you=yours, name=name, cards=counted('amount.cards', size),
                                   card=the_card(top)) if top
                          else personal('ronda.pile_empty_aria', you=yours, name=name))
            choice = f'pile:{seat}' if seat in options else None
            picture = card_html(top, size='sm') if top else card_html(None, size='sm')
            note = ''
            if seat in robbed and robbed[seat] != seat:
                words = t('ronda.robbed_by_you') if robbed[seat] == self.seat else t('ronda.robbed',
                                                                                    name=self.names[robbed[seat]])
                note = f'<span class="text-xs hod-chip hod-rr-note">{escape(words)}</span>'
            boxes.append(
                f'<div class="{classes}" data-testid="rr-seat" data-seat="{seat}">'
                f'<div class="hod-rr-name">{escape(name)}</div>{dealer}'
                f'<div class="hod-rr-held"><span class="sr-only">{escape(counted("ronda.in_hand", view.hand_sizes[seat]))}'
                f'</span>{backs_html(view.hand_sizes[seat])}</div>'
                f'<div class="hod-rr-pile{" hod-choice" if choice else ""}" '
                + _attrs(choice, pile_label, 'pile', f' data-seat="{seat}" data-count="{size}"'
                         + (f' data-card="{top}"' if top else ''))
                + f'>{picture}<span class="text-xs">{escape(counted("amount.cards", size))}</span></div>'
                f'{note}</div>')
        return f'<div class="hod-rr-seats" style="--hod-seats: {min(view.seats, 4)}">{"".join(boxes)}</div>'

    def _centre_html(self, view: Any, phase: str) -> str:
        choices = self._loose_choices(view, phase)
        stock = (f'<div class="flex flex-col items-center gap-1" data-testid="stock" data-count="{view.stock_size}" '
                 f'aria-label="{escape(counted("ronda.stock_aria", view.stock_size))}">'
                 f'{card_html(None, face_down=view.stock_size > 0, size="md")}'
                 f'<span class="text-xs">{escape(counted("ronda.stock", view.stock_size))}</span></div>')
        cards = ''.join(
            f'<div class="hod-rr-card{" hod-choice" if str(card) in choices else ""}" '
            + _attrs(f'loose:{card}' if str(card) in choices else None, card_name(card), 'loose-card',
                     f' data-card="{card}"')
            + f'>{card_html(card, size="md")}</div>' for card in view.loose)
        empty = '' if view.loose else f'<span class="opacity-75 text-sm self-center">{escape(t("ronda.no_loose"))}</span>'
        return (f'<div class="flex items-start justify-center gap-4">{stock}'
                f'<div class="flex-1 flex flex-col items-center gap-1 min-w-0">'
                f'<span class="text-xs opacity-80">{escape(t("ronda.loose_title"))}</span>'
                f'<div class="hod-rr-loose" role="group" aria-label="{escape(t("ronda.loose_title"))}">{cards}{empty}'
                f'</div></div></div>')

    def _run_html(self, view: Any, phase: str) -> str:
        """The run being built (anybody's) and, on your turn, every way to go on."""
        if phase == 'start' and self.selected is not None:
            pairs = [card for card in view.loose if str(card.rank) == self.selected[:-1]]
            if not pairs:
                return ''
            title = t('ronda.pair_with', card=the_card(spanish_card(self.selected)))
            return self._run_box(title, '', self._option_cards(pairs))
        run = view.run
        if run is None:
            return ''
        collected = [card_html(run.played, size='sm')] + [card_html(card, size='sm') for card in run.loose]
        collected += [f'<span class="flex flex-col items-center">{card_html(pile.top, size="sm")}'
                      f'<span class="hod-rr-size">{escape(counted("amount.cards", pile.size))}</span></span>'
                      for pile in run.piles]
        owner = t('ronda.your_run') if run.seat == self.seat else t('ronda.their_run', name=self.names[run.seat])
        wanted = run.next_rank
        if wanted is None:
            following = t('ronda.run_closed')
        else:
            following = t('ronda.closing_one') if run.rank == 12 else t('ronda.next_rank', rank=wanted)
        options = ''
        if phase == 'run':
            loose = [card for card in view.loose if TakeLoose(card) in view.legal_actions]
            piles = sorted(self._pile_options(view))
            options = self._option_cards(loose) + ''.join(
                '<div class="hod-rr-card hod-choice flex flex-col items-center" '
                + _attrs(f'pile:{seat}', t('ronda.take_pile_option', pile=self.pile_words(seat),
                                          cards=counted('amount.cards', view.pile_sizes[seat])), 'run-option', f' data-seat="{seat}"')
                + f'>{card_html(view.pile_tops[seat], size="md")}<span class="text-xs">'
                f'{escape(self.pile_words(seat))}</span>'
                f'<span class="hod-rr-size">{escape(counted("amount.cards", view.pile_sizes[seat]))}</span></div>'
                for seat in piles)
        summary = (f'<div class="flex flex-wrap items-end gap-1" data-testid="run-so-far">{"".join(collected)}</div>'
                   f'<div class="text-sm opacity-90">{escape(following)}</div>')
        return self._run_box(owner, summary, options)

    @staticmethod
    def _run_box(title: str, summary: str, options: str) -> str:
        choices = (f'<div class="flex flex-wrap gap-2 justify-center" role="group" aria-label="{escape(title)}">'
                   f'{options}</div>' if options else '')
        return (f'<div class="hod-rr-run flex flex-col items-center gap-2" data-testid="run-builder">'
                f'<div class="font-semibold">{escape(title)}</div>{summary}{choices}</div>')

    @staticmethod
    def _option_cards(cards: list[Card]) -> str:
        return ''.join('<div class="hod-rr-card hod-choice" '
                       + _attrs(f'loose:{card}', card_name(card), 'run-option', f' data-card="{card}"')
                       + f'>{card_html(card, size="md")}</div>' for card in cards)

    def _hand_html(self, view: Any, phase: str) -> str:
        starters = {str(action.card) for action in view.legal_actions if isinstance(action, StartRun)}
        slots = []
        for card in view.hand:
            code = str(card)
            chosen = code == self.selected
            can_start = code in starters
            mark = (f'<span class="hod-rr-mark" aria-hidden="true">{escape(t("ronda.can_start"))}</span>'
                    if can_start else '')
            label = card_name(card) + (f', {t("ronda.can_start_aria")}' if can_start else '')
            slots.append(f'<div class="hod-rr-card{" hod-selected" if chosen else ""}" '
                         + _attrs(f'hand:{code}' if phase == 'start' else None, label, 'hand-card',
                                  f' data-card="{code}" aria-pressed="{str(chosen).lower()}"')
                         + f'>{mark}{card_html(card, size="lg")}</div>')
        return (f'<div class="hod-rr-hand" role="group" aria-label="{escape(t("table.your_hand"))}">'
                f'{"".join(slots)}</div>')

    def _status(self, view: Any, phase: str, recent: list[Any]) -> str:
        redeal = next((event for event in reversed(recent) if event.kind == 'redeal'), None)
        news = f'{t("ronda.redealt", count=redeal.data["stock"])} ' if redeal is not None else ''
        return news + self._next_step(view, phase)

    def _next_step(self, view: Any, phase: str) -> str:
        if phase == 'start':
            if self.selected is None:
                return t('ronda.your_turn')
            has_pair = any(str(card.rank) == self.selected[:-1] for card in view.loose)
            return t('ronda.pair_or_drop' if has_pair else 'ronda.only_drop',
                     card=the_card(spanish_card(self.selected)))
        if phase == 'run':   # one message: go on while something can be taken, else confirm
            can_go_on = any(isinstance(action, (TakeLoose, TakePile)) for action in view.legal_actions)
            return t('ronda.go_on' if can_go_on else 'ronda.nothing_more')
        return t('table.waiting', name=self.names[view.current_seat]) if view.current_seat is not None else ''

    def _loose_choices(self, view: Any, phase: str) -> set[str]:
        if phase == 'start' and self.selected is not None:
            return {str(action.loose) for action in view.legal_actions
                    if isinstance(action, StartRun) and str(action.card) == self.selected}
        if phase == 'run':
            return {str(action.card) for action in view.legal_actions if isinstance(action, TakeLoose)}
        return set()

    def pile_words(self, seat: int) -> str:
        """'your pile' or 'Lucía's pile'."""
        return t('ronda.your_pile') if seat == self.seat else t('ronda.pile_of', name=self.names[seat])

    @staticmethod
    def _pile_options(view: Any) -> set[int]:
        return {action.owner for action in view.legal_actions if isinstance(action, TakePile)}

    # the shell's other parts ---------------------------------------------------------------------
    def log_lines(self) -> list[str]:
        return log_lines(self.visible_log(), self.names, self.seat, cache=self.log_cache)

    def banner(self, event: dict[str, Any]) -> tuple[str, str] | None:
        """A pile taken is the game's big moment: above all for the one who loses it."""
        if event['kind'] != 'take_pile' or event['data']['owner'] == event['seat']:
            return None
        taker, owner, size = event['seat'], event['data']['owner'], event['data']['size']
        key = 'banner.steal.you' if owner == self.seat else 'banner.steal.by_you' if taker == self.seat \
            else 'banner.steal'
        return 'steal', counted(key, size, name=self.names[taker], owner=self.names[owner])

    def motions(self, event: dict[str, Any]) -> list[Motion]:
        """A card played goes from its seat (your card) to the loose cards or into the run; what a
        run takes flies into it, and a confirmed run into its taker's pile."""
        kind, seat, data = event['kind'], event.get('seat'), event.get('data', {})
        if seat is None:
            return []
        played = self.CHOSEN_CARD if seat == self.seat else self.seat_selector(seat)
        in_run = '[data-testid="run-so-far"] [data-card="{}"]'.format
        if kind == 'drop':
            return [(played, f'[data-testid="loose-card"][data-card="{data["card"]}"]', False)]
        if kind == 'start_run':
            return [(played, in_run(data['card']), False),
                    (f'[data-testid="loose-card"][data-card="{data["loose"]}"]', in_run(data['loose']), False)]
        if kind == 'take_loose':
            return [(f'[data-testid="loose-card"][data-card="{data["card"]}"]', in_run(data['card']), False)]
        if kind == 'take_pile':
            return [(f'[data-testid="pile"][data-seat="{data["owner"]}"]', '[data-testid="run-so-far"]', True)]
        if kind == 'confirm':
            return [('[data-testid="run-so-far"]', f'[data-testid="pile"][data-seat="{seat}"]', True)]
        return []

    def count_panel(self, view: Any, phase: str) -> None:
        count_panel(view, self.names, self.seat)

    def score_rows(self, view: Any) -> list[tuple[str, list[str]]]:
        games = [game['scores'] for game in self.snap.past_games]
        if view.outcome is not None:
            games.append(list(view.outcome.scores))
        return [(t('table.game_number', game=index + 1), [str(score) for score in scores])
                for index, scores in enumerate(games)]

    def score_totals(self, view: Any) -> tuple[list[str], str]:
        return [str(won) for won in self.snap.games_won], t('ronda.games_won')

    # the player's choices --------------------------------------------------------------------------
    def after_action(self) -> None:
        self.selected = None

    def _chosen(self, args: Any) -> None:
        """A click or key on the board: ``[choice, version]``; anything else is ignored."""
        if not (isinstance(args, list) and len(args) == 2 and isinstance(args[0], str)):
            return
        kind, _, value = args[0].partition(':')
        version = version_sent(args[1])
        view = self.snap.view
        try:
            if kind == 'hand':
                self._select(view, spanish_card(value))
            elif kind == 'loose':
                card = spanish_card(value)
                if view.run is None and self.selected is not None:
                    self.act(StartRun(spanish_card(self.selected), card), version)
                else:
                    self.act(TakeLoose(card), version)
            elif kind == 'pile' and value.isdigit():
                self.act(TakePile(int(value)), version)
        except ValueError:   # a tampered card code
            self.refused(t('illegal.bad_action'))

    def _select(self, view: Any, card: Card) -> None:
        if self.phase(view) != 'start' or card not in view.hand:
            return
        self.selected = None if self.selected == str(card) else str(card)
        self.notice = ''
        self.render()

    def _drop(self, version: int | None) -> None:
        if self.phase(self.snap.view) == 'run':   # the button is disabled: a crafted click
            self.refused(t('illegal.no_drop_after_start'))
            return
        if self.selected is None:
            self.notice = t('ronda.select_first')
            self.render()
            return
        self.act(Drop(spanish_card(self.selected)), version)

    def _confirm(self, version: int | None) -> None:
        self.act(Confirm(), version)

    def show_hint(self, action: Any) -> None:
        self.notice = hint_text(action, self.pile_words)
        if isinstance(action, (StartRun, Drop)):
            self.selected = str(action.card)
        self.render()


def hint_text(action: Any, pile_words: Callable[[int], str]) -> str:
    if isinstance(action, StartRun):
        return t('hint.ronda.start_run', card=the_card(action.card), loose=the_card(action.loose))
    if isinstance(action, TakeLoose):
        return t('hint.ronda.take_loose', card=the_card(action.card))
    if isinstance(action, TakePile):
        return t('hint.ronda.take_pile', pile=pile_words(action.owner))
    if isinstance(action, Drop):
        return t('hint.ronda.drop', card=the_card(action.card))
    return t('hint.ronda.confirm')
