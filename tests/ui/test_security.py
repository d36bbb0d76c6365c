"""The server's own safety: security headers on every response, an empty storage secret refused at
start, private files from birth (the secret, SQLite, NiceGUI's per-browser storage), and the storage
of browsers that have not come back for 30 days forgotten."""
import asyncio
import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import nicegui
import pytest
from nicegui.testing import User

from app import config, security

ROOT = Path(__file__).resolve().parents[2]
DAY = 24 * 3600


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def server_environment(data: Path, **extra: str) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith('NICEGUI_') and name not in {'PYTEST_CURRENT_TEST', 'DATABASE_URL',
                                                                        'STORAGE_SECRET'}}
    return {**environment, 'DATA_DIR': str(data), **extra}


async def test_every_response_carries_the_security_headers(user: User) -> None:
    await user.open('/')
    static = f'/_nicegui/{nicegui.__version__}/static/quasar.umd.prod.js'
    for path in ('/', '/login', static, '/session/end', '/no-such-page'):
        response = await user.http_client.get(path)
        policy = response.headers.get('content-security-policy', '')
        assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy, path
        assert "object-src 'none'" in policy, path
        assert response.headers.get('x-content-type-options') == 'nosniff', path
        assert response.headers.get('referrer-policy') == 'strict-origin-when-cross-origin', path


def test_an_empty_storage_secret_file_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv('DATA_DIR', str(tmp_path))
    monkeypatch.delenv('STORAGE_SECRET', raising=False)
    (tmp_path / 'storage_secret').write_text('  \n')
    with pytest.raises(SystemExit, match='storage_secret is empty'):
        config.storage_secret()


def test_the_server_does_not_start_with_an_empty_storage_secret(tmp_path):
    (tmp_path / 'storage_secret').write_text('')
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        port = probe.getsockname()[1]
    started = subprocess.run([sys.executable, 'main.py'], check=False, cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env=server_environment(tmp_path, HOST='127.0.0.1', PORT=str(port)))
    assert started.returncode != 0
    assert 'storage_secret is empty' in started.stderr


BORN_PRIVATE = '''
import os, pathlib
os.umask(0o022)  # a usual umask: the site must not rely on it
def refuse(*args, **kwargs):
    raise AssertionError('a file was tightened after its creation')
os.chmod = pathlib.Path.chmod = refuse
import main  # builds the SQLite database
from app import config
config.storage_secret()
'''


def test_the_secret_and_the_database_are_born_private(tmp_path):
    data = tmp_path / 'data'
    done = subprocess.run([sys.executable, '-c', BORN_PRIVATE], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=server_environment(data))
    assert done.returncode == 0, done.stderr
    assert mode(data) == 0o700
    assert mode(data / 'storage_secret') == 0o600
    assert mode(data / 'house_of_decks.db') == 0o600
    assert all(mode(path) == 0o600 for path in data.glob('house_of_decks.db*'))


def storage_files() -> list[Path]:
    return list(security.storage_dir().glob('storage-user-*.json'))


async def wait_for(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, 'timed out'
        await asyncio.sleep(0.05)


async def test_per_browser_storage_is_private_and_kept_while_the_browser_comes_back(user: User) -> None:
    before = set(storage_files())
    await user.open('/')
    user.find(marker='language-switch').click()   # the choice goes to this browser's storage file
    await wait_for(lambda: set(storage_files()) - before)
    [path] = set(storage_files()) - before
    assert mode(path) == 0o600
    month_ago = time.time() - 31 * DAY
    os.utime(path, (month_ago, month_ago))
    await user.open('/')                           # the browser is back: its storage stays
    assert path.stat().st_mtime > time.time() - DAY
    security.forget_idle_browsers()
    assert path.exists()
    os.utime(path, (month_ago, month_ago))         # gone for a month: forgotten
    security.forget_idle_browsers()
    assert not path.exists()


def test_only_the_storage_of_browsers_gone_for_thirty_days_is_removed(monkeypatch, tmp_path):
    monkeypatch.setattr(security, 'storage_dir', lambda: tmp_path)
    now = time.time()
    ages = {'a': 31, 'b': 29, 'c': 90}
    for name, days in ages.items():
        path = tmp_path / f'storage-user-{name}.json'
        path.write_text('{}')
        os.utime(path, (now - days * DAY, now - days * DAY))
    (tmp_path / 'storage-general.json').write_text('{}')
    os.utime(tmp_path / 'storage-general.json', (now - 99 * DAY, now - 99 * DAY))
    assert security.forget_idle_browsers(now) == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ['storage-general.json', 'storage-user-b.json']
