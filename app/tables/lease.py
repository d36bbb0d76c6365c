"""Leases: which of several server processes holds each table (Colyseus' "each room belongs to a
single process", with PostgreSQL as the one store they share; ``python -m app.cluster``).

A process holds a table while its lease in the database (owner, epoch, expiry) names it. It claims
a table nobody holds, or whose holder stopped renewing, with a compare-and-set that raises the
epoch; it renews all its leases in one statement every ``RENEW_EVERY`` seconds. Every save is
fenced by the epoch beside the version (``save_table_if_version(lease=...)``), so a process whose
lease was taken over can never write again: its next save or renewal finds out, and the table
stops there at once and sends its screens to the table's address (``Table.lose``).

Times are the database's, so machines whose clocks disagree still agree on who holds a table.
"""
from __future__ import annotations

import asyncio
import logging
import secrets

from sqlalchemy.exc import SQLAlchemyError

from app.tables import registry
from app.tables.services import Entry, Saved, Write
from app.tables.table import Table
from models.db import session_scope
from models.tables import claim_lease, lease_of, release_leases, renew_leases

logger = logging.getLogger(__name__)
LEASE_SECONDS = 5.0   # how long a lease lasts unrenewed: a killed process's tables wait this long at most
RENEW_EVERY = 1.5     # a renewal may be late twice over and the lease still holds


class LeasedStore(registry.DatabaseStore):
    """The database store of one process among several: it saves and plays only the tables whose
    lease it holds. ``address`` is where nginx reaches this process (its path prefix, ``/w/1``)."""

    def __init__(self, address: str, *, seconds: float = LEASE_SECONDS, owner: str | None = None) -> None:
        self.address, self.seconds = address, seconds
        # one token per start: a restarted process is a new owner, and takes its old leases over
        self.owner = owner or f'{address}#{secrets.token_hex(8)}'
        self.held: dict[str, int] = {}   # table id -> the epoch this process holds its lease at

    def holds(self, table_id: str) -> bool:
        return table_id in self.held

    def save(self, table: Table, entry: Entry) -> Saved:
        work, finish = self.write(table, entry)
        return finish(work())

    def write(self, table: Table, entry: Entry) -> Write:
        """Fenced by the epoch, every time: a retried save too (the table holds while the database
        is away) is refused once another process has claimed the table meanwhile."""
        epoch = self.held.get(table.id)
        if epoch is None:   # a copy read while another process held the table
            return Write(lambda: None, lambda _: Saved.LOST)
        work, finish = registry._write(table, entry, lease=(self.owner, epoch))

        def fenced(written: bool | None) -> Saved:
            saved = finish(written)
            if saved is Saved.LOST:
                self.held.pop(table.id, None)
            return saved
        return Write(work, fenced)

    def claim(self, table_id: str) -> str | None:
        if table_id in self.held:
            return None
        with session_scope() as session:
            lease = claim_lease(session=session, table_id=table_id, owner=self.owner, address=self.address,
                                seconds=self.seconds)
        if lease is None:   # no such table: nothing to hold, this process says so itself
            return None
        if lease.owner == self.owner:
            self.held[table_id] = lease.epoch
            return None
        return lease.address

    def seconds_left(self, table_id: str) -> float:
        """How long the table's current lease has left to run (0 when it has run out)."""
        with session_scope() as session:
            lease = lease_of(session=session, table_id=table_id)
        return 0.0 if lease is None else max(0.0, lease.seconds_left)

    def let_go(self, table_id: str) -> None:
        if self.held.pop(table_id, None) is None:
            return
        try:
            with session_scope() as session:
                release_leases(session=session, owner=self.owner, table_id=table_id)
        except SQLAlchemyError:   # it runs out by itself in a few seconds
            logger.exception('could not release the lease of table %s', table_id)

    def renew(self) -> list[str]:
        """Extend every lease held; returns the tables whose lease another process has taken."""
        with session_scope() as session:
            still = renew_leases(session=session, owner=self.owner, seconds=self.seconds)
        lost = [table_id for table_id, epoch in self.held.items() if still.get(table_id) != epoch]
        for table_id in lost:
            del self.held[table_id]
        return lost

    def release_all(self) -> None:
        """The process is stopping (its tables are saved): the others may claim them at once."""
        self.held.clear()
        with session_scope() as session:
            release_leases(session=session, owner=self.owner)


async def keep_leases(store: LeasedStore) -> None:
    """Runs for the server's life: renews the leases, and stops every table whose lease was taken."""
    while True:
        try:
            for table_id in store.renew():
                logger.error('the lease of table %s was taken by another process; this copy stops', table_id)
                registry.lose(table_id)
        except SQLAlchemyError:   # the database is away: the leases hold for a while, try again
            logger.exception('could not renew the table leases')
        await asyncio.sleep(RENEW_EVERY)


async def locate(store: LeasedStore, table_id: str, arrived_at: str) -> str:
    """The address that serves this table: this process's when it holds it (claimed now if nobody
    live does), else its holder's. A request that reached this process under its holder's address
    came here because nginx could not reach the holder: its lease is then waited out (a few
    seconds at most) and taken over, instead of sending the browser back to a process that does
    not answer."""
    for _ in range(3):
        holder = store.claim(table_id)
        if holder is None:
            return store.address
        if holder != arrived_at:
            return holder
        await asyncio.sleep(store.seconds_left(table_id) + 0.05)
    return holder   # still renewed: the holder answers after all, let the browser try it again
