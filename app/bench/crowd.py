"""A crowd of simulated people at Chinchón tables, over socket.io as a browser talks, not Chromium.

    DATABASE_URL=postgresql+psycopg://... python -m app.bench.crowd --processes 1 2 --people 10 20 40

For each number of processes, starts the deployment (`python -m app.cluster`, nginx in front) on
that PostgreSQL, then for each crowd size: every person opens the setup page through nginx, picks
two seats (a computer at normal level in the other one, normal speed) and deals, follows the
browser's way to the table's page, and plays there at a person's pace (a few seconds to think,
seeded): draw from the stock, discard the card drawn, go on after a count, deal again after a
game. A person reads their view from the frames their own socket receives, as the page would.
Prints, per row, the time from a click to the frame that carries that person's new view (p50,
p95, p99), the clicks, the errors, the tables opened per second while the crowd sat down, and the
servers' CPU (100 % is one core; their computer workers apart), memory (servers and workers) and
the crowd's own CPU (it shares the machine: read the figures with it). Under each row: the socket
messages and bytes (JSON before deflate) the people heard per click and per step of their table
(their own moves and the computer's), how many of them were live-channel patches, and the servers'
CPU per click.
Run by hand: figures are never asserted in the tests.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import socketio

from app.bench.load import cpu_ticks
from app.cluster.deploy import free_port

ROOT = Path(__file__).resolve().parents[2]
TICKS = os.sysconf('SC_CLK_TCK')
ELEMENTS = re.compile(r'parseElements\(String\.raw`(.*?)`\)', re.S)
CLIENT_ID = re.compile(r'["\']client_id["\']: ?["\']([0-9a-f-]+)')
PREFIX = re.compile(r'prefix: "([^"]*)"')
# in an element's props, or in a live patch inside the code of a run_javascript frame (escaped)
PHASE = re.compile(r'data-phase\\*"\s*[:,]\s*\\*"(\w+)')
VERSION = re.compile(r'data-version\\*"\s*[:,]\s*\\*"(\d+)')
UNESCAPE = (('&#36;', '$'), ('&#96;', '`'), ('&gt;', '>'), ('&lt;', '<'), ('&amp;', '&'))



def keep_elements(elements: dict[str, Any], update: dict[str, Any]) -> None:
    """A page's elements as its socket hears them: an 'update' brings each changed element whole,
    and an element deleted as None."""
    for key, value in update.items():
        if isinstance(value, dict):
            elements[key] = value
        elif value is None:
            elements.pop(key, None)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)   # ms, click -> the frame with the new view
    errors: Counter = field(default_factory=Counter)        # what went wrong, by kind
    seated: list[float] = field(default_factory=list)      # monotonic time each person's table opened
    drops: int = 0                                         # sockets dropped while playing (they reconnect)
    dropped: Counter = field(default_factory=Counter)      # ... by the reason the client gives
    messages: Counter = field(default_factory=Counter)     # socket messages the people heard, by event
    sent: int = 0                                          # ... their bytes (JSON, before deflate)
    patches: int = 0                                       # live-channel patches among them
    steps: int = 0                                         # new table versions the people saw

    def forget(self) -> None:
        """Start the measured part: what was heard while the crowd sat down is not counted."""
        self.latencies.clear()
        self.drops = 0
        self.dropped.clear()
        self.messages.clear()
        self.sent = self.patches = self.steps = 0


class Person:
    """One browser: a cookie jar, a page's elements, its socket, and what its table shows."""

    def __init__(self, base: str, rng: random.Random, tally: Tally) -> None:
        self.base, self.rng, self.tally = base, rng, tally
        self.elements: dict[str, dict] = {}
        self.phase, self.version = '', -1
        self.changed = asyncio.Event()
        self.opened: asyncio.Future | None = None
        self.playing = False

    async def open(self, http: aiohttp.ClientSession, path: str) -> socketio.AsyncClient:
        async with http.get(self.base + path) as answer:   # nginx and the processes' redirects followed
            html = await answer.text()
            self.url = str(answer.url)
        raw = ELEMENTS.search(html)[1]
        for escaped, plain in UNESCAPE:
            raw = raw.replace(escaped, plain)
        self.elements = json.loads(raw)
        self._read(raw)
        self.prefix = PREFIX.search(html)[1]
        query = {'client_id': CLIENT_ID.search(html)[1], 'next_message_id': 0, 'implicit_handshake': 'true',
                 'tab_id': str(uuid.uuid4()), 'document_id': str(uuid.uuid4())}
        # a dropped socket reconnects with the same client id, as the page's does (counted)
        # asking for permessage-deflate as browsers do (aiohttp's own default is not to); the server
        # grants it unless HOD_WS_DEFLATE=0
        sio = socketio.AsyncClient(http_session=http, request_timeout=60, websocket_extra_options={'compress': 15})
        sio.on('*', self._heard)
        sio.on('disconnect', self._dropped)
        await sio.connect(f'{self.base}?{"&".join(f"{k}={v}" for k, v in query.items())}', transports=['websocket'],
                          socketio_path=f'{self.prefix}/_nicegui_ws/socket.io',
                          wait_timeout=10)   # a browser waits that long too; socket.io's 1 s fails a busy server's handshake
        self.client_id, self.sio = query['client_id'], sio
        return sio

    async def _heard(self, event: str, data: dict) -> None:
        text = json.dumps(data)
        if self.playing:
            self.tally.messages[event] += 1
            self.tally.sent += len(event) + len(text) + 6   # socket.io's frame: 42["event",...]
            self.tally.patches += event == 'run_javascript' and 'apply' in data.get('code', '')[:60]
        if event == 'update':
            keep_elements(self.elements, data)
        elif event == 'open' and self.opened is not None and not self.opened.done():
            self.opened.set_result(data['path'])
        elif event == 'open' and self.playing:   # the page is sent elsewhere (its table moved)
            self.tally.errors['sent to another page'] += 1
        self._read(text)
        if self.sio.connected:   # what the page has received: the server's outbox may forget it
            await self.sio.emit('ack', {'client_id': self.client_id, 'next_message_id': data.get('_id', 0) + 1})

    def _dropped(self, *reason: object) -> None:
        if self.playing:
            self.tally.drops += 1
            self.tally.dropped[str(reason[0]) if reason else 'unknown'] += 1

    def _read(self, text: str) -> None:
        phases, versions = PHASE.findall(text), VERSION.findall(text)
        if phases:
            self.phase = phases[-1]
        if versions and int(versions[-1]) > self.version:
            self.tally.steps += self.playing and self.version >= 0
            self.version = int(versions[-1])
        if phases or versions:
            self.changed.set()

    def find(self, testid: str | None = None, handler: str | None = None) -> tuple[str, dict] | None:
        """The newest element with this test id (or event handler): a panel drawn again replaces its buttons."""
        for key, element in sorted(self.elements.items(), key=lambda item: -int(item[0]) if item[0].isdigit() else 0):
            props = element.get('props') or {}
            if testid is not None and props.get('data-testid') == testid and not props.get('disable'):
                return key, element
            if handler is not None and any(handler in (ev.get('js_handler') or '') for ev in element.get('events', [])):
                return key, element
        return None

    async def emit(self, found: tuple[str, dict], kind: str, *args: object) -> None:
        key, element = found
        listener = next(ev['listener_id'] for ev in element['events'] if ev['type'] == kind)
        await self.sio.emit('event', {'id': int(key), 'client_id': self.client_id, 'listener_id': listener,
                                      'args': [json.dumps(arg) for arg in args]})

    async def timed_click(self, testid: str, *args: object) -> None:
        """Click and wait for the frame that carries the table's next version: that is the time."""
        found = self.find(testid)
        if found is None:
            return
        before, sent, phase = self.version, time.perf_counter(), self.phase
        self.changed.clear()
        await self.emit(found, 'click', *args)
        try:
            while self.version <= before:
                await asyncio.wait_for(self.changed.wait(), 10)
                self.changed.clear()
        except asyncio.TimeoutError:   # counted, and the person goes on (a real one would click again)
            self.tally.errors[f'no new view 10 s after {testid} at {phase}'] += 1
            return
        self.tally.latencies.append((time.perf_counter() - sent) * 1000)

    async def sit_down(self, http: aiohttp.ClientSession) -> None:
        sio = await self.open(http, '/play/chinchon')
        seats = next(key for key, element in self.elements.items() if element.get('tag') == 'q-btn-toggle')
        await self.emit((seats, self.elements[seats]), 'update:modelValue', 0)   # the first choice: 2 seats
        self.opened = asyncio.get_running_loop().create_future()
        await self.emit(self.find('start'), 'click')
        path = await asyncio.wait_for(self.opened, 20)
        await sio.disconnect()
        await self.open(http, self.prefix + path)   # as the page does: under its own prefix
        self.tally.seated.append(time.monotonic())

    async def play(self, until: float) -> None:
        self.playing = True
        while time.monotonic() < until:
            if not self.sio.connected:   # dropped: the client is reconnecting
                await asyncio.sleep(0.2)
                continue
            if self.phase in ('draw', 'discard', 'count', 'over'):
                await asyncio.sleep(self.rng.uniform(1.0, 3.0))   # a person looks, then clicks
            try:
                await self.decide()
            except socketio.exceptions.BadNamespaceError:   # dropped meanwhile: clicks again once back
                continue

    async def decide(self) -> None:
        """The decision this person's screen asks for, if any (else wait for the next frame)."""
        if self.phase == 'draw':
            await self.timed_click('stock', self.version)
        elif self.phase == 'discard':
            hand = self.find(handler='emit(i)')
            await self.emit(hand, 'click', 7)                     # the card just drawn, last of eight
            await self.timed_click('discard-button', self.version)
        elif self.phase == 'count':
            await self.timed_click('buyback-no' if self.find('buyback-no') else 'next-hand', self.version)
        elif self.phase == 'over':
            await self.timed_click('play-again', self.version)
        else:   # the computer's turn: wait for the frame that brings ours
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 15)
            except asyncio.TimeoutError:
                pass


