"""The id -> Table registry: one live object per table id, shared by every tab, page and person.

This is the only game-related module-level state of the site. A table that nobody
watches any more is saved and let go after a while; the next screen that asks for it loads it
back from the database, as after a restart. Saving is a compare-and-set on the version, so if two
server processes ever held the same table, only one could write it: the other lets it go.

The registry also holds the collaborators every table it makes is handed (``services``): the
database store, the process pool's thinker, real time and secret deals in production. Tests and
the browser tests' server hand in others with ``configure`` before any table is made.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from app import metrics
from app.games import GameInfo
from app.playban import record_leave
from app.standings import ratings_of
from app.tables.public import Claim, Listing
from app.tables.records import record_abandoned, record_table
from app.tables.room import Room
from app.tables.seats import Seat, TableOptions, computer_seats
from app.tables.services import Entry, OneProcess, Saved, TableServices, Write
from app.tables.table import Subscriber, Table
from models.db import session_scope
from models.tables import (GameTable, abandon_idle_tables, free_unseen_claims, public_table, release_public_seat,
                           stale_public_tables, start_public_table,
                           update_public_table, abandon_table_if_version, delete_guest_tables,
                           insert_table, load_table, save_table_if_version, table_steps, unfinished_tables,
                           utcnow)

logger = logging.getLogger(__name__)
ID_PATTERN = re.compile(r'^[A-Za-z0-9_-]{16}$')
KEEP_UNWATCHED = 120.0                 # seconds a table stays in memory after its last screen left
ABANDON_AFTER = timedelta(days=30)     # unfinished tables left alone this long are closed
# a guest table (no account: it feeds no history) is deleted a day after it was left if nobody
# ever played at it, or 30 days after it was closed (finished or abandoned)
FORGET_UNPLAYED, FORGET_CLOSED = timedelta(days=1), timedelta(days=30)
# a public game in play not saved for this long has nobody at it, and no process that holds it
# (one that does ends it after 5 minutes by itself): it leaves the lobby, as abandoned
STALE_PUBLIC = timedelta(minutes=15)

_TABLES: dict[str, Table] = {}


class TableUnavailable(RuntimeError):
    """The database could not store a new table (the page says so, translated)."""


def new_table_id() -> str:
    return secrets.token_urlsafe(12)   # 16 URL-safe characters, 96 random bits


def wall_time() -> datetime:
    """Now on the tables' wall clock: the lobby's times are on it, as the tables' own are."""
    return datetime.fromtimestamp(_SERVICES.clock.wall(), UTC)


class DatabaseStore(OneProcess):
    """Saves a table to the database after its steps (a compare-and-set on the version) and
    records a finished game in its account holders' history. The only process on its database
    (``python main.py``); several processes use ``app.tables.lease.LeasedStore``."""

    def save(self, table: Table, entry: Entry) -> Saved:
        return _save(table, entry)

    def write(self, table: Table, entry: Entry) -> Write:
        return _write(table, entry)

    def game_over(self, table: Table) -> None:
        record_table(table)

    def publish(self, listing: Listing) -> None:
        try:
            with session_scope() as session:
                update_public_table(session=session, table_id=listing.table_id, stage=listing.stage,
                                    people_json=json.dumps(list(listing.people), separators=(',', ':')),
                                    spectators=listing.spectators, now=datetime.fromtimestamp(listing.at, UTC))
        except SQLAlchemyError as error:   # the lobby shows an older line until the next change
            logger.error('could not list public table %s: %s', listing.table_id, str(error).splitlines()[0])

    def left_rated(self, table_id: str, game_id: str, user_id: int, wall: float) -> None:
        record_leave(user_id=user_id, table_id=table_id, game_id=game_id, aborted=True,
                     at=datetime.fromtimestamp(wall, UTC))

    def release_claim(self, table_id: str, seat: int) -> bool:
        try:
            with session_scope() as session:
                return release_public_seat(session=session, table_id=table_id, seat=seat,
                                           now=wall_time())
        except SQLAlchemyError as error:
            logger.error('could not free seat %s of public table %s: %s', seat, table_id, str(error).splitlines()[0])
            return False

    def start_public(self, table_id: str, here: list[int]) -> list[Claim] | None:
        try:
            with session_scope() as session:
                now = wall_time()
                claims = [(claim.seat, claim.guest, claim.user_id, claim.name)
                          for claim in start_public_table(session=session, table_id=table_id, now=now, keep=here)]
                row = public_table(session=session, table_id=table_id)
                game_id = row.game_id if row is not None and row.rated else None
            ratings = {} if game_id is None else ratings_of(
                user_ids=[user_id for _, _, user_id, _ in claims if user_id is not None], game_id=game_id)
        except SQLAlchemyError as error:
            logger.error('could not start public table %s: %s', table_id, str(error).splitlines()[0])
            return None
        return [Claim(seat, guest, user_id, name, ratings[user_id].seat_mark() if user_id in ratings else None)
                for seat, guest, user_id, name in claims]


    def free_unseen_claims(self, table_id: str, before: float, seen: list[int]) -> None:
        try:
            with session_scope() as session:
                free_unseen_claims(session=session, table_id=table_id, before=datetime.fromtimestamp(before, UTC),
                                   seen=seen, now=wall_time())
        except SQLAlchemyError as error:   # the next look tries again
            logger.error('could not free the unseen claims of table %s: %s', table_id, str(error).splitlines()[0])

    def end_deserted(self, table: Table) -> None:
        abandon(table)


