"""The event loop stays free while a process holds tables under leases (issue 42): one loop serves
every screen of a process, so a database round trip made on it stalls them all. Here the database
answers every lease statement in half a second (a far-away or busy PostgreSQL, on purpose) while
seeded games are played to their end, the leases are renewed and another table is claimed as a
request's middleware claims it: the loop is never held for long (tests/loop_watch.py). The same
games with the lease statements made on the loop, as they were before, are caught by that watch."""
from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Executor, Future

import pytest

from app.games import GAMES_BY_ID
from app.tables import lease, registry
from app.tables.lease import LeasedStore, keep_leases, locate
from app.tables.seats import Seat, TableOptions
from app.tables.services import ThreadWriter
from app.tables.table import Table
from app.tables.worker import computer_choice
from loop_watch import watching_the_loop
from seams import until

pytestmark = pytest.mark.parametrize('database', ['postgresql'], indirect=True)
OPTIONS = TableOptions(seats=2, level='easy', speed='instant', hints=False, rules={'limit': 50, 'buyback': False})
ROUND_TRIP = 0.5   # seconds a lease statement takes: twice the watch's bound
GAMES = 40        # more games than the lease work lasts: they are played until it is done
LEASE_STATEMENTS = ('claim_lease', 'renew_leases', 'release_leases')


class SlowLeases:
    """Once ``on``, every lease statement takes ROUND_TRIP seconds, on whichever thread makes it;
    ``made`` counts them."""

    def __init__(self) -> None:
        self.on = False
        self.made: Counter = Counter()

    def slowed(self, statement):
        def answer(**arguments):
            if self.on:
                time.sleep(ROUND_TRIP)
                self.made[statement.__name__] += 1
            return statement(**arguments)
        return answer


@pytest.fixture
def slow_leases(monkeypatch: pytest.MonkeyPatch) -> SlowLeases:
    slow = SlowLeases()
    for name in LEASE_STATEMENTS:
        monkeypatch.setattr(lease, name, slow.slowed(getattr(lease, name)))
    monkeypatch.setattr(lease, 'RENEW_EVERY', 0.05)   # renewals follow one another while the games go on
    return slow


class OnTheCallersThread(Executor):
    """What the lease statements did before they had a thread: run where they are asked."""

    def submit(self, work, /, *args, **kwargs) -> Future:
        done: Future = Future()
        done.set_result(work(*args, **kwargs))
        return done


def leased_store(**arguments) -> Iterator[LeasedStore]:
    store = LeasedStore('/w/1', **arguments)
    old = registry.configure(store=store, writer=ThreadWriter())   # saves off the loop, as in production
    try:
        yield store
    finally:
        registry.configure(**vars(old))
        store.close()   # a lease statement still under way ends before the database goes


@pytest.fixture
def here(database: str) -> Iterator[LeasedStore]:
    yield from leased_store()


@pytest.fixture
def here_on_the_loop(database: str) -> Iterator[LeasedStore]:
    yield from leased_store(database=OnTheCallersThread())


def new_table() -> Table:
    return registry.create_table(GAMES_BY_ID['chinchon'], OPTIONS, [Seat('person', guest='g' * 16)])


async def play_to_the_end(table: Table) -> None:
    """The computer plays, and Ana (seat 0) as an easy computer would, the count passed at once."""
    while not table.is_over():
        assert not table.lost, 'the table was lost: it plays no more'
        version = table.version
        await table.settle()
        if table.pause is not None:
            table.go_on_from_count()
        elif table.state.current_seat == 0 and table.version == version:
            table.act(0, computer_choice(table.game.id, 'easy', f'ana:{version}', table.view(0)), version)
        await asyncio.sleep(0)   # a turn of the loop between steps, as between two clicks


async def a_process_serving(store: LeasedStore, slow: SlowLeases) -> None:
    """Seeded games played to their end one after another, while the leases are renewed and a
    request for a table nobody holds claims it (``locate``, as the middleware does): until that
    lease work is done, at least one whole game."""
    tables, other = [new_table() for _ in range(GAMES)], new_table()   # made while the database is quick
    store.let_go(other.id)
    slow.on = True
    # each watched to the end of the test: none is let go (its timers run as the games move the clock)
    leaves = [registry.watch(table, 0, lambda snapshot: None) for table in tables]
    renewing = asyncio.create_task(keep_leases(store))
    try:
        async with watching_the_loop():
            claiming = asyncio.create_task(locate(store, other.id, store.address))
            played = 0
            for table in tables:
                await play_to_the_end(table)
                played += 1
                if claiming.done() and slow.made['renew_leases'] >= 2:
                    break
            await until(lambda: claiming.done() and slow.made['renew_leases'] >= 2, clock_moves=False)
    finally:
        renewing.cancel()
        for leave in leaves:
            leave()
    assert await claiming == store.address   # the request is served here: nobody held the table
    assert played >= 1
    assert [(table.is_over(), store.holds(table.id), table.lost)   # over, still held, never lost
            for table in tables[:played]] == [(True, True, False)] * played


async def test_games_with_slow_lease_statements_never_block_the_event_loop(
        here: LeasedStore, slow_leases: SlowLeases) -> None:
    await a_process_serving(here, slow_leases)
    assert slow_leases.made['claim_lease'] >= 1 and slow_leases.made['renew_leases'] >= 2   # the work was watched


async def test_the_watch_catches_lease_statements_made_on_the_event_loop(
        here_on_the_loop: LeasedStore, slow_leases: SlowLeases) -> None:
    with pytest.raises(AssertionError, match='event loop was blocked') as caught:
        await a_process_serving(here_on_the_loop, slow_leases)
    assert 'time.sleep(ROUND_TRIP)' in str(caught.value)   # the message shows where the loop was held
