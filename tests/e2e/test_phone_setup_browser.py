"""On a phone (390 px wide) the setup form's "Repartir" is in view without scrolling, for every
game, even below the card offering to resume an unfinished table (the tallest case) and on a
short screen (a browser's own bars take part of an 844 px phone)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

GAMES = ('chinchon', 'ronda-robada', 'continental')


@pytest.mark.parametrize('height', [844, 640])
def test_repartir_is_in_view_on_a_phone(browser: Browser, server_url: str, height: int, tmp_path) -> None:
    context = browser.new_context(base_url=server_url, viewport={'width': 390, 'height': height}, locale='es-ES')
    page = context.new_page()
    try:
        for game in GAMES:   # an unfinished table of each game: the form has the resume card above it
            page.goto(f'/play/{game}')
            page.get_by_test_id('start').click()
            page.wait_for_url('**/table/**')
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
    finally:
        context.close()
