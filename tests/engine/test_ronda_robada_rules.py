"""Ronda Robada, one known position per rule of the rules page (app/rules/ronda_robada.en.md)."""
import random

import pytest

from app.engine.actions_json import action_to_json
from app.engine.cards import commitment, parse_spanish, shuffled, spanish_card, spanish_deck
from app.engine.protocol import IllegalAction
from app.engine.ronda_robada import (ACTIONS, Confirm, Drop, GameState, Rules, StartRun, TakeLoose, TakePile,
                                     card_points, new_game)


def c(text):
    return spanish_card(text)


def position(hands, loose, piles=None, stock='', current=0):
    """Piles are written bottom to top."""
    return GameState(Rules(), len(hands), 'known-position', stock=parse_spanish(stock),
                     hands=[parse_spanish(hand) for hand in hands], loose=parse_spanish(loose),
                     piles=[parse_spanish(pile) for pile in (piles or [''] * len(hands))],
                     rng=random.Random(0), current=current)


def play(state, seat, *actions):
    for action in actions:
        state.apply(seat, action)
    return state


def refused(state, seat, action):
    before = state.to_dict()
    with pytest.raises(IllegalAction) as error:
        state.apply(seat, action)
    assert state.to_dict() == before
    return error.value.code


def test_a_run_starts_with_a_hand_card_and_one_loose_card_of_its_rank():
    state = position(['5o 7c 2b', '1e'], '5c 5e 3b', piles=['', '11b 7e'])
    starts = {a for a in state.legal_actions(0) if isinstance(a, StartRun)}
    assert starts == {StartRun(c('5o'), c('5c')), StartRun(c('5o'), c('5e'))}
    play(state, 0, StartRun(c('5o'), c('5e')))
    view = state.view(0)
    assert view.run.played == c('5o') and view.run.loose == (c('5e'),) and view.run.rank == 5
    assert view.loose == (c('5c'), c('3b'))


def test_a_run_never_starts_on_a_pile_top():
    state = position(['5o 7c 2b', '1e'], '5c 3b', piles=['', '11b 7e'])
    assert refused(state, 0, StartRun(c('7c'), c('7e'))) == 'not_loose'
    assert refused(state, 0, StartRun(c('5o'), c('3b'))) == 'rank_mismatch'
    assert refused(state, 0, StartRun(c('6o'), c('5c'))) == 'not_in_hand'


def test_a_loose_card_comes_before_any_pile_of_the_next_rank():
    state = play(position(['5o', '1e'], '5c 6o 6e', piles=['', '11b 6c']), 0, StartRun(c('5o'), c('5c')))
    assert set(state.legal_actions(0)) == {TakeLoose(c('6o')), TakeLoose(c('6e')), Confirm()}
    assert refused(state, 0, TakePile(1)) == 'loose_first'


def test_taking_a_pile_takes_the_whole_pile():
    state = play(position(['5o', '1e'], '5c', piles=['', '11b 12e 6c']), 0, StartRun(c('5o'), c('5c')))
    events = state.apply(0, TakePile(1))
    assert events[0].kind == 'take_pile' and events[0].data == {'owner': 1, 'top': '6c', 'size': 3, 'rank': 6}
    assert state.view(0).run.piles[0].size == 3
    play(state, 0, Confirm())
    assert state.view(1).pile_sizes == (5, 0)
    assert state.view(1).pile_tops == (c('5o'), None)


def test_a_player_may_take_their_own_pile():
    state = play(position(['5o', '1e'], '5c', piles=['10o 6b', '']), 0, StartRun(c('5o'), c('5c')))
    assert TakePile(0) in state.legal_actions(0)
    play(state, 0, TakePile(0), Confirm())
    assert state.view(0).pile_sizes == (4, 0) and state.view(0).pile_tops[0] == c('5o')


def test_the_player_picks_among_several_piles_with_the_same_top():
    state = play(position(['5o', '1e', '2e'], '5c', piles=['', '3o 6c', '6b']), 0, StartRun(c('5o'), c('5c')))
    assert set(state.legal_actions(0)) == {TakePile(1), TakePile(2), Confirm()}
    play(state, 0, TakePile(2))
    assert set(state.legal_actions(0)) == {Confirm()}
    assert refused(state, 0, TakePile(1)) == 'wrong_rank'


def test_a_run_goes_on_from_a_pile_to_the_loose_cards():
    state = play(position(['5o', '1e'], '5c 7b', piles=['', '6c']), 0, StartRun(c('5o'), c('5c')), TakePile(1))
    assert set(state.legal_actions(0)) == {TakeLoose(c('7b')), Confirm()}


