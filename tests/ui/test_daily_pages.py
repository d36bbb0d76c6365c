"""The daily deal's pages through NiceGUI's simulated user: the start screen shows the fingerprint
and never the seed, a try goes to its table and comes back as the result, a second start shows the
result instead, the boards, the replays that open only once your own ranked try is over or the day
is, a guest's practice deal, the hand seeds a daily table holds back until the day is over, and the
past day's revealed seed (a past day is read, never made)."""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from nicegui.testing import User
from sqlmodel import select
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
from models.tables import DailyDeal, DailyTry, PlayedGame

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
    """Signed out, the page is the day's practice: its own fingerprint, said as such, a way to sign
    in for the ranked deal, and a table tagged as the practice."""
    await user.open('/daily/chinchon')
    fingerprint = one(user, 'daily-practice-fingerprint').text
    seed = seed_of_today()
    assert fingerprint == commitment(tries.practice_seed(seed)) != commitment(seed)
    await user.should_not_see(seed)
    for path in ('/daily/chinchon', '/daily', f'/daily/chinchon/{tries.today().isoformat()}'):
        text = (await user.http_client.get(path)).text
        assert seed not in text and tries.practice_seed(seed) not in text
    await user.should_see(ES['daily.practice.game_title'].format(game='Chinchón'))
    await user.should_see(ES['daily.guest'])
    await user.should_see(ES['daily.practice.start'])
    await user.should_see(ES['daily.practice.one_try'])   # a practice is on no board: nothing said of its scoring
    await user.should_not_see(ES['daily.one_try'])
    assert user.find(marker='daily-sign-in').elements.pop().props['href'] == '/login?next=/daily/chinchon'
    user.find(marker='daily-start').click()
    await sees(user, marker='table-top')
    top = one(user, 'table-top').content
    assert ES['daily.practice.table_tag'] in top and 'Mano 1 de 5' in top
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


async def test_replays_of_today_open_once_your_own_ranked_try_is_finished(user: User) -> None:
    """A practice finished opens nothing: the ranked tries' replays show the ranked deal, so they
    wait for your own ranked try's end (or the day's)."""
    luis = await finish_try_of('Luis')

    async def locked() -> bool:
        response = await user.http_client.get(f'/daily/try/{luis}/review/1')
        return response.status_code == 404 and ES['daily.replay_locked'] in response.text

    assert await locked()
    await user.open('/daily/chinchon')
    user.find(marker='daily-start').click()
    await sees(user, marker='table-top')
    practice = tries.my_try(CHINCHON, tries.today(), None, _guest_of(user))
    await play_out(registry.open_table(practice.table_id))
    assert await locked()                           # the guest's practice is over: still closed
    await user.open('/daily/chinchon')
    await user.should_see(ES['daily.board.replays_later'])
    assert 'data-testid="daily-replay"' not in one(user, 'daily-board').content
    ana = await register_and_log_in(user, 'Ana')
    attempt, _ = tries.start_try(CHINCHON, Seat('person', name='Ana', guest=_guest_of(user), user_id=ana))
    assert await locked()                           # Ana's ranked try is under way: still closed
    await play_out(registry.open_table(attempt.table_id))
    await user.open(f'/daily/try/{luis}/review/1')
    await sees(user, marker='review-title')
    await user.should_see('Luis')                   # someone else's try: their name, not "you"
    practice_replay = await user.http_client.get(f'/daily/try/{practice.id}/review/1')
    assert practice_replay.status_code == 404      # a practice has no replay on the daily pages


def _guest_of(user: User) -> str:
    from nicegui import app

    from app.visitor import GUEST_KEY
    return app.storage.user[GUEST_KEY]


async def test_the_day_after_the_seed_is_shown_and_checks_against_the_fingerprint(user: User, clock) -> None:
    luis = await finish_try_of('Luis')
    day = tries.today()
    await user.open('/daily/chinchon')
    practice = one(user, 'daily-practice-fingerprint').text
    await user.open(f'/daily/chinchon/{day.isoformat()}')
    fingerprint = one(user, 'daily-fingerprint').text
    await user.should_see(marker='daily-still-open')
    await user.should_not_see(marker='daily-practice-seed')
    await clock.advance(tries.seconds_left_today() + 1)
    await user.open(f'/daily/chinchon/{day.isoformat()}')
    seed = one(user, 'daily-seed').text
    assert commitment(seed) == fingerprint == one(user, 'daily-fingerprint').text
    practice_seed = one(user, 'daily-practice-seed').text     # the guests' deal, checked the same way
    assert practice_seed == tries.practice_seed(seed) and commitment(practice_seed) == practice
    assert 'Luis' in one(user, 'daily-board').content
    await user.open(f'/daily/try/{luis}/review/1')  # the day is over: anybody may replay it
    await sees(user, marker='review-title')
    await user.open('/daily/chinchon')
    assert one(user, 'daily-practice-fingerprint').text != practice   # a new day, a new deal
    await user.should_see(marker='daily-yesterday')  # yesterday dealt: its page is linked
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


