"""The site's own 404 page, in the reader's language and inside the site frame.

NiceGUI renders the `root` page given to `ui.run` for every address no page answers, so
`app.site` passes `not_found_page` there; pages that find nothing for a well-formed address (a
game record of another account) draw `not_found_content` themselves. Both answer HTTP 404.
"""
from __future__ import annotations

from nicegui import ui
from starlette.requests import Request

from app.games import GAMES
from app.i18n import t
from app.routes import route_exists
from components.frame import frame

SHOWN_PATH = 80   # characters of the unknown address repeated on the page


def not_found_page(request: Request) -> None:
    """Every unknown address. It takes no other parameter: NiceGUI would fill one from the query."""
    not_found_content(request.url.path)


def not_found_content(path: str) -> None:
    ui.status_code(404)
    with frame(t('not_found.title')), ui.card().classes('w-full max-w-xl self-center gap-3 p-6').mark('not-found'):
        ui.label(t('not_found.title')).classes('text-3xl font-bold text-[#143d26]') \
            .props('role=heading aria-level=1')
        shown = path if len(path) <= SHOWN_PATH else path[:SHOWN_PATH] + '…'
        ui.label(t('not_found.text', path=shown)).classes('text-lg break-all')
        ui.label(t('not_found.hint')).classes('text-gray-700')
        games = [game for game in GAMES if route_exists(game.play_path)]
        if games:
            with ui.row().classes('items-center gap-3 flex-wrap'):
                ui.label(t('not_found.games')).classes('font-medium')
                for game in games:
                    ui.link(t(game.name_key), game.play_path).classes('font-semibold') \
                        .mark(f'not-found-{game.id}')
        ui.link(t('error.back_home'), '/').classes('font-semibold').mark('not-found-home')