_SERVICES = TableServices(store=DatabaseStore())


def services() -> TableServices:
    """What the next table made or loaded here is handed."""
    return _SERVICES


def configure(**parts: Any) -> TableServices:
    """Hand every table made or loaded from now on other collaborators (store, thinker, clock,
    deals); returns the ones it replaces, to put back with ``configure(**vars(old))``."""
    global _SERVICES
    old, _SERVICES = _SERVICES, replace(_SERVICES, **parts)
    return old


def new_table(game: GameInfo, options: TableOptions, seats: list[Seat], *, room: Room | None = None,
              seed: int | None = None, state: Any = None) -> Table:
    """A table (not stored yet) handed the registry's collaborators, its seed from their deals;
    ``state``: a game in progress to sit it at (tests' known positions), else a new deal."""
    return Table(new_table_id(), game, options, seats, services=_SERVICES, room=room, state=state,
                 seed=seed if seed is not None else _SERVICES.deals.game_seed())


def create_table(game: GameInfo, options: TableOptions, people: list[Seat], *, seed: int | None = None) -> Table:
    """A new table with these people in the first seats and computers in the rest. An account
    holder among them leaves their unfinished table of this game: it is recorded as abandoned."""
    table = add_table(new_table(game, options, computer_seats(options, people), seed=seed))
    for person in people:
        if person.user_id is not None:
            abandon_unfinished(person.user_id, game.id, keep=table.id)
    return table


def account_of(table: Table) -> int | None:
    """The account seated at the table (the first, if ever there are several)."""
    return next((seat.user_id for seat in table.seats if seat.is_person and seat.user_id is not None), None)


def add_table(table: Table) -> Table:
    """Store a new table at once, so that its address works from the first moment, and make it
    the live one of its id. Raises TableUnavailable when the database cannot take it."""
    try:
        with session_scope() as session:
            store_new(session=session, table=table)
    except SQLAlchemyError as error:
        logger.exception('could not store a new %s table', table.game.id)
        raise TableUnavailable(str(error)) from error
    return hold_new(table)


def store_new(*, session: Any, table: Table) -> None:
    """The first write of a table just made, in the caller's transaction (see ``hold_new``)."""
    insert_table(session=session, table=GameTable(
        id=table.id, game_id=table.game.id, options_json=json.dumps(table.options.to_dict()),
        seats_json=_seats_json(table), state_json=_state_json(table), version=table.version,
        status=table.status, user_id=account_of(table), person_acted=table.person_acted))


def hold_new(table: Table) -> Table:
    """A table whose first write is committed becomes the live one of its id, held here."""
    # in memory only while a screen shows it: one dealt and never opened is let go like one left
    table.clock.call_later(KEEP_UNWATCHED, _let_go_if_unwatched, table)
    table.store.claim(table.id)   # nobody else can hold a table just made
    return _adopt(table)


