"""On a phone (390 px wide) the setup form's "Repartir" is in view without scrolling, for every
game, even below the card offering to resume an unfinished table (the tallest case) and on a
short screen (a browser's own bars take part of an 844 px phone)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

GAMES = ('chinchon', 'ronda-robada', 'continental')


@pytest.fixture(scope='module')
def resuming(browser: Browser, server_url: str) -> Page:
    """A phone's tab with an unfinished table of each game (the form has the resume card above
    it), for both heights: a second browser with the same tables would only cost more."""
    context = browser.new_context(base_url=server_url, viewport={'width': 390, 'height': 844}, locale='es-ES')
    page = context.new_page()
    for game in GAMES:
        page.goto(f'/play/{game}')
        page.get_by_test_id('start').click()
        page.wait_for_url('**/table/**')
    yield page
    context.close()


@pytest.mark.parametrize('height', [844, 640])
def test_repartir_is_in_view_on_a_phone(resuming: Page, height: int, tmp_path) -> None:
    page = resuming
    page.set_viewport_size({'width': 390, 'height': height})
    for game in GAMES:
        page.goto(f'/play/{game}')
        expect(page.get_by_test_id('ongoing')).to_be_visible()
        start = page.get_by_role('button', name='Repartir')
        expect(start).to_be_visible()
        page.screenshot(path=str(tmp_path / f'setup-{game}-390x{height}.png'))
        box = start.bounding_box()
        assert page.evaluate('window.scrollY') == 0
        assert 0 <= box['y'] and box['y'] + box['height'] <= height, (game, box)
        # and it is the button itself there, not something covering it
        middle = page.evaluate('([x, y]) => document.elementFromPoint(x, y)?.closest("[data-testid=start]") !== null',
                               [box['x'] + box['width'] / 2, box['y'] + box['height'] / 2])
        assert middle, game


# every element of the setup form that the start bar's box overlaps on the screen, but the bar,
# what is inside it and what holds it (the card); empty when it covers nothing
COVERED = '''() => {
  const bar = document.querySelector('[data-testid=start]').closest('.hod-start-bar') || document.querySelector('[data-testid=start]');
  const box = bar.getBoundingClientRect();
  const covered = [];
  for (const el of document.querySelectorAll('[data-testid=setup] *')) {
    if (bar.contains(el) || el.contains(bar)) continue;
    const r = el.getBoundingClientRect();
    const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
    if (r.width === 0 || bottom <= top) continue;   // not drawn, or out of the window
    if (top < box.bottom - 0.5 && bottom > box.top + 0.5 && r.left < box.right && r.right > box.left)
      covered.push(el.className || el.tagName);
  }
  return covered;
}'''


@pytest.mark.parametrize('width, height', [(1280, 800), (390, 844)])
def test_repartir_covers_no_option_of_the_form_and_stays_in_view_under_the_header(
        browser: Browser, server_url: str, width: int, height: int, tmp_path) -> None:
    context = browser.new_context(base_url=server_url, viewport={'width': width, 'height': height}, locale='es-ES')
    page = context.new_page()
    try:
        for game in GAMES:
            page.goto(f'/play/{game}')
            start = page.get_by_role('button', name='Repartir')
            expect(start).to_be_visible()
            page.screenshot(path=str(tmp_path / f'setup-{game}-{width}x{height}.png'))
            assert page.evaluate(COVERED) == [], game   # a first view: nothing of the form under the bar
            page.mouse.wheel(0, 600)                    # the options scroll; the bar stays, under the header
            page.wait_for_function('window.scrollY > 0')
            header = page.locator('.q-header').bounding_box()
            box = start.bounding_box()
            assert header['y'] + header['height'] <= box['y'] and box['y'] + box['height'] <= height, (game, box)
            middle = page.evaluate('([x, y]) => document.elementFromPoint(x, y)?.closest("[data-testid=start]") !== null',
                                   [box['x'] + box['width'] / 2, box['y'] + box['height'] / 2])
            assert middle, game
    finally:
        context.close()
