"""What a Table is handed, as boardgame.io's master is handed its storage and transport.

- a **store** saves a table after its steps and hears when a game is over (the registry's
  database store in production, ``MemoryStore`` where no database is wanted);
- a **writer** runs a save's database half (``InlineWriter`` at once; ``ThreadWriter`` on threads
  of its own, so that the event loop serves screens while PostgreSQL answers);
- a **thinker** works out a computer's move from its seat's view (NiceGUI's process pool in
  production, ``InlineThinker`` in the same process: the same arguments give the same move);
- a **clock** tells the time and runs what waits on it (``RealClock``; tests hand a clock they
  advance themselves);
- a **deal source** gives each game's seed and each hand's secret seed (``SecretDeals`` from the
  operating system's randomness; ``SeededDeals`` replays a known sequence of deals).

Nothing here imports NiceGUI but the pool thinker, and only when it thinks.
"""
from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple, Protocol

from app.tables.worker import computer_choice, in_worker

class Table(Protocol):
    """What a store reads of the table it saves: who it is and what it holds (app/tables/table.py's
    Table; the stores in app/tables/registry.py and lease.py read more, and import it)."""

    id: str
    version: int
    recorded: bool

    def to_dict(self) -> dict[str, Any]: ...


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    #: True when time only passes as a test advances it: the computers then count as settled
    #: while they wait on it
    holds_time: bool

    def now(self) -> float:
        """Seconds on a steady clock (what delays are measured on)."""

    def wall(self) -> float:
        """Seconds since the epoch (what screens count down to, when a game started)."""

    async def sleep(self, seconds: float) -> None: ...

    def call_later(self, seconds: float, callback: Callable[..., Any], *args: Any) -> Timer | None:
        """Run ``callback(*args)`` after ``seconds``; None when nothing can run later (no event
        loop: the caller then does at once what it can)."""


class RealClock:
    holds_time = False

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    def call_later(self, seconds: float, callback: Callable[..., Any], *args: Any) -> Timer | None:
        try:
            return asyncio.get_running_loop().call_later(max(0.0, seconds), callback, *args)
        except RuntimeError:
            return None


class Thinker(Protocol):
    async def think(self, game_id: str, level: str, seed: str, view: Any) -> Any:
        """A computer's move from this view; None when the server is stopping."""

    async def compute(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)``, a plain function of picklable arguments that takes long (the coach's
        weighing of a decision): away from the event loop in production; None when stopping."""


class InlineThinker:
    """Thinks in this process, at once (tests, benchmarks, a table driven without a server)."""

    async def think(self, game_id: str, level: str, seed: str, view: Any) -> Any:
        return computer_choice(game_id, level, seed, view)

    async def compute(self, function: Callable[..., Any], *args: Any) -> Any:
        return function(*args)


class PoolThinker:
    """Thinks in NiceGUI's process pool (one worker per core), so that the server's event loop
    keeps answering every screen meanwhile."""

    async def think(self, game_id: str, level: str, seed: str, view: Any) -> Any:
        return await self.compute(computer_choice, game_id, level, seed, view)

    async def compute(self, function: Callable[..., Any], *args: Any) -> Any:
        from nicegui import app, run

        try:
            return await run.cpu_bound(in_worker, function, *args)
        except BrokenProcessPool:   # the workers were killed: the server is stopping (or one crashed)
            if app.is_stopping or app.is_stopped:
                return None
            raise
        except RuntimeError as error:   # no process pool: a table driven without the server
            if 'not set up' not in str(error):
                raise
            return function(*args)


class DealSource(Protocol):
    def game_seed(self) -> int:
        """A new game's seed: its first dealer and its computers' choices are drawn from it."""

    def hand_seed(self) -> str:
        """A hand's secret seed (revealed once the hand is over)."""


class SecretDeals:
    """From the operating system's randomness: the seeds revealed after the hands say nothing of
    the next ones (a Mersenne Twister's outputs would, after about 156 seeds)."""

    def game_seed(self) -> int:
        return secrets.randbits(63)

    def hand_seed(self) -> str:
        return secrets.token_hex(16)


class SeededDeals:
    """A known sequence of deals from one seed: the same seed deals the same games in the same
    order (tests, benchmarks and the browser tests' server)."""

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(f'deals:{seed}')

    def game_seed(self) -> int:
        return self._rng.getrandbits(63)

    def hand_seed(self) -> str:
        return f'{self._rng.getrandbits(128):032x}'


