"""Every end of a game is whole in a real Chromium, on a laptop and on a phone: when a game ends
(and once its banner has faded) each button and link of the end panel lies inside the window, is
not cut off by the box around it, and is what a tap at its centre reaches. After a game against
the computer (Continental at the last move of its last hand), a rated public game (Ronda Robada against
computers, played out for you: serve.py's ``/test-play-out``), for its spectator, and after the daily
(instant pace). Each end is watched live in one tab at 390×844 and looked at, as it came, at
1280×800 too (the same page resized: the table's layout is CSS of the window's size, and its
animations stand still, so the banner is there at both sizes); one server for the module. Before
the end, a link of the site asks first at a rated game in play, and says what leaving costs."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import free_port, start_server, stop_server
from table_browser import post, table_id
from test_daily_browser import signed_in

SIZES = [(390, 844), (1280, 800)]   # the first: the size a game is watched at (fewer pixels to paint)

# what is wrong with the end panel: the page scrolls (what is below the window is not in view), or
# a button or link of it is outside the window, cut off by a box that clips its overflow, or
# covered at its centre by something else
WHOLE = """() => {
  const panel = document.querySelector('[data-testid=game-over]');
  if (!panel) return ['no end panel'];
  const controls = [...panel.querySelectorAll('button, a[href]')];
  if (!controls.length) return ['no way on from the end panel'];
  const problems = [];
  const scrolls = document.scrollingElement.scrollHeight - innerHeight;
  if (scrolls > 0.5) problems.push(`the page scrolls by ${scrolls} px`);
  for (const control of controls) {
    const r = control.getBoundingClientRect(), name = control.innerText.trim() || control.dataset.testid;
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
      problems.push(`${name}: outside the window ${JSON.stringify([r.left, r.top, r.right, r.bottom])}`);
    for (let up = control.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
      const box = up.getBoundingClientRect();
      if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.left < box.left - 0.5 || r.right > box.right + 0.5)
        problems.push(`${name}: cut off by ${up.tagName}.${up.className}`);
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !control.contains(hit))
      problems.push(`${name}: covered by ${hit ? hit.tagName + '.' + hit.className : 'nothing'}`);
  }
  return problems;
}"""
FADE = '() => document.getAnimations().forEach((animation) => animation.finish())'   # at once, not in 3.2 s
SLOT = "() => document.querySelector('.hod-banner-slot').getBoundingClientRect().height"


@pytest.fixture(scope='module')
def end_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    process = start_server(tmp_path_factory.mktemp('ends'), port, HOD_TEST_QUICK_SPEED='instant',
                           HOD_QUICK_WAIT='600', HOD_TEST_DAILY_SPEED='instant', HOD_TEST_WALL='2026-12-04T12:00:00',
                           HOD_TEST_DEALS='the end screens browser test')
    yield f'http://127.0.0.1:{port}'
    stop_server(process)


@pytest.fixture(scope='module')
def ana(browser: Browser, end_server: str) -> Iterator[BrowserContext]:
    """A signed-in person (rated games, the daily's board)."""
    context = signed_in(browser, end_server, 'ana_ends')
    yield context
    context.close()


def sized_tab(context: BrowserContext, width: int, height: int) -> Page:
    page = context.new_page()
    page.set_viewport_size({'width': width, 'height': height})
    return page


def tab(context: BrowserContext, path: str, first: Page | None = None) -> Page:
    """A tab of the first size showing the table at ``path`` (``first``: a tab of that size,
    ``sized_tab``, that has led there already), with its animations standing still until the test
    finishes them: a banner that comes with the end is still there when the end is looked at, at
    every size, however busy the machine."""
    page = first or sized_tab(context, *SIZES[0])
    if first is None:
        page.goto(path)
    expect(page.get_by_test_id('table')).to_be_visible(timeout=30000)
    cdp = context.new_cdp_session(page)
    cdp.send('Animation.enable')
    cdp.send('Animation.setPlaybackRate', {'playbackRate': 0})
    return page


def over(page: Page) -> None:
    """Wait for the end on Playwright's own polling, not a check at every frame of a whole game
    (the banner that comes with the end stands still until the test fades it)."""
    expect(page.get_by_test_id('table')).to_have_attribute('data-phase', 'over', timeout=120000)


def at_size(page: Page, width: int, height: int) -> str:
    """The page at this window size, laid out again (two frames: anything that measures the window
    has had its turn); returns the size's name for messages."""
    page.set_viewport_size({'width': width, 'height': height})
    page.evaluate('() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))')
    return f'{width}x{height}'


def assert_whole_ends(page: Page, where: str) -> None:
    """The tab reaches the end: its panel is whole as it comes, at every size, and once its banner
    has faded, which gives its row back, at every size again; then the tab closes."""
    over(page)
    expect(page.get_by_test_id('game-over')).to_be_visible()
    for size in SIZES:
        assert page.evaluate(WHOLE) == [], f'{where} at {at_size(page, *size)}, as the end comes'
    page.evaluate(FADE)
    for size in reversed(SIZES):
        seen = f'{where} at {at_size(page, *size)}'
        assert page.evaluate(SLOT) == 0, f'{seen}: a faded banner keeps its row'
        assert page.evaluate(WHOLE) == [], f'{seen}, once the banner has faded'
    page.close()


def test_the_end_of_a_game_against_the_computer_is_whole(browser: Browser, end_server: str) -> None:
    context = browser.new_context(base_url=end_server, locale='es-ES')
    page = tab(context, '/test-table?position=last-discard')   # its last hand, at its last move
    post(f'{end_server}/test-autoplay?table_id={table_id(page)}&through=true')
    assert_whole_ends(page, 'a game against the computer')
    context.close()


def test_the_end_of_a_rated_public_game_is_whole_for_its_player_and_its_spectator(
        browser: Browser, end_server: str, ana: BrowserContext) -> None:
    lobby = ana.new_page()
    lobby.goto('/play/ronda-robada')   # one short game
    lobby.get_by_test_id('quick-match').click()
    lobby.get_by_test_id('start-now').click()           # nobody else yet: computers sit with you
    expect(lobby.get_by_test_id('table')).to_be_visible(timeout=30000)
    path = lobby.url
    player = tab(ana, path)   # Ana's seat stays watched while this first tab leaves
    # a link of the site asks first while the rated game is played, and says what leaving costs
    lobby.get_by_role('link', name='Mesas abiertas').click()
    expect(lobby.get_by_test_id('leave-costs')).to_have_text(re.compile('quedas en último lugar'))
    lobby.get_by_test_id('leave-no').click()
    expect(lobby.get_by_test_id('leave-dialog')).to_have_count(0)
    assert lobby.url == path
    lobby.get_by_role('link', name='Mesas abiertas').click()
    lobby.get_by_test_id('leave-yes').click()
    lobby.wait_for_url(re.compile(r'/lobby$'))
    lobby.close()
    watcher = browser.new_context(base_url=end_server, locale='es-ES')
    spectator = tab(watcher, path)
    expect(spectator.get_by_test_id('spectator')).to_be_visible()
    post(f'{end_server}/test-play-out?table_id={table_id(player)}')
    over(player)
    expect(player.get_by_test_id('rating-change')).to_be_visible()
    assert_whole_ends(player, 'a rated public game')
    assert_whole_ends(spectator, "a rated public game's spectator")
    watcher.close()


def test_the_end_of_the_daily_is_whole(end_server: str, ana: BrowserContext) -> None:
    start = sized_tab(ana, *SIZES[0])   # the start's tab is the first one watching the end
    start.goto('/daily/chinchon')
    start.get_by_test_id('daily-start').click()
    expect(start.get_by_test_id('table')).to_be_visible(timeout=30000)
    page = tab(ana, start.url, first=start)
    post(f'{end_server}/test-autoplay?table_id={table_id(page)}&through=true')
    over(page)
    expect(page.get_by_test_id('daily-see-result')).to_be_visible()
    assert_whole_ends(page, 'the daily')
