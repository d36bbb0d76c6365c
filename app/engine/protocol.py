"""The protocol every game speaks (after OpenSpiel's State).

Controllers, bots, the arena and the tests talk to a game only through this:

    state = chinchon.new_game(rules, seats=4, rng=random.Random(seed))
    seat = state.current_seat              # None once the game is over
    actions = state.legal_actions(seat)    # hashable Action values
    events = state.apply(seat, action)     # IllegalAction leaves the state untouched
    view = state.view(seat)                # exactly what that seat may know, incl. its legal actions
    state.outcome()                        # None while playing, then an Outcome
    data = state.to_dict(); chinchon.GameState.from_dict(data)   # JSON-compatible, mid-hand too

A game module exposes ``GAME_ID``, ``Rules``, ``Action``, ``GameState`` and ``new_game``; its
computer players live in ``app.ai.<module>`` with ``make_bot(level, rng)``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

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
class GameStateProtocol(Protocol):
    @property
    def current_seat(self) -> int | None: ...

    def legal_actions(self, seat: int) -> list[Any]: ...

    def apply(self, seat: int, action: Any) -> list[Event]: ...

    def view(self, seat: int) -> Any: ...

    def outcome(self) -> Outcome | None: ...

    def to_dict(self) -> dict[str, Any]: ...


class Bot(Protocol):
    """A computer player: sees one seat's view (which lists its legal actions), picks one."""

    def choose(self, view: Any) -> Any: ...


def rng_state(rng: random.Random) -> list[Any]:
    """A generator's state as JSON-compatible data."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_state(raw: list[Any]) -> random.Random:
    rng = random.Random()
    rng.setstate((raw[0], tuple(raw[1]), raw[2]))
    return rng
