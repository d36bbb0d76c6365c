"""Ronda Robada games in progress built from card text: what they show, what they refuse, and that
they play on like a dealt game."""
import doctest
import importlib
import json
import random
from collections import Counter

import pytest

from app.engine import ronda_robada
from app.engine.cards import parse_spanish, spanish_deck
from app.engine.ronda_robada import Drop, GameState, StartRun, TakeLoose, TakePile, from_position

DECK = Counter(spanish_deck())


def cards_of(state: GameState) -> Counter:
    raw = state.to_dict()
    found = raw['stock'] + raw['loose'] + [c for hand in raw['hands'] for c in hand]
    found += [c for pile in raw['piles'] for c in pile]
    if raw['run'] is not None:
        run = raw['run']
        found += [run['played']] + run['loose'] + [c for _, cards in run['piles'] for c in cards]
    return Counter(parse_spanish(' '.join(found)))


def cards(text: str):
    return parse_spanish(text)


def test_the_docstring_example_holds():
    assert doctest.testmod(importlib.import_module('app.engine.ronda_robada.position')).failed == 0


def test_the_described_centre_hands_and_pile_tops_are_what_everybody_sees():
    state = from_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b', piles=['', '10b 4b'],
                          pile_sizes=[0, 19], stock='6o 6c 6e 6b 7o 7e', last_runner=1, seed=3)
    view = state.view(0)
    assert view.hand == tuple(cards('5o 7c 2b')) and view.loose == tuple(cards('5c 5e 3b'))
    assert view.pile_tops == (None, cards('4b')[0]) and view.pile_sizes == (0, 19)
    assert (view.stock_size, view.current_seat, view.dealer, view.last_runner) == (12, 0, 1, 1)
    five_o, five_c, five_e = cards('5o 5c 5e')
    assert set(view.legal_actions) == {StartRun(five_o, five_c), StartRun(five_o, five_e)} | {
        Drop(card) for card in cards('5o 7c 2b')}
    assert state.stock[:6] == cards('6o 6c 6e 6b 7o 7e') and state.piles[1][-2:] == cards('10b 4b')
    assert cards_of(state) == DECK
    # a run from the 3s: no loose 4, so the pile topped by 4b is there to take
    state = from_position(hands=['3o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b', piles=['', '10b 4b'],
                          pile_sizes=[0, 19], stock='6o 6c 6e 6b 7o 7e', last_runner=1, seed=3)
    state.apply(0, StartRun(cards('3o')[0], cards('3b')[0]))
    assert state.legal_actions(0)[0] == TakePile(1)


def test_a_hand_not_described_gets_what_the_round_has_left_it():
    # seat 1 deals, so seats 2 and 0 have played this round before seat 1's turn
    state = from_position(hands={1: '1e 3e 4e'}, seats=3, loose='5c 5e', piles=['3o 1c', '', ''],
                          pile_sizes=[13, 0, 0], current=1, dealer=1, last_runner=0, seed=2)
    assert state.view(1).hand_sizes == (2, 3, 2) and state.view(1).stock_size == 18
    assert cards_of(state) == DECK
    # seat 0 deals: seat 1 has played its last card of the round, seat 0 is about to
    assert from_position(hands=['7c', ''], loose='12b', piles=['', '1o 2o'], pile_sizes=[0, 8],
                         current=0, dealer=0, last_runner=1).view(1).stock_size == 30


def test_the_same_description_and_seed_give_the_same_game():
    args = dict(hands=['5o 7c', '1e 3e'], loose='5c', piles=['', '6b 4b'], pile_sizes=[0, 11], last_runner=1)
    assert from_position(seed=1, **args).to_dict() == from_position(seed=1, **args).to_dict()
    assert from_position(seed=1, **args).stock != from_position(seed=2, **args).stock


@pytest.mark.parametrize('kwargs, message', [
    (dict(hands=['5o 5o 2b', '1e 3e 4e']),
     '5o is named 2 times (the last in the hand of seat 0), but the deck holds 1'),
    (dict(hands=['5o 7c 2b', '1e 3e 4e'], loose='7c'), '7c is named 2 times (the last in the loose cards)'),
    (dict(hands=['5o 7c 9b', '1e 3e 4e']), "the hand of seat 0: not a Spanish card: '9b'"),
    (dict(hands=['5o 7c', '1e 3e 4e']), 'hands of sizes that no round leaves (seat 0 2, seat 1 3)'),
    (dict(hands=['5o 7c 2b 1o', '1e 3e 4e 1b']), 'hands of sizes that no round leaves'),
    (dict(hands=['', '']), 'hands of sizes that no round leaves'),
    (dict(hands=['5o 7c 2b', '1e 3e 4e'], current=2), 'current: there is no seat 2 at a table of 2'),
    (dict(hands=['5o 7c 2b', '1e 3e 4e'], last_runner=5), 'last_runner: there is no seat 5'),
    (dict(hands=['5o', '1e', '2e', '3e', '4e']), 'Ronda Robada is for 2 to 4 players, not 5'),
    (dict(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b'),
     'the stock would hold 31 cards (all that the hands, the loose cards and the piles leave), but after each '
     'deal it holds a multiple of 6 (3 for each of 2 players), at most 30: the piles would need 1, 7, 13, 19, 25 '
     'or 31 more cards (pile_sizes)'),
    (dict(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b', piles=['', '4b'], last_runner=1),
     'the pile of seat 1 holds 1 card: a run wins at least two'),
    (dict(hands=['5o 7c 2b', '1e 3e 4e'], piles=['', '4b 5b'], pile_sizes=[0, 2]),
     'somebody has a pile, so somebody has made a run: say who made the last one (last_runner)'),
    (dict(hands=['5o 7c 2b', '1e 3e 4e'], piles=['', '4b 5b'], last_runner=0), 'seat 0 made the last run'),
    (dict(hands=['5o 7c 2b', '1e 3e 4e'], piles=['', '4b 5b 6b'], pile_sizes=[0, 2], last_runner=1),
     'the pile size of seat 1 must be a whole number, 3 or more, not 2'),
    (dict(hands=['5o 7c 2b', '1e 3e 4e'], piles=['', '4b 5b'], pile_sizes=[0, 40], last_runner=1),
     'the piles and the hands not named need 38 more cards, but only 32 are left'),
    (dict(hands='5o 7c 2b'), 'hands: one text per seat'),
])
def test_an_impossible_position_is_refused_saying_what_is_wrong(kwargs, message):
    with pytest.raises(ValueError) as refused:
        from_position(**kwargs)
    assert message in str(refused.value)


def test_a_position_saved_and_restored_mid_run_is_the_same_game():
    state = from_position(hands=['5o 2c', '7b 2e'], loose='5c', piles=['3b 1c', '10b 6e'], pile_sizes=[16, 13],
                          last_runner=1, dealer=1, seed=4)
    five_o, five_c = cards('5o 5c')
    state.apply(0, StartRun(five_o, five_c))
    state.apply(0, TakePile(1))
    copy = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert copy.to_dict() == state.to_dict() and copy.view(1) == state.view(1)
    json.dumps(state.view(1).to_dict())


POSITIONS = [
    dict(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b', piles=['', '10b 4b'], pile_sizes=[0, 7],
         stock='6o 6c 6e 6b 7o 7e', last_runner=1),
    dict(hands={2: '12o 4c'}, seats=3, loose='12c 1o', piles=['3b 1c', '', ''], pile_sizes=[6, 0, 0],
         current=2, dealer=0, last_runner=0),
    dict(hands=['3c', '4e', '6o', ''], loose='12b', piles=['10o 7o', '11c 11o', '', ''], pile_sizes=[20, 16, 0, 0],
         current=0, dealer=2, last_runner=1),
    dict(hands={0: '1o 2o 3o'}, seats=4, loose='1c 2c 3c 4c'),
]


@pytest.mark.parametrize('position', POSITIONS)
@pytest.mark.parametrize('seed', range(3))
def test_a_position_plays_on_to_the_end_keeping_all_forty_cards(position, seed):
    state = from_position(seed=seed, **position)
    twin = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    rng = random.Random(seed)
    for _ in range(40 * 12):
        if state.outcome() is not None:
            break
        seat = state.current_seat
        actions = state.legal_actions(seat)
        assert actions and all(not state.legal_actions(s) for s in range(state.seats) if s != seat)
        # mostly go on with a run, so that piles change hands
        steps = [a for a in actions if isinstance(a, (TakeLoose, TakePile))]
        action = rng.choice(steps if steps and rng.random() < 0.7 else actions)
        assert twin.apply(seat, action) == state.apply(seat, action)
        assert cards_of(state) == DECK
    else:
        pytest.fail('the game did not end')
    outcome = state.outcome()
    assert sum(outcome.scores) + sum(card.rank for card in state.loose) == 244
    assert twin.to_dict() == state.to_dict()
