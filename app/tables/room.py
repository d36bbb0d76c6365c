"""Rooms: a table friends share through an invite link, people and computers together.

A room is a Table with a ``Room`` beside it. Until its creator starts it, the deal waits and
people take the free seats (``Seating``); empty people's seats go to computers at the start.
During play the table holds each person's seat for them: when their turn clock runs out
(``TurnClock``), or while they are away with no screen open (``Presence``), a computer plays that
seat ("stands in"), and the table says so. People react with a few fixed phrases instead of
chatting (``Reactions``): nothing to moderate.

Each part is an object its Table owns and builds. It is handed what it may read and call of the
table, no more (``RoomHost``; ``Reactions`` two callbacks), waits on the table's clock, and reports
every change through ``changed``. Every table has them (a table that is no room never seats,
clocks or stands in for anybody).
"""
from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from app import names
from app.engine.protocol import IllegalAction
from app.tables.seats import Seat

CLOCKS = (0, 30, 60)             # the turn clock a room may choose, in seconds (0: no clock)
REACTIONS = ('well_played', 'ouch', 'good_luck', 'thanks', 'your_turn')   # i18n: reaction.<key>
REACTION_GAP = 3.0               # seconds between two reactions of one seat
REACTION_SHOWN = 5.0             # seconds a reaction stays by its seat
ABSENT_GRACE = 10.0              # seconds without any screen before a computer holds a person's seat
NAME_MAX = 20
SPECTATOR = -1                   # the subscription key of screens that watch without a seat
COUNT_CLOCK = -2                 # the turn clock's key while a count waits for its last readers
ROOM_EVENTS = frozenset({'joined', 'stand_in', 'back', 'aborted', 'unrated'})


@dataclass
class Room:
    invite: str                  # the invite link's secret (the table id alone seats nobody)
    creator: int = 0             # the seat that starts the room and may free seats before
    clock: int = 0
    started: bool = False
    # a public table (app.lobby): listed in the lobby, its seats taken through the database
    public: bool = False
    rated: bool = False          # opened rated: its end changes the people's ratings (app.ratings.is_rated)
    quick: bool = False          # opened by quick match: computers take the empty seats at ``fill_at``
    fill_at: float | None = None     # the wall time a quick match stops waiting for people
    # seat -> (shown rating, provisional) when the person sat down, for the screens and the lobby
    ratings: dict[int, tuple[int, bool]] = field(default_factory=dict)
    rating_changes: dict[int, int] = field(default_factory=dict)   # seat -> shown points won or lost, once rated
    plays: dict[int, int] = field(default_factory=dict)   # seat -> own actions, counted to 2 (app.tables.aborts)
    # why a game opened rated no longer counts: 'aborted' (app.tables.aborts) or 'shared_browser'
    # (two of its accounts used one browser: app.fairplay); None while it counts
    unrated: str | None = None

    def to_dict(self) -> dict[str, Any]:
        raw = asdict(self)
        raw['ratings'] = {str(seat): list(shown) for seat, shown in self.ratings.items()}
        raw['rating_changes'] = {str(seat): change for seat, change in self.rating_changes.items()}
        raw['plays'] = {str(seat): count for seat, count in self.plays.items()}
        return raw

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'Room':
        clock = raw.get('clock', 0)
        fill_at = raw.get('fill_at')
        return cls(invite=str(raw['invite']), creator=int(raw.get('creator', 0)),
                   clock=clock if clock in CLOCKS else 0, started=bool(raw.get('started')),
                   public=bool(raw.get('public')), rated=bool(raw.get('rated')), quick=bool(raw.get('quick')),
                   fill_at=float(fill_at) if fill_at is not None else None,
                   ratings={int(seat): (int(shown[0]), bool(shown[1]))
                            for seat, shown in (raw.get('ratings') or {}).items()},
                   rating_changes={int(seat): int(change) for seat, change in (raw.get('rating_changes') or {}).items()},
                   plays={int(seat): int(count) for seat, count in (raw.get('plays') or {}).items()},
                   unrated=raw.get('unrated') if raw.get('unrated') in UNRATED else None)

    @staticmethod
    def new(clock: int, *, public: bool = False, rated: bool = False, quick: bool = False,
            fill_at: float | None = None) -> 'Room':
        if clock not in CLOCKS:
            raise ValueError(f'no such turn clock: {clock!r}')
        return Room(invite=secrets.token_urlsafe(16), clock=clock, public=public, rated=rated and public,
                    quick=quick and public, fill_at=fill_at if quick and public else None)

    def admits(self, invite: str) -> bool:
        return secrets.compare_digest(self.invite.encode(), str(invite).encode())


