"""/history: the logged-in player's games, their figures per game, their plots and, per game with rated
games, the rating after each of them.

The filter and the page number live in the address (`/history?game=chinchon&page=2`), so that
they survive a reload and can be linked; a value that is not one of them gives the first page of
every game. Times are on the reader's clock and in their language (components/local_time.py);
each game links to its own page (app/pages/history_game.py).
"""
from __future__ import annotations

import json
import re
from datetime import datetime
from functools import partial

from nicegui import ui
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app import history
from app.engine.protocol import LEVELS
from app.games import GAMES, GAMES_BY_ID
from app.history import BETTER, MIXED_LEVEL, GameRecord, Totals
from app.i18n import CATALOGS, counted, current_language, t
from app.routes import route_exists
from app.sessions import login_redirect
from app.standings import rating_timeline
from app.visitor import current_account
from components.frame import frame
from components.local_time import local, show_times, when

LEVEL_ORDER = {level: position for position, level in enumerate((*LEVELS, MIXED_LEVEL))}
GAME_ORDER = {game.id: position for position, game in enumerate(GAMES)}
PAGE_NUMBER = re.compile(r'[0-9]{1,6}')   # ASCII digits only: '²' is a digit to str.isdigit, not to int()


def page_param(raw: str | None) -> int:
    """The page asked for in the address; anything but a plain number asks for the first."""
    return int(raw) if raw is not None and PAGE_NUMBER.fullmatch(raw) else 1


def history_page(request: Request) -> RedirectResponse | None:
    account = current_account()
    if account is None:
        return login_redirect(request)
    game_id = request.query_params.get('game') if request.query_params.get('game') in GAMES_BY_ID else None
    page_number = page_param(request.query_params.get('page'))
    listing = history.history_page(user_id=account.id, game_id=game_id, page=page_number)

    with frame(t('history.title')):
        with ui.row().classes('w-full items-end justify-between gap-2').mark('history-head'):
            ui.label(t('history.title')).classes('text-3xl font-bold').props('role=heading aria-level=1')
            if listing.total or game_id:
                game_filter(game_id)
        if not listing.total:
            empty_state(game_id)
            return None
        totals = sorted(history.totals_by_game(user_id=account.id, game_id=game_id),
                        key=lambda group: GAME_ORDER[group.key])
        with ui.element('div').classes('grid gap-3 w-full grid-cols-1 sm:grid-cols-2 lg:grid-cols-3'):
            for group in totals:
                totals_card(group)
        with ui.element('div').classes('grid gap-3 w-full grid-cols-1 lg:grid-cols-3'):
            with chart_card(t('history.chart.timeline'), 'lg:col-span-3'):
                ui.echart(timeline_options(history.score_timeline(user_id=account.id, game_id=game_id))) \
                    .classes('w-full h-64').mark('chart-timeline')
            with chart_card(t('history.chart.by_game'), 'lg:col-span-1'):
                ui.echart(win_rate_options([(t(GAMES_BY_ID[g.key].name_key), g) for g in totals])) \
                    .classes('w-full h-56').mark('chart-by-game')
            with chart_card(t('history.chart.by_level'), 'lg:col-span-2'):
                by_level = sorted(history.totals_by_level(user_id=account.id, game_id=game_id),
                                  key=lambda group: (LEVEL_ORDER.get(group.key, len(LEVEL_ORDER)), group.key))
                ui.echart(win_rate_options([(level_title(g.key), g) for g in by_level])) \
                    .classes('w-full h-56').mark('chart-by-level')
            with chart_card(t('history.chart.accuracy'), 'lg:col-span-3'):
                accuracy = history.accuracy_timeline(user_id=account.id, game_id=game_id)
                analysed = sum(len(points) for points in accuracy.values())
                if analysed:
                    ui.echart(accuracy_options(accuracy)).classes('w-full h-56') \
                        .props(f'data-games="{analysed}"').mark('accuracy-plot')
                else:
                    ui.label(t('history.chart.accuracy_none')).classes('text-sm text-gray-700') \
                        .props('data-games="0"').mark('accuracy-plot')
            for rated_game, points in sorted(rating_timeline(user_id=account.id, game_id=game_id).items(),
                                             key=lambda item: GAME_ORDER[item[0]]):
                with chart_card(t('history.chart.rating', game=t(GAMES_BY_ID[rated_game].name_key)), 'lg:col-span-3'):
                    ui.echart(rating_options(rated_game, points)).classes('w-full h-56') \
                        .props(f'data-games="{len(points)}"').mark('rating-plot', f'rating-plot-{rated_game}')
        ui.label(t('history.games', count=listing.total)).classes('text-xl font-bold mt-2') \
            .props('role=heading aria-level=2')
        with ui.column().classes('w-full gap-2').mark('game-list'):
            times = [(game_row(record, position), record.ended_at) for position, record in enumerate(listing.games)]
        if listing.pages > 1:
            ui.pagination(1, listing.pages, direction_links=True, value=listing.page,
                          on_change=lambda event: ui.navigate.to(history_path(game_id, event.value))) \
                .props('max-pages=5 boundary-numbers').classes('self-center').mark('pages')
        show_times([(label, partial(when, moment)) for label, moment in times])
    return None


