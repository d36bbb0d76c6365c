"""The daily deal's pieces: the boards, the result with its histogram and share text, and the
fingerprint with its check. They draw values (app.daily.field's standings); the page reads them."""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import date
from html import escape

from nicegui import ui

from app.daily.field import BEST_DAYS, MonthLine, Standing, bin_of, histogram, squares
from app.i18n import counted, number, t
from components.controls import BOARD_CSS

DAILY_CSS = '''   # the histogram, the boards and the fingerprint's long hex
.hod-histogram { display: flex; align-items: flex-end; gap: 4px; height: 96px; }
.hod-histogram > div { flex: 1; background: #b9cfc1; border-radius: 3px 3px 0 0; min-height: 2px; position: relative; }
.hod-histogram > div.mine { background: #e0b341; }
.hod-histogram > div.mine::after { content: attr(data-you); position: absolute; top: -1.3em; left: 50%;
  transform: translateX(-50%); font-size: 12px; font-weight: 700; color: #143d26; white-space: nowrap; }
.hod-histogram-scale { display: flex; justify-content: space-between; font-size: 12px; color: #4b5563; }
.hod-fingerprint { font-family: ui-monospace, monospace; font-size: 13px; word-break: break-all; }
''' + BOARD_CSS


def day_text(day: date) -> str:
    return t('daily.date', day=day.day, month=t(f'time.month.{day.month}'), year=day.year)


def long_day_text(day: date) -> str:
    """The day written out as a reader of its language writes it in a sentence: "7 de diciembre
    de 2026", "December 7, 2026"."""
    return t('daily.long_date', day=day.day, month=t(f'time.month_name.{day.month}'), year=day.year)


def percent(value: float) -> str:
    return t('daily.percent', value=round(value))


def duration(seconds: float | None) -> str:
    if seconds is None:
        return '–'
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    return f'{hours}:{rest // 60:02d}:{rest % 60:02d}' if hours else f'{rest // 60}:{rest % 60:02d}'


def day_board(lines: Sequence[Standing], *, mine: int | None, replay: Callable[[int], str] | None,
              over: bool = False) -> None:
    """A day's board, best first (rows ``daily-row``); ``replay(try id)`` links each finished try's
    replay when they are open to this reader. ``over``: the day is past, and an empty board says
    so in the past ("nobody played it"), not as if somebody still might."""
    if not lines:
        ui.label(t('daily.board.empty_past' if over else 'daily.board.empty')).classes('text-gray-700') \
            .props('data-testid="daily-board-empty"').mark('daily-board-empty')
        return
    head = ''.join(f'<th class="{"num" if key in ("points", "percentile", "time") else ""}">'
                   f'{escape(t(f"daily.board.{key}"))}</th>'
                   for key in ('rank', 'name', 'points', 'percentile', 'time'))
    rows = []
    for line in lines:
        result = line.result
        link = (f' <a href="{escape(replay(result.key))}" class="text-[#1f5f3a] underline" '
                f'data-testid="daily-replay">{escape(t("daily.board.replay"))}</a>'
                if replay is not None and result.finished and replay(result.key) else '')
        late = '' if result.finished else f' <span class="text-gray-500">({escape(t("daily.board.unfinished"))})</span>'
        rows.append(f'<tr data-testid="daily-row" class="{"mine" if result.key == mine else ""}">'
                    f'<td>{line.rank}</td><td>{escape(result.name or t("table.guest"))}{late}{link}</td>'
                    f'<td class="num">{number(result.points)}</td><td class="num">{percent(line.percentile)}</td>'
                    f'<td class="num">{duration(result.seconds)}</td></tr>')
    ui.html(f'<table class="hod-board w-full"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>',
            sanitize=False).classes('w-full overflow-x-auto').props('data-testid="daily-board"').mark('daily-board')


def month_board(lines: Sequence[MonthLine], *, mine: int | None) -> None:
    ui.label(t('daily.board.month_help', best=BEST_DAYS)).classes('text-sm text-gray-700')
    if not lines:
        ui.label(t('daily.board.month_empty')).classes('text-gray-700')
        return
    head = ''.join(f'<th class="{"num" if key != "name" else ""}">{escape(t(f"daily.board.{key}"))}</th>'
                   for key in ('rank', 'name', 'average', 'days'))
    rows = ''.join(f'<tr data-testid="daily-month-row" class="{"mine" if line.user_id == mine else ""}">'
                   f'<td class="num">{index}</td><td>{escape(line.name)}</td>'
                   f'<td class="num">{percent(line.average)}</td><td class="num">{line.days}</td></tr>'
                   for index, line in enumerate(lines, start=1))
    ui.html(f'<table class="hod-board w-full"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>',
            sanitize=False).classes('w-full overflow-x-auto').props('data-testid="daily-month"').mark('daily-month')


