"""The audit's attacks on a real local server, replayed with figures (issue "Open to the internet").

    python -m app.bench.abuse [--clicks 2000] [--cookieless 1000] [--half-open 2000]

Starts ``main.py`` on a free port with a temporary SQLite database and, one after the other:

- **deal flood**: a Chromium page at /play/chinchon clicks "Repartir" ``--clicks`` times in one
  burst (each click an event on its socket, as a script in the page would send them); prints the
  tables created and the server's memory before and after;
- **cookieless clients**: ``--cookieless`` requests for /play/chinchon without cookies (each is a
  new browser); prints the memory and the per-browser storage files before and after, and how long
  a static file then takes;
- **half-open connections**: ``--half-open`` connections that never finish their headers; prints
  how many the server still holds after its header timeout and how long a normal request takes.

Only addresses on this machine are used, and every loop is bounded.
"""
from __future__ import annotations

import argparse
import os
import select
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = '/_nicegui/{version}/static/nicegui.css'


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def rss_mib(pid: int) -> float:
    for line in Path(f'/proc/{pid}/status').read_text().splitlines():
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024
    return float('nan')


def get(url: str) -> float:
    """Seconds to fetch the whole answer."""
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as response:
        response.read()
    return time.perf_counter() - start


def static_ms(base: str) -> float:
    import nicegui

    return 1000 * statistics.median(get(base + STATIC.format(version=nicegui.__version__)) for _ in range(20))


def tables_in(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        return connection.execute('SELECT count(*) FROM gametable').fetchone()[0]


def deal_flood(base: str, pid: int, database: Path, clicks: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.browser_lookup import CHROMIUM_ARGS, require_chromium

    before, memory = tables_in(database), rss_mib(pid)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=require_chromium(), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.add_init_script('window.open = () => null')   # the page stays where it is: every click deals again
        page.goto(base + '/play/chinchon')
        page.wait_for_selector('[data-testid=start]')
        start = time.perf_counter()
        page.evaluate(f"""() => new Promise(done => {{
            const button = document.querySelector('[data-testid=start]');
            let left = {clicks};
            const timer = setInterval(() => {{ button.click(); if (--left === 0) {{ clearInterval(timer); done(); }} }}, 1);
        }})""")
        page.wait_for_timeout(3000)   # what the server makes of the last clicks
        seconds = time.perf_counter() - start
        browser.close()
    print(f'deal flood: {clicks} clicks in {seconds:.1f} s -> {tables_in(database) - before} tables; '
          f'memory {memory:.0f} -> {rss_mib(pid):.0f} MiB')


def cookieless(base: str, pid: int, storage: Path, requests: int) -> None:
    files = lambda: len(list(storage.glob('storage-user-*.json'))) if storage.exists() else 0  # noqa: E731
    before, memory, start = files(), rss_mib(pid), time.perf_counter()
    for _ in range(requests):
        get(base + '/play/chinchon')
    seconds = time.perf_counter() - start
    print(f'cookieless: {requests} requests in {seconds:.1f} s -> storage files {before} -> {files()}; '
          f'memory {memory:.0f} -> {rss_mib(pid):.0f} MiB; a static file then takes {static_ms(base):.0f} ms')
    for round_number in (2, 3):   # NiceGUI lets a page whose socket never came go after a minute
        time.sleep(75)
        for _ in range(requests):
            get(base + '/play/chinchon')
        print(f'cookieless: 75 s later, {requests} more (round {round_number}) -> storage files {files()}, '
              f'memory {rss_mib(pid):.0f} MiB, a static file {static_ms(base):.0f} ms')


def half_open(base: str, port: int, count: int, timeout: float) -> None:
    held = []
    for _ in range(count):
        try:
            connection = socket.create_connection(('127.0.0.1', port), timeout=5)
            connection.sendall(b'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
            held.append(connection)
        except OSError:
            break
    opened = len(held)
    deadline = time.monotonic() + timeout + 5
    poller, by_fd = select.poll(), {connection.fileno(): connection for connection in held}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    while by_fd and time.monotonic() < deadline:   # a connection the server closed reads as ready
        for fd, _ in poller.poll(max(0, int(1000 * (deadline - time.monotonic())))):
            poller.unregister(fd)
            by_fd.pop(fd).close()
    held = list(by_fd.values())
    latency = 1000 * get(base + '/')
    print(f'half-open: {opened} connections with unfinished headers -> {len(held)} still open '
          f'{timeout + 5:.0f} s later; the home page then takes {latency:.0f} ms')
    for connection in held:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--clicks', type=int, default=2000)
    parser.add_argument('--cookieless', type=int, default=1000)
    parser.add_argument('--half-open', type=int, default=2000)
    args = parser.parse_args()
    data, port = Path(tempfile.mkdtemp(prefix='hod-abuse-')), free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith('NICEGUI_')}
    env.update(HOST='127.0.0.1', PORT=str(port), DATA_DIR=str(data), DATABASE_URL=f'sqlite:///{data / "abuse.db"}')
    from app.serving import header_timeout

    with open(data / 'server.log', 'w') as log:
        server = subprocess.Popen([sys.executable, 'main.py'], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f'http://127.0.0.1:{port}'
    try:
        for _ in range(300):
            try:
                get(base + '/')
                break
            except OSError:
                time.sleep(0.2)
        deal_flood(base, server.pid, data / 'abuse.db', args.clicks)
        cookieless(base, server.pid, data / 'nicegui', args.cookieless)
        half_open(base, port, args.half_open, header_timeout())
        print(f'server log: {(data / "server.log").stat().st_size} bytes')
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == '__main__':
    main()
