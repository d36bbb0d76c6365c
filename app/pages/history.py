"""/history: the logged-in player's games, their figures per game, their plots and, per game with rated
games, the rating after each of them. The daily deal's tries have figures of their own per game, and
the games against people one card for every game (app.history says which game is of which kind);
the list labels each daily try.

The filter and the page number live in the address (`/history?game=chinchon&page=2`), so that
they survive a reload and can be linked; a value that is not one of them gives the first page of
every game. Times are on the reader's clock and in their language (components/local_time.py);
each game links to its own page (app/pages/history_game.py).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from functools import partial

from nicegui import ui
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app import history
from app.engine.protocol import LEVELS
from app.games import GAMES, GAMES_BY_ID
from app.history import BETTER, GameRecord, SeatResult, Totals
from app.i18n import CATALOGS, counted, current_language, t
from app.routes import route_exists
from app.sessions import login_redirect
from app.standings import rating_timeline
from app.visitor import current_account
from components.frame import frame
from components.games_plot import games_plot
from components.local_time import show_times, when

LEVEL_ORDER = {level: position for position, level in enumerate(LEVELS)}
GAME_ORDER = {game.id: position for position, game in enumerate(GAMES)}
Drawing = Callable[[int | None], dict]   # a plot's options for the reader's offset (None: UTC)
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
        dailies = sorted(history.totals_by_game(user_id=account.id, game_id=game_id, daily=True),
                         key=lambda group: GAME_ORDER[group.key])
        ratings = sorted(rating_timeline(user_id=account.id, game_id=game_id).items(),
                         key=lambda item: GAME_ORDER[item[0]])
        people = history.totals_with_people(user_id=account.id, game_id=game_id)
        with ui.element('div').classes('grid gap-3 w-full grid-cols-1 sm:grid-cols-2 lg:grid-cols-3'):
            for group in totals:
                totals_card(group)
            for group in dailies:   # a short game of its own format: its results do not compare
                totals_card(group, daily=True)
            if people is not None:
                people_card(people, rated=sum(len(points) for _, points in ratings))
        plots: list[tuple[ui.echart, Drawing]] = []   # each drawn again on the reader's clock
        with ui.element('div').classes('grid gap-3 w-full grid-cols-1 lg:grid-cols-3'):
            if totals:
                with chart_card(t('history.chart.timeline'), 'lg:col-span-3'):
                    timeline = history.score_timeline(user_id=account.id, game_id=game_id)
                    plots.append((ui.echart(timeline_options(timeline, None)).classes('w-full h-64')
                                  .mark('chart-timeline'), partial(timeline_options, timeline)))
                with chart_card(t('history.chart.by_game'), 'lg:col-span-1'):
                    ui.echart(win_rate_options([(t(GAMES_BY_ID[g.key].name_key), g) for g in totals])) \
                        .classes('w-full h-56').mark('chart-by-game')
                with chart_card(t('history.chart.by_level'), 'lg:col-span-2'):
                    level_chart(account.id, game_id)
            with chart_card(t('history.chart.accuracy'), 'lg:col-span-3'):
                accuracy = history.accuracy_timeline(user_id=account.id, game_id=game_id)
                analysed = sum(len(points) for points in accuracy.values())
                if analysed:
                    plots.append((ui.echart(accuracy_options(accuracy, None)).classes('w-full h-56')
                                  .props(f'data-games="{analysed}"').mark('accuracy-plot'),
                                  partial(accuracy_options, accuracy)))
                else:
                    ui.label(t('history.chart.accuracy_none')).classes('text-sm text-gray-700') \
                        .props('data-games="0"').mark('accuracy-plot')
            for rated_game, points in ratings:
                with chart_card(t('history.chart.rating', game=t(GAMES_BY_ID[rated_game].name_key)), 'lg:col-span-3'):
                    plots.append((ui.echart(rating_options(rated_game, points, None)).classes('w-full h-56')
                                  .props(f'data-games="{len(points)}"').mark('rating-plot', f'rating-plot-{rated_game}'),
                                  partial(rating_options, rated_game, points)))
        ui.label(t('history.games', count=listing.total)).classes('text-xl font-bold mt-2') \
            .props('role=heading aria-level=2')
        with ui.column().classes('w-full gap-2').mark('game-list'):
            times = [(game_row(record, position), record.ended_at) for position, record in enumerate(listing.games)]
        if listing.pages > 1:
            ui.pagination(1, listing.pages, direction_links=True, value=listing.page,
                          on_change=lambda event: ui.navigate.to(history_path(game_id, event.value))) \
                .props('max-pages=5 boundary-numbers').classes('self-center').mark('pages')
        show_times([(label, partial(when, moment)) for label, moment in times],
                   [partial(redraw, chart, options) for chart, options in plots])
    return None


def redraw(chart: ui.echart, options: Drawing, offset: int | None) -> None:
    chart.options.update(options(offset))
    chart.update()


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


def totals_card(group: Totals, *, daily: bool = False) -> None:
    """A game's figures: of its games but the daily tries, or (`daily`) of its daily tries."""
    name = t(GAMES_BY_ID[group.key].name_key)
    title = t('daily.game_title', game=name) if daily else name
    better = BETTER[group.key].value
    with ui.card().classes('w-full gap-1 p-4').props(f'aria-label="{title}"') \
            .mark(f'daily-totals-{group.key}' if daily else f'totals-{group.key}'):
        ui.label(title).classes('text-lg font-bold').style(f'color: {GAMES_BY_ID[group.key].colour}')
        with ui.element('div').classes('grid grid-cols-2 gap-x-4 gap-y-1 w-full text-sm'):
            figure(t('history.tries') if daily else t('history.played'), str(group.played))
            figure(t('history.wins'), str(group.wins))
            figure(t('history.win_rate'), percent(group.win_rate))
            # None when every game of the group was abandoned: their scores are partial
            figure(t('history.average'), t('history.no_figure') if group.average is None else decimal(group.average))
            figure(t('history.best'), t('history.no_figure') if group.best is None else str(group.best))
        ui.label(t(f'history.better.{better}')).classes('text-xs text-gray-600')
        if daily:
            ui.label(t('history.daily_apart')).classes('text-xs text-gray-600')


