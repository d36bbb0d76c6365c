"""The Continental table in a real Chromium: all seven hands to the game-over screen, with no hand
card and no stock card reaching the browser before it is public."""
from __future__ import annotations

from playwright.sync_api import Page, expect

from table_browser import FrameWatch, moved_on, start_game, version, wait_for

# where public cards go (and your own hand); a hand's cards are public on its count
PUBLIC_PLACES = ('hand-card', 'discard', 'meld', 'layoff-target', 'offer-round', 'meld-group', 'count-seat')


def play_one_step(page: Page, current: str) -> None:
    """Keep an offered card on your turn, then play as the normal computer player would: ask for
    the hint and do what it says (it fills the meld builder, or picks the card to lay off or discard)."""
    before = version(page)
    if current == 'count':
        page.get_by_test_id('next-hand').click()
        moved_on(page, before)
        return
    if current == 'offer':   # keep it on your turn, never out of turn
        take = page.get_by_test_id('offer-take')
        (take if take.is_visible() else page.get_by_test_id('offer-pass')).click()
        moved_on(page, before)
        return
    if current == 'draw':
        page.get_by_test_id('stock').click()
        moved_on(page, before)
        return
    page.get_by_test_id('hint').click()   # the table clears its words at every move: this is the new hint
    page.wait_for_selector('[data-testid=notice]')
    advice = page.get_by_test_id('notice').text_content()
    if 'bájate' in advice:
        page.get_by_test_id('meld-confirm').click()
    elif 'coloca' in advice:
        page.get_by_test_id('layoff-target').first.click()
        if page.get_by_test_id('layoff-end').count():
            page.get_by_test_id('layoff-end').first.click()
    else:
        page.get_by_test_id('discard-button').click()
    moved_on(page, before)


def test_seven_hands_to_the_game_over_screen_without_leaking_hidden_cards(page: Page) -> None:
    watch = FrameWatch(page)
    start_game(page, 'continental', seats=4)
    watch.begin(PUBLIC_PLACES)
    hands_seen, checked, most = set(), 0, 0
    for _ in range(2000):
        current = wait_for(page, 'offer', 'draw', 'play', 'count', 'over')
        most = max(most, watch.check())
        checked += 1
        if current in ('count', 'over'):
            hands_seen.add(page.get_by_test_id('count').locator('[role=heading]').text_content())
            watch.restart()
        if current == 'over':
            break
        play_one_step(page, current)
    assert current == 'over' and len(hands_seen) == 7 and checked > 50
    assert most >= 12   # the frames were read: a hand's worth of cards went by
    expect(page.get_by_test_id('game-over')).to_be_visible()
    rows = page.get_by_test_id('scoreboard').locator('tbody tr')
    expect(rows).to_have_count(8)   # seven hands, each named by its contract, and the totals
    expect(rows.nth(6)).to_contain_text('Mano 7 · tres escaleras')
