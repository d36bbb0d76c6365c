"""What the lobby costs with many open tables, and how long a person alone waits at quick match.

    python -m app.bench.lobby [--tables 500] [--wait 30] [--runs 3] [--database-url URL]

1. Fills a fresh database (a temporary SQLite; ``--database-url`` names an empty PostgreSQL
   instead) with ``--tables`` public tables of the three games (seeded: 2-4 seats, names,
   ratings, waiting or playing), each with its ``gametable`` row. In this process it times a
   lobby page's read (``app.pages.lobby.read_page``) and its rows' markup, and the 2 s poll
   (``changed_since``) with nothing changed and with one table changed; what L open lobby screens
   cost a process follows from them. Then the real server (main.py) runs on that database and
   Chromium opens /lobby and its last page: time to the first row (median of 5 loads), the bytes
   of the first render (the page's HTML, and its socket in the first second), what the open page
   receives and the server's CPU while nothing changes (both should be about nothing), and, after
   a row is changed in the database, the time until the page shows it and the bytes of that redraw.
2. The seeded tables are removed; a guest presses "Play people" on /play/chinchon and waits alone
   until computers fill the seats (``HOD_QUICK_WAIT``, ``--wait``): click to table, per run. Runs
   go one after another, each until its table has started, so none of them meets another.
Run by hand: figures are never asserted in the tests.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

from playwright.sync_api import Page, sync_playwright
from sqlmodel import delete, func, select, update

from app.bench.load import TICKS, cpu_ticks, stop
from app.cluster.deploy import free_port
from app.games import GAMES, GAMES_BY_ID
from app.i18n import language_scope
from app.pages.lobby import PAGE_SIZE, changed_since, read_page
from components.lobby import lobby_row_html
from models.db import init_db, session_scope
from models.tables import GameTable, PublicTable, utcnow

ROOT = Path(__file__).resolve().parents[2]
PREFIX = 'lobbybench'   # the seeded tables' ids: removed again by this prefix
NAMES = ('Ana', 'Luis', 'Marta', 'Pablo', 'Irene', 'Jorge', 'Sofía', 'Diego', 'Nuria', 'Raúl', 'Alba', 'Hugo')
BOTS = ('Lucía', 'Mateo', 'Carmen', 'Javier', 'Elena')
CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                 '--disable-background-networking', '--disable-component-update', '--disable-sync']
# in every page: when the first lobby row appears (ms since navigation), and when the text the
# script waits for shows (wall clock ms, to compare with the moment the database changed)
WATCH_PAGE = '''new MutationObserver(() => {
  if (window.__firstRow === undefined && document.querySelector('[data-testid=lobby-row]'))
    window.__firstRow = performance.now();
  if (window.__want && !window.__seenAt && document.body && document.body.textContent.includes(window.__want))
    window.__seenAt = Date.now();
}).observe(document, {childList: true, subtree: true, characterData: true});'''


def seed_tables(count: int, rng: random.Random) -> list[str]:
    """`count` public tables with their gametable rows, as the lobby would list them."""
    now, ids = utcnow(), []
    with session_scope() as session:
        if session.exec(select(func.count()).select_from(PublicTable)).one():
            raise SystemExit('the database already has public tables: give an empty one')
        listed = []
        for index in range(count):
            game = GAMES[index % len(GAMES)]
            seats = rng.randint(max(2, game.min_seats), min(4, game.max_seats))
            waiting, rated = rng.random() < 0.6, rng.random() < 0.5
            people = []
            for seat in range(seats):
                if waiting and seat > 0 and rng.random() < 0.6:
                    people.append({'name': '', 'kind': 'free', 'level': None, 'rating': None})
                elif not waiting and rng.random() < 0.25:
                    people.append({'name': BOTS[seat], 'kind': 'computer', 'level': 'hard', 'rating': None})
                else:
                    rating = [rng.randint(1250, 1850), rng.random() < 0.3] if rated else None
                    people.append({'name': rng.choice(NAMES), 'kind': 'person', 'level': None, 'rating': rating})
            if waiting and all(seat['kind'] != 'free' for seat in people):
                people[-1] = {'name': '', 'kind': 'free', 'level': None, 'rating': None}
            made = now - timedelta(seconds=rng.uniform(60, 3600))
            table_id = f'{PREFIX}{index:05d}'
            rules = json.dumps({option.name: option.default for option in game.options})
            session.add(GameTable(id=table_id, game_id=game.id, options_json=rules, state_json='{}',
                                  created_at=made, updated_at=made))
            listed.append(PublicTable(
                table_id=table_id, game_id=game.id, seats=seats, rated=rated, quick=rng.random() < 0.5,
                stage='waiting' if waiting else 'playing', people_json=json.dumps(people, separators=(',', ':')),
                free_seats=sum(seat['kind'] == 'free' for seat in people), options_json=rules,
                spectators=0 if waiting else rng.choice((0, 0, 1, 2, 5)), created_at=made,
                updated_at=made + timedelta(seconds=rng.uniform(0, 59))))
            ids.append(table_id)
        session.flush()   # the gametable rows first: the lobby's rows point at them
        session.add_all(listed)
    return ids


def remove_tables() -> None:
    with session_scope() as session:
        session.exec(delete(PublicTable).where(PublicTable.table_id.startswith(PREFIX)))
        session.exec(delete(GameTable).where(GameTable.id.startswith(PREFIX)))


def change_table(table_id: str, name: str) -> None:
    """What a table's holding process writes when someone sits down: the row's people, and its time."""
    with session_scope() as session:
        row = session.get(PublicTable, table_id)
        people = json.loads(row.people_json)
        people[0]['name'] = name
        session.exec(update(PublicTable).where(PublicTable.table_id == table_id)
                     .values(people_json=json.dumps(people, separators=(',', ':')), updated_at=utcnow()))


def timed(call, repeats: int) -> tuple[float, float]:
    """Median and p95 of `call()` in ms."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def render(game_id: str | None, page: int) -> int:
    """Read a page and draw its rows' markup, as the lobby does; the markup's length."""
    found = read_page(game_id, page)
    with language_scope('es'):
        return sum(len(lobby_row_html(GAMES_BY_ID[row['game_id']], row)) for row in found.rows)


