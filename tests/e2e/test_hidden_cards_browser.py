"""No card reaches a real browser before it is public, for every game: each websocket frame the
page receives is held against the cards it has shown (tests/e2e/table_browser.py's FrameWatch),
over the first decisions of a deal seeded by the test's name. Whole games, with every screen
element scanned after every step, are played in process (tests/ui/test_whole_games.py); this
checks what only the browser receives, the frames themselves (the live channel's patches
included)."""
from __future__ import annotations

from playwright.sync_api import Page, expect

from table_browser import FrameWatch, moved_on, start_game, version, wait_for
from test_chinchon_browser import play_one_step as chinchon_step

DECISIONS = 30   # bounded: enough for a hand's worth of cards to go by
COUNT_FRAME = '"data-testid":"count"'   # a frame that draws a count (every hand, on purpose)


def watched_decisions(page: Page, game: str, seats: int, places: tuple[str, ...], phases: tuple[str, ...],
                      step) -> int:
    """Start a game, then make ``DECISIONS`` decisions with ``step``, checking the frames at each;
    returns how many cards went by."""
    watch = FrameWatch(page, places)
    start_game(page, game, seats)
    watch.begin()
    most = 0
    for _ in range(DECISIONS):
        current = wait_for(page, *phases, 'count', 'over')
        if current in ('count', 'over'):   # the count shows every hand on purpose: its frames are left out
            watch.frames[:] = [frame for frame in watch.frames if COUNT_FRAME not in frame]
            most = max(most, watch.check())
            watch.restart()   # the next hand's cards start afresh
            if current == 'over':
                break
        else:
            most = max(most, watch.check())
        step(page, current)
    return most


def test_chinchon_sends_no_hidden_card(page: Page) -> None:
    sent = watched_decisions(page, 'chinchon', 3, ('hand-card', 'discard', 'seat'), ('draw', 'discard'),
                             lambda page, current: chinchon_step(page))
    assert sent >= 10   # the frames were read: your hand and the discards went by


def ronda_step(page: Page, current: str) -> None:
    """A greedy player: start a run whenever a hand card allows it, take every option, confirm."""
    before = version(page)
    if current == 'count':
        page.get_by_test_id('next-hand').click()
    elif current == 'start':
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


def test_ronda_robada_sends_no_hidden_card(page: Page) -> None:
    sent = watched_decisions(page, 'ronda-robada', 4, ('hand-card', 'loose-card', 'pile', 'run-option', 'run-so-far'),
                             ('start', 'run'), ronda_step)
    assert sent >= 10


def continental_step(page: Page, current: str) -> None:
    """Keep an offered card on your turn, then play as the normal computer player would: ask for
    the hint and do what it says (it fills the meld builder, or picks the card to lay off or discard)."""
    before = version(page)
    if current == 'count':
        page.get_by_test_id('next-hand').click()
    elif current == 'offer':   # keep it on your turn, never out of turn
        take = page.get_by_test_id('offer-take')
        (take if take.is_visible() else page.get_by_test_id('offer-pass')).click()
    elif current == 'draw':
        page.get_by_test_id('stock').click()
    else:
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


def test_continental_sends_no_hidden_card(page: Page) -> None:
    sent = watched_decisions(page, 'continental', 4,
                             ('hand-card', 'discard', 'meld', 'layoff-target', 'offer-round', 'meld-group'),
                             ('offer', 'draw', 'play'), continental_step)
    assert sent >= 12
