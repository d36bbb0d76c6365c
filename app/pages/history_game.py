"""/history/<id>: one recorded game of the logged-in player, linked from its row in /history.

Its players (names and levels), how it ended, its rule options, each hand's points as recorded and
each hand's seed and fingerprint (a daily deal's seeds once its day is over: every try of that day
was dealt the same hands). Another account's record, or an id that is no record, gets the
site's 404 page: the page does not tell one from the other.
"""
from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from nicegui import ui
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app import history, routes
from app.daily.tries import seeds_held
from app.games import GAMES_BY_ID, GameInfo
from app.history import GameDetail, HandRecord, SeatResult
from app.i18n import CATALOGS, counted, current_language, t
from app.pages.history import daily_badge
from app.pages.not_found import not_found_content
from app.review.sources import record_has_replay
from app.sessions import login_redirect
from app.tables.seats import SPEEDS
from app.visitor import current_account
from components.daily import day_text
from components.frame import frame
from components.local_time import show_times, when
from components.review.links import record_review_path, review_link

RECORD_ID = re.compile(r'[0-9]{1,12}')


def game_page(request: Request, record_id: str) -> RedirectResponse | None:
    account = current_account()
    if account is None:
        return login_redirect(request)
    detail = history.game_detail(user_id=account.id, record_id=int(record_id)) \
        if RECORD_ID.fullmatch(record_id) else None
    if detail is None:
        not_found_content(request.url.path)
        return None
    record = detail.record
    game = GAMES_BY_ID[record.game_id]
    times: list[tuple[ui.label, str, datetime]] = []   # filled in once the browser says its time zone
    with frame(t(game.name_key)):
        with ui.row().classes('w-full items-end justify-between gap-2'):
            title = ui.label(t(game.name_key)).classes('text-3xl font-bold').props('role=heading aria-level=1') \
                .mark('game-title')
            ui.link(t('history.detail.back'), '/history').classes('font-semibold text-[#1f5f3a]').mark('back')
        times.append((title, 'history.detail.title', record.started_at))
        times += summary(detail)
        with ui.element('div').classes('grid gap-3 w-full grid-cols-1 lg:grid-cols-3'):
            with ui.card().classes('w-full gap-2 p-4 lg:col-span-2').mark('players'):
                heading(t('history.detail.players'))
                players_table(record.seats)
            with ui.card().classes('w-full gap-2 p-4').mark('options'):
                heading(t('history.detail.options'))
                options_list(game, detail.options)
        with ui.card().classes('w-full gap-2 p-4').mark('hands'):
            heading(t('history.detail.hands'))
            hands_table(record.seats, detail.hands)
            if record_has_replay(record.id):
                with ui.row().classes('w-full gap-2 flex-wrap').mark('review-links'):
                    for hand in detail.hands:
                        if hand.seed:
                            review_link(record_review_path(record.id, hand.number),
                                        t('review.open_hand', hand=hand.number))
        if any(hand.seed for hand in detail.hands):
            with ui.card().classes('w-full gap-2 p-4').mark('seeds'):
                heading(t('history.detail.fair'))
                ui.label(t('history.detail.fair_help')).classes('text-sm text-gray-700')
                seeds_list(detail.hands, held=seeds_held(str(detail.options.get('daily', ''))))
    show_times([(label, lambda offset, key=key, moment=moment: t(key, game=t(game.name_key),
                                                                       when=when(moment, offset)))
                      for label, key, moment in times])
    return None


def heading(text: str) -> None:
    ui.label(text).classes('text-xl font-bold').props('role=heading aria-level=2')


def summary(detail: GameDetail) -> list[tuple[ui.label, str, datetime]]:
    """How the game ended; returns its time labels (label, message key, moment) to fill in."""
    record = detail.record
    with ui.card().classes('w-full flex-row flex-wrap items-center gap-x-6 gap-y-1 px-4 py-3').mark('summary'):
        if record.daily:
            daily_badge()
        if record.abandoned:
            ui.badge(t('history.row.abandoned'), color='grey-7').classes('px-2 py-1').mark('abandoned')
            ended = ui.label(), 'history.detail.abandoned_at', record.ended_at
        else:
            ui.label(t('history.row.result', score=record.score, place=record.placement, seats=len(record.seats))) \
                .classes('font-semibold')
            if record.won:
                ui.badge(t('history.row.won'), color='accent').classes('text-black px-2 py-1')
            ended = ui.label(), 'history.detail.ended', record.ended_at
        started = ui.label().classes('text-gray-700'), 'history.detail.started', record.started_at
    if record.daily:
        daily_line(record.game_id, record.daily)
    if record.abandoned:
        ui.label(t('history.detail.abandoned_help')).classes('text-sm text-gray-700')
    return [ended, started]