def in_process(count: int, repeats: int) -> dict[str, tuple]:
    last = -(-count // PAGE_SIZE)
    game = GAMES[0].id
    last_of_game = -(-read_page(game, 1).total // PAGE_SIZE)
    figures = {'read page 1': timed(lambda: read_page(None, 1), repeats),
               f'read page {last}': timed(lambda: read_page(None, last), repeats),
               f'read {game} page 1': timed(lambda: read_page(game, 1), repeats),
               f'read {game} page {last_of_game}': timed(lambda: read_page(game, last_of_game), repeats),
               'read + rows markup, page 1': timed(lambda: render(None, 1), repeats)}
    latest = read_page(None, 1).latest
    figures['poll, nothing changed'] = timed(lambda: changed_since(latest), repeats)
    figures['poll, nothing changed'] += (changed_since(latest),)   # what it answers: False is right
    newest = max(read_page(None, page).latest for page in range(1, last + 1))
    change_table(f'{PREFIX}00001', 'Cambio')
    figures['poll, one table changed'] = timed(lambda: changed_since(newest), repeats)
    return figures


def start_server(data: Path, url: str, port: int, wait: float) -> subprocess.Popen:
    env = {key: value for key, value in os.environ.items() if not key.startswith('NICEGUI_')}
    env.pop('PYTEST_CURRENT_TEST', None)
    env.update(HOST='127.0.0.1', PORT=str(port), DATA_DIR=str(data), DATABASE_URL=url, HOD_QUICK_WAIT=str(wait))
    with open(data / 'server.log', 'w') as log:   # kept for a look when a run goes wrong
        server = subprocess.Popen([sys.executable, 'main.py'], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(600):
        try:
            urllib.request.urlopen(f'http://127.0.0.1:{port}/lobby', timeout=2).read()
            return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit(f'the server did not start: see {data / "server.log"}')


def socket_bytes(page: Page) -> list[int]:
    """The size of every frame the page's socket receives, as they come."""
    heard: list[int] = []
    page.on('websocket', lambda socket: socket.on('framereceived', lambda payload: heard.append(len(payload))))
    return heard


def lobby_in_browser(browser, base: str, server: int, page_number: int, loads: int = 5, changes: int = 5) \
        -> dict[str, float]:
    context = browser.new_context(base_url=base, locale='es-ES')
    context.add_init_script(WATCH_PAGE)
    firsts, html = [], 0
    for _ in range(loads):
        page = context.new_page()
        heard = socket_bytes(page)
        html = len(page.goto(f'/lobby?page={page_number}').body())
        page.wait_for_function('window.__firstRow !== undefined')
        firsts.append(page.evaluate('window.__firstRow'))
        page.wait_for_timeout(1000)   # what the socket brings once the page is there
        first_socket = sum(heard)
        page.close()
    page = context.new_page()
    heard = socket_bytes(page)
    page.goto(f'/lobby?page={page_number}')
    row = page.locator('[data-testid=lobby-row]').first
    row.wait_for()
    table_id = row.get_attribute('data-table')
    page.wait_for_timeout(1000)
    del heard[:]
    before, started = sum(cpu_ticks(server)), time.monotonic()
    page.wait_for_timeout(6000)   # three polls with nothing changed: nothing should be sent
    idle = sum(heard) * 10
    idle_cpu = 100 * (sum(cpu_ticks(server)) - before) / TICKS / (time.monotonic() - started)
    shown, sizes = [], []
    for change in range(changes):
        mark = f'Cambio{page_number}x{change}'
        page.evaluate(f'window.__want = "{mark}"; window.__seenAt = 0')
        page.wait_for_timeout(500 + 400 * change)   # at another moment of the 2 s poll each time
        del heard[:]
        changed = time.time()
        change_table(table_id, mark)
        page.wait_for_function('window.__seenAt > 0', timeout=10000)
        shown.append(page.evaluate('window.__seenAt') - changed * 1000)
        page.wait_for_timeout(300)   # the rest of the redraw's frames
        sizes.append(sum(heard))
    context.close()
    return {'first row ms': statistics.median(firsts), 'html KB': html / 1024, 'socket KB': first_socket / 1024,
            'change shown ms': statistics.median(shown), 'change shown max ms': max(shown),
            'update KB': statistics.median(sizes) / 1024, 'idle KB/min': idle / 1024,
            'idle CPU': idle_cpu}


def quick_alone(browser, base: str, wait: float, runs: int) -> list[float]:
    waits = []
    for run in range(runs):
        context = browser.new_context(base_url=base, locale='es-ES')
        page = context.new_page()
        page.goto('/play/chinchon')
        page.get_by_test_id('quick-card').get_by_label('El nombre con el que juegas').fill(f'Sola{run}')
        clicked = time.perf_counter()
        page.get_by_test_id('quick-match').click()
        page.get_by_test_id('table').wait_for(state='visible', timeout=(wait + 60) * 1000)
        waits.append(time.perf_counter() - clicked)
        context.close()
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--tables', type=int, default=500)
    parser.add_argument('--wait', type=float, default=30.0, help="HOD_QUICK_WAIT: seconds a quick match waits")
    parser.add_argument('--runs', type=int, default=3, help='quick matches of a lone person')
    parser.add_argument('--repeats', type=int, default=300, help='timings of each in-process call')
    parser.add_argument('--database-url', help='an empty PostgreSQL (default: a temporary SQLite)')
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix='hod-lobby-'))
    url = args.database_url or f'sqlite:///{data / "lobby.db"}'
    init_db(url)
    seed_tables(args.tables, random.Random(args.seed))
    figures = in_process(args.tables, args.repeats)
    markup, rows = render(None, 1), read_page(None, 1).rows
    last = -(-args.tables // PAGE_SIZE)
    port = free_port()
    server = start_server(data, url, port, args.wait)
    base = f'http://127.0.0.1:{port}'
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_ARGS)
            pages = {number: lobby_in_browser(browser, base, server.pid, number) for number in (1, last)}
            remove_tables()
            waits = quick_alone(browser, base, args.wait, args.runs)
            browser.close()
    finally:
        stop(server)
    report(args, url, figures, markup, len(rows), pages, waits)


def report(args, url, figures, markup, rows, pages, waits) -> None:
    print(f'lobby of {args.tables} public tables, {url.split(":", 1)[0]}; nproc {len(os.sched_getaffinity(0))}')
    print(f'{"in process, " + str(args.repeats) + " times":34} {"median ms":>10} {"p95 ms":>8}')
    for name, (median, p95, *answer) in figures.items():
        print(f'{name:34} {median:10.2f} {p95:8.2f}' + (f'  answers changed={answer[0]}' if answer else ''))
    print(f'rows markup of one page: {rows} rows, {markup / 1024:.1f} KB')
    poll = figures['poll, nothing changed'][0]
    redraw = figures['read + rows markup, page 1'][0]
    for screens in (10, 100):
        print(f'{screens:>3} lobby screens open: {screens / 2:.0f} polls/s = {screens / 2 * poll:.1f} ms/s '
              f'({screens / 20 * poll:.1f}% of a core); one change: {screens} redraws = {screens * redraw:.0f} ms '
              '+ their elements')
    print(f'{"in Chromium":14} {"first row ms":>12} {"html KB":>8} {"socket KB":>10} '
          f'{"change shown ms":>16} {"max ms":>7} {"update KB":>10} {"idle KB/min":>12} {"idle CPU":>9}')
    for number, page in pages.items():
        print(f'{"/lobby?page=" + str(number):14} {page["first row ms"]:12.0f} {page["html KB"]:8.1f} '
              f'{page["socket KB"]:10.1f} {page["change shown ms"]:16.0f} {page["change shown max ms"]:7.0f} '
              f'{page["update KB"]:10.1f} {page["idle KB/min"]:12.1f} {page["idle CPU"]:8.1f}%')
    print(f'lone quick match (HOD_QUICK_WAIT={args.wait:g} s), click to table: '
          + ', '.join(f'{wait:.1f} s' for wait in waits) + f'; median {statistics.median(waits):.1f} s')


if __name__ == '__main__':
    main()
