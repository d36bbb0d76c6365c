"""Rooms: a table friends share through an invite link, people and computers together.

A room is a Table with a ``Room`` beside it. Until its creator starts it, the deal waits and
people take the free seats; empty people's seats go to computers at the start. During play the
table holds each person's seat for them: when their turn clock runs out, or while they are away
(no screen open), a computer plays that seat ("stands in"), and the table says so. People react
with a few fixed phrases instead of chatting: nothing to moderate.

Everything here runs on the Table (``RoomTable`` is one of its bases), on the server's event loop.
"""
from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from app.engine.protocol import IllegalAction

if TYPE_CHECKING:
    from app.tables.table import Seat

CLOCKS = (0, 30, 60)             # the turn clock a room may choose, in seconds (0: no clock)
REACTIONS = ('well_played', 'ouch', 'good_luck', 'thanks', 'your_turn')   # i18n: reaction.<key>
REACTION_GAP = 3.0               # seconds between two reactions of one seat
REACTION_SHOWN = 5.0             # seconds a reaction stays by its seat
ABSENT_GRACE = 10.0              # seconds without any screen before a computer holds a person's seat
NAME_MAX = 20
SPECTATOR = -1                   # the subscription key of screens that watch without a seat
COUNT_CLOCK = -2                 # the turn clock's key while a count waits for its last readers
ROOM_EVENTS = frozenset({'joined', 'stand_in', 'back'})


@dataclass
class Room:
    invite: str                  # the invite link's secret (the table id alone seats nobody)
    creator: int = 0             # the seat that starts the room and may free seats before
    clock: int = 0
    started: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'Room':
        clock = raw.get('clock', 0)
        return cls(invite=str(raw['invite']), creator=int(raw.get('creator', 0)),
                   clock=clock if clock in CLOCKS else 0, started=bool(raw.get('started')))

    @staticmethod
    def new(clock: int) -> 'Room':
        if clock not in CLOCKS:
            raise ValueError(f'no such turn clock: {clock!r}')
        return Room(invite=secrets.token_urlsafe(16), clock=clock)

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
    return name


