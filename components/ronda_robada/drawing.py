"""Ronda Robada's board as markup, from a view: every seat's box with its pile, the stock and the
loose cards, and the run being built. The live table draws it with your choices marked
(components/ronda_robada/table.py), the review as a still picture of one moment: one drawing.
Pure: nothing here reads a table or a page."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from app.i18n import counted, personal, t
from components.card import card_html, card_name, the_card
from components.ronda_robada import count
from components.pictures import own_hand_html
from components.seats import SeatMarks, backs_html, mark_of, presence_html, rating_html

RONDA_CSS = '''
.hod-rr-seats { display: grid; grid-template-columns: repeat(var(--hod-seats), minmax(0, 1fr)); gap: 8px; }
@media (max-width: 640px) { .hod-rr-seats { gap: 4px; } }
.hod-rr-seat { background: rgba(0,0,0,.22); border-radius: 10px; padding: 3px 6px; border: 2px solid transparent;
  display: grid; grid-template-columns: minmax(0, 1fr) auto; grid-template-rows: auto 1fr; column-gap: 6px;
  align-items: center; min-width: 0; position: relative; height: 92px; }
.hod-rr-seat > .hod-rr-name { grid-column: 1; }
.hod-rr-seat > .hod-rr-held { grid-column: 1; grid-row: 2; align-self: start; }
.hod-rr-held { display: flex; align-items: center; gap: 4px; min-width: 0; max-width: 100%; }
.hod-rr-held > .hod-mark { flex: 0 1 auto; font-size: 10px; line-height: 12px; white-space: normal; }
.hod-rr-held > .hod-mark .hod-mark-text { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
.hod-rr-seat > .hod-rr-pile { grid-column: 2; grid-row: 1 / 3; }
.hod-rr-dealer { position: absolute; top: -9px; left: 6px; font-size: 10px; }
.hod-rr-note { position: absolute; bottom: 2px; left: 4px; max-width: calc(100% - 8px); overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; z-index: 1; }
.hod-rr-seat.hod-turn { border-color: var(--hod-gold); box-shadow: 0 0 12px rgba(224,179,65,.6); }
.hod-rr-seat.hod-robbed { border-color: #f87171; animation: hod-flash 1s ease 2; }
@keyframes hod-flash { 50% { box-shadow: 0 0 18px rgba(248,113,113,.9); } }
.hod-rr-name { font-weight: 700; font-size: 13px; max-width: 100%; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
.hod-rr-name > .hod-seat-rating { margin-left: 4px; }
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


def card_attrs(choice: str | None, label: str, testid: str, extra: str = '') -> str:
    """A card's wrapper: a button when it is a choice now, a plain figure otherwise."""
    action = (f' data-choice="{escape(choice)}" role="button" tabindex="0"' if choice else '')
    return f'data-testid="{testid}"{action} aria-label="{escape(label)}"{extra}'


def recent_events(view: Any) -> list[Any]:
    """The events since the end of the turn before the last one: what the player has to see
    (a stolen pile, a redeal) stays on the board until the next turn is over."""
    ends = [index for index, event in enumerate(view.events) if event.kind in ('confirm', 'drop')]
    start = ends[-2] + 1 if len(ends) >= 2 else 0
    return list(view.events[start:])


def robbers(recent: Iterable[Any]) -> dict[int, int]:
    """The piles taken lately: owner -> who took it."""
    return {event.data['owner']: event.seat for event in recent if event.kind == 'take_pile'}


def piles_html(view: Any, names: Sequence[str], reader: int, order: Sequence[int], robbed: dict[int, int],
               options: Iterable[int] = (), marks: Sequence[SeatMarks] = ()) -> str:
    """Every seat's box (in ``order``): its name and a room's marks, the cards it holds face down,
    its pile (a choice when its seat is in ``options``) and who robbed it lately."""
    options = set(options)
    boxes = []
    for seat in order:
        on_turn = view.current_seat == seat and view.outcome is None
        classes = 'hod-rr-seat' + (' hod-turn' if on_turn else '') + (' hod-robbed' if seat in robbed else '')
        top, size = view.pile_tops[seat], view.pile_sizes[seat]
        # a badge on the box's top edge: the seats keep one height on a phone too
        dealer = (f'<span class="hod-chip hod-rr-dealer" title="{escape(t("table.dealer_help"))}">'
                  f'{escape(t("table.dealer"))}</span>' if view.dealer == seat else '')
        name = names[seat]
        mark = mark_of(marks, seat)   # a room's: the rating by the name, who plays the seat by its cards
        yours = seat == reader   # "Tu montón", never "Montón de Tú"
        pile_label = (personal('ronda.pile_aria', you=yours, name=name, cards=counted('amount.cards', size),
                               card=the_card(top)) if top
                      else personal('ronda.pile_empty_aria', you=yours, name=name))
        choice = f'pile:{seat}' if seat in options else None
        picture = card_html(top, size='sm') if top else card_html(None, size='sm')
        note = ''
        if seat in robbed and robbed[seat] != seat:
            words = t('ronda.robbed_by_you') if robbed[seat] == reader else t('ronda.robbed', name=names[robbed[seat]])
            note = f'<span class="text-xs hod-chip hod-rr-note">{escape(words)}</span>'
        boxes.append(
            f'<div class="{classes}" data-testid="rr-seat" data-seat="{seat}">'
            f'<div class="hod-rr-name">{escape(name)}{rating_html(mark, seat, name, you=yours)}</div>'
            f'{dealer}'
            f'<div class="hod-rr-held"><span class="sr-only">{escape(counted("ronda.in_hand", view.hand_sizes[seat]))}'
            f'</span>{backs_html(view.hand_sizes[seat])}{presence_html(mark, seat, name, you=yours)}</div>'
            f'<div class="hod-rr-pile{" hod-choice" if choice else ""}" '
            + card_attrs(choice, pile_label, 'pile', f' data-seat="{seat}" data-count="{size}"'
                         + (f' data-card="{top}"' if top else ''))
            + f'>{picture}<span class="text-xs">{escape(counted("amount.cards", size))}</span></div>'
            f'{note}</div>')
    return f'<div class="hod-rr-seats" style="--hod-seats: {min(view.seats, 4)}">{"".join(boxes)}</div>'