class Saved(Enum):
    """What became of a save."""
    OK = 'ok'
    FAILED = 'failed'   # the store could not write (database down): the table holds and tries again
    LOST = 'lost'       # another process has written this table since: this copy stops for good


@dataclass(frozen=True, slots=True)
class Entry:
    """One write of a table, read off it when the save began (``app.tables.saving``): the whole
    table (``whole``, the JSON of ``Table.to_dict()``), or the steps since the last write, to
    append to its move log (``appended``). Both are a compare-and-set from ``expected_version``."""
    table_id: str
    expected_version: int
    version: int
    status: str
    person_acted: bool
    seats: str | None                # JSON; None: unchanged, not written
    whole: str | None = None
    appended: str | None = None

    @property
    def size(self) -> int:
        """Bytes of JSON written."""
        return sum(len(text.encode()) for text in (self.seats, self.whole, self.appended) if text is not None)


class Write(NamedTuple):
    """A save in two halves. ``work`` only talks to the database, with what was read off the
    table when the save began (it may run on another thread); ``finish`` runs back on the table's
    event loop with what ``work`` returned, updates the table and says what became of the save."""
    work: Callable[[], Any]
    finish: Callable[[Any], Saved]


class TableStore(Protocol):
    def save(self, table: 'Table', entry: Entry) -> Saved:
        """Write this entry of the table, at once."""

    def write(self, table: 'Table', entry: Entry) -> Write:
        """The same save in its two halves, for a ``Writer`` to run."""

    def game_over(self, table: 'Table') -> None:
        """The game at this table has just ended (history records)."""

    def publish(self, listing: Any) -> None:
        """A public table's line in the lobby (app.tables.public.Listing) has changed: keep it
        where every process reads it. Runs on the table's writer: off the event loop."""

    def release_claim(self, table_id: str, seat: int) -> bool:
        """A person gives up their seat at a public table that has not started: False when it
        could not be freed (it started meanwhile, or the database is away)."""

    def left_rated(self, table_id: str, game_id: str, user_id: int, wall: float) -> None:
        """This account left a rated game before playing twice, which is aborted (app.playban
        keeps it). Runs on the table's writer: off the event loop."""

    def start_public(self, table_id: str, here: list[int]) -> list[Any] | None:
        """A public table starts: no more seats are taken there, and the claims of seats not
        ``here`` (their people are absent) go; the seats claimed that stay
        (app.tables.public.Claim), or None when that could not be settled (nothing starts)."""

    def free_unseen_claims(self, table_id: str, before: float, seen: list[int]) -> None:
        """Free the seats claimed at a waiting public table before the wall time ``before`` whose
        page never came (their seat is not among ``seen``). Runs on the table's writer."""

    def end_deserted(self, table: 'Table') -> None:
        """A public game nobody has been at for minutes ends, as abandoned (app.tables.public)."""

    def holds(self, table_id: str) -> bool:
        """This process may keep the table in memory and play it (always, unless several
        processes share the database: then only while it holds the table's lease)."""

    def claim(self, table_id: str) -> str | None:
        """None when this process holds the table now (claimed if nobody else did); else the
        address of the process that holds it."""

    def let_go(self, table_id: str) -> None:
        """This process no longer keeps the table in memory: another may claim it at once."""


class OneProcess:
    """What a store says when it is the only one: this process holds every table."""

    def holds(self, table_id: str) -> bool:
        return True

    def claim(self, table_id: str) -> str | None:
        return None

    def let_go(self, table_id: str) -> None:
        pass


