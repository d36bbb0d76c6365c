"""Games of a fixed number of hands (the daily deal's formats): Chinchón's ``Rules.hands`` (0, the
normal game, or 1 to 20 hands) and Continental's (the first 1 to 7 contracts), set by code through
``GameInfo.make_rules(fixed=...)``, never a room option."""
import json
import random

import pytest

from app.engine import chinchon, continental
from app.engine.cards import parse_spanish
from app.engine.chinchon import BuyBack, Close, Discard, DrawStock
from app.games import GAMES_BY_ID

THREE = chinchon.Rules(hands=3)
CLOSER = '10o 11o 12o 7c 7e 7b 2b'      # draws 4b and puts it down: 2 points


def card(text: str):
    return parse_spanish(text)[0]


def kinds(events) -> list[str]:
    return [event.kind for event in events]


def careless(rng: random.Random, actions: list):
    """Closes when it can (mostly), draws anything, discards at random: hands end by closes and,
    now and then, by a stock run out three times."""
    closes = [a for a in actions if isinstance(a, Close)]
    if closes and rng.random() < 0.9:
        return rng.choice(closes)
    draws = [a for a in actions if not isinstance(a, (Discard, Close))]
    return rng.choice(draws or [a for a in actions if isinstance(a, Discard)])


def same_position(state) -> None:
    """The position printed and read back is the same game, and prints the same again."""
    module = chinchon if isinstance(state, chinchon.GameState) else continental
    text = module.position(state)
    again = module.from_position(text)
    assert again.to_dict() == state.to_dict() and module.position(again) == text


def play_chinchon(seed: int, rules: chinchon.Rules = THREE, seats: int = 4, check=None):
    state = chinchon.new_game(rules, seats, random.Random(seed))
    rng = random.Random(-seed)
    events = list(state.events)
    while state.outcome() is None:
        seat = state.current_seat
        events += state.apply(seat, careless(rng, state.legal_actions(seat)))
        if check:
            check(state)
    return state, events


def hand_ends(events) -> list:
    return [event for event in events if event.kind in ('count', 'void_hand')]


# Chinchón ------------------------------------------------------------------------------------

def test_a_chinchon_game_of_three_hands_ends_after_the_third_count_fewest_points_winning():
    state, events = play_chinchon(seed=59)
    counted = hand_ends(events)
    assert kinds(counted) == ['count'] * 3     # this seed: three closes, nobody over the limit
    assert [event.data['hand'] for event in events if event.kind == 'deal'] == [1, 2, 3]
    assert kinds(events)[-1] == 'game_over' and events.index(counted[-1]) == len(events) - 2
    view = state.public_view()
    assert view.phase == 'over' and view.hand_number == 3 and len(view.past_deals) == 3
    assert not any(view.eliminated) and view.scores == tuple(counted[-1].data['result']['totals'])
    fewest = min(view.scores)
    outcome = state.outcome()
    assert outcome.reason == 'hands_played' and outcome.scores == view.scores
    assert outcome.winners == tuple(s for s in range(4) if view.scores[s] == fewest)
    assert state.current_seat is None and state.legal_actions(outcome.winners[0]) == []


# (seats, rules, seed): at four seats the careless players void many hands; at three with the
# limit at 50 eliminations end some games early (seeds 2: last standing, 22: all over at once, 44: a
# chinchón; 1: four void hands, everybody sharing the win) and one seat goes over in the last hand
# (28)
ENDINGS = [(4, THREE, seed) for seed in (1, 5, 6, 12, 28)] + \
    [(3, chinchon.Rules(limit=50, hands=4), seed) for seed in (2, 22, 44, 1)]


@pytest.mark.parametrize('seats, rules, seed', ENDINGS)
def test_every_hand_dealt_counts_void_ones_too_and_the_game_stops_at_its_number(seats, rules, seed):
    def check(state):
        assert state.hand_number <= rules.hands and state.phase != 'buyback'

    state, events = play_chinchon(seed, rules, seats, check=check)
    outcome = state.outcome()
    ends = hand_ends(events)
    assert [event.data['hand'] for event in events if event.kind == 'deal'] == list(range(1, len(ends) + 1))
    if outcome.reason == 'hands_played':
        after = kinds(events[events.index(ends[-1]) + 1:])   # nothing is dealt after the last hand
        assert len(ends) == rules.hands and after in (['game_over'], ['eliminated', 'game_over'])
        still_in = [s for s in range(seats) if not state.out[s]]
        fewest = min(outcome.scores[s] for s in still_in)
        assert len(still_in) >= 2 and outcome.winners == tuple(s for s in still_in if outcome.scores[s] == fewest)
    else:   # a chinchón, or eliminations, end it sooner, as in the normal game
        assert outcome.reason in ('chinchon', 'last_standing', 'fewest_points') and len(ends) <= rules.hands


