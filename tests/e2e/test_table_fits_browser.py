"""Every game's table fits the window, at two seats and at its most, on a laptop, a big screen and
two phones: the page never scrolls (from a page's first frame on), every action of the moment is in
view, and the stock and your hand stay where they are while the turns go by (a computer plays your
seat too: serve.py's ``/test-autoplay``). One browser, one tab per table, three tables played side
by side; each tab goes through the window sizes in turn (resized, then loaded again, so each size
is seen from a first frame), watching the same table go on."""
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
AT_ONCE = 3   # tables played side by side

# at every change of the page: whether it scrolls, the enabled buttons of the action bar outside the
# window, where the stock and your hand are, and whose turn it is, for the window's size as it is.
# Kept in the tab's session storage, so that a page the browser loads again (its socket lost on a
# busy machine, or a test's reload) goes on counting; ``__fitReset`` starts again for a new table.
# ``__fitHold`` stops the counting until the next document starts (a window about to be resized:
# each size counts from a first frame, as a window opened at that size shows it). Once it has seen
# TURNS turns at a size, the page brings you back (serve.py's ``/test-come-back``): its table waits
# for you instead of playing on unwatched while the test waits for the other tables.
WATCH = """(() => {
  const KEY = 'hod-fit';
  const load = () => JSON.parse(sessionStorage.getItem(KEY) || '{"hold": false, "sizes": {}}');
  const save = (all) => sessionStorage.setItem(KEY, JSON.stringify(all));
  const size = () => `${innerWidth}x${innerHeight}`;
  window.__fitReset = () => save({hold: true, sizes: {}});
  window.__fitHold = () => { const all = load(); all.hold = true; save(all); };
  window.__fitState = () => load().sizes[size()] || {turns: 0};
  window.__fitStates = () => load().sizes;
  try { const all = load(); all.hold = false; save(all); } catch (e) {}   // no storage on about:blank
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
    const all = load(), table = document.querySelector('[data-testid=table]');
    // a page not yet styled is not shown yet (components/frame.py's gate): what nobody sees does not move
    if (all.hold || !table || getComputedStyle(table).visibility === 'hidden') return;
    const state = all.sizes[size()] ||= {turns: 0, turn: null, playing: 0, scroll: [], outside: [], stock: {}, hand: {}};
    const phase = table.dataset.phase;
    if (table.dataset.turn !== state.turn) { state.turn = table.dataset.turn; state.turns += 1; }
    const scroll = document.scrollingElement.scrollHeight - innerHeight;
    if (scroll > 0 && state.scroll.length < 5) state.scroll.push([phase, scroll, below()]);
    const out = outside();
    if (out.length && state.outside.length < 5) state.outside.push([phase, out]);
    if (state.turns > %(turns)d && !state.enough) {   // watched long enough here: the table waits for you
      state.enough = true;
      fetch(`/test-come-back?table_id=${location.pathname.split('/').pop()}`, {method: 'POST'});
    }
    if (!['count', 'over'].includes(phase)) {
      state.playing += 1;
      for (const part of ['stock', 'hand']) { const at = box(`[data-testid=${part}]`); if (at) state[part][at] = phase; }
    }
    save(all);
  };
  new MutationObserver(record).observe(document, {subtree: true, childList: true, attributes: true,
                                                  characterData: true});
})();""" % {'turns': TURNS}

MOVED_ON = """(turns) => window.__fitState().turns > turns
  || ['count', 'over'].includes(document.querySelector('[data-testid=table]')?.dataset.phase)"""


def open_tables(pages: list[Page], base_url: str, tables: list[tuple[str, int, int]]) -> None:
    """A new table in each tab (loaded side by side, watched from its first frame), then a computer
    plays your seat at each."""
    for page, (game, seats, hand) in zip(pages, tables):
        if page.url != 'about:blank':   # a new tab counts from its first document anyway
            page.evaluate('window.__fitReset()')
        page.goto(f'/test-table?game={game}&seats={seats}&hand={hand}', wait_until='commit')
    for page in pages[:len(tables)]:
        expect(page.get_by_test_id('table')).to_be_visible()
        autoplay(base_url, page)


def load_at(page: Page, width: int, height: int) -> None:
    """The tab at this window size, loaded again: it counts from its first frame, and you are back
    (the table waits for you at your turn, until a computer plays your seat again)."""
    page.evaluate('window.__fitHold()')
    page.set_viewport_size({'width': width, 'height': height})
    try:
        page.reload(wait_until='commit')
    except PlaywrightError:   # the page went to a new load itself meanwhile: as good
        pass


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
    """Wait for TURNS turns more at the window's size, reading every count and dealing again after
    a game's end (what the person's screen waits for). A table that waits for you has seen you come
    back (a page of it loaded again by itself): the computer plays your seat again, once."""
    autoplayed = False
    while True:
        try:
            page.wait_for_function(MOVED_ON, arg=TURNS, timeout=20000)
        except PlaywrightTimeout:
            table = page.get_by_test_id('table')
            if autoplayed or table.get_attribute('data-phase') == 'wait':
                raise AssertionError(f'the table stopped at {page.url}: phase {table.get_attribute("data-phase")}, '
                                     f'{page.evaluate("window.__fitState().turns")} turns') from None
            autoplayed = True
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


def sizes_from(start: int) -> list[tuple[int, int]]:
    """The window sizes in the order a tab goes through them, from this one: the tables take turns
    at which size sees a game's first frames."""
    start %= len(SIZES)
    return SIZES[start:] + SIZES[:start]


def test_every_table_fits_every_window_and_keeps_its_places(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, locale='es-ES')
    try:
        context.add_init_script(WATCH)
        pages = [context.new_page() for _ in range(AT_ONCE)]
        for first in range(0, len(TABLES), AT_ONCE):
            tables = TABLES[first:first + AT_ONCE]
            orders = [sizes_from(first + n) for n in range(len(tables))]
            for page, order in zip(pages, orders):
                page.set_viewport_size({'width': order[0][0], 'height': order[0][1]})
            open_tables(pages, base_url, tables)
            # each table, as soon as it has been watched long enough at a size, at its next size
            # (where it waits for you meanwhile), and at last at its first size again, from the
            # first frame of a page loaded in the middle of the game (Quasar pads the page by a
            # guessed header height until it has measured it)
            for step in range(1, len(SIZES) + 1):
                for page, order in zip(pages, orders):
                    play_on(page, base_url)
                    load_at(page, *order[step % len(SIZES)])
                for page in pages[:len(tables)]:
                    expect(page.get_by_test_id('table')).to_be_visible()
                    if step < len(SIZES):
                        autoplay(base_url, page)
            for page, (game, seats, _) in zip(pages, tables):
                seen = page.evaluate('window.__fitStates()')
                for width, height in SIZES:
                    where = f'{game} at {seats} seats, {width}x{height}'
                    check(seen.get(f'{width}x{height}', {'turns': 0}), where)
    finally:
        context.close()


def check(seen: dict, where: str) -> None:
    assert seen['turns'] > TURNS, f'too few turns watched: {where}: {seen["turns"]}'
    assert not seen['scroll'], f'the page scrolls: {where}: {seen["scroll"]}'
    assert not seen['outside'], f'actions out of the window: {where}: {seen["outside"]}'
    assert seen['playing'] > 5, f'too little play watched: {where}'
    for part in ('stock', 'hand'):
        assert len(seen[part]) == 1, f'the {part} moved: {where}: {seen[part]}'
