"""Every game's table fits the window, at two seats and at its most, on a laptop, a big screen and
two phones: the page never scrolls (from a page's first frame on), every action of the moment is in
view, and the stock and your hand stay where they are while the turns go by (a computer plays your
seat too: serve.py's ``/test-autoplay``). One browser, one tab per table, two tables played side by
side; each tab goes round the window sizes as the game goes on, a round of the table (your turn
and the others') at each, so that every size sees turns from the whole game, and every count and
game's end is seen at every size. The table waits for you after each round: it plays no turn that
no size watches (a tab per size over tables that ran free cost 1.6 times the CPU)."""
from __future__ import annotations

import urllib.request

from playwright.sync_api import Browser, Error as PlaywrightError, Page, expect

SIZES = [(1280, 800), (1366, 768), (1920, 1080), (390, 844), (360, 740)]
# (game, seats, hand): Continental's seventh hand holds its longest hands (12 cards, 13 after a draw)
TABLES = [('chinchon', 2, 1), ('ronda-robada', 4, 1), ('continental', 2, 7),
          ('chinchon', 6, 1), ('ronda-robada', 2, 1), ('continental', 6, 1)]
ROUNDS = 3   # of the sizes, a round of the table at each: 15 of your turns, and the others' between
AT_ONCE = 2   # tables played side by side

# at every change of the page, for the window's size of the moment: whether it scrolls, the enabled
# buttons of the action bar outside the window, where the stock and your hand are; and whose turn it
# is. Kept in the tab's session storage, so that a page the browser loads again (its socket lost on
# a busy machine) goes on counting; ``__fitReset`` starts again for a new table, ``__fitResized``
# looks once the page has drawn itself in a new window size (a new size changes nothing in the page).
WATCH = """(() => {
  const KEY = 'hod-fit';
  const load = () => JSON.parse(sessionStorage.getItem(KEY) || 'null');
  window.__fitReset = () => sessionStorage.setItem(KEY, JSON.stringify({turns: 0, turn: null, sizes: {}}));
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
    // a page not yet styled is not shown yet (components/frame.py's gate), nor one whose window has
    // just changed size and not yet drawn in it (its own resize handling runs before the next frame)
    if (!state || !table || window.__fitResizing || getComputedStyle(table).visibility === 'hidden') return;
    const phase = table.dataset.phase;
    if (table.dataset.turn !== state.turn) { state.turn = table.dataset.turn; state.turns += 1; }
    const size = state.sizes[`${innerWidth}x${innerHeight}`] ??= {scroll: [], outside: [], playing: 0, stock: {}, hand: {}};
    const scroll = document.scrollingElement.scrollHeight - innerHeight;
    if (scroll > 0 && size.scroll.length < 5) size.scroll.push([phase, scroll, below()]);
    const out = outside();
    if (out.length && size.outside.length < 5) size.outside.push([phase, out]);
    if (!['count', 'over'].includes(phase)) {
      size.playing += 1;
      for (const part of ['stock', 'hand']) { const at = box(`[data-testid=${part}]`); if (at) size[part][at] = phase; }
    }
    sessionStorage.setItem(KEY, JSON.stringify(state));
  };
  // the next two frames drawn, or a second at most (a tab that draws no frames)
  window.__fitResized = () => new Promise((done) => {
    const settled = () => { window.__fitResizing = false; record(); done(load().turns); };
    requestAnimationFrame(() => requestAnimationFrame(settled)); setTimeout(settled, 1000); });
  new MutationObserver(record).observe(document, {subtree: true, childList: true, attributes: true,
                                                  characterData: true});
})();"""

# your turn again after the others' (the table waits for you), or a count or a game's end
ROUND_DONE = """(turns) => { const table = document.querySelector('[data-testid=table]');
  return (window.__fitState().turns > turns && table?.dataset.turn === '0')
    || ['count', 'over'].includes(table?.dataset.phase); }"""


def open_tables(tabs: list[Page], tables: list[tuple[str, int, int]]) -> None:
    """A new table in each tab (loaded side by side)."""
    for page, (game, seats, hand) in zip(tabs, tables):
        page.goto(f'/test-table?game={game}&seats={seats}&hand={hand}', wait_until='commit')
    for page in tabs:
        expect(page.get_by_test_id('table')).to_be_visible()
        page.evaluate('window.__fitReset()')


