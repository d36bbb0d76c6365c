"""Crafted events at every table: whatever a tampered browser sends to a table's handlers (indexes
out of range, wrong types, stale or made-up versions, broken choices), nothing is raised or logged
as an error and the game stays exactly as it was; the table then plays on normally. Seeded."""
from __future__ import annotations

import json
import logging
import random

import pytest
from nicegui.testing import User
from table_positions import chinchon_position, continental_position, ronda_position
from seams import loop_turns, until
from screen import hand_codes, one, open_position, phase

from app.engine.protocol import IllegalAction
from app.pages.tables import table_path

EVENTS = ('click', 'keydown', 'keydown.enter', 'keydown.space', 'drop')
# every element of a table screen that listens to the player
MARKERS = {
    'chinchon': ('stock', 'discard', 'hand', 'discard-button', 'close', 'hint', 'sort'),
    'continental': ('stock', 'discard', 'hand', 'melds', 'builder', 'offer-take', 'robo-contra', 'offer-pass',
                    'meld-group-new', 'meld-propose', 'meld-confirm', 'discard-button', 'hint'),
    'ronda-robada': ('piles', 'centre', 'run', 'hand', 'confirm-run', 'drop', 'hint'),
}
CHOICES = ('hand', 'loose', 'pile', 'meld', 'end', 'joker', 'ungroup', 'drop', 'select', 'move', '')


def bad_number(rng: random.Random) -> object:
    """A number no screen would send: out of range, negative, huge, not an integer, a boolean."""
    return rng.choice([-1000, -1, -2 ** 31, 1000, 10 ** 6, 2 ** 63, 3.5, -0.5, float('inf'), True, False])


def bad_value(rng: random.Random) -> object:
    return rng.choice([bad_number(rng), '', 'x', '²', '9' * 5000, '-1000', '1o', 'JK', [], [[]], {'a': 1}])


def bad_choice(rng: random.Random) -> str:
    value = rng.choice(['', 'zz', '²', '-1000', '99', '9' * 5000, '1o', '13x', 'JK', '0', '1'])
    return f'{rng.choice(CHOICES)}:{value}'


def malformed(rng: random.Random) -> object:
    """One crafted event argument (never None or {}: those are a screen's own clicks, which act)."""
    shape = rng.randrange(5)
    if shape == 0:
        return bad_number(rng)
    if shape == 1:
        return bad_value(rng)
    if shape == 2:   # a choice with a version no screen showed
        return [bad_choice(rng), rng.choice([bad_number(rng), 'v', [], [1]])]
    if shape == 3:   # a hand key or a drop between slots
        return [rng.choice(['select', 'move', bad_number(rng)]), bad_number(rng), bad_value(rng)][:rng.randint(1, 3)]
    return [bad_choice(rng), bad_number(rng), bad_number(rng)]   # a drop on a meld


def snapshot(table) -> str:
    return json.dumps({'state': table.state.to_dict(), 'version': table.version, 'pause': table.pause},
                      sort_keys=True)


def fuzz(user: User, table, rng: random.Random, rounds: int = 150) -> None:
    before = snapshot(table)
    markers = MARKERS[table.game.id]
    for _ in range(rounds):
        user.find(marker=rng.choice(markers)).trigger(rng.choice(EVENTS), malformed(rng))
    assert snapshot(table) == before


