"""A public table's part of its Table: the lobby's line about it, and its seats taken from the
database (app.lobby takes them there, on whichever process a person asked).

A public table is a room (``Room.public``). Its seats are claimed in the database first, so two
processes never give one seat twice; this part seats a person once their page arrives here
(``take``), and starts the game when every seat is taken and its people are here, when its
creator (at a quick match, anybody seated) starts it now, or when a quick match's wait is over
(``fill``): the seats still free then go to computers at the table's level.

A claim is a seat only while its page is there (no ghost seats): a claim whose page has not
come within ``ARRIVAL`` seconds, or whose every screen has been gone for ``GONE_GRACE`` seconds
before the start, is freed, and the start seats nobody absent. Once the game is on, a table
that no person is at (their pages gone past the reconnect window) leaves the lobby, and ends as
abandoned when nobody has come back for ``DESERTED_END`` seconds. Every wait is on the table's
clock. After every change it hands the store the table's line in the lobby (``Listing``),
written off the event loop by the table's writer.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.engine.protocol import IllegalAction
from app.ratings import COMPUTER_RATINGS
from app.tables.room import SPECTATOR, RoomHost, room_event
from app.tables.seats import ROOM_BOT_NAMES, Seat

ARRIVAL = 10.0        # seconds a claim waits for its page to come and connect
GONE_GRACE = 8.0      # seconds a waiting seat's screens may all be gone (a reload, a blip) before it is freed
SWEEP_EVERY = 5.0     # seconds between two looks for claims whose page never came (made at any process)
DESERTED_END = 300.0  # seconds a game nobody is at waits for somebody to come back, before it ends


@dataclass(frozen=True, slots=True)
class Listing:
    """What the lobby shows of one public table, as its holding process knows it."""

    table_id: str
    stage: str                                   # waiting | playing | left (nobody there: not listed) | over
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

    def person_seats(self) -> list[int]: ...


class PublicSeats:
    """A public table's seating, start and line in the lobby. ``publish(listing)`` hands the line
    to the store; ``start_claims()`` closes the table to new seats in the database and returns
    every seat claimed there (None when the database could not say: nothing starts then)."""

    def __init__(self, table: PublicHost, *, publish: Callable[[Listing], None],
                 start_claims: Callable[[list[int]], list[Claim] | None], release_claim: Callable[[int], bool],
                 free_unseen: Callable[[float, list[int]], None] = lambda before, seen: None,
                 end_deserted: Callable[[], None] = lambda: None) -> None:
        self.table, self.publish, self.start_claims, self.release_claim = table, publish, start_claims, release_claim
        self.free_unseen, self.end_deserted = free_unseen, end_deserted
        self._published: Listing | None = None
        self._timer: Any = None
        self._sweeping: Any = None
        self.closed = False   # nobody came, or everybody left before the start: no game here
        self._screens: dict[int, set[Any]] = {}   # seat -> its screens whose socket is connected (before the start)
        self._gone_since: dict[int, float] = {}   # seat -> since when none of them is (or since it was taken)
        self.deserted_since: float | None = None   # the game is on and no person is at it, since then
        self._end_timer: Any = None

    @property
    def on(self) -> bool:
        return self.table.room is not None and self.table.room.public

    def arm(self) -> None:
        """A public table held here (just made, or loaded back): a quick match's wait ends at
        ``fill_at``; the seats taken and the claims made elsewhere wait for their pages."""
        room = self.table.room
        if not self.on or room.started:
            return
        for seat in self.table.person_seats():
            if not self.table.seats[seat].is_empty:
                self._expect(seat, ARRIVAL)
        if self._sweeping is None:
            self._sweeping = self.table.clock.call_later(SWEEP_EVERY, self._sweep)
        if room.fill_at is None or self._timer is not None:
            return
        self._timer = self.table.clock.call_later(max(0.0, room.fill_at - self.table.clock.wall()), self.fill)

    def present(self, seat: int) -> bool:
        """Before the start: a screen of this seat is open and connected (its page is there)."""
        return bool(self._screens.get(seat))

    def screen(self, seat: int, screen: Any, connected: bool) -> None:
        """A screen of a seat connected, or lost its socket (or closed): a seat none of whose
        screens is connected is freed ``GONE_GRACE`` seconds later, unless one comes back."""
        if seat < 0 or not (0 <= seat < len(self.table.seats)):
            return
        screens = self._screens.setdefault(seat, set())
        if connected:
            screens.add(screen)
            self._gone_since.pop(seat, None)
            self.arrived()
        else:
            screens.discard(screen)
            if not screens and self.on and self.table.waiting:
                self._expect(seat, GONE_GRACE)

    def _expect(self, seat: int, seconds: float) -> None:
        if self.present(seat) or seat in self._gone_since:
            return
        self._gone_since[seat] = self.table.clock.now()
        self.table.clock.call_later(seconds, self._free_if_gone, seat, seconds)

    def _free_if_gone(self, seat: int, seconds: float) -> None:
        since = self._gone_since.get(seat)
        if since is None or self.present(seat) or self.table.clock.now() - since < seconds - 0.01:
            return
        self._gone_since.pop(seat, None)
        self.release(seat)

    def _sweep(self) -> None:
        """Free the claims whose page never came here (they may have been made at any process)."""
        self._sweeping = None
        if not self.on or not self.table.waiting or self.closed:
            return
        seated = [seat for seat in self.table.person_seats() if not self.table.seats[seat].is_empty]
        self.free_unseen(self.table.clock.wall() - ARRIVAL, seated)
        self._sweeping = self.table.clock.call_later(SWEEP_EVERY, self._sweep)

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
        else:   # its page has come: it must connect soon, or the seat is someone else's
            self._expect(claim.seat, ARRIVAL)
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
                and all(self.present(index) for index in table.person_seats()))

    def release(self, seat: int) -> bool:
        """A person gives up their seat before the start (Leave, or their page is gone): the
        database frees it first, so another person may take it from any process."""
        table = self.table
        if not self.on or not table.waiting or not (0 <= seat < len(table.seats)) \
                or not table.seats[seat].is_person or table.seats[seat].is_empty:
            return False
        if not self.release_claim(seat):
            return False
        self._empty(seat)
        table.changed()
        return True

    def _empty(self, seat: int) -> None:
        table = self.table
        person = table.seats[seat]
        person.name, person.guest, person.user_id = '', None, None
        table.room.ratings.pop(seat, None)
        if seat == table.room.creator and not table.room.quick:   # somebody seated must be able to start it
            table.room.creator = next((index for index in table.person_seats() if not table.seats[index].is_empty),
                                      table.room.creator)

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
        """A quick match's wait is over: computers take the seats still free, and the game starts.
        A page still on its way (or back within its grace) is waited for: its seat is settled,
        taken or freed, within seconds."""
        self._timer = None
        if not self.on or not self.table.waiting:
            return
        table = self.table
        if any(seat in self._gone_since and not self.present(seat) for seat in table.person_seats()
               if not table.seats[seat].is_empty):
            self._timer = table.clock.call_later(1.0, self.fill)
            return
        self.start()

    def start(self) -> bool:
        """Close the table to new seats in the database, seat whoever claimed one meanwhile, give
        the rest to computers and deal. False when the database could not close it (the wait
        goes on: a later fill or start tries again)."""
        table = self.table
        here = [seat for seat in table.person_seats() if not table.seats[seat].is_empty and self.present(seat)]
        claims = self.start_claims(here)
        if claims is None:
            if table.room.quick:   # try again shortly rather than leave the table waiting for good
                self._timer = table.clock.call_later(5.0, self.fill)
            return False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for seat in table.person_seats():   # nobody absent is seated: their claim went with the start
            if seat not in here and not table.seats[seat].is_empty:
                self._empty(seat)
        for claim in claims:
            if claim.seat in here and table.seats[claim.seat].is_empty:
                self._sit(claim)
        self._gone_since.clear()
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

    def people_here(self) -> None:
        """A person's first screen opened or last one closed during the game: a game nobody is
        at leaves the lobby and ends after ``DESERTED_END`` seconds unless somebody comes back."""
        table = self.table
        if not self.on or table.waiting or table.is_over():
            return
        nobody = not any(table.watching(seat) for seat in table.person_seats())
        if nobody and self.deserted_since is None:
            self.deserted_since = table.clock.now()
            self._end_timer = table.clock.call_later(DESERTED_END, self._end_if_deserted)
        elif not nobody and self.deserted_since is not None:
            self.deserted_since = None
            if self._end_timer is not None:
                self._end_timer.cancel()
                self._end_timer = None
        else:
            return
        self.changed()

    def _end_if_deserted(self) -> None:
        self._end_timer = None
        if self.deserted_since is not None and not self.table.is_over() \
                and self.table.clock.now() - self.deserted_since >= DESERTED_END - 0.01:
            self.end_deserted()

    @property
    def deserted(self) -> bool:
        """The game is on, nobody is at it, and it waits to end (kept in memory meanwhile)."""
        return self.deserted_since is not None

    def listing(self) -> Listing:
        table = self.table
        stage = 'over' if self.closed or table.is_over() else 'waiting' if table.waiting \
            else 'left' if self.deserted_since is not None else 'playing'
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
