"""What the browser tests of every game's table share: dealing a game at instant speed, waiting
for a phase or a move, and watching which cards the page has shown in its public places (to
compare with every card code the server sent)."""
from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from leaks import codes

PHASE_IS = "(phases) => phases.includes(document.querySelector('[data-testid=table]')?.dataset.phase)"
SAVED_AT_LEAST = "(version) => Number(document.querySelector('[data-testid=table]')?.dataset.saved) >= version"


def post(url: str, timeout: float = 120) -> str:
    """A POST to one of the test server's routes (serve.py), which must answer 200; its body."""
    with urllib.request.urlopen(urllib.request.Request(url, method='POST'), timeout=timeout) as response:
        assert response.status == 200
        return response.read().decode()


def table_id(page: Page) -> str:
    """The id of the table this page shows (its address ends with it)."""
    return page.url.rsplit('/', 1)[1]


def people_play(base_url: str, page: Page, moves: int = 0, *, to_count: bool = False) -> None:
    """The people at the table on this page make their next ``moves`` decisions (0: every one
    left; ``to_count``: up to the hand's count), each as the easy computer would, made by the
    server (serve.py's /test-play-out and /test-play-to-count) while the screens follow them:
    no click, and no wait of the test's, per move. Returns once the last one is made."""
    route = f'test-play-to-count?table_id={table_id(page)}' if to_count else \
        f'test-play-out?table_id={table_id(page)}&moves={moves}'
    post(f'{base_url}/{route}')


# gathers into window.__shown every card shown in the public places, from the document's start
# (an init script: a card shown in the first render and covered before the test looks counts)
WATCH_SHOWN = """(() => {
  const selector = %s;
  window.__shown = new Set();
  const collect = () => document.querySelectorAll(selector).forEach(e => window.__shown.add(e.dataset.card));
  new MutationObserver(collect).observe(document, {subtree: true, childList: true, attributes: true,
                                                   attributeFilter: ['data-card']});
})();"""


def watch_shown(page: Page, places: tuple[str, ...]) -> None:
    """On every document this page loads from now on, ``window.__shown`` gathers every card shown
    in these places (test ids)."""
    selector = ', '.join(f'[data-testid={place}][data-card], [data-testid={place}] [data-card]' for place in places)
    page.add_init_script(WATCH_SHOWN % json.dumps(selector))


def shown(page: Page) -> set[str]:
    return set(page.evaluate('() => [...window.__shown]'))


def assert_public(page: Page, sent: set[str]) -> None:
    """Every card code the browser received has been shown in a public place. Playwright may
    report a frame before the page has applied it: a card not shown yet may still appear (up to 5 s)."""
    missing = sent - shown(page)
    if missing:
        try:
            page.wait_for_function('(codes) => codes.every(code => window.__shown.has(code))',
                                   arg=sorted(missing), timeout=5000)
        except PlaywrightTimeout:
            pass
        missing = sent - shown(page)
    assert not missing, f'cards sent before they were public: {sorted(missing)}'


def start_game(page: Page, game: str, seats: int) -> None:
    page.goto(f'/play/{game}')
    page.get_by_role('button', name=str(seats), exact=True).click()
    page.get_by_role('button', name='Al instante').click()
    page.get_by_test_id('start').click()
    expect(page.get_by_test_id('table')).to_be_visible()


def wait_for(page: Page, *phases: str, timeout: float = 30000) -> str:
    page.wait_for_function(PHASE_IS, arg=list(phases), timeout=timeout)
    return page.get_by_test_id('table').get_attribute('data-phase')


def version(page: Page) -> str:
    return page.get_by_test_id('table').get_attribute('data-version')


def moved_on(page: Page, before: str) -> None:
    page.wait_for_function(f"document.querySelector('[data-testid=table]').dataset.version !== '{before}'")


def saved(page: Page, version: int | str) -> None:
    """Return once the server has saved the table on this page at this version or a later one:
    the screen's data-saved moves once the write is committed, a few milliseconds after the step."""
    page.wait_for_function(SAVED_AT_LEAST, arg=int(version))


class FrameWatch:
    """Every websocket frame the page receives, held against the cards it has shown in these
    public places: ``check`` fails when a card code was sent before it was public. Made before
    the table's page opens (its socket and its documents are watched from the start); ``begin``
    once the table is on screen."""

    def __init__(self, page: Page, places: tuple[str, ...]) -> None:
        self.page, self.frames, self.sent = page, [], set()
        self.where: dict[str, str] = {}   # a code -> an excerpt of the frame that first carried it
        watch_shown(page, places)
        page.on('websocket', lambda ws: ws.on('framereceived', lambda payload: self.frames.append(str(payload))))

    def begin(self) -> None:
        """The cards the page holds as it is now (its first render included) count as sent."""
        self.sent = codes(self.page.content())

    def check(self) -> int:
        """Every card received so far was, by now, on the table or in your hand; returns how many."""
        for frame in self.frames:
            for code in codes(frame) - self.sent:
                at = frame.find(code)
                self.where.setdefault(code, frame[max(0, at - 300):at + 100])
            self.sent |= codes(frame)
        self.frames.clear()
        try:
            assert_public(self.page, self.sent)
        except AssertionError as failure:   # say where the card came from: the fix starts there
            missing = self.sent - shown(self.page)
            raise AssertionError(f'{failure}; first seen in: '
                                 f'{ {code: self.where.get(code) for code in sorted(missing)} }') from None
        return len(self.sent)

    def restart(self) -> None:
        """New cards from here on (a new hand of two decks): what counts as public starts again."""
        self.sent, self.where = set(), {}
        self.page.evaluate('() => window.__shown.clear()')