def no_errors(caplog: pytest.LogCaptureFixture) -> None:
    errors = [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    assert not errors, errors


async def test_crafted_events_at_a_chinchon_table_change_nothing(user: User, caplog) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 7c 10e 11b 12b'}, discard='5c', stock_top='4o')
    await open_position(user, table)
    rng = random.Random(20)
    fuzz(user, table, rng)
    user.find(marker='discard').trigger('drop', -1000)   # the drop that used to break every later discard
    await user.should_see('Esa jugada no se entiende: vuelve a intentarlo desde la mesa.')
    user.find(marker='stock').trigger('click', None)
    assert phase(user) == 'discard' and '4o' in hand_codes(user)
    fuzz(user, table, rng)
    user.find(marker='discard').trigger('drop', -1000)
    user.find(marker='hand').trigger('click', hand_codes(user).index('4o'))
    user.find(marker='discard-button').trigger('click', None)   # the table still plays
    assert table.state.discard[-1].rank == 4 and phase(user) != 'discard'
    no_errors(caplog)


async def test_crafted_events_at_a_continental_table_change_nothing(user: User, caplog) -> None:
    table = continental_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d'], phase='offer', turn=0,
                                 discard='4c 7d', offer={'discarder': 1, 'order': [0]})
    await open_position(user, table)
    rng = random.Random(21)
    fuzz(user, table, rng)
    user.find(marker='offer-pass').trigger('click', None)
    user.find(marker='stock').trigger('click', None)
    assert phase(user) == 'play'
    fuzz(user, table, rng)
    table = continental_position(hands=['7s 7h 7d 9c 9d 9h Kc', '3c 4c 5c 6c 8h 8d'], hand_number=2, down=[True, True],
                                 melds=[(1, '2d 2h 2s'), (1, '3h 4h 5h 6h'), (0, 'Qs Qh Qd'), (0, '8s 9s 10s Js')])
    await open_position(user, table)
    fuzz(user, table, rng)
    user.find(marker='melds').trigger('drop', ['drop:0', -1000, -1000])
    user.find(marker='discard').trigger('drop', -1000)
    user.find(marker='hand').trigger('click', 6)
    user.find(marker='discard-button').trigger('click', None)   # the table still plays
    assert str(table.state.discard[-1]) == 'Kc'
    no_errors(caplog)


async def test_crafted_events_at_a_ronda_robada_table_change_nothing(user: User, caplog) -> None:
    table = ronda_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b', piles=['', '4b'], pile_sizes=[0, 7],
                           last_runner=1, stock='6o 6c 6e 6b 7o 7e')
    await open_position(user, table)
    rng = random.Random(22)
    fuzz(user, table, rng)
    await user.open(table_path(table.id))   # a fresh screen: the hint may have chosen a card in the last one
    user.find(marker='hand').trigger('click', ['hand:5o', None])
    user.find(marker='run').trigger('click', ['loose:5c', None])
    await until(lambda: phase(user) == 'run')
    fuzz(user, table, rng)
    user.find(marker='confirm-run').trigger('click', None)   # the table still plays
    await until(lambda: bool(table.state.piles[0]))
    no_errors(caplog)


@pytest.mark.parametrize('game', ['chinchon', 'continental', 'ronda-robada'])
async def test_no_hint_at_a_table_without_hints_even_for_a_crafted_click(game: str) -> None:
    if game == 'chinchon':
        table = chinchon_position(hands={0: '1o 2o 3o 7c 10e 11b 12b'})
    elif game == 'continental':
        table = continental_position(hands=['7s 7h 9d 9h 2c 5s Kd', '3c 4c 5c 6c 8h 8d'])
    else:
        table = ronda_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b', pile_sizes=[0, 7], last_runner=1)
    assert await table.hint(0) in table.view(0).legal_actions
    table.options.hints = False
    assert await table.hint(0) is None


async def test_a_crafted_click_on_the_hidden_hint_button_shows_no_hint(user: User) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 7c 10e 11b 12b'}, discard='5c')
    table.options.hints = False
    await open_position(user, table)
    assert one(user, 'hint').props.get('hidden')
    status = one(user, 'status').content
    user.find(marker='hint').trigger('click', None)
    await loop_turns()   # the click's task runs to its end (the inline thinker answers at once)
    assert one(user, 'status').content == status
    with pytest.raises(IllegalAction):   # and the table still refuses a made-up version
        table.act(0, table.state.legal_actions(0)[0], -1)