async def person(base: str, seed: int, tally: Tally, start_at: float, until: float) -> None:
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    # each person comes from an address of their own, as people do: nginx limits connections per
    # address and the servers count tables per address. Linux answers on all of 127.0.0.0/8, so the
    # socket is bound to 127.x.y.z and nginx sees that peer (and writes it into X-Forwarded-For)
    address = f'127.{seed // 65536 % 256}.{seed // 256 % 256}.{seed % 256}'
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     connector=aiohttp.TCPConnector(local_addr=(address, 0))) as http:
        someone = Person(base, random.Random(seed), tally)
        try:
            await someone.sit_down(http)
            await someone.play(until)
        except (aiohttp.ClientError, socketio.exceptions.SocketIOError, asyncio.TimeoutError, KeyError,
                TypeError, StopIteration) as error:
            tally.errors[f'{"playing" if someone.playing else "sitting down"}: {type(error).__name__}'] += 1
        finally:
            someone.playing = False
            if getattr(someone, 'sio', None) is not None:
                await someone.sio.disconnect()


def rss_kib(entry: Path) -> int:
    try:
        return int(next(line for line in (entry / 'status').read_text().splitlines()
                        if line.startswith('VmRSS')).split()[1])
    except (OSError, StopIteration, ValueError):
        return 0


