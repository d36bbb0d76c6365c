"""A table whose saves fail (the database is down) holds: it takes no move, every screen at it
says why, it tries again with growing waits, and play goes on by itself once a save works, with
nothing that was played lost. First with a store told to fail, then against a real PostgreSQL
stopped mid-hand and started again."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from nicegui.testing import User
from seams import until

from app.engine.chinchon import Discard, DrawStock
from app.engine.protocol import IllegalAction
from app.tables import registry
from app.tables.services import MemoryStore, Saved
from app.tables.table import SAVE_DELAY, SAVE_RETRY_FIRST
from models.db import init_db
from postgres_server import PostgresServer, running
from screen import hand_codes, html_of, one, open_position, phase, pick
from table_positions import chinchon_position, stored_table

HELD_ES = 'Ahora mismo no podemos guardar la partida'


@dataclass
class OutageStore(MemoryStore):
    """Saves to memory, or fails as a database that is down would, when told to."""

    down: bool = False
    failed_at: list[float] = field(default_factory=list)   # the clock's time of every failed save
    clock: object = None

    def save(self, table, entry) -> Saved:
        if self.down:
            self.failed_at.append(table.clock.now())
            return Saved.FAILED
        return super().save(table, entry)


@pytest.fixture
def outage(clock) -> Iterator[OutageStore]:
    store = OutageStore()
    old = registry.configure(store=store)
    yield store
    registry.configure(**vars(old))


async def test_a_failing_save_holds_the_table_and_says_so_until_saving_works(user: User, outage, clock) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e', discard='6b')
    await open_position(user, table)
    outage.down = True
    user.find(marker='stock').click()
    await until(lambda: phase(user) == 'discard')
    await clock.advance(SAVE_DELAY)                 # the draw's save fails: the table holds
    assert table.holding and outage.failed_at == [SAVE_DELAY]
    assert HELD_ES in html_of(user, 'saving-held')

    pick(user, '12c')
    user.find(marker='discard-button').click()      # refused, in words, and nothing changes
    await user.should_see('la mesa espera a poder guardar la partida')
    assert '12c' in hand_codes(user) and len(hand_codes(user)) == 8

    await clock.advance(SAVE_RETRY_FIRST * 3)       # tried again after 0.5 s, then after 1 s more
    assert outage.failed_at == [SAVE_DELAY, SAVE_DELAY + 0.5, SAVE_DELAY + 1.5]
    outage.down = False
    await clock.advance(SAVE_RETRY_FIRST * 4)       # the next try (2 s on) works
    assert not table.holding and html_of(user, 'saving-held') == ''
    assert outage.saved[table.id]['state']['hands'][0][-1] == '4e'   # the draw made while held is kept

    assert 'hod-selected' in html_of(user, 'hand')  # still chosen: the refused click changed nothing
    user.find(marker='discard-button').click()      # play goes on: your discard, then the computer's turn
    await until(lambda: phase(user) == 'draw')
    assert '12c' not in hand_codes(user)


def shown_saved(user: User) -> str:
    """The version the table screen says is saved (its data-saved)."""
    return one(user, 'table').props['data-saved']


async def test_the_screen_shows_the_version_saved_and_not_one_that_failed(user: User, outage, clock) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e', discard='6b')
    await open_position(user, table)
    assert shown_saved(user) == '0'                 # stored as it was made
    user.find(marker='stock').click()
    await until(lambda: phase(user) == 'discard')
    assert one(user, 'table').props['data-version'] == '1' and shown_saved(user) == '0'   # shown, not saved yet
    await clock.advance(SAVE_DELAY)
    assert shown_saved(user) == '1'

    outage.down = True
    pick(user, '12c')
    user.find(marker='discard-button').click()      # the discard, and a computer's move or two, are not saved
    await clock.advance(SAVE_DELAY)
    await clock.advance(SAVE_RETRY_FIRST * 3)
    assert table.holding and table.version > 1 and shown_saved(user) == '1'

    outage.down = False
    await clock.advance(SAVE_RETRY_FIRST * 4)       # the next try works, and the computers play on
    await until(lambda: phase(user) == 'draw' and shown_saved(user) == str(table.version))
    assert outage.saved[table.id]['version'] == table.version


async def test_the_computers_wait_while_the_table_holds(outage, clock) -> None:
    table = registry.add_table(chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e'))
    table.subscribe(0, lambda snapshot: None)
    table.act(0, DrawStock(), table.version)
    outage.down = True
    table.act(0, Discard(card=table.view(0).hand[-1]), table.version)   # now the computer is to play
    await clock.advance(SAVE_DELAY)
    version = table.version
    await clock.advance(120)
    await table.settle()
    assert table.holding and table.version == version      # no computer moved while held
    waits = [round(later - earlier, 6) for earlier, later in zip(outage.failed_at, outage.failed_at[1:])]
    assert waits == [0.5, 1, 2, 4, 8, 16, 30, 30]          # doubling, and never more than 30 s
    outage.down = False
    await clock.advance(30)
    await until(lambda: table.state.current_seat == 0)    # the computer played once saving worked
    assert table.version > version


@pytest.fixture(scope='module')
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL of this module's own: the test stops and starts it."""
    yield from running()


async def test_a_stopped_postgresql_pauses_the_table_and_loses_nothing(user: User, own_postgres, clock,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    init_db(own_postgres.create_database())
    try:
        table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e', discard='6b')
        await open_position(user, table)
        user.find(marker='stock').click()
        await until(lambda: phase(user) == 'discard')
        await clock.advance(SAVE_DELAY)
        assert stored_table(table.id)['version'] == table.version   # saved while the database is up

        own_postgres.halt()                          # mid-hand
        pick(user, '12c')
        user.find(marker='discard-button').click()
        await clock.advance(SAVE_DELAY)
        assert table.holding and HELD_ES in html_of(user, 'saving-held')
        held = table.version
        with pytest.raises(IllegalAction, match='database'):
            table.act(0, DrawStock(), table.version)
        await clock.advance(SAVE_RETRY_FIRST * 3)    # two more tries fail
        assert table.holding and table.version == held

        own_postgres.resume()
        failures = [record.getMessage() for record in caplog.get_records('call') if record.levelname == 'ERROR']
        assert len(failures) == 3 and all(f'could not save table {table.id}' in line and '\n' not in line
                                          for line in failures)
        caplog.clear()   # logged as expected (one line each): not a failure of the test
        await clock.advance(SAVE_RETRY_FIRST * 4)
        assert not table.holding and html_of(user, 'saving-held') == ''
        saved = stored_table(table.id)
        assert saved['version'] >= held and saved['state']['discard'][-1] == '12c'   # the discard made before the outage
        await until(lambda: phase(user) == 'draw')   # the computer played on, and it is your turn again
        await until(lambda: stored_table(table.id)['version'] == table.version)   # and it is saved
    finally:
        init_db()
