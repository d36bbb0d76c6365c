"""Chinchón hands in progress built from card text: what they show, what they refuse, and that they
play on like a dealt hand."""
import doctest
import importlib
import json
import random
from collections import Counter

import pytest

from app.engine import chinchon
from app.engine.cards import commitment, parse_spanish, spanish_deck
from app.engine.chinchon import Close, Discard, DrawDiscard, DrawStock, GameState, Rules, from_position


def cards_of(state: GameState) -> Counter:
    raw = state.to_dict()
    return Counter(parse_spanish(' '.join(raw['stock'] + raw['discard'] + [c for hand in raw['hands'] for c in hand])))


def texts(cards) -> list[str]:
    return [str(card) for card in cards]


def test_the_docstring_example_holds():
    assert doctest.testmod(importlib.import_module('app.engine.chinchon.position')).failed == 0


def test_a_hand_you_describe_is_the_hand_you_see_and_every_other_card_is_dealt():
    state = from_position(Rules(), seats=2, hands={0: '1o 2o 3o 5c 7e 11b 12c'}, discard='6b', stock_top='4e',
                          seed=7)
    view = state.view(0)
    assert texts(view.hand) == ['1o', '2o', '3o', '5c', '7e', '11b', '12c']
    assert (view.phase, view.current_seat, view.dealer, view.hand_number) == ('draw', 0, 1, 1)
    assert str(view.discard_top) == '6b' and view.discard_size == 1
    assert view.hand_sizes == (7, 7) and view.stock_size == 25
    assert view.legal_actions == (DrawStock(), DrawDiscard())
    assert state.view(1).legal_actions == () and not set(state.view(1).hand) & set(view.hand)
    assert cards_of(state) == Counter(spanish_deck())
    state.apply(0, DrawStock())
    assert str(state.view(0).hand[-1]) == '4e'


def test_after_taking_the_discard_top_the_taken_card_stays_and_closing_is_offered():
    state = from_position(Rules(), hands=['1o 2o 3o 4o 7c 7e 7b 2c', '5o 12c 12e 11b 10b 6c 6e'],
                          phase='discard', taken='2c', discard='10e', seed=1)
    view = state.view(0)
    assert view.phase == 'discard' and str(view.taken_this_turn) == '2c'
    assert texts(view.taken_from_discard[0]) == ['2c'] and view.taken_from_discard[1] == ()
    one_o, four_o, seven_c, two_c = parse_spanish('1o 4o 7c 2c')
    assert Discard(two_c) not in view.legal_actions and Discard(seven_c) in view.legal_actions
    # 1o-4o and the three 7s leave the 2c loose: down goes an end of the run, never the 2c just taken
    assert {action for action in view.legal_actions if isinstance(action, Close)} == {Close(one_o), Close(four_o)}
    state.apply(0, Close(four_o))
    assert state.last_result.closer == 0 and state.last_result.added[0] == 2


def test_the_stock_size_leaves_the_other_cards_under_the_named_discard_top():
    state = from_position(Rules(), seats=3, stock_top='1c 12b', stock_size=10, discard='5e', current=2, seed=4)
    view = state.view(2)
    assert view.stock_size == 10 and view.discard_size == 40 - 21 - 10 and str(view.discard_top) == '5e'
    assert str(state.stock[-1]) == '12b' and str(state.stock[-2]) == '1c'   # 12b is drawn first
    assert view.dealer == 1 and cards_of(state) == Counter(spanish_deck())


def test_five_players_play_with_two_decks_and_an_eliminated_player_holds_nothing():
    state = from_position(Rules(limit=50), seats=5, hands={0: '1o 1o 2o 2o 3o 3o 4o'}, scores=[10, 0, 63, 5, 40],
                          out=[2], current=3, hand_number=4, seed=2)
    view = state.view(0)
    assert view.hand_sizes == (7, 7, 0, 7, 7) and view.eliminated == (False, False, True, False, False)
    assert view.dealer == 1 and view.hand_number == 4 and len(view.past_deals) == 3
    assert cards_of(state) == Counter(spanish_deck(2))


def test_the_same_description_and_seed_give_the_same_game_and_another_seed_another_deal():
    args = dict(hands={1: '1o 2o 3o 4c 4e 4b 7e'}, stock_top='1c', current=1, dealer=0)
    assert from_position(Rules(), seats=2, seed=5, **args).to_dict() == \
        from_position(Rules(), seats=2, seed=5, **args).to_dict()
    assert from_position(Rules(), seats=2, seed=5, **args).hands[0] != \
        from_position(Rules(), seats=2, seed=6, **args).hands[0]


