"""Continental rules, one story per rule of the rules page (app/rules/continental.en.md)."""
import json
import random

import pytest

from app.engine import continental as C
from app.engine.cards import commitment, french_card, french_deck, parse_french, shuffled
from app.engine.protocol import IllegalAction


def cards(text):
    return parse_french(text)


def card(text):
    return french_card(text)


def position(*, hands, discard='5c', stock='2c 3c 4c 6c 7c 8c', phase='play', turn=0, seats=2,
             hand_number=1, offer=None, melds=(), down=None, robo=True, dealer=None, scores=()):
    """A game at a chosen point, built through the public serialised form."""
    state = C.new_game(C.Rules(robo_de_contra=robo), seats, random.Random(0))
    raw = state.to_dict()
    raw.update(hands=[hand.split() for hand in hands], discard=discard.split(), stock=stock.split()[::-1],
               phase=phase, turn=turn, hand_number=hand_number, offer=offer, melds=[
                   meld.to_dict() for meld in melds], down=list(down or [False] * seats),
               hand_scores=[list(row) for row in scores], seeds=raw['seeds'] * hand_number,
               dealer=(turn - 1) % seats if dealer is None else dealer)
    return C.GameState.from_dict(raw)


def offer(card_text, order, discarder, passed=()):
    return {'card': card_text, 'discarder': discarder, 'order': list(order), 'passed': list(passed)}


def refused(state, seat, action, code):
    before = state.to_dict()
    with pytest.raises(IllegalAction) as error:
        state.apply(seat, action)
    assert error.value.code == code
    assert state.to_dict() == before


# melds ---------------------------------------------------------------------------------------

CONTRACT_CASES = [
    (1, ['7s 7h 7d', 'Kc Kd JK'], ['7s 7h 7d', '5c 6c 7c 8c']),
    (2, ['7s 7h 7d', '5c 6c 7c 8c'], ['7s 7h 7d', 'Kc Kd Ks']),
    (3, ['5c 6c 7c 8c', 'As 2s JK 4s'], ['5c 6c 7c 8c', '7s 7h 7d']),
    (4, ['7s 7h 7d', 'Kc Kd JK', '2s 2h 2c'], ['7s 7h 7d', 'Kc Kd JK']),
    (5, ['7s 7h 7d', 'Kc Kd JK', '9h 10h Jh Qh Kh'], ['7s 7h 7d', 'Kc Kd JK', '2s 2h 2c']),
    (6, ['7s 7h 7d', '5c 6c 7c 8c', 'Jd Qd Kd Ad'], ['7s 7h 7d', '5c 6c 7c 8c']),
    (7, ['5c 6c 7c 8c', 'Jd Qd Kd Ad', '2h JK 4h 5h'], ['5c 6c 7c 8c', 'Jd Qd Kd Ad', '7s 7h 7d 7c']),
]


@pytest.mark.parametrize('hand_number, good, bad', CONTRACT_CASES,
                         ids=['hand1_two_sets', 'hand2_set_and_run', 'hand3_two_runs', 'hand4_three_sets',
                              'hand5_two_sets_and_run', 'hand6_set_and_two_runs', 'hand7_three_runs'])
def test_each_contract_asks_for_exactly_its_melds(hand_number, good, bad):
    assert C.meets_contract(hand_number, [cards(meld) for meld in good])
    assert not C.meets_contract(hand_number, [cards(meld) for meld in bad])
    assert not C.meets_contract(hand_number, [cards(meld) for meld in good] + [cards('2d 2d 2h')])


def test_contract_table_deals_one_more_card_each_hand():
    assert [(c.sets, c.runs, c.cards) for c in C.CONTRACTS] == [
        (2, 0, 6), (1, 1, 7), (0, 2, 8), (3, 0, 9), (2, 1, 10), (1, 2, 11), (0, 3, 12)]


def test_card_points():
    assert [C.card_points(c) for c in cards('JK As Ks Qh Jd 10c 9s 2h')] == [50, 20, 10, 10, 10, 10, 9, 2]


def test_set_needs_three_of_a_rank_and_a_natural():
    assert C.is_set(cards('7s 7s 7h'))
    assert C.is_set(cards('7s JK JK'))
    assert C.is_set(cards('7s 7h 7d 7c 7s JK'))
    assert not C.is_set(cards('7s 7h'))
    assert not C.is_set(cards('7s 7h 8h'))


