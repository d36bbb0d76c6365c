"""Chinchón actions: small hashable values; their JSON form is ``actions_json``'s."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.engine.actions_json import ActionCodec
from app.engine.cards import Card, spanish_card


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top of the stock (hidden from the others)."""

    kind: ClassVar[str] = 'draw_stock'


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    """Take the top of the discard pile (public)."""

    kind: ClassVar[str] = 'draw_discard'


@dataclass(frozen=True, slots=True)
class Discard:
    """Put ``card`` face up on the discard pile; the turn passes."""

    card: Card
    kind: ClassVar[str] = 'discard'


@dataclass(frozen=True, slots=True)
class Close:
    """Put ``card`` face down and show the other seven: the hand ends and is counted."""

    card: Card
    kind: ClassVar[str] = 'close'


@dataclass(frozen=True, slots=True)
class BuyBack:
    """Answer the buy-back offer after going over the limit."""

    accept: bool
    kind: ClassVar[str] = 'buyback'


Action = DrawStock | DrawDiscard | Discard | Close | BuyBack
ACTION_TYPES = (DrawStock, DrawDiscard, Discard, Close, BuyBack)
ACTIONS = ActionCodec('Chinchón', ACTION_TYPES, spanish_card)