def bytes_sent(ports: set[int]) -> dict[tuple[str, str], int]:
    """Bytes the servers have sent on each open connection, as the kernel counts them (socket.io
    frames after compression, when compression is on); see sent_since."""
    listing = subprocess.run(['ss', '-tinH', 'state', 'established'], capture_output=True, text=True).stdout
    sent, ours = {}, None
    for line in listing.splitlines():
        if not line.startswith(('\t', ' ')):
            local, peer = line.split()[2:4]
            ours = (local, peer) if int(local.rsplit(':', 1)[1]) in ports else None
        elif ours and (found := re.search(r'bytes_sent:(\d+)', line)):
            sent[ours] = int(found[1])
    return sent


def sent_since(before: dict[tuple[str, str], int], ports: set[int]) -> int:
    """Bytes sent since ``before`` on the connections open now (the pages' sockets live the whole row)."""
    return sum(total - before.get(connection, 0) for connection, total in bytes_sent(ports).items())


def usage(pids: list[int]) -> tuple[int, int, int, int]:
    """(servers' CPU ticks, their workers' CPU ticks, servers' RSS and workers' RSS in KiB)."""
    own = workers = rss = workers_rss = 0
    for pid in pids:
        ticks = cpu_ticks(pid)
        own, workers, rss = own + ticks[0], workers + ticks[1], rss + rss_kib(Path(f'/proc/{pid}'))
        for entry in (p for p in Path('/proc').iterdir() if p.name.isdigit()):
            try:
                if int((entry / 'stat').read_text().rsplit(')', 1)[1].split()[1]) == pid:
                    workers_rss += rss_kib(entry)
            except (OSError, ValueError):
                continue
    return own, workers, rss, workers_rss