def test_the_closing_one_comes_after_the_twelve_and_nothing_after_it():
    state = play(position(['11o', '1e'], '11c 12b 1c 2c 1o'), 0, StartRun(c('11o'), c('11c')), TakeLoose(c('12b')))
    assert set(state.legal_actions(0)) == {TakeLoose(c('1c')), TakeLoose(c('1o')), Confirm()}
    play(state, 0, TakeLoose(c('1c')))
    assert state.legal_actions(0) == [Confirm()]
    assert state.view(0).run.next_rank is None
    assert refused(state, 0, TakeLoose(c('2c'))) == 'run_closed'


def test_a_run_never_comes_back_to_a_rank_it_passed():
    state = play(position(['4o', '1e'], '4c 3b 4e 5e'), 0, StartRun(c('4o'), c('4c')))
    assert refused(state, 0, TakeLoose(c('3b'))) == 'wrong_rank'
    assert refused(state, 0, TakeLoose(c('4e'))) == 'wrong_rank'


def test_a_run_started_on_ones_can_end_on_a_one():
    state = position(['1o', '2e'], '1c 2c 3c 4c 5c 6c 7c 10c 11c 12c 1e')
    play(state, 0, StartRun(c('1o'), c('1c')))
    for text in '2c 3c 4c 5c 6c 7c 10c 11c 12c 1e'.split():
        play(state, 0, TakeLoose(c(text)))
    assert state.legal_actions(0) == [Confirm()]
    play(state, 0, Confirm())
    assert state.view(0).pile_sizes[0] == 12 and state.view(0).loose == ()


def test_confirm_is_allowed_even_when_the_run_could_go_on():
    state = play(position(['5o', '1e'], '5c 6o'), 0, StartRun(c('5o'), c('5c')))
    assert Confirm() in state.legal_actions(0)
    play(state, 0, Confirm())
    assert state.view(0).loose == (c('6o'),) and state.current_seat == 1


def test_no_drop_after_a_run_has_started():
    state = play(position(['5o 7b', '1e'], '5c'), 0, StartRun(c('5o'), c('5c')))
    assert not any(isinstance(a, Drop) for a in state.legal_actions(0))
    assert refused(state, 0, Drop(c('7b'))) == 'no_drop_after_start'
    assert refused(state, 0, StartRun(c('7b'), c('5c'))) == 'run_started'


def test_the_played_card_ends_on_top_of_the_pile():
    state = play(position(['5o', '1e'], '5c 6o', piles=['', '3e 7c']), 0,
                 StartRun(c('5o'), c('5c')), TakeLoose(c('6o')), TakePile(1), Confirm())
    assert state.view(1).pile_tops[0] == c('5o')
    assert state.to_dict()['piles'][0][-1] == '5o'
    assert state.events[-1].data == {'top': '5o', 'cards': 5, 'pile_size': 5}


def test_a_drop_adds_a_loose_card_and_passes_the_turn():
    state = position(['5o 7b', '1e 2e'], '3c')
    events = state.apply(0, Drop(c('7b')))
    assert [e.kind for e in events] == ['drop'] and state.view(1).loose == (c('3c'), c('7b'))
    assert state.current_seat == 1
    assert refused(state, 0, Drop(c('5o'))) == 'not_your_turn'


def test_no_steps_without_a_run():
    state = position(['5o', '1e'], '6c')
    assert refused(state, 0, TakeLoose(c('6c'))) == 'no_run'
    assert refused(state, 0, Confirm()) == 'nothing_to_confirm'
    assert refused(state, 0, 'take everything') == 'unknown_action'


def test_redeal_three_each_when_every_hand_is_empty():
    state = position(['5o', '1e'], '3c', stock='1o 2o 3o 4o 5e 6e')
    play(state, 0, Drop(c('5o')))
    events = state.apply(1, Drop(c('1e')))
    assert [e.kind for e in events] == ['drop', 'redeal']
    assert events[1].data == {'hand_sizes': [3, 3], 'stock': 0}
    assert state.view(0).hand == tuple(parse_spanish('1o 3o 5e'))
    assert state.view(1).hand == tuple(parse_spanish('2o 4o 6e'))
    assert state.current_seat == 0