def centre_html(view: Any, choices: Iterable[str] = ()) -> str:
    """The stock and the loose cards (those whose codes are in ``choices`` can be chosen)."""
    choices = set(choices)
    stock = (f'<div class="flex flex-col items-center gap-1" data-testid="stock" data-count="{view.stock_size}" '
             f'aria-label="{escape(counted("ronda.stock_aria", view.stock_size))}">'
             f'{card_html(None, face_down=view.stock_size > 0, size="md")}'
             f'<span class="text-xs">{escape(counted("ronda.stock", view.stock_size))}</span></div>')
    cards = ''.join(
        f'<div class="hod-rr-card{" hod-choice" if str(card) in choices else ""}" '
        + card_attrs(f'loose:{card}' if str(card) in choices else None, card_name(card), 'loose-card',
                     f' data-card="{card}"')
        + f'>{card_html(card, size="md")}</div>' for card in view.loose)
    empty = '' if view.loose else f'<span class="opacity-75 text-sm self-center">{escape(t("ronda.no_loose"))}</span>'
    return (f'<div class="flex items-start justify-center gap-4">{stock}'
            f'<div class="flex-1 flex flex-col items-center gap-1 min-w-0">'
            f'<span class="text-xs opacity-80">{escape(t("ronda.loose_title"))}</span>'
            f'<div class="hod-rr-loose" role="group" aria-label="{escape(t("ronda.loose_title"))}">{cards}{empty}'
            f'</div></div></div>')


def run_summary(view: Any, names: Sequence[str], reader: int) -> tuple[str, str] | None:
    """Whose run is being built and what it has collected so far (with what may follow), or None."""
    run = view.run
    if run is None:
        return None
    collected = [card_html(run.played, size='sm')] + [card_html(card, size='sm') for card in run.loose]
    collected += [f'<span class="flex flex-col items-center">{card_html(pile.top, size="sm")}'
                  f'<span class="hod-rr-size">{escape(counted("amount.cards", pile.size))}</span></span>'
                  for pile in run.piles]
    owner = t('ronda.your_run') if run.seat == reader else t('ronda.their_run', name=names[run.seat])
    wanted = run.next_rank
    if wanted is None:
        following = t('ronda.run_closed')
    else:
        following = t('ronda.closing_one') if run.rank == 12 else t('ronda.next_rank', rank=wanted)
    return owner, (f'<div class="flex flex-wrap items-end gap-1" data-testid="run-so-far">{"".join(collected)}</div>'
                   f'<div class="text-sm opacity-90">{escape(following)}</div>')


def run_box(title: str, summary: str, options: str) -> str:
    choices = (f'<div class="flex flex-wrap gap-2 justify-center" role="group" aria-label="{escape(title)}">'
               f'{options}</div>' if options else '')
    return (f'<div class="hod-rr-run flex flex-col items-center gap-2" data-testid="run-builder">'
            f'<div class="font-semibold">{escape(title)}</div>{summary}{choices}</div>')


def picture(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> str:
    """One moment of a hand as the reader saw it, still (the review): the same board as the table's."""
    order = [(reader + step) % view.seats for step in range(view.seats)]
    summary = run_summary(view, names, reader)
    return (piles_html(view, names, reader, order, robbers(recent_events(view)))
            + centre_html(view) + (run_box(*summary, '') if summary else '')
            + own_hand_html(view.hand, names[reader]))


def count_picture(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> None:
    """The game's count as the table showed it."""
    count.count_panel(view, names, reader)
