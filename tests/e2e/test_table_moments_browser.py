"""The table's big moments in a real Chromium: a banner over the table that needs no reading of the
log (serve.py's ``/test-table?position=...`` starts from the moment just before)."""
from __future__ import annotations

from playwright.sync_api import Page, expect


def test_the_robbed_player_sees_a_banner_when_a_computer_takes_their_pile(page: Page) -> None:
    page.goto('/test-table?position=steal')   # Lucía's run of fives goes on with the six on top of your pile
    banner = page.get_by_test_id('banner')
    expect(banner).to_have_attribute('data-kind', 'steal', timeout=20000)
    expect(banner).to_have_text('Lucía se lleva tu montón: 11 cartas')
    expect(banner).to_be_in_viewport()


def test_the_stocks_last_rebuild_is_announced(page: Page) -> None:
    page.goto('/test-table?position=last-rebuild')   # Lucía draws from a stock already rebuilt once
    banner = page.get_by_test_id('banner')
    expect(banner).to_have_attribute('data-kind', 'last-rebuild', timeout=20000)
    expect(banner).to_have_text('Última vuelta del mazo')
