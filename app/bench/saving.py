"""What saving a table costs: bytes written and time spent serializing, per step, over seeded
whole games played by computers through a Table (a 4-seat Chinchón and a 4-seat Continental).

    python -m app.bench.saving [--seed 1] [--level easy]

Each step is saved at once (the clock here runs nothing later: the worst case, one write per step;
on a server, steps 50 ms apart are saved together). The store only counts: the bytes are those of
the JSON a database store would write (whole table, or steps appended, and seats when written);
the time is that of making each write off the table (``Saving.entry``: to_dict and JSON).
"""
from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.games import GAMES_BY_ID
from app.tables.seats import Seat, TableOptions, computer_seats
from app.tables.services import Entry, InlineThinker, MemoryStore, Saved, SeededDeals, TableServices, Write
from app.tables.table import Table


class InstantClock:
    """Time moves on as the computers wait, at once; nothing runs later (a save happens in the
    step that asked for it)."""
    holds_time = False

    def __init__(self) -> None:
        self._now = 0.0

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return 1_800_000_000.0 + self._now

    async def sleep(self, seconds: float) -> None:
        self._now += max(0.0, seconds)
        await asyncio.sleep(0)

    def call_later(self, seconds: float, callback: Any, *args: Any) -> None:
        return None


@dataclass
class MeasuredStore(MemoryStore):
    """A memory store that counts the bytes it is asked to write (whole or appended)."""
    sizes: list[int] = field(default_factory=list)
    wholes: int = 0

    def write(self, table: Table, entry: Entry) -> Write:
        self.sizes.append(entry.size)
        self.wholes += entry.whole is not None
        return Write(lambda: None, lambda _: Saved.OK)   # only counted, not kept


def timed(make: Callable[[], Any], spent: list[float]) -> Callable[[], Any]:
    """``make``, adding the seconds it takes to ``spent[0]``."""
    def measured() -> Any:
        started = time.perf_counter()
        try:
            return make()
        finally:
            spent[0] += time.perf_counter() - started
    return measured


@dataclass(frozen=True)
class Figures:
    game_id: str
    steps: int
    writes: int
    wholes: int
    total: int
    serializing: float

    def line(self) -> str:
        return (f'{self.game_id:12} steps {self.steps:5}  writes {self.writes:5} (whole {self.wholes:4})  '
                f'bytes/step {self.total / self.steps:9.0f}  total {self.total / 1024:9.0f} KiB  '
                f'serializing {1000 * self.serializing:7.0f} ms ({1e6 * self.serializing / self.steps:5.0f} us/step)')


async def play(game_id: str, *, seed: int, level: str, seats: int = 4) -> Figures:
    """A whole game at one table, every seat a computer; the count after each hand is passed at once."""
    store = MeasuredStore()
    services = TableServices(store=store, thinker=InlineThinker(), clock=InstantClock(), deals=SeededDeals(seed))
    options = TableOptions(seats=seats, level=level, speed='instant', hints=False)
    table = Table(f'bench-{game_id}', GAMES_BY_ID[game_id], options, computer_seats(options, []),
                  services=services, seed=services.deals.game_seed())
    spent = [0.0]
    table.saving.entry = timed(table.saving.entry, spent)   # what a write is made of, read off the table
    table.subscribe(-1, lambda snapshot: None)   # the computers play while somebody watches
    while not table.is_over():
        version = table.version
        await table.settle()
        if table.pause is not None:
            table.go_on_from_count()
        elif table.version == version:
            raise RuntimeError(f'{game_id}: the table stopped at version {version}')
    table.flush()
    return Figures(game_id, table.version, len(store.sizes), store.wholes, sum(store.sizes), spent[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--level', default='easy')
    parser.add_argument('--games', nargs='+', default=['chinchon', 'continental'], choices=sorted(GAMES_BY_ID))
    args = parser.parse_args()
    figures = [asyncio.run(play(game_id, seed=args.seed, level=args.level)) for game_id in args.games]
    for one in figures:
        print(one.line())
    print(f'mean bytes/step of the games: {sum(one.total / one.steps for one in figures) / len(figures):.0f}')


if __name__ == '__main__':
    main()
