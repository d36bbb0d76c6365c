"""What saving a table costs: bytes written and time spent serializing, per step, over seeded
whole games played by computers through a Table (a 4-seat Chinchón and a 4-seat Continental).

    python -m app.bench.saving [--seed 1] [--level easy]

Each step is saved at once (the clock here runs nothing later: the worst case, one write per step;
on a server, steps 50 ms apart are saved together). The store is the memory one, measured: the
bytes are those of the JSON a database store would write for the same saves.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from app.games import GAMES_BY_ID
from app.tables.seats import Seat, TableOptions, computer_seats
from app.tables.services import InlineThinker, MemoryStore, Saved, SeededDeals, TableServices, Write
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
    """A memory store that counts what it is asked to write and the time spent making it."""
    sizes: list[int] = field(default_factory=list)
    serializing: float = 0.0

    def write(self, table: Table) -> Write:
        def finish(_: Any) -> Saved:
            started = time.perf_counter()
            text = json.dumps(table.to_dict(), separators=(',', ':'))
            self.serializing += time.perf_counter() - started
            self.sizes.append(len(text.encode()))
            table.saved_version = table.version   # what was written is only counted, not kept
            return Saved.OK
        return Write(lambda: None, finish)


@dataclass(frozen=True)
class Figures:
    game_id: str
    steps: int
    writes: int
    total: int
    serializing: float

    def line(self) -> str:
        return (f'{self.game_id:12} steps {self.steps:5}  writes {self.writes:5}  '
                f'bytes/step {self.total / self.steps:9.0f}  total {self.total / 1024:9.0f} KiB  '
                f'serializing {1000 * self.serializing:7.0f} ms ({1e6 * self.serializing / self.steps:5.0f} us/step)')


async def play(game_id: str, *, seed: int, level: str, seats: int = 4) -> Figures:
    """A whole game at one table, every seat a computer; the count after each hand is passed at once."""
    store = MeasuredStore()
    services = TableServices(store=store, thinker=InlineThinker(), clock=InstantClock(), deals=SeededDeals(seed))
    options = TableOptions(seats=seats, level=level, speed='instant', hints=False)
    table = Table(f'bench-{game_id}', GAMES_BY_ID[game_id], options, computer_seats(options, []),
                  services=services, seed=services.deals.game_seed())
    table.subscribe(-1, lambda view, events: None)   # the computers play while somebody watches
    while not table.is_over():
        version = table.version
        await table.settle()
        if table.pause is not None:
            table.go_on_from_count()
        elif table.version == version:
            raise RuntimeError(f'{game_id}: the table stopped at version {version}')
    table.flush()
    return Figures(game_id, table.version, len(store.sizes), sum(store.sizes), store.serializing)


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
