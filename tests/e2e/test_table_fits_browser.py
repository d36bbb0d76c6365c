"""Every game's table fits the window, at two seats and at its most, on a laptop, a big screen and
two phones: the page never scrolls (from a page's first frame on), every action of the moment is in
view, and the stock and your hand stay where they are while the turns go by (a computer plays your
seat too: serve.py's ``/test-autoplay``). One browser, one tab per window size showing the same
table, two tables played side by side."""
from __future__ import annotations

import urllib.request

from playwright.sync_api import Browser, Error as PlaywrightError, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# a laptop, a big screen, two phones. One laptop size holds both common ones at their tightest
# (1280 px wide as 1280x800, 768 px high as 1366x768): between 1024 and 1599 px the table has the
# same rules (components/table/fit.py), a height from the window's, so a window larger both ways
# has only more room
SIZES = [(1280, 768), (1920, 1080), (390, 844), (360, 740)]
# (game, seats, hand): Continental's seventh hand holds its longest hands (12 cards, 13 after a draw)
TABLES = [('chinchon', 2, 1), ('ronda-robada', 4, 1), ('continental', 2, 7),
          ('chinchon', 6, 1), ('ronda-robada', 2, 1), ('continental', 6, 1)]
TURNS = 12   # watched at each size (yours played by a computer too): two rounds at six seats, six turns each at two
AT_ONCE = 2   # tables played side by side

# at every change of the page: whether it scrolls, the enabled buttons of the action bar outside the
# window, where the stock and your hand are, and whose turn it is. Kept in the tab's session
# storage, so that a page the browser loads again (its socket lost on a busy machine) goes on
# counting; ``__fitReset`` starts again for a new table.
WATCH = """(() => {
  const KEY = 'hod-fit';
  const load = () => JSON.parse(sessionStorage.getItem(KEY) || 'null');
  window.__fitReset = () => sessionStorage.setItem(KEY, JSON.stringify({turns: 0, turn: null, playing: 0,
    scroll: [], outside: [], stock: {}, hand: {}}));
  window.__fitState = load;
  const box = (selector) => { const el = document.querySelector(selector);
    if (!el) return null; const r = el.getBoundingClientRect();
    return r.width ? `${Math.round(r.left)},${Math.round(r.top + window.scrollY)}` : null; };
  const outside = () => [...document.querySelectorAll('[data-testid=action-bar] button:not([disabled])')]
    .filter((b) => b.offsetParent !== null && getComputedStyle(b).visibility !== 'hidden')
    .filter((b) => { const r = b.getBoundingClientRect();
      return r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5; })
    .map((b) => b.dataset.testid);
  // what reaches below the window and is not clipped by a box that scrolls or hides its overflow:
  // the failure names it
  const clipped = (el) => { for (let up = el.parentElement; up && up.id !== 'main'; up = up.parentElement) {
    if (getComputedStyle(up).overflowY !== 'visible') return true; } return false; };
  const below = () => [...document.querySelectorAll('#main *')].filter((el) => {
      const r = el.getBoundingClientRect(); return r.height && r.bottom > innerHeight + 0.5 && !clipped(el); })
    .slice(-3).map((el) => `${el.tagName}.${el.className}[${el.dataset.testid || ''}]`);
  const record = () => {
    const state = load(), table = document.querySelector('[data-testid=table]');
    // a page not yet styled is not shown yet (components/frame.py's gate): what nobody sees does not move
    if (!state || !table || getComputedStyle(table).visibility === 'hidden') return;
    const phase = table.dataset.phase;
    if (table.dataset.turn !== state.turn) { state.turn = table.dataset.turn; state.turns += 1; }
    const scroll = document.scrollingElement.scrollHeight - innerHeight;
    if (scroll > 0 && state.scroll.length < 5) state.scroll.push([phase, scroll, below()]);
    const out = outside();
    if (out.length && state.outside.length < 5) state.outside.push([phase, out]);
    if (!['count', 'over'].includes(phase)) {
      state.playing += 1;
      for (const part of ['stock', 'hand']) { const at = box(`[data-testid=${part}]`); if (at) state[part][at] = phase; }
    }
    sessionStorage.setItem(KEY, JSON.stringify(state));
  };
  new MutationObserver(record).observe(document, {subtree: true, childList: true, attributes: true,
                                                  characterData: true});
})();"""

MOVED_ON = """(turns) => window.__fitState().turns > turns
  || ['count', 'over'].includes(document.querySelector('[data-testid=table]')?.dataset.phase)"""


