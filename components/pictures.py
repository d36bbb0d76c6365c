"""Still pictures of a table's moment, shared by every game's drawing: cards in a row, your hand,
every hand face up once a hand is over, the stock and the discard. Nothing here can be played."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from app.i18n import t
from components.card import card_html, card_name


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


def others_of(reader: int, seats: int) -> list[int]:
    """The other seats in playing order, starting after the reader's."""
    return [(reader + step) % seats for step in range(1, seats)]
