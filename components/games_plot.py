"""A plot of games one after another (the results over time, a rating, the coach's accuracy): one
step along the axis per game, whatever time went by between two, and a date under the first game
of each day, on the reader's clock. A time axis put twenty games of one evening on top of each
other and wrote that evening's date under every hour of it ('6 dic, 6 dic, 6 dic...')."""
from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from app.games import GAMES_BY_ID
from app.i18n import t
from components.local_time import local, when

Points = Sequence[tuple[datetime, int]]
TIP = '(point) => `${point.marker}${point.seriesName}<br>${point.data.tip}`'   # each point carries its own words


def day_labels(moments: Sequence[datetime], offset: int | None) -> list[str]:
    """Under each game, in order: its day ('6 dic') when it is the first game of that day on the
    reader's clock (`offset`: minutes east of UTC, None for UTC), else nothing. With the year when
    the games span more than one."""
    days = [local(moment, offset).date() for moment in moments]
    key = 'history.chart.day_year' if len({day.year for day in days}) > 1 else 'history.chart.day'
    return ['' if index and day == days[index - 1] else
            t(key, day=day.day, month=t(f'time.month.{day.month}'), year=day.year)
            for index, day in enumerate(days)]


def games_plot(series: Mapping[str, Points], offset: int | None, value: Callable[[int], str] = str) -> dict:
    """ECharts options of one line per game kind (`series`: game id -> (end time, value) of each of its
    games, oldest first), the games of every kind in one order of time; `value` writes a value."""
    games = sorted(((moment, game_id, number) for game_id, points in series.items() for moment, number in points),
                   key=lambda game: local(game[0], None))   # SQLite's times come back naive
    data: dict[str, list[dict]] = {game_id: [] for game_id in series}
    for index, (moment, game_id, number) in enumerate(games):
        data[game_id].append({'value': [index, number],
                              'tip': f'{html.escape(when(moment, offset))}: <b>{html.escape(value(number))}</b>'})
    return {
        'animation': False,
        'tooltip': {'trigger': 'item', ':formatter': TIP},
        'legend': {'top': 0, 'type': 'scroll'},
        'grid': {'left': 8, 'right': 16, 'top': 32, 'bottom': 8, 'containLabel': True},
        'xAxis': {'type': 'category', 'boundaryGap': False, 'data': day_labels([game[0] for game in games], offset),
                  'axisLabel': {'interval': 0, 'hideOverlap': True},
                  'axisTick': {':interval': "(index, label) => label !== ''"}},
        'yAxis': {'type': 'value', 'scale': True, 'boundaryGap': ['8%', '8%']},   # no point on the axis line
        'series': [{'type': 'line', 'name': t(GAMES_BY_ID[game_id].name_key), 'symbolSize': 7,
                    'color': GAMES_BY_ID[game_id].colour,
                    'data': data[game_id]}
                   for game_id in series],
    }