def test_a_seeded_game_ends_on_a_void_third_hand():
    state, events = play_chinchon(seed=3)   # this seed: two counts, then a void hand
    assert kinds(hand_ends(events)) == ['count', 'count', 'void_hand']
    assert kinds(events)[-2:] == ['void_hand', 'game_over']
    assert state.outcome().reason == 'hands_played' and state.public_view().last_result.void
    same_position(state)


def test_positions_round_trip_at_every_step_of_a_game_of_three_hands():
    play_chinchon(seed=3, check=same_position)


@pytest.mark.parametrize('hand_number', [1, 3])
def test_a_chinchon_still_ends_a_game_of_three_hands_at_once(hand_number):
    state = chinchon.from_position(THREE, hands=['1o 2o 3o 4o 5o 6o 12b', '1c 2c 3c 4e 5e 6c 7c'],
                                   hand_number=hand_number, stock_top='7o', discard='5b', scores=[40, 0], seed=1)
    state.apply(0, DrawStock())
    events = state.apply(0, Close(card('12b')))
    assert kinds(events) == ['close', 'count', 'game_over']
    assert state.outcome().winners == (0,) and state.outcome().reason == 'chinchon'


def test_a_void_hand_before_the_last_is_a_hand_played_and_the_same_dealer_deals_the_next():
    state = chinchon.from_position(THREE, hands=[CLOSER, '1c 2c 3c 4c 5c 6c 10c'], hand_number=2, stock_size=0,
                                   discard='10e 11e 5o', reshuffles=2, dealer=1, seed=1)
    events = state.apply(0, DrawStock())
    assert kinds(events) == ['void_hand', 'deal']
    view = state.view(0)
    assert view.hand_number == 3 and view.dealer == 1 and view.outcome is None


def test_a_void_last_hand_ends_the_game_on_the_scores_as_they_stand():
    state = chinchon.from_position(THREE, hands=[CLOSER, '1c 2c 3c 4c 5c 6c 10c', '1e 2e 3e 4b 5b 6b 6o'],
                                   hand_number=3, stock_size=0, discard='10e 11e 5o', reshuffles=2,
                                   scores=[30, 12, 12], seed=1)
    events = state.apply(0, DrawStock())
    assert kinds(events) == ['void_hand', 'game_over']
    assert state.outcome().scores == (30, 12, 12) and state.outcome().winners == (1, 2)
    assert state.outcome().reason == 'hands_played'


