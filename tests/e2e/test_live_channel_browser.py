"""The live channel in a real Chromium: a move reaches the screen as one patch, and what it drew
stays on the screen through a full redraw of the page, a re-mount of the part and a reload.

The re-mount is provoked on a page of its own (this file run as a script serves it): the table
never moves its parts, but NiceGUI may re-mount an element from its own, older copy of it."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from test_chinchon_browser import phase, play_one_step, reach_my_move, start_game

ROOT = Path(__file__).resolve().parents[2]

# what the player sees of the table: its words, its cards, which buttons work, its phase
SCREEN = """() => { const table = document.querySelector('[data-testid=table]');
  return {phase: table.dataset.phase, version: table.dataset.version, text: table.innerText,
          cards: [...table.querySelectorAll('[data-card]')].map(e => e.dataset.card),
          disabled: [...table.querySelectorAll('button')].map(b => b.disabled)}; }"""

UPDATE = re.compile(r'^\d*\["update"')   # NiceGUI's element update: the page is rendered again


def test_a_move_is_one_patch_and_stays_through_a_full_redraw_and_a_reload(page: Page) -> None:
    frames: list[str] = []
    page.on('websocket', lambda ws: ws.on('framereceived', lambda payload: frames.append(str(payload))))
    start_game(page, speed='Rápida')
    for _ in range(3):   # a few turns first: every part has been patched over and over
        while (done := play_one_step(page)) != 'discard':
            if done == 'over':   # a computer's chinchón ended the game: deal again
                start_game(page, speed='Rápida')
    while reach_my_move(page, speed='Rápida') != 'draw':
        play_one_step(page)
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


@pytest.fixture(scope='module')
def demo_url() -> str:
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        port = sock.getsockname()[1]
    env = {key: value for key, value in os.environ.items()
           if key != 'PYTEST_CURRENT_TEST' and not key.startswith('NICEGUI_')}
    env['PYTHONPATH'] = str(ROOT)
    process = subprocess.Popen([sys.executable, __file__, str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f'http://127.0.0.1:{port}'
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f'demo server did not start:\n{process.communicate()[0]}', pytrace=False)
            time.sleep(0.2)
    yield url
    process.terminate()
    process.wait(timeout=10)


def test_a_remounted_part_shows_the_newest_patch(page: Page, demo_url: str) -> None:
    page.goto(demo_url)
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


def serve_demo(port: int) -> None:
    """A part drawn through a Live channel, and a button that moves it to another container:
    NiceGUI then re-mounts it from its own copy, which still holds the first values."""
    from nicegui import ui

    from components.live import Live, Pieces

    @ui.page('/')
    def demo() -> None:
        live = Live()
        with ui.row():
            box = ui.element('div').props('data-testid=box')
            with box:
                text = ui.html('', sanitize=False).props('data-testid=text')
                items = ui.html('', sanitize=False).props('data-testid=items')
        second = ui.row()

        def listing(letters: str) -> Pieces:
            return Pieces(f'<div data-n="{len(letters)}">', tuple(f'<i title="{letter * 30}">{letter}</i>' for letter in letters))

        def paint(state: str, letters: str) -> None:
            live.attrs(box, {'data-state': state})
            live.html(text, state)
            live.html(items, listing(letters))
            live.send()

        paint('old', 'abcdefgh')   # as the table does: the page is first drawn through the channel
        ui.button('patch', on_click=lambda: paint('new', 'abcdefghi'))
        ui.button('more', on_click=lambda: paint('new', 'abcdefghij'))
        ui.button('remount', on_click=lambda: box.move(second))

    ui.run(host='127.0.0.1', port=port, reload=False, show=False, show_welcome_message=False)


if __name__ in {'__main__', '__mp_main__'}:
    serve_demo(int(sys.argv[1]))