def test_all_joker_set_is_refused():
    assert not C.is_set(cards('JK JK JK'))
    assert not C.is_run(cards('JK JK JK JK'))


def test_run_needs_four_consecutive_of_one_suit_in_any_order():
    assert C.is_run(cards('8h 5h 7h 6h'))
    assert not C.is_run(cards('5h 6h 7h'))
    assert not C.is_run(cards('5h 6h 7h 8d'))
    assert not C.is_run(cards('5h 6h 6h 7h'))


def test_jokers_fill_gaps_but_never_stand_together_in_a_run():
    assert C.is_run(cards('5h JK 7h 8h'))
    assert C.is_run(cards('JK 5h JK 7h'))
    assert C.is_run(cards('5h 6h JK JK'))          # one joker at each end: JK 5 6 JK
    assert not C.is_run(cards('5h JK JK 8h'))
    assert not C.is_run(cards('5h 6h JK JK JK'))
    assert C.run_start(cards('5h 6h JK JK')) is None


def test_ace_is_low_or_high_never_both_and_no_wrap():
    assert C.is_run(cards('As 2s 3s 4s'))
    assert C.is_run(cards('Js Qs Ks As'))
    assert not C.is_run(cards('Qs Ks As 2s'))
    assert not C.is_run(cards('Ks As 2s 3s'))
    assert C.run_start(cards('JK Qs Ks As')) == 11
    assert C.run_start(cards('As 2s JK 4s')) == 1
    every = cards('As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks')
    assert C.is_run(every) and not C.is_run(every + cards('As'))


# the discard offer ---------------------------------------------------------------------------

def test_first_card_is_offered_from_the_seat_after_the_dealer_round_to_the_dealer():
    state = C.new_game(C.Rules(), 4, random.Random(3))
    dealer = state.view(0).dealer
    order = [(dealer + i) % 4 for i in range(1, 5)]
    assert state.current_seat == order[0]
    assert state.view(0).offer.order == tuple(order)
    for seat in order[:3]:
        assert state.legal_actions(seat) == [C.TakeOffer(), C.PassOffer()]
        state.apply(seat, C.PassOffer())
    assert state.current_seat == dealer
    state.apply(dealer, C.PassOffer())
    assert state.view(0).phase == 'draw' and state.current_seat == order[0]
    assert state.legal_actions(order[0]) == [C.DrawStock()]


def test_a_discard_is_offered_in_seat_order_from_the_player_on_turn():
    state = position(seats=4, hands=['2s 9h', '3s 8s', '4s', '5s'], turn=1, phase='play')
    state.apply(1, C.Discard(card('3s')))
    assert state.view(0).offer.order == (2, 3, 0)
    assert state.current_seat == 2
    state.apply(2, C.PassOffer())
    assert state.current_seat == 3


def test_the_player_on_turn_takes_the_offer_as_their_draw():
    state = position(seats=3, hands=['2s 3s', '4s 5s', '6s 7s'], discard='9h', phase='offer', turn=1,
                     offer=offer('9h', [1, 2], 0))
    events = state.apply(1, C.TakeOffer())
    assert events[0].data == {'card': '9h', 'out_of_turn': False, 'penalty': False}
    assert state.view(1).phase == 'play' and state.current_seat == 1
    assert sorted(state.view(1).hand) == sorted(cards('4s 5s 9h'))


def test_robo_de_contra_takes_a_penalty_card_and_keeps_the_turn_order():
    state = position(seats=3, hands=['2s 3s', '4s 5s', '6s 7s'], discard='10d 9h', stock='Kd Qd',
                     phase='offer', turn=1, offer=offer('9h', [1, 2], 0))
    state.apply(1, C.PassOffer())
    events = state.apply(2, C.TakeOffer())
    taken = events[0]
    assert taken.kind == 'take_offer' and taken.seat == 2
    assert taken.data == {'card': '9h', 'out_of_turn': True, 'penalty': True}   # never the penalty card
    assert sorted(state.view(2).hand) == sorted(cards('6s 7s 9h Kd'))
    assert state.view(0).phase == 'draw' and state.current_seat == 1            # seat 1 still on turn
    state.apply(1, C.DrawStock())
    assert sorted(state.view(1).hand) == sorted(cards('4s 5s Qd'))
    assert state.current_seat == 1 and state.view(1).phase == 'play'


