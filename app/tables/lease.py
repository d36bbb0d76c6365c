"""Leases: which of several server processes holds each table (Colyseus' "each room belongs to a
single process", with PostgreSQL as the one store they share; ``python -m app.cluster``).

A process holds a table while its lease in the database (owner, epoch, expiry) names it. It claims
a table nobody holds, or whose holder stopped renewing, with a compare-and-set that raises the
epoch; it renews all its leases in one statement every ``RENEW_EVERY`` seconds, on a thread of
its own (never on the event loop that serves the screens). Every save is
fenced by the epoch beside the version (``save_table_if_version(lease=...)``), so a process whose
lease was taken over can never write again: its next save or renewal finds out, and the table
stops there at once and sends its screens to the table's address (``Table.lose``).

Times are the database's, so machines whose clocks disagree still agree on who holds a table.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from app.tables import registry
from app.tables.services import Entry, Saved, Write
from app.tables.table import Table
from models.db import session_scope
from models.tables import Lease, claim_lease, release_leases, renew_leases

logger = logging.getLogger(__name__)
LEASE_SECONDS = 5.0   # how long a lease lasts unrenewed (a process nginx cannot reach loses its tables at once)
RENEW_EVERY = 1.5     # a renewal may be late twice over and the lease still holds
T = TypeVar('T')


class LeasedStore(registry.DatabaseStore):
    """The database store of one process among several: it saves and plays only the tables whose
    lease it holds. ``address`` is where nginx reaches this process (its path prefix, ``/w/1``).

    Its lease statements run on ``database``, one thread of its own by default: a round trip to
    PostgreSQL on the event loop would stall every screen of the process meanwhile (issue 42), and
    one thread keeps them in the order they were asked (a table let go, then claimed again, is
    released before it is claimed). What ``held`` says changes only on the event loop, from what
    the thread answered."""

    def __init__(self, address: str, *, seconds: float = LEASE_SECONDS, owner: str | None = None,
                 database: Executor | None = None) -> None:
        self.address, self.seconds = address, seconds
        # one token per start: a restarted process is a new owner, and takes its old leases over
        self.owner = owner or f'{address}#{secrets.token_hex(8)}'
        self.held: dict[str, int] = {}   # table id -> the epoch this process holds its lease at
        self.database = database or ThreadPoolExecutor(1, thread_name_prefix='table-lease')
        self._stopping = False   # every lease released: a renewal queued behind must not bring them back

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
        """At once, for a table just made (its insert is a round trip on the caller's thread too)."""
        if table_id in self.held:
            return None
        return self._claimed(table_id, self._claim_lease(table_id))

    async def claim_off_loop(self, table_id: str, unreachable: str | None = None) -> str | None:
        """``claim``, with its round trip on the store's thread (a request's middleware awaits it);
        a holder at the address ``unreachable`` loses the table at once (``claim_lease``)."""
        if table_id in self.held:
            return None
        return self._claimed(table_id, await self._off_loop(self._claim_lease, table_id, unreachable))

    def _claim_lease(self, table_id: str, unreachable: str | None = None) -> Lease | None:
        with session_scope() as session:
            return claim_lease(session=session, table_id=table_id, owner=self.owner, address=self.address,
                               seconds=self.seconds, unreachable=unreachable)

    def _claimed(self, table_id: str, lease: Lease | None) -> str | None:
        if lease is None:   # no such table: nothing to hold, this process says so itself
            return None
        if lease.owner == self.owner:
            self.held[table_id] = lease.epoch
            return None
        return lease.address

    def let_go(self, table_id: str) -> None:
        """Called from the tables' timers, which cannot wait: the release goes to the store's thread
        and nobody waits for it (queued before any later claim, and the lease runs out by itself
        if it fails). Without an event loop (a script, a test) it happens at once."""
        if self.held.pop(table_id, None) is None or self._stopping:   # stopping: every lease is released
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self._release(table_id)
            return
        self.database.submit(self._release, table_id)

    def _release(self, table_id: str) -> None:
        try:
            with session_scope() as session:
                release_leases(session=session, owner=self.owner, table_id=table_id)
        except SQLAlchemyError:   # it runs out by itself in a few seconds
            logger.exception('could not release the lease of table %s', table_id)

    def renew(self) -> list[str]:
        """Extend every lease held; returns the tables whose lease another process has taken."""
        return self._renewed(dict(self.held), self._renew_leases())

    async def renew_off_loop(self) -> list[str]:
        """``renew``, with its round trip on the store's thread."""
        asked = dict(self.held)
        return self._renewed(asked, await self._off_loop(self._renew_leases))

    def _renew_leases(self) -> dict[str, int] | None:
        if self._stopping:
            return None
        with session_scope() as session:
            return renew_leases(session=session, owner=self.owner, seconds=self.seconds)

    def _renewed(self, asked: dict[str, int], still: dict[str, int] | None) -> list[str]:
        """Only a lease held when the renewal was asked, and still held at that epoch, can be lost:
        one claimed (or let go and claimed again) while the answer was on its way is not in it."""
        if still is None:
            return []
        lost = [table_id for table_id, epoch in asked.items()
                if still.get(table_id) != epoch and self.held.get(table_id) == epoch]
        for table_id in lost:
            del self.held[table_id]
        return lost

    def release_all(self) -> None:
        """The process is stopping (its tables are saved): the others may claim them at once."""
        self._stop_renewing()
        self._release_all()

    async def release_all_off_loop(self) -> None:
        """``release_all`` at the server's shutdown, after the releases and renewals queued before it."""
        self._stop_renewing()
        await self._off_loop(self._release_all)

    def close(self) -> None:
        """No more lease statements from this store (its leases released, or a test done with it):
        its thread ends once the one under way is answered, and a table still in memory that lets
        go of its lease later asks nothing of it."""
        self._stop_renewing()
        self.database.shutdown()

    def _stop_renewing(self) -> None:
        self.held.clear()
        self._stopping = True

    def _release_all(self) -> None:
        with session_scope() as session:
            release_leases(session=session, owner=self.owner)

    def _off_loop(self, work: Callable[..., T], *args: Any) -> Awaitable[T]:
        return asyncio.get_running_loop().run_in_executor(self.database, work, *args)


async def keep_leases(store: LeasedStore) -> None:
    """Runs for the server's life: renews the leases, and stops every table whose lease was taken."""
    while True:
        try:
            for table_id in await store.renew_off_loop():
                logger.error('the lease of table %s was taken by another process; this copy stops', table_id)
                registry.lose(table_id)
        except SQLAlchemyError:   # the database is away: the leases hold for a while, try again
            logger.exception('could not renew the table leases')
        await asyncio.sleep(RENEW_EVERY)


async def locate(store: LeasedStore, table_id: str, arrived_at: str) -> str:
    """The address that serves this table: this process's when it holds it (claimed now if nobody
    live does), else its holder's. A request that reached this process under another process's
    address came through nginx's fallback, because nginx could not reach that process: its tables
    are taken over at once, not after their leases run out, instead of sending the browser back to
    a process that does not answer. Should that process be alive after all, the raised epoch fences
    it out: its next save or renewal stops its copy and sends its screens here."""
    unreachable = arrived_at if arrived_at and arrived_at != store.address else None
    holder = await store.claim_off_loop(table_id, unreachable)
    return store.address if holder is None else holder
