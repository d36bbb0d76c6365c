"""Seats at public tables, taken in the database in one transaction whichever process a person
asked: quick match (``quick_match``), Join in the lobby (``join``), and opening a public table
(``open_public``). The table's holding process seats each person when their page arrives there
(``seat_here``); the start seats only those whose page is there (app.tables.public).

One seat per person: a browser and an account hold at most one seat at an open public table, of
any game (``open_seat``). Asking for another sends them back to theirs (``AlreadySeated``). The
check is made under a lock per browser, account and address (``_may_take_a_seat``), and the unique
indexes of ``seatclaim`` hold it even where the locks were not taken; an address holds at most
``limits.WAITING_SEATS_PER_ADDRESS`` seats at waiting tables."""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from app import fairplay, limits, playban
from app.engine.protocol import IllegalAction
from app.games import GameInfo
from app.lobby import PUBLIC_CLOCK, quick_wait
from app.standings import rating_of
from app.tables import registry
from app.tables.public import Claim
from app.tables.room import Room
from app.tables.seats import Seat, TableOptions
from app.tables.table import Table
from models.db import session_scope
from models.fairplay import waiting_tables_of
from models.tables import (PublicTable, SeatClaim, add_claim, claim_of, claims_of, lock_keys, lock_quick_match,
                           public_table, seat_of_person, waiting_quick_table, waiting_seats_at)

logger = logging.getLogger(__name__)
NOT_ABOUT_TO_FILL = 2.0   # seconds: a quick match this close to its start takes nobody new (they'd miss the deal)


class MatchUnavailable(RuntimeError):
    """The database could not seat the person (the page says so, translated)."""