def clean_name(raw: Any) -> str:
    """A person's name at a room: NFKC, spaces folded, no control characters, 1 to 20 characters.
    Raises IllegalAction with the reason a person can read."""
    if not isinstance(raw, str):
        raise IllegalAction('name_missing', 'a name is needed')
    name = ' '.join(unicodedata.normalize('NFKC', raw).split())
    name = ''.join(char for char in name if unicodedata.category(char)[0] != 'C')
    if not name:
        raise IllegalAction('name_missing', 'a name is needed')
    if len(name) > NAME_MAX:
        raise IllegalAction('name_too_long', 'that name is too long', limit=NAME_MAX)
    if names.is_refused(name):
        raise IllegalAction('name_refused', 'that name holds a refused word')
    return name


UNRATED = ('aborted', 'shared_browser')


def room_event(kind: str, seat: int | None, **data: Any) -> dict[str, Any]:
    """A line of the table's log about a person (joined, stood in for, back, aborted the game) or
    about the table (seat None: it no longer counts for the rating)."""
    return {'kind': kind, 'seat': seat, 'data': data}


class RoomClock(Protocol):
    def now(self) -> float: ...

    def wall(self) -> float: ...

    def call_later(self, seconds: float, callback: Callable[..., Any], *args: Any) -> Any: ...


class RoomHost(Protocol):
    """What a room's parts may read and call of their table."""

    seats: list[Seat]
    room: Room | None
    version: int
    pause: str | None
    started_at: float
    clock: RoomClock
    presence: 'Presence'
    aborts: Any   # app.tables.aborts.Aborts (which imports this module)

    @property
    def waiting(self) -> bool: ...

    def turn(self) -> int | None: ...

    def is_over(self) -> bool: ...

    def seat_of(self, guest: str | None, user_id: int | None) -> int | None: ...

    def person_seats(self) -> list[int]: ...

    def watching(self, seat: int) -> bool: ...

    def watched(self) -> bool: ...

    def changed(self, events: Iterable[Any] = (), *, notes: Iterable[dict[str, Any]] = ()) -> None: ...

    def start_computers(self) -> None: ...

    def go_on_from_count(self) -> None: ...


