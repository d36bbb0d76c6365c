"""The live channel in a real Chromium: a move reaches the screen as one patch, and what it drew
stays on the screen through a full redraw of the page, a re-mount of the part and a reload.

The re-mount is provoked on a page of its own (live_demo.py, which the tests' server serves): the
table never moves its parts, but NiceGUI may re-mount an element from its own, older copy of it."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from live_demo import REMOUNT_ROUTE
from table_browser import people_play
from test_chinchon_browser import phase, play_one_step, reach_my_move, start_game

# what the player sees of the table: its words, its cards, which buttons work, its phase
SCREEN = """() => { const table = document.querySelector('[data-testid=table]');
  return {phase: table.dataset.phase, version: table.dataset.version, text: table.innerText,
          cards: [...table.querySelectorAll('[data-card]')].map(e => e.dataset.card),
          disabled: [...table.querySelectorAll('button')].map(b => b.disabled)}; }"""

UPDATE = re.compile(r'^\d*\["update"')   # NiceGUI's element update: the page is rendered again


def test_a_move_is_one_patch_and_stays_through_a_full_redraw_and_a_reload(page: Page, base_url: str) -> None:
    frames: list[str] = []
    page.on('websocket', lambda ws: ws.on('framereceived', lambda payload: frames.append(str(payload))))
    start_game(page, speed='Rápida')
    # a few turns first, on the screen: every part has been patched over and over (your six
    # decisions made by the server as the easy computer's, serve.py's test route, instead of a
    # click and a wait for each; the screen gets the same patches)
    people_play(base_url, page, moves=6)
    while reach_my_move(page, speed='Rápida') != 'draw':
        play_one_step(page)
    # a banner of the warm-up's (your close, a count ago) has faded first: the screen compared after
    # the reload is one without news, as a reloaded page is
    expect(page.get_by_test_id('banner')).to_be_hidden()
    hand_before = page.get_by_test_id('hand-card').count()
    frames.clear()
    page.get_by_test_id('stock').click()
    expect(page.get_by_test_id('table')).to_have_attribute('data-phase', 'discard')
    expect(page.get_by_test_id('hand-card')).to_have_count(hand_before + 1)
    expect(page.get_by_test_id('discard-button')).to_be_enabled()
    # the side panels follow the board in a patch of their own: the move is on the screen once its log line is
    expect(page.locator('[data-testid=hand-log] > div').first).to_have_text('Robas del mazo.')   # newest first
    assert [frame for frame in frames if UPDATE.match(frame)] == [], 'the move redrew the whole page'
    moved = page.evaluate(SCREEN)

    # any element update renders the whole page again: the confirmation dialog is one
    frames.clear()
    page.get_by_test_id('new-game').click()
    page.get_by_role('button', name='Seguir jugando').click()
    expect(page.get_by_role('button', name='Seguir jugando')).to_be_hidden()
    assert any(UPDATE.match(frame) for frame in frames)
    assert page.evaluate(SCREEN) == moved

    page.reload()
    expect(page.get_by_test_id('hand-card')).to_have_count(hand_before + 1)
    assert phase(page) == 'discard'
    assert page.evaluate(SCREEN) == moved


def test_a_remounted_part_shows_the_newest_patch(page: Page) -> None:
    page.goto(REMOUNT_ROUTE)
    box, text, items = page.get_by_test_id('box'), page.get_by_test_id('text'), page.get_by_test_id('items')
    expect(text).to_have_text('old')
    expect(items.locator('i')).to_have_text(list('abcdefgh'))
    items.locator('i').first.evaluate('el => { el.dataset.kept = "yes"; }')   # only this DOM node has it
    page.get_by_role('button', name='patch').click()
    expect(text).to_have_text('new')
    expect(box).to_have_attribute('data-state', 'new')
    # drawn as pieces: the changed ones arrive, the others stay the nodes they were
    expect(items.locator('i')).to_have_text(list('abcdefghi'))
    expect(items.locator('[data-n]')).to_have_attribute('data-n', '9')
    expect(items.locator('i[data-kept]')).to_have_count(1)
    box.evaluate('el => { el.dataset.before = "remount"; }')   # an attribute only this DOM node has

    page.get_by_role('button', name='remount').click()
    expect(page.locator('[data-testid=box][data-before]')).to_have_count(0)   # a new node...
    expect(text).to_have_text('new')                                         # ... with the newest values
    expect(box).to_have_attribute('data-state', 'new')
    expect(items.locator('i')).to_have_text(list('abcdefghi'))
    page.get_by_role('button', name='more').click()   # pieces patched after the re-mount
    expect(items.locator('i')).to_have_text(list('abcdefghij'))
