"""The socket layer against a real server (app/sockets.py, app/logs.py), as the audit attacked it:
a socket speaking for another page, a socket flooding events, and socket.io polling POSTs dropped
before their body. The pages here are sockets without a browser (socket_page.py).

The server gets a budget that never refills (HOD_SOCKET_RATE=0): a socket has exactly
``BURST`` events, whatever the machine's speed, so no test depends on time."""
from __future__ import annotations

import asyncio
import socket
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
import socketio

from conftest import free_port, start_server, stop_server
from socket_page import HANG_GUARD, SocketPage, browser, run

# generous: a page that plays spends budget too (its clicks, the acknowledgements it sends, more of
# them on a busy machine), and with no refill it must never run out before the test is done
BURST = 400


@pytest.fixture(scope='module')
def server() -> Iterator[tuple[str, Path]]:
    data = Path(tempfile.mkdtemp(prefix='hod-sockets-'))
    port = free_port()
    process = start_server(data, port, HOD_SOCKET_BURST=str(BURST), HOD_SOCKET_RATE='0')
    yield f'http://127.0.0.1:{port}', data / 'server.log'
    stop_server(process)


async def seated(base: str, http: aiohttp.ClientSession) -> SocketPage:
    """A person at a new Chinchón table, once it is their turn to draw."""
    page = await SocketPage(base, http).deal()
    await page.until(lambda: page.phase == 'draw')
    return page


def test_a_socket_cannot_click_for_another_page(server) -> None:
    base, _ = server

    async def scene() -> None:
        async with browser() as lucia_http, browser() as stranger_http:
            lucia = await seated(base, lucia_http)
            stranger = await SocketPage(base, stranger_http).open('/')
            before = lucia.version
            # the stranger's socket sends Lucía's own stock click, with her page's id in it
            forged = lucia.event(lucia.find('stock'), 'click', before)
            await stranger.handled(forged)
            assert await lucia.reload() == ('draw', before)      # her table drew nothing
            await lucia.handled(lucia.event(lucia.find('stock'), 'click', before))
            await lucia.until(lambda: lucia.version > before)   # her own click still plays
            assert lucia.phase == 'discard' and not stranger.disconnected.is_set()

    run(scene())


def test_a_flooding_socket_is_cut_off_and_another_page_plays_on(server) -> None:
    base, _ = server

    async def scene() -> None:
        async with browser() as lucia_http, browser() as flood_http:
            lucia = await seated(base, lucia_http)
            flood = await SocketPage(base, flood_http).open('/')
            nothing = {'id': 987654, 'client_id': flood.client_id, 'listener_id': 'none', 'args': []}
            for _ in range(BURST):                    # the whole budget: each one handled
                await flood.handled(nothing)
            assert not flood.disconnected.is_set()
            for _ in range(100):                      # and on: the first one past it cuts the socket
                if not flood.sio.connected:
                    break
                try:
                    await flood.sio.emit('event', nothing)
                except socketio.exceptions.BadNamespaceError:   # cut between the look and the send
                    break
            await asyncio.wait_for(flood.disconnected.wait(), HANG_GUARD)
            before = lucia.version
            await lucia.handled(lucia.event(lucia.find('stock'), 'click', before))
            await lucia.until(lambda: lucia.version > before and lucia.phase == 'discard')

    run(scene())


def aborted_post(address: tuple[str, int], query: str) -> None:
    """A polling POST that announces a body and closes before sending any of it."""
    with socket.create_connection(address, timeout=HANG_GUARD) as connection:
        connection.sendall(f'POST /_nicegui_ws/socket.io/?{query} HTTP/1.1\r\nHost: {address[0]}\r\n'
                           'Content-Type: text/plain\r\nContent-Length: 4096\r\n\r\n'.encode())


def session_id(base: str) -> str:
    with urllib.request.urlopen(f'{base}/_nicegui_ws/socket.io/?EIO=4&transport=polling', timeout=HANG_GUARD) as answer:
        text = answer.read().decode()
    return text.split('"sid":"')[1].split('"')[0]


def test_aborted_polling_posts_hardly_grow_the_log(server) -> None:
    base, log = server
    address = ('127.0.0.1', int(base.rsplit(':', 1)[1]))
    before = log.stat().st_size
    for number in range(500):
        # half without a session (refused before the body), half in a live one (engine.io fails)
        query = 'EIO=4&transport=polling' + (f'&sid={session_id(base)}' if number % 2 else '')
        aborted_post(address, query)
    with urllib.request.urlopen(base + '/', timeout=HANG_GUARD) as answer:   # the server has gone on
        assert answer.status == 200
    grown = log.stat().st_size - before
    assert grown < 100_000, f'{grown} bytes of log'
