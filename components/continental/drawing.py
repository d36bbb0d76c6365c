"""Continental's board as still markup, from a view: the other seats' strips, the melds on the table
by owner, and a moment of the hand (the review's picture). The live table draws the same strips
and melds (components/continental/table.py), with the melds you can lay off on marked: one
drawing. Pure: nothing here reads a table."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from app.engine.cards import Card
from app.engine.continental import contract
from app.i18n import personal, t
from components.card import card_html, card_name
from components.continental import count
from components.continental.log import contract_words
from components.pictures import centre_html, others_of, own_hand_html
from components.seats import SeatInfo, seats_html


def display_order(cards: Sequence[Card]) -> list[Card]:
    """Your hand by suit, then rank (aces low), jokers last: runs and sets stand out."""
    suits = 'shdc'
    return sorted(cards, key=lambda card: (card.is_joker, 0 if card.is_joker else suits.index(card.suit.value),
                                           card.rank))


def seat_line(view: Any, seat: int, names: Sequence[str]) -> SeatInfo:
    return SeatInfo(seat=seat, name=names[seat], score=view.scores[seat], cards=view.hand_sizes[seat],
                    dealer=view.dealer == seat, on_turn=view.current_seat == seat and view.outcome is None,
                    out=False, note=t('continental.is_down') if view.down[seat] else '')


def melds_html(view: Any, names: Sequence[str], reader: int, order: Sequence[int],
               target: Callable[[Any], bool] = lambda meld: False, extra: str = '') -> str:
    """The melds on the table, a row per owner in ``order``; a meld ``target`` accepts is a choice
    (you can lay off on it); ``extra``: a last row (the ends to lay a card off at)."""
    rows = []
    for seat in order:
        melds = [meld for meld in view.melds if meld.owner == seat]
        if not melds:
            continue
        shown = []
        for meld in melds:
            chosen = target(meld)
            label = personal('continental.meld_aria', you=seat == reader, name=names[seat],
                             cards=', '.join(map(card_name, meld.cards)))
            attributes = (f'data-testid="layoff-target" data-choice="meld:{meld.id}" role="button" tabindex="0"'
                          if chosen else 'data-testid="meld"')
            shown.append(f'<div class="hod-meld{" hod-target" if chosen else ""}" {attributes} '
                         f'data-seat="{seat}" data-meld="{meld.id}" aria-label="{escape(label)}">'
                         + ''.join(card_html(c, size='sm') for c in meld.cards) + '</div>')
        rows.append(f'<div class="hod-meld-row"><span class="text-sm font-semibold w-16 shrink-0">'
                    f'{escape(names[seat])}</span>{"".join(shown)}</div>')
    if extra:
        rows.append(extra)
    if not rows:
        return f'<div class="text-sm opacity-75 text-center">{escape(t("continental.no_melds"))}</div>'
    return f'<div class="hod-melds" data-testid="melds-on-table">{"".join(rows)}</div>'


def picture(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> str:
    """One moment of a hand as the reader saw it, still (the review)."""
    others = others_of(reader, view.seats)
    title = t('continental.hand_of', hand=view.hand_number, hands=view.rules.hands,
              contract=contract_words(contract(view.hand_number)))
    on_offer = view.offer.card if view.offer else None
    return (seats_html([seat_line(view, seat, names) for seat in others])
            + f'<div class="text-center text-sm font-semibold">{escape(title)}</div>'
            + melds_html(view, names, reader, [reader, *others])
            + centre_html(view, t('continental.on_offer') if on_offer else None)
            + own_hand_html(display_order(view.hand), names[reader]))


def count_picture(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> None:
    """The hand's count as the table showed it, with nothing to answer."""
    count.count_panel(view.last_result, names, reader, on_next=None, next_contract=None)