def open_tables(tabs: list[list[Page]], base_url: str, tables: list[tuple[str, int, int]]) -> None:
    """A new table in each group of tabs (loaded side by side), then a computer plays your seat at
    each."""
    for pages, (game, seats, hand) in zip(tabs, tables):
        pages[0].goto(f'/test-table?game={game}&seats={seats}&hand={hand}', wait_until='commit')
    for pages in tabs:
        expect(pages[0].get_by_test_id('table')).to_be_visible()
        for page in pages[1:]:
            page.goto(pages[0].url, wait_until='commit')
    for pages in tabs:
        for page in pages:
            expect(page.get_by_test_id('table')).to_be_visible()
            page.evaluate('window.__fitReset()')
        autoplay(base_url, pages[0])


def autoplay(base_url: str, page: Page) -> None:
    """A computer plays your seat from now on, until a screen of it opens again (a page that its
    browser loads again brings you back)."""
    table_id = page.url.rsplit('/', 1)[1]
    request = urllib.request.Request(f'{base_url}/test-autoplay?table_id={table_id}', method='POST')
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def version(page: Page) -> int:
    return int(page.get_by_test_id('table').get_attribute('data-version'))


def play_on(page: Page, base_url: str) -> None:
    """Wait for TURNS turns more, reading every count and dealing again after a game's end (what
    the person's screen waits for). A table that waits for you has seen you come back (a page
    of it loaded again): the computer plays your seat again."""
    while True:
        try:
            page.wait_for_function(MOVED_ON, arg=TURNS, timeout=20000)
        except PlaywrightTimeout:
            table = page.get_by_test_id('table')
            if page.evaluate('window.__fitState().autoplayed') or table.get_attribute('data-phase') == 'wait':
                raise AssertionError(f'the table stopped at {page.url}: phase {table.get_attribute("data-phase")}, '
                                     f'{page.evaluate("window.__fitState().turns")} turns') from None
            page.evaluate('(() => { const s = window.__fitState(); s.autoplayed = true;'
                          ' sessionStorage.setItem("hod-fit", JSON.stringify(s)); })()')
            autoplay(base_url, page)
            continue
        if page.evaluate('window.__fitState().turns') > TURNS:
            return
        phase = page.get_by_test_id('table').get_attribute('data-phase')
        button = page.get_by_test_id('next-hand' if phase == 'count' else 'play-again')
        if button.count() and button.is_enabled():
            before = version(page)
            button.click()
            page.wait_for_function("(before) => Number(document.querySelector('[data-testid=table]')"
                                   ".dataset.version) !== before || !document.querySelector("
                                   "'[data-testid=next-hand], [data-testid=play-again]')", arg=before)


def test_every_table_fits_every_window_and_keeps_its_places(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, locale='es-ES')
    try:
        # a tab per window size for each of the tables played at once, all of a table's tabs
        # showing the same seat
        context.add_init_script(WATCH)
        tabs = [[context.new_page() for _ in SIZES] for _ in range(AT_ONCE)]
        for pages in tabs:
            for page, (width, height) in zip(pages, SIZES):
                page.set_viewport_size({'width': width, 'height': height})
        for first in range(0, len(TABLES), AT_ONCE):
            tables = TABLES[first:first + AT_ONCE]
            open_tables(tabs, base_url, tables)
            for pages in tabs:
                for page in pages:
                    play_on(page, base_url)
            # and from the first frame of a page loaded again (Quasar pads the page by a guessed
            # header height until it has measured it)
            for pages in tabs:
                for page in pages:
                    try:
                        page.reload(wait_until='commit')
                    except PlaywrightError:   # the page went to a new load itself meanwhile: as good
                        pass
                    expect(page.get_by_test_id('table')).to_be_visible()
            for pages, (game, seats, _) in zip(tabs, tables):
                for page, (width, height) in zip(pages, SIZES):
                    check(page.evaluate('window.__fitState()'), f'{game} at {seats} seats, {width}x{height}')
    finally:
        context.close()


def check(seen: dict, where: str) -> None:
    assert not seen['scroll'], f'the page scrolls: {where}: {seen["scroll"]}'
    assert not seen['outside'], f'actions out of the window: {where}: {seen["outside"]}'
    assert seen['playing'] > 5, f'too little play watched: {where}'
    for part in ('stock', 'hand'):
        assert len(seen[part]) == 1, f'the {part} moved: {where}: {seen[part]}'
