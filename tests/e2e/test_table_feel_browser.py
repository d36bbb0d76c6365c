"""How the table feels in a real Chromium: nothing moves while the computers play, cards travel
(unless you asked the system for less motion, or play at instant speed), and on a phone the count
keeps "Siguiente mano" in reach and the hand log opens as a sheet."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from table_browser import people_play
from test_chinchon_browser import hand, phase, play_one_step, start_game, wait_for_my_decision

# every change of the page: where your hand and the stock are (page coordinates, so scrolling
# does not count), what the seats show (their whole markup: a turn or a card count that moves on
# keeps the length), and the phase
WATCH_LAYOUT = """() => {
  window.__layout = [];
  const where = (selector) => { const el = document.querySelector(selector);
    return el ? Math.round(el.getBoundingClientRect().top + window.scrollY) : null; };
  window.__watch?.disconnect();   // one watch at a time: the last turn's ends here
  window.__watch = new MutationObserver(() => window.__layout.push({
    phase: document.querySelector('[data-testid=table]')?.dataset.phase,
    hand: where('[data-testid=hand-card]'), stock: where('[data-testid=stock]'),
    seats: document.querySelector('[data-testid=seat]')?.parentElement.innerHTML,
  }));
  window.__watch.observe(document.body, {subtree: true, childList: true, attributes: true});
}"""

# every card travel the page starts (Element.animate with a translation)
COUNT_TRAVELS = """window.__travels = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  if (JSON.stringify(frames).includes('translate')) window.__travels += 1;
  return animate.call(this, frames, options);
};"""


@pytest.fixture(scope='module')
def shared_page(browser: Browser, base_url: str) -> Page:
    """One tab for the whole module (a fresh context and page cost more than the page loads each
    test makes anyway: every test deals a new game of its own), counting its card travels."""
    context = browser.new_context(base_url=base_url, locale='es-ES')
    tab = context.new_page()
    tab.add_init_script(COUNT_TRAVELS)
    yield tab
    context.close()


@pytest.fixture
def page(shared_page: Page) -> Page:
    """The module's tab, at the default window size and motion again for each test."""
    shared_page.set_viewport_size({'width': 1280, 'height': 720})
    shared_page.emulate_media(reduced_motion='no-preference')
    return shared_page


def discard_last_card(page: Page) -> None:
    before = len(hand(page))
    page.get_by_test_id('hand-card').last.click()
    page.get_by_test_id('discard-button').click()
    page.wait_for_function(f"document.querySelectorAll('[data-testid=hand-card]').length !== {before}"
                           " || document.querySelector('[data-testid=table]').dataset.phase !== 'discard'")


def reach_my_draw(page: Page, **deal) -> None:
    """Play on to a turn of yours at its draw. A computer's chinchón can end the game before you
    have moved (about one deal in seventy): then deal again with the same options."""
    while (current := wait_for_my_decision(page)) != 'draw':
        if current == 'over':
            start_game(page, **deal)
        else:
            play_one_step(page)


def my_turn_by_the_stock(page: Page, before_discard: str = '', **deal) -> None:
    """Reach a turn of yours, draw from the stock and discard the last card (running the script
    `before_discard` in the page just before, so a watch misses none of the computers' moves)."""
    reach_my_draw(page, **deal)
    page.get_by_test_id('stock').click()
    page.wait_for_function("document.querySelector('[data-testid=table]').dataset.phase === 'discard'")
    if before_discard:
        page.evaluate(before_discard)
    discard_last_card(page)


def watch_the_computers_play(page: Page, **deal) -> list[dict]:
    """The page's changes, from your discard to your next draw, while the computers play. A turn
    that ends in a count instead (a computer closed: the count rightly redraws the table) is
    watched again on the next hand."""
    for _ in range(5):
        my_turn_by_the_stock(page, before_discard=WATCH_LAYOUT, **deal)
        page.wait_for_function("['draw', 'count', 'over'].includes(document.querySelector("
                               "'[data-testid=table]').dataset.phase)", timeout=30000)
        if phase(page) == 'draw':
            seen = page.evaluate('() => { window.__watch.disconnect(); return window.__layout; }')
            return [entry for entry in seen if entry['phase'] == 'wait']
    pytest.fail('five turns in a row ended in a count before your next draw')


