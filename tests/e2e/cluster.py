"""The whole deployment for the browser tests: `python -m app.cluster` as a person runs it, two
server processes behind nginx on the tests' own PostgreSQL, the servers dealing from the test's
name (serve.py). Without nginx the tests fail with advice; they never skip. Everything it started
is stopped at the end, even when the test fails (the launcher and its children are one process
group), and even when the run itself is killed (a watchdog, tests/run_watchdog.py, ends that group
when the process that started it goes away)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.cluster.deploy import free_port
from nginx_binary import require_nginx
from run_watchdog import Watchdog, watch

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Cluster:
    url: str                                            # the public address, nginx's
    pids: dict[str, int] = field(default_factory=dict)  # a process's prefix -> its pid


@contextmanager
def running_cluster(database_url: str, seed: str, processes: int = 2) -> Iterator[Cluster]:
    require_nginx()
    data = Path(tempfile.mkdtemp(prefix='hod-cluster-'))
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if key != 'PYTEST_CURRENT_TEST' and not key.startswith('NICEGUI_')}
    env.update(HOST='127.0.0.1', PORT=str(port), DATA_DIR=str(data), DATABASE_URL=database_url,
               HOD_TEST_DEALS=seed, PYTHONUNBUFFERED='1')
    launcher = subprocess.Popen([sys.executable, '-m', 'app.cluster', '--processes', str(processes),
                                 '--first-port', '0', '--server', str(ROOT / 'tests/e2e/serve.py')],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
    watchdog = watch(groups=[launcher.pid])
    try:
        cluster, said = Cluster(url=f'http://127.0.0.1:{port}'), []
        while len(cluster.pids) < processes:
            line = launcher.stdout.readline()   # the launcher's own start-up is bounded (60 s)
            if not line:
                pytest.fail('the cluster did not start:\n' + ''.join(said) + _logs(data), pytrace=False)
            said.append(line)
            if match := re.match(r'(/w/\d+): \S+ pid (\d+)', line):
                cluster.pids[match[1]] = int(match[2])
        assert said[0].startswith(f'House Of Decks: http://127.0.0.1:{port}')
        yield cluster
    finally:
        _stop(launcher, watchdog)


def _logs(data: Path) -> str:
    return ''.join(f'\n--- {log.name}:\n{log.read_text()[-3000:]}' for log in sorted(data.glob('cluster/*.log')))


def _stop(launcher: subprocess.Popen, watchdog: Watchdog) -> None:
    """SIGTERM: the launcher stops its servers (they save and let their leases go) and nginx. Then
    anything of its group still there is killed, so that nothing outlives the test."""
    if launcher.poll() is None:
        launcher.send_signal(signal.SIGTERM)
        try:
            launcher.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(launcher.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    launcher.wait()
    launcher.stdout.close()
    watchdog.release()
