"""A table's saving (lichess's GameProxy): when a table is written, and what.

A step appends what happened since the last write to the table's move log in the store (the
actions, the lines its log gained, the hands that ended, the few small fields that changed): a
few hundred bytes. The whole table (``Table.to_dict``) is written only when an append could not
rebuild it:

- a new deal (or a new game): its hand's seed is secret, and only the whole state carries it;
- the game is over (its finished record is one whole state);
- the seats changed, or the table keeps no move log (a known position, one saved before moves
  were kept);
- every ``WHOLE_EVERY`` appended steps, so that a load replays at most that many actions.

Loading takes the last whole state and plays the appended actions on it (``rebuilt``): the engines
are deterministic, and no deal happens among them, so the result is the table as it was.

One write at a time (a store may write on another thread): steps that come while one is under way
are written right after it, together. A failed write holds the table and tries again later, with
everything since the last write that worked; a write another process got in before (the
compare-and-set on the version, the lease's epoch) stops this copy for good.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, Protocol

from app.tables.moves import deal_number, record
from app.tables.services import DONE, Entry, Saved, TableServices, Writing

if TYPE_CHECKING:
    from app.games import GameInfo


class Table(Protocol):
    """What saving reads and calls of its table (app/tables/table.py's Table): what a whole write
    holds, what a step appends, and how it holds, goes on or stops."""

    id: str
    version: int
    lost: bool
    state: Any
    seed: int
    dealer: int
    started_at: float
    pause: str | None
    log: list[dict[str, Any]]
    hand_results: list[dict[str, Any]]
    hand_orders: dict[int, list[str]]
    moves: list[list[list[Any]]] | None
    past_games: list[dict[str, Any]]
    room: Any
    seats: list[Any]
    recorded: bool
    person_acted: bool

    @property
    def status(self) -> str: ...

    def is_over(self) -> bool: ...

    def to_dict(self) -> dict[str, Any]: ...

    def notify(self) -> None: ...

    def lose(self) -> None: ...

    def stop_computers(self) -> None: ...

    def start_computers(self) -> None: ...

# seconds; a step is saved once its update has surely left for the screens (a write that starts
# while the update is still on its way delays it: at 10 ms a drop took 1.6x a bare button, at
# 50 ms 1.4x). A kill in between loses at most that last step.
SAVE_DELAY = 0.05
# seconds between tries while the store cannot write: doubling from the first to the most
SAVE_RETRY_FIRST, SAVE_RETRY_MOST = 0.5, 30.0
# appended steps between two whole writes, from app.bench.saving (4 easy computers, seed 1): a whole
# 4-seat Continental table is 50-220 KB, an appended step ~200 B, and its hands run to 1,400
# steps. Bytes per step there: every 50 steps 3.8 KB, 100: 2.1 KB, 200: 1.2 KB, 400: 0.7 KB,
# never: 0.4 KB (Chinchón's hands are shorter: 1.1 KB whatever N). A load costs ~10 ms for the
# whole state and ~0.04 ms per appended action: 200 keeps it under ~20 ms, and the steps a table
# keeps under ~40 KB, while writing 150x less than whole writes at every step.
WHOLE_EVERY = 200
logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Written:
    """What the store holds of the table, to append to: read off the table when a write began."""
    state: Any                    # the engine state last written whole (a new game is another object)
    deal: int
    moves_at: tuple[int, int]     # the move log's deals, and the moves of its last deal
    log: list[dict[str, Any]]     # the log as written (a copy: the table's own may change)
    results: int                  # hand results written
    extras: dict[str, Any]
    seats: str
    appended: int                 # appends since the last whole write


def _json(value: Any) -> str:
    return json.dumps(value, separators=(',', ':'))


class Saving:
    def __init__(self, table: 'Table', services: TableServices, *, version: int, log_length: int) -> None:
        self.table, self.log_length = table, log_length
        self.store, self.writer, self.clock = services.store, services.writer, services.clock
        self.version = version      # what the store holds (the compare-and-set's expectation)
        self.failures = 0           # writes failed in a row: the table holds until one works
        self.listeners: list[Callable[[int], None]] = []
        self._written: Written | None = None   # None: the next write is whole
        self._pending: Any = None
        self._writing: Writing | None = None   # a write under way: the next one starts when it is done
        self._again = False                    # ... and steps came meanwhile

    def on_saved(self, listener: Callable[[int], None]) -> Callable[[], None]:
        self.listeners.append(listener)

        def stop() -> None:
            if listener in self.listeners:
                self.listeners.remove(listener)
        return stop

    def soon(self) -> None:
        """Save a moment later, once the step is on its way to the screens (what a click waits
        for). Steps in between are saved together; ``flush`` saves at once."""
        if self._pending is None:
            self._pending = self.clock.call_later(SAVE_DELAY, self.save)
            if self._pending is None:   # nothing runs later here: save now
                self.save()

    def save(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self.table.lost:
            return
        if self._writing is not None:
            self._again = True
            return
        entry, written = self.entry()
        write = self.store.write(self.table, entry)
        self._writing = started = DONE
        writing = self.writer.run(write.work, lambda outcome: self._done(write.finish(outcome), entry, written))
        if self._writing is started:   # not done already: under way on another thread
            self._writing = writing

    def flush(self) -> None:
        """Save now if a save is waiting, and return once it is written (or has failed)."""
        if self._writing is not None:
            self._writing.wait()   # its end starts the next write itself if steps came meanwhile
        if self._writing is None and self._pending is not None:
            self.save()
        if self._writing is not None:
            self._writing.wait()

    # what is written ------------------------------------------------------------------
    def entry(self) -> tuple[Entry, Written]:
        """The next write, and what the store will hold once it is done."""
        table, last = self.table, self._written
        seats = _json([seat.to_dict() for seat in table.seats])
        extras = extras_of(table)
        moves_at = (0, 0) if not table.moves else (len(table.moves), len(table.moves[-1]))
        base = dict(table_id=table.id, expected_version=self.version, version=table.version, status=table.status,
                    person_acted=table.person_acted)
        whole = (last is None or last.appended + 1 >= WHOLE_EVERY or table.state is not last.state
                 or deal_number(table.state) != last.deal or table.is_over() or seats != last.seats)
        added = None if whole else self._added(last)
        if added is None:
            written = Written(table.state, deal_number(table.state), moves_at, list(table.log),
                              len(table.hand_results), extras, seats, 0)
            return Entry(**base, seats=seats, whole=_json(table.to_dict())), written
        moves, log = added
        step: dict[str, Any] = {'moves': moves, 'log': log}
        if len(table.hand_results) > last.results:
            step['results'] = table.hand_results[last.results:]
        if extras != last.extras:
            step['extras'] = {key: value for key, value in extras.items() if last.extras.get(key) != value}
        written = Written(last.state, last.deal, moves_at, list(table.log), len(table.hand_results), extras, seats,
                          last.appended + 1)
        return Entry(**base, seats=None, appended=_json(step)), written

    def _added(self, last: Written) -> tuple[list[Any], list[dict[str, Any]]] | None:
        """The moves and the log lines since ``last``; None when an append cannot say what changed."""
        table = self.table
        deals, in_last = last.moves_at
        if (table.moves is None or len(table.moves) < deals or (deals and len(table.moves[deals - 1]) < in_last)
                or len(table.hand_results) < last.results):
            return None
        moves = list(chain(table.moves[deals - 1][in_last:] if deals else [], *table.moves[deals:]))
        for count in range(len(table.log) + 1):   # the fewest lines that, appended, give the log now
            tail = table.log[len(table.log) - count:]
            if (last.log + tail)[-self.log_length:] == table.log:
                return moves, tail
        return None

    # what became of a write ------------------------------------------------------------
    def _done(self, saved: Saved, entry: Entry, written: Written) -> None:
        self._writing = None
        again, self._again = self._again, False
        if saved is Saved.LOST:
            self.table.lose()
        elif saved is Saved.FAILED:
            self._hold()   # its retry saves the steps that came meanwhile too
        else:
            self.version, self._written = entry.version, written
            self._tell_saved()
            if self.failures:
                self._release()
            if again:
                self.save()

    def _tell_saved(self) -> None:
        for listener in list(self.listeners):
            try:
                listener(self.version)
            except Exception:   # one broken screen must not stop the table for the others
                logger.exception('a save listener of table %s failed', self.table.id)

    def _hold(self) -> None:
        """A save failed: stop the computers, tell every screen, and try again a little later,
        waiting twice as long after each failure."""
        self.failures += 1
        self.table.stop_computers()
        wait = min(SAVE_RETRY_MOST, SAVE_RETRY_FIRST * 2 ** (self.failures - 1))
        self._pending = self.clock.call_later(wait, self.save)
        if self.failures == 1:
            self.table.notify()

    def _release(self) -> None:
        """Saving works again: a game that ended meanwhile is recorded now, and play goes on."""
        self.failures = 0
        table = self.table
        if table.is_over() and not table.recorded:
            self.store.game_over(table)
        table.notify()
        table.start_computers()


def extras_of(table: 'Table') -> dict[str, Any]:
    """The table's small saved fields (``Table.to_dict`` but its state and what only grows)."""
    return {'seed': table.seed, 'started_at': table.started_at, 'pause': table.pause,
            'hand_orders': {str(seat): list(order) for seat, order in table.hand_orders.items()},
            'recorded': table.recorded, 'dealer': table.dealer, 'past_games': list(table.past_games),
            'room': table.room.to_dict() if table.room is not None else None, 'person_acted': table.person_acted}


class CannotRebuild(ValueError):
    """The appended steps do not fit the whole state they follow."""


def _no_deal() -> str:
    raise CannotRebuild('an appended step dealt a hand: its seed is only in a whole write')


def rebuilt(game: 'GameInfo', raw: dict[str, Any], steps: list[dict[str, Any]], *, log_length: int) -> dict[str, Any]:
    """The saved dict of a table as a whole write would hold it now: its last whole state with the
    steps appended since played on it."""
    if not steps:
        return raw
    engine = game.engine_module
    state = engine.GameState.from_dict(raw['state'], _no_deal)
    moves = None if raw.get('moves') is None else [list(deal) for deal in raw['moves']]
    log, results, extras = list(raw.get('log') or []), list(raw.get('hand_results') or []), {}
    for step in steps:
        for seat, action in step['moves']:
            hand = deal_number(state)
            played = engine.ACTIONS.from_json(action)
            state.apply(seat, played)
            if moves is not None:
                record(moves, hand, seat, played)
        log = (log + step['log'])[-log_length:]
        results += step.get('results', [])
        extras.update(step.get('extras', {}))
    return {**raw, **extras, 'state': state.to_dict(), 'log': log, 'hand_results': results, 'moves': moves}