def history_path(game_id: str | None, page: int = 1) -> str:
    query = '&'.join(part for part in (f'game={game_id}' if game_id else '',
                                       f'page={page}' if page > 1 else '') if part)
    return f'/history?{query}' if query else '/history'


def game_filter(game_id: str | None) -> None:
    options = {'': t('history.filter.all')} | {game.id: t(game.name_key) for game in GAMES}
    ui.select(options, value=game_id or '', label=t('history.filter.label'),
              on_change=lambda event: ui.navigate.to(history_path(event.value or None))) \
        .props('outlined dense options-dense').classes('w-48 max-w-full').mark('game-filter')


def empty_state(game_id: str | None) -> None:
    with ui.card().classes('w-full items-start gap-3 p-6').mark('history-empty'):
        ui.label(t('history.empty.title')).classes('text-xl font-bold text-[#1f5f3a]')
        ui.label(t('history.empty.text')).classes('text-gray-800')
        games = [GAMES_BY_ID[game_id]] if game_id else list(GAMES)
        playable = [game for game in games if route_exists(game.play_path)]
        if playable:
            ui.label(t('history.empty.play')).classes('font-medium')
        with ui.row().classes('gap-2 flex-wrap'):
            for game in playable:
                ui.button(t(game.name_key), on_click=lambda g=game: ui.navigate.to(g.play_path)) \
                    .props('unelevated no-caps')
            if not playable:
                ui.button(t('history.empty.choose'), on_click=lambda: ui.navigate.to('/')) \
                    .props('unelevated no-caps')


def totals_card(group: Totals) -> None:
    name = t(GAMES_BY_ID[group.key].name_key)
    better = BETTER[group.key].value
    with ui.card().classes('w-full gap-1 p-4').props(f'aria-label="{name}"').mark(f'totals-{group.key}'):
        ui.label(name).classes('text-lg font-bold').style(f'color: {GAMES_BY_ID[group.key].colour}')
        with ui.element('div').classes('grid grid-cols-2 gap-x-4 gap-y-1 w-full text-sm'):
            figure(t('history.played'), str(group.played))
            figure(t('history.wins'), str(group.wins))
            figure(t('history.win_rate'), percent(group.win_rate))
            # None when every game of the group was abandoned: their scores are partial
            figure(t('history.average'), t('history.no_figure') if group.average is None else decimal(group.average))
            figure(t('history.best'), t('history.no_figure') if group.best is None else str(group.best))
        ui.label(t(f'history.better.{better}')).classes('text-xs text-gray-600')


def figure(label: str, value: str) -> None:
    ui.label(label).classes('text-gray-600')
    ui.label(value).classes('font-semibold text-right tabular-nums')


def game_row(record: GameRecord, position: int) -> ui.label:
    """One game of the list; returns the label of its time, which the page fills in."""
    name = t(GAMES_BY_ID[record.game_id].name_key)
    opponents = ', '.join(level_name(seat.name_or_level) for seat in record.seats if not seat.is_human)
    with ui.card().classes('w-full flex-row flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2') \
            .mark('game-row', f'game-row-{position}'):
        with ui.column().classes('gap-0 min-w-[9rem]'):
            ui.label(name).classes('font-bold')
            moment = ui.label().classes('text-xs text-gray-600 min-h-4').mark('game-when')
        with ui.column().classes('gap-0 grow'):
            ui.label(t('history.row.abandoned_text') if record.abandoned else
                     t('history.row.result', score=record.score, place=record.placement, seats=len(record.seats)))
            ui.label(t('history.row.details', hands=counted('amount.hands', record.hands_played), opponents=opponents)) \
                .classes('text-xs text-gray-600')
        if record.abandoned:
            ui.badge(t('history.row.abandoned'), color='grey-7').classes('px-2 py-1').mark('abandoned')
        elif record.won:
            ui.badge(t('history.row.won'), color='accent').classes('text-black px-2 py-1')
        ui.link(t('history.row.open'), game_path(record.id)).classes('font-semibold text-[#1f5f3a]') \
            .mark('game-link')
    return moment


def game_path(record_id: int) -> str:
    return f'/history/{record_id}'


def chart_card(title: str, span: str):
    card = ui.card().classes(f'w-full gap-1 p-3 {span}')
    with card:
        ui.label(title).classes('font-bold').props('role=heading aria-level=2')
    return card


DAY_MS = 24 * 3600 * 1000


