"""The site as an installable web app: a manifest with its icons, and a service worker that keeps
only static files and shows a page in words when a page cannot load for want of a connection.

Nothing is played offline: every game lives on the server (one Table per game), so the worker never
answers a page or the socket from its cache. It keeps the icons and the offline page (precached when
it installs), and the CSS and JavaScript of the static routes as they are fetched: this site's
``/static/`` and NiceGUI's own, whose address carries its version. A page's navigation goes to the
network; only when that fails does the offline page answer, in Spanish or English by the browser's
language (Spanish unless it prefers English, like the site); it asks the site again by itself (after
1 s, 2 s, 4 s... 15 s apart at most) and goes back to the page asked for once the site answers, so a
restart of the server while a person reloads costs them nothing but the wait. The worker's script
names a version made from what it precaches, so a new release installs a new worker, which drops
the old caches.

Everything goes through NiceGUI's public API: ``app.add_static_files`` for the icons, ``app.get``
for the manifest, the worker (served from the root, so that its scope is the whole site) and the
offline page, and ``ui.add_head_html`` (``head_html``, in every page's frame) for the links.
"""
from __future__ import annotations

import hashlib
import json
from html import escape
from pathlib import Path

import nicegui
from nicegui import app
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from app.i18n import DEFAULT_LANGUAGE, LANGUAGES, language_from_header, translate

STATIC_DIR = Path(__file__).resolve().parent / 'static'
STATIC_PATH = '/static'
MANIFEST_PATH = '/manifest.webmanifest'
WORKER_PATH = '/sw.js'
OFFLINE_PATH = '/offline.html'
ICON_SIZES = (192, 512)
THEME_COLOUR = '#143d26'       # the site's header, which the browser's bar then continues
BACKGROUND_COLOUR = '#1f5f3a'  # the felt, shown while the installed app opens
OFFLINE_KEYS = ('offline.title', 'offline.body', 'offline.retry')
RETRY_FIRST_MS, RETRY_CAP_MS = 1000, 15000   # the offline page asks again after 1 s, 2 s, 4 s... 15 s at most


def icon_path(size: int) -> str:
    return f'{STATIC_PATH}/icon-{size}.png'


def icon_file(size: int) -> Path:
    return STATIC_DIR / f'icon-{size}.png'


# the browser's tab shows the app's own icon (ui.run serves this file at /favicon.ico, its link in every page)
FAVICON = icon_file(ICON_SIZES[0])


def head_html() -> str:
    """What every page's head carries: the manifest, the theme colour, the icon for iOS's home
    screen and the worker's registration (a browser without service workers just skips it)."""
    return (f'<link rel="manifest" href="{MANIFEST_PATH}"><meta name="theme-color" content="{THEME_COLOUR}">'
            f'<link rel="apple-touch-icon" href="{icon_path(192)}">'
            "<script>if ('serviceWorker' in navigator) window.addEventListener('load', () => "
            f"navigator.serviceWorker.register('{WORKER_PATH}', {{scope: '/'}}).catch(() => {{}}));</script>")


def manifest(language: str) -> dict:
    icons = [{'src': icon_path(size), 'sizes': f'{size}x{size}', 'type': 'image/png', 'purpose': purpose}
             for size in ICON_SIZES for purpose in ('any', 'maskable')]   # full-bleed felt: fit to be cut round
    return {'name': translate(language, 'site.name'), 'short_name': translate(language, 'site.short_name'),
            'description': translate(language, 'site.description'), 'lang': language, 'start_url': '/',
            'scope': '/', 'display': 'standalone', 'theme_color': THEME_COLOUR,
            'background_color': BACKGROUND_COLOUR, 'icons': icons}


