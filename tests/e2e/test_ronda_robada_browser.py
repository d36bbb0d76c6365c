"""The Ronda Robada table in a real Chromium, with the keyboard alone. (No hidden card reaches the
browser: test_hidden_cards_browser.py; whole games: tests/ui/test_whole_games.py; the sweep, the
redeal and stolen piles: tests/ui/test_ronda_robada_table.py.)"""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from table_browser import start_game, version, wait_for


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
