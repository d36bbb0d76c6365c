"""A table's steps appended to its move log between whole writes (app.tables.saving), on SQLite
and PostgreSQL: a process killed after an append loads back the table as it was, and plays on."""
from __future__ import annotations

import pytest

from app.games import GAMES_BY_ID
from app.tables import registry
from app.tables.seats import Seat, TableOptions, computer_seats
from app.tables.worker import computer_choice
from models.db import session_scope
from models.tables import load_table, table_steps

pytestmark = pytest.mark.usefixtures('database')


def appended(table_id: str) -> list[str]:
    with session_scope() as session:
        return table_steps(session=session, table_id=table_id)


def stored_version(table_id: str) -> int:
    with session_scope() as session:
        return load_table(session=session, table_id=table_id).version


async def ana_plays(table, turns: int) -> None:
    """Ana (seat 0) plays her turns as an easy computer would, the computers theirs; each step is
    saved a moment later."""
    for turn in range(turns):
        await table.settle()
        action = computer_choice(table.game.id, 'easy', f'ana:{turn}', table.view(0))
        table.act(0, action, table.version)
    await table.settle()
    table.flush()


@pytest.mark.parametrize('game_id', ['chinchon', 'ronda-robada', 'continental'])
async def test_a_process_killed_after_an_append_loads_the_table_as_it_was(game_id) -> None:
    options = TableOptions(seats=3, level='easy', speed='instant', hints=False)
    table = registry.create_table(GAMES_BY_ID[game_id], options, [Seat('person', name='Ana', guest='g' * 16)])
    registry.watch(table, 0, lambda snapshot: None)
    order = [str(card) for card in reversed(table.state.view(0).hand)]
    table.arrange(0, order)   # how Ana laid her cards out: a change between steps, saved too
    await ana_plays(table, 3)
    assert len(appended(table.id)) >= 2 and stored_version(table.id) == table.version > 3
    before = table.to_dict()

    registry.lose(table.id)        # the process is gone: nothing more is written
    loaded = registry.open_table(table.id)

    assert loaded is not table and loaded.version == table.version
    assert loaded.to_dict() == before
    assert loaded.hand_orders == table.hand_orders and set(loaded.hand_orders) == {0}   # Ana's order, kept through her moves
    leave = registry.watch(loaded, 0, lambda snapshot: None)   # and it plays on from there
    await ana_plays(loaded, 1)
    assert stored_version(table.id) == loaded.version > table.version
    assert registry.open_table(table.id) is loaded
    leave()
