"""/play/<game>: the options before dealing, which create a table; /table/<id>: one table.

A browser keeps only the ids of its tables (and its guest token, which seats it) in
app.storage.user: the table itself lives in app.tables, shared by every tab that shows it.
"""
from __future__ import annotations

import importlib
import secrets
from typing import Any

from nicegui import app, ui

from app.accounts import current_account, current_user_id
from app.games import GAMES, GAMES_BY_ID, GameInfo
from app.i18n import t
from app.tables.registry import TableUnavailable, create_table, open_table
from app.tables.table import Seat, Table
from components.frame import frame
from components.table.setup import setup_form, to_table_options
from components.table.shell import TableScreen

TABLES_KEY = 'tables'   # app.storage.user: game id -> id of this browser's latest table of it
GUEST_KEY = 'guest'


def table_path(table_id: str) -> str:
    return f'/table/{table_id}'


def options_key(game: GameInfo) -> str:
    return f'options:{game.id}'


def guest_token() -> str:
    """This browser's token: the seats it sits at (kept with NiceGUI's signed browser storage)."""
    storage = app.storage.user
    token = storage.get(GUEST_KEY)
    if not isinstance(token, str) or len(token) < 16:
        token = storage[GUEST_KEY] = secrets.token_urlsafe(16)
    return token


def my_table_id(game: GameInfo) -> str | None:
    tables = app.storage.user.get(TABLES_KEY)
    table_id = tables.get(game.id) if isinstance(tables, dict) else None
    return table_id if isinstance(table_id, str) else None


def my_open_table(game: GameInfo) -> Table | None:
    """This browser's unfinished table of `game`, if it still sits at one."""
    table_id = my_table_id(game)
    table = open_table(table_id) if table_id else None
    if table is None or table.is_over() or table.seat_of(guest_token(), current_user_id()) is None:
        return None
    return table


def _remember(table: Table) -> None:
    tables = app.storage.user.get(TABLES_KEY)
    app.storage.user[TABLES_KEY] = {**(tables if isinstance(tables, dict) else {}), table.game.id: table.id}


def play_page(game_id: str) -> None:
    game = GAMES_BY_ID[game_id]
    storage = app.storage.user
    with frame(t(game.name_key)):
        ongoing = my_open_table(game)
        if ongoing is not None:
            with ui.card().classes('w-full max-w-xl self-center flex-row items-center gap-3 bg-amber-50') \
                    .props('data-testid="ongoing"'):
                ui.label(t('play.ongoing', game=t(game.name_key))).classes('flex-1')
                ui.button(t('home.resume'), icon='play_arrow', on_click=lambda: ui.navigate.to(table_path(ongoing.id))) \
                    .props('unelevated no-caps').mark('resume')
        setup_form(game, storage.get(options_key(game)), lambda choice: start_table(game, choice))


def start_table(game: GameInfo, choice: dict[str, Any]) -> None:
    """Deal a new table with this browser's person in the first seat, and go to its address."""
    app.storage.user[options_key(game)] = choice
    account = current_account()
    person = Seat('person', name=account.display_name if account else '', guest=guest_token(),
                  user_id=account.id if account else None)
    try:
        table = create_table(game, to_table_options(game, choice), [person])
    except TableUnavailable:
        ui.notify(t('table.unavailable'), type='negative')
        return
    _remember(table)
    ui.navigate.to(table_path(table.id))


def table_page(table_id: str) -> None:
    table = open_table(table_id)
    with frame(t(table.game.name_key) if table else t('table.missing_title')):
        seat = None if table is None else table.seat_of(guest_token(), current_user_id())
        if table is None or seat is None or table.game.screen is None:
            _no_seat(t('table.missing') if table is None else t('table.not_yours'),
                     None if table is None or table.game.screen is None else table.game)
            return
        account = current_account()
        if account is not None:
            table.claim(seat, account.id, account.display_name)
        _remember(table)
        game = table.game
        screen(game)(table, seat, on_new_game=lambda: ui.navigate.to(game.play_path)).build()


def _no_seat(text: str, game: GameInfo | None) -> None:
    """Why there is no table to show, and where to go instead."""
    with ui.card().classes('w-full max-w-xl self-center gap-3').props('data-testid="no-table"'):
        ui.label(text).classes('text-lg')
        with ui.row().classes('gap-4'):
            if game is not None:
                ui.link(t('table.own_game', game=t(game.name_key)), game.play_path).classes('font-semibold')
            ui.link(t('nav.home'), '/').classes('font-semibold')


def screen(game: GameInfo) -> type[TableScreen]:
    """The game's table screen, named in its registry entry ('module:Class')."""
    module, _, name = game.screen.partition(':')
    return getattr(importlib.import_module(module), name)


def _play_page_of(game_id: str):
    def page() -> None:   # no parameters: NiceGUI would read them from the query string
        play_page(game_id)
    return page


def register_table_pages() -> None:
    for game in GAMES:
        if game.screen is not None:
            ui.page(game.play_path)(_play_page_of(game.id))
    ui.page('/table/{table_id}')(table_page)
