"""What one Continental seat may know: its own cards and everything public."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engine.cards import Card
from app.engine.continental.melds import HANDS, Contract, TableMeld
from app.engine.protocol import SeatView


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a game is played by. ``robo_de_contra`` (a room option): seats not on turn may
    take an offered discard with a penalty card from the stock; when off only the seat on turn
    may take it.

    ``stock_rebuilds``: how many times the stock may be rebuilt from the discard pile in one hand
    (0 = no limit). RULES.md does not bound it, but when every seat is down and no card in any
    hand fits the table, the same few discards would cycle for ever; past the limit no card can
    be drawn, so the hand ends as the rules say and everyone scores their hand.

    ``hands``: how many of the seven contracts are played, from the first (``HANDS``, all seven,
    is the game of RULES.md). No room option: code sets it, as the daily deal does to play the
    first three only; the game ends after hand ``hands`` and the lowest total wins as after the
    seventh. ``stock_rebuilds`` and ``hands`` are checked here, so rules fixed by code are refused
    with a ValueError as a room's options are."""

    robo_de_contra: bool = True
    stock_rebuilds: int = 10
    hands: int = HANDS

    def __post_init__(self) -> None:
        # type() and not isinstance(): True must not pass for 1
        if type(self.stock_rebuilds) is not int or self.stock_rebuilds < 0:
            raise ValueError(f'stock_rebuilds must be a whole number, 0 (no limit) or more, not {self.stock_rebuilds!r}')
        if type(self.hands) is not int or not 1 <= self.hands <= HANDS:
            raise ValueError(f'hands must be a whole number, 1 to {HANDS}, not {self.hands!r}')

    def to_dict(self) -> dict[str, Any]:
        return {'robo_de_contra': self.robo_de_contra, 'stock_rebuilds': self.stock_rebuilds, 'hands': self.hands}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'Rules':
        # saved before games of fewer hands: the whole game
        return cls(robo_de_contra=bool(raw.get('robo_de_contra', True)),
                   stock_rebuilds=int(raw.get('stock_rebuilds', 10)), hands=int(raw.get('hands', HANDS)))


@dataclass(frozen=True, slots=True)
class OfferView:
    """The discard top on offer: ``asked`` decides now; ``order`` is everyone who may be asked
    (the seat on turn first, the discarder never); ``passed`` who already said no."""

    card: Card
    on_turn: int
    discarder: int | None
    asked: int
    order: tuple[int, ...]
    passed: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {'card': str(self.card), 'on_turn': self.on_turn, 'discarder': self.discarder,
                'asked': self.asked, 'order': list(self.order), 'passed': list(self.passed)}


@dataclass(frozen=True, slots=True, kw_only=True)
class View(SeatView):
    """One seat's view (the shared fields are :class:`SeatView`'s). ``phase`` is 'offer' (a
    discard is being offered), 'draw' (the seat on turn must draw from the stock), 'play' (go
    down, lay off, discard) or 'over'. ``melds`` are the melds laid on the table this hand.
    ``hand_scores[h][seat]`` are the points of finished hand h+1; ``scores`` their totals."""

    rules: Rules
    contract: Contract
    on_turn: int | None
    melds: tuple[TableMeld, ...]
    down: tuple[bool, ...]
    discard_top: Card | None
    discard_size: int
    stock_rebuilds: int
    offer: OfferView | None
    hand_scores: tuple[tuple[int, ...], ...]
    last_result: dict[str, Any] | None

    def points_by_hand(self, hand_results: Sequence[dict[str, Any]]) -> dict[int, tuple[int, ...] | None]:
        return {index + 1: tuple(row) for index, row in enumerate(self.hand_scores)}

    def to_dict(self) -> dict[str, Any]:
        return {
            **SeatView.to_dict(self), 'rules': self.rules.to_dict(), 'contract': self.contract.to_dict(),
            'on_turn': self.on_turn, 'melds': [meld.to_dict() for meld in self.melds], 'down': list(self.down),
            'discard_top': None if self.discard_top is None else str(self.discard_top),
            'discard_size': self.discard_size, 'stock_rebuilds': self.stock_rebuilds,
            'offer': None if self.offer is None else self.offer.to_dict(),
            'hand_scores': [list(row) for row in self.hand_scores], 'last_result': self.last_result,
        }
