"""A watchdog for what a test run starts outside itself (PostgreSQL, the cluster's nginx and
servers, the browser tests' server): a small process in a session of its own that outlives the
process that started it. If that process goes away without releasing it (killed by SIGTERM,
SIGINT or SIGKILL, a timeout, a crashed xdist worker), the watchdog stops what it guards: it runs
the stop commands (``pg_ctl stop``), ends the process groups (SIGTERM, then SIGKILL) and removes
the folders. Started by ``watch(...)``; the owner calls ``release()`` once it has stopped
everything itself.

It learns of its owner's end at once from a pipe whose only writer is the owner (the end closes
with the owner's process, however it ends), and within half a second from the process table (a
child forked by the owner could hold the pipe open)."""
from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

RELEASED = b'released'
GRACE = 10.0   # seconds a group has to end after SIGTERM before it gets SIGKILL


class Watchdog:
    def __init__(self, process: subprocess.Popen, pipe: int) -> None:
        self.process, self.pipe = process, pipe

    def release(self) -> None:
        """Its owner has stopped everything: the watchdog goes without touching anything."""
        if self.pipe < 0:
            return
        try:
            os.write(self.pipe, RELEASED)
        finally:
            os.close(self.pipe)
            self.pipe = -1
        self.process.wait(timeout=10)


def watch(*, commands: list[list[str]] = (), groups: list[int] = (), folders: list[Path] = ()) -> Watchdog:
    """A watchdog for this process: when it goes away unreleased, ``commands`` run in order, the
    process groups ``groups`` end and the ``folders`` are removed."""
    read, write = os.pipe()   # neither end is inherited by the other processes we start
    orders = {'owner': os.getpid(), 'born': _born(os.getpid()), 'commands': [list(c) for c in commands],
              'groups': list(groups), 'folders': [str(folder) for folder in folders]}
    process = subprocess.Popen([sys.executable, '-I', __file__, str(read), json.dumps(orders)], pass_fds=[read],
                               start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    os.close(read)
    return Watchdog(process, write)


def _born(pid: int) -> str | None:
    """The process's start time (its identity, as pids are reused); None once it is gone or a zombie."""
    try:
        stat = Path(f'/proc/{pid}/stat').read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(')') + 2:].split()
    return None if fields[0] in 'ZX' else fields[19]


def _wait_for_owner(pipe: int, owner: int, born: str | None) -> bool:
    """Whether the owner went away (True) or released us (False)."""
    while True:
        ready, _, _ = select.select([pipe], [], [], 0.5)
        if ready:
            return os.read(pipe, len(RELEASED)) != RELEASED   # b'' when the owner's end closed
        if _born(owner) != born:
            return True


def _end_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    try:
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass


def main(pipe: int, orders: dict) -> None:
    for name in ('SIGINT', 'SIGHUP', 'SIGTERM'):   # a terminal's Ctrl-C or hang-up is meant for the owner
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    if not _wait_for_owner(pipe, orders['owner'], orders['born']):
        return
    for command in orders['commands']:
        try:
            subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            pass
    for group in orders['groups']:
        _end_group(group)
    for folder in orders['folders']:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == '__main__':
    main(int(sys.argv[1]), json.loads(sys.argv[2]))
