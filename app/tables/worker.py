"""What a computer thinks with, in a worker process: plain functions of picklable arguments.

The process pool starts its workers fresh (spawn) and imports this module there, so it imports
the games and nothing of the server (no NiceGUI): a worker is ready to think at once.
"""
from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

from app.games import GAMES_BY_ID

WORKER_NICENESS = 10   # the computers think below the server's priority: the event loop answers first


def computer_choice(game_id: str, level: str, seed: str, view: Any) -> Any:
    """A computer's move from its seat's view: the same arguments always give the same move (every
    level's budget is counted in work, never in seconds)."""
    return GAMES_BY_ID[game_id].ai_module.make_bot(level, random.Random(seed)).choose(view)


def in_worker(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` (a computer's choice, the coach's weighing of a decision) in a worker
    process of the pool, which lowers its own priority below the server's the first time (on a
    busy machine the server's screens go first)."""
    lowest = os.getpriority(os.PRIO_PROCESS, os.getppid()) + WORKER_NICENESS
    if os.getpriority(os.PRIO_PROCESS, 0) < lowest:
        os.setpriority(os.PRIO_PROCESS, 0, lowest)
    return function(*args)
