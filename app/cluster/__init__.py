"""One server process among several behind nginx (``python -m app.cluster`` starts them all).

nginx serves each process under its own path prefix (``/w/1``, ``/w/2``...): it strips the prefix
and names it in ``X-Forwarded-Prefix``, from which NiceGUI builds the page's scripts and its
socket.io path, so a page and its socket always reach the same process. Here, in every request:

- a table's address (``/table/<id>``, an invite link ``/room/<id>/<secret>``) is served by the
  process that holds the table's lease (app.tables.lease): any other sends the browser there, and
  claims the table first if nobody live holds it;
- any other page is served by whichever process nginx picked, under that process's own prefix;
- a request that arrives under another process's prefix came through nginx's fallback (that
  process did not answer): it is sent on as above, the dead holder's tables taken over.

``install`` does nothing unless HOD_PREFIX names this process's prefix: ``python main.py`` alone
stays one process with no leases.
"""
from __future__ import annotations

import os
import re

from starlette.datastructures import Headers
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.tables import registry
from app.tables.lease import LeasedStore, keep_leases, locate

PREFIX_VARIABLE = 'HOD_PREFIX'
PREFIX_PATTERN = re.compile(r'^/w/[0-9]+$')
TABLE_ADDRESS = re.compile(r'^/(?:table|room)/([A-Za-z0-9_-]{16})(?:/|$)')
INTERNAL = '/_nicegui'   # scripts, components and the socket: always served where they arrive


def own_prefix() -> str | None:
    prefix = os.environ.get(PREFIX_VARIABLE)
    if prefix is not None and not PREFIX_PATTERN.match(prefix):
        raise SystemExit(f'{PREFIX_VARIABLE} must look like /w/1, not {prefix!r}')
    return prefix


class ProcessRouting:
    """Pure ASGI middleware: every page request is served under the prefix of the process that
    should serve it, or redirected there (an absolute address, which NiceGUI's own redirect
    middleware leaves as it is)."""

    def __init__(self, app: ASGIApp, *, store: LeasedStore) -> None:
        self.app, self.store = app, store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope['type'] != 'http' or scope['path'].startswith(INTERNAL):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        arrived_at = headers.get('x-forwarded-prefix', '')
        table = TABLE_ADDRESS.match(scope['path'])
        target = self.store.address if table is None else await locate(self.store, table[1], arrived_at)
        if target == arrived_at:
            if table is not None:
                registry.expect_screens(table[1])
            await _refresh_browser_storage()
            await self.app(scope, receive, send)
            return
        query = scope.get('query_string', b'').decode('latin-1')
        where = f'{scope.get("scheme", "http")}://{headers.get("host", "localhost")}{target}{scope["path"]}'
        # 307: a form's POST is sent again as it was, to the process that can answer it
        await RedirectResponse(where + (f'?{query}' if query else ''), status_code=307)(scope, receive, send)


async def _refresh_browser_storage() -> None:
    """NiceGUI keeps each browser's app.storage.user in a file that every process shares, and a
    copy in memory per process: read the file again before a page, so that what this browser did
    at another process (its guest token, its tables) is known here too."""
    from nicegui import app

    await app.storage.user.initialize()


def install() -> LeasedStore | None:
    """Called by main.py: with HOD_PREFIX set, this process plays only the tables it leases and
    routes every request as above. Returns the store (None: a single process)."""
    from nicegui import app

    prefix = own_prefix()
    if prefix is None:
        return None
    store = LeasedStore(prefix)
    registry.configure(store=store)
    app.add_middleware(ProcessRouting, store=store)
    app.on_startup(lambda: keep_leases(store))
    app.on_shutdown(store.release_all)   # after save_all (registered first): the tables are saved
    return store
