"""A clock that only moves when the test says so, for the tables a test makes (the ``clock``
fixture of conftest.py hands it to the registry)."""
from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Any


class ManualTimer:
    def __init__(self, due: float, callback: Callable[..., Any], args: tuple) -> None:
        self.due, self.callback, self.args, self.cancelled = due, callback, args, False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """Time passes only in ``advance``: ``await clock.advance(30)`` runs a 30 s turn clock out at
    once. With ``autojump`` (the default), a computer's pause moves the clock on by itself, as
    time would have passed, so computers play a whole game in no real time; without it, they
    wait for the test to advance (``Table.settle`` then returns while they wait)."""

    EPOCH = 1_800_000_000.0   # what wall() says at the start

    def __init__(self, *, autojump: bool = True) -> None:
        self.autojump = autojump
        self._now = 0.0
        self._timers: list[tuple[float, int, ManualTimer]] = []
        self._order = itertools.count()

    @property
    def holds_time(self) -> bool:
        return not self.autojump

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self.EPOCH + self._now

    def call_later(self, seconds: float, callback: Callable[..., Any], *args: Any) -> ManualTimer:
        timer = ManualTimer(self._now + max(0.0, seconds), callback, args)
        heapq.heappush(self._timers, (timer.due, next(self._order), timer))
        return timer

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            return
        if self.autojump:
            await self.advance(seconds)
            return
        woken = asyncio.get_running_loop().create_future()
        self.call_later(seconds, lambda: woken.done() or woken.set_result(None))
        await woken

    def next_due(self) -> float | None:
        live = [due for due, _, timer in self._timers if not timer.cancelled]
        return min(live) if live else None

    async def advance(self, seconds: float) -> None:
        """Move the clock on, running every timer that falls due on the way, in order; each
        one's consequences run before the next timer (a woken task gets the loop)."""
        target = self._now + max(0.0, seconds)
        while self._timers and self._timers[0][0] <= target:
            due, _, timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._now = max(self._now, due)
            timer.callback(*timer.args)
            await asyncio.sleep(0)   # one turn of the loop: the task the timer woke runs now
        self._now = max(self._now, target)


async def run_computers(table: Any, clock: ManualClock) -> None:
    """On a clock without autojump: advance it through the computers' pauses until a person is
    to act or the game is over."""
    await table.settle()
    while table.computers.waiting_on_clock and clock.next_due() is not None:
        await clock.advance(clock.next_due() - clock.now())
        await table.settle()


async def until(condition: Callable[[], bool], *, turns: int = 5000, patience: float = 30.0,
                clock_moves: bool = True) -> None:
    """Wait for what a page's event handler does (NiceGUI runs an async one as a task of its own):
    by turns of the event loop, not by time, so a busy machine waits the same. When a turn brings
    nothing new, the tables' manual clock (conftest) jumps to its next timer, as time would have
    passed: a save after its delay, a computer's pause (not with ``clock_moves=False``: for what
    takes no table time, such as a page opening, before a test that times a turn clock). Past
    ``turns``, what is awaited is in a worker thread (NiceGUI reads a browser's storage file in
    one): the loop then sleeps between looks, for at most ``patience`` seconds, a bound only a
    hang reaches. For a table's computers alone, await ``table.settle()`` instead."""
    from app.tables import registry

    clock = registry.services().clock
    for turn in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
        if clock_moves and turn % 10 == 9 and isinstance(clock, ManualClock) and (due := clock.next_due()) is not None:
            await clock.advance(due - clock.now())
    for _ in range(int(patience / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    waiting = sorted(task.get_name() for task in asyncio.all_tasks() if task is not asyncio.current_task())
    raise AssertionError(f'condition not reached in {turns} turns of the event loop and {patience} s; '
                         f'tasks: {waiting}')


async def loop_turns(count: int = 200) -> None:
    """Let the event loop run this many turns, with no time passing: a task a click started (a
    hint asked of the inline thinker, say) has run to its end."""
    for _ in range(count):
        await asyncio.sleep(0)


async def sees(user: Any, target: Any = None, *, marker: str | None = None, clock_moves: bool = True) -> None:
    """``user.should_see``, waiting by turns of the event loop (``until``) instead of NiceGUI's
    retries of 0.1 s, which a busy machine can outrun: a sign-in's redirect and new page come
    after however many turns they take."""
    def found() -> bool:
        if isinstance(target, str) and user.notify.contains(target):   # a notification counts, as for should_see
            return True
        try:
            return bool(user.find(target, marker=marker).elements)
        except AssertionError:
            return False

    await until(found, clock_moves=clock_moves)
    await user.should_see(target, marker=marker, retries=1)   # the framework's own check (visible, too)