def timeline_options(timeline: dict[str, list[tuple[datetime, int]]]) -> dict:
    return {
        'animation': False,
        'tooltip': {'trigger': 'item', ':formatter': point_formatter()},
        'legend': {'top': 0, 'type': 'scroll'},
        'grid': {'left': 8, 'right': 16, 'top': 32, 'bottom': 8, 'containLabel': True},
        # the browser writes the dates: its own time zone, the page's language ('1 dic', not 'Dec 1')
        # the labels name days: ticks closer than a day would repeat one ('1 dic, 1 dic, 2 dic')
        'xAxis': {'type': 'time', 'minInterval': DAY_MS,
                  'axisLabel': {'hideOverlap': True, ':formatter': date_formatter()}},
        'yAxis': {'type': 'value', 'scale': True},
        'series': [{'type': 'line', 'name': t(GAMES_BY_ID[game_id].name_key), 'symbolSize': 7,
                    'color': GAMES_BY_ID[game_id].colour,
                    'data': [[local(moment, 0).isoformat(), score] for moment, score in points]}
                   for game_id, points in timeline.items()],
    }


def rating_options(game_id: str, points: list[tuple[datetime, int]]) -> dict:
    """A game's shown rating after each rated game: the timeline's drawing, its numbers without
    the thousands' comma ECharts would put in (1500, never 1,500)."""
    options = timeline_options({game_id: points})
    options['yAxis']['axisLabel'] = {':formatter': '(value) => String(value)'}
    return options


def accuracy_options(timeline: dict[str, list[tuple[datetime, float, int]]]) -> dict:
    """Each analysed game's accuracy (the share of your decisions the coach did not label), per game."""
    return {
        'animation': False,
        'tooltip': {'trigger': 'item', ':formatter': point_formatter('%')},
        'legend': {'top': 0, 'type': 'scroll'},
        'grid': {'left': 8, 'right': 16, 'top': 32, 'bottom': 8, 'containLabel': True},
        'xAxis': {'type': 'time', 'minInterval': DAY_MS,
                  'axisLabel': {'hideOverlap': True, ':formatter': date_formatter()}},
        'yAxis': {'type': 'value', 'min': 0, 'max': 100, 'axisLabel': {'formatter': percent_format('{value}')}},
        'series': [{'type': 'line', 'name': t(GAMES_BY_ID[game_id].name_key), 'symbolSize': 7,
                    'color': GAMES_BY_ID[game_id].colour,
                    'data': [[local(moment, 0).isoformat(), round(accuracy)] for moment, accuracy, _ in points]}
                   for game_id, points in timeline.items()],
    }


def date_formatter() -> str:
    """A JavaScript function for the time axis: the day and month in the page's language."""
    language = json.dumps(current_language())
    return f"(value) => new Date(value).toLocaleDateString({language}, {{day: 'numeric', month: 'short'}})"


def point_formatter(unit: str = '') -> str:
    """A JavaScript function for a point's tooltip: its game, date and time (reader's clock), value."""
    language = json.dumps(current_language())
    unit = json.dumps(('\u202f' if current_language() == 'es' else '') + unit if unit else '')
    return ("(point) => `${point.marker}${point.seriesName}<br>${new Date(point.value[0]).toLocaleString("
            f"{language}, {{dateStyle: 'medium', timeStyle: 'short'}})}}: <b>${{point.value[1]}}${{{unit}}}</b>`")


def win_rate_options(groups: list[tuple[str, Totals]]) -> dict:
    return {
        'animation': False,
        'tooltip': {'trigger': 'item'},
        'grid': {'left': 8, 'right': 16, 'top': 24, 'bottom': 8, 'containLabel': True},
        'xAxis': {'type': 'category', 'data': [label for label, _ in groups],
                  'axisLabel': {'interval': 0, 'overflow': 'break', 'width': 72, 'lineHeight': 14}},
        'yAxis': {'type': 'value', 'min': 0, 'max': 100, 'axisLabel': {'formatter': percent_format('{value}')}},
        'series': [{'type': 'bar', 'barMaxWidth': 48, 'color': '#1f5f3a',
                    'label': {'show': True, 'position': 'top', 'formatter': percent_format('{c}')},
                    'data': [{'value': round(group.win_rate * 100),
                              'name': f'{label} ({group.wins}/{group.played})'} for label, group in groups]}],
    }


def level_name(level: str) -> str:
    """A computer's level inside a sentence ("contra: fácil, difícil")."""
    key = f'history.level.{level}'
    return t(key) if key in CATALOGS[current_language()] else level


def level_title(level: str) -> str:
    """A level on its own, as the setup page names it ("Difícil"): a chart's label."""
    key = f'level.{level}'
    return t(key) if key in CATALOGS[current_language()] else level


def percent(rate: float) -> str:
    return percent_format(str(round(rate * 100)))


def percent_format(number: str) -> str:
    return f'{number} %' if current_language() == 'es' else f'{number}%'


def decimal(value: float) -> str:
    text = f'{value:.1f}'
    return text.replace('.', ',') if current_language() == 'es' else text
