"""What a seat sees: the view, the finished hand's result, and their JSON forms."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engine.actions_json import action_to_json
from app.engine.cards import Card, parse_spanish
from app.engine.protocol import Event, Outcome, PastDeal, SeatView

from .actions import ACTION_TYPES

Meld = tuple[Card, ...]


def jsonable(value: Any) -> Any:
    """Cards as notation, dataclasses as dicts, actions by their JSON form, tuples as lists."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, ACTION_TYPES):
        return action_to_json(value)
    if isinstance(value, (Event, Outcome)):
        return value.to_dict()
    if dataclasses.is_dataclass(value):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items()}
    return value


def _cards(raw: list[str]) -> tuple[Card, ...]:
    return tuple(parse_spanish(' '.join(raw)))


def _melds(raw: list[list[str]]) -> tuple[Meld, ...]:
    return tuple(_cards(meld) for meld in raw)


@dataclass(frozen=True, slots=True)
class SeatCount:
    """One seat's shown hand at the count. For the closer: its melds and loose card, no lay-offs.
    ``layoffs`` are (index in ``HandResult.closer_melds``, cards laid off there)."""

    seat: int
    melds: tuple[Meld, ...]
    layoffs: tuple[tuple[int, Meld], ...]
    loose: tuple[Card, ...]
    points: int

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'SeatCount':
        return cls(raw['seat'], _melds(raw['melds']),
                   tuple((k, _cards(cards)) for k, cards in raw['layoffs']),
                   _cards(raw['loose']), raw['points'])


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand. ``added`` and ``totals`` have one entry per seat (0 added for seats not
    playing, and for everybody after a chinchón or a void hand). ``bought_back`` grows as the
    eliminated seats answer the buy-back offer."""

    hand_number: int
    dealer: int
    closer: int | None
    chinchon: bool
    void: bool
    closer_melds: tuple[Meld, ...]
    seats: tuple[SeatCount, ...]
    added: tuple[int, ...]
    totals: tuple[int, ...]
    eliminated: tuple[int, ...]
    bought_back: tuple[int, ...]
    seed: str
    commitment: str

    def to_dict(self) -> dict[str, Any]:
        return jsonable(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'HandResult':
        return cls(raw['hand_number'], raw['dealer'], raw['closer'], raw['chinchon'], raw['void'],
                   _melds(raw['closer_melds']), tuple(SeatCount.from_dict(s) for s in raw['seats']),
                   tuple(raw['added']), tuple(raw['totals']), tuple(raw['eliminated']),
                   tuple(raw['bought_back']), raw['seed'], raw['commitment'])


@dataclass(frozen=True, slots=True, kw_only=True)
class ChinchonView(SeatView):
    """Everything one seat may know (the shared fields are :class:`SeatView`'s).

    Lists indexed by seat: ``buyback_used``, ``taken_from_discard`` (cards each seat took from
    the discard pile this hand). ``taken_this_turn``: the card this seat took from the discard
    pile this turn (it may not leave again). ``buyback_score``: the score a seat asked about
    buying back would come back on."""

    buyback_used: tuple[bool, ...]
    discard_top: Card | None
    discard_size: int
    taken_from_discard: tuple[tuple[Card, ...], ...]
    taken_this_turn: Card | None
    rules: Any
    reshuffles: int
    last_result: HandResult | None
    buyback_score: int | None

    @property
    def can_close(self) -> bool:
        return any(action.kind == 'close' for action in self.legal_actions)

    def points_by_hand(self, hand_results: Sequence[dict[str, Any]]) -> dict[int, tuple[int, ...] | None]:
        """From the table's count and void-hand events."""
        points: dict[int, tuple[int, ...] | None] = {}
        for event in hand_results:
            data = event.get('data', {})
            if data.get('result') is not None:
                points[data['result']['hand_number']] = tuple(data['result']['added'])
            elif 'hand' in data:
                points[data['hand']] = None
        return points

    def to_dict(self) -> dict[str, Any]:
        return jsonable(self)
