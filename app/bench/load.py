"""Does the server stay responsive while computers think? A static file probed under load.

    python -m app.bench.load [--tables 10] [--seats 6] [--level hard] [--game chinchon]
                             [--idle 10] [--loaded 30] [--rate 20]

Starts the real server (``main.py``, a temporary database) and probes one of NiceGUI's static
files with plain HTTP requests, ``--rate`` a second, first idle, then while ``--tables`` tables
play at instant speed: each has a person at seat 0 and computers at ``--level`` in the other
seats, and is watched like a connected screen (a subscriber receives seat 0's view after every
step). The person plays as soon as it is their turn, a legal move at random, goes on after each
count and deals again after each game, so the computers never wait for long. Prints the probe's
median and p95 and the CPU used (100 % is one core) by the server's process and by its worker
processes, idle and loaded, and the computer moves made per second.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TICKS = os.sysconf('SC_CLK_TCK')


# the server side ---------------------------------------------------------------------------------
def serve(args: argparse.Namespace) -> None:
    """Run main.py in this process; SIGUSR1 opens the tables, and the moves made so far are
    written to ``args.stats`` every second."""
    import asyncio
    import runpy

    from nicegui import app

    async def start_tables() -> None:
        from app.engine.protocol import IllegalAction
        from app.games import GAMES_BY_ID
        from app.tables.registry import create_table, watch
        from app.tables.seats import Seat, TableOptions

        game = GAMES_BY_ID[args.game]
        rng = random.Random(args.seed)
        tables = []

        def person(table) -> None:
            """Seat 0 answers at once, like a quick player: a random legal move, on after a count."""
            try:
                if table.is_over():
                    table.next_game(0, table.version)
                elif table.pause is not None and not table.must_answer_during_pause(0):
                    table.resume_after_count(0, table.version)
                elif table.view(0).legal_actions:
                    table.act(0, rng.choice(table.view(0).legal_actions), table.version)
            except IllegalAction:
                pass

        loop = asyncio.get_running_loop()
        for _ in range(args.tables):
            options = TableOptions(seats=args.seats, level=args.level, speed='instant', hints=True)
            table = create_table(game, options, [Seat('person', name='bench')])
            watch(table, 0, lambda snapshot, table=table: loop.call_later(0.05, person, table))
            person(table)
            tables.append(table)
        while True:
            moves = sum(table.version for table in tables)
            Path(args.stats).write_text(json.dumps({'time': time.monotonic(), 'versions': moves}))
            await asyncio.sleep(1)

    def on_startup() -> None:
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, lambda: loop.create_task(start_tables()))

    app.on_startup(on_startup)
    runpy.run_path(str(ROOT / 'main.py'), run_name='__main__')


# the measuring side ------------------------------------------------------------------------------
def cpu_ticks(pid: int) -> tuple[int, int]:
    """(this process's CPU ticks, its children's: the process pool's workers)."""
    def ticks(stat: str) -> int:
        fields = stat.rsplit(')', 1)[1].split()
        return int(fields[11]) + int(fields[12])   # utime, stime
    own = ticks(Path(f'/proc/{pid}/stat').read_text())
    children = 0
    for entry in Path('/proc').iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / 'stat').read_text()
        except OSError:
            continue
        if int(stat.rsplit(')', 1)[1].split()[1]) == pid:
            children += ticks(stat)
    return own, children


def probe(url: str, seconds: float, rate: float, pid: int) -> dict[str, float]:
    """Request `url` `rate` times a second for `seconds`; latencies in ms and CPU in % of a core."""
    times: list[float] = []
    start_cpu, start = cpu_ticks(pid), time.monotonic()
    next_at = start
    while time.monotonic() - start < seconds:
        sent = time.monotonic()
        with urllib.request.urlopen(url, timeout=30) as answer:
            answer.read()
        times.append((time.monotonic() - sent) * 1000)
        next_at += 1 / rate
        time.sleep(max(0.0, next_at - time.monotonic()))
    elapsed = time.monotonic() - start
    end_cpu = cpu_ticks(pid)
    times.sort()
    return {'median': statistics.median(times), 'p95': times[int(0.95 * (len(times) - 1))], 'max': times[-1],
            'server_cpu': 100 * (end_cpu[0] - start_cpu[0]) / TICKS / elapsed,
            'workers_cpu': 100 * (end_cpu[1] - start_cpu[1]) / TICKS / elapsed, 'requests': len(times)}


