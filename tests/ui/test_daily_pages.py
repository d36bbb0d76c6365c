"""The daily deal's pages through NiceGUI's simulated user: the start screen shows the fingerprint
and never the seed, a try goes to its table and comes back as the result, a second start shows the
result instead, the boards, the replays that open only once your own try is over or the day is,
and the past day's revealed seed."""
from __future__ import annotations

from datetime import timedelta

import pytest
from nicegui.testing import User
from people import new_account, register_and_log_in, set_browser_clock
from screen import one
from seams import sees
from test_daily import play_out

from app.daily import tries
from app.engine.cards import commitment
from app.games import GAMES_BY_ID
from app.i18n import CATALOGS
from app.tables import registry
from app.tables.seats import Seat
from models.db import session_scope
from models.tables import DailyDeal

pytestmark = pytest.mark.usefixtures('fresh_accounts')

CHINCHON = GAMES_BY_ID['chinchon']
ES = CATALOGS['es']


@pytest.fixture(autouse=True)
def browser_clock(user: User) -> None:
    set_browser_clock(user, 0)


def seed_of_today() -> str:
    with session_scope() as session:
        return session.get(DailyDeal, ('chinchon', tries.today())).seed


async def finish_try_of(name: str) -> int:
    """Another account plays today's Chinchón to its end; returns its try's id."""
    user_id = new_account(name)
    attempt, _ = tries.start_try(CHINCHON, Seat('person', name=name, guest=f'{name}-browser-0123456789',
                                                user_id=user_id))
    await play_out(registry.open_table(attempt.table_id))
    return attempt.id


async def test_the_daily_page_lists_every_games_deal(user: User) -> None:
    await user.open('/daily')
    await user.should_see(ES['daily.title'])
    for game in ('chinchon', 'ronda-robada', 'continental'):
        with user.scope(marker=f'daily-game-{game}'):
            await user.should_see(ES['daily.status.new'])
    await user.open('/')
    user.find(marker='home-daily').click()
    await sees(user, marker='daily-game-chinchon')


async def test_the_start_shows_the_fingerprint_never_the_seed_and_plays_at_the_table(user: User) -> None:
    await user.open('/daily/chinchon')
    fingerprint = one(user, 'daily-fingerprint').text
    seed = seed_of_today()
    assert fingerprint == commitment(seed)
    await user.should_not_see(seed)
    for path in ('/daily/chinchon', '/daily', f'/daily/chinchon/{tries.today().isoformat()}'):
        assert seed not in (await user.http_client.get(path)).text
    await user.should_see(ES['daily.guest'])
    user.find(marker='daily-start').click()
    await sees(user, marker='table-top')
    top = one(user, 'table-top').content
    assert ES['daily.table_tag'] in top and 'Mano 1 de 5' in top
    await user.should_not_see(marker='new-game')    # one try: nothing offers another game here
    await user.open('/daily/chinchon')
    await user.should_see(marker='daily-resume')     # leaving and coming back resumes it
    await user.should_not_see(marker='daily-start')


async def test_a_finished_try_shows_its_result_and_a_second_start_is_refused(user: User) -> None:
    ana = await register_and_log_in(user, 'Ana')
    await finish_try_of('Luis')
    await user.open('/daily/chinchon')
    start = user.find(marker='daily-start')          # this page was opened before Ana's try...
    attempt, _ = tries.start_try(CHINCHON, Seat('person', name='Ana', guest='ana-other-tab-0123456789', user_id=ana))
    table = registry.open_table(attempt.table_id)
    await play_out(table)                            # ...which another tab played to its end
    start.click()
    await sees(user, ES['daily.refused'])
    await sees(user, marker='daily-result')
    assert one(user, 'daily-points').text == str(table.state.outcome().scores[0])
    assert one(user, 'daily-percentile').text == '50 %'   # the same deal and moves as Luis's: a tie
    board = one(user, 'daily-board').content
    assert board.count('data-testid="daily-row"') == 2 and 'Ana' in board and 'Luis' in board
    assert 'data-testid="daily-replay"' in board     # your try is over: today's replays are open to you
    share = one(user, 'daily-share-text').text
    assert 'Percentil 50 %' in share and '■■■■■□□□□□' in share and '/daily/chinchon' in share
    await user.should_not_see(marker='daily-start')
    last = len(table.view(0).past_deals)
    await user.open(f'/table/{attempt.table_id}/review/{last}')   # the coach's review of your last hand
    await sees(user, marker='review-title')
    assert one(user, 'review-title').text.startswith(f'Revisión de la mano {last}')


