"""/play/chinchon: the options before dealing, then the table. The table is kept per browser, so a
reload (or coming back later) finds the same game."""
from __future__ import annotations

import secrets
from typing import Any

from nicegui import app, ui

from app.controllers.records import record_table
from app.controllers.table import TableController, restore_table, save_table, settle_saves
from app.games import GAMES_BY_ID
from app.i18n import t
from components.chinchon.setup import clean_options, setup_form, to_table_options
from components.chinchon.table import ChinchonTable
from components.frame import frame

GAME = GAMES_BY_ID['chinchon']
OPTIONS_KEY = 'options:chinchon'


async def chinchon_page(new: bool = False) -> None:
    storage = app.storage.user
    await settle_saves()
    with frame(t('game.chinchon.name')):
        controller = None if new else restore_table(storage, GAME)
        if controller is None:
            setup_form(storage.get(OPTIONS_KEY), lambda choice: start_game(storage, choice))
        else:
            show_table(storage, controller)


def start_game(storage: Any, choice: dict[str, Any], replacing: TableController | None = None) -> None:
    storage[OPTIONS_KEY] = choice
    if replacing is not None:
        replacing.retire()
    controller = TableController(GAME, to_table_options(choice), seed=secrets.randbits(63))
    save_table(storage, controller)
    ui.navigate.to(GAME.play_path)


def show_table(storage: Any, controller: TableController) -> None:
    controller.on_save = lambda table: save_table(storage, table)
    client = ui.context.client
    client.on_disconnect(controller.stop)   # a reload builds a new controller from the save...
    client.on_connect(controller.start)     # ...and a dropped connection that comes back plays on
    table = ChinchonTable(controller,
                          on_play_again=lambda: start_game(storage, clean_options(storage.get(OPTIONS_KEY)),
                                                           replacing=controller),
                          on_new_game=lambda: ui.navigate.to(f'{GAME.play_path}?new=true'))
    controller.on_game_over = lambda finished: record_table(finished, table.names)
    table.build()