def read_stats(path: Path) -> dict[str, float]:
    for _ in range(50):
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError):
            time.sleep(0.1)
    raise SystemExit('the server wrote no statistics: see its log')


def measure(args: argparse.Namespace) -> None:
    import nicegui

    data = Path(tempfile.mkdtemp(prefix='hod-load-'))
    stats = data / 'stats.json'
    env = {key: value for key, value in os.environ.items() if not key.startswith('NICEGUI_')}
    env.pop('PYTEST_CURRENT_TEST', None)
    env.update(HOST='127.0.0.1', PORT=str(args.port), DATA_DIR=str(data), DATABASE_URL=f'sqlite:///{data / "load.db"}')
    command = [sys.executable, '-m', 'app.bench.load', '--serve', '--stats', str(stats), '--tables', str(args.tables),
               '--seats', str(args.seats), '--level', args.level, '--game', args.game, '--seed', str(args.seed)]
    with open(data / 'server.log', 'w') as log:   # kept for a look when a run goes wrong
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f'http://127.0.0.1:{args.port}'
    url = f'{base}/_nicegui/{nicegui.__version__}/static/nicegui.css'
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url, timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit(f'server did not start: see {data / "server.log"}')
        time.sleep(2)
        idle = probe(url, args.idle, args.rate, server.pid)
        server.send_signal(signal.SIGUSR1)
        time.sleep(3)   # the tables are dealt and the computers under way
        before = read_stats(stats)
        loaded = probe(url, args.loaded, args.rate, server.pid)
        after = read_stats(stats)
        moves = (after['versions'] - before['versions']) / (after['time'] - before['time'])
    finally:
        stop(server)
    print(f'{args.tables} {args.game} tables, {args.seats} seats, {args.level} computers, instant speed; '
          f'{os.cpu_count()} cores; probe {url.removeprefix(base)} {args.rate:g}/s')
    print(f'{"":8} {"median ms":>10} {"p95 ms":>8} {"max ms":>8} {"server CPU":>11} {"workers CPU":>12}')
    for name, row in (('idle', idle), ('loaded', loaded)):
        print(f'{name:8} {row["median"]:10.1f} {row["p95"]:8.1f} {row["max"]:8.1f} {row["server_cpu"]:10.0f}% '
              f'{row["workers_cpu"]:11.0f}%')
    print(f'steps at the tables while loaded: {moves:.1f} per second (all tables)')


def stop(server: subprocess.Popen) -> None:
    """Stop a benchmark's server: asked first, killed if it does not end within 10 s."""
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--tables', type=int, default=10)
    parser.add_argument('--seats', type=int, default=6)
    parser.add_argument('--level', default='hard')
    parser.add_argument('--game', default='chinchon')
    parser.add_argument('--idle', type=float, default=10.0, help='seconds probed before the tables open')
    parser.add_argument('--loaded', type=float, default=30.0, help='seconds probed while they play')
    parser.add_argument('--rate', type=float, default=20.0, help='probe requests per second')
    parser.add_argument('--port', type=int, default=8391)
    parser.add_argument('--seed', type=int, default=1, help="the person's random moves")
    parser.add_argument('--serve', action='store_true', help=argparse.SUPPRESS)
    parser.add_argument('--stats', help=argparse.SUPPRESS)
    args = parser.parse_args()
    serve(args) if args.serve else measure(args)


if __name__ == '__main__':
    main()