def test_nothing_moves_while_the_computers_take_and_discard_cards(page: Page) -> None:
    """At 1280 px, then at 390 px: one game for both widths, the window narrowed between two of
    your turns (the second turn is watched as the first); from a hand just dealt at your draw
    (serve.py's position), at the computers' fast speed."""
    page.goto('/test-table?position=your-draw-4')
    for width in (1280, 390):
        page.set_viewport_size({'width': width, 'height': 900})
        seen = watch_the_computers_play(page, seats=4, speed='Rápida')
        assert len({entry['seats'] for entry in seen}) >= 3, f'the computers\' moves did not change the seats at {width} px'
        moves = [(entry['hand'], entry['stock']) for entry in seen]
        changes = [where for n, where in enumerate(moves) if n == 0 or where != moves[n - 1]]
        assert len(changes) == 1, f'your hand or the piles moved while the computers played at {width} px: {changes}'


def travels_in_one_turn(page: Page, speed: str, motion: str) -> int:
    """The card travels of one turn of yours and the two computers' after it, with this motion
    preference, on the game at the screen (a new one if it has ended)."""
    page.emulate_media(reduced_motion=motion)
    reach_my_draw(page, seats=3, speed=speed)
    before = page.evaluate('() => window.__travels')   # a game dealt again started its document at 0
    my_turn_by_the_stock(page, seats=3, speed=speed)   # yours, then two computers' moves
    page.wait_for_function("['draw', 'count', 'over'].includes(document.querySelector('[data-testid=table]')"
                           ".dataset.phase)", timeout=30000)
    return page.evaluate('() => window.__travels') - before


def test_cards_travel_but_not_under_reduced_motion_nor_at_instant_speed(page: Page) -> None:
    """Under reduced motion from the page's start (the deal included), then, on the same game, a
    turn with motion again; at instant speed, a game of its own."""
    page.emulate_media(reduced_motion='reduce')
    start_game(page, seats=3, speed='Rápida')
    assert travels_in_one_turn(page, 'Rápida', 'reduce') == 0
    assert page.evaluate('() => window.__travels') == 0, 'cards travelled under reduced motion'
    assert travels_in_one_turn(page, 'Rápida', 'no-preference') >= 4
    page.emulate_media(reduced_motion='no-preference')
    start_game(page, seats=3, speed='Al instante')
    assert travels_in_one_turn(page, 'Al instante', 'no-preference') == 0
    assert page.evaluate('() => window.__travels') == 0, 'cards travelled at instant speed'


def played_to_the_count(page: Page, base_url: str) -> str:
    """Your decisions, up to the hand's count, made by the server as the easy computer's (serve.py's
    test route: no click and no wait of the test's for each move), while the screen follows them;
    returns the phase the screen shows then: the count, or the game's end."""
    people_play(base_url, page, to_count=True)
    expect(page.get_by_test_id('table')).to_have_attribute('data-phase', re.compile('^(count|over)$'))
    return phase(page)


def test_on_a_phone_the_count_keeps_next_hand_in_reach_and_the_log_opens_as_a_sheet(page: Page, base_url: str) -> None:
    page.set_viewport_size({'width': 390, 'height': 844})
    start_game(page, seats=6)
    expect(page.get_by_test_id('hand-log')).to_be_hidden()
    page.get_by_test_id('log-button').click()
    expect(page.get_by_test_id('hand-log')).to_be_in_viewport()
    page.get_by_test_id('log-close').click()
    expect(page.get_by_test_id('hand-log')).to_be_hidden()
    while played_to_the_count(page, base_url) == 'over':   # a computer's chinchón ended the game: deal again
        start_game(page, seats=6)
    page.evaluate('() => window.scrollTo(0, 0)')
    count = page.get_by_test_id('count').bounding_box()
    assert count['y'] + count['height'] > 844, 'a six-seat count that fits the screen proves nothing'
    expect(page.get_by_test_id('next-hand')).to_be_in_viewport()


def test_a_screen_whose_connection_drops_comes_back_up_to_date(page: Page) -> None:
    """The browser's connection drops while the computer plays: once it is back, the screen shows
    the moves it missed and plays on (it does not stay frozen)."""
    page.goto('/test-table?position=your-draw-slow')   # your draw, the computer at slow speed
    reach_my_draw(page, seats=2, speed='Lenta')
    page.get_by_test_id('stock').click()
    page.wait_for_function("document.querySelector('[data-testid=table]').dataset.phase === 'discard'")
    discard_last_card(page)
    # the connection drops while the computer draws and discards (NiceGUI's page keeps its
    # socket.io client in window.socket, which reconnects by itself)
    page.evaluate('() => window.socket.io.engine.close()')
    page.wait_for_function("['draw', 'count', 'over'].includes(document.querySelector('[data-testid=table]')"
                           ".dataset.phase)", timeout=30000)
