"""A moment of a finished hand as markup, per game: the other seats, the table and your hand, from
one seat's view only; every seat's hand once "with all the cards" is on; and the count when the
hand has ended (the game's own count panel, as the table showed it). Static pictures: nothing
here can be played."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from app.engine.continental import contract
from app.engine.continental.melds import HANDS
from app.i18n import counted, personal, t
from components.card import card_html, card_name
from components.chinchon import count as chinchon_count
from components.continental import count as continental_count
from components.continental.log import contract_words
from components.continental.table import display_order
from components.ronda_robada import count as ronda_count
from components.seats import SeatInfo, seats_html
from components.table_parts import MELD_COLOURS

REVIEW_CSS = '''
.hod-review-cards { display: flex; flex-wrap: wrap; justify-content: center; gap: 4px; }
.hod-review-meld { display: flex; padding: 3px; border-radius: 8px; background: rgba(0,0,0,.18);
  border-bottom: 4px solid var(--hod-meld); }
.hod-review-meld > * + * { margin-left: -14px; }
.hod-review-seat-hand { background: rgba(0,0,0,.22); border-radius: 10px; padding: 4px 8px; }
.hod-review-steps { max-height: 320px; overflow-y: auto; position: relative; }
.hod-review-step { display: block; width: 100%; text-align: left; padding: 3px 8px; border-radius: 6px;
  font-size: 13px; cursor: pointer; }
.hod-review-step:hover { background: #eef5f0; }
.hod-review-step[aria-current="step"] { background: #1f5f3a; color: #fff; font-weight: 600; }
'''


def cards_html(cards: Sequence[Any], size: str = 'md') -> str:
    return ''.join(card_html(card, size=size) for card in cards)


def own_hand_html(cards: Sequence[Any], name: str) -> str:
    """Your cards at that moment (the reader's seat), under the table."""
    return (f'<div class="flex flex-col items-center gap-1" data-testid="replay-hand" role="group" '
            f'aria-label="{escape(t("table.your_hand"))}"><span class="text-sm font-semibold">{escape(name)}</span>'
            f'<div class="hod-review-cards">{cards_html(cards)}</div></div>')


def every_hand_html(views: Sequence[Any], names: Sequence[str], order: Sequence[int],
                    sort: Callable[[Sequence[Any]], Sequence[Any]] = tuple) -> str:
    """The other seats' hands at that moment, face up: only once the hand is over."""
    blocks = ''.join(
        f'<div class="hod-review-seat-hand flex flex-col items-center gap-1" data-testid="replay-seat-hand" '
        f'data-seat="{seat}"><span class="text-xs font-semibold">{escape(names[seat])}</span>'
        f'<div class="hod-fan">{cards_html(sort(views[seat].hand), size="xs")}</div></div>'
        for seat in order if views[seat].hand)
    return (f'<div class="flex flex-wrap justify-center gap-2" data-testid="replay-all-hands" '
            f'aria-label="{escape(t("review.all_hands"))}">{blocks}</div>' if blocks else '')


def centre_html(view: Any, caption: str | None = None) -> str:
    """The stock (face down) and the discard pile's top."""
    stock = (f'<div class="flex flex-col items-center gap-1" data-testid="replay-stock">'
             f'{card_html(None, face_down=view.stock_size > 0, size="lg")}'
             f'<span class="text-xs">{escape(t("table.stock", count=view.stock_size))}</span></div>')
    top = view.discard_top
    discard = (f'<div class="flex flex-col items-center gap-1" data-testid="replay-discard"'
               + (f' data-card="{top}" aria-label="{escape(card_name(top))}"' if top else '') + '>'
               f'{card_html(top, size="lg")}<span class="text-xs">'
               f'{escape(caption or t("table.discard", count=view.discard_size))}</span></div>')
    return f'<div class="flex justify-center items-end gap-6">{stock}{discard}</div>'


def _others(reader: int, seats: int) -> list[int]:
    return [(reader + step) % seats for step in range(1, seats)]


# Chinchón ---------------------------------------------------------------------------------------

def chinchon_board(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> str:
    others = [SeatInfo(seat=seat, name=names[seat], score=view.scores[seat], cards=view.hand_sizes[seat],
                       dealer=view.dealer == seat, on_turn=view.current_seat == seat, out=view.eliminated[seat],
                       taken=tuple(view.taken_from_discard[seat]),
                       note=personal('table.out', feminine=feminine[seat]) if view.eliminated[seat] else '')
              for seat in _others(reader, view.seats)]
    return seats_html(others) + centre_html(view) + own_hand_html(view.hand, names[reader])


def chinchon_count_panel(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> None:
    chinchon_count.count_panel(view.last_result, names, reader, feminine, human_question=None,
                               on_buyback=lambda accept: None, on_next=None)


# Continental ------------------------------------------------------------------------------------

def continental_board(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> str:
    others = [SeatInfo(seat=seat, name=names[seat], score=view.scores[seat], cards=view.hand_sizes[seat],
                       dealer=view.dealer == seat, on_turn=view.current_seat == seat, out=False,
                       note=t('continental.is_down') if view.down[seat] else '')
              for seat in _others(reader, view.seats)]
    title = t('continental.hand_of', hand=view.hand_number, hands=HANDS,
              contract=contract_words(contract(view.hand_number)))
    melds = ''.join(
        f'<div class="hod-review-meld" style="--hod-meld: {MELD_COLOURS[meld.owner % len(MELD_COLOURS)]}" '
        f'data-testid="replay-meld" aria-label="{escape(names[meld.owner])}">{cards_html(meld.cards, size="sm")}</div>'
        for meld in view.melds)
    on_offer = view.offer.card if view.offer else None
    return (seats_html(others) + f'<div class="text-center text-sm font-semibold">{escape(title)}</div>'
            + (f'<div class="flex flex-wrap justify-center gap-2">{melds}</div>' if melds else '')
            + centre_html(view, t('continental.on_offer') if on_offer else None)
            + own_hand_html(display_order(view.hand), names[reader]))


def continental_count_panel(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> None:
    continental_count.count_panel(view.last_result, names, reader, on_next=None, next_contract=None)


# Ronda Robada -----------------------------------------------------------------------------------

def ronda_board(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> str:
    boxes = ''.join(
        f'<div class="hod-rr-seat{" hod-turn" if view.current_seat == seat else ""}" data-testid="replay-pile" '
        f'data-seat="{seat}"' + (f' data-card="{view.pile_tops[seat]}"' if view.pile_tops[seat] else '') + '>'
        f'<div class="hod-rr-name">{escape(names[seat])}</div>'
        f'<div class="text-xs opacity-90">{escape(counted("ronda.in_hand", view.hand_sizes[seat]))}</div>'
        f'{card_html(view.pile_tops[seat], size="sm")}'
        f'<span class="text-xs">{escape(counted("amount.cards", view.pile_sizes[seat]))}</span></div>'
        for seat in [reader, *_others(reader, view.seats)])
    run = ''
    if view.run is not None:
        owner = t('ronda.your_run') if view.run.seat == reader else t('ronda.their_run', name=names[view.run.seat])
        taken = [view.run.played, *view.run.loose, *(pile.top for pile in view.run.piles)]
        run = (f'<div class="hod-rr-run flex flex-col items-center gap-1" data-testid="replay-run">'
               f'<span class="font-semibold">{escape(owner)}</span>'
               f'<div class="hod-review-cards">{cards_html(taken, size="sm")}</div></div>')
    loose = cards_html(view.loose) or f'<span class="opacity-75 text-sm">{escape(t("ronda.no_loose"))}</span>'
    stock = (f'<div class="flex flex-col items-center gap-1" data-testid="replay-stock">'
             f'{card_html(None, face_down=view.stock_size > 0, size="md")}'
             f'<span class="text-xs">{escape(counted("ronda.stock", view.stock_size))}</span></div>')
    return (f'<div class="hod-rr-seats" style="--hod-seats: {min(view.seats, 4)}">{boxes}</div>'
            f'<div class="flex items-start justify-center gap-4">{stock}<div class="flex flex-col items-center gap-1">'
            f'<span class="text-xs opacity-80">{escape(t("ronda.loose_title"))}</span>'
            f'<div class="hod-review-cards">{loose}</div></div></div>{run}'
            + own_hand_html(view.hand, names[reader]))


def ronda_count_panel(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> None:
    ronda_count.count_panel(view, names, reader)


@dataclass(frozen=True, slots=True)
class Board:
    draw: Callable[[Any, Sequence[str], int, Sequence[bool]], str]          # a moment of the hand
    count: Callable[[Any, Sequence[str], int, Sequence[bool]], None]        # the hand's end, as counted
    sort: Callable[[Sequence[Any]], Sequence[Any]] = tuple                  # how a hand is shown


BOARDS: dict[str, Board] = {
    'chinchon': Board(chinchon_board, chinchon_count_panel),
    'continental': Board(continental_board, continental_count_panel, display_order),
    'ronda-robada': Board(ronda_board, ronda_count_panel),
}