class Seating:
    """Before the start: people take the free seats, the creator frees seats and starts."""

    def __init__(self, table: RoomHost) -> None:
        self.table = table

    def free_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.table.seats) if seat.is_person and seat.is_empty]

    def join(self, guest: str, user_id: int | None, name: Any) -> int:
        """Seat a person who opened the invite link: the first free seat. A browser or account
        that has a seat here already gets that seat back, whatever name it sends: one browser
        cannot hoard the free seats under several names. Raises IllegalAction when the room is
        full, started, or the name is taken or unusable."""
        table = self.table
        if not table.waiting:
            raise IllegalAction('room_started', 'the game has started')
        if table.room.public:   # its seats are taken in the database (app.lobby), from any process
            raise IllegalAction('public_table', 'join a public table from the lobby')
        mine = table.seat_of(guest, user_id)
        if mine is not None:
            return mine
        name = clean_name(name)
        if any(seat.name.casefold() == name.casefold() for seat in table.seats if not seat.is_empty):
            raise IllegalAction('name_taken', 'somebody at the table has that name', name=name)
        free = self.free_seats()
        if not free:
            raise IllegalAction('room_full', 'every seat is taken')
        seat = table.seats[free[0]]
        seat.name, seat.guest, seat.user_id = name, guest, user_id
        table.changed(notes=[room_event('joined', free[0])])
        return free[0]

    def free_seat(self, by: int, seat: int, version: int) -> None:
        """The creator frees a person's seat before the start (the person may join again)."""
        table = self._creator_check(by, version)
        if table.room.public:   # its seat was claimed in the database: it stays taken
            raise IllegalAction('public_table', 'join a public table from the lobby')
        if not (0 <= seat < len(table.seats)) or seat == by or not table.seats[seat].is_person \
                or table.seats[seat].is_empty:
            raise IllegalAction('not_a_guest_seat', 'nobody to free at that seat')
        person = table.seats[seat]
        person.name, person.guest, person.user_id = '', None, None
        table.changed()

    def start(self, by: int, version: int, bot_names: tuple[str, ...], level: str) -> None:
        """The creator starts: people's seats still empty go to computers, and the deal is played."""
        table = self._creator_check(by, version)
        used = {seat.name.casefold() for seat in table.seats}
        spare = iter(name for name in bot_names if name.casefold() not in used)
        for index in self.free_seats():
            table.seats[index] = Seat('computer', name=next(spare), level=level)
        table.room.started = True
        table.started_at = table.clock.wall()
        table.changed()
        table.start_computers()

    def _creator_check(self, by: int, version: int) -> RoomHost:
        table = self.table
        if not table.waiting:
            raise IllegalAction('room_started', 'the game has started')
        if by != table.room.creator:
            raise IllegalAction('not_room_creator', 'only the person who made the room can do that')
        if version != table.version:
            raise IllegalAction('stale', 'the table has moved on since this screen was drawn')
        return table


class Reactions:
    """A fixed phrase shown by the sender's seat for a few seconds; one every few seconds. Handed
    the clock, who may react (``may``) and how to tell the screens (``tell``)."""

    def __init__(self, clock: RoomClock, *, may: Callable[[int], bool], tell: Callable[[], None]) -> None:
        self.clock, self.may, self.tell = clock, may, tell
        self.shown: dict[int, tuple[str, float]] = {}   # seat -> (key, wall time sent)
        self._last: dict[int, float] = {}

    def send(self, seat: int, key: str) -> None:
        if not self.may(seat):
            raise IllegalAction('not_your_seat', 'that seat is not yours')
        if key not in REACTIONS:
            raise IllegalAction('generic', 'no such reaction')
        now = self.clock.now()
        if now - self._last.get(seat, float('-inf')) < REACTION_GAP:
            raise IllegalAction('reaction_too_soon', 'one reaction every few seconds')
        self._last[seat] = now
        self.shown[seat] = (key, self.clock.wall())
        self.tell()

    def recent(self) -> dict[int, tuple[str, float]]:
        now = self.clock.wall()
        return {seat: (key, at) for seat, (key, at) in self.shown.items() if now - at < REACTION_SHOWN}