def test_nobody_draws_from_the_stock_until_the_offer_round_closes():
    state = position(seats=3, hands=['2s 3s', '4s 5s', '6s 7s'], discard='9h', phase='offer', turn=1,
                     offer=offer('9h', [1, 2], 0))
    refused(state, 1, C.DrawStock(), 'offer_open')
    state.apply(1, C.PassOffer())
    refused(state, 1, C.DrawStock(), 'not_your_turn')
    state.apply(2, C.PassOffer())
    assert state.legal_actions(1) == [C.DrawStock()]


def test_the_discarder_is_never_offered_their_own_card():
    state = position(seats=2, hands=['2s 9h', '3s 4s'], turn=0, phase='play')
    state.apply(0, C.Discard(card('9h')))
    assert state.view(0).offer.order == (1,)
    refused(state, 0, C.TakeOffer(), 'not_your_turn')
    state.apply(1, C.PassOffer())
    assert state.view(0).phase == 'draw' and state.current_seat == 1


def test_with_robo_de_contra_off_only_the_player_on_turn_is_asked():
    state = position(seats=4, robo=False, hands=['2s 9h', '3s', '4s', '5s'], turn=0, phase='play')
    state.apply(0, C.Discard(card('9h')))
    assert state.view(2).offer.order == (1,)
    state.apply(1, C.PassOffer())
    assert state.view(2).phase == 'draw' and state.current_seat == 1


def test_robbing_needs_a_penalty_card():
    state = position(seats=3, hands=['2s 3s', '4s 5s', '6s 7s'], discard='10d 9h', stock='',
                     phase='offer', turn=1, offer=offer('9h', [1, 2], 0), hand_number=1)
    state.apply(1, C.PassOffer())
    assert state.legal_actions(2) == [C.PassOffer()]
    refused(state, 2, C.TakeOffer(), 'no_penalty_card')


# going down, laying off, going out -------------------------------------------------------------

def test_going_down_needs_exactly_the_contract():
    state = position(hands=['7s 7h 7d Kc Kd JK 2c', '3s 4s'], hand_number=1)
    refused(state, 0, C.go_down('7s 7h 7d'), 'wrong_contract')
    refused(state, 0, C.go_down('7s 7h 7d', 'Kc Kd 2c'), 'invalid_meld')
    refused(state, 0, C.go_down('7s 7h 7d', 'Kc Kd Ks'), 'card_not_in_hand')
    state.apply(0, C.go_down('7s 7h 7d', 'Kc Kd JK'))
    assert state.view(1).down == (True, False)
    refused(state, 0, C.go_down('7s 7h 7d', 'Kc Kd JK'), 'already_down')


def test_apply_accepts_a_valid_go_down_that_is_not_listed():
    state = position(hands=['7s 7h 7d 7c Kc Kd JK 2c', '3s 4s'], hand_number=1)
    mine = C.go_down('Kd JK Kc', '7d 7s 7h')   # any order, not the listed arrangement
    assert C.GoDown in {type(a) for a in state.legal_actions(0)} and mine not in state.legal_actions(0)
    state.apply(0, mine)
    assert sorted(state.view(0).hand) == sorted(cards('7c 2c'))


def test_a_player_must_keep_a_card_to_discard():
    state = position(hands=['7s 7h 7d Kc Kd JK', '3s 4s'], hand_number=1)
    refused(state, 0, C.go_down('7s 7h 7d', 'Kc Kd JK'), 'keep_a_card')
    melds = [C.TableMeld(0, 1, 'set', tuple(cards('9s 9h 9d')))]
    state = position(hands=['9c', '3s 4s'], melds=melds, down=[True, True])
    assert state.legal_actions(0) == [C.Discard(card('9c'))]
    refused(state, 0, C.LayOff(card('9c'), 0), 'keep_a_card')


