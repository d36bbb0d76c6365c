"""Continental hands in progress built from card text: what they show, what they refuse, and that
they play on like a dealt hand."""
import doctest
import importlib
import json
import random
from collections import Counter

import pytest

from app.engine import continental
from app.engine.cards import commitment, french_deck, parse_french
from app.engine.continental import (Discard, DrawStock, GameState, GoDown, LayOff, PassOffer, Rules, TakeOffer,
                                    from_position)

DECK = Counter(french_deck())


def cards_of(state: GameState) -> Counter:
    raw = state.to_dict()
    texts = [c for hand in raw['hands'] for c in hand] + raw['stock'] + raw['discard']
    texts += [item['card'] for meld in raw['melds'] for item in meld['cards']]
    return Counter(parse_french(' '.join(texts)))


def card(text: str):
    return parse_french(text)[0]


def test_the_docstring_example_holds():
    assert doctest.testmod(importlib.import_module('app.engine.continental.position')).failed == 0


def test_the_discard_on_offer_goes_first_to_the_player_on_turn():
    state = from_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d'], discard='4c 7d', offer={'discarder': 1},
                          seed=5)
    view = state.view(0)
    assert (view.phase, view.on_turn, view.current_seat, view.dealer, view.hand_number) == ('offer', 0, 0, 1, 1)
    assert str(view.offer.card) == '7d' and view.offer.discarder == 1 and view.offer.order == (0,)
    assert view.legal_actions == (TakeOffer(), PassOffer()) and state.view(1).legal_actions == ()
    assert view.hand_sizes == (6, 6) and view.discard_size == 2 and view.stock_size == 108 - 14
    assert cards_of(state) == DECK
    state.apply(0, TakeOffer())
    assert state.view(0).phase == 'play' and Discard(card('7d')) in state.view(0).legal_actions


def test_out_of_turn_the_next_seat_is_asked_and_may_rob_with_a_penalty_card():
    state = from_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d', 'Ks Kh Qd Jd 10c 2h'], phase='offer',
                          turn=0, stock='3d 4d 5d 6d', discard='4c 7d', offer={'discarder': 2, 'passed': [0]})
    view = state.view(1)
    assert view.current_seat == 1 and view.offer.order == (0, 1) and view.offer.passed == (0,)
    assert view.legal_actions == (TakeOffer(), PassOffer())
    state.apply(1, TakeOffer())
    assert state.hands[1][-2:] == [card('7d'), card('6d')]   # the offered card, then the stock's top
    assert state.view(0).phase == 'draw' and state.view(0).legal_actions == (DrawStock(),)


def test_the_card_turned_up_at_the_deal_is_offered_round_to_the_dealer():
    state = from_position(hands={}, seats=3, discard='Qh', offer={'discarder': None}, dealer=2)
    assert state.view(0).offer.order == (0, 1, 2) and state.view(0).hand_sizes == (6, 6, 6)
    assert cards_of(state) == DECK


def test_melds_on_the_table_show_their_owners_and_take_lay_offs():
    state = from_position(hands=['3h 4d 2c', '9s 9d JK 10c 10d Qs Kc'], hand_number=2, phase='play', turn=0,
                          melds=[(0, '5h 6h JK 8h'), (0, 'Ks Kh Kd')], discard='2s', seed=1)
    view = state.view(1)
    assert view.down == (True, False) and [meld.owner for meld in view.melds] == [0, 0]
    run = view.melds[0]
    assert run.kind == 'run' and run.start == 5 and run.positions()[2] == 7   # the joker is the 7
    legal = state.view(0).legal_actions
    assert LayOff(card('3h'), 0, None) not in legal and LayOff(card('4d'), 0, 4) not in legal
    assert not any(isinstance(action, GoDown) for action in legal)
    state = from_position(hands=['4h 9h 2c', '9s 9d JK 10c 10d Qs Kc'], hand_number=2, phase='play', turn=0,
                          melds=[(0, '5h 6h JK 8h'), (0, 'Ks Kh Kd')], discard='2s', seed=1)
    assert {LayOff(card('4h'), 0, 4), LayOff(card('9h'), 0, 9)} <= set(state.view(0).legal_actions)
    assert cards_of(state) == DECK


