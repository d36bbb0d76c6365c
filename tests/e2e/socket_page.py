"""A page as its socket sees it, without a browser: the page's elements from its HTML, its socket
(python-socketio, over a websocket as the page's own), the frames it receives, and the events it
sends, forged ones too. For tests of the socket layer itself (tests/e2e/test_socket_guard.py).

Every wait is for something the server sends, with a hang guard only a broken server reaches."""
from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import Callable, Coroutine
from typing import Any

import aiohttp
import socketio

from app.bench.crowd import CLIENT_ID, ELEMENTS, PHASE, PREFIX, UNESCAPE, VERSION, keep_elements

HANG_GUARD = 30   # seconds


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run on an event loop of its own thread: sync Playwright keeps one running in this thread."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result['value'] = asyncio.run(coroutine)
        except BaseException as error:  # noqa: BLE001  (handed back to the test as it was raised)
            result['error'] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if 'error' in result:
        raise result['error']
    return result.get('value')


def browser() -> aiohttp.ClientSession:
    """A browser's cookie jar (aiohttp keeps no cookies of an IP address unless told to)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


def page_state(html: str) -> tuple[dict[str, dict], str, int]:
    """The elements, phase and version a page's HTML carries."""
    raw = ELEMENTS.search(html)[1]
    for escaped, plain in UNESCAPE:
        raw = raw.replace(escaped, plain)
    phases, versions = PHASE.findall(raw), VERSION.findall(raw)
    return json.loads(raw), phases[-1] if phases else '', max(map(int, versions), default=-1)


class SocketPage:
    def __init__(self, base: str, http: aiohttp.ClientSession) -> None:
        self.base, self.http = base, http
        self.elements: dict[str, dict] = {}
        self.phase, self.version = '', -1
        self.changed = asyncio.Event()
        self.disconnected = asyncio.Event()
        self.opened: asyncio.Future[str] | None = None
        self.sio: socketio.AsyncClient | None = None

    async def open(self, path: str) -> SocketPage:
        async with self.http.get(self.base + path) as answer:
            html = await answer.text()
        self.elements, self.phase, self.version = page_state(html)
        self.client_id, prefix = CLIENT_ID.search(html)[1], PREFIX.search(html)[1]
        query = {'client_id': self.client_id, 'next_message_id': 0, 'implicit_handshake': 'true',
                 'tab_id': str(uuid.uuid4()), 'document_id': str(uuid.uuid4())}
        self.sio = socketio.AsyncClient(http_session=self.http, reconnection=False)
        self.sio.on('*', self._heard)
        self.sio.on('disconnect', lambda *reason: self.disconnected.set())
        await self.sio.connect(f'{self.base}?{"&".join(f"{k}={v}" for k, v in query.items())}',
                               transports=['websocket'], socketio_path=f'{prefix}/_nicegui_ws/socket.io')
        return self

    async def _heard(self, event: str, data: Any) -> None:
        if event == 'update':
            keep_elements(self.elements, data)
        elif event == 'open' and self.opened is not None and not self.opened.done():
            self.opened.set_result(data['path'])
        text = json.dumps(data)
        phases, versions = PHASE.findall(text), VERSION.findall(text)
        self.phase = phases[-1] if phases else self.phase
        self.version = max([self.version, *map(int, versions)])
        self.changed.set()

    def find(self, testid: str) -> str:
        """The key of the newest element with this test id (a panel drawn again replaces its buttons)."""
        return max((key for key, element in self.elements.items()
                    if (element.get('props') or {}).get('data-testid') == testid), key=int)

    def event(self, key: str, kind: str, *args: object, client_id: str | None = None) -> dict:
        """The message the page's script sends for this element's event, for this page or another."""
        listener = next(ev['listener_id'] for ev in self.elements[key]['events'] if ev['type'] == kind)
        return {'id': int(key), 'client_id': client_id or self.client_id, 'listener_id': listener,
                'args': [json.dumps(arg) for arg in args]}

    async def handled(self, message: dict) -> None:
        """Send an event and return once the server has handled it (socket.io's acknowledgement)."""
        await self.sio.call('event', message, timeout=HANG_GUARD)

    async def until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), HANG_GUARD)

    async def deal(self, game: str = 'chinchon') -> SocketPage:
        """From the setup page: two seats, instant speed, deal; then the table's page, its socket open."""
        await self.open(f'/play/{game}')
        seats = next(key for key, element in self.elements.items() if element.get('tag') == 'q-btn-toggle')
        await self.handled(self.event(seats, 'update:modelValue', 0))
        self.opened = asyncio.get_running_loop().create_future()
        await self.handled(self.event(self.find('start'), 'click'))
        path = await asyncio.wait_for(self.opened, HANG_GUARD)
        await self.sio.disconnect()
        self.table_path = path
        return await self.open(path)

    async def reload(self) -> tuple[str, int]:
        """The phase and version a fresh load of this page's table shows."""
        async with self.http.get(self.base + self.table_path) as answer:
            _, phase, version = page_state(await answer.text())
        return phase, version
