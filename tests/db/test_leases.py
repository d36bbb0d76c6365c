"""Table leases on a real PostgreSQL, as several server processes use them (app.tables.lease): one
claimer wins a race, a claim waits for a live holder, every takeover raises the epoch, and a
process whose lease was taken over can never write the table again: its copy stops there and
sends its screens to the table's address."""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from app.games import GAMES_BY_ID
from app.tables import registry
from app.tables.lease import LeasedStore, locate
from app.tables.seats import Seat, TableOptions
from app.tables.services import Entry, Saved, ThreadWriter, Write
from app.tables.table import SAVE_DELAY, SAVE_RETRY_FIRST, Table
from models.db import session_scope
from models.tables import lease_of, load_table, save_table_if_version, table_steps

pytestmark = pytest.mark.parametrize('database', ['postgresql'], indirect=True)
OPTIONS = TableOptions(seats=2, level='easy', speed='instant', hints=False, rules={'limit': 100, 'buyback': False})


@pytest.fixture
def here(database: str) -> Iterator[LeasedStore]:
    """This process's store, one of several: the tables a test makes are leased by it."""
    store = LeasedStore('/w/1')
    old = registry.configure(store=store)
    yield store
    registry.configure(**vars(old))
    store.close()   # its lease thread, if a test started it, ends before the database goes


def stored_steps(table_id: str) -> list[str]:
    with session_scope() as session:
        return table_steps(session=session, table_id=table_id)


def stored_version(table_id: str) -> int:
    with session_scope() as session:
        return load_table(session=session, table_id=table_id).version


def new_table() -> Table:
    return registry.create_table(GAMES_BY_ID['chinchon'], OPTIONS, [Seat('person', guest='g' * 16)])


def step(table: Table) -> None:
    """A step of the game's, saved at once."""
    table.changed()
    table.flush()


def test_a_table_made_here_is_held_here_and_saved_under_its_lease(here: LeasedStore) -> None:
    table = new_table()
    assert here.holds(table.id) and here.claim(table.id) is None
    step(table)
    assert stored_version(table.id) == table.version == 1 and not table.lost
    assert LeasedStore('/w/2').claim(table.id) == '/w/1'   # another process is sent here