async def test_replays_of_today_open_once_your_own_try_is_finished(user: User) -> None:
    luis = await finish_try_of('Luis')
    locked = await user.http_client.get(f'/daily/try/{luis}/review/1')
    assert locked.status_code == 404 and ES['daily.replay_locked'] in locked.text
    await user.open('/daily/chinchon')
    user.find(marker='daily-start').click()
    await sees(user, marker='table-top')
    mine = tries.my_try(CHINCHON, tries.today(), None, _guest_of(user))
    await play_out(registry.open_table(mine.table_id))
    await user.open(f'/daily/try/{luis}/review/1')
    await sees(user, marker='review-title')
    await user.should_see('Luis')                   # someone else's try: their name, not "you"


def _guest_of(user: User) -> str:
    from nicegui import app

    from app.visitor import GUEST_KEY
    return app.storage.user[GUEST_KEY]


async def test_the_day_after_the_seed_is_shown_and_checks_against_the_fingerprint(user: User, clock) -> None:
    luis = await finish_try_of('Luis')
    day = tries.today()
    await user.open('/daily/chinchon')
    fingerprint = one(user, 'daily-fingerprint').text
    await user.open(f'/daily/chinchon/{day.isoformat()}')
    await user.should_see(marker='daily-still-open')
    await clock.advance(tries.seconds_left_today() + 1)
    await user.open(f'/daily/chinchon/{day.isoformat()}')
    seed = one(user, 'daily-seed').text
    assert commitment(seed) == fingerprint == one(user, 'daily-fingerprint').text
    assert 'Luis' in one(user, 'daily-board').content
    await user.open(f'/daily/try/{luis}/review/1')  # the day is over: anybody may replay it
    await sees(user, marker='review-title')
    await user.open('/daily/chinchon')
    assert one(user, 'daily-fingerprint').text != fingerprint   # a new day, a new deal
    await user.should_see(marker='daily-start')
    future = await user.http_client.get(f'/daily/chinchon/{(day + timedelta(days=2)).isoformat()}')
    assert future.status_code == 404 and ES['daily.missing'] in future.text   # no deal from the future


async def test_unknown_games_days_and_tries_say_so(user: User) -> None:
    cases = [('/daily/mus', 'daily.missing'), ('/daily/chinchon/2026-13-01', 'daily.missing'),
             ('/daily/chinchon/yesterday', 'daily.missing'), ('/daily/try/x/review/1', 'review.not_yours'),
             ('/daily/try/99999/review/1', 'review.not_yours')]
    for path, key in cases:
        response = await user.http_client.get(path)
        assert response.status_code == 404 and ES[key] in response.text, path


async def test_signing_in_where_you_played_as_a_guest_makes_that_try_your_accounts(user: User) -> None:
    """A guest's look at the day's cards is no free rehearsal for a ranked try."""
    await user.open('/daily/chinchon')
    user.find(marker='daily-start').click()
    await sees(user, marker='table-top')
    guest_try = tries.my_try(CHINCHON, tries.today(), None, _guest_of(user))
    ana = await register_and_log_in(user, 'Ana')
    await user.open('/daily/chinchon')
    await user.should_see(marker='daily-resume')
    await user.should_not_see(marker='daily-start')
    attempt, new = tries.start_try(CHINCHON, Seat('person', name='Ana', guest=_guest_of(user), user_id=ana))
    assert (attempt.id, attempt.user_id, attempt.name, new) == (guest_try.id, ana, 'Ana', False)


async def test_a_database_fault_is_said_in_words_and_shows_nothing_half_read(user: User, monkeypatch) -> None:
    from sqlalchemy.exc import OperationalError

    import app.pages.daily as pages

    def down(*args, **kwargs):
        raise OperationalError('SELECT', {}, Exception('the database is down'))

    monkeypatch.setattr(pages, 'my_try', down)
    monkeypatch.setattr(pages, 'try_by_id', down)
    for path in ('/daily', '/daily/chinchon', '/daily/try/1/review/1'):
        response = await user.http_client.get(path)
        assert response.status_code == 503 and ES['daily.unavailable'] in response.text, path
        assert 'daily-start' not in response.text and 'daily-board' not in response.text
