"""Table responsiveness and memory, measured against the real server in Chromium.

    python -m app.bench.table [--game chinchon|ronda-robada|continental] [--rounds 30] [--tables 12]
                              [--speed instant|fast|normal] [--shown] [--busy [CPU]]

1. Click → screen update, timed inside the page (performance.now() at the click, a
   MutationObserver for the change), against a bare NiceGUI button + label served by the same
   server in the same run (the baseline), the bare button and the table taking turns so that
   both meet the same machine load. Chinchón: drawing from the stock, discarding a card.
   Ronda Robada: picking a hand card (its pairs light up), dropping it in the centre.
   Continental: drawing from the stock once the offer round is over, discarding a card.
2. Server memory per open table: RSS of the server before and after opening N tables in N browser
   contexts, divided by N.
Prints median and p95 in ms, and MiB per table. Needs Chromium (see README).
``--busy`` keeps one core busy for the whole run (a process spinning at normal priority, pinned to
core CPU when one is given): the table's longer path pays for a loaded machine more than the bare
button's, and issue 42's bound (1.5x the bare button) is asked with one core busy.

The times of 1. end when the screen shows the server's answer (the phase has moved on, the card
has left the hand). The page shows your own draw, discard or drop before that, as the click lands
(components/guess.js): ``--shown`` also prints, for the same clicks, the time until the move first
shows, the guess or the answer, whichever comes first.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync']

# resolves with the ms between the next click on `target` and the first DOM change matching `changed`;
# window.__shown: the ms until the first change matching `changed` or the guess of the move (SHOWN)
MEASURE = """([target, changed]) => { window.__latency = new Promise(resolve => {
  const el = document.querySelector(target);
  let start = null;
  window.__shown = null;
  const observer = new MutationObserver(() => {
    if (start === null) return;
    if (window.__shown === null && document.querySelector('.hod-guess-card')) window.__shown = performance.now() - start;
    if (eval(changed)) {
      observer.disconnect();
      const now = performance.now() - start;
      if (window.__shown === null) window.__shown = now;
      resolve(now);
    }
  });
  observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  el.addEventListener('click', () => { start = performance.now(); }, {capture: true, once: true});
}); }"""
SHOWN: dict[str, list[float]] = {}   # --shown: per measured action, click -> move first on the screen


# the play speed of the tables measured: at 'normal' and 'fast' the cards travel (motion on), at
# 'instant' they do not; the setup page's Spanish button for it
SPEED_LABEL = {'instant': 'Al instante', 'fast': 'Rápida', 'normal': 'Normal'}
SPEED = ['instant']
SHOW_FIRST = [False]   # --shown


def start_server(port: int, data: Path) -> subprocess.Popen:
    env = {key: value for key, value in os.environ.items() if not key.startswith('NICEGUI_')}
    env.update(HOST='127.0.0.1', PORT=str(port), DATA_DIR=str(data), HOD_BENCH='1',
               DATABASE_URL=f'sqlite:///{data / "bench.db"}')
    log = open(data / 'server.log', 'w')   # kept for a look when a run goes wrong
    process = subprocess.Popen([sys.executable, 'main.py'], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            urllib.request.urlopen(f'http://127.0.0.1:{port}/', timeout=1)
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit('server did not start')


def keep_busy(cpu: int | None) -> subprocess.Popen:
    """A process spinning at normal priority until it is stopped, on core ``cpu`` if given."""
    busy = subprocess.Popen([sys.executable, '-c', 'while True: pass'])
    if cpu is not None:
        os.sched_setaffinity(busy.pid, {cpu})
    where = 'any core' if cpu is None else f'core {cpu}'
    print(f'one core kept busy for the whole run: a spinning process (pid {busy.pid}, nice 0) on {where}', flush=True)
    return busy


def rss_mib(pid: int) -> float:
    for line in Path(f'/proc/{pid}/status').read_text().splitlines():
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024
    return float('nan')


def browser_with_bare_button(playwright, base: str):
    """Chromium with the bare NiceGUI button's page open: (browser, that page, its times, a call
    that clicks it once and adds its time)."""
    browser = playwright.chromium.launch(executable_path=os.environ.get('HOD_CHROMIUM', '/usr/bin/chromium'),
                                         args=ARGS)
    bare_page = browser.new_page(locale='es-ES')
    bare_page.goto(f'{base}/bench/bare')
    bare: list[float] = []
    return browser, bare_page, bare, bare_clicker(bare_page, bare)


def bare_clicker(bare_page, bare: list[float]):
    """A call that clicks the bare NiceGUI button once and adds its click->screen time to ``bare``."""
    def bare_click() -> None:
        label = bare_page.get_by_test_id('bare-label').text_content()
        bare.append(timed(bare_page, '[data-testid=bare-button]',
                          "document.querySelector('[data-testid=bare-label]').textContent !== '" + label + "'",
                          lambda: bare_page.get_by_test_id('bare-button').click()))
    return bare_click


def timed(page, target: str, changed: str, click, shown: str | None = None) -> float:
    """ms from the click to the answer on the screen; ``shown``: the action's name, under which
    the time until the move first shows is kept (SHOWN)."""
    page.evaluate(MEASURE, [target, changed])
    click()
    latency = page.evaluate('() => window.__latency')
    if shown is not None:
        SHOWN.setdefault(shown, []).append(page.evaluate('() => window.__shown'))
    return latency


def new_ronda_table(page, base: str) -> None:
    """A new heads-up Ronda Robada table at instant speed, at our first turn."""
    page.goto(f'{base}/play/ronda-robada')
    page.get_by_role('button', name='2', exact=True).click()
    page.get_by_role('button', name=SPEED_LABEL[SPEED[0]]).last.click()   # the speed toggle follows the level's
    page.get_by_test_id('start').click()
    page.wait_for_function("document.querySelector('[data-testid=table]')?.dataset.phase === 'start'", timeout=20000)


RONDA_PHASE_MOVED = "document.querySelector('[data-testid=table]').dataset.phase !== 'start'"


def ronda_round(page, base: str) -> tuple[float, float] | None:
    """(pick a hand card, drop it) in ms, or None when the game is over (a new one is dealt)."""
    phase = page.get_by_test_id('table').get_attribute('data-phase')
    if phase == 'over':
        new_ronda_table(page, base)
        return None
    if phase == 'run':
        page.get_by_test_id('confirm-run').click()
    if phase != 'start':
        page.wait_for_timeout(20)
        return None
    pick = timed(page, '[data-testid=hand-card]', "document.querySelector('[data-testid=hand-card].hod-selected')",
                 lambda: page.get_by_test_id('hand-card').first.click())
    drop = timed(page, '[data-testid=drop]', RONDA_PHASE_MOVED, lambda: page.get_by_test_id('drop').click(),
                 shown='drop it in the centre')
    page.wait_for_timeout(50)
    return pick, drop


def new_continental_table(page, base: str) -> None:
    page.goto(f'{base}/play/continental')
    page.get_by_role('button', name='2', exact=True).click()
    page.get_by_role('button', name=SPEED_LABEL[SPEED[0]]).last.click()   # the speed toggle follows the level's
    page.get_by_test_id('start').click()
    page.wait_for_selector('[data-testid=table]')


def continental_round(page, base: str) -> tuple[float, float] | None:
    """(draw from the stock, discard a card) in ms once the offer round has passed to the stock;
    None while something else is going on (offers are passed, counts read, a new game dealt)."""
    phase = page.get_by_test_id('table').get_attribute('data-phase')
    if phase == 'offer':
        page.get_by_test_id('offer-pass').click()
    elif phase == 'count':
        page.get_by_test_id('next-hand').click()
    elif phase == 'over':
        new_continental_table(page, base)
    elif phase == 'play':   # after taking an offered card on an earlier round: discard it away
        page.get_by_test_id('hand-card').last.click()
        page.get_by_test_id('discard-button').click()
    if phase != 'draw':
        page.wait_for_timeout(30)
        return None
    draw = timed(page, '[data-testid=stock]', "document.querySelector('[data-testid=table]').dataset.phase !== 'draw'",
                 lambda: page.get_by_test_id('stock').click(), shown='draw from the stock')
    if page.get_by_test_id('table').get_attribute('data-phase') != 'play':
        return None
    size = page.get_by_test_id('hand-card').count()
    page.get_by_test_id('hand-card').last.click()
    discard = timed(page, '[data-testid=discard-button]',
                    f"document.querySelectorAll('[data-testid=hand-card]').length !== {size}",
                    lambda: page.get_by_test_id('discard-button').click(), shown='discard a card')
    page.wait_for_timeout(50)
    return draw, discard


def new_table(page, base: str) -> None:
    """A new heads-up table at instant speed, played on to the first time it is our turn to draw
    (a computer can close at once: then the count is read first)."""
    page.goto(f'{base}/play/chinchon?new=true')
    page.get_by_role('button', name='2', exact=True).click()
    page.get_by_role('button', name=SPEED_LABEL[SPEED[0]]).last.click()   # the speed toggle follows the level's
    page.get_by_test_id('start').click()
    page.wait_for_selector('[data-testid=table]')
    deadline = time.monotonic() + 20
    while (phase := page.get_by_test_id('table').get_attribute('data-phase')) != 'draw':
        if time.monotonic() > deadline:   # say where the table stood: a hung table is a finding
            raise SystemExit(f'a new table did not reach the draw phase in 20 s: phase {phase}')
        if phase == 'over':                # a computer's chinchón at once ends the game
            return new_table(page, base)
        answer = page.locator('[data-testid=next-hand], [data-testid=buyback-no]')
        if phase == 'count' and answer.count():
            answer.first.click()
        page.wait_for_timeout(20)


def summary(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f'{name:<28} median {statistics.median(values):6.1f} ms   p95 {p95:6.1f} ms   (n={len(values)})'


def report(bare: list[float], table: dict[str, list[float]]) -> None:
    """Each table action against the bare button, as medians, p95s and median ratios (with
    --shown, the times until each move first shows too)."""
    if SHOW_FIRST[0]:
        table = {**table, **{f'{name} (shown)': SHOWN[name] for name in table if name in SHOWN}}
    # other work on the machine slows the table's longer path more than the bare button's
    print(f'load average (1 min) {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores')
    print(summary('bare NiceGUI button', bare))
    for name, values in table.items():
        print(summary(name, values))
    for name, values in table.items():
        print(f'ratio {name} / bare (median)'.ljust(52) + f'{statistics.median(values) / statistics.median(bare):.2f}x')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--game', choices=('chinchon', 'ronda-robada', 'continental'), default='chinchon')
    parser.add_argument('--rounds', type=int, default=30)
    parser.add_argument('--tables', type=int, default=12)
    parser.add_argument('--port', type=int, default=8770)
    parser.add_argument('--speed', choices=tuple(SPEED_LABEL), default='instant',
                        help="the tables' play speed: cards travel at fast and normal speed")
    parser.add_argument('--shown', action='store_true',
                        help='also report click -> the move first on the screen (the guess or the answer)')
    parser.add_argument('--busy', nargs='?', type=int, const=-1, default=None, metavar='CPU',
                        help='keep one core busy for the whole run (pinned to core CPU when given)')
    args = parser.parse_args()
    SPEED[0], SHOW_FIRST[0] = args.speed, args.shown
    print(f'load average (1 min) {os.getloadavg()[0]:.1f} at the start', flush=True)
    busy = None if args.busy is None else keep_busy(None if args.busy < 0 else args.busy)
    try:
        measure(args)
    finally:
        if busy is not None:
            busy.terminate()
            busy.wait(timeout=10)


def measure(args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    data = Path(tempfile.mkdtemp(prefix='hod-bench-'))
    server = start_server(args.port, data)
    base = f'http://127.0.0.1:{args.port}'
    try:
        with sync_playwright() as playwright:
            # the bare button and the table take turns, so both see the machine in the same state
            browser, bare_page, bare, bare_click = browser_with_bare_button(playwright, base)
            page = browser.new_page(locale='es-ES')
            draws, discards = [], []

            other = {'ronda-robada': (new_ronda_table, ronda_round, ('pick a hand card', 'drop it in the centre')),
                     'continental': (new_continental_table, continental_round, ('draw from the stock', 'discard a card'))}
            if args.game in other:
                deal, play, names = other[args.game]
                firsts, seconds = [], []
                deal(page, base)
                while len(seconds) < args.rounds:
                    if len(bare) < len(firsts) + len(seconds):
                        bare_click()
                    elif (measured := play(page, base)) is not None:
                        firsts.append(measured[0])
                        seconds.append(measured[1])
                report(bare, {names[0]: firsts, names[1]: seconds})
                return
            new_table(page, base)
            while len(draws) < args.rounds or len(discards) < args.rounds:
                if len(bare) < len(draws) + len(discards):
                    bare_click()
                    continue
                phase = page.get_by_test_id('table').get_attribute('data-phase')
                if phase == 'draw':
                    draws.append(timed(page, '[data-testid=stock]',
                                       "document.querySelector('[data-testid=table]').dataset.phase !== 'draw'",
                                       lambda: page.get_by_test_id('stock').click(), shown='draw from the stock'))
                elif phase == 'discard':
                    page.get_by_test_id('hand-card').last.click()
                    discards.append(timed(page, '[data-testid=discard-button]',
                                          "document.querySelectorAll('[data-testid=hand-card]').length === 7"
                                          " || document.querySelector('[data-testid=table]').dataset.phase !== 'discard'",
                                          lambda: page.get_by_test_id('discard-button').click(),
                                          shown='discard a card'))
                    page.wait_for_timeout(50)
                elif phase in ('count', 'over'):
                    new_table(page, base)
                else:
                    page.wait_for_timeout(20)
            bare_page.close()
            report(bare, {'draw from the stock': draws, 'discard a card': discards})
            page.close()

            if not args.tables:   # --tables 0: the latencies alone
                browser.close()
                return
            time.sleep(1)
            before = rss_mib(server.pid)
            pages = []
            for _ in range(args.tables):
                context = browser.new_context(locale='es-ES')
                table_page = context.new_page()
                new_table(table_page, base)
                pages.append(table_page)
            time.sleep(1)
            after = rss_mib(server.pid)
            print(f'server RSS {before:.1f} MiB -> {after:.1f} MiB with {args.tables} open tables: '
                  f'{(after - before) / args.tables:.2f} MiB per table (browser connection included)')
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == '__main__':
    main()
