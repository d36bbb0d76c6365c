"""Every page of the site, and a table of each game in play, checked by axe-core in a real Chromium,
in Spanish and in English: no critical or serious violation, one main landmark and a heading of
level one per page.

axe-core is the file the ``axe-playwright-python`` package ships (the ``test`` extra pins it), run
with its rules as they are plus ``label-content-name-mismatch`` (experimental, so off by default:
the name a voice-control user says is the one they read on the button). One page per language is
reused for every address: the guest's pages, a table of each game in play, a hand's count and its
review, a room (its waiting room, the invite page a friend opens, its table), then, signed in, the
account's pages, and the moderators' desk once the account is a moderator."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from app import moderation
from app.history import SeatResult, record_finished_game
from app.i18n import CATALOGS
from conftest import servers_database
from models.db import session_scope
from models.tables import get_user_by_username
from table_browser import wait_for
from test_table_fits_browser import autoplay

AXE = Axe()
OPTIONS = {'resultTypes': ['violations'], 'rules': {'label-content-name-mismatch': {'enabled': True}}}
BLOCKING = ('critical', 'serious')
# and the moderate ones the site has none of: one main landmark, a heading of level one on every page
KEPT_OUT = ('landmark-main-is-top-level', 'landmark-no-duplicate-main', 'landmark-unique', 'page-has-heading-one')
GAMES = ('chinchon', 'ronda-robada', 'continental')
LOCALES = {'es': 'es-ES', 'en': 'en-US'}

# every route of app/pages a guest reaches without a game of their own (the daily's day before
YESTERDAY = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()
# today: a past day's board); pages drawn from one template for every game, for one game each
GUEST_PAGES = ['/', *[f'/play/{game}' for game in GAMES], '/lobby', '/ranking', '/ranking/continental',
               '/reglas/chinchon', '/rules/ronda-robada', '/daily', '/daily/chinchon', f'/daily/continental/{YESTERDAY}',
               '/login', '/register', '/recover', '/no-such-page', '/offline.html']


def blocking(page: Page) -> list[str]:
    """The critical and serious violations on the page as it is now, and those kept out, one line
    per element; and a page with more (or fewer) than one main landmark."""
    found = AXE.run(page, options=OPTIONS).response['violations']
    lines = [f'{page.url}: {v["id"]} ({v["impact"]}): {node["html"][:160]}'
             for v in found if v['impact'] in BLOCKING or v['id'] in KEPT_OUT for node in v['nodes']]
    mains = page.evaluate("document.querySelectorAll('main, [role=main]').length")
    return lines + ([f'{page.url}: {mains} main landmarks'] if mains != 1 else [])


def audit(page: Page, path: str) -> list[str]:
    page.goto(path)
    expect(page.locator('main').first).to_be_visible()
    return blocking(page)


def register(page: Page, language: str, name: str) -> None:
    words = CATALOGS[language]
    page.goto('/register')
    page.get_by_label(words['account.username']).fill(name)
    page.get_by_label(words['account.password'], exact=True).fill('correct horse battery')
    page.get_by_label(words['account.password.confirm']).fill('correct horse battery')
    page.get_by_role('button', name=words['account.register.submit']).click()
    page.get_by_role('button', name=words['codes.saved']).click()
    expect(page.get_by_role('link', name=words['nav.history'])).to_be_visible()


def a_finished_game(server_data: Path, name: str) -> int:
    """A game in the account's history, written as a finished table writes it; returns its id."""
    ended = datetime.now(UTC).replace(microsecond=0)
    with servers_database(server_data):
        with session_scope() as session:
            user_id = get_user_by_username(session=session, username=name).id
        return record_finished_game(user_id=user_id, game_id='chinchon', options={'level': 'easy', 'limit': 50},
                             started_at=ended - timedelta(minutes=5), ended_at=ended, hands_played=1,
                             deal_commitments=[('c0ffee', '17')], hand_points=[[10, 55]],
                             seats=[SeatResult(name, True, 10, 1, True), SeatResult('easy', False, 55, 0, False)])


def a_room(browser: Browser, base_url: str, host: Page, language: str) -> list[str]:
    """A room for two: its waiting room, its invite page as a friend opens it, and its table in
    play (the reaction chips, the mute menu)."""
    words = CATALOGS[language]
    host.goto('/play/chinchon?new=true')
    host.get_by_role('button', name='2', exact=True).click()
    host.get_by_role('button', name=words['speed.instant']).click()
    host.get_by_test_id('friends').click()
    host.get_by_label(words['room.your_name']).fill('Ana')
    host.get_by_test_id('start').click()
    link = host.get_by_test_id('invite-link').text_content()
    found = blocking(host)
    context = browser.new_context(base_url=base_url, locale=LOCALES[language])
    try:
        friend = context.new_page()
        friend.goto(link)
        expect(friend.get_by_test_id('join-name')).to_be_visible()
        found += blocking(friend)
        friend.get_by_test_id('join-name').fill('Luis')
        friend.get_by_test_id('join').click()
        expect(host.get_by_test_id('room-seat').filter(has_text='Luis')).to_be_visible()
        host.get_by_test_id('start-room').click()
        expect(host.get_by_test_id('table')).to_be_visible()
        expect(host.get_by_test_id('reaction').first).to_be_visible()
        found += blocking(host)
    finally:
        context.close()
    return found


@pytest.mark.parametrize('language', LOCALES)
def test_no_page_or_table_has_a_serious_accessibility_violation(browser: Browser, base_url: str,
                                                                server_data: Path, language: str) -> None:
    context = browser.new_context(base_url=base_url, locale=LOCALES[language])
    page = context.new_page()
    try:
        found = [line for path in GUEST_PAGES for line in audit(page, path)]
        for game in GAMES:   # a table in play: your seat's screen at the first turn
            page.goto(f'/test-table?game={game}')
            expect(page.get_by_test_id('table')).to_be_visible()
            wait_for(page, *{'chinchon': ('draw', 'discard'), 'ronda-robada': ('start', 'wait', 'play'),
                             'continental': ('offer', 'draw', 'play', 'wait')}[game], 'wait')
            found += blocking(page)
        # a hand's count, a computer playing your seat to it, then the hand's review
        page.goto('/test-table?game=chinchon')
        expect(page.get_by_test_id('table')).to_be_visible()
        autoplay(base_url, page)
        if wait_for(page, 'count', 'over', timeout=60000) == 'count':
            found += blocking(page)
        page.get_by_test_id('review').first.click()
        expect(page.get_by_test_id('replay')).to_be_visible()
        found += blocking(page)
        found += a_room(browser, base_url, page, language)
        # the account's own pages, signed in
        name = f'axe_{language}'
        register(page, language, name)
        record = a_finished_game(server_data, name)
        for path in ('/account', '/history', f'/history/{record}'):
            found += audit(page, path)
        with servers_database(server_data):   # and the moderators' desk, once a moderator
            moderation.grant(name)
        found += audit(page, '/admin')
    finally:
        context.close()
    assert not found, '\n'.join(found)
