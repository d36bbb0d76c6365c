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
from typing import TYPE_CHECKING, Any

from app.tables.seats import SPEEDS

if TYPE_CHECKING:
    from app.tables.table import Table

MIN_BEAT = 0.02    # seconds; lets a move reach the screens before the next computer move is computed
MAX_COMPUTER_MOVES_PER_SECOND = 20
logger = logging.getLogger(__name__)


class ComputerTurns:
    def __init__(self, table: 'Table') -> None:
        self.table = table
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

    def on_turn(self) -> int | None:
        """The computer seat that is to act now (a person's seat while a computer stands in)."""
        table = self.table
        seat = table.state.current_seat
        if seat is None or table.waiting or table.holding:
            return None
        if table.seats[seat].is_person and not table.presence.stands_in(seat):
            return None
        if table.pause is not None and not table.bot_may_act_during_pause():
            return None
        return seat

    async def _run(self) -> None:
        try:
            while (seat := self.on_turn()) is not None:
                table = self.table
                delay = 0.0 if table.people_are_out() else SPEEDS.get(table.options.speed, SPEEDS['normal'])
                # at instant speed still leave a beat, so the screens show each move before the next one
                await self._wait((delay if table.pause is None else 0) + MIN_BEAT)
                if self.on_turn() != seat:
                    continue
                version = table.version
                action = await self._choose(seat)
                if action is None:   # the server is stopping
                    return
                await self._wait(self._last_move + 1 / MAX_COMPUTER_MOVES_PER_SECOND - table.clock.now())
                # the table changed while this computer thought (a note, a stand-in, a person's
                # move): think again from the new position. Not a return: whoever changed it called
                # ``start`` while this task still ran, so nobody else would go on
                if table.version != version or self.on_turn() != seat:
                    continue
                self._last_move = table.clock.now()
                table.computer_moved(seat, action)
        finally:
            if self._idle is not None:
                self._idle.set()

    async def _wait(self, seconds: float) -> None:
        if seconds <= 0:
            return
        if self.table.clock.holds_time:
            self._idle.set()
        try:
            await self.table.clock.sleep(seconds)
        finally:
            self._idle.clear()

    async def _choose(self, seat: int) -> Any:
        """The computer's choice. Should a bot ever fail or pick an illegal action, the table
        plays on with the first legal action instead of freezing (and the failure is logged).
        None when the server is stopping."""
        table = self.table
        view = table.view(seat)
        level, seed = table.seats[seat].level or 'normal', f'{table.seed}:{seat}:{table.version}'
        try:
            action = await table.thinker.think(table.game.id, level, seed, view)
            if action is None:
                return None
        except Exception:   # any bug in a bot must not stop the game for the people at the table
            logger.exception('%s bot failed at seat %s', table.game.id, seat)
            action = None
        if action not in view.legal_actions:
            logger.error('%s bot chose %r, not a legal action', table.game.id, action)
            action = view.legal_actions[0]
        return action
