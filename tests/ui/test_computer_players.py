"""The computers think off the server's event loop, in NiceGUI's process pool, and one table makes
at most MAX_COMPUTER_MOVES_PER_SECOND computer moves a second, even at instant speed."""
from __future__ import annotations

import asyncio
import random

import pytest
from nicegui import run
from nicegui.testing import User
from table_positions import chinchon_position, continental_position, ronda_position
from test_chinchon_table import open_position, phase, until

from app.games import GAMES_BY_ID
from app.tables import table as table_module
from app.tables.table import (
    MAX_COMPUTER_MOVES_PER_SECOND,
    Seat,
    Table,
    TableOptions,
    computer_choice,
    think_in_worker,
)


async def test_one_table_makes_at_most_the_capped_computer_moves_a_second() -> None:
    options = TableOptions(seats=2, level='easy', speed='instant')
    table = Table('c' * 16, GAMES_BY_ID['ronda-robada'], options,
                  [Seat('computer', name='Lucía', level='easy'), Seat('computer', name='Mateo', level='easy')], seed=4)
    unsubscribe = table.subscribe(0, lambda view, events: None)   # computers play while somebody watches
    try:
        await asyncio.sleep(1.0)
        moves = table.version
    finally:
        unsubscribe()
    assert 1 <= moves <= MAX_COMPUTER_MOVES_PER_SECOND + 1


async def test_the_computers_think_in_the_process_pool(user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    thought: list[tuple] = []
    cpu_bound = run.cpu_bound

    async def spy(callback, *args):
        thought.append((callback, *args[:2]))
        return await cpu_bound(callback, *args)
    monkeypatch.setattr(table_module.run, 'cpu_bound', spy)
    table = chinchon_position(seats=3, hands={0: '1o 2o 3o 7c 10e 11b 12b'}, current=1, dealer=0)
    await open_position(user, table)
    await until(lambda: phase(user) == 'draw')   # both computers have played, in worker processes
    assert thought[:4] == [(think_in_worker, 'chinchon', 'easy')] * 4
    assert table.version >= 4


@pytest.mark.parametrize('game', ['chinchon', 'continental', 'ronda-robada'])
async def test_a_worker_process_chooses_what_the_table_would(user: User, game: str) -> None:
    if game == 'chinchon':
        table = chinchon_position(hands={1: '1o 2o 3o 7c 10e 11b 12b'}, current=1)
    elif game == 'continental':
        table = continental_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d'], turn=1)
    else:
        table = ronda_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 1b', current=1)
    view = table.view(1)
    for level in ('easy', 'normal', 'hard'):
        seed = f'{random.Random(level).random()}'
        chosen = await run.cpu_bound(think_in_worker, game, level, seed, view)
        assert chosen == computer_choice(game, level, seed, view) and chosen in view.legal_actions


async def test_a_computer_makes_no_move_once_the_server_is_stopping(monkeypatch: pytest.MonkeyPatch, caplog) -> None:
    async def stopping(callback, *args):   # what run.cpu_bound answers while NiceGUI shuts down
        return None
    monkeypatch.setattr(table_module.run, 'cpu_bound', stopping)
    options = TableOptions(seats=2, level='hard', speed='instant')
    table = Table('s' * 16, GAMES_BY_ID['chinchon'], options,
                  [Seat('computer', name='Lucía', level='hard'), Seat('computer', name='Mateo', level='hard')], seed=4)
    unsubscribe = table.subscribe(0, lambda view, events: None)
    try:
        await asyncio.sleep(0.3)
        assert table.version == 0 and table.state.current_seat is not None
    finally:
        unsubscribe()
    assert not [record for record in caplog.records if record.levelname == 'ERROR']