def test_the_last_runner_sweeps_the_loose_cards_at_the_end():
    state = position(['5o', '7e'], '5c 2b', piles=['', '1b'])
    play(state, 0, StartRun(c('5o'), c('5c')), Confirm())
    events = state.apply(1, Drop(c('7e')))
    assert [e.kind for e in events] == ['drop', 'sweep', 'game_over']
    assert events[1].seat == 0 and events[1].data == {'cards': ['2b', '7e'], 'to': 0}
    assert state.outcome().scores == (19, 1) and state.outcome().winners == (0,)
    assert state.current_seat is None and state.legal_actions(0) == []
    assert refused(state, 0, Drop(c('5o'))) == 'game_over'


def test_loose_cards_stay_unowned_when_nobody_made_a_run():
    state = position(['5o', '7e'], '3c', piles=['', ''])
    play(state, 0, Drop(c('5o')))
    events = state.apply(1, Drop(c('7e')))
    assert events[1].kind == 'sweep' and events[1].data['to'] is None
    assert state.outcome().scores == (0, 0) and state.view(0).loose == tuple(parse_spanish('3c 5o 7e'))


def test_card_points_and_final_scores():
    assert [card_points(card) for card in parse_spanish('1o 2c 7e 10b 11o 12c')] == [1, 2, 7, 10, 11, 12]
    assert sum(card_points(card) for card in spanish_deck()) == 244
    state = position(['5o', '7e'], '5c', piles=['12o 11o', '10b'])
    play(state, 0, StartRun(c('5o'), c('5c')), Confirm())
    state.apply(1, Drop(c('7e')))
    assert state.outcome().scores == (5 + 5 + 7 + 23, 10)
    assert state.view(1).scores == (40, 10)


def test_equal_highest_totals_share_the_win():
    state = position(['5o', '5e', '1b'], '', piles=['12b', '10b 2c', '3c'])
    play(state, 0, Drop(c('5o')))
    play(state, 1, Drop(c('5e')))
    state.apply(2, Drop(c('1b')))
    assert state.outcome().scores == (12, 12, 3) and state.outcome().winners == (0, 1)
    assert state.events[-1].data['winners'] == [0, 1]


def test_the_deal_follows_the_documented_order_and_commits_to_the_seed():
    state = new_game(Rules(), 3, random.Random(11), dealer=2)
    seed = state.seed
    deck = shuffled(spanish_deck(), seed)
    view = state.view(1)
    assert view.loose == tuple(deck[:4])
    assert view.hand == (deck[5], deck[8], deck[11])
    assert view.hand_sizes == (3, 3, 3) and view.stock_size == 27
    assert view.commitment == commitment(seed) and view.seed is None
    assert state.events[0].kind == 'deal' and state.events[0].data['commitment'] == commitment(seed)
    assert new_game(Rules(), 3, random.Random(11), dealer=2).to_dict() == state.to_dict()


@pytest.mark.parametrize('dealer', [0, 1, 2, 3])
def test_the_player_after_the_dealer_is_dealt_first_and_starts(dealer):
    state = new_game(Rules(), 4, random.Random(7), dealer=dealer)
    deck = shuffled(spanish_deck(), state.seed)
    first = (dealer + 1) % 4
    assert state.current_seat == first and state.view(first).dealer == dealer
    assert state.view(first).hand == (deck[4], deck[8], deck[12])
    assert state.events[0].seat == dealer
    # the redeal goes round the same way
    for _ in range(12):
        seat = state.current_seat
        state.apply(seat, Drop(state.hands[seat][0]))
    assert state.events[-1].kind == 'redeal' and state.current_seat == first
    assert state.view(first).hand == (deck[16], deck[20], deck[24])
    restored = GameState.from_dict(state.to_dict())
    assert restored.dealer == dealer and restored.to_dict() == state.to_dict()


def test_without_a_dealer_the_deal_draws_one_and_every_seat_gets_its_turn_to_start():
    starters = {new_game(Rules(), 3, random.Random(seed)).current_seat for seed in range(30)}
    assert starters == {0, 1, 2}
    with pytest.raises(ValueError):
        new_game(Rules(), 3, random.Random(1), dealer=3)


def test_two_to_four_players():
    for seats in (1, 5):
        with pytest.raises(ValueError):
            new_game(Rules(), seats, random.Random(1))


def test_actions_have_json_forms():
    actions = [StartRun(c('5o'), c('5c')), TakeLoose(c('6o')), TakePile(2), Confirm(), Drop(c('12b'))]
    assert [ACTIONS.from_json(action_to_json(a)) for a in actions] == actions
    assert action_to_json(actions[0]) == {'kind': 'start_run', 'card': '5o', 'loose': '5c'}
    assert len(set(actions)) == 5
    with pytest.raises(IllegalAction):
        ACTIONS.from_json({'kind': 'steal_everything'})
