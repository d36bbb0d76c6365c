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

LEVELS = ('easy', 'normal', 'hard')


class IllegalAction(ValueError):
    """A refused action. ``code`` is a stable i18n key suffix (``illegal.<code>``);
    ``params`` fill the translated message; ``str()`` is an English sentence for logs."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


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


@runtime_checkable
class SeatView(Protocol):
    """What ``GameState.view`` returns: one seat's knowledge, a frozen value."""

    seat: int
    legal_actions: Sequence[Any]   # this seat's legal actions now (empty unless it decides)

    def to_dict(self) -> dict[str, Any]: ...


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
