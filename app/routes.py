"""Which pages exist, so that links appear only once their page has landed (no dead links)."""
from __future__ import annotations

from nicegui import app
from starlette.routing import Route


def route_exists(path: str) -> bool:
    return any(isinstance(route, Route) and route.path == path for route in app.routes)


def rules_path(game_id: str, language: str) -> str:
    return f'/reglas/{game_id}' if language == 'es' else f'/rules/{game_id}'


def daily_path(game_id: str, day: str | None = None) -> str:
    """A game's daily deal today, or a past day's ('YYYY-MM-DD')."""
    return f'/daily/{game_id}' + (f'/{day}' if day else '')


def ranking_path(game_id: str) -> str:
    return f'/ranking/{game_id}'
