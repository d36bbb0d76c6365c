"""Continental actions: frozen, hashable values; their JSON form is ``actions_json``'s.

    TakeOffer()                       take the offered discard (as your draw, or out of turn)
    PassOffer()                       do not take it
    DrawStock()                       draw the stock top once the offer round has closed
    GoDown(melds)                     lay down the contract; a run is listed low to high
    LayOff(card, meld_id, position)   add a card to a table meld; position = run value (1-14)
    Discard(card)                     end the turn
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union

from app.engine.actions_json import ActionCodec
from app.engine.cards import Card, french_card, parse_french


@dataclass(frozen=True, slots=True)
class TakeOffer:
    kind: ClassVar[str] = 'take_offer'


@dataclass(frozen=True, slots=True)
class PassOffer:
    kind: ClassVar[str] = 'pass_offer'


@dataclass(frozen=True, slots=True)
class DrawStock:
    kind: ClassVar[str] = 'draw_stock'


@dataclass(frozen=True, slots=True)
class GoDown:
    """``melds``: tuples of cards. A run given low to high keeps that layout (so the player picks
    where an end joker stands); any other order of a valid run is laid out by the engine."""

    melds: tuple[tuple[Card, ...], ...]
    kind: ClassVar[str] = 'go_down'


@dataclass(frozen=True, slots=True)
class LayOff:
    """``position`` is the run value the card takes (1 = ace low ... 14 = ace high); None for a
    set, or to let the engine pick the first place that fits (low end first)."""

    card: Card
    meld_id: int
    position: int | None = None
    kind: ClassVar[str] = 'lay_off'


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card
    kind: ClassVar[str] = 'discard'


Action = Union[TakeOffer, PassOffer, DrawStock, GoDown, LayOff, Discard]
ACTIONS = ActionCodec('Continental', (TakeOffer, PassOffer, DrawStock, GoDown, LayOff, Discard), french_card)


def go_down(*melds: str) -> GoDown:
    """``go_down('7s 7h 7d', 'JK 5c 6c 7c')`` — melds in card notation (tests, logs)."""
    return GoDown(tuple(tuple(parse_french(meld)) for meld in melds))
