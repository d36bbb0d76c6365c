"""What one Continental seat may know: its own cards and everything public."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine.actions_json import action_to_json
from app.engine.cards import Card
from app.engine.continental.actions import Action
from app.engine.continental.melds import Contract, TableMeld
from app.engine.protocol import Event, Outcome


@dataclass(frozen=True, slots=True)
class Rules:
    """Room options. ``robo_de_contra``: seats not on turn may take an offered discard with a
    penalty card from the stock; when off only the seat on turn may take it.

    ``stock_rebuilds``: how many times the stock may be rebuilt from the discard pile in one hand
    (0 = no limit). RULES.md does not bound it, but when every seat is down and no card in any
    hand fits the table, the same few discards would cycle for ever; past the limit no card can
    be drawn, so the hand ends as the rules say and everyone scores their hand."""

    robo_de_contra: bool = True
    stock_rebuilds: int = 10

    def to_dict(self) -> dict[str, Any]:
        return {'robo_de_contra': self.robo_de_contra, 'stock_rebuilds': self.stock_rebuilds}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'Rules':
        return cls(robo_de_contra=bool(raw.get('robo_de_contra', True)),
                   stock_rebuilds=int(raw.get('stock_rebuilds', 10)))


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


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view. ``phase`` is 'offer' (a discard is being offered), 'draw' (the seat on
    turn must draw from the stock), 'play' (go down, lay off, discard) or 'over'.
    ``hand_scores[h][seat]`` are the points of finished hand h+1; ``past_seeds`` the seeds of
    finished hands (check them against the commitments shown during those hands)."""

    seat: int
    seats: int
    rules: Rules
    hand_number: int
    contract: Contract
    dealer: int
    phase: str
    current_seat: int | None
    on_turn: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[TableMeld, ...]
    down: tuple[bool, ...]
    discard_top: Card | None
    discard_size: int
    stock_size: int
    stock_rebuilds: int
    offer: OfferView | None
    hand_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    commitment: str
    past_seeds: tuple[str, ...]
    events: tuple[Event, ...]
    last_result: dict[str, Any] | None
    legal_actions: tuple[Action, ...]
    outcome: Outcome | None

    def to_dict(self) -> dict[str, Any]:
        return {
            'seat': self.seat, 'seats': self.seats, 'rules': self.rules.to_dict(),
            'hand_number': self.hand_number, 'contract': self.contract.to_dict(), 'dealer': self.dealer,
            'phase': self.phase, 'current_seat': self.current_seat, 'on_turn': self.on_turn,
            'hand': [str(card) for card in self.hand], 'hand_sizes': list(self.hand_sizes),
            'table': [meld.to_dict() for meld in self.table], 'down': list(self.down),
            'discard_top': None if self.discard_top is None else str(self.discard_top),
            'discard_size': self.discard_size, 'stock_size': self.stock_size,
            'stock_rebuilds': self.stock_rebuilds,
            'offer': None if self.offer is None else self.offer.to_dict(),
            'hand_scores': [list(row) for row in self.hand_scores], 'totals': list(self.totals),
            'commitment': self.commitment, 'past_seeds': list(self.past_seeds),
            'events': [event.to_dict() for event in self.events], 'last_result': self.last_result,
            'legal_actions': [action_to_json(action) for action in self.legal_actions],
            'outcome': None if self.outcome is None else self.outcome.to_dict(),
        }
