"""/daily: today's deal of every game; /daily/<game>: its start screen (the fingerprint, one try),
your try or your result, and the boards; /daily/<game>/<day>: a past day's board, its seed and its
replays; /daily/try/<id>/review/<hand>: one ranked try's replay, open once the day is over or your
own ranked try has ended. Signed out, the page is the day's practice deal (app.daily.tries), said
as such, with a way to sign in for the ranked one. Nothing of a deal is sent before it is played:
the seed stays on the server while its day is open, and the boards carry names, points and times
only. A past day's page only reads: a day that dealt nothing is the site's 404."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

from nicegui import app, ui
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request

from app import routes
from app.daily.field import MonthLine, Standing, month_board, percentile, standings, streak
from app.daily.tries import (DayDeal, close_past_days, day_deal, days_played, field_of, my_try, ranked_try_ended,
                             result_of, seconds_left_today, start_try, today, try_by_id)
from app.games import GAMES, GAMES_BY_ID, GameInfo
from app.i18n import counted, t
from app.pages.not_found import not_found_content
from app.pages.review import show_review
from app.pages.tables import table_path
from app.review.sources import table_source
from app.tables.registry import TableUnavailable, open_table
from app.tables.seats import Seat
from app.visitor import current_account, guest_token
from components import daily as parts
from components.frame import frame
from components.games import screens_of
from components.review.links import review_link, table_review_path
from models.tables import DailyTry

DAY = re.compile(r'[0-9]{4}-[0-9]{2}-[0-9]{2}')
NUMBER = re.compile(r'[0-9]{1,9}')
REPLAYS_SHOWN = 10   # a past day's board links the replays of its best tries
REFUSED_KEY = 'daily_refused'   # app.storage.user: a start refused a moment ago, for the reloaded page


def daily_games() -> list[GameInfo]:
    return [game for game in GAMES if game.daily is not None and screens_of(game.id) is not None]


def daily_path(game: GameInfo, day: date | None = None) -> str:
    return routes.daily_path(game.id, day.isoformat() if day is not None else None)


def replay_path(try_id: int, hand: int = 1) -> str:
    return f'/daily/try/{try_id}/review/{hand}'


def _viewer() -> tuple[int | None, str | None]:
    """(account id, None) when signed in, else (None, this browser's guest token): a guest's try is
    at the practice deal, so it never becomes an account's ranked one."""
    account = current_account()
    return (account.id, None) if account is not None else (None, guest_token())


def _tidy() -> None:
    """Tries left unfinished on an earlier day end now, before any board is read."""
    try:
        close_past_days()
    except SQLAlchemyError:   # the boards show what is stored; the next page tries again
        pass


def _day_standings(game: GameInfo, day: date) -> list[Standing]:
    return standings([result_of(row) for row in field_of(game, day).get(day, [])], game.better)


# /daily -----------------------------------------------------------------------------------------
def daily_page() -> None:
    _tidy()
    try:
        day, (user_id, guest) = today(), _viewer()
        streak_days = streak(days_played(user_id), day) if user_id is not None else None
        cards = [(game, _status(game, day, my_try(game, day, user_id, guest))) for game in daily_games()]
    except SQLAlchemyError:
        _unavailable()
        return
    with frame(t('daily.title')):
        _heading(t('daily.title'))
        ui.label(t('daily.intro')).classes('text-lg text-gray-700')
        _day_line(day)
        if streak_days is not None:
            parts.streak_line(streak_days)
        else:
            _practice_note('/daily')
        with ui.element('div').classes('grid gap-4 w-full grid-cols-1 md:grid-cols-3'):
            for game, (status, done) in cards:
                _game_card(game, status, done)


def _unavailable() -> None:
    """The database does not answer: say so in words, and show nothing half read."""
    with frame(t('daily.title')):
        ui.status_code(503)
        with ui.card().classes('w-full max-w-xl self-center gap-3').props('data-testid="daily-unavailable"') \
                .mark('daily-unavailable'):
            ui.label(t('daily.unavailable')).classes('text-lg')


def _heading(text: str) -> None:
    ui.label(text).classes('text-3xl font-bold mt-2').props('role=heading aria-level=1')


def _day_line(day: date) -> None:
    left = int(seconds_left_today())
    ui.label(f"{t('daily.day', date=parts.day_text(day))} · "
             f"{t('daily.next', hours=left // 3600, minutes=left % 3600 // 60)}").classes('text-gray-700') \
        .props('data-testid="daily-day"').mark('daily-day')


def _status(game: GameInfo, day: date, mine: DailyTry | None) -> tuple[str, bool]:
    """What a game's card says of your try, and whether it is over."""
    if mine is None:
        return t('daily.status.new'), False
    if mine.status == 'playing':
        return t('daily.status.playing'), False
    if mine.user_id is None:   # a practice: held against nobody
        return t('daily.status.practice_done'), True
    return t('daily.status.done', percent=parts.percent(_percentile_of(game, day, mine))), True


def _game_card(game: GameInfo, status: str, done: bool) -> None:
    with ui.card().classes('w-full gap-2').props(f'data-testid="daily-game" data-game="{game.id}"') \
            .mark(f'daily-game-{game.id}'):
        ui.label(t(game.name_key)).classes('text-2xl font-bold text-[#1f5f3a]').props('role=heading aria-level=2')
        ui.label(t(game.daily.about_key)).classes('text-gray-800')
        ui.label(status).classes('text-sm font-semibold text-gray-700').props('data-testid="daily-status"') \
            .mark('daily-status')
        ui.button(t('daily.open_board') if done else t('home.play'),
                  on_click=lambda g=game: ui.navigate.to(daily_path(g))) \
            .props(f'unelevated no-caps data-testid="daily-open-{game.id}"').classes('mt-auto self-start') \
            .mark(f'daily-open-{game.id}')


def _percentile_of(game: GameInfo, day: date, mine: DailyTry) -> float:
    lines = _day_standings(game, day)
    own = next((line for line in lines if line.result.key == mine.id), None)
    if own is not None:
        return own.percentile
    return percentile(result_of(mine), [line.result for line in lines], game.better)


# /daily/<game> ----------------------------------------------------------------------------------
def daily_game_page(game_id: str, request: Request) -> None:
    game = GAMES_BY_ID.get(game_id)
    if game is None or game not in daily_games():
        _missing()
        return
    _tidy()
    try:
        day, (user_id, guest) = today(), _viewer()
        deal = day_deal(game, day)
        mine = my_try(game, day, user_id, guest)
        lines, month = _day_standings(game, day), _month(game, day)
        yesterday = day_deal(game, day - timedelta(days=1))
    except SQLAlchemyError:
        _unavailable()
        return
    practice = user_id is None
    title = t('daily.practice.game_title' if practice else 'daily.game_title', game=t(game.name_key))
    with frame(title):
        ui.add_css(parts.DAILY_CSS)
        _heading(title)
        _day_line(day)
        ui.label(t(game.daily.about_key)).classes('text-gray-800') \
            .props('data-testid="daily-format"').mark('daily-format')
        if practice:
            _practice_note(daily_path(game))
        if app.storage.user.pop(REFUSED_KEY, None) == game.id:
            ui.label(t('daily.refused')).classes('text-amber-900 bg-amber-100 rounded px-3 py-2 font-semibold') \
                .props('data-testid="daily-refused" role=status').mark('daily-refused')
        if mine is None:
            _start_card(game, deal, practice)
        elif mine.status == 'playing':
            _under_way(mine)
        elif practice:
            _practice_result(mine)
        else:
            _result_card(game, day, mine, lines, str(request.base_url).rstrip('/') + daily_path(game))
        replays_open = not practice and mine is not None and mine.status != 'playing'
        with ui.card().classes('w-full gap-2'):
            ui.label(t('daily.board.today')).classes('text-xl font-bold').props('role=heading aria-level=2')
            parts.day_board(lines, mine=mine.id if mine else None, replay=replay_path if replays_open else None)
            if not replays_open and lines:
                ui.label(t('daily.board.replays_later')).classes('text-sm text-gray-600')
        with ui.card().classes('w-full gap-2'):
            ui.label(t('daily.board.month')).classes('text-xl font-bold').props('role=heading aria-level=2')
            parts.month_board(month, mine=user_id)
        if yesterday is not None:   # a day that dealt nothing has no page
            ui.link(t('daily.board.yesterday'), daily_path(game, yesterday.day)) \
                .classes('font-semibold text-[#1f5f3a]').props('data-testid="daily-yesterday"').mark('daily-yesterday')


def _month(game: GameInfo, day: date) -> list[MonthLine]:
    """This month's board up to ``day``: every day's field held again, the best days averaged."""
    first = day.replace(day=1)
    days = field_of(game, first, day)
    return month_board([standings([result_of(row) for row in rows], game.better) for rows in days.values()])


def _practice_note(back: str) -> None:
    """Signed out: what you play is the day's practice deal, and where the ranked one is."""
    with ui.row().classes('items-center gap-x-3 gap-y-1 bg-amber-50 rounded p-2 w-full max-w-2xl') \
            .props('data-testid="daily-practice" role=note').mark('daily-practice'):
        ui.label(t('daily.practice.tag')).classes('font-bold text-amber-900 bg-amber-200 rounded px-2')
        ui.label(t('daily.guest')).classes('text-amber-900')
        ui.link(t('daily.sign_in'), f'/login?next={back}').classes('font-semibold') \
            .props('data-testid="daily-sign-in"').mark('daily-sign-in')


def _start_card(game: GameInfo, deal: DayDeal, practice: bool) -> None:
    with ui.card().classes('w-full max-w-2xl gap-3').props('data-testid="daily-start-card"').mark('daily-start-card'):
        parts.fingerprint(deal.practice_fingerprint if practice else deal.fingerprint, practice=practice)
        ui.label(t('daily.practice.one_try' if practice else 'daily.one_try')).classes('text-gray-800')
        ui.button(t('daily.practice.start' if practice else 'daily.start'), icon='play_arrow',
                  on_click=lambda: _start(game)) \
            .props('unelevated no-caps size=lg data-testid="daily-start"').mark('daily-start')


def _start(game: GameInfo) -> None:
    account = current_account()
    person = Seat('person', name=account.display_name if account else '', guest=guest_token(),
                  user_id=account.id if account else None)
    try:
        attempt, _ = start_try(game, person)
    except TableUnavailable:
        ui.notify(t('table.unavailable'), type='negative')
        return
    if attempt.status == 'playing':
        ui.navigate.to(table_path(attempt.table_id))
        return
    app.storage.user[REFUSED_KEY] = game.id   # a page opened before your try: the reloaded one says why
    ui.navigate.reload()


def _under_way(mine: DailyTry) -> None:
    with ui.card().classes('w-full max-w-2xl gap-3').props('data-testid="daily-under-way"').mark('daily-under-way'):
        ui.label(t('daily.in_progress')).classes('text-lg')
        ui.button(t('daily.resume'), icon='play_arrow', on_click=lambda: ui.navigate.to(table_path(mine.table_id))) \
            .props('unelevated no-caps size=lg data-testid="daily-resume"').mark('daily-resume')


def _result_card(game: GameInfo, day: date, mine: DailyTry, lines: list[Standing], url: str) -> None:
    own = next((line for line in lines if line.result.key == mine.id), None)
    others = [line.result for line in lines if line.result.key != mine.id]
    value = own.percentile if own is not None else percentile(result_of(mine), others, game.better)
    with ui.card().classes('w-full max-w-2xl gap-3').props('data-testid="daily-result"').mark('daily-result'):
        ui.label(t('daily.result')).classes('text-2xl font-bold').props('role=heading aria-level=2')
        with ui.row().classes('gap-8 items-end'):
            _figure(t('daily.points'), str(mine.points or 0), 'daily-points')
            _figure(t('daily.percentile'), parts.percent(value), 'daily-percentile')
        if own is not None:
            ui.label(t('daily.rank', rank=own.rank, count=len(lines))) \
                .props('data-testid="daily-rank"').mark('daily-rank')
        ui.label(counted('daily.beat', len(others), value=round(value)) if others else t('daily.alone')) \
            .classes('text-gray-700')
        if mine.status == 'unfinished':
            ui.label(t('daily.unfinished_note')).classes('text-amber-900')
        ui.label(t('daily.histogram')).classes('font-semibold')
        field = [line.percentile for line in lines] + ([] if own is not None else [value])   # a guest: marked too
        ui.html(parts.histogram_html(field, value), sanitize=False).classes('w-full max-w-md')
        if mine.status == 'finished':
            review_link(table_review_path(mine.table_id, 1), t('daily.review')).classes('self-start')
        parts.share_button(parts.share_text(t(game.name_key), day, value, url))


def _practice_result(mine: DailyTry) -> None:
    """A practice's end: its points, held against nobody (the ranked field played another deal)."""
    with ui.card().classes('w-full max-w-2xl gap-3').props('data-testid="daily-result"').mark('daily-result'):
        ui.label(t('daily.practice.result')).classes('text-2xl font-bold').props('role=heading aria-level=2')
        _figure(t('daily.points'), str(mine.points or 0), 'daily-points')
        ui.label(t('daily.guest_rank')).classes('text-gray-700').props('data-testid="daily-rank"').mark('daily-rank')
        if mine.status == 'finished':
            review_link(table_review_path(mine.table_id, 1), t('daily.review')).classes('self-start')


def _figure(label: str, value: str, testid: str) -> None:
    with ui.column().classes('gap-0'):
        ui.label(label).classes('text-sm text-gray-600')
        ui.label(value).classes('text-4xl font-bold text-[#1f5f3a]').props(f'data-testid="{testid}"').mark(testid)


# /daily/<game>/<day> ----------------------------------------------------------------------------
def daily_day_page(game_id: str, day: str, request: Request) -> None:
    game = GAMES_BY_ID.get(game_id)
    when = _day_of(day)
    if game is None or game not in daily_games() or when is None or when > today():
        _missing()
        return
    _tidy()
    try:
        deal = day_deal(game, when)   # an earlier day's is read, never made
        lines = _day_standings(game, when) if deal is not None else []
    except SQLAlchemyError:
        _unavailable()
        return
    if deal is None:
        not_found_content(request.url.path)
        return
    title = t('daily.past_title', game=t(game.name_key), date=parts.day_text(when))
    with frame(title):
        ui.add_css(parts.DAILY_CSS)
        _heading(title)
        ui.label(t(game.daily.about_key)).classes('text-gray-800')
        with ui.card().classes('w-full max-w-2xl gap-3'):
            parts.fingerprint(deal.fingerprint, over=deal.over)
            if deal.over:
                parts.seed_check(deal.seed, deal.fingerprint)
            else:
                ui.label(t('daily.still_open')).classes('text-amber-900') \
                    .props('data-testid="daily-still-open"').mark('daily-still-open')
        if deal.over:   # the guests' deal of that day, checked the same way
            with ui.card().classes('w-full max-w-2xl gap-3').mark('daily-practice-check'):
                parts.fingerprint(deal.practice_fingerprint, practice=True, over=True)
                parts.seed_check(deal.practice_seed, deal.practice_fingerprint, practice=True)
        with ui.card().classes('w-full gap-2'):
            ui.label(t('daily.board.day')).classes('text-xl font-bold').props('role=heading aria-level=2')
            top = {line.result.key for line in lines[:REPLAYS_SHOWN]}
            parts.day_board(lines, mine=None, replay=(lambda key: replay_path(key) if key in top else '')
                            if deal.over else None, over=deal.over)
        ui.link(t('daily.title'), daily_path(game)).classes('font-semibold text-[#1f5f3a]')


def _day_of(text: str) -> date | None:
    try:
        return date.fromisoformat(text) if DAY.fullmatch(text) else None
    except ValueError:
        return None


def _missing() -> None:
    with frame(t('daily.title')):
        ui.status_code(404)
        with ui.card().classes('w-full max-w-xl self-center gap-3').props('data-testid="daily-missing"') \
                .mark('daily-missing'):
            ui.label(t('daily.missing')).classes('text-lg')
            ui.link(t('daily.title'), '/daily').classes('font-semibold')


# /daily/try/<id>/review/<hand> ------------------------------------------------------------------
def daily_replay_page(try_id: str, hand: str) -> None:
    try:
        row = try_by_id(int(try_id)) if NUMBER.fullmatch(try_id) else None
        game = GAMES_BY_ID.get(row.game_id) if row is not None else None
        allowed = row is not None and game is not None and row.status == 'finished' and _may_replay(game, row)
    except SQLAlchemyError:
        _unavailable()
        return
    source = None
    if allowed:
        table = open_table(row.table_id)
        if table is not None:
            seat = table.person_seats()[0]
            source = table_source(table, seat)
            user_id, guest = _viewer()
            if source is not None and not table.seats[seat].belongs_to(guest, user_id):   # someone else's try
                source = replace(source, names=tuple(row.name if name is None else name for name in source.names))
    name = t(game.name_key) if game is not None else t('review.title_plain')
    show_review(source, hand, name,
                back=(t('daily.board.day'), daily_path(game, row.day)) if source is not None else None,
                path=lambda number: replay_path(row.id, number), playing=False,
                refusal='daily.replay_locked' if row is not None and source is None else None)


def _may_replay(game: GameInfo, row: DailyTry) -> bool:
    """A ranked try's replay shows the day's cards: once the day is over, or once your own ranked
    try has ended (a practice finished opens none). A practice try has no replay here: the board
    links ranked tries only, and your own is reviewed at its table."""
    if row.user_id is None:
        return False
    return row.day < today() or ranked_try_ended(game, row.day, _viewer()[0])


def register_daily_pages() -> None:
    ui.page('/daily')(daily_page)
    ui.page('/daily/try/{try_id}/review/{hand}')(daily_replay_page)
    ui.page('/daily/{game_id}')(daily_game_page)
    ui.page('/daily/{game_id}/{day}')(daily_day_page)
