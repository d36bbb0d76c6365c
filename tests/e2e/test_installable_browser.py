"""The site installs as an app in a real Chromium: every page links its manifest (served as one,
with its icons), the service worker registers for the whole site, keeps static files only, and
a page that cannot load for want of a connection shows the offline page in the browser's language,
and once the site answers again that page goes back by itself to the one asked for.

The connection is really taken away: the test has a server of its own, and stops it. The browser's
offline emulation is not used, because it reaches the service worker only when that worker is
running as it is set (a worker started again for the navigation may still fetch from the network)."""
from __future__ import annotations

import struct
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from app.i18n import CATALOGS
from conftest import free_port, start_server, stop_server

CACHED = """async () => { const urls = [];
  for (const key of await caches.keys()) for (const request of await (await caches.open(key)).keys())
    urls.push(new URL(request.url).pathname);
  return urls; }"""


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b'\x89PNG\r\n\x1a\n'
    return struct.unpack('>II', body[16:24])


class OwnServer:
    """A server that this module starts, stops and starts again, on one address (the worker's
    origin)."""

    def __init__(self) -> None:
        self.data, self.port = Path(tempfile.mkdtemp(prefix='hod-offline-')), free_port()
        self.url = f'http://127.0.0.1:{self.port}'
        self.process = start_server(self.data, self.port)

    def stop(self) -> None:
        if self.process is not None:
            stop_server(self.process)
            self.process = None

    def start(self) -> None:
        if self.process is None:
            self.process = start_server(self.data, self.port)


@pytest.fixture(scope='module')
def own_server() -> Iterator[OwnServer]:
    server = OwnServer()
    yield server
    server.stop()


# the browser's languages the offline page speaks: Spanish (most of our players) and English
LANGUAGES = (('es-ES', 'es'), ('en-US', 'en'))


def installed(browser: Browser, base_url: str, locale: str) -> Page:
    """A tab in a browser of this language that finds the site installable (its manifest and icons)
    and under its service worker, which keeps static files only; left on a blank page, so that no
    socket of the site's is left to drop and reload its page once the server is gone."""
    context = browser.new_context(base_url=base_url, locale=locale)
    page = context.new_page()
    page.goto('/')
    href = page.locator('link[rel=manifest]').get_attribute('href')
    response = page.request.get(href)
    assert response.ok and response.headers['content-type'].startswith('application/manifest+json')
    manifest = response.json()
    assert manifest['name'] == 'House Of Decks' and manifest['short_name'] and manifest['start_url'] == '/'
    assert manifest['theme_color'] == page.locator('meta[name=theme-color]').get_attribute('content')
    sizes = set()
    for icon in manifest['icons']:
        image = page.request.get(icon['src'])
        assert image.ok and image.headers['content-type'] == 'image/png'
        width, height = png_size(image.body())
        assert f'{width}x{height}' == icon['sizes']
        sizes.add(width)
    assert {192, 512} <= sizes
    # the worker takes the whole site and is running
    scope = page.evaluate('async () => (await navigator.serviceWorker.ready).scope')
    assert scope == f'{base_url}/'
    page.reload()   # now a page under the worker: its static files pass through it
    page.wait_for_function('navigator.serviceWorker.controller !== null')
    kept = page.evaluate(CACHED)
    assert '/offline.html' in kept and any(path.endswith('icon-512.png') for path in kept)
    assert all(path.startswith(('/static/', '/_nicegui/')) and '/static/' in path or path == '/offline.html'
               for path in kept), f'the worker kept what is no static file: {kept}'
    page.goto('about:blank')
    return page


def test_the_site_installs_and_a_page_offline_says_so_in_your_language_and_comes_back_by_itself(
        browser: Browser, own_server: OwnServer) -> None:
    """Both languages through one outage: a browser of each, under the worker, while the server is
    stopped once and started once again (each start of the whole site costs seconds)."""
    own_server.start()
    base_url = own_server.url
    pages = {language: installed(browser, base_url, locale) for locale, language in LANGUAGES}
    # without a connection a page shows the offline page, in the browser's language
    own_server.stop()
    for language, page in pages.items():
        page.goto('/play/chinchon')
        words = CATALOGS[language]
        expect(page.get_by_test_id('offline')).to_be_visible()
        expect(page.locator('h1')).to_have_text(words['offline.title'])
        expect(page.get_by_text(words['offline.body'])).to_be_visible()
        assert page.evaluate('document.documentElement.lang') == language
    own_server.start()   # the same address and data: the site answers again
    # nobody clicks: each offline page asks again by itself and goes back to the page asked for
    # (after 1 s, 3 s, 7 s, 15 s, then every 15 s: well within the wait, however long the start took)
    for page in pages.values():
        expect(page.get_by_test_id('setup')).to_be_visible(timeout=40_000)
        expect(page.get_by_test_id('offline')).to_have_count(0)
        assert page.url == f'{base_url}/play/chinchon'
        page.context.close()
