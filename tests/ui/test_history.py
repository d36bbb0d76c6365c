"""/history as a player meets it: games recorded through `record_finished_game` show up with the
right figures, only to their owner, with plots, a filter, pages and a friendly empty state; times
on the reader's clock and in their language; any page value in the address gives a page. The daily
deal's tries, the games against computers of one level and the games with people are counted apart;
the results plot steps once per game and writes each day once."""
from datetime import UTC, datetime, timedelta

import pytest
from nicegui.testing import User
from people import PASSWORD, log_in, log_in_and_see_history, new_account, set_browser_clock
from seams import sees

from app.history import SeatResult, record_finished_game
from app.i18n import CATALOGS
from app.standings import record_rated_game
from app.tables.seats import TableOptions

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
    assert [point['value'][1] for point in timeline['series'][0]['data']] == [12, 80, 31, 45]


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


@pytest.mark.parametrize('language, names', [('es', ['Fácil', 'Difícil']), ('en', ['Easy', 'Hard'])])
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
                                SeatResult('hard', False, 60, 3, False)])   # of no one level: in no bar
    await log_in(user, 'Ana')
    await sees(user, CATALOGS[language]['nav.history'])
    await user.open('/history')
    await user.should_see(marker='chart-by-level')
    chart = user.find(marker='chart-by-level').elements.pop().options
    assert chart['xAxis']['data'] == names
    assert [bar['value'] for bar in chart['series'][0]['data']] == [100, 0]
    await user.should_see(CATALOGS[language]['history.chart.by_level_help'])


def daily_try(user_id: int, score: int, *, won: bool, minutes_later: int) -> int:
    """A try at the day's deal of Chinchón, with the options its table has (a daily day among them)."""
    ended = START + timedelta(minutes=minutes_later)
    return record_finished_game(
        user_id=user_id, game_id='chinchon', started_at=ended - timedelta(minutes=9), ended_at=ended, hands_played=5,
        options=TableOptions(seats=3, level='hard', speed='normal', hints=False, daily='2026-05-01',
                             rules={'hands': 5}).to_dict(),
        seats=[SeatResult('Ana', True, score, 1 if won else 2, won, name='Ana'),
               SeatResult('hard', False, 40, 2, False, name='Lucía'), SeatResult('hard', False, 45, 3, False, name='Mateo')])


async def test_a_daily_try_is_labelled_and_counted_apart(user: User) -> None:
    ana = new_account('Ana')
    play(ana, 'chinchon', 12, won=True, minutes_later=0)
    play(ana, 'chinchon', 80, won=False, minutes_later=10)
    record = daily_try(ana, 3, won=True, minutes_later=20)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    with user.scope(marker='totals-chinchon'):
        for figure in ('2', '1', '50 %', '46,0', '12'):   # the two ordinary games alone
            await user.should_see(figure)
    with user.scope(marker='daily-totals-chinchon'):
        for text in ('Chinchón: reparto del día', ES['history.tries'], '1', '100 %', '3,0', ES['history.daily_apart']):
            await user.should_see(text)
    timeline = user.find(marker='chart-timeline').elements.pop().options
    assert [[point['value'][1] for point in line['data']] for line in timeline['series']] == [[12, 80]]
    by_game = user.find(marker='chart-by-game').elements.pop().options
    assert [bar['name'] for bar in by_game['series'][0]['data']] == ['Chinchón (1/2)']
    await user.should_see('Partidas (3)')   # the list holds every game, the try labelled
    with user.scope(marker='game-row-0'):
        await user.should_see(ES['daily.title'])
        await user.should_see(marker='daily-badge')
    with user.scope(marker='game-row-1'):
        await user.should_not_see(marker='daily-badge')
    await user.open(f'/history/{record}')
    with user.scope(marker='summary'):
        await user.should_see(ES['daily.title'])
    with user.scope(marker='daily-line'):
        await user.should_see(ES['history.detail.daily_help'])
    link = user.find(marker='daily-link').elements.pop()
    assert (link.text, link.props['href']) == ('Reparto del 1 may 2026 (UTC)', '/daily/chinchon/2026-05-01')
    with user.scope(marker='options'):   # its short format: five hands
        await user.should_see(ES['history.detail.length'])
        await user.should_see('5 manos')


async def test_daily_tries_alone_draw_no_plot_of_ordinary_games(user: User) -> None:
    daily_try(new_account('Ana'), 3, won=True, minutes_later=0)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    await user.should_see(marker='daily-totals-chinchon')
    for marker in ('totals-chinchon', 'chart-timeline', 'chart-by-game', 'chart-by-level', 'totals-people'):
        await user.should_not_see(marker=marker)