class RoomTable:
    """The room side of a Table (mixed into it)."""

    # provided by Table
    log_length: int
    seats: list[Seat]
    version: int
    room: Room | None
    stand_ins: dict[int, str]            # seat -> 'clock' (its turn ran out) or 'away'
    ready: set[int]                      # people who have read the count on the screen
    reactions: dict[int, tuple[str, float]]
    turn_deadline: float | None          # time.time() at which the current person's turn runs out

    def _room_init(self, room: Room | None) -> None:
        self.room = room
        self.stand_ins, self.ready, self.reactions = {}, set(), {}
        self.turn_deadline = None
        self._clock_turn: tuple[int, int] | None = None   # (seat, version) the clock was armed for
        self._clock_timer: asyncio.TimerHandle | None = None
        self._left_at: dict[int, float] = {}
        self._last_reaction: dict[int, float] = {}

    @property
    def waiting(self) -> bool:
        """A room whose creator has not started it: no card is played yet."""
        return self.room is not None and not self.room.started

    def free_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.is_person and seat.is_empty]

    # before the start --------------------------------------------------------------------
    def join(self, guest: str, user_id: int | None, name: Any) -> int:
        """Seat a person who opened the invite link: the first free seat. Raises IllegalAction
        when the room is full, started, or the name is taken or unusable."""
        if not self.waiting:
            raise IllegalAction('room_started', 'the game has started')
        name = clean_name(name)
        if any(seat.name.casefold() == name.casefold() for seat in self.seats if not seat.is_empty):
            raise IllegalAction('name_taken', 'somebody at the table has that name', name=name)
        free = self.free_seats()
        if not free:
            raise IllegalAction('room_full', 'every seat is taken')
        seat = self.seats[free[0]]
        seat.name, seat.guest, seat.user_id = name, guest, user_id
        self._room_changed([self._event('joined', free[0])])
        return free[0]

    def free_seat(self, by: int, seat: int, version: int) -> None:
        """The creator frees a person's seat before the start (the person may join again)."""
        self._creator_check(by, version)
        if not (0 <= seat < len(self.seats)) or seat == by or not self.seats[seat].is_person \
                or self.seats[seat].is_empty:
            raise IllegalAction('not_a_guest_seat', 'nobody to free at that seat')
        person = self.seats[seat]
        person.name, person.guest, person.user_id = '', None, None
        self._room_changed([])

    def start_room(self, by: int, version: int, bot_names: tuple[str, ...], level: str) -> None:
        """The creator starts: people's seats still empty go to computers, and the deal is played."""
        self._creator_check(by, version)
        used = {seat.name.casefold() for seat in self.seats}
        spare = iter(name for name in bot_names if name.casefold() not in used)
        for index in self.free_seats():
            self.seats[index] = type(self.seats[index])('computer', name=next(spare), level=level)
        self.room.started = True
        self.started_at = time.time()
        self._room_changed([])
        self.start()

    def _creator_check(self, by: int, version: int) -> None:
        if not self.waiting:
            raise IllegalAction('room_started', 'the game has started')
        if by != self.room.creator:
            raise IllegalAction('not_room_creator', 'only the person who made the room can do that')
        if version != self.version:
            raise IllegalAction('stale', 'the table has moved on since this screen was drawn')

    def _room_changed(self, events: list[dict[str, Any]]) -> None:
        self._add_log(*events)
        self.version += 1
        self.save_soon()
        self._notify([])

    @staticmethod
    def _event(kind: str, seat: int, **data: Any) -> dict[str, Any]:
        return {'kind': kind, 'seat': seat, 'data': data}

    # reactions ---------------------------------------------------------------------------
    def react(self, seat: int, key: str) -> None:
        """A fixed phrase shown by the sender's seat for a few seconds; one every few seconds."""
        if self.room is None or not (0 <= seat < len(self.seats)) or not self.seats[seat].is_person:
            raise IllegalAction('not_your_seat', 'that seat is not yours')
        if key not in REACTIONS:
            raise IllegalAction('generic', 'no such reaction')
        now = time.monotonic()
        if now - self._last_reaction.get(seat, float('-inf')) < REACTION_GAP:
            raise IllegalAction('reaction_too_soon', 'one reaction every few seconds')
        self._last_reaction[seat] = now
        self.reactions[seat] = (key, time.time())
        self._notify([])

    def recent_reactions(self) -> dict[int, tuple[str, float]]:
        now = time.time()
        return {seat: (key, at) for seat, (key, at) in self.reactions.items() if now - at < REACTION_SHOWN}

    # a person's seat held for them --------------------------------------------------------
    def stands_in(self, seat: int) -> bool:
        """A computer plays this person's seat now (their clock ran out, or they are away)."""
        return seat in self.stand_ins

    def _person_acted(self, seat: int) -> None:
        """A person acted in time: the computer standing in for their turn steps back."""
        if self.stand_ins.get(seat) == 'clock':
            del self.stand_ins[seat]

    def _arrived(self, seat: int) -> None:
        self._left_at.pop(seat, None)
        if self.stand_ins.get(seat) == 'away':
            del self.stand_ins[seat]
            self._add_log(self._event('back', seat))
            self.version += 1
            self.save_soon()
            self._notify([])

    def _left(self, seat: int) -> None:
        """The last screen of a person's seat closed: a computer holds it if they stay away."""
        if self.room is None or not self.room.started or not self.seats[seat].is_person:
            return
        self._left_at[seat] = time.monotonic()
        try:
            asyncio.get_running_loop().call_later(ABSENT_GRACE, self._maybe_away, seat)
        except RuntimeError:
            pass

    def _maybe_away(self, seat: int) -> None:
        left = self._left_at.get(seat)
        if left is None or time.monotonic() - left < ABSENT_GRACE - 0.01 or self.is_over():
            return
        if self.subscribers.get(seat) or not self.watched():
            return   # back already; or nobody watches at all (the table then waits, as any table)
        self.stand_ins[seat] = 'away'
        self._add_log(self._event('stand_in', seat, reason='away'))
        self.version += 1
        self.save_soon()
        self._notify([])
        self.start()

    def _add_log(self, *events: dict[str, Any]) -> None:
        self.log = (self.log + list(events))[-self.log_length:]

    # the turn clock ----------------------------------------------------------------------------
    def _arm_clock(self) -> None:
        """Before every update of the screens: a person whose turn begins gets the room's clock
        (one clock for the whole turn, a draw then a discard); once somebody has gone on from a
        count, the others get the clock to read it. Another seat's turn ends any stand-in for a
        clock that ran out."""
        for seat, reason in list(self.stand_ins.items()):
            if reason == 'clock' and self.state.current_seat != seat:
                del self.stand_ins[seat]
        turn = self.clock_seat()
        if turn is None:
            self._disarm_clock()
            return
        if self._clock_turn is not None and self._clock_turn[0] == turn:
            return
        self._disarm_clock()
        self._clock_turn = (turn, self.version)
        self.turn_deadline = time.time() + self.room.clock
        try:
            self._clock_timer = asyncio.get_running_loop().call_later(self.room.clock, self._clock_ran_out,
                                                                      self._clock_turn)
        except RuntimeError:
            self._clock_timer = None

    def clock_seat(self) -> int | None:
        """The seat the clock runs for now (COUNT_CLOCK while a count waits for its last readers)."""
        if self.room is None or not self.room.started or self.room.clock == 0 or self.is_over():
            return None
        if self.pause is not None:
            return COUNT_CLOCK if self.ready else None
        seat = self.state.current_seat
        if seat is None or not self.seats[seat].is_person or seat in self.stand_ins:
            return None
        return seat

    def _disarm_clock(self) -> None:
        if self._clock_timer is not None:
            self._clock_timer.cancel()
        self._clock_timer, self._clock_turn, self.turn_deadline = None, None, None

    def _clock_ran_out(self, turn: tuple[int, int]) -> None:
        if self._clock_turn != turn or self.clock_seat() != turn[0]:
            return
        self._disarm_clock()
        if turn[0] == COUNT_CLOCK:   # the slow readers of the count go on with the others
            self._go_on_from_count()
            return
        self.stand_ins[turn[0]] = 'clock'
        self._add_log(self._event('stand_in', turn[0], reason='clock'))
        self.version += 1
        self.save_soon()
        self._notify([])
        self.start()

    # the count, read by every person present -------------------------------------------------
    def present_people(self) -> list[int]:
        return [seat for seat in self.person_seats()
                if self.subscribers.get(seat) and self.stand_ins.get(seat) != 'away']

    def waiting_to_go_on(self) -> list[int]:
        """The people present who have not gone on from the count yet."""
        return [seat for seat in self.present_people() if seat not in self.ready]