def test_of_two_processes_claiming_a_free_table_at_once_exactly_one_holds_it(here: LeasedStore) -> None:
    table = new_table()
    here.let_go(table.id)
    stores, answers = [LeasedStore('/w/2'), LeasedStore('/w/3')], {}
    start = threading.Barrier(2)

    def claim(store: LeasedStore) -> None:
        start.wait()
        answers[store.address] = store.claim(table.id)

    threads = [threading.Thread(target=claim, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [store for store in stores if answers[store.address] is None]
    assert len(winners) == 1 and [store.holds(table.id) for store in stores].count(True) == 1
    loser = next(store for store in stores if store is not winners[0])
    assert answers[loser.address] == winners[0].address
    with session_scope() as session:
        assert lease_of(session=session, table_id=table.id).epoch == 2   # made at 1, claimed once more


def test_a_takeover_fences_the_old_holder_out_and_its_screens_follow_the_table(database: str) -> None:
    loser = LeasedStore('/w/1', seconds=0)   # its lease runs out at once: as if it stopped renewing
    old = registry.configure(store=loser)
    try:
        table = new_table()
        moved: list[str] = []
        leave = registry.watch(table, 0, lambda snapshot: None, moved=lambda: moved.append(table.id))
        step(table)
        assert stored_version(table.id) == 1
        winner = LeasedStore('/w/2')
        assert winner.claim(table.id) is None and winner.holds(table.id)

        step(table)   # the old holder plays on: its save is refused by the epoch, not written
        assert table.lost and moved == [table.id] and not loser.holds(table.id)
        assert stored_version(table.id) == 1
        assert registry.open_table(table.id) is not table   # the copy here is gone for good
        leave()
    finally:
        registry.configure(**vars(old))


async def test_a_request_through_the_fallback_takes_the_unreachable_holders_table_at_once(database: str) -> None:
    """A request for a table that reaches this process under its holder's address came through
    nginx's fallback, because nginx could not reach the holder: the table is taken over at once,
    its lease not waited out, and the holder, should it be alive after all, is fenced out. Under
    any other address a live lease holds, and the browser is sent to its holder."""
    holder = LeasedStore('/w/2')   # its lease runs 5 s unrenewed: the test never waits for it
    old = registry.configure(store=holder)
    here = LeasedStore('/w/1')
    try:
        table = new_table()
        moved: list[str] = []
        leave = registry.watch(table, 0, lambda snapshot: None, moved=lambda: moved.append(table.id))
        step(table)
        assert await locate(here, table.id, '') == '/w/2'        # by the common door: sent to the holder
        assert await locate(here, table.id, '/w/1') == '/w/2'    # under this process's own address: the same
        assert await locate(here, table.id, '/w/3') == '/w/2'    # a third process was unreachable, not the holder
        assert not here.holds(table.id)
        assert await locate(here, table.id, '/w/2') == '/w/1' and here.holds(table.id)
        with session_scope() as session:
            assert lease_of(session=session, table_id=table.id).epoch == 2
        taken_at = stored_version(table.id)   # the computer may have played on meanwhile, saved under the old lease
        step(table)   # the old holder plays on: fenced out, its screens sent to the table's address
        assert table.lost and moved == [table.id] and stored_version(table.id) == taken_at
        leave()
    finally:
        registry.configure(**vars(old))
        here.close()


def test_an_append_after_a_takeover_is_fenced_too(database: str) -> None:
    """Between whole writes a step is appended to the table's move log: the old holder's append
    is refused by the epoch as a whole write is, and leaves no step behind."""
    loser = LeasedStore('/w/1', seconds=0)
    old = registry.configure(store=loser)
    try:
        table = new_table()
        leave = registry.watch(table, 0, lambda view, events: None)
        step(table)   # the first write is whole, the next ones are appended
        step(table)
        assert (stored_version(table.id), len(stored_steps(table.id))) == (2, 1)
        assert LeasedStore('/w/2').claim(table.id) is None

        step(table)
        assert table.lost
        assert (stored_version(table.id), len(stored_steps(table.id))) == (2, 1)
        leave()
    finally:
        registry.configure(**vars(old))


def test_a_stale_epoch_cannot_write_even_at_the_right_version(here: LeasedStore) -> None:
    table = new_table()
    epoch = here.held[table.id]
    here.let_go(table.id)
    assert LeasedStore('/w/2').claim(table.id) is None
    with session_scope() as session:
        written = save_table_if_version(session=session, table_id=table.id, expected_version=0, version=5,
                                        state_json='{}', seats_json='[]', status='playing', lease=(here.owner, epoch))
    assert not written and stored_version(table.id) == 0


def test_a_renewal_finds_a_lease_taken_over_and_stops_that_table(database: str) -> None:
    loser = LeasedStore('/w/1', seconds=0)
    old = registry.configure(store=loser)
    try:
        kept, taken = new_table(), new_table()
        for table in (kept, taken):
            registry.open_table(table.id)
        moved: list[str] = []
        leave = registry.watch(taken, 0, lambda snapshot: None, moved=lambda: moved.append(taken.id))
        assert LeasedStore('/w/2').claim(taken.id) is None
        lost = loser.renew()
        assert lost == [taken.id]
        for table_id in lost:   # what the renewal task does with them
            registry.lose(table_id)
        assert taken.lost and moved == [taken.id] and not kept.lost and loser.holds(kept.id)
        leave()
    finally:
        registry.configure(**vars(old))


def test_a_restarted_process_takes_its_own_leases_back_at_once(here: LeasedStore) -> None:
    table = new_table()
    again = LeasedStore('/w/1')   # the same prefix, a new start: the old lease has not run out
    assert again.claim(table.id) is None and again.held[table.id] == here.held[table.id] + 1
    assert LeasedStore('/w/2').claim(table.id) == '/w/1'


def test_a_table_let_go_or_a_process_stopping_frees_its_leases_at_once(here: LeasedStore) -> None:
    first, second = new_table(), new_table()
    here.let_go(first.id)
    assert LeasedStore('/w/2').claim(first.id) is None
    here.release_all()
    assert LeasedStore('/w/3').claim(second.id) is None
    assert LeasedStore('/w/4').claim('no-such-table-id') is None   # nothing stored: nothing to hold


class FlakyLeasedStore(LeasedStore):
    """A leased store whose saves fail, as with the database away, while ``down``."""

    down = False

    def write(self, table: Table, entry: Entry) -> Write:
        return Write(lambda: None, lambda _: Saved.FAILED) if self.down else super().write(table, entry)


async def test_a_save_retried_after_an_outage_is_fenced_too(database: str, clock) -> None:
    loser = FlakyLeasedStore('/w/1', seconds=0)
    old = registry.configure(store=loser)
    try:
        table = new_table()
        moved: list[str] = []
        leave = registry.watch(table, 0, lambda snapshot: None, moved=lambda: moved.append(table.id))
        loser.down = True
        table.changed()
        await clock.advance(SAVE_DELAY)          # the save fails: the table holds and will try again
        assert table.holding and not table.lost
        assert LeasedStore('/w/2').claim(table.id) is None   # meanwhile another process takes it over
        loser.down = False
        await clock.advance(SAVE_RETRY_FIRST)    # the retry reaches the database: the epoch refuses it
        assert table.lost and moved == [table.id] and stored_version(table.id) == 0
        leave()
    finally:
        registry.configure(**vars(old))


async def test_saves_on_threads_keep_their_order_and_a_flush_waits_for_them(here: LeasedStore) -> None:
    """The server's writer (PostgreSQL's round trips off the event loop): the loop does not wait
    for a save, steps that come meanwhile are written right after it in one more write, and a
    flush returns only once the database holds the step."""
    old = registry.configure(writer=ThreadWriter())
    try:
        table = new_table()
        saved: list[int] = []
        written = asyncio.get_running_loop().create_future()
        table.on_saved(lambda version: (saved.append(version), version == 5 and written.set_result(version)))
        for _ in range(5):
            table.changed()
            table.save()
        assert table.saved_version == 0          # the loop went on: the write is on its thread
        await asyncio.wait_for(written, 30)
        assert saved == [1, 5] and stored_version(table.id) == 5
        table.changed()
        table.save()
        table.flush()
        assert table.saved_version == 6 and stored_version(table.id) == 6
    finally:
        registry.configure(**vars(old))


async def test_a_lease_claimed_while_a_renewal_is_on_its_way_is_not_lost(here: LeasedStore) -> None:
    """The renewal's statement runs on the lease thread; a claim can land between its answer and
    the moment the loop reads it. That answer does not name the new lease: it is kept all the same."""
    held, claimed = new_table(), new_table()
    here.let_go(claimed.id)
    here.database.submit(lambda: None).result()   # the release is made
    assert LeasedStore('/w/2', seconds=0).claim(claimed.id) is None   # another's lease, run out at once
    renewing = asyncio.create_task(here.renew_off_loop())
    await asyncio.sleep(0)                       # the renewal is asked of the lease thread...
    here.database.submit(lambda: None).result()  # ...and answered, the loop not yet told
    assert here.claim(claimed.id) is None         # taken over at a new epoch, not in that answer
    assert await renewing == [] and here.holds(held.id) and here.holds(claimed.id)


async def test_a_renewal_after_the_release_at_shutdown_brings_no_lease_back(here: LeasedStore) -> None:
    table = new_table()
    await here.release_all_off_loop()
    assert await here.renew_off_loop() == []     # the renewal task may run once more while the server stops
    assert LeasedStore('/w/2').claim(table.id) is None


async def test_a_table_left_in_memory_lets_go_of_a_closed_store_quietly(here: LeasedStore) -> None:
    """A store closed (a test done with it, a process stopping) while one of its tables stays in
    memory: the table's later let-go (the registry's tidying) asks nothing of its ended thread."""
    table = new_table()
    here.close()
    registry.abandon_idle()        # lets go of the unwatched tables in memory: this one among them
    here.let_go(table.id)          # and once more, directly: nothing held, nothing asked
    assert not here.holds(table.id)