def test_a_later_hand_carries_the_earlier_scores_and_seeds():
    state = from_position(hands={0: 'As 2s 3s 4s 6h 7h 8h 9h'}, seats=2, hand_number=3, hand_scores=[[25, 0], [0, 60]],
                          stock_size=50, seed=8)
    view = state.view(0)
    assert view.contract.number == 3 and view.hand_sizes == (8, 8) and view.scores == (25, 60)
    assert len(view.past_deals) == 2 and view.stock_size == 50 and view.discard_size == 108 - 16 - 50
    assert state.legal_actions(0) == [TakeOffer(), PassOffer()]   # the offer comes before any going down
    assert cards_of(state) == DECK


def test_the_same_description_and_seed_give_the_same_hand():
    args = dict(hands={0: '7s 7h 9d 9h 2c 5s'}, seats=3, discard='4c')
    assert from_position(seed=3, **args).to_dict() == from_position(seed=3, **args).to_dict()
    assert from_position(seed=3, **args).hands[1] != from_position(seed=4, **args).hands[1]


HANDS = ['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d']


@pytest.mark.parametrize('kwargs, message', [
    (dict(hands=['JK JK JK JK JK 5s', '3c']),
     'JK is named 5 times (the last in the hand of seat 0), but the deck holds 4'),
    (dict(hands=['7s 7s 7s 9h 2c 5s', HANDS[1]]), '7s is named 3 times'),
    (dict(hands=HANDS, discard='1s'), "the discard pile: not a French card: '1s'"),
    (dict(hands=HANDS, phase='play'), 'seat 0 holds 6 cards, but a player not down holds 7 after drawing'),
    (dict(hands=['7s 7h 9d 9h 2c', HANDS[1]]), 'seat 0 holds 5 cards, but a player not down holds 6'),
    (dict(hands=['7s 7h 9d 9h 2c 5s 5h', HANDS[1]]), 'and two more for each discard taken out of turn'),
    (dict(hands=HANDS, turn=2), 'turn: there is no seat 2 at a table of 2'),
    (dict(hands=HANDS, melds=[(3, '2d 2h 2s')]), 'the owner of meld 0: there is no seat 3'),
    (dict(hands=HANDS, hand_number=8), 'hand_number must be a whole number, 1 to 7, not 8'),
    (dict(hands=HANDS, phase='deal'), 'phase must be one of offer, draw, play'),
    (dict(hands=['7s', '3c', '4c', '5c', '6c', '7c', '8c']), 'Continental is for 2 to 6 players, not 7'),
    (dict(hands=HANDS, melds=[(1, '2d 2h 3s')]), 'meld 0 (2d 2h 3s) is neither a set nor a run'),
    (dict(hands=['7s 7h 7d 9c', HANDS[1]], phase='play', melds=[(0, '2d 2h 2s'), (0, '3h 4h 5h 6h')]),
     'seat 0 is down, so it laid down what hand 1 asks for, 2 set(s) and 0 run(s), not 1 and 1'),
    (dict(hands=HANDS, down=[True, False]), 'not 0 and 0'),
    (dict(hands=HANDS, melds=[(1, '2d 2h 2s'), (1, '3d 3h 3s')], down=[False, False]), 'seat 1 owns melds'),
    (dict(hands={1: '3c'}, seats=2, melds=[(0, '2d 2h 2s'), (0, '3d 3h 3s')]), 'seat 0 is down: name its hand'),
    (dict(hands=['', HANDS[1]], melds=[(0, '2d 2h 2s'), (0, '3d 3h 3s')]), 'seat 0 holds no card'),
    (dict(hands=HANDS, offer={'discarder': 0}), 'was discarded by seat 1, not 0'),
    (dict(hands=HANDS, offer={'discarder': None}, dealer=0), 'is offered first to the seat after the dealer, seat 1'),
    (dict(hands=HANDS, offer={'order': [0, 1]}), 'offer: the card is offered to [0] in turn, not [0, 1]'),
    (dict(hands=HANDS, offer={'passed': [0]}), 'one at least still to answer'),
    (dict(hands=HANDS, offer={'passed': [1]}, rules=Rules(robo_de_contra=True)), 'passed [1] must be the first'),
    (dict(hands=HANDS, offer={'who': 1}), "offer: unknown keys ['who']"),
    (dict(hands=HANDS, phase='play', offer={}, down_this_turn=True), 'down_this_turn'),
    (dict(hands=['7s 7h 9d 9h 2c 5s 5h', HANDS[1]], phase='play', offer={}), 'only in the offer phase'),
    (dict(hands=HANDS, stock_size=96), 'no card is on offer'),
    (dict(hands=HANDS, phase='draw', stock_size=0, rebuilds=10), 'no card can be drawn'),
    (dict(hands=HANDS, rebuilds=11), 'rebuilds must be a whole number, 0 to 10, not 11'),
    (dict(hands=HANDS, stock_size=200), 'stock_size 200: the stock holds the 0 cards named for it and at most the 96'),
    (dict(hands=HANDS, hand_number=2, hand_scores=[]), 'hand_scores: hand 2 comes after 1 scored hands'),
])
def test_an_impossible_position_is_refused_saying_what_is_wrong(kwargs, message):
    rules = kwargs.pop('rules', Rules(robo_de_contra=False))
    with pytest.raises(ValueError) as refused:
        from_position(rules, **kwargs)
    assert message in str(refused.value)