@pytest.mark.parametrize('kwargs, message', [
    (dict(hands=['1o 1o 2o 3o 4o 5o 6o', '']),
     '1o is named 2 times (the last in the hand of seat 0), but the deck holds 1'),
    (dict(hands={0: '1o 2o 3o 4o 5o 6o 7o'}, seats=2, discard='7o'),
     '7o is named 2 times (the last in the discard pile)'),
    (dict(hands={0: '1o 1o 1o 2o 3o 4o 5o'}, seats=5), 'the deck holds 2 of it'),
    (dict(hands={0: '1o 2o 3o 4o 5o 6o 99x'}, seats=2), "the hand of seat 0: not a Spanish card: '99x'"),
    (dict(hands={0: 'As 2o 3o 4o 5o 6o 7o'}, seats=2), "not a Spanish card: 'As'"),
    (dict(hands={0: '1o 2o 3o 4o 5o 6o'}, seats=2), 'seat 0 holds 6 cards, but every player holds 7'),
    (dict(hands={1: '1o 2o 3o 4o 5o 6o 7o 1c'}, seats=2, phase='discard'), 'seat 1 holds 8 cards'),
    (dict(hands={0: '1o 2o 3o 4o 5o 6o 7o'}, seats=2, phase='discard'), 'it is on turn and has drawn, so it holds 8'),
    (dict(seats=2, current=2), 'current: there is no seat 2 at a table of 2'),
    (dict(hands={3: ''}, seats=3), 'hands: there is no seat 3'),
    (dict(seats=2, dealer=-1), 'dealer: there is no seat -1'),
    (dict(seats=7), 'Chinchón is for 2 to 6 players, not 7'),
    (dict(hands=['1o 2o 3o 4o 5o 6o 7o'], seats=2), 'hands: 1 hands listed for 2 seats'),
    (dict(hands={0: '1o 2o 3o 4o 5o 6o 7o'}), 'seats: say how many players'),
    (dict(seats=2, phase='counting'), "phase must be 'draw' or 'discard'"),
    (dict(seats=2, scores=[0]), 'scores: 1 scores listed for 2 seats'),
    (dict(seats=3, scores=[0, 120, 0]), 'seat 1 is still in, so its score is at most the limit of 100, not 120'),
    (dict(seats=3, out=[1]), 'seat 1 is out, so its score is over the limit of 100, not 0'),
    (dict(seats=3, out=[1], current=1, scores=[0, 101, 0]), 'seat 1 is out of the game: it cannot be on turn'),
    (dict(seats=2, out=[1], scores=[0, 101]), 'at least two players must still be in'),
    (dict(seats=2, stock_size=40), 'stock_size 40: the stock holds the 0 cards named for it and at most the 26'),
    (dict(seats=2, stock_size=26), 'the discard pile is empty'),
    (dict(seats=2, taken='1o'), 'taken: a card is taken from the discard pile by drawing it'),
    (dict(hands={0: '1o 2o 3o 4o 5o 6o 7o 1c'}, seats=2, phase='discard', taken='2c'), 'so its hand names it'),
    (dict(seats=2, reshuffles=3), 'reshuffles must be a whole number, 0 to 2, not 3'),
])
def test_an_impossible_position_is_refused_saying_what_is_wrong(kwargs, message):
    with pytest.raises(ValueError) as refused:
        from_position(Rules(), **kwargs)
    assert message in str(refused.value)


def test_a_position_saved_and_restored_is_the_same_game():
    state = from_position(Rules(buyback=True), seats=3, hands={2: '1o 2o 3o 5c 7e 11b 12c 4e'}, current=2,
                          phase='discard', scores=[20, 80, 45], seed=9)
    copy = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert copy.to_dict() == state.to_dict()
    assert all(copy.view(seat) == state.view(seat) for seat in range(3))
    json.dumps(state.view(1).to_dict())


def careless(rng: random.Random, actions: list):
    closes = [action for action in actions if isinstance(action, Close)]
    return rng.choice(closes) if closes and rng.random() < 0.8 else rng.choice(actions)


POSITIONS = [
    dict(seats=2, hands={0: '1o 2o 3o 5c 7e 11b 12c'}, discard='6b', stock_top='4e'),
    dict(seats=3, hands={1: '1o 2o 3o 4o 7c 7e 7b 2c'}, phase='discard', current=1, scores=[90, 0, 30]),
    dict(seats=4, stock_size=3, reshuffles=2),          # the hand may well be void: the stock runs out again
    dict(seats=6, hands={5: '1o 1o 2o 2o 3o 3o 4o'}, out=[0], scores=[120, 5, 5, 5, 5, 5], current=5),
]


@pytest.mark.parametrize('position', POSITIONS)
@pytest.mark.parametrize('seed', range(3))
def test_a_position_plays_on_to_the_end_of_the_hand_keeping_every_card(position, seed):
    rules = Rules(buyback=True)
    state = from_position(rules, seed=seed, hand_seeds=lambda: 'next-hand', **position)
    twin = GameState.from_dict(json.loads(json.dumps(state.to_dict())), lambda: 'next-hand')
    deck = cards_of(state)
    rng = random.Random(seed)
    for _ in range(2000):
        seat = state.current_seat
        actions = state.legal_actions(seat)
        assert actions and all(not state.legal_actions(s) for s in range(state.seats) if s != seat)
        action = careless(rng, actions)
        events = state.apply(seat, action)
        assert twin.apply(seat, action) == events
        if any(event.kind in ('count', 'void_hand') for event in events):
            break
        assert cards_of(state) == deck
    else:
        pytest.fail('the hand did not end')
    assert twin.to_dict() == state.to_dict()
    if state.outcome() is None and state.phase != 'buyback':
        assert state.seed == 'next-hand' and state.view(0).commitment == commitment('next-hand')
        assert cards_of(state) == deck
