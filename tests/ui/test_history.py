"""/history as a player meets it: games recorded through `record_finished_game` show up with the
right figures, only to their owner, with plots, a filter, pages and a friendly empty state; times
on the reader's clock and in their language; any page value in the address gives a page."""
from datetime import UTC, datetime, timedelta

import pytest
from nicegui.testing import User
from people import PASSWORD, log_in, log_in_and_see_history, new_account, set_browser_clock
from seams import sees

from app.history import SeatResult, record_finished_game
from app.i18n import CATALOGS

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES, EN = CATALOGS['es'], CATALOGS['en']
START = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def browser_clock(user: User) -> None:
    """The simulated browser is in Madrid, in summer (JavaScript says -120: two hours ahead of UTC)."""
    set_browser_clock(user, -120)


def play(user_id: int, game_id: str, score: int, *, won: bool, minutes_later: int, level: str = 'hard') -> None:
    ended = START + timedelta(minutes=minutes_later)
    record_finished_game(
        user_id=user_id, game_id=game_id, options={'level': level}, started_at=ended - timedelta(minutes=12),
        ended_at=ended, hands_played=6, deal_commitments=[('a1b2', '17')],
        seats=[SeatResult('Ana', True, score, 1 if won else 2, won),
               SeatResult(level, False, 50, 2 if won else 1, not won)])


async def test_recorded_games_show_with_their_figures(user: User) -> None:
    ana = new_account('Ana')
    play(ana, 'chinchon', 12, won=True, minutes_later=0)
    play(ana, 'chinchon', 80, won=False, minutes_later=10, level='easy')
    play(ana, 'chinchon', 31, won=True, minutes_later=20)
    play(ana, 'chinchon', 45, won=False, minutes_later=30)
    play(ana, 'ronda-robada', 9, won=False, minutes_later=40)
    play(ana, 'ronda-robada', 25, won=True, minutes_later=50)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    with user.scope(marker='totals-chinchon'):
        await user.should_see(ES['game.chinchon.name'])
        for figure in ('4', '2', '50 %', '42,0', '12'):  # played, wins, win rate, average, best (lowest)
            await user.should_see(figure)
        await user.should_see(ES['history.better.lower'])
    with user.scope(marker='totals-ronda-robada'):
        for figure in ('2', '1', '50 %', '17,0', '25'):  # best is the highest here
            await user.should_see(figure)
        await user.should_see(ES['history.better.higher'])
    await user.should_not_see(marker='totals-continental')
    await user.should_see('Partidas (6)')
    assert len(user.find(marker='game-row').elements) == 6
    with user.scope(marker='game-row-0'):  # newest first
        await user.should_see(ES['game.ronda-robada.name'])
        await user.should_see('Resultado 25 · puesto 1 de 2')
        await user.should_see('1 may 2026, 22:50')   # Madrid's clock, Spanish month
        await user.should_see(ES['history.row.won'])
    for marker in ('chart-timeline', 'chart-by-game', 'chart-by-level'):
        await user.should_see(marker=marker)
    by_level = user.find(marker='chart-by-level').elements.pop().options
    assert by_level['xAxis']['data'] == ['Fácil', 'Difícil']   # as the setup page names them
    assert [bar['value'] for bar in by_level['series'][0]['data']] == [0, 60]
    timeline = user.find(marker='chart-timeline').elements.pop().options
    assert [point[1] for point in timeline['series'][0]['data']] == [12, 80, 31, 45]


async def test_another_player_does_not_see_them(user: User) -> None:
    play(new_account('Ana'), 'continental', 120, won=True, minutes_later=0)
    new_account('Bea')
    await log_in_and_see_history(user, 'Bea')
    await user.open('/history')
    await user.should_see(marker='history-empty')
    await user.should_not_see(marker='totals-continental')
    await user.should_not_see('120')


async def test_the_filter_keeps_one_game(user: User) -> None:
    ana = new_account('Ana')
    play(ana, 'chinchon', 12, won=True, minutes_later=0)
    play(ana, 'continental', 140, won=False, minutes_later=10)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    with user.scope(marker='history-head'):
        user.find(marker='game-filter').click()
        user.find(ES['game.continental.name']).click()
    await sees(user, 'Partidas (1)')
    await user.should_see(marker='totals-continental')
    await user.should_not_see(marker='totals-chinchon')
    assert user.back_history[-1] == '/history?game=continental'