def daily_line(game_id: str, day: str) -> None:
    """Which day's deal the try was, linked to that day's board."""
    with ui.row().classes('w-full gap-x-2 gap-y-0 flex-wrap items-baseline text-sm').mark('daily-line'):
        ui.label(t('history.detail.daily_help')).classes('text-gray-700')
        try:
            deal_day = date.fromisoformat(day)
        except ValueError:   # a record this release cannot read the day of: no link rather than a wrong one
            return
        ui.link(t('daily.day', date=day_text(deal_day)), routes.daily_path(game_id, day)) \
            .classes('font-semibold text-[#1f5f3a]').mark('daily-link')


def seat_name(seat: SeatResult) -> str:
    if seat.is_human:
        return t('history.detail.you', name=seat.name_or_level) if seat.name_or_level else t('history.detail.you_plain')
    return seat.name or t('history.detail.computer')


def level_cell(seat: SeatResult) -> str:
    """A computer's level as the setup page names it ("Normal"); a person, yours or another's at a
    room (recorded under their name), has none."""
    if seat.is_computer:
        return t(f'level.{seat.name_or_level}')
    return t('history.detail.person')


def players_table(seats: tuple[SeatResult, ...]) -> None:
    columns = [{'name': 'player', 'label': t('history.detail.player'), 'field': 'player', 'align': 'left'},
               {'name': 'level', 'label': t('history.detail.level'), 'field': 'level', 'align': 'left'},
               {'name': 'score', 'label': t('history.detail.score'), 'field': 'score'},
               {'name': 'place', 'label': t('history.detail.place'), 'field': 'place'}]
    rows = [{'id': index, 'player': seat_name(seat), 'score': seat.final_score, 'place': seat.placement,
             'level': level_cell(seat)}
            for index, seat in enumerate(seats)]
    ui.table(columns=columns, rows=rows, row_key='id').props('flat dense hide-bottom wrap-cells') \
        .classes('w-full').mark('players-table')


def options_list(game: GameInfo, options: dict[str, Any]) -> None:
    with ui.element('div').classes('grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm w-full'):
        for label, value in option_lines(game, options):
            ui.label(label).classes('text-gray-600')
            ui.label(value).classes('font-semibold')


def option_lines(game: GameInfo, options: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) of each option the record holds, in the words of the setup form; a value
    this release does not know is left out rather than shown raw."""
    lines: list[tuple[str, str]] = []
    if isinstance(options.get('seats'), int):
        lines.append((t('setup.seats'), str(options['seats'])))
    known = {'level': options.get('level'), 'speed': options.get('speed') if options.get('speed') in SPEEDS else None}
    for name, value in known.items():
        if isinstance(value, str) and f'{name}.{value}' in CATALOGS[current_language()]:
            lines.append((t(f'setup.{name}'), t(f'{name}.{value}')))
    if isinstance(options.get('hints'), bool):
        lines.append((t('setup.hints'), yes_no(options['hints'])))
    rules = options.get('rules') if isinstance(options.get('rules'), dict) else {}
    hands = rules.get('hands')
    if type(hands) is int and hands > 0:   # a daily deal's short format, not an option of the setup form
        lines.append((t('history.detail.length'), counted('amount.hands', hands)))
    for option in game.options:
        value = rules.get(option.name, option.default)
        if not option.allows(value):
            continue
        words = dict(zip(option.values, option.value_keys))
        lines.append((t(option.label_key), t(words[value]) if words else yes_no(value)))
    return lines


def yes_no(value: bool) -> str:
    return t('history.detail.yes') if value else t('history.detail.no')


def hands_table(seats: tuple[SeatResult, ...], hands: tuple[HandRecord, ...]) -> None:
    if not hands:
        ui.label(t('history.detail.no_hands')).classes('text-gray-700')
        return
    columns = [{'name': 'hand', 'label': '', 'field': 'hand', 'align': 'left'}] + \
              [{'name': f'seat{index}', 'label': seat_name(seat), 'field': f'seat{index}'}
               for index, seat in enumerate(seats)]
    rows = [{'hand': t('history.detail.hand', number=hand.number),
             **{f'seat{index}': hand_cell(hand, index) for index in range(len(seats))}} for hand in hands]
    ui.table(columns=columns, rows=rows, row_key='hand').props('flat dense hide-bottom') \
        .classes('w-full').mark('hands-table')


def hand_cell(hand: HandRecord, seat: int) -> str:
    if hand.points is None:
        return t('history.detail.void') if hand.void else t('history.detail.no_points')
    return str(hand.points[seat]) if seat < len(hand.points) else t('history.detail.no_points')


def seeds_list(hands: tuple[HandRecord, ...], *, held: bool = False) -> None:
    with ui.column().classes('w-full gap-2'):
        for hand in hands:
            with ui.column().classes('w-full gap-0 text-sm').mark(f'seed-{hand.number}'):
                ui.label(t('history.detail.hand', number=hand.number)).classes('font-semibold')
                for label, value in ((t('history.detail.seed'), t('history.detail.seed_held') if held else hand.seed),
                                     (t('history.detail.fingerprint'), hand.commitment)):
                    with ui.row().classes('gap-2 no-wrap items-baseline w-full'):
                        ui.label(label).classes('text-gray-600 shrink-0')
                        ui.label(value or t('history.detail.not_recorded')).classes('font-mono break-all')