async def crowd(base: str, people: int, seconds: float, ramp: float, seed: int, pids: list[int],
                ports: set[int]) -> dict:
    tally = Tally()
    start = time.monotonic()
    until = start + ramp + seconds
    tasks = [asyncio.create_task(person(base, seed * 100_000 + n, tally, start + ramp * n / people, until))
             for n in range(people)]
    await asyncio.sleep(ramp + 2)             # everybody seated: measure the steady part only
    seated_rate = len(tally.seated) / max(1e-6, (max(tally.seated, default=start) - start))
    tally.forget()
    before, at, crowd_cpu, sent = usage(pids), time.monotonic(), time.process_time(), bytes_sent(ports)
    await asyncio.sleep(max(0.0, until - time.monotonic() - 0.5))   # the sockets still open
    sent = sent_since(sent, ports)
    await asyncio.gather(*tasks)
    after, elapsed, crowd_cpu = usage(pids), time.monotonic() - at, time.process_time() - crowd_cpu
    times = sorted(tally.latencies) or [float('nan')]
    pick = lambda share: times[min(len(times) - 1, int(share * (len(times) - 1)))]   # noqa: E731
    return {'people': people, 'p50': pick(0.5), 'p95': pick(0.95), 'p99': pick(0.99), 'clicks': len(tally.latencies),
            'errors': sum(tally.errors.values()), 'drops': tally.drops,
            'why': {**tally.errors, **{f'dropped: {reason}': n for reason, n in tally.dropped.items()}}, 'tables_per_s': seated_rate,
            'cpu': 100 * (after[0] - before[0]) / TICKS / elapsed, 'workers': 100 * (after[1] - before[1]) / TICKS / elapsed,
            'crowd': 100 * crowd_cpu / elapsed, 'kib_per_click': sent / 1024 / max(1, len(tally.latencies)),
            'rss_mib': after[2] / 1024, 'workers_mib': after[3] / 1024,
            'cpu_ms_per_click': 1000 * (after[0] - before[0]) / TICKS / max(1, len(tally.latencies)),
            'messages_per_click': sum(tally.messages.values()) / max(1, len(tally.latencies)),
            'kb_per_click': tally.sent / 1024 / max(1, len(tally.latencies)),
            'patches_per_step': tally.patches / max(1, tally.steps),
            'messages_per_step': sum(tally.messages.values()) / max(1, tally.steps),
            'kb_per_step': tally.sent / 1024 / max(1, tally.steps), 'heard': dict(tally.messages)}