class AlreadySeated(Exception):
    """The person has a seat at an open public table already: ``table_id``, where the page sends them."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.table_id = table_id


class _SeatTakenMeanwhile(Exception):
    """The unique index refused a second seat of one person: another tab of theirs took one."""


@dataclass(frozen=True, slots=True)
class Person:
    """Who asks for a seat: a browser's guest token, the account if signed in, the name shown, and
    the address asked from (``limits.address_key``; None: not bounded)."""

    guest: str
    user_id: int | None
    name: str
    address: str | None = None


def moment(wall: float) -> datetime:
    return datetime.fromtimestamp(wall, UTC)


def quick_options(game: GameInfo, seats: int) -> TableOptions:
    """A quick match plays the game's usual rules, computers at hard level when they fill, no hints
    (the hint is a computer's advice: not at a table of people)."""
    rules = {option.name: option.default for option in game.options}
    return TableOptions(seats=seats, level='hard', speed='normal', hints=False, rules=rules)


def _lock_key(game: GameInfo, seats: int, rated: bool) -> int:
    return _key(f'quick match:{game.id}:{seats}:{rated}')


def _key(text: str) -> int:
    """A transaction lock's key (a signed 64-bit number, as PostgreSQL's advisory locks take)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], 'big', signed=True)


def quick_match(game: GameInfo, seats: int, person: Person, *, wall: float) -> str:
    """The table a quick match seats this person at: a waiting one of the same game, seats and
    rating (signed in: rated; a guest: not), or a new one that waits for others. Two people asking
    at once on any processes meet: the search and the opening are one transaction under a lock of
    that kind. Asking again while waiting gives the same table. Raises MatchUnavailable."""
    if type(seats) is not int or not (game.min_seats <= seats <= game.max_seats):
        raise IllegalAction('generic', 'no such number of seats')
    rated = person.user_id is not None
    made: Table | None = None
    try:
        with session_scope() as session:
            _may_take_a_seat(session, person)   # a seat already held is where they go, wait or not
            if rated:
                must_wait(person, wall, session=session)
            lock_quick_match(session=session, key=_lock_key(game, seats, rated))
            row = waiting_quick_table(session=session, game_id=game.id, seats=seats, rated=rated,
                                      fills_after=moment(wall + NOT_ABOUT_TO_FILL),
                                      excluded=not_with(session, game, person))
            if row is not None:
                _claim(session, row, person, moment(wall))
                return row.table_id
            made = registry.new_table(game, quick_options(game, seats),
                                      [_seat(person)] + [Seat('person') for _ in range(seats - 1)],
                                      room=Room.new(PUBLIC_CLOCK, public=True, rated=rated, quick=True,
                                                    fill_at=wall + quick_wait()))
            _open(session, made, person)
    except _SeatTakenMeanwhile:
        raise _already_seated(person) from None
    except SQLAlchemyError as error:
        logger.error('quick match for %s failed: %s', game.id, str(error).splitlines()[0])
        raise MatchUnavailable(str(error)) from error
    registry.hold_new(made)
    return made.id


def open_public(table: Table, person: Person) -> Table:
    """Store a public table made from the setup form (its creator in the first seat) with its line
    in the lobby, and hold it here. Raises registry.TableUnavailable, and IllegalAction('playban')
    for a rated one while its creator waits for having left rated games."""
    try:
        with session_scope() as session:
            _may_take_a_seat(session, person)
            if table.room.rated:
                must_wait(person, table.clock.wall(), session=session)
            _open(session, table, person)
    except _SeatTakenMeanwhile:
        raise _already_seated(person) from None
    except SQLAlchemyError as error:
        logger.exception('could not store a new public %s table', table.game.id)
        raise registry.TableUnavailable(str(error)) from error
    return registry.hold_new(table)


def join(table_id: str, person: Person) -> str:
    """Take a free seat at a waiting public table (the lobby's Join). Refused with IllegalAction
    when it started or is full, or is rated and the person is a guest; AlreadySeated when the
    person has a seat (here or at another table); raises MatchUnavailable."""
    try:
        with session_scope() as session:
            _may_take_a_seat(session, person)
            row = public_table(session=session, table_id=table_id, lock=True)
            if row is None:
                raise IllegalAction('generic', 'no such table')
            if row.stage != 'waiting':
                raise IllegalAction('room_started', 'the game has started')
            if row.rated and person.user_id is None:
                raise IllegalAction('rated_needs_account', 'sign in to play a rated table')
            if row.rated:
                must_wait(person, registry.wall_time().timestamp(), session=session)
            _claim(session, row, person, registry.wall_time())
    except _SeatTakenMeanwhile:
        raise _already_seated(person) from None
    except SQLAlchemyError as error:
        logger.error('could not join public table %s: %s', table_id, str(error).splitlines()[0])
        raise MatchUnavailable(str(error)) from error
    return table_id


def must_wait(person: Person, wall: float, *, session=None) -> None:
    """Someone who keeps leaving rated games waits before the next one (app.playban): refused
    with IllegalAction('playban', seconds=...) while they do."""
    if person.user_id is None:
        return
    left = playban.time_left(user_id=person.user_id, now=moment(wall), session=session)
    if left is not None:
        raise IllegalAction('playban', 'wait before the next rated game', seconds=int(left.total_seconds()))


def not_with(session, game: GameInfo, person: Person) -> list[str]:
    """The waiting tables quick match does not seat this person at: where an account sits that
    shared a browser with theirs in the last 30 days (app.fairplay; very probably themselves).
    Sightings are kept in real time, not on the tables' clock."""
    if person.user_id is None:
        return []
    others = fairplay.browser_partners(session=session, user_id=person.user_id, now=datetime.now(UTC))
    return waiting_tables_of(session=session, game_id=game.id, user_ids=others) if others else []


def open_seat(guest: str | None, user_id: int | None) -> tuple[str, str] | None:
    """(table id, game id) of the open public table where this browser or account has its seat,
    or None (also when the database cannot say: the setup page then offers nothing)."""
    try:
        with session_scope() as session:
            return seat_of_person(session=session, guest=guest, user_id=user_id)
    except SQLAlchemyError as error:
        logger.error('could not look up the public seat of a person: %s', str(error).splitlines()[0])
        return None


def _may_take_a_seat(session, person: Person) -> None:
    """Before a claim: the person's browser, account and address wait for each other's claims
    here, on every process (two tabs asking at once: the second sees the first one's seat). A
    person with a seat is sent back to it (AlreadySeated); an address that holds its bound of
    waiting seats is refused (IllegalAction)."""
    keys = [('guest', person.guest), ('user', person.user_id), ('address', person.address)]
    lock_keys(session=session, keys=[_key(f'seat taker:{kind}:{value}') for kind, value in keys if value is not None])
    seated = seat_of_person(session=session, guest=person.guest, user_id=person.user_id)
    if seated is not None:
        raise AlreadySeated(seated[0])
    if person.address is not None and \
            waiting_seats_at(session=session, address=person.address) >= limits.WAITING_SEATS_PER_ADDRESS:
        raise IllegalAction('too_many_waiting_seats', 'this address holds enough waiting seats',
                            most=limits.WAITING_SEATS_PER_ADDRESS)


def _already_seated(person: Person) -> Exception:
    """What a claim refused by the unique index becomes: the seat the other tab took, looked up
    in a new transaction (the refused one is over), or the database's trouble."""
    seated = open_seat(person.guest, person.user_id)
    return AlreadySeated(seated[0]) if seated is not None else MatchUnavailable('a seat was taken meanwhile')


def seat_here(table: Table, guest: str | None, user_id: int | None) -> int | None:
    """At the holding process: seat this browser or account if it claimed a seat at the public
    table (it came from quick match or the lobby); their seat, or None if they claimed none."""
    if table.room is None or not table.room.public:
        return None
    try:
        with session_scope() as session:
            claim = claim_of(session=session, table_id=table.id, guest=guest, user_id=user_id)
            if claim is None:
                return None
            found = Claim(claim.seat, claim.guest, claim.user_id, claim.name)
        if table.room.rated and found.user_id is not None:
            found = Claim(found.seat, found.guest, found.user_id, found.name,
                          rating_of(user_id=found.user_id, game_id=table.game.id).seat_mark())
    except SQLAlchemyError:
        logger.exception('could not read the seats claimed at table %s', table.id)
        return None
    try:
        return table.public.take(found)
    except IllegalAction:
        return None


def _seat(person: Person) -> Seat:
    return Seat('person', name=person.name, guest=person.guest, user_id=person.user_id)


def _open(session, table: Table, person: Person) -> None:
    """The table's first write, its line in the lobby and its creator's seat, in one transaction."""
    room = table.room
    if room.rated and person.user_id is not None:
        room.ratings[0] = rating_of(user_id=person.user_id, game_id=table.game.id).seat_mark()
    registry.store_new(session=session, table=table)
    listing = table.public.listing()
    session.add(PublicTable(table_id=table.id, game_id=table.game.id, seats=len(table.seats), rated=room.rated,
                            quick=room.quick, stage='waiting', free_seats=len(table.seating.free_seats()),
                            people_json=json.dumps(list(listing.people), separators=(',', ':')),
                            options_json=json.dumps(table.options.rules, separators=(',', ':')),
                            fill_at=moment(room.fill_at) if room.fill_at is not None else None,
                            created_at=moment(table.clock.wall()), updated_at=moment(table.clock.wall())))
    session.flush()
    _insert_claim(session, lambda: (session.add(_claim_row(table.id, 0, person, person.name)), session.flush()))


def _claim(session, row: PublicTable, person: Person, now: datetime) -> None:
    """The first person's seat nobody has claimed (the caller holds the listing's row)."""
    claimed = {claim.seat for claim in claims_of(session=session, table_id=row.table_id)}
    people = json.loads(row.people_json)
    free = [index for index, seat in enumerate(people) if seat.get('kind') == 'free' and index not in claimed]
    if not free:
        raise IllegalAction('room_full', 'every seat is taken')
    taken = {seat.get('name', '').casefold() for seat in people if seat.get('kind') != 'free'}
    taken |= {claim.name.casefold() for claim in claims_of(session=session, table_id=row.table_id)}
    name = person.name
    if name.casefold() in taken:   # two people called Ana: the second is told apart at the table
        name = next(f'{person.name[:17]} {n}' for n in range(2, 99) if f'{person.name[:17]} {n}'.casefold() not in taken)
    _insert_claim(session, lambda: add_claim(session=session, claim=_claim_row(row.table_id, free[0], person, name),
                                             now=now))


def _claim_row(table_id: str, seat: int, person: Person, name: str) -> SeatClaim:
    return SeatClaim(table_id=table_id, seat=seat, guest=person.guest, user_id=person.user_id, name=name,
                     address=person.address)


def _insert_claim(session, insert) -> None:
    """Write a claim; the unique index's refusal (this person took a seat meanwhile, from a tab
    whose transaction began before this one's lock) is told apart from the database's trouble."""
    try:
        insert()
    except IntegrityError as error:
        if 'seatclaim' not in str(error).lower() or not any(key in str(error).lower() for key in ('guest', 'user_id')):
            raise
        raise _SeatTakenMeanwhile() from error
