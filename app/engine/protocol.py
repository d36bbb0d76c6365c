"""The contract every game keeps (after OpenSpiel's State).

Tables, bots, the arena and the tests talk to a game only through this:

    state = chinchon.new_game(rules, seats=4, rng=random.Random(seed))
    seat = state.current_seat              # None once the game is over
    actions = state.legal_actions(seat)    # hashable Action values; empty for a seat not deciding
    events = state.apply(seat, action)     # IllegalAction leaves the state untouched
    view = state.view(seat)                # exactly what that seat may know, incl. its legal actions
    state.outcome()                        # None while playing, then an Outcome
    data = state.to_dict(); chinchon.GameState.from_dict(data)   # JSON-compatible, mid-hand too

A game module exposes ``GAME_ID`` (the site's id, e.g. ``ronda-robada``), ``Rules``, ``GameState``
(a subclass of :class:`GameState`), ``new_game(rules, seats, rng, dealer=None, hand_seeds=None)``
(the first dealer, drawn with ``rng`` when None; every view names the dealer; ``hand_seeds()``
gives each hand's secret seed, drawn with ``rng`` when None: a table passes seeds from ``secrets``,
which the engine never imports, and ``from_dict(raw, hand_seeds)`` takes them back) and ``ACTIONS`` (its
``actions_json.ActionCodec``: actions to and from JSON). Its computer players live in the
module ``app.games`` registers for it, with ``make_bot(level, rng)`` returning a :class:`Bot`.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

from app.engine.actions_json import action_to_json
from app.engine.errors import IllegalAction  # noqa: F401 (every game raises it from here)

from app.engine.cards import Card

LEVELS = ('easy', 'normal', 'hard')


@dataclass(frozen=True, slots=True)
class Event:
    """One public event: everybody at the table may know it.

    ``kind`` is a short word (``deal``, ``draw_stock``, ``discard`` ...), ``seat`` the actor or None,
    ``data`` JSON-compatible details (cards as notation strings). Hidden cards never appear here.
    """

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {'kind': self.kind, 'seat': self.seat, 'data': self.data}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'Event':
        return cls(kind=raw['kind'], seat=raw['seat'], data=dict(raw['data']))


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final result. ``scores`` per seat; ``winners`` the seats sharing the win."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str = ''

    def to_dict(self) -> dict[str, Any]:
        return {'scores': list(self.scores), 'winners': list(self.winners), 'reason': self.reason}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'Outcome':
        return cls(tuple(raw['scores']), tuple(raw['winners']), raw.get('reason', ''))


@dataclass(frozen=True, slots=True)
class PastDeal:
    """A finished hand's deal: its seed, revealed once the hand is over, and the commitment
    (sha256 of the seed) the views showed while it was played. Hands count from 1."""

    hand_number: int
    seed: str
    commitment: str

    def to_dict(self) -> dict[str, Any]:
        return {'hand_number': self.hand_number, 'seed': self.seed, 'commitment': self.commitment}


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """What ``GameState.view`` returns: one seat's knowledge, a frozen value. Every game's view
    subclasses it, so shared code reads these fields by one name in every game:

    ``hand`` this seat's cards (empty in the public view); ``hand_sizes``, ``scores`` (the running
    totals; zeros where a game hides them until the end) and ``eliminated`` (all False in games
    without elimination) one entry per seat; ``current_seat`` the seat deciding (None at the end);
    ``phase`` the game's own word for the moment ('over' at the end); ``hand_number`` the deal
    (from 1; a game of one deal is always 1); ``stock_size``; ``commitment`` the sha256 of this
    deal's seed; ``past_deals`` the finished deals with their seeds; ``events`` this deal's public
    events; ``legal_actions`` this seat's legal actions now (empty unless it decides)."""

    seat: int
    seats: int
    dealer: int
    current_seat: int | None
    phase: str
    hand_number: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    eliminated: tuple[bool, ...]
    stock_size: int
    commitment: str
    past_deals: tuple[PastDeal, ...]
    events: tuple[Event, ...]
    legal_actions: tuple[Any, ...]
    outcome: Outcome | None

    def points_by_hand(self, hand_results: Sequence[dict[str, Any]]) -> dict[int, tuple[int, ...] | None]:
        """Hand number -> the points each seat scored in that finished hand (None for a void hand),
        from the view and the table's hand-end events (``hand_results``). A game of one deal: its
        final scores, once it is over."""
        return {} if self.outcome is None else {1: tuple(self.outcome.scores)}

    def to_dict(self) -> dict[str, Any]:
        """The shared fields, JSON-compatible; a game's view adds its own (call this explicitly:
        slotted dataclasses do not support a bare ``super()``)."""
        return {
            'seat': self.seat, 'seats': self.seats, 'dealer': self.dealer, 'current_seat': self.current_seat,
            'phase': self.phase, 'hand_number': self.hand_number, 'hand': [str(card) for card in self.hand],
            'hand_sizes': list(self.hand_sizes), 'scores': list(self.scores), 'eliminated': list(self.eliminated),
            'stock_size': self.stock_size, 'commitment': self.commitment,
            'past_deals': [deal.to_dict() for deal in self.past_deals],
            'events': [event.to_dict() for event in self.events],
            'legal_actions': [action_to_json(action) for action in self.legal_actions],
            'outcome': None if self.outcome is None else self.outcome.to_dict(),
        }


@runtime_checkable
class Bot(Protocol):
    """A computer player: sees one seat's view (which lists its legal actions), picks one."""

    def choose(self, view: Any) -> Any: ...


class GameState(ABC):
    """A game in progress, the one authority on its rules. Only ``apply`` changes it.

    ``legal_actions(seat)`` lists every legal action of that seat, except for the kinds in
    ``open_kinds``: free-form moves whose legal values are too many to list (Continental's
    going down); ``apply`` accepts any legal action of those kinds, listed or not, and refuses
    everything else with IllegalAction, leaving the state exactly as it was.
    """

    open_kinds: ClassVar[frozenset[str]] = frozenset()

    @property
    @abstractmethod
    def current_seat(self) -> int | None:
        """The seat that must decide now; None once the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Any]: ...

    @abstractmethod
    def apply(self, seat: int, action: Any) -> list[Event]:
        """Play ``action`` for ``seat`` and return the public events it caused."""

    @abstractmethod
    def view(self, seat: int) -> SeatView: ...

    @abstractmethod
    def public_view(self) -> SeatView:
        """What anybody may know (a spectator, the public log): a view with no hand, no legal
        actions and nothing else that belongs to one seat."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-compatible, with ``'game': GAME_ID``; the rng's state included, so a
        restored game goes on exactly as this one would."""

    @classmethod
    @abstractmethod
    def from_dict(cls, raw: dict[str, Any], hand_seeds: Callable[[], str] | None = None) -> Self:
        """The game ``to_dict`` saved; the seeds of its next hands from ``hand_seeds`` (else its rng)."""


def rng_state(rng: random.Random) -> list[Any]:
    """A generator's state as JSON-compatible data."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_state(raw: list[Any]) -> random.Random:
    rng = random.Random()
    rng.setstate((raw[0], tuple(raw[1]), raw[2]))
    return rng
