"""The computers think off the server's event loop, in NiceGUI's process pool (the same move as
the inline thinker the other tests use), and one table makes at most
MAX_COMPUTER_MOVES_PER_SECOND computer moves a second, even at instant speed."""
from __future__ import annotations

import random

import nicegui.run
import pytest
from nicegui.testing import User
from table_positions import chinchon_position, continental_position, ronda_position

from app.games import GAMES_BY_ID
from app.tables.pacing import MAX_COMPUTER_MOVES_PER_SECOND
from app.tables.registry import configure, new_table
from app.tables.seats import Seat, TableOptions
from app.tables.services import PoolThinker
from app.tables.worker import computer_choice, in_worker


def computers_only(game_id: str, level: str) -> list[Seat]:
    return [Seat('computer', name='Lucía', level=level), Seat('computer', name='Mateo', level=level)]


async def test_one_table_makes_at_most_the_capped_computer_moves_a_second(clock, memory_store) -> None:
    clock.autojump = False   # time passes only as the test says
    options = TableOptions(seats=2, level='easy', speed='instant')
    table = new_table(GAMES_BY_ID['ronda-robada'], options, computers_only('ronda-robada', 'easy'), seed=4)
    unsubscribe = table.subscribe(0, lambda snapshot: None)   # computers play while somebody watches
    try:
        await table.settle()
        await clock.advance(1.0)
        moves = table.version
        await clock.advance(1.0)
        assert table.version - moves == MAX_COMPUTER_MOVES_PER_SECOND   # a full second, flat out
    finally:
        unsubscribe()
    assert MAX_COMPUTER_MOVES_PER_SECOND - 1 <= moves <= MAX_COMPUTER_MOVES_PER_SECOND


@pytest.mark.parametrize('game', ['chinchon', 'continental', 'ronda-robada'])
async def test_a_worker_process_chooses_what_the_inline_thinker_would(user: User, game: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    thought: list = []
    cpu_bound = nicegui.run.cpu_bound

    async def spy(callback, *args):
        thought.append((callback, args[0]))
        return await cpu_bound(callback, *args)
    monkeypatch.setattr(nicegui.run, 'cpu_bound', spy)
    await user.open('/')   # the server is up: its process pool too
    if game == 'chinchon':
        table = chinchon_position(hands={1: '1o 2o 3o 7c 10e 11b 12b'}, current=1)
    elif game == 'continental':
        table = continental_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d 10s'], turn=1)
    else:
        table = ronda_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 1b', pile_sizes=[0, 7], last_runner=1,
                               current=1)
    view = table.view(1)
    for level in ('easy', 'normal', 'hard'):
        seed = f'{random.Random(level).random()}'
        chosen = await PoolThinker().think(game, level, seed, view)
        assert chosen == computer_choice(game, level, seed, view) and chosen in view.legal_actions
    assert thought == [(in_worker, computer_choice)] * 3


async def test_a_computer_makes_no_move_once_the_server_is_stopping(monkeypatch: pytest.MonkeyPatch, caplog,
                                                                    clock, memory_store) -> None:
    async def stopping(callback, *args):   # what run.cpu_bound answers while NiceGUI shuts down
        return None
    monkeypatch.setattr(nicegui.run, 'cpu_bound', stopping)
    configure(thinker=PoolThinker())
    clock.autojump = False
    options = TableOptions(seats=2, level='hard', speed='instant')
    table = new_table(GAMES_BY_ID['chinchon'], options, computers_only('chinchon', 'hard'), seed=4)
    unsubscribe = table.subscribe(0, lambda snapshot: None)
    try:
        await run_all(table, clock)
        assert table.version == 0 and table.state.current_seat is not None
        assert not table.computers.waiting_on_clock   # the computers stopped: nothing waits
    finally:
        unsubscribe()
    assert not [record for record in caplog.records if record.levelname == 'ERROR']


async def run_all(table, clock) -> None:
    from seams import run_computers
    await run_computers(table, clock)