def people_card(group: Totals, *, rated: int) -> None:
    """The games where anyone else at the table was a person: every game kind together."""
    with ui.card().classes('w-full gap-1 p-4').props(f'aria-label="{t("history.people.title")}"') \
            .mark('totals-people'):
        ui.label(t('history.people.title')).classes('text-lg font-bold text-[#1f5f3a]')
        with ui.element('div').classes('grid grid-cols-2 gap-x-4 gap-y-1 w-full text-sm'):
            figure(t('history.played'), str(group.played))
            figure(t('history.wins'), str(group.wins))
            figure(t('history.win_rate'), percent(group.win_rate))
            figure(t('history.people.rated'), str(rated))
        ui.label(t('history.people.help')).classes('text-xs text-gray-600')


def level_chart(user_id: int, game_id: str | None) -> None:
    by_level = sorted(history.totals_by_level(user_id=user_id, game_id=game_id),
                      key=lambda group: LEVEL_ORDER[group.key])
    if by_level:
        ui.echart(win_rate_options([(level_title(g.key), g) for g in by_level])) \
            .classes('w-full h-56').mark('chart-by-level')
    else:
        ui.label(t('history.chart.by_level_none')).classes('text-sm text-gray-700').mark('chart-by-level-none')
    ui.label(t('history.chart.by_level_help')).classes('text-xs text-gray-600')


def figure(label: str, value: str) -> None:
    ui.label(label).classes('text-gray-600')
    ui.label(value).classes('font-semibold text-right tabular-nums')


def game_row(record: GameRecord, position: int) -> ui.label:
    """One game of the list; returns the label of its time, which the page fills in."""
    name = t(GAMES_BY_ID[record.game_id].name_key)
    opponents = ', '.join(opponent_name(seat) for seat in record.seats if not seat.is_human)
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
        if record.daily:
            daily_badge()
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


def daily_badge() -> None:
    """A daily deal's try, in the list and on its own page."""
    ui.badge(t('daily.title'), color='primary').classes('px-2 py-1').mark('daily-badge')


def timeline_options(timeline: dict[str, list[tuple[datetime, int]]], offset: int | None) -> dict:
    return games_plot({game_id: points for game_id, points in timeline.items()}, offset)


def rating_options(game_id: str, points: list[tuple[datetime, int]], offset: int | None) -> dict:
    """A game's shown rating after each rated game: the timeline's drawing, its numbers without
    the thousands' comma ECharts would put in (1500, never 1,500)."""
    options = timeline_options({game_id: points}, offset)
    options['yAxis']['axisLabel'] = {':formatter': '(value) => String(value)'}
    return options


def accuracy_options(timeline: dict[str, list[tuple[datetime, float, int]]], offset: int | None) -> dict:
    """Each analysed game's accuracy (the share of your decisions the coach did not label), per game."""
    options = games_plot({game_id: [(moment, round(accuracy)) for moment, accuracy, _ in points]
                          for game_id, points in timeline.items()}, offset,
                         value=lambda number: percent_format(str(number)))
    options['yAxis'] = {'type': 'value', 'min': 0, 'max': 100, 'axisLabel': {'formatter': percent_format('{value}')}}
    return options


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


def opponent_name(seat: SeatResult) -> str:
    """An opponent inside a sentence: a computer by its level ("contra: fácil, difícil"), a person
    by their name."""
    key = f'history.level.{seat.name_or_level}'
    return t(key) if seat.is_computer and key in CATALOGS[current_language()] else seat.name_or_level


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
