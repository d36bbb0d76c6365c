"""Who may speak for a page over a socket, and how much.

NiceGUI dispatches a page's socket.io events (``event``, ``javascript_response``, ``ack``, ``log``)
by the ``client_id`` written inside the message, and never asks whether the socket that sent it
belongs to that page: a socket connected as one page could click another page's buttons, guarded
only by the secrecy of a uuid. And one socket could send events without end (224,200 in 15 s in
an audit) while every other page waited. ``SocketGuard`` wraps NiceGUI's own handlers, at its
public edge, and lets an event through only

- when its socket is one of that page's sockets: NiceGUI's handshake puts every socket of a page
  into the socket.io room named after the page's client id (``sio.enter_room(sid, client.id)``),
  and python-socketio's public ``AsyncServer.rooms(sid)`` lists a socket's rooms. Anything else is
  dropped, and logged once per socket;
- while the socket has budget left: a token bucket per socket (``HOD_SOCKET_BURST`` events at
  once, ``HOD_SOCKET_RATE`` a second after that; a person clicks far less, and a page acks every
  3 s). A socket past it is disconnected (``AsyncServer.disconnect``), and logged once.

Public API relied on: python-socketio's ``AsyncServer.on(event, handler)`` (registering replaces
the handler NiceGUI registered), ``rooms(sid)`` and ``disconnect(sid)``. Which handler NiceGUI
registered is read from ``AsyncServer.handlers[namespace][event]``, the table ``on`` fills: a
plain attribute, not a documented method, and the one place that is not fully public.
``install`` fails loudly at start if it is ever missing, and tests/test_sockets.py checks that
every page event is guarded after a start.

While an event runs, ``logs.page_scope`` names its page, so what it logs counts against that
page's share of the log (app/logs.py).
"""
from __future__ import annotations

import inspect
import logging
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from app import config, logs

log = logging.getLogger(__name__)

PAGE_EVENTS = ('event', 'javascript_response', 'ack', 'log')
NAMESPACE = '/'
SOCKET_PATH = '/_nicegui_ws/socket.io'   # where NiceGUI mounts its socket.io app (nicegui.py)


class EventBudget:
    """A token bucket: ``burst`` events at once, refilled at ``per_second``, on the clock it is given."""

    def __init__(self, burst: float, per_second: float, clock: Callable[[], float]) -> None:
        self.burst, self.per_second, self.clock = burst, per_second, clock
        self.tokens = float(burst)
        self.checked = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.per_second)
        self.checked = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class SocketGuard:
    """Wraps NiceGUI's page-event handlers on one socket.io server (see the module's docstring)."""

    def __init__(self, sio: Any, *, burst: float, per_second: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.sio, self.burst, self.per_second, self.clock = sio, burst, per_second, clock
        self.budgets: dict[str, EventBudget] = {}   # per connected socket; forgotten at its disconnect
        self.warned: set[str] = set()                # sockets already logged for a foreign event
        self.cut: set[str] = set()                   # sockets disconnected for their budget

    def install(self) -> None:
        handlers = getattr(self.sio, 'handlers', {}).get(NAMESPACE, {})
        wrappers = {'connect': self._counting, 'disconnect': self._forgetting}
        for name in ('connect', 'disconnect', *PAGE_EVENTS):
            handler = handlers.get(name)
            if handler is None:
                raise RuntimeError(f'NiceGUI registered no socket.io handler for {name!r}: '
                                   'app/sockets.py cannot guard it (has NiceGUI changed?)')
            inner = getattr(handler, 'guarded', handler)   # a start again (the tests' runs) wraps NiceGUI's own
            wrap = wrappers.get(name)
            self.sio.on(name, wrap(inner) if wrap else self._guarded(name, inner))

    def _guarded(self, name: str, inner: Callable[..., Any]) -> Callable[..., Any]:
        async def guarded(sid: str, *args: Any) -> Any:
            if not await self._within_budget(sid):
                return None
            message = args[0] if args else None
            page = message.get('client_id') if isinstance(message, dict) else None
            if not isinstance(page, str) or not self._in_room(sid, page):
                if sid not in self.warned:
                    self.warned.add(sid)
                    log.warning('socket %s sent %r for page %.40r, not its own: dropped (said once a socket)',
                                sid, name, page)
                return None
            with logs.page_scope(page):
                result = inner(sid, *args)
                if inspect.isawaitable(result):
                    result = await result
            return result

        guarded.guarded = inner  # type: ignore[attr-defined]
        return guarded

    def _in_room(self, sid: str, page: str) -> bool:
        """The socket is one of that page's (NiceGUI puts a page's sockets in the room named by its
        id). Asked of the page's room, a socket or two: ``rooms(sid)`` would walk every room of the
        server, each page's, at every event (6 % of the event loop with 200 people connected)."""
        return any(member == sid for member, _ in self.sio.manager.get_participants(NAMESPACE, page))

    async def _within_budget(self, sid: str) -> bool:
        budget = self.budgets.get(sid)
        if budget is None:   # not connected (any more): what it still had in flight goes nowhere
            return False
        if budget.take():
            return True
        if sid not in self.cut:   # the first refusal: disconnected and said once
            self.cut.add(sid)
            log.warning('socket %s sent events past its budget (%g at once, %g a second): disconnected',
                        sid, self.burst, self.per_second)
            await self.sio.disconnect(sid)
        return False

    def _counting(self, inner: Callable[..., Any]) -> Callable[..., Any]:
        async def counting(sid: str, *args: Any) -> Any:
            result = inner(sid, *args)
            if inspect.isawaitable(result):
                result = await result   # a refused connection raises here: nothing to count
            self.budgets[sid] = EventBudget(self.burst, self.per_second, self.clock)
            return result

        counting.guarded = inner  # type: ignore[attr-defined]
        return counting

    def _forgetting(self, inner: Callable[..., Any]) -> Callable[..., Any]:
        takes = len(inspect.signature(inner).parameters)   # NiceGUI's takes the sid alone, not the reason

        def forgetting(sid: str, *reason: Any) -> Any:
            self.budgets.pop(sid, None)
            self.warned.discard(sid)
            self.cut.discard(sid)
            return inner(sid, *reason[:max(0, takes - 1)])

        forgetting.guarded = inner  # type: ignore[attr-defined]
        return forgetting


class SidlessPollRefusal:
    """Pure ASGI middleware: a socket.io polling POST names its session (``sid``) in its query, or
    it is refused (400) before its body is read. engine.io reads the body first, and a POST
    dropped before its body failed inside engine.io with a traceback each time; one without a
    session has nothing to deliver anyway."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope['type'] == 'http' and scope.get('method') == 'POST'
                and scope.get('path', '').rstrip('/').endswith(SOCKET_PATH)
                and not urllib.parse.parse_qs(scope.get('query_string', b'').decode('latin-1')).get('sid')):
            await send({'type': 'http.response.start', 'status': 400,
                        'headers': [(b'content-type', b'text/plain'), (b'connection', b'close')]})
            await send({'type': 'http.response.body', 'body': b'a polling POST needs its session'})
            return
        await self.app(scope, receive, send)


def install() -> SocketGuard:
    """Called by app.site on every start, after NiceGUI registered its handlers (at its import)."""
    from nicegui import app, core

    burst, per_second = config.socket_budget()
    guard = SocketGuard(core.sio, burst=burst, per_second=per_second)
    guard.install()
    app.add_middleware(SidlessPollRefusal)
    return guard
