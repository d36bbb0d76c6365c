"""The computers' turns at one table: when each computer moves, and what it plays.

A computer moves once the screens have had a moment to show the last move: the table's play
speed sets that moment, and at most ``MAX_COMPUTER_MOVES_PER_SECOND`` moves a second go out at
one table even at instant speed, since every table's computers take turns in one process pool.
Every wait is on the table's clock and every move comes from its thinker, so a test that hands
the table a clock of its own and an inline thinker plays a whole game without waiting, and
``settle`` tells it when the computers have nothing more to do at the current time.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app import metrics
from app.tables.seats import SPEEDS

MIN_BEAT = 0.02    # seconds; lets a move reach the screens before the next computer move is computed
MAX_COMPUTER_MOVES_PER_SECOND = 20
logger = logging.getLogger(__name__)


class Thinker(Protocol):
    async def think(self, game_id: str, level: str, seed: str, view: Any) -> Any: ...


class Clock(Protocol):
    holds_time: bool

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


def beat(speed: str, people_out: bool, counting: bool) -> float:
    """How long a computer waits before its move: the play speed's pause (none while a count is
    read, or once every person is out and the rest plays out), and at instant speed still a beat,
    so that the screens show each move before the next one."""
    delay = 0.0 if people_out or counting else SPEEDS.get(speed, SPEEDS['normal'])
    return delay + MIN_BEAT


async def choose(thinker: Thinker, game_id: str, level: str, seed: str, view: Any) -> Any:
    """A computer's choice from its seat's view. Should a bot ever fail or pick an illegal
    action, the table plays on with the first legal action instead of freezing (and the failure
    is logged). None when the server is stopping."""
    try:
        with metrics.THINK_SECONDS.labels(game_id, level).time():
            action = await thinker.think(game_id, level, seed, view)
        if action is None:
            return None
    except Exception:   # any bug in a bot must not stop the game for the people at the table
        logger.exception('%s bot failed at seat %s', game_id, view.seat)
        action = None
    if action not in view.legal_actions:
        logger.error('%s bot chose %r, not a legal action', game_id, action)
        action = view.legal_actions[0]
    return action


class ComputerTurns:
    """Handed narrow callbacks, not the table: ``on_turn()`` names the computer seat to act now
    (or None), ``pause()`` how long it waits first, ``version()`` the table's version, ``think(seat)``
    its choice, ``move(seat, action)`` plays it."""

    def __init__(self, clock: Clock, *, on_turn: Callable[[], int | None], pause: Callable[[], float],
                 version: Callable[[], int], think: Callable[[int], Awaitable[Any]],
                 move: Callable[[int, Any], None]) -> None:
        self.clock = clock
        self.on_turn, self.pause, self.version, self.think, self.move = on_turn, pause, version, think, move
        self._task: asyncio.Task | None = None
        self._last_move = float('-inf')      # the clock's time of this table's latest computer move
        self._idle: asyncio.Event | None = None

    def start(self) -> None:
        """Let the computers act until a person has something to decide (or the game ends)."""
        if self._task is not None and not self._task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:   # no event loop (pure tests): computers move when asked to
            self._task = None
            return
        self._idle = asyncio.Event()
        self._task = loop.create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def settle(self) -> None:
        """Return once the computers have nothing left to do now: a person is to act, the game
        is over, or (on a clock that a test advances) the next move waits for time to pass."""
        while self._task is not None and not self._task.done():
            idle, task = self._idle, self._task
            waiting = asyncio.ensure_future(idle.wait())
            await asyncio.wait([task, waiting], return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            if idle.is_set() and self._task is task:
                return

    @property
    def waiting_on_clock(self) -> bool:
        """A computer's next move waits for the clock to go on."""
        return self._idle is not None and self._idle.is_set() and self._task is not None and not self._task.done()

    async def _run(self) -> None:
        try:
            while (seat := self.on_turn()) is not None:
                await self._wait(self.pause())
                if self.on_turn() != seat:
                    continue
                version = self.version()
                action = await self.think(seat)
                if action is None:   # the server is stopping
                    return
                await self._wait(self._last_move + 1 / MAX_COMPUTER_MOVES_PER_SECOND - self.clock.now())
                # the table changed while this computer thought (a note, a stand-in, a person's
                # move): think again from the new position. Not a return: whoever changed it called
                # ``start`` while this task still ran, so nobody else would go on
                if self.version() != version or self.on_turn() != seat:
                    continue
                self._last_move = self.clock.now()
                self.move(seat, action)
        finally:
            if self._idle is not None:
                self._idle.set()

    async def _wait(self, seconds: float) -> None:
        if seconds <= 0:
            return
        if self.clock.holds_time:
            self._idle.set()
        try:
            await self.clock.sleep(seconds)
        finally:
            self._idle.clear()
