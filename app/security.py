"""What the server does for safety outside any page: private files, security headers on every
response, and forgetting the per-browser storage of browsers that stopped coming.

Files: `private_files()` sets the process umask before anything is written, so the storage secret,
the SQLite file (and its -wal/-shm) and NiceGUI's per-browser storage files are born 0600 in a
0700 folder; nothing is tightened afterwards, which would leave a moment when they are readable.

Headers: NiceGUI's page template has inline scripts and Vue compiles the element templates in the
browser, so the policy must allow 'unsafe-inline' and 'unsafe-eval' for scripts; everything else
comes from this site only, nothing may frame the site, and no plugin or foreign form target runs.

Storage: NiceGUI keeps `app.storage.user` of each browser in `storage-user-<browser id>.json` in
`app.storage.path` (NICEGUI_STORAGE_PATH). A request from a browser touches its file (at most once a day), and
`keep_storage_tidy` removes the files of browsers that have not come back for `BROWSER_STORAGE_DAYS`.
"""
from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import config

log = logging.getLogger(__name__)

CONTENT_SECURITY_POLICY = '; '.join((  # noqa: FLY002  (one directive a line reads better)
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
SECURITY_HEADERS = {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',   # frame-ancestors for browsers that predate it
}
BROWSER_STORAGE_DAYS = 30
DAY = 24 * 3600


def private_files() -> None:
    """Files and folders this process creates from now on are its owner's alone (0600 / 0700)."""
    os.umask(0o077)


def storage_dir() -> Path | None:
    """Where NiceGUI keeps the per-browser storage (`app.storage.path`, from NICEGUI_STORAGE_PATH)."""
    from nicegui import app

    return Path(app.storage.path)


def browser_storage_file(browser_id: str) -> Path | None:
    folder = storage_dir()
    if folder is None or not browser_id or not browser_id.replace('-', '').isalnum():
        return None
    return folder / f'storage-user-{browser_id}.json'


def mark_browser_seen(browser_id: str, now: float | None = None) -> None:
    """The browser came back: its storage file's time says so (written at most once a day)."""
    path = browser_storage_file(browser_id)
    now = time.time() if now is None else now
    try:
        if path is not None and now - path.stat().st_mtime > DAY:
            os.utime(path, (now, now))
    except FileNotFoundError:
        pass  # nothing stored for this browser yet


def forget_idle_browsers(now: float | None = None, days: int = BROWSER_STORAGE_DAYS) -> int:
    """Remove the storage of browsers not seen for `days`; returns how many went."""
    folder = storage_dir()
    if folder is None or not folder.is_dir():
        return 0
    before = (time.time() if now is None else now) - days * DAY
    removed = 0
    for path in folder.glob('storage-user-*.json'):
        try:
            if path.stat().st_mtime < before:
                path.unlink()
                removed += 1
        except FileNotFoundError:
            pass
    return removed


async def keep_storage_tidy(every: float = 6 * 3600) -> None:
    """Runs for the server's life: forgets idle browsers at start and every few hours."""
    while True:
        try:
            removed = forget_idle_browsers()
            if removed:
                log.info('removed the storage of %d browsers not seen for %d days', removed, BROWSER_STORAGE_DAYS)
        except OSError:
            log.exception('could not tidy the browser storage')
        await asyncio.sleep(every)


class SecurityHeaders:
    """Pure ASGI middleware: the headers above on every HTTP response, and the browser's visit
    noted (it runs inside NiceGUI's session middleware, so `scope['session']` holds the id)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope['type'] != 'http':
            await self.app(scope, receive, send)
            return
        browser_id = scope.get('session', {}).get('id') if 'session' in scope else None
        if isinstance(browser_id, str):
            mark_browser_seen(browser_id)

        async def send_with_headers(message: Message) -> None:
            if message['type'] == 'http.response.start':
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def install() -> None:
    """Called by app.site on every start (NiceGUI's test fixture re-runs it with the middleware cleared)."""
    from nicegui import app, core

    app.add_middleware(SecurityHeaders)
    # NiceGUI accepts a socket from any origin ('*'): a page of another site could then open one
    # with this site's cookies. None is engine.io's same-origin check against the request's Host.
    core.sio.eio.cors_allowed_origins = config.allowed_origins()
    app.on_startup(keep_storage_tidy)