def histogram_html(field: Sequence[float], mine: float) -> str:
    """The day's field in tenths of percentile, the band of yours marked."""
    counts = histogram(field)
    top = max(counts) or 1
    own = bin_of(mine)
    mark = f' class="mine" data-you="{escape(t("daily.you_here"))}"'
    bars = ''.join(f'<div{mark if index == own else ""} style="height:{max(2, round(100 * count / top))}%" '
                   f'title="{count}"></div>' for index, count in enumerate(counts))
    return (f'<div class="hod-histogram" role="img" aria-label="{escape(t("daily.histogram_aria"))}" '
            f'data-testid="daily-histogram">{bars}</div>'
            '<div class="hod-histogram-scale">' + ''.join(f'<span>{escape(percent(value))}</span>' for value in (0, 50, 100))
            + '</div>')


def share_text(game_name: str, day: date, value: float, url: str) -> str:
    """What Share copies: no card, no move, no points; the game, the day, the percentile."""
    return t('daily.share_text', game=game_name, date=long_day_text(day), value=percent(value), squares=squares(value),
             url=url)


def share_button(text: str) -> None:
    def copy() -> None:
        ui.clipboard.write(text)
        ui.notify(t('daily.copied'), type='positive')

    ui.button(t('daily.share'), icon='share', on_click=copy).props('unelevated no-caps data-testid="daily-share"') \
        .mark('daily-share')
    ui.label(text).classes('whitespace-pre-line text-sm text-gray-700 bg-gray-50 rounded p-2') \
        .props('data-testid="daily-share-text"').mark('daily-share-text')


def _names(practice: bool) -> tuple[str, str]:
    """(message key prefix, test id prefix) of the ranked deal's pieces, or the practice deal's."""
    return ('daily.practice.', 'daily-practice-') if practice else ('daily.', 'daily-')


def fingerprint(value: str, *, practice: bool = False, over: bool = False) -> None:
    """The deal's fingerprint and what it is for: while its day is open, the seed to come; once
    ``over``, the seed published below it, to check."""
    key, testid = _names(practice)
    with ui.column().classes('gap-1 w-full'):
        ui.label(t(f'{key}fingerprint')).classes('font-semibold')
        ui.label(value).classes('hod-fingerprint').props(f'data-testid="{testid}fingerprint"') \
            .mark(f'{testid}fingerprint')
        ui.label(t('daily.fingerprint_help_past' if over else 'daily.fingerprint_help')).classes('text-sm text-gray-700') \
            .props(f'data-testid="{testid}fingerprint-help"').mark(f'{testid}fingerprint-help')


def seed_check(seed: str, expected: str, *, practice: bool = False) -> None:
    """The revealed seed, and a check of its SHA-256 against the fingerprint, made in the browser
    (Web Crypto), not taken on the server's word."""
    key, testid = _names(practice)
    with ui.column().classes('gap-1 w-full'):
        ui.label(t(f'{key}seed')).classes('font-semibold')
        ui.label(seed).classes('hod-fingerprint').props(f'data-testid="{testid}seed"').mark(f'{testid}seed')
        answer = ui.label('').classes('font-semibold').props(f'data-testid="{testid}check-result" aria-live=polite')

        async def check() -> None:
            digest = await ui.run_javascript(
                f'const bytes = new TextEncoder().encode({json.dumps(seed)});'
                'if (!(window.crypto && crypto.subtle)) return null;'
                'const hash = await crypto.subtle.digest("SHA-256", bytes);'
                'return Array.from(new Uint8Array(hash)).map(b => b.toString(16).padStart(2, "0")).join("");')
            if digest is None:
                answer.set_text(t('daily.check_by_hand', seed=seed))
            else:
                answer.set_text(t('daily.check_ok') if digest == expected else t('daily.check_bad'))
                answer.classes(replace='font-semibold ' + ('text-green-800' if digest == expected else 'text-red-700'))

        ui.button(t('daily.check'), icon='verified', on_click=check) \
            .props(f'outline no-caps data-testid="{testid}check"') \
            .mark(f'{testid}check')
        ui.label(t('daily.check_by_hand', seed=seed)).classes('text-xs text-gray-600 hod-fingerprint')


def streak_line(days: int) -> None:
    text = counted('daily.streak', days) if days else t('daily.streak_none')
    ui.label(text).classes('font-semibold text-[#1f5f3a]').props('data-testid="daily-streak"').mark('daily-streak')
