"""What a monitor and a load balancer read: ``/metrics`` (Prometheus' text format, written by
``prometheus_client`` from app.metrics and the live tables), ``/healthz`` (the process answers)
and ``/readyz`` (its database answers and its migrations are current).

``/metrics`` answers loopback addresses only (a Prometheus on the same machine, or a tunnel),
unless ``HOD_METRICS_TOKEN`` is set: then it answers whoever sends ``Authorization: Bearer
<token>``, from anywhere, and nobody else. Anybody else gets the ordinary 404. Behind nginx the
address is the browser's (FORWARDED_ALLOW_IPS), so a page through the proxy is not local.
"""
from __future__ import annotations

import asyncio
import hmac
import ipaddress
import os
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from nicegui import app
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy.exc import SQLAlchemyError

from app import metrics
from app.tables import registry
from app.tables.table import Table
from models.db import current_revisions, get_engine, head_revisions

METRICS_PATH, HEALTH_PATH, READY_PATH = '/metrics', '/healthz', '/readyz'
LOOP_EVERY = 1.0   # seconds between two looks at the event loop's lag


def phase_of(table: Table) -> str:
    return ('over' if table.is_over() else 'waiting' if table.waiting
            else 'count' if table.pause is not None else 'playing')


class LiveTables(Collector):
    """The tables this process holds, by game and phase, counted at each scrape."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily('hod_tables', 'Tables held by this process, by game and phase',
                                   labels=['game', 'phase'])
        for (game, phase), count in sorted(Counter((table.game.id, phase_of(table))
                                                   for table in registry.live_tables()).items()):
            family.add_metric([game, phase], count)
        yield family


metrics.REGISTRY.register(LiveTables())   # once, as this module is imported once a process


def allowed(request: Request) -> bool:
    token = os.environ.get('HOD_METRICS_TOKEN', '')
    if token:
        return hmac.compare_digest(request.headers.get('authorization', ''), f'Bearer {token}')
    try:
        return request.client is not None and ipaddress.ip_address(request.client.host).is_loopback
    except ValueError:   # a test client's or a unix socket's name, not an address
        return False


def metrics_route(request: Request) -> Response:
    if not allowed(request):
        return Response('Not Found', status_code=404, media_type='text/plain')
    return Response(generate_latest(metrics.REGISTRY), media_type=CONTENT_TYPE_LATEST)


def health_route() -> JSONResponse:
    return JSONResponse({'status': 'ok'})


def ready_route() -> JSONResponse:
    try:
        with get_engine().connect() as connection:
            current = current_revisions(connection) == head_revisions()
    except SQLAlchemyError:
        return JSONResponse({'status': 'unavailable', 'database': 'unreachable'}, status_code=503)
    if not current:
        return JSONResponse({'status': 'unavailable', 'database': 'migrations pending'}, status_code=503)
    return JSONResponse({'status': 'ok'})


async def watch_loop_lag(every: float = LOOP_EVERY, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                         now: Callable[[], float] = time.monotonic, looks: int | None = None) -> None:
    """Sleep ``every`` seconds, again and again, and keep how much later than asked the loop woke
    up (the time every other screen of this process waited too). ``looks``: that many, else for ever."""
    while looks is None or looks > 0:
        asked = now()
        await sleep(every)
        metrics.LOOP_LAG.set(max(0.0, now() - asked - every))
        looks = None if looks is None else looks - 1


def connected() -> None:
    metrics.PEOPLE.inc()
    metrics.SOCKET_CONNECTS.inc()


def disconnected() -> None:
    metrics.PEOPLE.dec()
    metrics.SOCKET_DROPS.inc()


def install() -> None:
    app.get(METRICS_PATH, include_in_schema=False)(metrics_route)
    app.get(HEALTH_PATH, include_in_schema=False)(health_route)
    app.get(READY_PATH, include_in_schema=False)(ready_route)
    app.on_connect(connected)
    app.on_disconnect(disconnected)
    app.on_startup(watch_loop_lag)