async def test_games_against_people_have_a_figure_of_their_own_and_no_level_bar(user: User) -> None:
    user.http_client.headers['Accept-Language'] = 'en-US,en;q=0.9'
    ana, bea = new_account('Ana'), new_account('Bea')
    play(ana, 'chinchon', 12, won=True, minutes_later=0, level='easy')
    for minute, won in ((10, True), (20, False)):   # two public tables: Bea, and a computer to fill the third seat
        record_finished_game(
            user_id=ana, game_id='chinchon', options={}, started_at=START, ended_at=START + timedelta(minutes=minute),
            hands_played=4, seats=[SeatResult('Ana', True, 30, 1 if won else 2, won, name='Ana'),
                                   SeatResult('Bea', False, 60, 2 if won else 1, not won, name='Bea'),
                                   SeatResult('hard', False, 70, 3, False, name='Pablo')])
    record_rated_game(game_id='chinchon', table_id='public-1', people={0: ana, 1: bea}, computers={2: 'hard'},
                      placements=[1, 2, 3], at=START + timedelta(minutes=10))
    await log_in(user, 'Ana')
    await sees(user, EN['nav.history'])
    await user.open('/history')
    level_chart = user.find(marker='chart-by-level').elements.pop().options
    assert level_chart['xAxis']['data'] == ['Easy']   # neither Bea nor the computer that sat with her
    with user.scope(marker='totals-people'):
        await user.should_see(EN['history.people.title'])
        await user.should_see(EN['history.people.help'])
        for label, value in ((EN['history.played'], '2'), (EN['history.wins'], '1'), (EN['history.win_rate'], '50%'),
                             (EN['history.people.rated'], '1')):
            await user.should_see(label)
            await user.should_see(value)
    with user.scope(marker='totals-chinchon'):
        await user.should_see('3')   # a game at a public table is a game of Chinchón all the same
    with user.scope(marker='game-row-0'):
        await user.should_see('4 hands · against: Bea, hard')


async def test_the_results_plot_writes_each_day_once(user: User) -> None:
    set_browser_clock(user, -120)   # Madrid: 22:00 UTC on 1 May is midnight, 2 May
    ana = new_account('Ana')
    for minute in range(0, 100, 5):   # twenty games in one evening, from 20:00 to 21:35 UTC
        play(ana, 'chinchon', minute, won=False, minutes_later=minute)
    for minute in (120, 125, 130):    # three after midnight in Madrid
        play(ana, 'ronda-robada', minute, won=True, minutes_later=minute)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    with user.scope(marker='game-row-0'):
        await user.should_see('2 may 2026, 00:10')   # on Madrid's clock: the plot is drawn again by then
    timeline = user.find(marker='chart-timeline').elements.pop().options
    labels = timeline['xAxis']['data']
    assert len(labels) == 23 and [label for label in labels if label] == ['1 may', '2 may']
    assert labels.index('2 may') == 20   # under the first game of the day
    chinchon, ronda = timeline['series']
    assert [point['value'][0] for point in ronda['data']] == [20, 21, 22]   # one step per game, every game in one order
    assert ronda['data'][0]['tip'] == '2 may 2026, 00:00: <b>120</b>'


async def test_the_results_plot_names_the_year_when_the_games_span_two(user: User) -> None:
    user.http_client.headers['Accept-Language'] = 'en-US,en;q=0.9'
    ana = new_account('Ana')
    play(ana, 'chinchon', 12, won=True, minutes_later=-60 * 24 * 200)   # October 2025
    play(ana, 'chinchon', 20, won=True, minutes_later=0)
    await log_in(user, 'Ana')
    await sees(user, EN['nav.history'])
    await user.open('/history')
    with user.scope(marker='game-row-0'):
        await user.should_see('May 1, 2026, 22:00')
    assert user.find(marker='chart-timeline').elements.pop().options['xAxis']['data'] == ['Oct 13, 2025', 'May 1, 2026']


async def test_times_are_on_the_readers_clock_and_in_their_language(user: User) -> None:
    set_browser_clock(user, -540)   # Tokyo: 20:50 UTC is 05:50 the next morning
    play(new_account('Ana'), 'chinchon', 12, won=True, minutes_later=50)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    with user.scope(marker='game-row-0'):
        await user.should_see('2 may 2026, 05:50')
    await user.should_not_see('UTC')
    await user.should_not_see('May')
    # the plot's days and times too: on Tokyo's clock, in Spanish
    timeline = user.find(marker='chart-timeline').elements.pop().options
    assert timeline['xAxis']['data'] == ['2 may']
    assert timeline['series'][0]['data'][0]['tip'] == '2 may 2026, 05:50: <b>12</b>'


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