def offline_html() -> str:
    """One page for both languages: Spanish as written, English swapped in by the browser's language."""
    words = {language: {key: translate(language, key) for key in OFFLINE_KEYS} for language in LANGUAGES}
    shown = words[DEFAULT_LANGUAGE]
    return f'''<!DOCTYPE html>
<html lang="{DEFAULT_LANGUAGE}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="theme-color" content="{THEME_COLOUR}">
<title data-key="offline.title">{escape(shown['offline.title'])}</title>
<style>body {{ margin: 0; min-height: 100vh; display: grid; place-items: center; background: {BACKGROUND_COLOUR};
  color: #fff; font: 18px/1.5 system-ui, sans-serif; text-align: center; }}
main {{ max-width: 26rem; padding: 24px; }} img {{ width: 96px; height: 96px; border-radius: 20px; }}
button {{ font: inherit; font-weight: 600; padding: 10px 22px; border: 0; border-radius: 8px; background: #e0b341;
  color: #1d2521; cursor: pointer; }}</style></head>
<body><main data-testid="offline">
<img src="{icon_path(192)}" alt="">
<h1 data-key="offline.title">{escape(shown['offline.title'])}</h1>
<p data-key="offline.body">{escape(shown['offline.body'])}</p>
<button type="button" data-key="offline.retry" onclick="location.reload()">{escape(shown['offline.retry'])}</button>
</main>
<script>
const WORDS = {json.dumps(words, ensure_ascii=False)};
const language = (navigator.language || '').toLowerCase().startsWith('en') ? 'en' : '{DEFAULT_LANGUAGE}';
document.documentElement.lang = language;
for (const el of document.querySelectorAll('[data-key]')) el.textContent = WORDS[language][el.dataset.key];
// the page asked for comes back by itself once the site answers again (a restart, a dropped
// network): a small request that neither the worker nor the browser's cache answers, soon at first,
// then less often, never more than {RETRY_CAP_MS // 1000} s apart
let wait = {RETRY_FIRST_MS}, timer = null, asking = false;
async function answers() {{
  try {{   // a server that takes the connection and never answers counts as none
    const response = await fetch('{OFFLINE_PATH}?probe=' + Date.now(),
                                 {{cache: 'no-store', signal: AbortSignal.timeout?.({RETRY_CAP_MS})}});
    return response.ok;
  }} catch {{ return false; }}
}}
async function probe() {{
  if (asking) return;   // one question at a time, whether the clock or the network's return asked it
  asking = true;
  clearTimeout(timer);
  if (await answers()) {{ location.reload(); return; }}
  asking = false;
  timer = setTimeout(probe, wait);
  wait = Math.min(wait * 2, {RETRY_CAP_MS});
}}
// opened at its own address, the page has nothing to go back to: reloading it would only show it again
if (location.pathname !== '{OFFLINE_PATH}') {{
  timer = setTimeout(probe, wait);
  wait *= 2;
  window.addEventListener('online', probe);
}}
</script></body></html>
'''


def worker_js() -> str:
    static_prefixes = [f'{STATIC_PATH}/', f'/_nicegui/{nicegui.__version__}/static/']
    precache = [OFFLINE_PATH, *(icon_path(size) for size in ICON_SIZES)]
    return f'''// House Of Decks: keeps static files only; a page that cannot load shows the offline page
const VERSION = '{_version()}';
const CACHE = `hod-static-${{VERSION}}`;
const OFFLINE = '{OFFLINE_PATH}';
const PRECACHE = {json.dumps(precache)};
const STATIC = {json.dumps(static_prefixes)};

self.addEventListener('install', (event) => {{
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
}});

self.addEventListener('activate', (event) => {{
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith('hod-') && key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
}});

self.addEventListener('fetch', (event) => {{
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {{   // always the network: the game is on the server
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }}
  if (!STATIC.some((prefix) => url.pathname.startsWith(prefix))) return;
  event.respondWith(caches.match(request).then((kept) => kept || fetch(request).then((response) => {{
    if (response.ok) {{
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }}
    return response;
  }})));
}});
'''


def _version() -> str:
    """Changes with the static files (the icons, the stylesheet), the offline page and NiceGUI's
    version: a new worker, fresh caches."""
    digest = hashlib.sha256(nicegui.__version__.encode() + offline_html().encode())
    for path in sorted(STATIC_DIR.iterdir()):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def manifest_route(request: Request) -> Response:
    language = language_from_header(request.headers.get('accept-language'))
    return Response(json.dumps(manifest(language), ensure_ascii=False), media_type='application/manifest+json',
                    headers={'Vary': 'Accept-Language'})


def worker_route() -> Response:
    # looked for again at every visit: a new release's worker is found at once
    return Response(worker_js(), media_type='text/javascript', headers={'Cache-Control': 'no-cache'})


def offline_route() -> HTMLResponse:
    return HTMLResponse(offline_html())


def register() -> None:
    app.add_static_files(STATIC_PATH, STATIC_DIR)
    app.get(MANIFEST_PATH, include_in_schema=False)(manifest_route)
    app.get(WORKER_PATH, include_in_schema=False)(worker_route)
    app.get(OFFLINE_PATH, include_in_schema=False)(offline_route)
