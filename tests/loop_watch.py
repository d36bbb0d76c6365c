"""A watchdog for the event loop: a thread that keeps asking the loop to run a tiny callback and
measures how long each one waited. Every screen of a process waits on this one loop, so a
callback that holds it (a database round trip made on it, a long computation) shows up here as a
wait as long as the hold, whatever the test was doing at the time.

    async with watching_the_loop(bound=0.25) as watch:
        ...   # play a game
    # leaving the block fails the test if the loop was ever held longer than the bound

The bound is for code that never holds the loop: far above a healthy wait on a busy machine
(a few milliseconds), far below a blocking round trip made slow on purpose. On a failure the
message carries where the loop thread was stuck, taken while it was still stuck.

A wait is counted without the time the loop's thread and the watch's thread spent ready to run
but waiting for a core (Linux's per-thread schedstat): on a machine whose cores are all taken by
other work, a ping waits for a core, not for code holding the loop. A blocking call (a round trip,
a sleep) leaves the thread asleep, not waiting for a core, and is counted whole."""
from __future__ import annotations

import asyncio
import gc
import sys
import threading
import time
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

BOUND = 0.25   # seconds; see above
EVERY = 0.01   # seconds between pings: a hold shorter than the bound cannot slip between two


class LoopWatch:
    def __init__(self, loop: asyncio.AbstractEventLoop, *, bound: float, every: float = EVERY) -> None:
        self.loop, self.bound, self.every = loop, bound, every
        self.pings = 0
        self.longest = 0.0
        self.stuck_at: str | None = None   # the loop thread's stack, the first time a ping overran
        self._loop_thread = threading.get_ident()   # made on the loop's thread (see watching_the_loop)
        self._threads = [threading.get_native_id()]   # and the watch's own, once it runs
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name='loop-watch', daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _queued(self) -> float:
        """Seconds the loop's and the watch's threads have spent so far waiting for a core."""
        total = 0
        for thread in self._threads:
            try:
                with open(f'/proc/self/task/{thread}/schedstat') as stats:
                    total += int(stats.read().split()[1])
            except (OSError, IndexError, ValueError):   # not Linux, or no schedstat: the wall time alone
                pass
        return total / 1e9

    def _held(self, asked: float, queued: float) -> float:
        return time.monotonic() - asked - (self._queued() - queued)

    def _watch(self) -> None:
        self._threads.append(threading.get_native_id())
        while not self._stop.is_set():
            answered = threading.Event()
            asked, queued = time.monotonic(), self._queued()
            try:
                self.loop.call_soon_threadsafe(answered.set)
            except RuntimeError:   # the loop closed: nothing left to watch
                return
            while not answered.wait(self.every):
                # stop() holds the loop while it joins this thread: a ping then is not answered, and
                # that wait is not the code under watch
                if self._stop.is_set():
                    return
                if self.stuck_at is None and time.monotonic() - asked > self.bound \
                        and self._held(asked, queued) > self.bound:
                    self.stuck_at = self._where_the_loop_is()
            self.pings += 1
            self.longest = max(self.longest, self._held(asked, queued))
            self._stop.wait(self.every)

    def _where_the_loop_is(self) -> str | None:
        # sys._current_frames is documented in sys (for debuggers): the stack names the culprit
        stack = ''.join(traceback.format_stack(sys._current_frames().get(self._loop_thread), limit=12))
        return None if self._stop.is_set() else stack

    def check(self) -> None:
        assert self.pings > 0, 'the loop was never watched: the block ended before the first ping'
        assert self.stuck_at is None, (f'the event loop was blocked for {self.longest * 1000:.0f} ms (bound '
                                       f'{self.bound * 1000:.0f} ms); it was stuck at:\n{self.stuck_at}')


@asynccontextmanager
async def watching_the_loop(*, bound: float = BOUND) -> AsyncIterator[LoopWatch]:
    """Watch the running loop for the block; fail on leaving it if the loop was blocked longer
    than ``bound`` (not when the block raised: that error says more)."""
    watch = LoopWatch(asyncio.get_running_loop(), bound=bound)
    # the watch is of the code's own holds: a full walk of the collector over everything the test
    # process has piled up by now (a worker that ran hundreds of tests before) held the loop 307 ms
    # once in CI, in a weakref's callback, whatever the code under watch was doing
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    watch.start()
    try:
        yield watch
    finally:
        watch.stop()
        if collecting:
            gc.enable()
    watch.check()
