"""The Ronda Robada table in a real Chromium: a whole game to the end screen and the next game at
the same table, with no hand card and no stock card reaching the browser before it is public.
(The sweep, the redeal and stolen piles are told in tests/ui/test_ronda_robada_table.py.)"""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from table_browser import FrameWatch, moved_on, start_game, version, wait_for

# where public cards go (and your own hand)
PUBLIC_PLACES = ('hand-card', 'loose-card', 'pile', 'run-option', 'run-so-far', 'count-row')


def play_one_step(page: Page, current: str) -> None:
    """A greedy player: start a run whenever a hand card allows it, take every option, confirm."""
    before = version(page)
    if current == 'start':
        starter = page.locator('[data-testid=hand-card]:has(.hod-rr-mark)')
        if starter.count():
            starter.first.click()
            page.get_by_test_id('run-option').first.click()
        else:
            page.get_by_test_id('hand-card').first.click()
            expect(page.get_by_test_id('drop')).to_be_enabled()
            page.get_by_test_id('drop').click()
    else:   # building a run: dropping is not possible any more
        expect(page.get_by_test_id('drop')).to_be_disabled()
        option = page.get_by_test_id('run-option')
        if option.count():
            option.first.click()
        else:
            page.get_by_test_id('confirm-run').click()
    moved_on(page, before)


def test_a_whole_game_and_the_next_one_without_leaking_hidden_cards(page: Page) -> None:
    watch = FrameWatch(page)
    start_game(page, 'ronda-robada', seats=4)
    watch.begin(PUBLIC_PLACES)
    steps = 0
    while True:
        current = wait_for(page, 'start', 'run', 'over')
        sent = watch.check()
        if current == 'over':
            break
        play_one_step(page, current)
        steps += 1
        assert steps < 200
    assert sent > 20   # the frames were read: most of the deck went by
    # the end: the sweep, every pile counted, the winners, the tally; then the next game here
    expect(page.get_by_test_id('count')).to_be_visible()
    rows = page.get_by_test_id('count-row')
    expect(rows).to_have_count(4)
    points = [int(rows.nth(i).get_attribute('data-points')) for i in range(4)]
    # somebody made a run (you start one whenever you can), so any loose cards left were swept to
    # a pile and every card of the deck is counted
    assert sum(points) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 10 + 11 + 12)
    winners = [i for i, p in enumerate(points) if p == max(points)]
    expect(page.locator('[data-testid=count-row] .hod-chip')).to_have_count(len(winners))
    expect(page.get_by_test_id('game-over')).to_be_visible()
    expect(page.get_by_test_id('tally')).to_contain_text('Partidas ganadas en esta mesa: Tú ')
    address = page.url
    page.get_by_test_id('play-again').click()
    assert wait_for(page, 'start', 'run', 'wait') in ('start', 'run', 'wait')
    assert page.url == address
    expect(page.get_by_text('Partida 2')).to_be_visible()


def test_keyboard_play_with_labels(page: Page) -> None:
    """Pick a card, pair it or drop it, and confirm with the keyboard alone."""
    start_game(page, 'ronda-robada', seats=2)
    wait_for(page, 'start')
    card = page.get_by_test_id('hand-card').first
    expect(card).to_have_attribute('aria-label', re.compile(r'\w+ de \w+'))
    card.focus()
    page.keyboard.press('Enter')
    expect(page.get_by_test_id('hand-card').first).to_have_attribute('aria-pressed', 'true')
    before = version(page)
    if page.get_by_test_id('run-option').count():
        page.get_by_test_id('run-option').first.focus()
        page.keyboard.press('Enter')
        assert wait_for(page, 'run') == 'run'
        page.get_by_test_id('confirm-run').focus()
        page.keyboard.press('Enter')
    else:
        page.get_by_test_id('drop').focus()
        page.keyboard.press('Enter')
    page.wait_for_function(f"Number(document.querySelector('[data-testid=table]').dataset.version) > {before}"
                           " && document.querySelector('[data-testid=table]').dataset.phase !== 'run'")
