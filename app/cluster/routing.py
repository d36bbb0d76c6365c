"""The routing every request gets at one of several processes (see app/cluster/__init__.py)."""
from __future__ import annotations

import re

from nicegui import app
from starlette.datastructures import Headers
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.tables import registry
from app.tables.lease import LeasedStore, locate

TABLE_ADDRESS = re.compile(r'^/(?:table|room)/([A-Za-z0-9_-]{16})(?:/|$)')
INTERNAL = '/_nicegui'   # scripts, components and the socket: always served where they arrive


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
    await app.storage.user.initialize()
