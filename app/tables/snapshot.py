"""What one screen may know of a table, as one frozen value (boardgame.io's per-player state).

A ``Snapshot`` is made by the table for one seat, or for a spectator, after every step, and it is
all a screen receives: the version it was made at, the seat's view (never another seat's hand,
never the stock), how that person arranged their hand, the log lines the screen may show, the
seats' public facts, the room's and the game's numbers. A screen reads nothing else of the
table; it sends its person's commands through a ``SeatPort`` (app/tables/port.py).

Nothing here holds a browser's token or an account id: a spectator's snapshot carries the same
seats as a player's.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.games import GameInfo
from app.tables.seats import FEMININE_NAMES, MASCULINE_NAMES, TableOptions

LogLine = dict[str, Any]   # an event's or a room note's dict: {'kind', 'seat', 'data'}


@dataclass(frozen=True, slots=True)
class SeatLine:
    """A seat's public facts: who sits there, as every screen at the table may see them."""

    name: str
    is_person: bool
    is_empty: bool = False        # a room's person seat nobody has taken yet
    level: str | None = None      # a computer's

    @property
    def feminine(self) -> bool:
        """Spanish words about a computer agree with its name ('Lucía cierra' / 'cerrada')."""
        return not self.is_person and self.name in FEMININE_NAMES

    @property
    def masculine(self) -> bool:
        """A computer with a man's name ('Mateo es el último'); a person's words never guess."""
        return not self.is_person and self.name in MASCULINE_NAMES


@dataclass(frozen=True, slots=True)
class RoomLine:
    """A room as its screens see it: its creator and clock, who stands in, who has read the count."""

    creator: int
    clock: int                             # seconds per turn, 0 for none
    started: bool
    free_seats: tuple[int, ...] = ()       # people's seats nobody has taken yet
    stand_ins: tuple[int, ...] = ()        # seats a computer plays for now
    count_waits_for: tuple[int, ...] = ()  # the people present who have not gone on yet
    clock_seat: int | None = None          # whose turn clock runs (COUNT_CLOCK: the count's)
    clock_left_ms: int = 0                 # what is left of it when the snapshot was made
    reactions: tuple[tuple[int, str, float], ...] = ()   # (seat, reaction key, wall time sent)
    public: bool = False                   # listed in the lobby: anybody may join or watch
    rated: bool = False                    # its end changes the people's ratings
    quick: bool = False                    # opened by quick match: computers fill it after a wait
    fill_left_ms: int | None = None        # quick match: what is left of the wait when the snapshot was made
    away: tuple[int, ...] = ()             # people's seats with no screen open now (the game has started)
    spectators: int = 0                    # screens watching without a seat
    ratings: tuple[tuple[int, bool] | None, ...] = ()   # per seat: shown rating and provisional mark, if rated
    rating_changes: tuple[int | None, ...] = ()          # per seat: shown points won or lost at the end


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One seat's (or a spectator's, ``seat`` < 0) knowledge of a table at one version."""

    table_id: str
    game: GameInfo
    options: TableOptions
    seat: int
    version: int
    saved_version: int
    view: Any                              # the engine's view of this seat (the public one for a spectator)
    seats: tuple[SeatLine, ...]
    phase: str                             # 'waiting' (a room not started), 'playing', 'count' or 'over'
    hand_order: tuple[str, ...] = ()       # this person's cards in the order they arranged them
    log: tuple[LogLine, ...] = ()          # the lines this screen may show (up to the count while it is read)
    hand_results: tuple[LogLine, ...] = ()  # every hand-end event of this game
    past_games: tuple[dict[str, Any], ...] = ()   # earlier games at this table: scores, winners
    games_won: tuple[int, ...] = ()        # per seat, this game included once it is over
    game_number: int = 1
    reviewable: bool = False               # finished hands can be replayed (the moves are kept)
    must_answer: bool = False              # this person has a question on the count screen
    ready: frozenset[int] = frozenset()    # people who went on from the count (it waits for the others)
    holding: bool = False                  # the table cannot save: it takes no move meanwhile
    room: RoomLine | None = None
    # markup drawn from this snapshot, kept for the other screens it is sent to (the spectators of
    # a table, two tabs of one seat) so that each part is drawn once (components/table/shell.py)
    drawings: dict[tuple, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def spectator(self) -> bool:
        return self.seat < 0

    @property
    def paused(self) -> bool:
        """A finished hand's count is on the screens until the people go on."""
        return self.phase == 'count'

    @property
    def waiting(self) -> bool:
        return self.phase == 'waiting'


def ordered_hand(order: Sequence[str], hand: Iterable[Any]) -> list[str]:
    """A hand's card codes in the order a person arranged them; cards not placed yet (newly
    drawn) go to the right in the engine's order. Pure: the order kept is not changed."""
    cards = [str(card) for card in hand]
    remaining = Counter(cards)
    arranged = []
    for code in order:
        if remaining[code] > 0:
            remaining[code] -= 1
            arranged.append(code)
    for code in cards:
        if remaining[code] > 0:
            remaining[code] -= 1
            arranged.append(code)
    return arranged


def visible_log(log: Sequence[LogLine], counting: bool, hand_end_events: frozenset[str]) -> tuple[LogLine, ...]:
    """The log as far as the screens have got: while a count is read, up to the end of the
    counted hand (the next deal appears with the next hand)."""
    if not counting:
        return tuple(log)
    ends = [index for index, event in enumerate(log) if event['kind'] in hand_end_events]
    return tuple(log[:ends[-1] + 1] if ends else log)


def seeds_withheld(view: Any) -> Any:
    """The view with its finished hands' seeds blank (their fingerprints kept): what a screen of a
    daily table may know while the day is open."""
    return replace(view, past_deals=tuple(replace(deal, seed='') for deal in view.past_deals))
