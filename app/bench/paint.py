"""What the browser spends on a table page: per click and per socket patch, and at first load.

    python -m app.bench.paint [--game chinchon|ronda-robada|continental] [--rounds 40] [--loads 8]

1. Per click: the renderer's main-thread time (Chrome's Performance.getMetrics: TaskDuration,
   and within it ScriptDuration, RecalcStyleDuration, LayoutDuration) from just before a click
   until the screen has settled (the server's patches and the computer's reply drawn), summed
   over the rounds of bench.table's clicks (Chinchón: draw, discard; Ronda Robada: pick, drop;
   Continental: draw, discard), and divided by the clicks and by the socket patches ('update'
   messages) the page received meanwhile. Playwright's own checks before a click run on the same
   thread and are counted too: compare runs, not absolute values.
2. First load of a fresh table page (a new browser context each time, so nothing is cached):
   first contentful paint, the moment the table is in the page, the main-thread time until
   then, and the bytes the page fetched (transfer and decoded sizes, per kind of resource).
Prints medians (and p95 for the per-click figures). Needs Chromium (see README).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from app.bench import table as bench

# a socket message that changes the page: NiceGUI's element updates, and run_method (the table's
# live channel and its other components)
PATCHES = ('42["update"', '42["run_javascript"')
METRICS = ('TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration')


def metrics(cdp) -> dict[str, float]:
    values = {item['name']: item['value'] for item in cdp.send('Performance.getMetrics')['metrics']}
    return {name: values[name] * 1000 for name in METRICS}


def settle(page) -> None:
    """Until two animation frames have passed after the last socket patch, so that the style and
    layout work a patch causes has been done (at instant speed the computer replies at once)."""
    page.wait_for_timeout(150)
    page.evaluate('() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))')


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def per_click(page, game: str, base: str, rounds: int) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send('Performance.enable')
    patches = [0]
    page.on('websocket', lambda ws: ws.on('framereceived', lambda frame: patches.__setitem__(
        0, patches[0] + (isinstance(frame, str) and frame[:40].startswith(PATCHES)))))
    deal, play = {'chinchon': (bench.new_table, chinchon_round),
                  'ronda-robada': (bench.new_ronda_table, bench.ronda_round),
                  'continental': (bench.new_continental_table, bench.continental_round)}[game]
    deal(page, base)
    clicks: list[dict[str, float]] = []
    total_patches = 0
    profile = Profile(cdp)
    while len(clicks) < rounds:
        settle(page)
        before, patches[0] = metrics(cdp), 0
        profile.start()
        if play(page, base) is None:
            profile.stop(keep=False)
            continue
        settle(page)
        profile.stop(keep=True)
        after = metrics(cdp)
        total_patches += patches[0]
        clicks.append({name: (after[name] - before[name]) / 2 for name in METRICS})   # two clicks a round
    count = 2 * len(clicks)
    print(f'{game}: {count} clicks, {total_patches} socket patches received ({total_patches / count:.1f} a click)')
    for name in METRICS:
        values = [click[name] for click in clicks]
        print(f'  {name:<20} per click median {statistics.median(values):6.2f} ms  p95 {p95(values):6.2f} ms'
              f'   per patch {sum(values) * 2 / max(total_patches, 1):6.2f} ms')
    print('  JavaScript self time by script (sampled profile), per click and per patch:')
    for name, ms in sorted(profile.by_script.items(), key=lambda item: -item[1]):
        print(f'    {name:<22} {ms / count:6.2f} ms   {ms / max(total_patches, 1):6.2f} ms')


class Profile:
    """Chrome's sampling profiler over the measured rounds only: self time summed by script."""

    def __init__(self, cdp) -> None:
        self.cdp = cdp
        self.by_script: Counter = Counter()
        cdp.send('Profiler.enable')
        cdp.send('Profiler.setSamplingInterval', {'interval': 100})

    def start(self) -> None:
        self.cdp.send('Profiler.start')

    def stop(self, keep: bool) -> None:
        profile = self.cdp.send('Profiler.stop')['profile']
        if not keep:
            return
        nodes = {node['id']: node for node in profile['nodes']}
        deltas = profile['timeDeltas']
        for index, sample in enumerate(profile['samples'][:-1]):
            self.by_script[script_name(nodes[sample]['callFrame'])] += deltas[index + 1] / 1000


