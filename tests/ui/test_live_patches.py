"""What a click sends a table screen through its live channel: one message, carrying only what
changed (components/live.py), and the parts several screens of one snapshot share drawn once.
The messages are read where the screen hands them to NiceGUI."""
from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from nicegui import Client, ui
from nicegui.testing import User
from seams import until

from app.tables.registry import open_table
from app.tables.room import SPECTATOR
from components.chinchon.table import ChinchonTable
from components.live import splices
from screen import drawing, hand_codes, make_room, one, open_position, phase, pick
from table_positions import chinchon_position

SLOT = '<div class=\\"hod-slot'   # a card of your hand, as a patch (JSON inside JavaScript) writes it


@pytest.fixture
def outgoing(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Client, str]]:
    """Every piece of JavaScript the server sends a page, as (page, code): a live patch is one."""
    sent: list[tuple[Client, str]] = []
    original = Client.run_javascript

    def run_javascript(self: Client, code: str, **options: Any):
        sent.append((self, code))
        return original(self, code, **options)
    monkeypatch.setattr(Client, 'run_javascript', run_javascript)
    return sent


# a patch as the page evaluates it: the channel's apply(patches, motions, ms, sounds)
APPLY = re.compile(r'(?:return runMethod\(\d+, "apply", |getElement\(\d+\)\?\.apply\(\.\.\.)(.*)\)', re.S)


def patches(user: User, sent: list[tuple[Client, str]]) -> list[str]:
    """The live patches sent to this user's page."""
    return [code for client, code in sent if client is user.client and APPLY.fullmatch(code)]


def held(user: User) -> dict[int, tuple[str | None, dict[str, Any]]]:
    """What the screen shows now, per element: its markup (a ui.html's) and its props."""
    return {element.id: (element.content if isinstance(element, ui.html) else None, dict(element.props))
            for element in user.client.elements.values()}


def changes(code: str) -> list[list[Any]]:
    """A patch's changes: [element id, attribute or 'innerHTML' or 'pieces', value]."""
    return json.loads(APPLY.fullmatch(code)[1])[0]


def drawn(code: str) -> list[tuple[int, str]]:
    """What a patch draws: (element id, what of it)."""
    return [(key, name) for key, name, _ in changes(code)]


def resent(before: dict[int, tuple[str | None, dict[str, Any]]], code: str) -> list[str]:
    """The parts of a patch that the screen held already: markup or an attribute sent again unchanged."""
    again = []
    for key, name, value in changes(code):
        markup, props = before[key]
        if (markup == value) if name == 'innerHTML' else name != 'pieces' and props.get(name) == value:
            again.append(f'{key} {name}')
    return again


async def test_a_click_sends_its_screen_one_patch(user: User, outgoing: list) -> None:
    # slow computers: the computer's turn does not follow inside the click
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e', discard='6b', speed='slow')
    await open_position(user, table)
    await until(lambda: phase(user) == 'draw')
    outgoing.clear()
    user.find(marker='stock').click()
    assert phase(user) == 'discard'
    assert len(patches(user, outgoing)) == 1, 'the draw reached the screen in several messages'
    # the side panels ride the same patch: the log's new line is in it
    assert 'Robas del mazo.' in patches(user, outgoing)[0]
    outgoing.clear()
    pick(user, '12c')
    assert len(patches(user, outgoing)) == 1
    outgoing.clear()
    user.find(marker='discard-button').click()
    assert '12c' not in hand_codes(user)
    assert len(patches(user, outgoing)) == 1, 'the discard reached the screen in several messages'


