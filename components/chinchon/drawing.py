"""Chinchón's board as still markup, from a view: the other seats' strips and a moment of the hand
(the review's picture). The live table draws the same strips (``seat_line``) beside its playable
piles and hand (components/chinchon/table.py): one drawing. Pure: nothing here reads a table."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.cards import Card
from app.i18n import personal
from components.chinchon import count
from components.pictures import centre_html, others_of, own_hand_html
from components.seats import SeatInfo, seats_html


def seat_line(view: Any, seat: int, names: Sequence[str], feminine: Sequence[bool],
              discarded: Card | None = None) -> SeatInfo:
    """One seat's strip: name, points, cards held, dealer, turn, out, the discards it took and
    (at the table) its last discard since yours."""
    out = view.eliminated[seat]
    return SeatInfo(seat=seat, name=names[seat], score=view.scores[seat], cards=view.hand_sizes[seat],
                    dealer=view.dealer == seat, on_turn=view.current_seat == seat and view.outcome is None,
                    out=out, taken=tuple(view.taken_from_discard[seat]),
                    note=personal('table.out', feminine=feminine[seat]) if out else '', discarded=discarded)


def picture(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> str:
    """One moment of a hand as the reader saw it, still (the review)."""
    others = [seat_line(view, seat, names, feminine) for seat in others_of(reader, view.seats)]
    return seats_html(others) + centre_html(view) + own_hand_html(view.hand, names[reader])


def count_picture(view: Any, names: Sequence[str], reader: int, feminine: Sequence[bool]) -> None:
    """The hand's count as the table showed it, with nothing to answer."""
    count.count_panel(view.last_result, names, reader, feminine, human_question=None,
                      on_buyback=lambda accept: None, on_next=None)
