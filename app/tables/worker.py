"""What a computer thinks with, in a worker process: plain functions of picklable arguments.

The process pool starts its workers fresh (spawn) and imports this module there, so it imports
the games and nothing of the server (no NiceGUI): a worker is ready to think at once.
"""
from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from app.games import GAMES_BY_ID

WORKER_NICENESS = 10   # the computers think below the server's priority: the event loop answers first
SERVER_CHECK_EVERY = 1.0   # seconds between a worker's looks at whether its server is still there
_server: int | None = None   # the server process this worker thinks for, once it has settled in


def computer_choice(game_id: str, level: str, seed: str, view: Any) -> Any:
    """A computer's move from its seat's view: the same arguments always give the same move (every
    level's budget is counted in work, never in seconds)."""
    return GAMES_BY_ID[game_id].ai_module.make_bot(level, random.Random(seed)).choose(view)


def in_worker(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` (a computer's choice, the coach's weighing of a decision) in a worker
    process of the pool, which settles in the first time (``settle_in``)."""
    if _server is None:
        settle_in()
    return function(*args)


def settle_in() -> None:
    """Once per worker: it lowers its priority below the server's (on a busy machine the server's
    screens go first), and it ends with its server. A server that is killed (SIGKILL, the kernel
    out of memory) has no shutdown that stops its pool, and its workers, which hold their own
    queue's pipe open, would wait for work forever with their memory held; the launcher
    (``python -m app.cluster``) starts a new server with a pool of its own meanwhile."""
    global _server
    _server = os.getppid()
    lowest = os.getpriority(os.PRIO_PROCESS, _server) + WORKER_NICENESS
    if os.getpriority(os.PRIO_PROCESS, 0) < lowest:
        os.setpriority(os.PRIO_PROCESS, 0, lowest)
    threading.Thread(target=_end_with_server, args=(_server,), name='end-with-server', daemon=True).start()


def _end_with_server(server: int) -> None:
    while os.getppid() == server:   # an orphan is given another parent
        time.sleep(SERVER_CHECK_EVERY)
    os._exit(0)