@dataclass
class MemoryStore(OneProcess):
    """Keeps every write in memory: what a table would have written, and the games over."""

    saved: dict[str, dict[str, Any]] = field(default_factory=dict)   # table id -> its last whole write
    appended: dict[str, list[dict[str, Any]]] = field(default_factory=dict)   # table id -> steps since
    writes: list[dict[str, Any]] = field(default_factory=list)       # every write, whole or appended, in order
    finished: list[str] = field(default_factory=list)                # table ids, once per game over
    listings: dict[str, Any] = field(default_factory=dict)           # table id -> its last line in the lobby
    claims: dict[str, list[Any]] = field(default_factory=dict)       # table id -> seats claimed (tests)
    left: list[tuple[str, int]] = field(default_factory=list)        # (table id, account) that aborted a rated game
    deserted: list[str] = field(default_factory=list)                # table ids ended with nobody at them

    def save(self, table: 'Table', entry: Entry) -> Saved:
        stored = self.saved.get(table.id)
        if stored is not None and stored['version'] != entry.expected_version:
            return Saved.LOST
        if entry.whole is not None:
            written = {**json.loads(entry.whole), 'version': entry.version, 'status': entry.status}
            self.saved[table.id], self.appended[table.id] = written, []
        else:
            written = {**json.loads(entry.appended), 'version': entry.version, 'status': entry.status}
            self.saved[table.id] = {**stored, 'version': entry.version, 'status': entry.status}
            self.appended[table.id].append(written)
        self.writes.append(written)
        return Saved.OK

    def write(self, table: 'Table', entry: Entry) -> Write:
        return Write(lambda: None, lambda _: self.save(table, entry))   # memory has no round trip to wait for

    def game_over(self, table: 'Table') -> None:
        self.finished.append(table.id)
        table.recorded = True

    def publish(self, listing: Any) -> None:
        self.listings[listing.table_id] = listing

    def left_rated(self, table_id: str, game_id: str, user_id: int, wall: float) -> None:
        self.left.append((table_id, user_id))

    def start_public(self, table_id: str, here: list[int]) -> list[Any] | None:
        self.claims[table_id] = [claim for claim in self.claims.get(table_id, ()) if claim.seat in here]
        return list(self.claims[table_id])

    def free_unseen_claims(self, table_id: str, before: float, seen: list[int]) -> None:
        pass   # memory holds the claims a test hands it: they are all seen

    def end_deserted(self, table: 'Table') -> None:
        self.deserted.append(table.id)

    def release_claim(self, table_id: str, seat: int) -> bool:
        self.claims[table_id] = [claim for claim in self.claims.get(table_id, ()) if claim.seat != seat]
        return True


class Writing(Protocol):
    def wait(self) -> None:
        """Block until the write is done and its ``done`` has run (a table that must be saved
        before it goes on: closed, let go, the server stopping)."""


class Writer(Protocol):
    def run(self, work: Callable[[], Any], done: Callable[[Any], None]) -> Writing:
        """Run ``work``, then ``done(its result)`` on the caller's event loop."""


class _Done:
    def wait(self) -> None:
        pass


DONE = _Done()


class InlineWriter:
    """Writes at once, in the step that asked: SQLite's writes are a local file's, and tests see
    every save in the step that made it."""

    def run(self, work: Callable[[], Any], done: Callable[[Any], None]) -> Writing:
        done(work())
        return DONE


class ThreadWriter:
    """Writes on threads of its own, so that the event loop goes on serving every other screen
    while the database answers: with PostgreSQL a save is a round trip or two, and in the crowd
    bench (``app.bench.crowd``) the loop spent 40 % of its time waiting on them. A table starts one
    write at a time (``Table.save``), so its writes keep their order."""

    def __init__(self, threads: int = 4) -> None:
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix='table-save')

    def run(self, work: Callable[[], Any], done: Callable[[Any], None]) -> Writing:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:   # no loop to come back to (a script, the server stopping): at once
            return InlineWriter().run(work, done)
        return _ThreadWriting(self._threads.submit(work), done, loop)


class _ThreadWriting:
    """A write under way on a thread. The future's callback reaches back to this object, which
    holds the future: a cycle, which ``_finish`` breaks. Left to the cycle collector, every save's
    entry (a whole table's JSON, the log it copied) waited for a full collection, minutes under a
    crowd: the server's memory rose by tens of MB and stayed (app.bench.crowd's soak, issue 42)."""

    def __init__(self, future: Future, done: Callable[[Any], None], loop: asyncio.AbstractEventLoop) -> None:
        self._future: Future | None = future
        self._done: Callable[[Any], None] | None = done
        future.add_done_callback(lambda _: self._come_back(loop))

    def _come_back(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            loop.call_soon_threadsafe(self._finish)
        except RuntimeError:   # the loop closed meanwhile (the server stopped): nobody is left to tell
            pass

    def _finish(self) -> None:
        if self._future is None:   # once: after ``wait`` the loop's turn finds it done
            return
        future, done, self._future, self._done = self._future, self._done, None, None
        done(future.result())

    def wait(self) -> None:
        if self._future is not None:
            self._future.result()
        self._finish()


@dataclass
class TableServices:
    store: TableStore
    thinker: Thinker = field(default_factory=PoolThinker)
    clock: Clock = field(default_factory=RealClock)
    deals: DealSource = field(default_factory=SecretDeals)
    writer: Writer = field(default_factory=InlineWriter)
