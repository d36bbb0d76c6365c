"""A test run that is killed leaves no server of its own behind: a pytest on a small inner test
starts PostgreSQL (as the database tests do) or nginx in a process group of its own (as the
cluster's test does), says where, and is killed while it holds it; the run's watchdog
(run_watchdog.py) then stops what it started, SIGKILL included."""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PATIENCE = 60   # seconds: a bound only a hang reaches (pg_ctl stop alone may wait a while on a busy machine)

HOLD = '''
import threading


def hold(what):
    print(f'HOLDING {what}', flush=True)
    threading.Event().wait()   # until the run is killed
'''

POSTGRESQL = HOLD + '''
from postgres_server import running


def test_holds_postgresql():
    for server in running():
        hold(server.folder)
'''

NGINX = HOLD + '''
import socket
import subprocess
import time

from nginx_binary import require_nginx
from run_watchdog import watch


def test_holds_nginx(tmp_path):
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        port = sock.getsockname()[1]
    (tmp_path / 'logs').mkdir()
    (tmp_path / 'nginx.conf').write_text(
        f'error_log logs/error.log; pid nginx.pid; events {{}} '
        f'http {{ access_log off; server {{ listen 127.0.0.1:{port}; }} }}')
    nginx = subprocess.Popen([require_nginx(), '-p', str(tmp_path), '-c', str(tmp_path / 'nginx.conf'),
                              '-g', 'daemon off;'], start_new_session=True)   # as the cluster's launcher is
    watch(groups=[nginx.pid])
    deadline = time.monotonic() + 30
    while not (tmp_path / 'nginx.pid').exists():   # nginx writes it once it is up
        assert nginx.poll() is None and time.monotonic() < deadline, (tmp_path / 'logs/error.log').read_text()
        time.sleep(0.05)
    hold(tmp_path)
'''


def run_holding(tmp_path: Path, source: str) -> tuple[subprocess.Popen, Path]:
    """A pytest on ``source``, once its test holds what it started: (the run, the folder named)."""
    (tmp_path / 'test_inner.py').write_text(source)
    env = {key: value for key, value in os.environ.items() if not key.startswith(('PYTEST_', 'NICEGUI_'))}
    env['PYTHONPATH'] = os.pathsep.join([str(TESTS), str(TESTS.parent)])
    run = subprocess.Popen([sys.executable, '-m', 'pytest', '-s', '-q', '-p', 'no:cacheprovider',
                            '--rootdir', str(tmp_path), str(tmp_path / 'test_inner.py')],
                           cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    said = []
    for line in run.stdout:   # ends when the run does: the inner run starts what it holds within its own bounds
        said.append(line)
        if line.startswith('HOLDING '):
            return run, Path(line.split(' ', 1)[1].strip())
    run.wait()
    pytest.fail('the inner run held nothing:\n' + ''.join(said), pytrace=False)


@contextmanager
def killing(run: subprocess.Popen) -> Iterator[None]:
    """The inner run ends here: killed by the test, or by this when the test fails first."""
    try:
        yield
    except BaseException:
        run.kill()
        raise
    finally:
        run.wait(timeout=PATIENCE)
        run.stdout.close()


def processes_in(folder: Path) -> list[str]:
    """The processes whose command line names the folder or that work in it (PostgreSQL's own
    processes run in their data folder)."""
    found = []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            command = Path(f'/proc/{pid}/cmdline').read_bytes().replace(b'\0', b' ').decode(errors='replace')
            cwd = os.readlink(f'/proc/{pid}/cwd')
        except OSError:   # gone meanwhile, or not ours to read
            continue
        if str(folder) in command or cwd.startswith(str(folder)):
            found.append(f'{pid}: {command}')
    return found


def gone(folder: Path) -> list[str]:
    """Waits until nothing runs in ``folder`` (at most PATIENCE seconds); returns what still does.
    It awaits the processes' ends themselves (a pidfd becomes readable when its process exits),
    since they are no children of this one to wait for."""
    deadline = time.monotonic() + PATIENCE
    while (left := processes_in(folder)) and (patience := deadline - time.monotonic()) > 0:
        ends = []
        for line in left:
            try:
                ends.append(os.pidfd_open(int(line.split(':', 1)[0])))
            except ProcessLookupError:   # gone already
                pass
        try:
            if ends:
                select.select(ends, [], [], patience)   # returns as soon as one of them ends
        finally:
            for end in ends:
                os.close(end)
    return left


@pytest.mark.parametrize('kill', [signal.SIGTERM, signal.SIGKILL], ids=['sigterm', 'sigkill'])
def test_a_killed_run_leaves_no_postgresql_behind(tmp_path: Path, kill: signal.Signals) -> None:
    run, folder = run_holding(tmp_path, POSTGRESQL)
    with killing(run):
        assert processes_in(folder), 'the inner run holds no PostgreSQL to watch'
        run.send_signal(kill)
    assert not gone(folder)
    deadline = time.monotonic() + PATIENCE   # its folder goes last
    while folder.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not folder.exists()


def test_a_killed_run_leaves_no_nginx_behind(tmp_path: Path) -> None:
    run, folder = run_holding(tmp_path, NGINX)
    with killing(run):
        assert processes_in(folder), 'the inner run holds no nginx to watch'
        run.send_signal(signal.SIGKILL)
    assert not gone(folder)