def open_table(table_id: str) -> Table | None:
    """The live table of this id: the one in memory, else the saved one (after a restart, or once
    it was let go). None for an unknown, malformed, abandoned or unreadable id. A table another
    process holds is read from the database as it stands, a copy that cannot save."""
    if not isinstance(table_id, str) or not ID_PATTERN.match(table_id):
        return None
    if table_id in _TABLES:
        return _TABLES[table_id]
    try:
        with session_scope() as session:
            row = load_table(session=session, table_id=table_id)
            saved = None if row is None else (row.game_id, row.options_json, row.seats_json, row.state_json,
                                               row.version, row.status)
            appended = [] if row is None else table_steps(session=session, table_id=table_id)
    except SQLAlchemyError:
        logger.exception('could not load table %s', table_id)
        return None
    if saved is None or saved[5] == 'abandoned':
        return None
    game_id, options_json, seats_json, state_json, version, _ = saved
    try:
        table = Table.from_saved(table_id, game_id, json.loads(options_json), json.loads(seats_json),
                                 json.loads(state_json), version, services=_SERVICES,
                                 appended=[json.loads(step) for step in appended])
    except (KeyError, TypeError, ValueError, IndexError) as error:
        logger.error('could not restore table %s: %s', table_id, error)
        return None
    if not table.store.holds(table_id):
        return table
    return _TABLES.setdefault(table_id, _adopt(table, keep=False))


def watch(table: Table, seat: int, subscriber: Subscriber, *, moved: Any = None) -> Any:
    """Subscribe a screen to its seat; the returned call ends it (on disconnect). A table nobody
    watches is saved at once and let go a little later, unless a screen comes back. ``moved()``
    sends the screen to the table's address if this copy loses the table to another process."""
    unsubscribe = table.subscribe(seat, subscriber)
    if moved is not None:
        table.movers.append(moved)

    def leave() -> None:
        if moved in table.movers:
            table.movers.remove(moved)
        unsubscribe()
        if not table.watched():
            table.flush()
            if table.clock.call_later(KEEP_UNWATCHED, _let_go_if_unwatched, table) is None:
                _let_go_if_unwatched(table)
    return leave


def live_tables() -> list[Table]:
    return list(_TABLES.values())


def _adopt(table: Table, *, keep: bool = True) -> Table:
    if keep:
        _TABLES[table.id] = table
        table.public.arm()   # a quick match waiting here: its wait ends on time, after a restart too
    return table


def _forget(table: Table) -> None:
    if _TABLES.get(table.id) is table:
        del _TABLES[table.id]


def _let_go_if_unwatched(table: Table) -> None:
    if table.watched() or _TABLES.get(table.id) is not table:
        return
    if table.public.deserted:   # a public game nobody is at: kept until it ends, on its own clock
        table.clock.call_later(KEEP_UNWATCHED, _let_go_if_unwatched, table)
        return
    table.stop()
    if table.holding:   # its last steps are only here: kept (and tried again) until they are saved
        table.clock.call_later(KEEP_UNWATCHED, _let_go_if_unwatched, table)
        return
    _forget(table)
    table.store.let_go(table.id)


def expect_screens(table_id: str) -> None:
    """A page of this table is on its way to this process, which has just claimed it: load it, and
    let it go (lease included) after a while unless a screen watches it by then."""
    table = open_table(table_id)
    if table is None:   # abandoned, or unreadable: nothing here to hold
        services().store.let_go(table_id)
    elif _TABLES.get(table_id) is table and not table.watched():
        if table.clock.call_later(KEEP_UNWATCHED, _let_go_if_unwatched, table) is None:
            _let_go_if_unwatched(table)


def lose(table_id: str) -> None:
    """Another process holds this table now (its lease was taken over): the copy here stops."""
    table = _TABLES.get(table_id)
    if table is not None:
        _forget(table)
        table.lose()


def _seats_json(table: Table) -> str:
    return json.dumps([seat.to_dict() for seat in table.seats], separators=(',', ':'))


def _state_json(table: Table) -> str:
    return json.dumps(table.to_dict(), separators=(',', ':'))


def _save(table: Table, entry: Entry, *, lease: tuple[str, int] | None = None) -> Saved:
    work, finish = _write(table, entry, lease=lease)
    return finish(work())


def _write(table: Table, entry: Entry, *, lease: tuple[str, int] | None = None) -> Write:
    """Write the entry (the whole table, or the steps since the last write appended) if the
    database still holds the version this process last wrote. A failed write holds the table,
    which tries again; a lost compare-and-set means another process has written this table since,
    so this process lets its copy go. ``lease``: the owner and epoch this process holds the
    table's lease at (several processes): the write is fenced by it too. What is written was read
    off the table when the save began; ``work`` touches only the database."""
    row = dict(table_id=entry.table_id, expected_version=entry.expected_version, version=entry.version,
               state_json=entry.whole, steps_json=entry.appended, seats_json=entry.seats, status=entry.status,
               user_id=account_of(table), person_acted=entry.person_acted, lease=lease)

    def work() -> bool | None:
        try:
            with session_scope() as session:
                return save_table_if_version(session=session, **row)
        except SQLAlchemyError as error:
            logger.error('could not save table %s (it holds and tries again): %s', row['table_id'],
                         str(error).splitlines()[0])
        except Exception:   # whatever it was, the table holds and tries again rather than stall
            logger.exception('could not save table %s (it holds and tries again)', row['table_id'])
        return None

    def finish(written: bool | None) -> Saved:
        saved = Saved.FAILED if written is None else Saved.OK if written else Saved.LOST
        metrics.SAVES.labels(saved.value).inc()
        if saved is Saved.LOST:
            logger.error('table %s was written by another process; this copy is let go', table.id)
            _forget(table)
        return saved
    return Write(work, finish)