def test_a_position_saved_and_restored_is_the_same_game():
    state = from_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d', 'Ks Kh Qd Jd 10c 2h'], turn=1,
                          discard='4c 7d', offer={'passed': [1]}, hand_number=1, seed=2)
    copy = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert copy.to_dict() == state.to_dict()
    assert all(copy.view(seat) == state.view(seat) for seat in range(3))
    json.dumps(state.view(2).to_dict())


def choose(rng: random.Random, actions: list):
    """Goes down and lays off whenever it can, takes offers now and then, discards at random."""
    for kind in (GoDown, LayOff):
        chosen = [action for action in actions if isinstance(action, kind)]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(actions)


POSITIONS = [
    dict(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d'], discard='4c 7d', offer={'discarder': 1}, stock_size=20,
         rebuilds=8),
    dict(hands=['4h 9h 2c', '9s 9d JK 10c 10d Qs Kc'], hand_number=2, phase='play', turn=0,
         melds=[(0, '5h 6h JK 8h'), (0, 'Ks Kh Kd')], discard='2s', down_this_turn=True),
    dict(hands={0: '2c'}, seats=4, hand_number=7, phase='draw', turn=1,
         melds=[(0, 'As 2s 3s 4s'), (0, '5h 6h 7h 8h'), (0, '9d 10d Jd Qd')], hand_scores=[[0] * 4] * 6,
         stock_size=3),
    dict(hands={}, seats=5, hand_number=1, discard='Qh', offer={'discarder': None}, stock_size=2, rebuilds=9),
]


@pytest.mark.parametrize('position', POSITIONS)
@pytest.mark.parametrize('seed', range(3))
def test_a_position_plays_on_to_the_end_of_the_hand_keeping_every_card(position, seed):
    state = from_position(seed=seed, hand_seeds=lambda: 'next-hand', **position)
    twin = GameState.from_dict(json.loads(json.dumps(state.to_dict())), lambda: 'next-hand')
    hand = state.hand_number
    rng = random.Random(seed)
    for step in range(3000):
        seat = state.current_seat
        actions = state.legal_actions(seat)
        assert actions and all(not state.legal_actions(s) for s in range(state.seats) if s != seat)
        action = choose(rng, actions)
        events = state.apply(seat, action)
        assert twin.apply(seat, action) == events
        if any(event.kind == 'hand_end' for event in events):
            break
        if step % 10 == 0:
            assert cards_of(state) == DECK
    else:
        pytest.fail('the hand did not end')
    assert cards_of(state) == DECK
    assert twin.to_dict() == state.to_dict()
    if hand < 7:
        assert state.hand_number == hand + 1 and state.seeds[-1] == 'next-hand'
        assert state.view(0).commitment == commitment('next-hand')
    else:
        assert state.outcome() is not None
