"""Continental actions: frozen, hashable values with a JSON form.

    TakeOffer()                       take the offered discard (as your draw, or out of turn)
    PassOffer()                       do not take it
    DrawStock()                       draw the stock top once the offer round has closed
    GoDown(melds)                     lay down the contract; a run is listed low to high
    LayOff(card, meld_id, position)   add a card to a table meld; position = run value (1-14)
    Discard(card)                     end the turn
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Union

from app.engine.cards import Card, french_card, parse_french


@dataclass(frozen=True, slots=True)
class TakeOffer:
    kind: ClassVar[str] = 'take_offer'

    def to_dict(self) -> dict[str, Any]:
        return {'kind': self.kind}


@dataclass(frozen=True, slots=True)
class PassOffer:
    kind: ClassVar[str] = 'pass_offer'

    def to_dict(self) -> dict[str, Any]:
        return {'kind': self.kind}


@dataclass(frozen=True, slots=True)
class DrawStock:
    kind: ClassVar[str] = 'draw_stock'

    def to_dict(self) -> dict[str, Any]:
        return {'kind': self.kind}


@dataclass(frozen=True, slots=True)
class GoDown:
    """``melds``: tuples of cards. A run given low to high keeps that layout (so the player picks
    where an end joker stands); any other order of a valid run is laid out by the engine."""

    melds: tuple[tuple[Card, ...], ...]
    kind: ClassVar[str] = 'go_down'

    def to_dict(self) -> dict[str, Any]:
        return {'kind': self.kind, 'melds': [' '.join(str(card) for card in meld) for meld in self.melds]}


@dataclass(frozen=True, slots=True)
class LayOff:
    """``position`` is the run value the card takes (1 = ace low ... 14 = ace high); None for a
    set, or to let the engine pick the first place that fits (low end first)."""

    card: Card
    meld_id: int
    position: int | None = None
    kind: ClassVar[str] = 'lay_off'

    def to_dict(self) -> dict[str, Any]:
        return {'kind': self.kind, 'card': str(self.card), 'meld_id': self.meld_id, 'position': self.position}


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card
    kind: ClassVar[str] = 'discard'

    def to_dict(self) -> dict[str, Any]:
        return {'kind': self.kind, 'card': str(self.card)}


Action = Union[TakeOffer, PassOffer, DrawStock, GoDown, LayOff, Discard]


def go_down(*melds: str) -> GoDown:
    """``go_down('7s 7h 7d', 'JK 5c 6c 7c')`` — melds in card notation (tests, logs)."""
    return GoDown(tuple(tuple(parse_french(meld)) for meld in melds))


def action_from_dict(raw: dict[str, Any]) -> Action:
    kind = raw.get('kind')
    if kind == 'take_offer':
        return TakeOffer()
    if kind == 'pass_offer':
        return PassOffer()
    if kind == 'draw_stock':
        return DrawStock()
    if kind == 'go_down':
        return go_down(*raw['melds'])
    if kind == 'lay_off':
        return LayOff(french_card(raw['card']), int(raw['meld_id']), raw.get('position'))
    if kind == 'discard':
        return Discard(french_card(raw['card']))
    raise ValueError(f'unknown Continental action kind: {kind!r}')
