"""A game's ranking drawn: the board of rated accounts and your own rating with its place. They
draw values (app.standings' rows); the page reads them."""
from __future__ import annotations

from collections.abc import Sequence
from html import escape

from nicegui import ui

from app.i18n import counted, number, t
from app.ratings import Rating
from app.standings import ACTIVE_DAYS, MyStanding, RankingRow

RANKING_CSS = '''
.hod-ranking th.num, .hod-ranking td.num { width: 1%; white-space: nowrap; }
.hod-ranking td.name { overflow-wrap: anywhere; }
@media (max-width: 640px) { .hod-ranking td, .hod-ranking th { padding: 4px 5px; font-size: 14px; } }
.hod-provisional { color: #8a6d1c; font-weight: 700; cursor: help; text-decoration: none; margin-left: 1px; }
.hod-rating { font-size: 2.25rem; line-height: 1; font-weight: 800; font-variant-numeric: tabular-nums; color: #143d26; }
'''


def shown_rating(rating: Rating) -> str:
    """The whole number, and '?' after it while provisional (the mark explains itself on hover)."""
    mark = (f'<abbr class="hod-provisional" title="{escape(t("ranking.provisional"))}" '
            f'data-testid="provisional">?</abbr>') if rating.provisional else ''
    return f'{number(rating.display())}{mark}'


def board(rows: Sequence[RankingRow], *, game_name: str, mine: int | None) -> None:
    """The ranking, best first (rows ``ranking-row``), your own row marked."""
    head = ''.join(f'<th scope="col" class="{"num" if key != "name" else ""}">{escape(t(f"ranking.board.{key}"))}</th>'
                   for key in ('position', 'name', 'rating', 'games'))
    lines = ''.join(f'<tr data-testid="ranking-row" class="{"mine" if row.user_id == mine else ""}">'
                    f'<td class="num">{row.position}</td><td class="name">{escape(row.name)}</td>'
                    f'<td class="num">{shown_rating(row.rating)}</td><td class="num">{row.rating.games}</td></tr>'
                    for row in rows)
    ui.html(f'<table class="hod-board hod-ranking w-full"><caption class="sr-only">{escape(t("ranking.game_title", game=game_name))}'
            f'</caption><thead><tr>{head}</tr></thead><tbody>{lines}</tbody></table>', sanitize=False) \
        .classes('w-full overflow-x-auto').props('data-testid="ranking-board"').mark('ranking-board')


def my_standing(standing: MyStanding, *, game_name: str) -> None:
    """Your rating (with its '?' while provisional), your rated games and your place, or what is
    missing to have one."""
    rating = standing.rating
    with ui.card().classes('w-full gap-2 p-4').props('data-testid="ranking-me"').mark('ranking-me'):
        ui.label(t('ranking.me.title', game=game_name)).classes('font-bold').props('role=heading aria-level=2')
        with ui.row().classes('items-baseline gap-x-4 gap-y-1 flex-wrap'):
            ui.html(shown_rating(rating), sanitize=False).classes('hod-rating').mark('ranking-me-rating')
            if standing.rank is not None:
                ui.label(t('ranking.me.rank', rank=standing.rank, count=standing.ranked)) \
                    .classes('text-lg font-semibold').mark('ranking-me-rank')
            ui.label(counted('ranking.me.games', rating.games)).classes('text-gray-700')
        if standing.rank is None:
            ui.label(counted('ranking.me.needed', standing.games_needed) if standing.games_needed
                     else t('ranking.me.away', days=ACTIVE_DAYS)).classes('text-gray-800').mark('ranking-me-unranked')
        if rating.provisional:
            ui.label(t('ranking.me.provisional')).classes('text-sm text-gray-700').mark('ranking-me-provisional')
