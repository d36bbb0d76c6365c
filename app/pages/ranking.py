"""/ranking/<game>: a game's ranking of rated accounts (at least the setting's rated games, the
last within 30 days), your own rating and place, and a link between games; /ranking opens the
first game's. Guests are invited to sign in: only accounts are rated."""
from __future__ import annotations

from datetime import UTC, datetime

from nicegui import ui
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app import config, moderation
from app.fairplay import pairs
from app.games import GAMES, GAMES_BY_ID, GameInfo
from app.i18n import t
from app.pages.not_found import not_found_content
from app.routes import ranking_path
from app.sessions import login_path
from app.standings import ACTIVE_DAYS, leaderboard, position_of
from app.visitor import current_account
from components import ranking as parts
from components.controls import BOARD_CSS
from components.frame import frame


def ranking_index() -> RedirectResponse:
    return RedirectResponse(ranking_path(GAMES[0].id), status_code=303)


def ranking_page(request: Request, game_id: str) -> None:
    game = GAMES_BY_ID.get(game_id)
    if game is None:
        not_found_content(request.url.path)
        return
    name = t(game.name_key)
    account = current_account()
    now = datetime.now(UTC)
    try:
        rows = leaderboard(game_id=game.id, now=now)
        mine = position_of(user_id=account.id, game_id=game.id, now=now) if account is not None else None
        hidden = moderation.hidden_reason(account.id) if account is not None else None
    except SQLAlchemyError:   # say so in words, and show nothing half read
        _unavailable(game)
        return
    with frame(t('ranking.game_title', game=name), description=t('ranking.intro')):
        ui.add_css(BOARD_CSS + parts.RANKING_CSS)
        _head(game)
        if account is None:
            _guest_line(request)
        elif hidden is not None:   # what was decided and why, in your language
            ui.label(t('ranking.hidden', reason=hidden)).classes('text-amber-900 font-medium') \
                .props('role=status').mark('ranking-hidden')
        elif mine is None:
            ui.label(t('ranking.me.none', game=name)).classes('text-gray-800').mark('ranking-none')
        else:
            parts.my_standing(mine, game_name=name)
        with ui.card().classes('w-full gap-2 p-2 sm:p-4'):
            if rows:
                parts.board(rows, game_name=name, mine=account.id if account is not None else None)
            else:
                ui.label(t('ranking.empty', game=name)).classes('text-lg font-semibold text-[#1f5f3a]') \
                    .mark('ranking-empty')
            ui.label(t('ranking.rule', games=config.ranking_min_games(), days=ACTIVE_DAYS)) \
                .classes('text-sm text-gray-700').mark('ranking-rule')
        _fair_play()


def _fair_play() -> None:
    """The rules that keep a rating honest (app.tables.aborts, app.playban, app.fairplay)."""
    with ui.element('section').classes('w-full flex flex-col gap-2').props('aria-labelledby=fair-play') \
            .mark('fair-play'):
        ui.label(t('ranking.fair.title')).classes('text-xl font-bold').props('id=fair-play role=heading aria-level=2')
        with ui.element('ul').classes('list-disc pl-6 flex flex-col gap-1 text-gray-800'):
            for key in ('abort', 'leave', 'browser', 'address'):
                with ui.element('li'):
                    ui.label(t(f'ranking.fair.{key}'))
            with ui.element('li'):
                ui.label(t('ranking.fair.cap', cap=pairs.DAILY_CAP))


def _head(game: GameInfo) -> None:
    ui.label(t('ranking.game_title', game=t(game.name_key))).classes('text-3xl font-bold mt-2') \
        .props('role=heading aria-level=1')
    with ui.element('nav').classes('flex flex-wrap gap-2').props(f'aria-label="{t("ranking.choose")}"'):
        for each in GAMES:
            link = ui.link(t(each.name_key), ranking_path(each.id)) \
                .classes('px-3 py-1 rounded-full border border-[#1f5f3a] no-underline font-semibold') \
                .mark(f'ranking-tab-{each.id}')
            if each is game:
                link.classes('bg-[#1f5f3a] text-white').props('aria-current=page')
            else:
                link.classes('text-[#1f5f3a] bg-white')
    ui.label(t('ranking.intro')).classes('text-gray-700')


def _guest_line(request: Request) -> None:
    with ui.card().classes('w-full gap-1 p-4').props('data-testid="ranking-guest"').mark('ranking-guest'):
        ui.label(t('ranking.guest'))
        ui.link(t('ranking.sign_in'), login_path(request.url.path)).classes('font-semibold text-[#1f5f3a]') \
            .mark('ranking-sign-in')


def _unavailable(game: GameInfo) -> None:
    with frame(t('ranking.game_title', game=t(game.name_key))):
        ui.status_code(503)
        with ui.card().classes('w-full max-w-xl self-center gap-3').mark('ranking-unavailable'):
            ui.label(t('ranking.unavailable')).classes('text-lg')