def test_laying_off_needs_being_down_and_a_fitting_card():
    melds = [C.TableMeld(0, 1, 'run', tuple(cards('5h 6h JK 8h')), 5)]
    state = position(hands=['4h 9h Ks 2c', '3s 4s'], melds=melds, down=[False, True])
    refused(state, 0, C.LayOff(card('4h'), 0), 'not_down')
    state = position(hands=['4h 9h Ks 7h 2c', '3s 4s'], melds=melds, down=[True, True])
    refused(state, 0, C.LayOff(card('Ks'), 0), 'does_not_fit')
    refused(state, 0, C.LayOff(card('7h'), 0), 'does_not_fit')      # the joker is never swapped out
    refused(state, 0, C.LayOff(card('4h'), 3), 'no_such_meld')
    state.apply(0, C.LayOff(card('4h'), 0))
    state.apply(0, C.LayOff(card('9h'), 0))
    run = state.view(1).melds[0]
    assert run.start == 4 and [str(c) for c in run.cards] == ['4h', '5h', '6h', 'JK', '8h', '9h']
    assert run.positions()[3] == 7


def test_the_player_chooses_where_a_joker_goes_on_a_run_end():
    melds = [C.TableMeld(0, 1, 'run', tuple(cards('5h 6h 7h 8h')), 5)]
    state = position(hands=['JK 2c', '3s 4s'], melds=melds, down=[True, True])
    assert {a for a in state.legal_actions(0) if isinstance(a, C.LayOff)} == {
        C.LayOff(card('JK'), 0, 4), C.LayOff(card('JK'), 0, 9)}
    refused(state, 0, C.LayOff(card('JK'), 0, 7), 'bad_position')
    state.apply(0, C.LayOff(card('JK'), 0, 9))
    assert state.view(0).melds[0].to_dict()['cards'][-1] == {'card': 'JK', 'position': 9}
    melds = [C.TableMeld(0, 1, 'run', tuple(cards('5h 6h 7h JK')), 5)]
    state = position(hands=['JK 2c', '3s 4s'], melds=melds, down=[True, True])
    assert [a.position for a in state.legal_actions(0) if isinstance(a, C.LayOff)] == [4]


def test_going_down_and_out_in_one_turn_scores_minus_20():
    state = position(hands=['7s 7h 7d Kc Kd JK 2c', '3s 4s'], hand_number=1)
    state.apply(0, C.go_down('7s 7h 7d', 'Kc Kd JK'))
    events = state.apply(0, C.Discard(card('2c')))
    end = next(e for e in events if e.kind == 'hand_end')
    assert end.data['points'] == [-20, 7] and end.data['reason'] == 'out'
    assert state.view(0).hand_number == 2


def test_going_out_after_being_down_before_scores_zero():
    melds = [C.TableMeld(0, 0, 'set', tuple(cards('9s 9h 9d'))), C.TableMeld(1, 0, 'set', tuple(cards('4s 4h 4d')))]
    state = position(hands=['9c 2c', 'JK As Qd 3s'], melds=melds, down=[True, False])
    state.apply(0, C.LayOff(card('9c'), 0))
    events = state.apply(0, C.Discard(card('2c')))
    end = next(e for e in events if e.kind == 'hand_end')
    assert end.data['points'] == [0, 50 + 20 + 10 + 3]
    assert state.view(1).scores == (0, 83)
    assert end.data['hands'][1] == ['JK', 'As', '3s', 'Qd']


def test_the_stock_is_rebuilt_from_the_discard_pile_but_its_top():
    state = position(seats=2, hands=['2s 3s', '4s 5s'], discard='Kd Qd Jd 9h', stock='', phase='draw', turn=1)
    events = state.apply(1, C.DrawStock())
    assert [e.kind for e in events] == ['reshuffle', 'draw_stock']
    view = state.view(0)
    assert view.discard_top == card('9h') and view.discard_size == 1 and view.stock_size == 2
    assert len(state.view(1).hand) == 3


def test_the_hand_ends_when_no_card_can_be_drawn():
    state = position(seats=2, hands=['2s 3s', '4s JK'], discard='9h', stock='', phase='offer', turn=1,
                     offer=offer('9h', [1], 0))
    events = state.apply(1, C.PassOffer())
    end = next(e for e in events if e.kind == 'hand_end')
    assert end.data['reason'] == 'no_draw' and end.data['points'] == [5, 54]


