"""Tables as shared objects, in a real Chromium: two tabs show one game, a click from an
out-of-date screen is refused, and a table survives the server being killed mid-hand."""
from __future__ import annotations

import signal
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from conftest import free_port, start_server, stop_server
from table_browser import saved
from test_chinchon_browser import hand, phase, reach_my_move, start_game

VERSION = "() => Number(document.querySelector('[data-testid=table]').dataset.version)"


def test_two_tabs_show_one_table_and_an_out_of_date_click_is_refused(page: Page) -> None:
    start_game(page)
    assert reach_my_move(page) == 'draw'
    other = page.context.new_page()               # a second tab of the same browser
    other.goto(page.url)
    expect(other.get_by_test_id('table')).to_have_attribute('data-phase', 'draw')
    assert hand(other) == hand(page)
    seen = other.evaluate(VERSION)

    page.get_by_test_id('stock').click()
    expect(other.get_by_test_id('table')).to_have_attribute('data-phase', 'discard', timeout=1000)
    assert len(hand(other)) == 8 and hand(other) == hand(page)

    # the second tab clicks as if it still showed the table before the draw
    before = (hand(page), page.get_by_test_id('discard').get_attribute('data-card'), page.evaluate(VERSION))
    other.get_by_test_id('hand-card').first.click()
    other.evaluate(f"document.querySelector('[data-testid=table]').dataset.version = '{seen}'")
    other.get_by_test_id('discard-button').click()
    expect(other.get_by_test_id('notice')).to_have_text(
        'La mesa ha cambiado desde que la viste: mira la jugada nueva y vuelve a intentarlo.')
    page.wait_for_timeout(300)
    assert (hand(page), page.get_by_test_id('discard').get_attribute('data-card'), page.evaluate(VERSION)) == before
    assert phase(page) == 'discard'
    other.close()


def test_a_table_comes_back_after_the_server_is_killed_mid_hand(browser: Browser) -> None:
    data, port = Path(tempfile.mkdtemp(prefix='hod-kill-')), free_port()
    server = start_server(data, port)
    context = browser.new_context(base_url=f'http://127.0.0.1:{port}', locale='es-ES')
    try:
        page = context.new_page()
        start_game(page)
        assert reach_my_move(page) == 'draw'
        page.get_by_test_id('stock').click()
        expect(page.get_by_test_id('table')).to_have_attribute('data-phase', 'discard')
        cards, top, version = hand(page), page.get_by_test_id('discard').get_attribute('data-card'), page.evaluate(VERSION)
        address = page.url
        saved(page, version)
        page.close()   # while the server is up: a page whose server is gone may never close
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)

        server = start_server(data, port)
        page = context.new_page()
        page.goto(address)                         # the table's address, in a fresh page load
        expect(page.get_by_test_id('table')).to_have_attribute('data-phase', 'discard', timeout=15000)
        assert hand(page) == cards
        assert page.get_by_test_id('discard').get_attribute('data-card') == top
        assert page.evaluate(VERSION) == version
        page.goto('/')                             # and the home page offers to resume it
        page.get_by_role('button', name='Continuar partida').click()
        expect(page.get_by_test_id('table')).to_have_attribute('data-phase', 'discard')
        assert hand(page) == cards
    finally:
        context.close()
        stop_server(server)
