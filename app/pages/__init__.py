"""Page registration. `main.py` calls `register_pages()` on every start (NiceGUI's test fixture
re-runs main.py per test after clearing the routes, so decorators at import time would be lost)."""
from __future__ import annotations

from nicegui import ui

from app.pages import home


def register_pages() -> None:
    ui.page('/')(home.home_page)