def start_cluster(processes: int, data: Path) -> tuple[subprocess.Popen, str, list[int], set[int]]:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith('NICEGUI_')}
    env.update(HOST='127.0.0.1', PORT=str(port), DATA_DIR=str(data), PYTHONUNBUFFERED='1')
    launcher = subprocess.Popen([sys.executable, '-m', 'app.cluster', '--processes', str(processes), '--first-port', '0'],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True, start_new_session=True)
    pids, ports = [], set()
    while len(pids) < processes:
        line = launcher.stdout.readline()
        if not line:
            raise SystemExit(f'the cluster did not start: see {data / "cluster"}')
        if match := re.match(r'/w/\d+: \S+:(\d+) pid (\d+)', line):
            ports.add(int(match[1]))
            pids.append(int(match[2]))
    return launcher, f'http://127.0.0.1:{port}', pids, ports


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--processes', type=int, nargs='+', default=[1, 2])
    parser.add_argument('--people', type=int, nargs='+', default=[10, 20, 40])
    parser.add_argument('--seconds', type=float, default=30.0, help='measured per row, once everybody sits')
    parser.add_argument('--ramp', type=float, default=10.0, help='seconds over which the crowd sits down')
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    if not os.environ.get('DATABASE_URL', '').startswith('postgresql'):
        raise SystemExit('DATABASE_URL must name a PostgreSQL database (the processes share it)')
    print(f'Chinchón, 2 seats (a normal computer in the other), normal speed; {os.cpu_count()} cores')
    print(f'{"procs":>5} {"people":>6} {"p50 ms":>7} {"p95 ms":>7} {"p99 ms":>7} {"clicks":>6} {"errors":>6} {"drops":>5} '
          f'{"tables/s":>8} {"CPU %":>6} {"workers %":>9} {"RSS MiB":>8} {"MiB/table":>9} {"workers MiB":>11} {"crowd CPU %":>11} '
          f'{"KiB/click":>9}')
    for processes in args.processes:
        launcher, base, pids, ports = start_cluster(processes, Path(tempfile.mkdtemp(prefix='hod-crowd-')))
        try:
            idle, tables = usage(pids)[2] / 1024, 0
            print(f'{processes:>5} {"idle":>6} {"":>71} {idle:8.0f}', flush=True)   # the servers alone
            for people in args.people:
                tables += people   # the tables of the rows before stay in memory a while (KEEP_UNWATCHED)
                row = asyncio.run(crowd(base, people, args.seconds, args.ramp, args.seed, pids, ports))
                print(f'{processes:>5} {row["people"]:>6} {row["p50"]:7.1f} {row["p95"]:7.1f} {row["p99"]:7.1f} '
                      f'{row["clicks"]:>6} {row["errors"]:>6} {row["drops"]:>5} {row["tables_per_s"]:8.1f} {row["cpu"]:6.0f} '
                      f'{row["workers"]:9.0f} {row["rss_mib"]:8.0f} {(row["rss_mib"] - idle) / tables:9.2f} {row["workers_mib"]:11.0f} {row["crowd"]:11.0f} '
                      f'{row["kib_per_click"]:9.1f}'
                      + (f'  {row["why"]}' if row['why'] else ''), flush=True)
                print(f'{"":>12} per click: {row["messages_per_click"]:.2f} messages, {row["kb_per_click"]:.2f} KB, '
                      f'{row["cpu_ms_per_click"]:.1f} ms of server CPU; per step a screen saw: '
                      f'{row["messages_per_step"]:.2f} messages ({row["patches_per_step"]:.2f} live patches), '
                      f'{row["kb_per_step"]:.2f} KB; heard {row["heard"]}', flush=True)
        finally:
            launcher.send_signal(signal.SIGTERM)
            try:
                launcher.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(launcher.pid, signal.SIGKILL)


if __name__ == '__main__':
    main()