def test_no_buyback_after_the_last_hand_the_players_still_in_share_the_fewest():
    rules = chinchon.Rules(buyback=True, hands=3)
    state = chinchon.from_position(rules, hands=[CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o'],
                                   hand_number=3, stock_top='4b', discard='11b', scores=[0, 97, 20], seed=1)
    state.apply(0, DrawStock())
    events = state.apply(0, Close(card('4b')))
    assert kinds(events) == ['close', 'count', 'eliminated', 'game_over']
    assert state.outcome().scores == (2, 102, 25) and state.outcome().winners == (0,)
    assert state.outcome().reason == 'hands_played' and state.view(1).eliminated == (False, True, False)


def test_before_the_last_hand_the_buyback_is_offered_as_in_the_normal_game():
    rules = chinchon.Rules(buyback=True, hands=3)
    state = chinchon.from_position(rules, hands=[CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o'],
                                   hand_number=2, stock_top='4b', discard='11b', scores=[0, 97, 20], seed=1)
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    assert state.view(1).phase == 'buyback' and state.view(1).legal_actions == (BuyBack(True), BuyBack(False))
    same_position(state)
    state.apply(1, BuyBack(True))
    assert state.view(1).hand_number == 3 and state.view(1).scores == (2, 25, 25)


def test_a_normal_game_has_no_hand_limit():
    state = chinchon.from_position(chinchon.Rules(), hands=[CLOSER, '1c 2c 3c 4e 5e 6e 5b'], hand_number=25,
                                   stock_top='4b', discard='11b', seed=1)
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    assert state.view(0).hand_number == 26 and state.outcome() is None


def test_a_position_past_the_last_hand_or_a_buyback_after_it_is_refused():
    with pytest.raises(ValueError, match='hand_number must be a whole number, 1 to 3, not 4'):
        chinchon.from_position(THREE, seats=2, hand_number=4)
    state = chinchon.from_position(chinchon.Rules(buyback=True, hands=2), hands=[CLOSER, '1c 2c 3c 4e 5e 6e 5b',
                                   '1e 2e 3e 4c 5c 6c 5o'], stock_top='4b', discard='11b', scores=[0, 97, 20], seed=1)
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    assert state.phase == 'buyback'
    text = chinchon.position(state).replace("'hands': 2", "'hands': 1")
    with pytest.raises(ValueError, match='no buy-back is offered after the last hand'):
        chinchon.from_position(text)


@pytest.mark.parametrize('hands', [-1, 21, True, 2.0, '3', None])
def test_chinchon_hands_out_of_range_are_refused(hands):
    with pytest.raises(ValueError, match='hands must be a whole number, 0'):
        chinchon.Rules(hands=hands)


def test_a_chinchon_game_saved_before_the_hand_limit_loads_as_a_normal_game():
    raw = json.loads(json.dumps(chinchon.new_game(chinchon.Rules(limit=50), 2, random.Random(1)).to_dict()))
    del raw['rules']['hands']
    state = chinchon.GameState.from_dict(raw)
    assert state.rules == chinchon.Rules(limit=50, hands=0)
    text = chinchon.position(state).replace(", 'hands': 0", '')
    assert "'hands'" not in text and chinchon.from_position(text).rules.hands == 0


# Continental -----------------------------------------------------------------------------------

def play_continental(seed: int, rules: continental.Rules, seats: int = 3, check=None):
    state = continental.new_game(rules, seats, random.Random(seed))
    bots = [GAMES_BY_ID['continental'].ai_module.make_bot('easy', random.Random(seed * 10 + s)) for s in range(seats)]
    events = list(state.events)
    for step in range(20000):
        if state.outcome() is not None:
            return state, events
        seat = state.current_seat
        events += state.apply(seat, bots[seat].choose(state.view(seat)))
        if check:
            check(state, step, events[-1])
    raise AssertionError(f'no end (seed {seed})')


def test_a_continental_game_of_three_contracts_ends_after_the_third_lowest_total_winning():
    checked = []

    def check(state, step, last):
        assert state.hand_number <= 3 and state.view(0).rules.hands == 3
        # a Continental position is ~20 ms to read: every fifth step, each hand's end and the end
        if step % 5 == 0 or last.kind in ('hand_end', 'game_over', 'deal') or state.outcome() is not None:
            same_position(state)
            checked.append(state.phase)

    state, events = play_continental(1, continental.Rules(hands=3), check=check)
    ends = [event for event in events if event.kind == 'hand_end']
    assert [event.data['hand'] for event in ends] == [1, 2, 3]
    assert [event.data['contract'] for event in events if event.kind == 'deal'] == [
        continental.contract(number).to_dict() for number in (1, 2, 3)]
    assert kinds(events)[-2:] == ['hand_end', 'game_over']
    view = state.public_view()
    assert view.phase == 'over' and view.hand_number == 3 and len(view.hand_scores) == 3
    totals = tuple(sum(row[s] for row in view.hand_scores) for s in range(3))
    outcome = state.outcome()
    assert outcome.scores == totals and outcome.reason == 'lowest total after 3 hands'
    assert outcome.winners == tuple(s for s in range(3) if totals[s] == min(totals))
    assert {'offer', 'play', 'over'} <= set(checked)


def test_a_game_of_one_contract_ends_after_the_first_hand():
    state, events = play_continental(2, continental.Rules(hands=1), seats=2)
    assert kinds(events).count('hand_end') == 1 and state.hand_number == 1
    assert state.outcome().reason == 'lowest total after 1 hand'
    same_position(state)


def test_a_finished_game_of_three_contracts_is_described_and_read_back():
    state, _ = play_continental(1, continental.Rules(hands=3))
    text = continental.position(state)
    assert "'hands': 3" in text and continental.from_position(text).outcome() == state.outcome()
    with pytest.raises(ValueError, match='phase over: the game ends after hand 4, not 3'):
        continental.from_position(text.replace("'hands': 3", "'hands': 4"))
    with pytest.raises(ValueError, match='hand_number must be a whole number, 1 to 3, not 4'):
        continental.from_position(continental.Rules(hands=3), hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d'],
                                  hand_number=4)


@pytest.mark.parametrize('hands', [0, 8, -1, True, 3.0, '3', None])
def test_continental_hands_out_of_range_are_refused(hands):
    with pytest.raises(ValueError, match='hands must be a whole number, 1 to 7'):
        continental.Rules(hands=hands)


def test_a_continental_game_saved_before_the_field_loads_as_the_whole_game():
    raw = json.loads(json.dumps(continental.new_game(continental.Rules(robo_de_contra=False), 2,
                                                     random.Random(1)).to_dict()))
    del raw['rules']['hands']
    state = continental.GameState.from_dict(raw)
    assert state.rules == continental.Rules(robo_de_contra=False, hands=7) and state.view(0).rules.hands == 7
    assert continental.Rules.from_dict({}) == continental.Rules()


# the registry: rules fixed by code ---------------------------------------------------------------

def test_the_daily_formats_fix_the_hands_beyond_the_room_options():
    assert GAMES_BY_ID['chinchon'].make_rules({'limit': 50}, fixed={'hands': 3}) == chinchon.Rules(limit=50, hands=3)
    assert GAMES_BY_ID['continental'].make_rules(fixed={'hands': 3}) == continental.Rules(hands=3)
    assert GAMES_BY_ID['continental'].make_rules({'robo_de_contra': False}, fixed={}) == \
        continental.Rules(robo_de_contra=False)


@pytest.mark.parametrize('game, chosen, fixed, message', [
    ('chinchon', {}, {'hands': 21}, 'hands must be a whole number'),
    ('chinchon', {}, {'hands': True}, 'hands must be a whole number'),
    ('chinchon', {}, {'limit': 50}, 'cannot fix limit'),            # a room option comes in chosen
    ('chinchon', {}, {'no_such_field': 1}, 'cannot fix no_such_field'),
    ('continental', {}, {'hands': 8}, 'hands must be a whole number, 1 to 7'),
    ('continental', {}, {'stock_rebuilds': -1}, 'stock_rebuilds must be a whole number'),
    ('continental', {}, {'robo_de_contra': False}, 'cannot fix robo_de_contra'),
    ('ronda-robada', {}, {'hands': 3}, 'the rules fields beyond the options: none'),
    ('chinchon', {'hands': 3}, {}, 'has no option hands'),            # and no room may choose it
])
def test_bad_fixed_rules_are_refused(game, chosen, fixed, message):
    with pytest.raises(ValueError, match=message):
        GAMES_BY_ID[game].make_rules(chosen, fixed=fixed)


def test_the_hands_are_no_room_option():
    assert all(option.name != 'hands' for game in GAMES_BY_ID.values() for option in game.options)


# the computer players ----------------------------------------------------------------------------

@pytest.mark.parametrize('game_id, rules, seats', [('chinchon', chinchon.Rules(hands=2, buyback=True), 4),
                                                    ('continental', continental.Rules(hands=2), 3)])
@pytest.mark.parametrize('level', ['easy', 'normal', 'hard'])
def test_the_computer_players_play_a_game_of_two_hands_to_its_end(game_id, rules, seats, level):
    game = GAMES_BY_ID[game_id]
    state = game.engine_module.new_game(rules, seats, random.Random(5))
    bots = [game.ai_module.make_bot(level, random.Random(seat)) for seat in range(seats)]
    while state.outcome() is None:
        seat = state.current_seat
        state.apply(seat, bots[seat].choose(state.view(seat)))
        assert state.view(0).hand_number <= 2
    assert state.outcome().reason in ('hands_played', 'lowest total after 2 hands')