async def test_history_is_paged_twenty_at_a_time(user: User) -> None:
    ana = new_account('Ana')
    for minute in range(23):
        play(ana, 'chinchon', 100 + minute, won=False, minutes_later=minute)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    await user.should_see('Partidas (23)')
    await user.should_see('Resultado 122 · puesto 2 de 2')
    await user.should_not_see('Resultado 102 · puesto 2 de 2')
    await user.open('/history?page=2')
    await user.should_see('Resultado 100 · puesto 2 de 2')
    await user.should_not_see('Resultado 122 · puesto 2 de 2')
    await user.should_see(marker='pages')


async def test_no_games_yet_gets_a_friendly_message(user: User) -> None:
    new_account('Ana')
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    await user.should_see(ES['history.empty.title'])
    await user.should_not_see(marker='chart-timeline')


async def test_history_speaks_english_too(user: User) -> None:
    user.http_client.headers['Accept-Language'] = 'en-US,en;q=0.9'
    ana = new_account('Ana')
    play(ana, 'chinchon', 12, won=True, minutes_later=0)
    play(ana, 'chinchon', 31, won=False, minutes_later=5)
    await user.open('/login')
    user.find(marker='username').type('Ana')
    user.find(marker='password').type(PASSWORD)
    user.find(marker='login-submit').click()
    await sees(user, EN['nav.history'])
    await user.open('/history')
    for text in (EN['history.chart.timeline'], EN['history.win_rate'], '50%', '21.5', 'Games (2)', 'May 1, 2026, 22:00'):
        await user.should_see(text)
    await user.should_not_see(ES['history.win_rate'])


@pytest.mark.parametrize('language, names', [('es', ['Fácil', 'Difícil', 'Niveles mezclados']),
                                             ('en', ['Easy', 'Hard', 'Mixed levels'])])
async def test_the_level_chart_names_the_levels_as_the_setup_page_does(user: User, language: str,
                                                                        names: list[str]) -> None:
    if language == 'en':
        user.http_client.headers['Accept-Language'] = 'en-US,en;q=0.9'
    ana = new_account('Ana')
    play(ana, 'chinchon', 12, won=True, minutes_later=0, level='easy')
    play(ana, 'chinchon', 31, won=False, minutes_later=5, level='hard')
    ended = START + timedelta(minutes=10)
    record_finished_game(user_id=ana, game_id='chinchon', options={}, started_at=START, ended_at=ended, hands_played=3,
                         seats=[SeatResult('Ana', True, 20, 1, True), SeatResult('easy', False, 50, 2, False),
                                SeatResult('hard', False, 60, 3, False)])
    await log_in(user, 'Ana')
    await sees(user, CATALOGS[language]['nav.history'])
    await user.open('/history')
    await user.should_see(marker='chart-by-level')
    assert user.find(marker='chart-by-level').elements.pop().options['xAxis']['data'] == names


async def test_times_are_on_the_readers_clock_and_in_their_language(user: User) -> None:
    set_browser_clock(user, -540)   # Tokyo: 20:50 UTC is 05:50 the next morning
    play(new_account('Ana'), 'chinchon', 12, won=True, minutes_later=50)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    with user.scope(marker='game-row-0'):
        await user.should_see('2 may 2026, 05:50')
    await user.should_not_see('UTC')
    await user.should_not_see('May')
    # the plot's dates are written by the browser, in its time zone and the page's language
    timeline = user.find(marker='chart-timeline').elements.pop().options
    assert timeline['series'][0]['data'][0][0] == '2026-05-01T20:50:00+00:00'
    assert 'toLocaleDateString("es"' in timeline['xAxis']['axisLabel'][':formatter']
    assert 'toLocaleString("es"' in timeline['tooltip'][':formatter']


async def test_times_stay_in_utc_and_say_so_when_the_browser_gives_no_offset(user: User) -> None:
    set_browser_clock(user, 'not an offset')   # a browser whose answer is no time zone
    play(new_account('Ana'), 'chinchon', 12, won=True, minutes_later=50)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    with user.scope(marker='game-row-0'):
        await user.should_see('1 may 2026, 20:50 (UTC)')


@pytest.mark.parametrize('value', ['²', '٣', '9' * 5000, '-2', '0', 'abc', '', '2.0', '1e3', '%00', '２'])
async def test_any_page_value_gives_the_normal_page(user: User, value: str) -> None:
    ana = new_account('Ana')
    for minute in range(23):
        play(ana, 'chinchon', 100 + minute, won=False, minutes_later=minute)
    await log_in_and_see_history(user, 'Ana')
    await user.open(f'/history?page={value}&game={value}')   # user.open fails on any status but 200
    await user.should_see('Partidas (23)')
    await user.should_see('Resultado 122 · puesto 2 de 2')   # the first page, every game
