"""The daily deal in a real Chromium against its own real server, whose wall clock starts at a
fixed noon (UTC) and moves a day on when the test says (serve.py's HOD_TEST_WALL and /test-day),
with the daily tables at instant pace: two accounts play the day's Chinchón with the same moves
and get the same game, both land on the board with a percentile, a second start shows the result,
and the next day the revealed seed hashes to the fingerprint shown at the start; no frame carried
a hidden card or the seed. Ana's game is watched whole; Luis's page is away while the computer
plays his on (serve.py's /test-autoplay-away), and back for its end."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import free_port, start_server, stop_server
from table_browser import FrameWatch, post
from test_chinchon_browser import hand, play_one_step

DAY = '2026-12-04'
DECISIONS = 3     # made by hand at both tables (the rest: a computer stands in for each, alike)
PHASE = "document.querySelector('[data-testid=table]')?.dataset.phase"


@pytest.fixture
def daily_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    process = start_server(tmp_path, port, HOD_TEST_WALL=f'{DAY}T12:00:00', HOD_TEST_DAILY_SPEED='instant',
                           HOD_TEST_DEALS='the daily browser test')
    yield f'http://127.0.0.1:{port}'
    stop_server(process)


def signed_in(browser: Browser, url: str, name: str) -> BrowserContext:
    context = browser.new_context(base_url=url, locale='es-ES')
    page = context.new_page()
    page.goto('/register')
    page.get_by_label('Nombre de usuario').fill(name)
    page.get_by_label('Contraseña', exact=True).fill('correct horse battery')
    page.get_by_label('Repite la contraseña').fill('correct horse battery')
    page.get_by_role('button', name='Crear la cuenta').click()
    page.get_by_role('button', name='Ya los he guardado: continuar').click()
    expect(page.get_by_role('link', name='Historial')).to_be_visible()
    page.close()
    return context


def start(page: Page) -> str:
    """Start today's Chinchón try from its page; returns the fingerprint it showed."""
    page.goto('/daily/chinchon')
    fingerprint = page.get_by_test_id('daily-fingerprint').inner_text()
    page.get_by_test_id('daily-start').click()
    expect(page.get_by_test_id('table')).to_be_visible()
    return fingerprint


def table_facts(page: Page) -> tuple:
    """What both tables must share after the same moves: your hand, the discard pile's top, the
    version, and every seat's card count."""
    page.wait_for_function(f"['draw','discard','count','over'].includes({PHASE})")
    return (hand(page), page.get_by_test_id('discard').get_attribute('data-card'),
            page.get_by_test_id('table').get_attribute('data-version'),
            page.get_by_test_id('seat').evaluate_all('seats => seats.map(s => s.innerText)'))


def play_to_the_end(page: Page, url: str) -> None:
    """A computer stands in for you (instant, and deterministic like every computer) and the
    server goes on after each count for you, until the game is over."""
    post(f"{url}/test-autoplay?table_id={page.url.rsplit('/', 1)[1]}&through=true")


def play_to_the_end_away(page: Page, url: str) -> None:
    """The same as ``play_to_the_end`` (the same computer stands in from the same turn), with the
    page away from the table meanwhile (serve.py holds the seat): it draws none of the game, and is
    back on the table once the game is over."""
    table = page.url
    page.goto('about:blank')
    post(f"{url}/test-autoplay-away?table_id={table.rsplit('/', 1)[1]}")
    page.goto(table)


def see_result(page: Page) -> None:
    page.wait_for_function(f"{PHASE} === 'over'", timeout=60000)
    page.get_by_test_id('daily-see-result').click()
    expect(page.get_by_test_id('daily-result')).to_be_visible()


def test_two_accounts_play_the_same_daily_and_the_day_after_shows_its_seed(browser: Browser,
                                                                          daily_server: str) -> None:
    ana_context, luis_context = (signed_in(browser, daily_server, name) for name in ('ana_daily', 'luis_daily'))
    frames: list[str] = []
    ana, luis = ana_context.new_page(), luis_context.new_page()
    for page in (ana, luis):   # a phone's window, for both (their seats must read alike): fewer pixels to paint
        page.set_viewport_size({'width': 390, 'height': 844})
    stale = ana_context.new_page()
    stale.goto('/daily/chinchon')                    # opened before Ana's try: it offers a start
    watch = FrameWatch(ana, ('hand-card', 'discard', 'seat'))
    ana.on('websocket', lambda ws: ws.on('framereceived', lambda payload: frames.append(str(payload))))

    fingerprint = start(ana)
    assert start(luis) == fingerprint and len(fingerprint) == 64
    watch.begin()
    assert table_facts(ana) == table_facts(luis)     # the same cards, dealt by the same seat
    for _ in range(DECISIONS):                       # the same moves...
        play_one_step(ana)
        play_one_step(luis)
        assert table_facts(ana) == table_facts(luis)   # ...the same computers' replies
        watch.check()

    play_to_the_end(ana, daily_server)               # watched: every frame of Ana's game is looked at
    play_to_the_end_away(luis, daily_server)
    see_result(ana)
    see_result(luis)
    ana.reload()                                     # Luis may have finished after Ana's page was drawn
    for page in (ana, luis):
        expect(page.get_by_test_id('daily-percentile')).to_have_text('50 %')   # one game, twice: a tie
        expect(page.get_by_test_id('daily-row')).to_have_count(2)
        expect(page.get_by_test_id('daily-board')).to_contain_text('ana_daily')
        expect(page.get_by_test_id('daily-board')).to_contain_text('luis_daily')
    assert ana.get_by_test_id('daily-points').inner_text() == luis.get_by_test_id('daily-points').inner_text()

    stale.get_by_test_id('daily-start').click()     # a second try: refused, the result instead
    expect(stale.get_by_text('Ya has jugado el reparto de hoy: aquí tienes tu resultado.')).to_be_visible()
    expect(stale.get_by_test_id('daily-result')).to_be_visible()
    expect(stale.get_by_test_id('daily-start')).to_have_count(0)

    while_open = list(frames)                        # every frame Ana's pages received while the day was open
    post(f'{daily_server}/test-day?days=1')
    ana.goto(f'/daily/chinchon/{DAY}')
    seed = ana.get_by_test_id('daily-seed').inner_text()
    assert ana.get_by_test_id('daily-fingerprint').inner_text() == fingerprint
    ana.get_by_test_id('daily-check').click()        # the browser hashes the seed itself
    expect(ana.get_by_test_id('daily-check-result')).to_contain_text('Coincide')
    expect(ana.get_by_test_id('daily-replay')).to_have_count(2)
    assert len(seed) == 32 and not [frame for frame in while_open if seed in frame]
