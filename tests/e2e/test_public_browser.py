"""Meeting other players in a real Chromium against its own real server: two signed-in people press
"Play people" for Chinchón and land at one table, a third browser finds it in the lobby and
watches it without ever receiving a hidden card, the game is played to its end and both ratings
move the right way and show on the ranking; a person who closes the page mid-game is played for
by a computer once their clock runs out, and the game ends; a person alone gets computers after
the wait. One server plays quick matches at instant pace, with a 3 s turn clock for the test that
watches it run out, and a 1 s reconnect window (serve.py), so each moment comes soon; the tests await it, they never sleep. An
account that closed its page mid-game and presses "Play people" again is back at its own table."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from app.lobby import PUBLIC_CLOCK

from conftest import free_port, start_server, stop_server
from table_browser import FrameWatch, post
from test_chinchon_browser import play_one_step
from test_rooms_browser import COUNT_FRAME, POLL


@pytest.fixture(scope='module')
def public_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A turn clock that no page waits out while a busy machine draws it: a rated game a computer
    stands in for before its people have played twice is aborted (app/tables/aborts.py)."""
    port = free_port()
    process = start_server(tmp_path_factory.mktemp('public'), port, HOD_TEST_QUICK_SPEED='instant',
                           HOD_TEST_PUBLIC_CLOCK='30', HOD_RECONNECT_WINDOW='1', HOD_QUICK_WAIT='600',
                           HOD_RANKING_MIN_GAMES='1', HOD_TEST_DEALS='the public tables browser test')
    yield f'http://127.0.0.1:{port}'
    stop_server(process)


@pytest.fixture
def short_clock_server(public_server: str) -> Iterator[str]:
    """The module's server with a turn clock short enough to watch run out, for the quick matches
    this test makes (serve.py's /test-public-clock); the usual one again afterwards."""
    post(f'{public_server}/test-public-clock?seconds=3')
    yield public_server
    post(f'{public_server}/test-public-clock?seconds={PUBLIC_CLOCK}')


def signed_in(browser: Browser, url: str, name: str) -> BrowserContext:
    """A browser signed in to a new account of this name (serve.py's /test-sign-up: the session as
    the register page starts it, without its form, which the account tests fill)."""
    context = browser.new_context(base_url=url, locale='es-ES')
    page = context.new_page()
    page.goto(f'/test-sign-up?name={name}')
    expect(page.get_by_role('link', name='Historial')).to_be_visible()
    page.close()
    return context


def quick_match(page: Page, game: str = 'chinchon', *, seats: int | None = None, name: str | None = None) -> str:
    """Press "Play people"; the id of the table it seats you at."""
    page.goto(f'/play/{game}')
    if seats is not None:
        page.get_by_test_id('quick-seats').click()
        page.get_by_role('option', name=f'{seats} jugadores').click()
    if name is not None:
        page.get_by_test_id('quick-card').get_by_label('El nombre con el que juegas').fill(name)
    page.get_by_test_id('quick-match').click()
    page.wait_for_url(re.compile(r'/table/'))
    return page.url.rsplit('/', 1)[1]


def rating_shown(page: Page, game: str = 'chinchon') -> int:
    page.goto(f'/ranking/{game}')
    mine = page.get_by_test_id('ranking-me')
    expect(mine).to_be_visible()
    return int(re.search(r'(\d{3,4})', mine.inner_text())[1])


