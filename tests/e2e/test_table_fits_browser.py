"""Every game's table fits the window, at two seats and at its most, on a laptop, a big screen and
two phones: the page never scrolls, every action of the moment is in view, and the stock and your
hand stay where they are while the turns go by (a computer plays your seat too: serve.py's
``/test-autoplay``). One browser and one page per table; the sizes are taken in turn by every
table at once, while they all play."""
from __future__ import annotations

import urllib.request

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SIZES = [(1280, 800), (1366, 768), (1920, 1080), (390, 844), (360, 740)]
# (game, seats, hand): Continental's seventh hand holds its longest hands (12 cards, 13 after a draw)
TABLES = [('chinchon', 2, 1), ('chinchon', 6, 1), ('ronda-robada', 2, 1), ('ronda-robada', 4, 1),
          ('continental', 2, 7), ('continental', 6, 1)]
TURNS = 20   # watched at each size (yours played by a computer too)

# at every change of the page: the phase, whether the page scrolls, the enabled buttons of the
# action bar outside the window, and where the stock and your hand are
WATCH = """() => {
  const box = (selector) => { const el = document.querySelector(selector);
    if (!el) return null; const r = el.getBoundingClientRect();
    return r.width ? `${Math.round(r.left)},${Math.round(r.top + window.scrollY)}` : null; };
  const outside = () => [...document.querySelectorAll('[data-testid=action-bar] button:not([disabled])')]
    .filter((b) => b.offsetParent !== null && getComputedStyle(b).visibility !== 'hidden')
    .map((b) => [b.dataset.testid, b.getBoundingClientRect()])
    .filter(([, r]) => r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
    .map(([testid]) => testid);
  const below = () => [...document.querySelectorAll('body *')].filter((el) => {
      const r = el.getBoundingClientRect(); return r.height && r.bottom > innerHeight + 0.5; })
    .slice(0, 6).map((el) => `${el.tagName}.${el.className}[${el.dataset.testid || ''}]`);
  const record = () => {
    const table = document.querySelector('[data-testid=table]');
    if (!table) return;
    if (document.scrollingElement.scrollHeight > innerHeight && !window.__below) window.__below = below();
    if (table.dataset.turn !== window.__turn) { window.__turn = table.dataset.turn; window.__turns += 1; }
    window.__fit.push({phase: table.dataset.phase,
      scroll: document.scrollingElement.scrollHeight - innerHeight, outside: outside(),
      stock: box('[data-testid=stock]'), hand: box('[data-testid=hand]')});
  };
  window.__fit = []; window.__turns = 0; window.__turn = undefined;
  if (!window.__fitWatch) {
    window.__fitWatch = new MutationObserver(() => window.__fit && record());
    window.__fitWatch.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  }
  record();
}"""

MOVED_ON = """(turns) => window.__turns > turns
  || ['count', 'over'].includes(document.querySelector('[data-testid=table]')?.dataset.phase)"""


def open_table(pages: list[Page], base_url: str, game: str, seats: int, hand: int) -> None:
    """A new table in every tab, then a computer plays your seat (opening a screen of it would bring
    you back)."""
    first, *others = pages
    first.goto(f'/test-table?game={game}&seats={seats}&hand={hand}')
    expect(first.get_by_test_id('table')).to_be_visible()
    for page in others:   # loaded side by side
        page.goto(first.url, wait_until='commit')
    for page in others:
        expect(page.get_by_test_id('table')).to_be_visible()
    table_id = first.url.rsplit('/', 1)[1]
    request = urllib.request.Request(f'{base_url}/test-autoplay?table_id={table_id}', method='POST')
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def version(page: Page) -> int:
    return int(page.get_by_test_id('table').get_attribute('data-version'))


def play_on(page: Page) -> None:
    """Wait for TURNS turns more, reading every count and dealing again after a game's end (what
    the person's screen waits for)."""
    while True:
        try:
            page.wait_for_function(MOVED_ON, arg=TURNS, timeout=30000)
        except PlaywrightTimeout:
            table = page.get_by_test_id('table')
            raise AssertionError(f'the table stopped at {page.url}: phase {table.get_attribute("data-phase")}, '
                                 f'{page.evaluate("window.__turns")} turns') from None
        if page.evaluate('window.__turns') > TURNS:
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
        pages = {}   # one tab per window size, all showing the same table (the same seat)
        for width, height in SIZES:
            pages[width, height] = context.new_page()
            pages[width, height].set_viewport_size({'width': width, 'height': height})
        for game, seats, hand in TABLES:
            open_table(list(pages.values()), base_url, game, seats, hand)
            for page in pages.values():
                page.evaluate(WATCH)
            for page in pages.values():
                play_on(page)
            for (width, height), page in pages.items():
                check(page.evaluate('() => window.__fit'), f'{game} at {seats} seats, {width}x{height}')
    finally:
        context.close()


def check(seen: list[dict], where: str) -> None:
    scrolled = [(entry['phase'], entry['scroll']) for entry in seen if entry['scroll'] > 0]
    assert not scrolled, f'the page scrolls: {where}: {scrolled[:3]}'
    outside = [entry['outside'] for entry in seen if entry['outside']]
    assert not outside, f'actions out of the window: {where}: {outside[:3]}'
    playing = [entry for entry in seen if entry['phase'] not in ('count', 'over')]
    assert len(playing) > 5, f'too little play watched: {where}'
    for part in ('stock', 'hand'):
        places = {entry[part] for entry in playing} - {None}
        assert len(places) == 1, f'the {part} moved: {where}: {sorted(places)}'
