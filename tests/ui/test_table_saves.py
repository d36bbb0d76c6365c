"""When a table saves itself: a move goes to the screen first and is saved a moment later, moves in
between are saved together, and nothing a player did is lost on a reload, a disconnect or a new game."""
from __future__ import annotations

import json

from app.controllers.table import TableController, settle_saves
from app.engine.chinchon import DrawStock

from table_positions import chinchon_position


def counting(controller: TableController) -> list[dict]:
    saves: list[dict] = []
    controller.on_save = lambda table: saves.append(json.loads(json.dumps(table.to_dict())))
    return saves


async def test_a_move_is_saved_just_after_it_is_shown() -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    saves = counting(table)
    shown: list[int] = []
    table.listeners.append(lambda events: shown.append(len(saves)))
    table.act(DrawStock())        # the human keeps the turn (a discard is next): no computer moves
    assert shown == [0]            # the screen heard of the move before any save
    await settle_saves()
    assert len(saves) == 1 and saves[0]['state']['hands'][0][-1] == '4e'


async def test_moves_in_quick_succession_are_saved_once_with_the_latest_state() -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    saves = counting(table)
    table.save_soon()
    table.act(DrawStock())
    table.save_soon()
    await settle_saves()
    assert len(saves) == 1 and len(saves[0]['state']['hands'][0]) == 8


async def test_flush_and_stop_save_what_is_held_back_at_once() -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    saves = counting(table)
    table.act(DrawStock())
    table.stop()                   # the browser went away: the move is saved there and then
    assert len(saves) == 1
    table.flush()                  # nothing left to save
    await settle_saves()
    assert len(saves) == 1


async def test_a_retired_table_never_saves_over_the_new_one() -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    saves = counting(table)
    table.act(DrawStock())
    table.retire()                 # 'play again': what was held back is saved first...
    assert len(saves) == 1
    table.save_soon()              # ...and nothing afterwards can overwrite the new table
    table.stop()
    await settle_saves()
    assert len(saves) == 1 and table.on_save is None


def test_without_an_event_loop_a_save_happens_at_once() -> None:
    table = chinchon_position()
    saves = counting(table)
    table.save_soon()
    assert len(saves) == 1