def script_name(frame: dict) -> str:
    url, function = frame['url'], frame['functionName']
    if not url:
        return function if function.startswith('(') else '(playwright, eval)'
    name = url.rsplit('/', 1)[-1].split('?')[0]
    return name if name.endswith(('.js', '.mjs')) else 'the page'


def chinchon_round(page, base: str) -> tuple[float, float] | None:
    """Draw from the stock, then discard the last card; None when the table is elsewhere."""
    phase = page.get_by_test_id('table').get_attribute('data-phase')
    if phase in ('count', 'over'):
        bench.new_table(page, base)
        return None
    if phase != 'draw':
        page.wait_for_timeout(20)
        return None
    page.get_by_test_id('stock').click()
    page.wait_for_function("document.querySelector('[data-testid=table]').dataset.phase !== 'draw'")
    if page.get_by_test_id('table').get_attribute('data-phase') != 'discard':
        return None
    page.get_by_test_id('hand-card').last.click()
    page.get_by_test_id('discard-button').click()
    return 0.0, 0.0


FIRST_LOAD = """() => {
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const kinds = {};
  for (const entry of [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]) {
    const kind = entry.initiatorType === 'navigation' ? 'document' : (entry.name.match(/\\.(js|mjs|css|woff2?|png|svg|ico)(\\?|$)/) || [, 'other'])[1];
    kinds[kind] = kinds[kind] || [0, 0];
    kinds[kind][0] += entry.transferSize;
    kinds[kind][1] += entry.decodedBodySize;
  }
  return {paint: paint ? paint.startTime : NaN, kinds};
}"""


def first_loads(browser, game: str, base: str, loads: int) -> None:
    """Open a table of ``game`` in a fresh context ``loads`` times and time its first render."""
    setup = browser.new_context(locale='es-ES')
    page = setup.new_page()
    {'chinchon': bench.new_table, 'ronda-robada': bench.new_ronda_table,
     'continental': bench.new_continental_table}[game](page, base)
    address = page.url
    cookies = setup.cookies()
    setup.close()
    paints, ready, busy, sizes = [], [], [], Counter()
    for _ in range(loads):
        context = browser.new_context(locale='es-ES')
        context.add_cookies(cookies)   # the same browser: its seat, as a reload would
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send('Performance.enable')
        page.goto(address)
        page.wait_for_selector('[data-testid=table]')
        ready.append(page.evaluate('() => performance.now()'))
        settle(page)
        busy.append(metrics(cdp)['TaskDuration'])
        measured = page.evaluate(FIRST_LOAD)
        paints.append(measured['paint'])
        for kind, (transfer, decoded) in measured['kinds'].items():
            sizes[kind, 'transfer'] += transfer / loads
            sizes[kind, 'decoded'] += decoded / loads
        context.close()
    print(f'{game} first load, {loads} fresh contexts: first contentful paint median {statistics.median(paints):.0f} ms,'
          f' table in the page {statistics.median(ready):.0f} ms, main thread busy {statistics.median(busy):.0f} ms')
    for kind in sorted({kind for kind, _ in sizes}):
        print(f'  {kind:<9} transferred {sizes[kind, "transfer"] / 1024:8.1f} KiB   decoded {sizes[kind, "decoded"] / 1024:8.1f} KiB')
    print(f'  {"all":<9} transferred {sum(v for (_, k), v in sizes.items() if k == "transfer") / 1024:8.1f} KiB'
          f'   decoded {sum(v for (_, k), v in sizes.items() if k == "decoded") / 1024:8.1f} KiB')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--game', choices=('chinchon', 'ronda-robada', 'continental'), default='chinchon')
    parser.add_argument('--rounds', type=int, default=40)
    parser.add_argument('--loads', type=int, default=8)
    parser.add_argument('--port', type=int, default=8771)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    data = Path(tempfile.mkdtemp(prefix='hod-bench-'))
    server = bench.start_server(args.port, data)
    base = f'http://127.0.0.1:{args.port}'
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=os.environ.get('HOD_CHROMIUM', '/usr/bin/chromium'), args=bench.ARGS)
            page = browser.new_page(locale='es-ES')
            per_click(page, args.game, base, args.rounds)
            page.close()
            first_loads(browser, args.game, base, args.loads)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        time.sleep(0.1)


if __name__ == '__main__':
    main()