async def test_a_patch_carries_only_what_changed(user: User, outgoing: list) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e', discard='6b', speed='slow')
    await open_position(user, table)
    await until(lambda: phase(user) == 'draw')
    user.find(marker='stock').click()   # the first patch after the page loaded
    pick(user, '12c')
    user.find(marker='discard-button').click()
    await until(lambda: phase(user) == 'draw')   # the computer has played

    before = held(user)
    outgoing.clear()
    user.find(marker='stock').click()
    [draw] = patches(user, outgoing)
    assert resent(before, draw) == []
    # of your hand, the card drawn only; of the log, its new line only; the scoreboard is unchanged
    hand = one(user, 'hand')
    drawing = next(piece for piece in hand.descendants() if isinstance(piece, ui.html))
    assert (drawing.id, 'pieces') in drawn(draw)
    assert draw.count(SLOT) == 1
    log = one(user, 'hand-log')
    assert (log.id, 'pieces') in drawn(draw) and draw.count('Robas del mazo.') == 1
    assert 'Tiras el rey de copas.' not in draw   # an older line, already on the screen
    assert one(user, 'scoreboard').id not in dict(drawn(draw))

    before = held(user)
    outgoing.clear()
    pick(user, hand_codes(user)[0])
    [selection] = patches(user, outgoing)
    assert resent(before, selection) == []
    assert selection.count(SLOT) == 1   # the card chosen, nothing else


async def test_screens_of_one_snapshot_draw_its_shared_parts_once(user: User, create_user,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, link = await make_room(user, seats=2)
    user.find(marker='start-room').click()   # the free seat goes to a computer
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    watchers = [create_user(), create_user()]
    for watcher in watchers:
        await watcher.open(link[link.index('/room/'):])
        await watcher.should_see(marker='table')
    drawn: list[int] = []
    original = ChinchonTable.others_html

    def others_html(self: ChinchonTable, view: Any):
        drawn.append(self.seat)
        return original(self, view)
    monkeypatch.setattr(ChinchonTable, 'others_html', others_html)
    table.publish()
    # the creator's seat, and the spectators' seats once for both of them
    assert sorted(drawn) == [SPECTATOR, 0]
    seats = [drawing(watcher, 'seats') for watcher in watchers]
    assert seats[0] == seats[1] and seats[0].count('data-testid="seat"') == 2


def test_splices_turn_the_old_pieces_into_the_new_ones() -> None:
    # seeded: the same lists every run; the moves a table makes, and arbitrary changes
    rng = random.Random(42)
    for _ in range(5000):
        old = tuple(rng.choice('abcde') for _ in range(rng.randint(0, 9)))
        change = rng.choice(('any', 'on top', 'one'))
        if change == 'any':
            new = tuple(rng.choice('abcdef') for _ in range(rng.randint(0, 9)))
        elif change == 'on top':   # new log lines, the oldest pushed out of a full log
            new = tuple(rng.choice('xyz') for _ in range(rng.randint(1, 3))) + old
            new = new[:len(old)] if rng.random() < 0.5 else new
        else:   # a card drawn, thrown or chosen
            pieces = list(old)
            position = rng.randint(0, len(pieces))
            pieces[position:position + rng.randint(0, 1)] = rng.choice(([], ['f']))
            new = tuple(pieces)
        pieces = list(old)
        for start, count, markup in splices(old, new):
            pieces[start:start + count] = [markup] if markup else []
        assert ''.join(pieces) == ''.join(new), (old, new)


def test_a_new_line_on_a_full_log_sends_that_line() -> None:
    old = tuple(f'<div>line {n}</div>' for n in range(30))
    new = ('<div>line 30</div>',) + old[:-1]
    assert splices(old, new) == [[29, 1, ''], [0, 0, '<div>line 30</div>']]


async def test_a_save_rides_the_next_patch(user: User, outgoing: list) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e', discard='6b', speed='slow')
    await open_position(user, table)
    await until(lambda: phase(user) == 'draw')
    user.find(marker='stock').click()
    version = one(user, 'table').props['data-version']
    outgoing.clear()
    table.flush()   # the draw is written
    assert one(user, 'table').props['data-saved'] == version
    assert patches(user, outgoing) == []   # not a message of its own while the screen is busy
    pick(user, '12c')
    [selection] = patches(user, outgoing)
    assert [one(user, 'table').id, 'data-saved', version] in changes(selection)
