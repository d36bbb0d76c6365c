"""A public table's part of its Table: the lobby's line about it, and its seats taken from the
database (app.lobby takes them there, on whichever process a person asked).

A public table is a room (``Room.public``). Its seats are claimed in the database first, so two
processes never give one seat twice; this part seats a person once their page arrives here
(``take``), and starts the game when every seat is taken and its people are here, when its
creator (at a quick match, anybody seated) starts it now, or when a quick match's wait is over
(``fill``): the seats still free then go to computers at the table's level, and whoever claimed a
seat but never came is played for until they come. After every change it hands the store the
table's line in the lobby (``Listing``), written off the event loop by the table's writer.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.engine.protocol import IllegalAction
from app.ratings import COMPUTER_RATINGS
from app.tables.room import SPECTATOR, RoomHost, room_event
from app.tables.seats import ROOM_BOT_NAMES, Seat


@dataclass(frozen=True, slots=True)
class Listing:
    """What the lobby shows of one public table, as its holding process knows it."""

    table_id: str
    stage: str                                   # waiting | playing | over
    people: tuple[dict[str, Any], ...]           # per seat: name, kind, level, rating
    spectators: int
    at: float = field(default=0.0, compare=False)   # the table clock's wall time it was made at


@dataclass(frozen=True, slots=True)
class Claim:
    """A seat taken in the database: whose it is (``app.lobby``)."""

    seat: int
    guest: str | None
    user_id: int | None
    name: str
    rating: tuple[int, bool] | None = None       # shown rating and provisional mark (rated tables)


class PublicHost(RoomHost, Protocol):
    id: str
    game: Any
    options: Any
    subscribers: dict[int, list[Any]]

    def notify(self) -> None: ...


class PublicSeats:
    """A public table's seating, start and line in the lobby. ``publish(listing)`` hands the line
    to the store; ``start_claims()`` closes the table to new seats in the database and returns
    every seat claimed there (None when the database could not say: nothing starts then)."""

    def __init__(self, table: PublicHost, *, publish: Callable[[Listing], None],
                 start_claims: Callable[[], list[Claim] | None], release_claim: Callable[[int], bool]) -> None:
        self.table, self.publish, self.start_claims, self.release_claim = table, publish, start_claims, release_claim
        self._published: Listing | None = None
        self._timer: Any = None
        self.closed = False   # nobody came, or everybody left before the start: no game here

    @property
    def on(self) -> bool:
        return self.table.room is not None and self.table.room.public

    def arm(self) -> None:
        """A quick match waiting (just made, or loaded back): its wait ends at ``fill_at``."""
        room = self.table.room
        if not self.on or room.started or room.fill_at is None or self._timer is not None:
            return
        self._timer = self.table.clock.call_later(max(0.0, room.fill_at - self.table.clock.wall()), self.fill)

    def take(self, claim: Claim) -> int:
        """Seat a person whose claim the database holds (their page has come to this process)."""
        table = self.table
        if not self.on or not (0 <= claim.seat < len(table.seats)):
            raise IllegalAction('room_full', 'every seat is taken')
        seat = table.seats[claim.seat]
        if seat.belongs_to(claim.guest, claim.user_id):
            return claim.seat
        if not seat.is_person or not seat.is_empty:
            raise IllegalAction('room_full', 'every seat is taken')
        self._sit(claim)
        if table.room.started:   # came after the start: a computer played for them until now
            table.presence.arrived(claim.seat)
        table.changed(notes=[room_event('joined', claim.seat)])
        return claim.seat

    def _sit(self, claim: Claim) -> None:
        seat = self.table.seats[claim.seat]
        seat.name, seat.guest, seat.user_id = claim.name, claim.guest, claim.user_id
        if claim.rating is not None:
            self.table.room.ratings[claim.seat] = claim.rating

    def arrived(self) -> None:
        """A screen of a seat opened: a full table whose people are all here starts, a moment
        later (not inside the page that is being drawn)."""
        if self._full_and_here():
            self.table.clock.call_later(0, lambda: self._full_and_here() and self.start())

    def _full_and_here(self) -> bool:
        table = self.table
        return (self.on and table.waiting and not table.seating.free_seats()
                and all(table.watching(index) for index in table.person_seats()))

    def release(self, seat: int) -> bool:
        """A person gives up their seat before the start (Leave, or their page is gone): the
        database frees it first, so another person may take it from any process."""
        table = self.table
        if not self.on or not table.waiting or not (0 <= seat < len(table.seats)) \
                or not table.seats[seat].is_person or table.seats[seat].is_empty:
            return False
        if not self.release_claim(seat):
            return False
        person = table.seats[seat]
        person.name, person.guest, person.user_id = '', None, None
        table.room.ratings.pop(seat, None)
        table.changed()
        return True

    def start_now(self, by: int, version: int) -> None:
        """Start with computers in the free seats: the creator of a public table, or anybody
        seated at a quick match (nobody there owns it)."""
        table = self.table
        if not self.on or not table.waiting:
            raise IllegalAction('room_started', 'the game has started')
        if not (0 <= by < len(table.seats)) or not table.seats[by].is_person or table.seats[by].is_empty \
                or (not table.room.quick and by != table.room.creator):
            raise IllegalAction('not_room_creator', 'only the person who made the room can do that')
        if version != table.version:
            raise IllegalAction('stale', 'the table has moved on since this screen was drawn')
        self.start()

    def fill(self) -> None:
        """A quick match's wait is over: computers take the seats still free, and the game starts."""
        self._timer = None
        if self.on and self.table.waiting:
            self.start()

    def start(self) -> bool:
        """Close the table to new seats in the database, seat whoever claimed one meanwhile, give
        the rest to computers and deal. False when the database could not close it (the wait
        goes on: a later fill or start tries again)."""
        table = self.table
        claims = self.start_claims()
        if claims is None:
            if table.room.quick:   # try again shortly rather than leave the table waiting for good
                self._timer = table.clock.call_later(5.0, self.fill)
            return False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for claim in claims:
            if 0 <= claim.seat < len(table.seats) and table.seats[claim.seat].is_empty:
                self._sit(claim)
        if all(table.seats[index].is_empty for index in table.person_seats()):
            self.closed = True   # nobody is left to play: it closes instead of dealing to computers alone
            self.changed()
            return False
        used = {seat.name.casefold() for seat in table.seats}
        spare = iter(name for name in ROOM_BOT_NAMES if name.casefold() not in used)
        level = table.options.level
        fixed = COMPUTER_RATINGS.get(table.game.id, {}).get(level)
        for index in table.seating.free_seats():
            table.seats[index] = Seat('computer', name=next(spare), level=level)
            if table.room.rated and fixed is not None:
                table.room.ratings[index] = (fixed.display(), False)
        table.room.started = True
        table.started_at = table.clock.wall()
        table.changed()
        for index in table.person_seats():   # claimed but never came: played for until they do
            if not table.watching(index):
                table.presence.left(index)
        table.start_computers()
        return True

    def listing(self) -> Listing:
        table = self.table
        stage = 'over' if self.closed or table.is_over() else 'waiting' if table.waiting else 'playing'
        people = tuple({'name': seat.name, 'kind': 'free' if seat.is_empty else seat.kind, 'level': seat.level,
                        'rating': list(table.room.ratings[index]) if index in table.room.ratings else None}
                       for index, seat in enumerate(table.seats))
        return Listing(table.id, stage, people, len(table.subscribers.get(SPECTATOR, ())), at=table.clock.wall())

    def changed(self) -> None:
        """After a step or a screen came or went: the lobby hears of what it shows, if it moved."""
        if not self.on:
            return
        listing = self.listing()
        if listing != self._published:
            self._published = listing
            self.publish(listing)
