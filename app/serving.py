"""Where uvicorn faces the port: bounds on slow and idle connections, and on how many there are.

uvicorn's own keep-alive timeout closes a connection idle between requests, but nothing bounds
how long a new connection may take to send its first request's headers: 2,000 half-sent headers
stayed open for a minute in an audit, and 21,000 used up the file descriptors, after which a normal
request got an empty reply. So the HTTP protocol uvicorn would pick is extended (through uvicorn's
public ``http=`` setting and asyncio's Protocol methods only) to close a connection whose first
headers are not complete in time, and to close at once any connection beyond the limit.

Behind nginx (the multi-process deployment) nginx applies the same limits to every request; this
is what holds when uvicorn itself faces the internet, as with ``python main.py``.
"""
from __future__ import annotations

import asyncio
import gc
import os
import resource
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from app import config

END_OF_HEADERS = b'\r\n\r\n'


def header_timeout() -> float:
    """Seconds a new connection has to send its first request's headers (HOD_HEADER_TIMEOUT)."""
    return float(os.environ.get('HOD_HEADER_TIMEOUT', '10'))


def keep_alive_timeout() -> int:
    """Seconds an idle connection stays open between requests (uvicorn's default, said here)."""
    return 5


def socket_deflate() -> bool:
    """Whether a page's socket compresses its messages (permessage-deflate, HOD_WS_DEFLATE=1; off by
    default). Measured with 200 people on one process (app.bench.crowd, issue 42): on, a click's
    messages took 0.4 KiB on the wire instead of 7.4, but cost 0.7 ms more server CPU per click
    (11.1 against 10.4), 93 MiB more memory (a compressor per socket, about 0.47 MiB each) and a p95
    of 104 ms against 38. 7 KiB a click is about 2.5 KB/s for a player, nothing for any connection."""
    return os.environ.get('HOD_WS_DEFLATE', '0') == '1'


def most_connections() -> int:
    """Connections open at once (HOD_MOST_CONNECTIONS); by default what the file descriptors allow,
    less a reserve for the database, the log and the computers' worker processes."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if wanted > soft:   # a process may raise its own soft limit up to the hard one
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    default = 10_000 if soft == resource.RLIM_INFINITY else max(64, min(10_000, soft - 256))
    return int(os.environ.get('HOD_MOST_CONNECTIONS', default))


class BoundedConnections(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol, with a deadline for the first headers and a cap on connections.

    The connections are counted by their transports: one upgraded to a websocket moves to another
    protocol object but keeps its transport, so it still counts until it closes. That protocol's
    ``connection_lost`` is not ours, so the transports are held weakly: a closed websocket's
    transport (and the protocol and buffers it holds) was kept here for good, about one per second
    under a crowd, until 10,000 had piled up (issue 42's soak grew by 16 %)."""

    transports: weakref.WeakSet[Any] = weakref.WeakSet()   # open connections (and closed ones not yet freed)
    limit = 10_000
    deadline = 10.0

    def connection_made(self, transport: Any) -> None:
        cls = BoundedConnections
        if len(cls.transports) >= cls.limit:
            cls.transports = weakref.WeakSet(known for known in cls.transports if not known.is_closing())
        if len(cls.transports) >= cls.limit:   # refused before it can hold a descriptor for long
            self._first_headers = None
            transport.abort()
            return
        cls.transports.add(transport)
        super().connection_made(transport)
        self._tail = b''
        self._first_headers = asyncio.get_running_loop().call_later(cls.deadline, transport.abort)

    def data_received(self, data: bytes) -> None:
        if self._first_headers is not None:
            seen = self._tail + data
            if END_OF_HEADERS in seen:
                self._first_headers.cancel()
                self._first_headers = None
            else:
                self._tail = seen[-(len(END_OF_HEADERS) - 1):]
        super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._first_headers is not None:
            self._first_headers.cancel()
            self._first_headers = None
        if self.transport is not None:
            BoundedConnections.transports.discard(self.transport)
            super().connection_lost(exc)


def uvicorn_settings() -> dict[str, Any]:
    """What app.site hands ``ui.run`` (and so uvicorn) for these bounds, and which proxies may name
    the client (FORWARDED_ALLOW_IPS: the address every per-address limit counts)."""
    BoundedConnections.limit, BoundedConnections.deadline = most_connections(), header_timeout()
    return {'http': BoundedConnections, 'timeout_keep_alive': keep_alive_timeout(),
            'proxy_headers': True, 'forwarded_allow_ips': config.forwarded_allow_ips(),
            'ws_per_message_deflate': socket_deflate()}


def collector_thresholds() -> tuple[int, int, int]:
    """The garbage collector's thresholds (HOD_GC_THRESHOLDS, three integers): see tune_collector."""
    raw = os.environ.get('HOD_GC_THRESHOLDS', '50000,20,10')
    first, second, third = (int(part) for part in raw.split(','))
    return first, second, third


def tune_collector() -> None:
    """Python's cycle collector against a server holding many screens: a full collection walks every
    object the process holds, and with 160 people at tables it took 250-280 ms each time, 13 times
    in 40 s, the event loop stopped meanwhile (the crowd's p95 and p99). At start, what the server
    loaded (modules, pages, NiceGUI) is frozen out of every collection, and a collection waits for
    50,000 new objects instead of 700, so the full one comes rarely: at 200 people, p95 701 ms
    before, 49 ms after, and less memory (app.bench.crowd, issue 42). Garbage without cycles is
    freed at once as always; the collector only finds cycles, and finds them all, later: on its
    own rule (when a quarter more objects have grown old) or at the regular one (``collect_regularly``)."""
    gc.set_threshold(*collector_thresholds())
    gc.freeze()


def collection_period() -> float:
    """Seconds between full collections (HOD_GC_EVERY; 0, the default: only Python's own rule)."""
    return float(os.environ.get('HOD_GC_EVERY', '0'))


async def collect_regularly(period: float | None = None,
                            sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
    """Runs for the server's life when HOD_GC_EVERY is set: a full collection every ``period``
    seconds, for a site whose screens drop cycles among old objects faster than Python's own rule
    (a walk once old objects have grown by a quarter) frees them. Off by default: once a save let
    go of its entry and a count and the fair-deal box became markup, 150 people for 30 minutes kept
    memory within 0.7 % of minute 5 with that rule alone, and never needed a walk; walking every
    5 minutes kept it the same and stopped the loop 280-1,200 ms each time (app.bench.crowd's soak,
    issue 42). Before those changes the rule had not come in 17 minutes, memory up 17 %."""
    period = collection_period() if period is None else period
    if period <= 0:
        return
    while True:
        await sleep(period)
        gc.collect()