def autoplay(base_url: str, page: Page, reason: str = 'away') -> None:
    """A computer plays your seat from now on, until a screen of it opens again (a page that its
    browser loads again brings you back); ``reason='clock'``: your turn alone, then the table waits
    for you again."""
    table_id = page.url.rsplit('/', 1)[1]
    request = urllib.request.Request(f'{base_url}/test-autoplay?table_id={table_id}&reason={reason}', method='POST')
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def version(page: Page) -> int:
    return int(page.get_by_test_id('table').get_attribute('data-version'))


def show(page: Page, size: tuple[int, int]) -> int:
    """The window takes this size and the watch looks at the page once it has drawn itself in it
    (not before: the page's own resize handling runs before the next frame, so nobody sees the
    moment between); returns the turns seen so far."""
    page.bring_to_front()   # Chromium draws no frames in a tab behind another
    page.evaluate('window.__fitResizing = true')
    page.set_viewport_size({'width': size[0], 'height': size[1]})
    return page.evaluate('window.__fitResized()')


def start_round(page: Page, base_url: str, size: tuple[int, int]) -> int:
    """At this size, a computer plays your turn, and the others play theirs; returns the turns seen
    before."""
    turns = show(page, size)
    autoplay(base_url, page, reason='clock')
    return turns


def end_round(page: Page, turns: int, size: tuple[int, int]) -> None:
    """Until it is your turn again. A count or a game's end is looked at in every size, then read
    (dealing again, what the person's screen waits for), and the tab goes back to its size."""
    page.wait_for_function(ROUND_DONE, arg=turns, timeout=20000)
    phase = page.get_by_test_id('table').get_attribute('data-phase')
    if phase not in ('count', 'over'):
        return
    button = page.get_by_test_id('next-hand' if phase == 'count' else 'play-again')
    expect(button).to_be_enabled()
    for other in [*SIZES, size]:
        show(page, other)
    before = version(page)
    button.click()
    page.wait_for_function("(before) => Number(document.querySelector('[data-testid=table]')"
                           ".dataset.version) !== before || !document.querySelector("
                           "'[data-testid=next-hand], [data-testid=play-again]')", arg=before)


def test_every_table_fits_every_window_and_keeps_its_places(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, locale='es-ES')
    try:
        context.add_init_script(WATCH)
        tabs = [context.new_page() for _ in range(AT_ONCE)]
        for first in range(0, len(TABLES), AT_ONCE):
            tables = TABLES[first:first + AT_ONCE]
            for page in tabs:
                page.set_viewport_size({'width': SIZES[0][0], 'height': SIZES[0][1]})
            open_tables(tabs, tables)
            for visit in range(ROUNDS * len(SIZES)):
                size = SIZES[visit % len(SIZES)]
                turns = [start_round(page, base_url, size) for page in tabs]
                for page, seen in zip(tabs, turns):
                    end_round(page, seen, size)
            # and from the first frame of a page loaded again at each size (Quasar pads the page by a
            # guessed header height until it has measured it)
            for size in SIZES:
                for page in tabs:
                    page.set_viewport_size({'width': size[0], 'height': size[1]})
                    try:
                        page.reload(wait_until='commit')
                    except PlaywrightError:   # the page went to a new load itself meanwhile: as good
                        pass
                for page in tabs:
                    expect(page.get_by_test_id('table')).to_be_visible()
            for page, (game, seats, _) in zip(tabs, tables):
                sizes = page.evaluate('window.__fitState().sizes')
                for width, height in SIZES:
                    check(sizes.get(f'{width}x{height}'), f'{game} at {seats} seats, {width}x{height}')
    finally:
        context.close()


def check(seen: dict | None, where: str) -> None:
    assert seen is not None, f'never watched: {where}'
    assert not seen['scroll'], f'the page scrolls: {where}: {seen["scroll"]}'
    assert not seen['outside'], f'actions out of the window: {where}: {seen["outside"]}'
    assert seen['playing'] > 5, f'too little play watched: {where}'
    for part in ('stock', 'hand'):
        assert len(seen[part]) == 1, f'the {part} moved: {where}: {seen[part]}'
