"""Seats at public tables, taken in the database in one transaction whichever process a person
asked: quick match (``quick_match``), Join in the lobby (``join``), and opening a public table
(``open_public``). The table's holding process seats each person when their page arrives there
(``seat_here``) or when the game starts (app.tables.public)."""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.exc import SQLAlchemyError

from app import fairplay, playban
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
from models.tables import (PublicTable, SeatClaim, add_claim, claim_of, claims_of, lock_quick_match, public_table,
                           waiting_claims, waiting_quick_table)

logger = logging.getLogger(__name__)
NOT_ABOUT_TO_FILL = 2.0   # seconds: a quick match this close to its start takes nobody new (they'd miss the deal)


class MatchUnavailable(RuntimeError):
    """The database could not seat the person (the page says so, translated)."""


@dataclass(frozen=True, slots=True)
class Person:
    """Who asks for a seat: a browser's guest token, the account if signed in, the name shown."""

    guest: str
    user_id: int | None
    name: str


def moment(wall: float) -> datetime:
    return datetime.fromtimestamp(wall, UTC)


def quick_options(game: GameInfo, seats: int) -> TableOptions:
    """A quick match plays the game's usual rules, computers at hard level when they fill, no hints
    (the hint is a computer's advice: not at a table of people)."""
    rules = {option.name: option.default for option in game.options}
    return TableOptions(seats=seats, level='hard', speed='normal', hints=False, rules=rules)


def _lock_key(game: GameInfo, seats: int, rated: bool) -> int:
    digest = hashlib.sha256(f'quick match:{game.id}:{seats}:{rated}'.encode()).digest()
    return int.from_bytes(digest[:8], 'big', signed=True)


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
        if rated:
            must_wait(person, wall)
        with session_scope() as session:
            lock_quick_match(session=session, key=_lock_key(game, seats, rated))
            for table_id in waiting_claims(session=session, game_id=game.id, guest=person.guest,
                                           user_id=person.user_id):
                return table_id
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
            if table.room.rated:
                must_wait(person, table.clock.wall(), session=session)
            _open(session, table, person)
    except SQLAlchemyError as error:
        logger.exception('could not store a new public %s table', table.game.id)
        raise registry.TableUnavailable(str(error)) from error
    return registry.hold_new(table)


def join(table_id: str, person: Person) -> str:
    """Take a free seat at a waiting public table (the lobby's Join). Refused with IllegalAction
    when it started or is full, or is rated and the person is a guest; raises MatchUnavailable."""
    try:
        with session_scope() as session:
            row = public_table(session=session, table_id=table_id, lock=True)
            if row is None:
                raise IllegalAction('generic', 'no such table')
            if claim_of(session=session, table_id=table_id, guest=person.guest, user_id=person.user_id) is not None:
                return table_id
            if row.stage != 'waiting':
                raise IllegalAction('room_started', 'the game has started')
            if row.rated and person.user_id is None:
                raise IllegalAction('rated_needs_account', 'sign in to play a rated table')
            if row.rated:
                must_wait(person, registry.wall_time().timestamp(), session=session)
            _claim(session, row, person, registry.wall_time())
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
    session.add(SeatClaim(table_id=table.id, seat=0, guest=person.guest, user_id=person.user_id, name=person.name))
    session.flush()


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
    add_claim(session=session, claim=SeatClaim(table_id=row.table_id, seat=free[0], guest=person.guest,
                                               user_id=person.user_id, name=name), now=now)