class Presence:
    """Who is at the table: a computer stands in for a person whose clock ran out or who is
    away; a count goes on once every person present has read it (``ready``)."""

    def __init__(self, table: RoomHost) -> None:
        self.table = table
        self.stand_ins: dict[int, str] = {}   # seat -> 'clock' (its turn ran out) or 'away'
        self.ready: set[int] = set()          # people who have read the count on the screen
        self._left_at: dict[int, float] = {}

    def stands_in(self, seat: int) -> bool:
        """A computer plays this person's seat now (their clock ran out, or they are away)."""
        return seat in self.stand_ins

    def stand_in(self, seat: int, reason: str) -> None:
        self.stand_ins[seat] = reason
        self.table.changed(notes=[room_event('stand_in', seat, reason=reason), *self.table.aborts.taken(seat)])
        self.table.start_computers()

    def acted(self, seat: int) -> None:
        """A person acted in time: the computer standing in for their turn steps back."""
        self.table.aborts.acted(seat)
        if self.stand_ins.get(seat) == 'clock':
            del self.stand_ins[seat]

    def turn_passed(self) -> None:
        """Another seat's turn ends any stand-in for a clock that ran out."""
        for seat, reason in list(self.stand_ins.items()):
            if reason == 'clock' and self.table.turn() != seat:
                del self.stand_ins[seat]

    def arrived(self, seat: int) -> None:
        self._left_at.pop(seat, None)
        if self.stand_ins.get(seat) == 'away':
            del self.stand_ins[seat]
            self.table.changed(notes=[room_event('back', seat)])

    def left(self, seat: int) -> None:
        """The last screen of a person's seat closed: a computer holds it if they stay away."""
        table = self.table
        if table.room is None or not table.room.started or not table.seats[seat].is_person:
            return
        self._left_at[seat] = table.clock.now()
        if table.room.public:
            # its page waited the reconnect window already before it let go (app.lobby): the others
            # see them away, their turn clock runs, and when it runs out a computer holds the seat
            return
        table.clock.call_later(ABSENT_GRACE, self._maybe_away, seat)

    def gone_for_good(self, seats: Iterable[int]) -> None:
        """A table that ends with these people away (abandoned): they count as having left."""
        for seat in seats:
            self.stand_ins[seat] = 'away'

    def leavers(self) -> list[int]:
        """People who left and have not come back: a computer holds their seat for being away."""
        return sorted(seat for seat, reason in self.stand_ins.items() if reason == 'away')

    def _maybe_away(self, seat: int) -> None:
        table = self.table
        left = self._left_at.get(seat)
        if left is None or table.clock.now() - left < ABSENT_GRACE - 0.01 or table.is_over():
            return
        if table.watching(seat) or not table.watched():
            return   # back already; or nobody watches at all (the table then waits, as any table)
        self.stand_in(seat, 'away')

    def present_people(self) -> list[int]:
        table = self.table
        return [seat for seat in table.person_seats()
                if table.watching(seat) and self.stand_ins.get(seat) != 'away']

    def waiting_to_go_on(self) -> list[int]:
        """The people present who have not gone on from the count yet."""
        return [seat for seat in self.present_people() if seat not in self.ready]


class TurnClock:
    """A person whose turn begins gets the room's clock (one clock for the whole turn, a draw then
    a discard); once somebody has gone on from a count, the others get the clock to read it.
    When it runs out, a computer plays that turn, or the count goes on."""

    def __init__(self, table: RoomHost) -> None:
        self.table = table
        self.deadline: float | None = None   # the clock's wall time at which the turn runs out
        self._turn: tuple[int, int] | None = None   # (seat, version) the clock was armed for
        self._timer: Any = None   # the clock's timer: cancel() stops it

    def seat(self) -> int | None:
        """The seat the clock runs for now (COUNT_CLOCK while a count waits for its last readers)."""
        table = self.table
        if table.room is None or not table.room.started or table.room.clock == 0 or table.is_over():
            return None
        if table.pause is not None:
            return COUNT_CLOCK if table.presence.ready else None
        seat = table.turn()
        if seat is None or not table.seats[seat].is_person or seat in table.presence.stand_ins:
            return None
        return seat

    def arm(self) -> None:
        """Before every update of the screens: start the clock of a turn that has just begun."""
        self.table.presence.turn_passed()
        turn = self.seat()
        if turn is None:
            self.disarm()
            return
        if self._turn is not None and self._turn[0] == turn:
            return
        self.disarm()
        clock = self.table.clock
        self._turn = (turn, self.table.version)
        self.deadline = clock.wall() + self.table.room.clock
        self._timer = clock.call_later(self.table.room.clock, self._ran_out, self._turn)

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._turn, self.deadline = None, None, None

    def _ran_out(self, turn: tuple[int, int]) -> None:
        if self._turn != turn or self.seat() != turn[0]:
            return
        self.disarm()
        if turn[0] == COUNT_CLOCK:   # the slow readers of the count go on with the others
            self.table.go_on_from_count()
            return
        # a person with no screen open is away: the computer keeps their seat until they are back
        self.table.presence.stand_in(turn[0], 'clock' if self.table.watching(turn[0]) else 'away')