def test_two_people_meet_by_quick_match_play_to_the_end_and_are_watched_from_the_lobby(
        browser: Browser, public_server: str) -> None:
    ana_context, luis_context = (signed_in(browser, public_server, name) for name in ('ana_pub', 'luis_pub'))
    ana, luis = ana_context.new_page(), luis_context.new_page()
    table_id = quick_match(ana)
    expect(ana.get_by_test_id('waiting-room')).to_be_visible()
    expect(ana.get_by_test_id('fill-countdown')).to_be_visible()
    assert quick_match(luis) == table_id           # the second person lands at the first one's table
    for page in (ana, luis):                       # full, both here: the game starts on both screens
        expect(page.get_by_test_id('table')).to_be_visible()
        expect(page.get_by_test_id('seat-rating').first).to_contain_text('1500?')
    # both make their first turn at once: a rated game whose person a computer stands in for
    # before they have played twice is aborted (app/tables/aborts.py), and this one is to be rated
    post(f'{public_server}/test-play-out?table_id={table_id}&moves=4')

    eva_context = browser.new_context(base_url=public_server, locale='es-ES')
    eva = eva_context.new_page()
    watch = FrameWatch(eva, ('discard', 'seat'))
    eva.goto('/lobby')
    row = eva.locator(f'[data-testid=lobby-row][data-table="{table_id}"]')
    expect(row).to_be_visible()
    expect(row).to_contain_text('ana_pub')
    expect(row).to_contain_text('En juego')
    row.get_by_test_id('lobby-watch').click()
    expect(eva.get_by_test_id('spectator')).to_be_visible()
    expect(eva.get_by_test_id('table')).to_be_visible()
    expect(ana.get_by_test_id('spectators')).to_contain_text('1 persona mirando')
    watch.begin()
    for _ in range(4):                             # a few decisions at a time, the spectator's frames checked
        before = eva.get_by_test_id('table').get_attribute('data-version')
        post(f'{public_server}/test-play-out?table_id={table_id}&moves=3')
        eva.wait_for_function(f"document.querySelector('[data-testid=table]').dataset.version !== '{before}'",
                              polling=POLL)
        # the count shows every hand on purpose: the frames that draw it are left out
        watch.frames[:] = [frame for frame in watch.frames if COUNT_FRAME not in frame]
        watch.check()
    assert not eva.get_by_test_id('hand-card').count()   # a spectator holds no hand
    eva_context.close()                            # her part is checked: no tab redraws the rest for her

    post(f'{public_server}/test-play-out?table_id={table_id}')
    for page in (ana, luis):   # Playwright's own polling, not a check at every frame of a whole game
        expect(page.get_by_test_id('table')).to_have_attribute('data-phase', 'over', timeout=60000)
    ana_after, luis_after = rating_shown(ana), rating_shown(luis)
    assert sorted([ana_after, luis_after])[0] < 1500 < sorted([ana_after, luis_after])[1]
    for context in (ana_context, luis_context):
        context.close()


def test_a_person_who_closes_the_page_is_played_for_when_the_clock_runs_out(browser: Browser,
                                                                            short_clock_server: str) -> None:
    public_server = short_clock_server
    ana_context = browser.new_context(base_url=public_server, locale='es-ES')
    luis_context = browser.new_context(base_url=public_server, locale='es-ES')
    ana, luis = ana_context.new_page(), luis_context.new_page()
    table_id = quick_match(ana, 'ronda-robada', name='Ana')
    assert quick_match(luis, 'ronda-robada', name='Luis') == table_id
    expect(luis.get_by_test_id('table')).to_be_visible()
    luis_context.close()                           # Luis closes his page mid-game and never comes back
    stand_in = ana.locator('[data-testid=stand-in][data-seat="1"]')
    expect(stand_in).to_be_visible(timeout=30000)  # his clock ran out: a computer plays for him
    expect(stand_in).to_have_attribute('title', re.compile('Luis'))
    post(f'{public_server}/test-play-out?table_id={table_id}')
    expect(ana.get_by_test_id('table')).to_have_attribute('data-phase', 'over', timeout=60000)
    ana_context.close()


def test_an_account_that_closed_its_page_mid_game_is_back_at_its_own_table_by_quick_match(
        browser: Browser, public_server: str) -> None:
    ana_context, luis_context = (signed_in(browser, public_server, name) for name in ('ana_back', 'luis_back'))
    ana, luis = ana_context.new_page(), luis_context.new_page()
    table_id = quick_match(ana)
    assert quick_match(luis) == table_id
    expect(ana.get_by_test_id('table')).to_be_visible()
    luis_context.close()                           # Luis's part is done: his seat is played by the play-outs
    ana.close()                                    # she closes her page mid-game; a computer plays for her
    again = ana_context.new_page()
    again.goto('/play/chinchon')
    expect(again.get_by_test_id('ongoing')).to_contain_text('Continuar partida')
    assert quick_match(again) == table_id          # "Play people" again: her own table, not a second one
    expect(again.get_by_test_id('back-to-seat')).to_contain_text('Ya tienes sitio en una mesa')
    expect(again.get_by_test_id('table')).to_be_visible()
    before = again.get_by_test_id('table').get_attribute('data-version')
    post(f'{public_server}/test-play-out?table_id={table_id}&moves=2')   # and the game goes on on her page
    again.wait_for_function(f"document.querySelector('[data-testid=table]').dataset.version !== '{before}'",
                            polling=POLL)
    ana_context.close()


def test_a_person_alone_gets_computers_after_the_wait_and_plays(browser: Browser, public_server: str) -> None:
    post(f'{public_server}/test-quick-wait?seconds=1')
    context = browser.new_context(base_url=public_server, locale='es-ES')
    page = context.new_page()
    quick_match(page, 'chinchon', seats=3, name='Sola')
    expect(page.get_by_test_id('table')).to_be_visible(timeout=30000)   # the wait is over: the deal
    expect(page.get_by_test_id('scoreboard')).to_contain_text('Lucía')   # two computers sit with you
    expect(page.get_by_test_id('scoreboard')).to_contain_text('Mateo')
    play_one_step(page)                            # and you play
    post(f'{public_server}/test-quick-wait?seconds=600')
    context.close()
