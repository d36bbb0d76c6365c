"""Chinchón actions: small hashable values, each with a JSON form."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from app.engine.cards import Card, spanish_card


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top of the stock (hidden from the others)."""

    kind: ClassVar[str] = 'draw_stock'

    def to_json(self) -> dict[str, Any]:
        return {'type': self.kind}


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    """Take the top of the discard pile (public)."""

    kind: ClassVar[str] = 'draw_discard'

    def to_json(self) -> dict[str, Any]:
        return {'type': self.kind}


@dataclass(frozen=True, slots=True)
class Discard:
    """Put ``card`` face up on the discard pile; the turn passes."""

    card: Card
    kind: ClassVar[str] = 'discard'

    def to_json(self) -> dict[str, Any]:
        return {'type': self.kind, 'card': str(self.card)}


@dataclass(frozen=True, slots=True)
class Close:
    """Put ``card`` face down and show the other seven: the hand ends and is counted."""

    card: Card
    kind: ClassVar[str] = 'close'

    def to_json(self) -> dict[str, Any]:
        return {'type': self.kind, 'card': str(self.card)}


@dataclass(frozen=True, slots=True)
class BuyBack:
    """Answer the buy-back offer after going over the limit."""

    accept: bool
    kind: ClassVar[str] = 'buyback'

    def to_json(self) -> dict[str, Any]:
        return {'type': self.kind, 'accept': self.accept}


Action = DrawStock | DrawDiscard | Discard | Close | BuyBack
ACTION_TYPES = (DrawStock, DrawDiscard, Discard, Close, BuyBack)


def action_from_json(raw: dict[str, Any]) -> Action:
    """The inverse of ``to_json``; ValueError on anything else."""
    kind = raw.get('type') if isinstance(raw, dict) else None
    if kind in ('draw_stock', 'draw_discard'):
        return DrawStock() if kind == 'draw_stock' else DrawDiscard()
    if kind in ('discard', 'close') and isinstance(raw.get('card'), str):
        card = spanish_card(raw['card'])
        return Discard(card) if kind == 'discard' else Close(card)
    if kind == 'buyback' and isinstance(raw.get('accept'), bool):
        return BuyBack(raw['accept'])
    raise ValueError(f'not a Chinchón action: {raw!r}')
