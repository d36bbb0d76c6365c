"""Values of Ronda Robada: rules, rank order, actions and views (no game state here)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Union

from app.engine.actions_json import ActionCodec
from app.engine.cards import SPANISH_RANKS, Card, spanish_card
from app.engine.protocol import SeatView

GAME_ID = 'ronda-robada'
RANK_ORDER: tuple[int, ...] = SPANISH_RANKS
CENTRE_CARDS = 4
HAND_CARDS = 3
MIN_SEATS, MAX_SEATS = 2, 4


@dataclass(frozen=True, slots=True)
class Rules:
    """No options yet; kept so every game is created the same way."""

    def to_dict(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'Rules':
        return cls(**raw)


def card_points(card: Card) -> int:
    """1-7 their number, 10 sota, 11 caballo, 12 rey: the rank itself."""
    if not card.is_spanish:
        raise ValueError(f'not a Spanish card: {card}')
    return card.rank


def next_rank(rank: int, closed: bool) -> int | None:
    """The rank a run at ``rank`` may take next; the 1 after the 12 closes it for good."""
    if closed:
        return None
    if rank == RANK_ORDER[-1]:
        return RANK_ORDER[0]
    return RANK_ORDER[RANK_ORDER.index(rank) + 1]


def step_options(rank: int, closed: bool, loose: list[Card] | tuple[Card, ...],
                 pile_tops: list[Card | None] | tuple[Card | None, ...]) -> tuple[list[Card], list[int]]:
    """Loose cards of the next rank, or (only when there is none) the seats whose pile top has it."""
    wanted = next_rank(rank, closed)
    if wanted is None:
        return [], []
    cards = [card for card in loose if card.rank == wanted]
    if cards:
        return cards, []
    return [], [seat for seat, top in enumerate(pile_tops) if top is not None and top.rank == wanted]


# Actions: each step of a turn is its own value, so a person watches the run grow.

@dataclass(frozen=True, slots=True)
class StartRun:
    card: Card
    loose: Card
    kind: ClassVar[str] = 'start_run'


@dataclass(frozen=True, slots=True)
class TakeLoose:
    card: Card
    kind: ClassVar[str] = 'take_loose'


@dataclass(frozen=True, slots=True)
class TakePile:
    owner: int
    kind: ClassVar[str] = 'take_pile'


@dataclass(frozen=True, slots=True)
class Confirm:
    kind: ClassVar[str] = 'confirm'


@dataclass(frozen=True, slots=True)
class Drop:
    card: Card
    kind: ClassVar[str] = 'drop'


Action = Union[StartRun, TakeLoose, TakePile, Confirm, Drop]
ACTIONS = ActionCodec('Ronda Robada', (StartRun, TakeLoose, TakePile, Confirm, Drop), spanish_card)


# Views: what one seat may know.

@dataclass(frozen=True, slots=True)
class TakenPile:
    owner: int
    top: Card
    size: int

    def to_dict(self) -> dict[str, Any]:
        return {'owner': self.owner, 'top': str(self.top), 'size': self.size}


@dataclass(frozen=True, slots=True)
class RunView:
    """The run in progress: the hand card, the loose cards collected (the matched one first),
    the piles taken (only their former top is shown) and the rank reached."""

    seat: int
    played: Card
    rank: int
    closed: bool
    loose: tuple[Card, ...]
    piles: tuple[TakenPile, ...]

    @property
    def next_rank(self) -> int | None:
        return next_rank(self.rank, self.closed)

    def to_dict(self) -> dict[str, Any]:
        return {'seat': self.seat, 'played': str(self.played), 'rank': self.rank, 'closed': self.closed,
                'next_rank': self.next_rank, 'loose': [str(c) for c in self.loose],
                'piles': [pile.to_dict() for pile in self.piles]}


@dataclass(frozen=True, slots=True, kw_only=True)
class View(SeatView):
    """One seat's view (the shared fields are :class:`SeatView`'s). The game is one deal
    (``hand_number`` 1), ``phase`` is 'start' (a turn begins), 'run' (a run is being built) or
    'over'. ``scores`` are zeros until the end (the piles' contents are not public), ``seed`` is
    revealed at the end (then also in ``past_deals``)."""

    loose: tuple[Card, ...]
    pile_tops: tuple[Card | None, ...]
    pile_sizes: tuple[int, ...]
    run: RunView | None
    last_runner: int | None
    seed: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            **SeatView.to_dict(self), 'game': GAME_ID, 'loose': [str(c) for c in self.loose],
            'pile_tops': [None if c is None else str(c) for c in self.pile_tops],
            'pile_sizes': list(self.pile_sizes), 'run': None if self.run is None else self.run.to_dict(),
            'last_runner': self.last_runner, 'seed': self.seed,
        }
