"""Browser tests: the real server (`python main.py`) on a free port with a temporary database,
driven by Playwright in Chromium.

The browser is, in this order: the path in HOD_CHROMIUM, Playwright's own Chromium, the system
Chromium. With none, the tests fail and say how to get one: they never skip."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from browser_lookup import CHROMIUM_ARGS, require_chromium
from serve import DEALS_ROUTE

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope='session')
def chromium_path() -> str:
    return require_chromium()


@pytest.fixture(scope='session')
def browser_type_launch_args(browser_type_launch_args: dict, chromium_path: str) -> dict:
    return {**browser_type_launch_args, 'executable_path': chromium_path, 'args': CHROMIUM_ARGS}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def start_server(data: Path, port: int, **settings: str) -> subprocess.Popen:
    """The real server (serve.py: `python main.py` dealing from a known seed) on this port with its
    data (SQLite database included) in `data`, and these environment settings; returns once the
    site answers, or fails the test with the server's log. Its computers think in its own process
    unless ``HOD_TEST_THINK='pool'`` (serve.py), as the shared server's do."""
    env = {key: value for key, value in os.environ.items()
           if key != 'PYTEST_CURRENT_TEST' and not key.startswith('NICEGUI_')}
    env.update(HOST='127.0.0.1', PORT=str(port), DATA_DIR=str(data),
               DATABASE_URL=f'sqlite:///{data / "e2e.db"}', PYTHONUNBUFFERED='1', HOD_TEST_THINK='inline')
    env.update(settings)
    log = open(data / 'server.log', 'a')
    process = subprocess.Popen([sys.executable, str(Path(__file__).with_name('serve.py'))], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT)
    log.close()
    return answering(process, f'http://127.0.0.1:{port}', data / 'server.log')


def answering(process: subprocess.Popen, url: str, log: Path) -> subprocess.Popen:
    """The server started as ``process`` once it answers at ``url``; or the test fails with its log."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return process
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f'server did not start:\n{log.read_text()}', pytrace=False)
        time.sleep(0.2)


@contextmanager
def servers_database(data: Path) -> Iterator[None]:
    """This process's models read and write the database of the server whose data is in ``data``
    for a moment (a finished game to show, a save to wait for), then the suite's own again."""
    from models.db import init_db

    init_db(f'sqlite:///{data / "e2e.db"}')
    try:
        yield
    finally:
        init_db()


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope='session')
def server_data() -> Path:
    """The browser tests' server's data folder (its SQLite database is ``e2e.db`` there)."""
    return Path(tempfile.mkdtemp(prefix='hod-e2e-'))


@pytest.fixture(scope='session')
def server_url(server_data: Path) -> str:
    port = free_port()
    process = start_server(server_data, port, HOD_TEST_THINK='pool')   # as the site thinks
    yield f'http://127.0.0.1:{port}'
    stop_server(process)


@pytest.fixture(scope='session')
def base_url(server_url: str) -> str:
    return server_url


@pytest.fixture(autouse=True)
def seeded_deals(request: pytest.FixtureRequest) -> None:
    """The tables a browser test makes deal from the test's own name (serve.py's test route): a
    test starts from the same deal alone or in the whole run, and a failure replays."""
    if 'base_url' not in request.fixturenames and 'page' not in request.fixturenames:
        return
    url = request.getfixturevalue('server_url')
    query = urllib.parse.urlencode({'seed': request.node.nodeid})
    with urllib.request.urlopen(urllib.request.Request(f'{url}{DEALS_ROUTE}?{query}', method='POST'),
                                timeout=10) as response:
        assert response.status == 200


@pytest.fixture(scope='session')
def browser_context_args(browser_context_args: dict) -> dict:
    # headless Chromium says en-US by default; most of our players' browsers say Spanish
    return {**browser_context_args, 'locale': 'es-ES'}