def test_the_game_ends_after_the_seventh_hand_and_the_lowest_total_wins():
    melds = [C.TableMeld(0, 0, 'set', tuple(cards('9s 9h 9d')))]
    state = position(hands=['9c', '3s 4s 2c'], melds=melds, down=[True, False], hand_number=7,
                     scores=[[10, 0]] * 6)
    events = state.apply(0, C.Discard(card('9c')))
    assert [e.kind for e in events][-2:] == ['hand_end', 'game_over']
    assert state.outcome().scores == (60, 9) and state.outcome().winners == (1,)
    assert state.current_seat is None and state.legal_actions(0) == []
    refused(state, 0, C.DrawStock(), 'game_over')


def test_equal_lowest_totals_share_the_win():
    state = position(seats=3, hands=['9c', '2c', '2d'], hand_number=7, down=[True, False, False],
                     scores=[[2, 0, 0]] * 6)
    state.apply(0, C.Discard(card('9c')))
    assert state.outcome().scores == (12, 2, 2) and state.outcome().winners == (1, 2)


def test_the_dealer_rotates_and_each_hand_deals_its_contract_count():
    state = position(hands=['9c', '3s 4s 2c'], melds=[C.TableMeld(0, 0, 'set', tuple(cards('9s 9h 9d')))],
                     down=[True, False], dealer=1)
    state.apply(0, C.Discard(card('9c')))
    view = state.view(0)
    assert view.hand_number == 2 and view.dealer == 0 and view.hand_sizes == (7, 7)
    assert view.current_seat == 1 and view.offer.order == (1, 0)


def test_the_deal_can_be_rebuilt_from_the_revealed_seed():
    state = C.new_game(C.Rules(), 3, random.Random(11))
    first = state.view(0)
    deck = shuffled(french_deck(), state.seeds[0])
    dealer = first.dealer
    for seat in range(3):
        dealt = [deck[i] for i in range(18) if (dealer + 1 + i) % 3 == seat]
        assert sorted(state.view(seat).hand) == sorted(dealt)
    assert first.discard_top == deck[18]
    while state.view(0).phase == 'offer':
        state.apply(state.current_seat, C.PassOffer())
    seat = state.current_seat
    state.apply(seat, C.DrawStock())
    assert deck[19] in state.view(seat).hand
    assert first.commitment == commitment(state.seeds[0]) and first.past_deals == ()


def test_views_hide_other_hands_and_the_stock():
    state = C.new_game(C.Rules(), 3, random.Random(5))
    raw = state.view(0).to_dict()
    assert raw['hand_sizes'] == [6, 6, 6] and raw['stock_size'] == 108 - 19
    assert all(key not in raw for key in ('hands', 'stock', 'seeds'))
    assert len(raw['hand']) == 6 and raw['past_deals'] == []


def test_the_stock_rebuild_limit_ends_an_endless_hand():
    state = position(seats=2, hands=['2s 3s', '4s 5s'], discard='Kd Qd 9h', stock='', phase='draw', turn=1,
                     robo=True)
    raw = state.to_dict()
    raw['rules']['stock_rebuilds'] = 1
    state = C.GameState.from_dict(raw)
    state.apply(1, C.DrawStock())                   # first rebuild: Kd Qd -> 2 cards
    state.apply(1, C.Discard(card('4s')))
    state.apply(0, C.PassOffer())
    state.apply(0, C.DrawStock())
    state.apply(0, C.Discard(card('2s')))
    events = state.apply(1, C.PassOffer())          # stock empty, no second rebuild allowed
    assert next(e for e in events if e.kind == 'hand_end').data['reason'] == 'no_draw'


def test_a_game_saved_with_its_melds_under_table_still_loads():
    """Saved tables hold ``state.to_dict()``; before the melds were named ``melds`` the key was ``table``."""
    melds = [C.TableMeld(0, 0, 'set', tuple(cards('9s 9h 9d')))]
    state = position(hands=['9c 2c', '3s 4s'], melds=melds, down=[True, False])
    old = state.to_dict()
    old['table'] = old.pop('melds')
    loaded = C.GameState.from_dict(json.loads(json.dumps(old)))
    assert loaded.to_dict() == state.to_dict() and loaded.view(0).melds == tuple(melds)
    assert C.LayOff(card('9c'), 0) in loaded.legal_actions(0)
