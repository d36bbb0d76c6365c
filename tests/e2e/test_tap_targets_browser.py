"""On a phone (390 x 844) every control of a table page is a finger's target: at least 44 x 44 px
(Apple's and WCAG 2.5.5's size), its hit area measured as the bounding box of the element that
takes the tap, for a table of each game in play and at its count, the site's menu and the scores'
sheet open too, while the table still fits the screen (tests/e2e/test_table_fits_browser.py
watches it through many turns at more sizes)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from table_browser import wait_for
from tap_targets import scrolls, too_small
from test_table_fits_browser import autoplay

PHONE = {'width': 390, 'height': 844}
TURNED = "(turn) => document.querySelector('[data-testid=table]').dataset.turn !== turn"


@pytest.fixture(scope='module')
def phone(browser: Browser, base_url: str) -> Page:
    context = browser.new_context(base_url=base_url, locale='es-ES', viewport=PHONE)
    yield context.new_page()
    context.close()


def check(page: Page, where: str) -> None:
    small = too_small(page)
    assert not small, f'controls under 44 x 44 px: {where}: {small}'
    assert scrolls(page) == 0, f'the table does not fit the phone: {where}'


@pytest.mark.parametrize('game', ['chinchon', 'ronda-robada', 'continental'])
def test_every_control_of_a_table_is_a_fingers_target_on_a_phone(phone: Page, base_url: str, game: str) -> None:
    phone.goto(f'/test-table?game={game}')
    table = phone.get_by_test_id('table')
    expect(table).to_be_visible()
    check(phone, f'{game}, {table.get_attribute("data-phase")}')
    phone.get_by_test_id('nav-menu').locator('summary').click()   # the site's menu, open over the table
    expect(phone.get_by_test_id('nav-menu').locator('a').first).to_be_visible()
    check(phone, f'{game}, the menu open')
    phone.keyboard.press('Escape')
    phone.get_by_test_id('log-button').click()   # the scores and the log, a sheet on a phone
    expect(phone.get_by_test_id('log-close')).to_be_visible()
    check(phone, f'{game}, the scores sheet open')
    phone.get_by_test_id('log-close').click()
    # and later in the game, a computer playing your seat: other moments, other controls
    autoplay(base_url, phone)
    for _ in range(3):
        phone.wait_for_function(TURNED, arg=table.get_attribute('data-turn'))
        check(phone, f'{game}, {table.get_attribute("data-phase")}')
    # the hand's count (or the game's end), where it waits for you: its buttons and the review's link
    ended = wait_for(phone, 'count', 'over', timeout=90000)
    expect(phone.get_by_test_id('review').first).to_be_visible()
    check(phone, f'{game}, {ended}')


def test_a_rooms_controls_are_fingers_targets_on_a_phone(browser: Browser, base_url: str) -> None:
    """A room's table has more: the reaction chips and the menu that mutes a person, and before
    it starts its waiting room, with its invite link."""
    contexts = [browser.new_context(base_url=base_url, locale='es-ES', viewport=PHONE) for _ in range(2)]
    ana, luis = (context.new_page() for context in contexts)
    try:
        ana.goto('/play/chinchon?new=true')
        ana.get_by_role('button', name='2', exact=True).click()
        ana.get_by_role('button', name='Al instante').click()
        ana.get_by_test_id('friends').click()
        ana.get_by_label('Tu nombre en la mesa').fill('Ana')
        ana.get_by_test_id('start').click()
        link = ana.get_by_test_id('invite-link').text_content()
        luis.goto(link)
        luis.get_by_test_id('join-name').fill('Luis')
        luis.get_by_test_id('join').click()
        expect(ana.get_by_test_id('room-seat').filter(has_text='Luis')).to_be_visible()
        check(ana, 'the waiting room')
        ana.get_by_test_id('start-room').click()
        expect(ana.get_by_test_id('table')).to_be_visible()
        expect(ana.get_by_test_id('reaction').first).to_be_visible()
        expect(ana.get_by_test_id('mute-menu')).to_be_visible()
        check(ana, 'a room in play')
    finally:
        for context in contexts:
            context.close()