async def test_signing_in_where_you_played_the_practice_offers_the_ranked_deal(user: User) -> None:
    """The practice was another deal, so it was no look at the ranked cards: signed in, the page
    offers the ranked try, untouched, and the practice stays the browser's unranked one."""
    await user.open('/daily/chinchon')
    user.find(marker='daily-start').click()
    await sees(user, marker='table-top')
    guest_try = tries.my_try(CHINCHON, tries.today(), None, _guest_of(user))
    ana = await register_and_log_in(user, 'Ana')
    await user.open('/daily/chinchon')
    await user.should_see(ES['daily.game_title'].format(game='Chinchón'))
    await user.should_see(marker='daily-start')
    await user.should_not_see(marker='daily-practice')
    assert one(user, 'daily-fingerprint').text == commitment(seed_of_today())
    user.find(marker='daily-start').click()
    await sees(user, marker='table-top')
    attempt = tries.my_try(CHINCHON, tries.today(), ana, None)
    assert attempt.id != guest_try.id and attempt.user_id == ana
    assert ES['daily.table_tag'] in one(user, 'table-top').content
    assert tries.my_try(CHINCHON, tries.today(), None, _guest_of(user)).id == guest_try.id


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


async def test_a_daily_table_and_its_record_show_no_hand_seed_before_the_day_ends(user: User, clock) -> None:
    """A finished hand's seed is its whole deck, and every try of the day is dealt the same hands:
    the table's fair-deal box and the account's record show the fingerprints only, and the seeds
    from the next day (UTC), when they check against them."""
    ana = await register_and_log_in(user, 'Ana')
    attempt, _ = tries.start_try(CHINCHON, Seat('person', name='Ana', guest='ana-browser-0123456789', user_id=ana))
    table = registry.open_table(attempt.table_id)
    await play_out(table)
    table.flush()
    deals = table.view(0).past_deals
    with session_scope() as session:
        record = session.exec(select(PlayedGame.id).where(PlayedGame.user_id == ana)).one()
    for path, marker in ((f'/table/{attempt.table_id}', 'fair-deals'), (f'/history/{record}', 'seeds')):
        await user.open(path)
        await sees(user, marker=marker)
        for deal in deals:
            await user.should_not_see(deal.seed)
            assert deal.seed not in (await user.http_client.get(path)).text
        await user.should_see(deal.commitment)
        await user.should_see(ES['fair.seed_held'] if marker == 'fair-deals' else ES['history.detail.seed_held'])
    assert exported_seeds(ana, record) == ([None] * 5, [''] * 5)    # nor the history's files
    await clock.advance(tries.seconds_left_today() + 1)
    assert exported_seeds(ana, record) == ([deal.seed for deal in deals],) * 2
    for path, marker in ((f'/table/{attempt.table_id}', 'fair-deals'), (f'/history/{record}', 'seeds')):
        await user.open(path)
        await sees(user, marker=marker)
        for deal in deals[-1:] if marker == 'fair-deals' else deals:
            await user.should_see(deal.seed)


def exported_seeds(user_id: int, record: int) -> tuple[list, list]:
    """The hands' seeds of a record as the JSON and the CSV exports write them."""
    from app import export, history
    detail = history.game_detail(user_id=user_id, record_id=record)
    column = export.header('es').index(ES['export.col.seed'])
    return ([hand['seed'] for hand in export.game_json(detail)['hands']],
            [row[column] for row in export.game_rows(detail, 'es')])


async def test_a_past_day_that_dealt_nothing_is_the_sites_404_and_writes_nothing(user: User, database) -> None:
    def rows() -> tuple[int, int]:
        with session_scope() as session:
            return (len(session.exec(select(DailyDeal)).all()), len(session.exec(select(DailyTry)).all()))

    before = rows()
    for day in (tries.today() - timedelta(days=1), date(2020, 1, 1), date(1, 1, 1)):
        for game in ('chinchon', 'ronda-robada', 'continental'):
            response = await user.http_client.get(f'/daily/{game}/{day.isoformat()}')
            assert response.status_code == 404 and ES['not_found.title'] in response.text, (game, day)
    assert rows() == before == (0, 0)
    await user.open('/daily/chinchon')              # today's page still makes today's deal
    assert rows() == (1, 0)
    await user.should_not_see(marker='daily-yesterday')   # and links no day that dealt nothing
    today = await user.http_client.get(f'/daily/chinchon/{tries.today().isoformat()}')
    assert today.status_code == 200 and rows() == (1, 0)
