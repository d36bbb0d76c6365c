"""Rooms with friends under load: several rooms of two people each, played at once in Chromium.

    python -m app.bench.rooms [--rooms 4] [--turns 12]

Each room is a heads-up Chinchón room made through the setup page ("Jugar con amigos"), joined
through its invite link by a second browser context and started by its creator, at instant speed.
Then the people play turns in every room in rotation (draw from the stock, discard the card
drawn), each click timed inside the clicking person's page (performance.now() at the click, a
MutationObserver for the change). Prints click→screen median and p95 per person and overall, a
bare NiceGUI button's figures taken in the same run, and the server's RSS before and with every
room open. Needs Chromium (see README).
"""
from __future__ import annotations

import argparse
import socket
import tempfile
from pathlib import Path

from app.bench.table import browser_with_bare_button, rss_mib, start_server, summary, timed

PHASE = "document.querySelector('[data-testid=table]')?.dataset.phase"


def p95(values: list[float]) -> float:
    ordered = sorted(values)   # as app.bench.table's summary takes it
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def make_room(creator, friend, base: str, number: int) -> None:
    creator.goto(f'{base}/play/chinchon?new=true')
    creator.get_by_role('button', name='2', exact=True).click()
    creator.get_by_role('button', name='Al instante').click()
    creator.get_by_test_id('friends').click()
    creator.get_by_label('Tu nombre en la mesa').fill(f'Ana{number}')
    creator.get_by_test_id('start').click()
    link = creator.get_by_test_id('invite-link').text_content()
    friend.goto(link)
    friend.get_by_test_id('join-name').fill(f'Luis{number}')
    friend.get_by_test_id('join').click()
    friend.get_by_test_id('waiting-for-start').wait_for()
    creator.get_by_test_id('start-room').click()
    for page in (creator, friend):
        page.wait_for_function(f"['draw', 'wait', 'discard'].includes({PHASE})", timeout=20000)


def play_turn(page, times: list[float]) -> bool:
    """Your turn in this room if it is yours: draw (timed), discard the last card (timed)."""
    if page.evaluate(f'() => {PHASE}') != 'draw':
        return False
    times.append(timed(page, '[data-testid=stock]', f"{PHASE} !== 'draw'",
                       lambda: page.get_by_test_id('stock').click()))
    if page.evaluate(f'() => {PHASE}') != 'discard':
        return True
    page.get_by_test_id('hand-card').last.click()
    count = page.get_by_test_id('hand-card').count()
    changed = f"document.querySelectorAll('[data-testid=hand-card]').length !== {count} || {PHASE} !== 'discard'"
    times.append(timed(page, '[data-testid=discard-button]', changed,
                       lambda: page.get_by_test_id('discard-button').click()))
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rooms', type=int, default=4)
    parser.add_argument('--turns', type=int, default=12, help='turns per person')
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        port = sock.getsockname()[1]
    base = f'http://127.0.0.1:{port}'
    server = start_server(port, Path(tempfile.mkdtemp(prefix='hod-bench-rooms-')))
    try:
        with sync_playwright() as playwright:
            browser, _, bare, bare_click = browser_with_bare_button(playwright, base)

            idle = rss_mib(server.pid)
            people = []
            for number in range(options.rooms):
                creator = browser.new_context(locale='es-ES').new_page()
                friend = browser.new_context(locale='es-ES').new_page()
                make_room(creator, friend, base, number + 1)
                people += [(f'room {number + 1} Ana', creator), (f'room {number + 1} Luis', friend)]
            loaded = rss_mib(server.pid)
            times: dict[str, list[float]] = {name: [] for name, _ in people}
            while min(len(values) for values in times.values()) < 2 * options.turns:
                moved = False
                for name, page in people:
                    if len(times[name]) < 2 * options.turns and play_turn(page, times[name]):
                        moved = True
                        bare_click()   # the bare button meets the machine in the same state
                if not moved:
                    people[0][1].wait_for_timeout(50)
                for name, page in people:   # a count: go on from it (a person's turn comes after)
                    if page.evaluate(f'() => {PHASE}') == 'count' and page.get_by_test_id('next-hand').count():
                        page.get_by_test_id('next-hand').click()
            print(f'{options.rooms} rooms of 2 people, heads-up Chinchón at instant speed, '
                  f'{options.turns} turns per person (draw + discard, each timed)')
            print(summary('bare NiceGUI button', bare))
            for name, values in times.items():
                print(summary(name, values))
            everything = [value for values in times.values() for value in values]
            print(summary('every person, every click', everything))
            print(f'p95 per person: worst {max(p95(values) for values in times.values()):.1f} ms')
            print(f'server RSS: {idle:.1f} MiB before the rooms, {loaded:.1f} MiB with {options.rooms} rooms '
                  f'({2 * options.rooms} people connected): {(loaded - idle) / options.rooms:.2f} MiB per room')
            browser.close()
    finally:
        server.terminate()


if __name__ == '__main__':
    main()
