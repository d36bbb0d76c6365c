"""When a table saves itself: a step goes to the screens first and is saved a moment later, steps in
between are saved together, nothing a player did is lost when the screens go away, and a table
whose saved version moved on under it (another process wrote it) is let go instead of overwriting."""
from __future__ import annotations

import json

import pytest

from app.engine.chinchon import DrawStock
from app.games import GAMES_BY_ID
from app.tables import registry
from app.tables.room import SPECTATOR
from app.tables.seats import Seat, TableOptions, computer_seats
from app.tables.services import MemoryStore, RealClock
from app.tables.table import SAVE_DELAY, Table
from app.tables.worker import computer_choice
from models.db import session_scope
from models.tables import save_table_if_version

from table_positions import chinchon_position, stored_table


async def test_a_move_is_saved_just_after_it_is_shown(memory_store, clock) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    shown: list[int] = []
    table.subscribe(0, lambda snapshot: shown.append(len(memory_store.writes)))
    table.act(0, DrawStock(), table.version)   # the person keeps the turn (a discard is next)
    assert shown == [0]                         # the screen heard of the move before any save
    await clock.advance(SAVE_DELAY)
    assert len(memory_store.writes) == 1 and memory_store.writes[0]['state']['hands'][0][-1] == '4e'


async def test_moves_in_quick_succession_are_saved_once_with_the_latest_state(memory_store, clock) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    table.save_soon()
    table.act(0, DrawStock(), table.version)
    table.save_soon()
    await clock.advance(SAVE_DELAY / 2)
    assert memory_store.writes == []                   # held back a moment...
    await clock.advance(SAVE_DELAY / 2)
    assert len(memory_store.writes) == 1 and len(memory_store.writes[0]['state']['hands'][0]) == 8   # ...then once


async def test_when_the_last_screen_leaves_what_is_held_back_is_saved_at_once(memory_store, clock) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    leave = registry.watch(table, 0, lambda snapshot: None)
    table.act(0, DrawStock(), table.version)
    leave()                        # the browser went away: the move is saved there and then
    assert len(memory_store.writes) == 1
    table.flush()                  # nothing left to save
    await clock.advance(10 * SAVE_DELAY)
    assert len(memory_store.writes) == 1


def test_without_an_event_loop_a_save_happens_at_once() -> None:
    memory = MemoryStore()
    old = registry.configure(store=memory, clock=RealClock())   # nothing can run later without a loop
    try:
        table = chinchon_position()
        table.save_soon()
    finally:
        registry.configure(**vars(old))
    assert len(memory.writes) == 1


async def test_saved_steps_reach_the_database_with_their_version(clock) -> None:
    table = registry.add_table(chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e'))
    table.act(0, DrawStock(), table.version)
    await clock.advance(SAVE_DELAY)
    saved = stored_table(table.id)
    assert saved['version'] == table.version == 1 and saved['state']['hands'][0][-1] == '4e'
    assert registry.open_table(table.id) is table           # one live object per id


async def test_a_table_written_by_another_process_is_let_go_not_overwritten(clock) -> None:
    table = registry.add_table(chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e'))
    with session_scope() as session:   # another process moved this table on to version 5
        assert save_table_if_version(session=session, table_id=table.id, expected_version=0, version=5,
                                     state_json=json.dumps(table.to_dict()), status='playing',
                                     seats_json=json.dumps([seat.to_dict() for seat in table.seats]))
    table.act(0, DrawStock(), table.version)
    await clock.advance(SAVE_DELAY)
    assert stored_table(table.id)['version'] == 5      # the other process's write stands
    assert table.lost                                  # this copy never writes again
    reloaded = registry.open_table(table.id)
    assert reloaded is not table and reloaded.version == 5


async def play_on(table, until_version: int) -> None:
    """The computers play, and Ana (seat 0) as an easy computer would, the count passed at once,
    to the game's end or past ``until_version``."""
    while not table.is_over() and table.version < until_version:
        version = table.version
        await table.settle()
        if table.pause is not None:
            table.go_on_from_count()
        elif table.state.current_seat == 0 and table.version == version:
            table.act(0, computer_choice(table.game.id, 'easy', f'ana:{version}', table.view(0)), version)
        assert table.version > version, 'nobody played'


@pytest.mark.parametrize('game_id, seats, most_steps', [('chinchon', 4, 10_000), ('ronda-robada', 2, 10_000),
                                                        ('continental', 3, 500)])
async def test_every_save_loads_back_as_the_whole_table(memory_store, game_id, seats, most_steps) -> None:
    """Most saves append the step to the move log; whatever a save wrote, a table loaded from what
    the store holds then (the last whole write and the steps appended since) is the table that
    saved, as a whole write of today's would have kept it: through hands, the game's end and the
    next game at the table."""
    options = TableOptions(seats=seats, level='easy', speed='instant', hints=False)
    table = registry.new_table(GAMES_BY_ID[game_id], options, computer_seats(options, [Seat('person', name='Ana')]))
    checked: list[int] = []

    def load_back(version: int) -> None:
        whole = {key: value for key, value in memory_store.saved[table.id].items() if key not in ('version', 'status')}
        loaded = Table.from_saved(table.id, game_id, options.to_dict(), [seat.to_dict() for seat in table.seats],
                                  whole, version, services=registry.services(),
                                  appended=memory_store.appended[table.id])
        assert loaded.to_dict() == json.loads(json.dumps(table.to_dict())), f'after version {version}'
        checked.append(version)
    table.on_saved(load_back)
    table.subscribe(SPECTATOR, lambda view, events: None)   # the computers play while somebody watches
    await play_on(table, most_steps)
    if table.is_over():
        table.next_game(0, table.version)
        table.flush()      # the game's last steps and the new deal saved together, at once (the server stopping)
        await play_on(table, table.version + 40)
    table.flush()
    appended = [write for write in memory_store.writes if 'state' not in write]
    assert len(appended) > len(memory_store.writes) / 2   # most saves appended...
    assert len(memory_store.writes) - len(appended) >= 2   # ...between whole ones (a deal, the end)
    assert checked[-1] == table.version and len(checked) == len(memory_store.writes)
