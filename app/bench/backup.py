"""How long a backup and a restore take (app.backup) for a site with many finished games.

    python -m app.bench.backup [--games 10000] [--accounts 200] [--database URL --restore-into URL]

Without ``--database`` the site is a new SQLite file in a temporary folder. Every finished game is
a whole seeded 2-seat Chinchón game played by computers through a Table (its seats, hands, deal
commitments and replay as the site records them), a few different ones shared round the accounts;
the games' rows are those the site writes (``finished_game_rows``), a thousand to a transaction. Then the database is
backed up, and the backup restored into an empty database (``--restore-into``; a new SQLite file
by default). PostgreSQL: pass two empty databases' URLs.
"""
from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from app import accounts, backup
from app.bench.saving import InstantClock
from app.games import GAMES_BY_ID
from app.history import SeatResult, finished_game_rows
from app.tables.records import running_scores
from app.tables.seats import TableOptions, computer_seats
from app.tables.services import InlineThinker, MemoryStore, SeededDeals, TableServices
from app.tables.table import Table
from models.db import init_db, session_scope
from models.tables import record_game

KINDS = 8   # different games played, shared round the accounts


async def finished_game(seed: int) -> dict:
    """A whole seeded game by computers, as ``record_finished_game`` takes it for seat 0's person."""
    services = TableServices(store=MemoryStore(), thinker=InlineThinker(), clock=InstantClock(),
                             deals=SeededDeals(seed))
    options = TableOptions(seats=2, level='easy', speed='instant', hints=False)
    table = Table(f'bench-{seed}', GAMES_BY_ID['chinchon'], options, computer_seats(options, []),
                  services=services, seed=services.deals.game_seed())
    table.subscribe(-1, lambda snapshot: None)
    while not table.is_over():
        await table.settle()
        if table.pause is not None:
            table.go_on_from_count()
    scores = running_scores(table.view(0))
    winner = min(range(2), key=lambda seat: scores[seat])
    deals = table.view(0).past_deals
    return {'options': options.to_dict(), 'hands_played': len(table.hand_results),
            'seats': [SeatResult('Ana' if seat == 0 else 'easy', seat == 0, scores[seat], int(seat != winner) + 1,
                                 seat == winner) for seat in range(2)],
            'deal_commitments': [(deal.commitment, deal.seed) for deal in deals],
            'replay': (table.dealer, table.moves)}


def fill(games: int, people: int) -> None:
    kinds = [asyncio.run(finished_game(seed)) for seed in range(KINDS)]
    ids = [accounts.register(username=f'player{number:04}', password='correct horse battery',
                             confirmation='correct horse battery').id for number in range(people)]
    ended = datetime(2026, 1, 1, tzinfo=UTC)
    for first in range(0, games, 1000):
        with session_scope() as session:
            for number in range(first, min(games, first + 1000)):
                at = ended + timedelta(minutes=number)
                record_game(session=session, **finished_game_rows(
                    user_id=ids[number % people], game_id='chinchon', started_at=at - timedelta(minutes=12),
                    ended_at=at, **kinds[number % KINDS]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--games', type=int, default=10_000)
    parser.add_argument('--accounts', type=int, default=200)
    parser.add_argument('--database', metavar='URL', help='an empty database (default: a new SQLite file)')
    parser.add_argument('--restore-into', metavar='URL', help='another empty database (default: a new SQLite file)')
    arguments = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix='hod-backup-bench-'))
    source = arguments.database or f'sqlite:///{folder / "site.db"}'
    target = arguments.restore_into or f'sqlite:///{folder / "restored.db"}'
    accounts.PASSWORDS = accounts.password_context(rounds=1, memory_cost=1024)   # the games are measured, not the sign-ups
    init_db(source)
    started = time.perf_counter()
    fill(arguments.games, arguments.accounts)
    print(f'{arguments.games:,} finished games of {arguments.accounts} accounts written in '
          f'{time.perf_counter() - started:.1f} s')
    file = folder / 'site.backup'
    started = time.perf_counter()
    backup.create(file, source)
    made = time.perf_counter() - started
    print(f'backup:  {made:6.2f} s, {file.stat().st_size / 2**20:.1f} MiB ({source.split(":")[0]})')
    started = time.perf_counter()
    backup.restore(file, target)
    print(f'restore: {time.perf_counter() - started:6.2f} s into an empty database')
    print(f'(files in {folder})')
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