def abandon(table: Table) -> bool:
    """Close an unfinished table for good and record it as abandoned for its account holders.
    A compare-and-set on the version: if another step or process got there first, nothing is
    closed or recorded (False)."""
    table.flush()   # its last step, if held back, is what gets closed
    try:
        with session_scope() as session:
            closed = abandon_table_if_version(session=session, table_id=table.id, expected_version=table.saved_version)
    except SQLAlchemyError:
        logger.exception('could not close table %s as abandoned', table.id)
        return False
    if not closed:
        return False
    table.lost = True           # a screen still showing it can no longer save it back to life...
    table.stop()
    _forget(table)
    record_abandoned(table)   # ...nor record it again (it is marked recorded)
    return True


def abandon_unfinished(user_id: int, game_id: str, *, keep: str | None = None) -> int:
    """Close the account's unfinished tables of this game (but `keep`) and record them as
    abandoned; returns how many. Rooms are left alone: friends play on there (a computer holds
    the seat of whoever is away)."""
    try:
        with session_scope() as session:
            table_ids = unfinished_tables(session=session, user_id=user_id, game_id=game_id)
    except SQLAlchemyError:
        logger.exception('could not look up the unfinished %s tables of account %s', game_id, user_id)
        return 0
    return _abandon_all((table_id for table_id in table_ids if table_id != keep), rooms=False)


def _abandon_all(table_ids: Any, *, rooms: bool = True) -> int:
    closed = 0
    for table_id in table_ids:
        table = open_table(table_id)
        if table is not None and not table.is_over() and (rooms or table.room is None):
            closed += abandon(table)
    return closed


def abandon_idle(now: Any = None) -> int:
    """Close as abandoned the unfinished tables nobody has touched for 30 days; those of account
    holders are recorded in their history first."""
    before = (now or utcnow()) - ABANDON_AFTER
    with session_scope() as session:
        held = unfinished_tables(session=session, before=before)
    closed = _abandon_all(held)
    with session_scope() as session:   # the guests' tables, and any that could not be read
        closed += abandon_idle_tables(session=session, before=before)
    for table in [table for table in _TABLES.values() if not table.watched()]:
        _let_go_if_unwatched(table)   # an idle copy in memory must not bring one back to life
    return closed


def end_stale_public(now: Any = None) -> int:
    """Close as abandoned the public games nobody has been at for a while whose table no process
    holds (``STALE_PUBLIC``), rated as they stand; returns how many."""
    with session_scope() as session:
        stale = stale_public_tables(session=session, before=(now or utcnow()) - STALE_PUBLIC)
    return _abandon_all(table_id for table_id in stale if table_id not in _TABLES)


def forget_guest_tables(now: Any = None) -> int:
    """Delete the guest tables nobody needs any more (see FORGET_UNPLAYED); returns how many. A
    copy still in memory is left alone: it is being watched, or was touched moments ago."""
    now = now or utcnow()
    with session_scope() as session:
        return delete_guest_tables(session=session, untouched_before=now - FORGET_UNPLAYED,
                                   closed_before=now - FORGET_CLOSED, keep=list(_TABLES))


def save_all() -> None:
    """Save every table whose last step is still held back (the server is stopping)."""
    for table in list(_TABLES.values()):
        table.flush()


async def keep_tidy(every: float = 6 * 3600) -> None:
    """Runs for the server's life: closes abandoned tables and deletes the guest tables nobody
    needs, at start and every few hours."""
    while True:
        try:
            closed, deleted = abandon_idle() + end_stale_public(), forget_guest_tables()
            if closed or deleted:
                logger.info('closed %d abandoned tables, deleted %d guest tables', closed, deleted)
        except SQLAlchemyError:
            logger.exception('could not tidy the tables')
        await asyncio.sleep(every)
