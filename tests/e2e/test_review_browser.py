"""The review of a hand in a real Chromium: opened from the count, stepped through with the arrow
keys (and Home, End), the coach's marks arriving from the process pool, and every card code its
frames carry is one the page shows at that moment (from your seat: nobody else's hand until you
ask for all the cards), while the table's next hand is dealt."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from table_browser import FrameWatch
from test_chinchon_browser import phase
from test_table_fits_browser import autoplay

INDEX_IS = "(i) => document.querySelector('[data-testid=replay]')?.dataset.index === String(i)"


def played_to_the_count(page: Page, base_url: str) -> None:
    """A hand at instant speed, your seat played by a computer too (serve.py's test routes: the
    server plays, instead of the test clicking every move and waiting for each to come back),
    watched until its count. A computer's chinchón can end the game at once: then deal again."""
    table = page.get_by_test_id('table')
    while True:
        page.goto('/test-table?game=chinchon')
        expect(table).to_be_visible()
        autoplay(base_url, page)
        expect(table).to_have_attribute('data-phase', re.compile('^(count|over)$'), timeout=30_000)
        if phase(page) == 'count':
            return


def test_a_review_opens_from_the_count_and_steps_with_the_keyboard(page: Page, base_url: str) -> None:
    played_to_the_count(page, base_url)
    watch = FrameWatch(page, ('replay-board',))
    page.get_by_test_id('review').click()
    expect(page.get_by_test_id('replay')).to_be_visible()
    watch.begin()
    steps = int(page.get_by_test_id('replay').get_attribute('data-steps'))
    assert steps > 3
    page.keyboard.press('ArrowRight')
    page.wait_for_function(INDEX_IS, arg=1)
    page.keyboard.press('ArrowRight')
    page.wait_for_function(INDEX_IS, arg=2)
    page.keyboard.press('ArrowLeft')
    page.wait_for_function(INDEX_IS, arg=1)
    expect(page.locator('[data-testid=replay-step][aria-current=step]')).to_have_attribute('data-index', '1')
    assert watch.check() >= 7   # your hand at least, and nothing the page did not show
    # the coach weighs your decisions in the server's process pool, and marks each of them
    summary = page.get_by_test_id('coach-summary')
    expect(summary).to_be_visible(timeout=60_000)
    decisions = int(summary.get_attribute('data-decisions'))
    assert decisions > 0
    expect(page.locator('[data-testid=replay-step] [data-testid=coach-mark]')).to_have_count(decisions)
    assert watch.check() >= 7   # while you are at move 1: the coach's words and marks carry no card either
    page.keyboard.press('End')
    page.wait_for_function(INDEX_IS, arg=steps - 1)
    expect(page.get_by_test_id('count')).to_be_visible()
    page.keyboard.press('Home')
    page.wait_for_function(INDEX_IS, arg=0)
    page.get_by_test_id('replay-all-cards').click()
    expect(page.get_by_test_id('replay-seat-hand')).to_have_count(1)
    page.get_by_test_id('review-back').click()
    expect(page.get_by_test_id('table')).to_be_visible()
