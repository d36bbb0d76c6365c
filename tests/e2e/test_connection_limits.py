"""Where the server faces the port (a real `python main.py`, with small bounds so the test is
quick): a connection that does not finish its headers in time is closed (and the site answers
after such a flood), connections beyond the limit are closed at once, and a page's socket is refused unless it
comes from the site's own origin."""
from __future__ import annotations

import select
import socket
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import free_port, start_server, stop_server

HEADER_TIMEOUT, MOST = 0.5, 40   # the quick server; the patient one waits a minute for headers
PARTIAL = b'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '   # headers that never end
HANG_GUARD = 20   # seconds: only a server that never closes reaches it


def bounded(header_timeout: float) -> Iterator[tuple[str, int]]:
    port = free_port()
    process = start_server(Path(tempfile.mkdtemp(prefix='hod-limits-')), port,
                           HOD_HEADER_TIMEOUT=str(header_timeout), HOD_MOST_CONNECTIONS=str(MOST))
    try:
        yield '127.0.0.1', port
    finally:
        stop_server(process)


@pytest.fixture(scope='module')
def bounded_server() -> Iterator[tuple[str, int]]:
    yield from bounded(HEADER_TIMEOUT)


@pytest.fixture(scope='module')
def patient_server() -> Iterator[tuple[str, int]]:
    yield from bounded(60)


def half_open(address: tuple[str, int], count: int) -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        connection = socket.create_connection(address, timeout=HANG_GUARD)
        connection.sendall(PARTIAL)
        sockets.append(connection)
    return sockets


def closed_by_server(connection: socket.socket) -> bool:
    """Waits (at most the hang guard) for the server to close the connection, reading nothing."""
    try:
        return connection.recv(1024) == b''
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    finally:
        connection.close()


def answers(address: tuple[str, int], path: str = '/', origin: str | None = None) -> int:
    request = urllib.request.Request(f'http://{address[0]}:{address[1]}{path}',
                                     headers={'Origin': origin} if origin else {})
    try:
        with urllib.request.urlopen(request, timeout=HANG_GUARD) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_half_sent_headers_are_closed_after_the_timeout(bounded_server) -> None:
    slow = half_open(bounded_server, 30)
    assert all(closed_by_server(connection) for connection in slow)
    assert answers(bounded_server) == 200


def test_connections_beyond_the_limit_are_closed_at_once(patient_server) -> None:
    held = half_open(patient_server, MOST + 20)
    closed: set[socket.socket] = set()
    while len(closed) < 20:   # a connection the server closed reads as ready (its end of file)
        ready, _, _ = select.select([c for c in held if c not in closed], [], [], HANG_GUARD)
        assert ready, 'the server left connections past its limit open'
        closed.update(ready)
    still_open = [connection for connection in held if connection not in closed]
    assert len(still_open) == MOST and select.select(still_open, [], [], 0)[0] == []
    for connection in held:
        connection.close()


def test_a_socket_from_another_origin_is_refused(bounded_server) -> None:
    host, port = bounded_server
    handshake = '/_nicegui_ws/socket.io/?EIO=4&transport=polling'
    assert answers(bounded_server, handshake, origin='https://evil.example') == 400
    assert answers(bounded_server, handshake, origin=f'http://{host}:{port}') == 200
    assert answers(bounded_server, handshake) == 200   # no Origin header: not a page of another site
