"""The computers' worker processes (app.tables.worker) end with their server: a server killed
outright (SIGKILL: no shutdown stops its pool) leaves no worker behind holding its memory."""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = """
import multiprocessing, os, signal, sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from app.tables.worker import in_worker

pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context('spawn'))   # as NiceGUI's
Path(sys.argv[1]).write_text(str(pool.submit(in_worker, os.getpid).result()))   # the worker's own pid
os.kill(os.getpid(), signal.SIGKILL)
"""
GONE_WITHIN = 30   # seconds: a bound for the failure only; the worker ends about a second after its server


def test_a_worker_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    said, told = tmp_path / 'worker', tmp_path / 'output'
    with told.open('w') as output:   # a file, not a pipe: the worker inherits it, and nobody waits for its end
        server = subprocess.run([sys.executable, '-c', SERVER, str(said)], cwd=ROOT, stdout=output,
                                stderr=subprocess.STDOUT, timeout=60)
    assert server.returncode == -signal.SIGKILL, told.read_text()
    worker = int(said.read_text())
    try:
        handle = os.pidfd_open(worker)
    except ProcessLookupError:   # already gone
        return
    try:
        ended, _, _ = select.select([handle], [], [], GONE_WITHIN)   # readable once the process has ended
        if not ended:
            os.kill(worker, signal.SIGKILL)
        assert ended, 'the worker outlived its killed server'
    finally:
        os.close(handle)
