"""Page registration. `app.site` calls `register_pages()` on every start (NiceGUI's test fixture
re-runs main.py per test after clearing the routes, so decorators at import time would be lost)."""
from __future__ import annotations

import os

from nicegui import app, ui

from app import installable, sessions
from app.pages import account, admin, export, history, history_game, home, lobby, ranking, recovery
from app.pages.daily import register_daily_pages
from app.pages.review import register_review_pages
from app.pages.tables import register_table_pages
from app.pages.rules import register_rules_pages
from components.card import register_card_routes


def register_pages() -> None:
    register_card_routes()
    installable.register()   # the manifest, the service worker, its offline page and the icons
    ui.page('/')(home.home_page)
    register_rules_pages()
    register_table_pages()
    ui.page('/lobby')(lobby.lobby_page)
    ui.page('/login')(account.login_page)
    ui.page('/register')(account.register_page)
    ui.page('/account')(account.account_page)
    ui.page('/recover')(recovery.recover_page)
    app.get('/session/start', include_in_schema=False)(sessions.start_route)
    app.get('/session/end', include_in_schema=False)(sessions.end_route)
    app.get(export.JSON_PATH, include_in_schema=False, response_model=None)(export.json_route)
    app.get(export.CSV_PATH, include_in_schema=False, response_model=None)(export.csv_route)
    ui.page('/history')(history.history_page)
    ui.page('/history/{record_id}')(history_game.game_page)
    register_review_pages()
    register_daily_pages()
    ui.page('/ranking')(ranking.ranking_index)
    ui.page('/ranking/{game_id}')(ranking.ranking_page)
    ui.page(admin.PATH)(admin.admin_page)
    if os.environ.get('HOD_BENCH') == '1':
        from app.pages.bare import bare_button_page
        ui.page('/bench/bare')(bare_button_page)
