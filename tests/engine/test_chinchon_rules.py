"""The Chinchón state machine on known positions: one named test per rule."""
import json
import random
from collections import Counter

import pytest

from app.engine.cards import cards_str, parse_spanish, shuffled, spanish_deck
from app.engine.chinchon import (BuyBack, Close, Discard, DrawDiscard, DrawStock, GameState, Rules,
                                 new_game)
from app.engine.protocol import IllegalAction


def card(text: str):
    return parse_spanish(text)[0]


def position(*hands: str, stock: str | None = None, discard: str = '', dealer: int | None = None,
             current: int = 0, rules: Rules = Rules(), scores=None, out=None, used=None,
             reshuffles: int = 0) -> GameState:
    """A game at the start of ``current``'s turn with these hands ('' for a seat that is out).
    ``stock`` lists the stock top first; by default it is the rest of the deck."""
    seats = len(hands)
    raw = new_game(rules, seats, random.Random(1)).to_dict()
    held = Counter(token for text in hands + (discard,) for token in text.split())
    if stock is None:
        rest = Counter(cards_str(spanish_deck(2 if seats >= 5 else 1)).split()) - held
        stock_tokens = list(rest.elements())
    else:
        stock_tokens = stock.split()
    raw.update(hands=[text.split() for text in hands], stock=stock_tokens[::-1],
               discard=discard.split(), current=current, phase='draw',
               dealer=(current - 1) % seats if dealer is None else dealer,
               scores=list(scores or [0] * seats), out=list(out or [False] * seats),
               buyback_used=list(used or [False] * seats), reshuffles=reshuffles)
    return GameState.from_dict(raw)


def refused(state: GameState, seat: int, action, code: str) -> None:
    before = state.to_dict()
    with pytest.raises(IllegalAction) as error:
        state.apply(seat, action)
    assert error.value.code == code
    assert state.to_dict() == before


def kinds(events) -> list[str]:
    return [event.kind for event in events]


# dealing -------------------------------------------------------------------

@pytest.mark.parametrize('seats, stock', [(2, 25), (3, 18), (4, 11), (5, 44), (6, 37)])
def test_deal_seven_each_one_face_up_player_after_dealer_starts(seats, stock):
    state = new_game(Rules(), seats, random.Random(seats))
    view = state.view(0)
    assert view.hand_sizes == (7,) * seats
    assert (view.discard_size, view.stock_size) == (1, stock)
    assert view.current_seat == (view.dealer + 1) % seats
    assert view.phase == 'draw' and view.hand_number == 1


def test_first_dealer_is_drawn_at_random():
    assert {new_game(Rules(), 4, random.Random(seed)).view(0).dealer for seed in range(40)} == {0, 1, 2, 3}


@pytest.mark.parametrize('seats', [0, 1, 7])
def test_two_to_six_players(seats):
    with pytest.raises(ValueError):
        new_game(Rules(), seats, random.Random(0))


def test_limit_is_100_or_50():
    with pytest.raises(ValueError):
        Rules(limit=75)


def test_deal_can_be_recreated_from_the_revealed_seed():
    state = new_game(Rules(), 3, random.Random(11))
    start = [state.view(seat) for seat in range(3)]
    assert start[0].commitment == start[1].commitment and start[0].past_deals == ()
    first = state.current_seat
    state.apply(first, DrawStock())
    first_drawn = state.view(first).hand[-1]
    rng = random.Random(5)
    while state.view(0).hand_number == 1:
        seat = state.current_seat
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    past = state.view(0).past_deals[0]
    assert past.commitment == start[0].commitment
    # the recipe of the module docstring
    deck = shuffled(spanish_deck(1), past.seed)
    players = [(start[0].dealer + step) % 3 for step in (1, 2, 3)]
    for i, seat in enumerate(players):
        assert list(start[seat].hand) == deck[i::3][:7]
    assert start[0].discard_top == deck[21]
    assert first_drawn == deck[22]   # the stock is the rest of the deck, top first


# turns ---------------------------------------------------------------------

def test_draw_from_stock_or_discard_then_discard():
    state = position('1o 2o 3o 12c 12e 7b 6c', '1c 2c 3c 4c 5c 6c 7c', stock='11e 10b', discard='5b')
    assert state.legal_actions(0) == [DrawStock(), DrawDiscard()]
    assert state.legal_actions(1) == []
    events = state.apply(0, DrawStock())
    assert kinds(events) == ['draw_stock'] and events[0].data == {}   # the drawn card stays hidden
    assert state.view(0).hand[-1] == card('11e')
    state.apply(0, Discard(card('11e')))
    assert state.current_seat == 1 and state.view(1).discard_top == card('11e')
    events = state.apply(1, DrawDiscard())
    assert events[0].data == {'card': '11e'}
    assert state.view(0).taken_from_discard == ((), (card('11e'),))


def test_card_taken_from_discard_cannot_be_discarded():
    state = position('1o 2o 3o 12c 12e 7b 6c', '1c 2c 3c 4c 5c 6c 7c', discard='12b')
    state.apply(0, DrawDiscard())
    assert Discard(card('12b')) not in state.legal_actions(0)
    assert state.view(0).taken_this_turn == card('12b')
    refused(state, 0, Discard(card('12b')), 'taken_card_discard')
    state.apply(0, Discard(card('7b')))


def test_card_taken_from_discard_cannot_be_put_face_down():
    state = position('1o 2o 3o 12c 12e 12b 4c', '1c 2c 3c 4e 5e 6c 7c', discard='5c')
    state.apply(0, DrawDiscard())
    assert Close(card('5c')) not in state.legal_actions(0)
    refused(state, 0, Close(card('5c')), 'taken_card_close')
    assert Close(card('4c')) in state.legal_actions(0)


def test_with_two_decks_the_twin_of_the_taken_card_may_go():
    state = position('5o 1c 2c 3c 12e 12b 7c', '1e 2e 3e 4e 5e 6e 7e', '', '', '', discard='5o')
    state.apply(0, DrawDiscard())
    assert Discard(card('5o')) in state.legal_actions(0)
    state.apply(0, Discard(card('5o')))
    assert state.view(0).hand.count(card('5o')) == 1


def test_close_allowed_with_one_loose_card_worth_five():
    state = position('1o 2o 3o 12c 12e 12b 5e', '1c 2c 3c 4e 6e 6c 7c', stock='7b')
    state.apply(0, DrawStock())
    assert state.view(0).can_close
    events = state.apply(0, Close(card('7b')))
    assert kinds(events)[:2] == ['close', 'count']
    assert events[0].data['score'] == 5
    result = state.view(0).last_result
    assert result.closer == 0 and result.added[0] == 5 and result.seats[0].loose == (card('5e'),)


def test_close_refused_with_one_loose_card_worth_six():
    state = position('1o 2o 3o 12c 12e 12b 6e', '1c 2c 3c 4e 5e 6c 7c', stock='7b')
    state.apply(0, DrawStock())
    assert not state.view(0).can_close
    refused(state, 0, Close(card('7b')), 'cannot_close')


def test_closer_with_all_seven_melded_scores_minus_ten():
    state = position('1o 2o 3o 12c 12e 12b 12o', '1c 2c 3c 4e 5e 6c 7c', stock='7b')
    state.apply(0, DrawStock())
    state.apply(0, Close(card('7b')))
    assert state.view(0).last_result.added == (-10, 4 + 5 + 6 + 7)
    assert state.view(0).scores == (-10, 22)


@pytest.mark.parametrize('hand, drawn, down', [
    ('1o 2o 3o 4o 5o 6o 12b', '7o', '12b'),
    ('2c 3c 4c 5c 6c 7c 1e', '10c', '1e'),
    ('3e 4e 5e 6e 7e 10e 11e', '1b', '1b'),
    ('4b 5b 6b 7b 10b 11b 3o', '12b', '3o'),
])
def test_chinchon_wins_the_game_at_once(hand, drawn, down):
    state = position(hand, '1c 2c 3c 4e 5e 6c 7c', stock=drawn, scores=[90, 0])
    state.apply(0, DrawStock())
    events = state.apply(0, Close(card(down)))
    assert kinds(events) == ['close', 'count', 'game_over'] and events[0].data['chinchon']
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.reason == 'chinchon'
    assert state.current_seat is None and state.view(1).phase == 'over'
    assert state.view(1).last_result.chinchon and state.view(1).legal_actions == ()
    refused(state, 0, DrawStock(), 'game_over')


def test_count_uses_layoffs_on_the_closer_melds():
    state = position('5o 6o 7o 12c 12e 12b 2b', '3o 4o 10o 12o 1c 5e 6c', stock='11b')
    state.apply(0, DrawStock())
    state.apply(0, Close(card('11b')))
    other = state.view(0).last_result.seats[1]
    assert other.layoffs == ((0, tuple(parse_spanish('3o 4o'))), (0, (card('10o'),)),
                             (1, (card('12o'),)))
    assert other.loose == tuple(parse_spanish('1c 5e 6c')) and other.points == 12


def test_closer_shows_the_arrangement_leaving_the_others_most_points():
    state = position('3o 4o 5o 6o 6c 6e 6b', '7o 1c 1e 12b 11b 10e 2c', stock='4b')
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    result = state.view(1).last_result
    assert tuple(parse_spanish('6o 6c 6e 6b')) in result.closer_melds   # no place for 7o
    assert result.added == (-10, 41) and result.seats[1].layoffs == ()


# stock exhaustion ------------------------------------------------------------

def test_empty_stock_reshuffles_the_discard_pile_but_its_top():
    state = position('1o 2o 3o 12c 12e 7b 6c', '1c 2c 3c 4c 5c 6c 7c', stock='',
                     discard='10o 11o 10e 11e 5o', reshuffles=1)
    events = state.apply(0, DrawStock())
    assert kinds(events) == ['reshuffle', 'draw_stock']
    assert events[0].data == {'number': 2, 'stock_size': 4}
    view = state.view(0)
    assert (view.discard_top, view.discard_size, view.stock_size, view.reshuffles) == (card('5o'), 1, 3, 2)
    assert view.hand[-1] in parse_spanish('10o 11o 10e 11e')


def test_third_exhaustion_voids_the_hand_and_the_same_dealer_deals_again():
    state = position('1o 2o 3o 12c 12e 7b 6c', '1c 2c 3c 4c 5c 6c 7c', stock='', dealer=1,
                     discard='10o 11o 10e 11e 5o', reshuffles=2, scores=[30, 40])
    events = state.apply(0, DrawStock())
    assert kinds(events) == ['void_hand', 'deal']
    view = state.view(0)
    assert view.dealer == 1 and view.hand_number == 2 and view.scores == (30, 40)
    assert view.last_result.void and view.last_result.added == (0, 0)
    assert view.current_seat == 0 and view.reshuffles == 0 and view.hand_sizes == (7, 7)
    # every hand is shown at the count, as its best arrangement, though nobody scores
    ana, luis = view.last_result.seats
    assert (ana.seat, ana.melds, ana.points) == (0, (tuple(parse_spanish('1o 2o 3o')),), 10 + 10 + 7 + 6)
    assert set(ana.loose) == set(parse_spanish('12c 12e 7b 6c'))
    assert (luis.loose, luis.points) == ((), 0)
    assert sorted(card for meld in luis.melds for card in meld) == sorted(parse_spanish('1c 2c 3c 4c 5c 6c 7c'))


def test_the_discard_top_can_still_be_taken_when_the_stock_is_empty():
    state = position('1o 2o 3o 12c 12e 7b 6c', '1c 2c 3c 4c 5c 6c 7c', stock='',
                     discard='10o 5o', reshuffles=2)
    assert DrawDiscard() in state.legal_actions(0)
    state.apply(0, DrawDiscard())
    assert state.view(0).phase == 'discard'


# the end of a hand -------------------------------------------------------------

CLOSER = '10o 11o 12o 7c 7e 7b 2b'      # draws 4b and puts it down: 2 points


def test_exactly_the_limit_stays_in_over_the_limit_is_eliminated():
    state = position(CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o', stock='4b',
                     scores=[0, 95, 96], dealer=1)
    state.apply(0, DrawStock())
    events = state.apply(0, Close(card('4b')))
    assert 'eliminated' in kinds(events)
    view = state.view(1)
    assert view.last_result.totals == (2, 100, 101) and view.last_result.eliminated == (2,)
    assert view.eliminated == (False, False, True) and view.hand_sizes == (7, 7, 0)
    # dealer rotation skips the eliminated seat 2: after dealer 1 comes 0
    assert view.dealer == 0 and view.current_seat == 1


def test_short_game_limit_is_fifty():
    state = position(CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o', stock='4b',
                     scores=[0, 45, 46], rules=Rules(limit=50))
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    assert state.view(0).eliminated == (False, False, True)


def test_dealer_passes_to_the_next_seat_still_in():
    state = position(CLOSER, '', '1e 2e 3e 4c 5c 6c 5o', '1c 2c 3c 4e 5e 6e 5b', stock='4b',
                     out=[False, True, False, False], dealer=0)
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    view = state.view(0)
    assert view.dealer == 2 and view.current_seat == 3 and view.hand_sizes == (7, 0, 7, 7)


def test_last_player_still_in_wins():
    state = position(CLOSER, '1c 2c 3c 4e 5e 6e 5b', stock='4b', scores=[50, 98])
    state.apply(0, DrawStock())
    events = state.apply(0, Close(card('4b')))
    assert kinds(events)[-1] == 'game_over'
    assert state.outcome().winners == (0,) and state.outcome().reason == 'last_standing'


def test_all_remaining_over_in_the_same_hand_fewest_points_win_and_share():
    state = position(CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o', stock='4b',
                     scores=[99, 96, 98])
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    assert state.outcome().scores == (101, 101, 103)
    assert state.outcome().winners == (0, 1) and state.outcome().reason == 'fewest_points'


# buy-back ----------------------------------------------------------------------

BUYBACK = Rules(buyback=True)


def test_buyback_comes_back_on_the_highest_score_still_in():
    state = position(CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o', stock='4b',
                     scores=[10, 40, 98], rules=BUYBACK)
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    view = state.view(2)
    assert view.phase == 'buyback' and view.current_seat == 2 and view.buyback_score == 45
    assert view.legal_actions == (BuyBack(True), BuyBack(False))
    assert state.view(0).legal_actions == () and state.view(0).buyback_score is None
    refused(state, 0, DrawStock(), 'not_your_turn')
    refused(state, 2, DrawStock(), 'answer_buyback')
    events = state.apply(2, BuyBack(True))
    assert kinds(events) == ['buyback', 'deal'] and events[0].data == {'accept': True, 'score': 45}
    view = state.view(2)
    assert view.scores == (12, 45, 45) and view.eliminated == (False, False, False)
    assert view.buyback_used == (False, False, True) and view.last_result.bought_back == (2,)
    assert view.hand_sizes == (7, 7, 7)


def test_buyback_declined_stays_out():
    state = position(CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o', stock='4b',
                     scores=[10, 40, 98], rules=BUYBACK)
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    state.apply(2, BuyBack(False))
    assert state.view(0).eliminated == (False, False, True) and state.view(0).hand_sizes == (7, 7, 0)


def test_buyback_only_once_per_game():
    state = position(CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o', stock='4b',
                     scores=[10, 40, 98], rules=BUYBACK, used=[False, False, True])
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    assert state.view(0).phase == 'draw' and state.view(0).eliminated == (False, False, True)


def test_buyback_needs_two_players_still_in():
    state = position(CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o', stock='4b',
                     scores=[10, 98, 98], rules=BUYBACK)
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    assert state.outcome().winners == (0,)


def test_buyback_is_off_by_default():
    state = position(CLOSER, '1c 2c 3c 4e 5e 6e 5b', '1e 2e 3e 4c 5c 6c 5o', stock='4b',
                     scores=[10, 40, 98])
    state.apply(0, DrawStock())
    state.apply(0, Close(card('4b')))
    assert state.view(0).phase == 'draw'
    refused(state, state.current_seat, BuyBack(True), 'no_buyback_offer')


# refusals and views --------------------------------------------------------------

def test_illegal_actions_are_refused_with_a_code_and_change_nothing():
    state = position('1o 2o 3o 12c 12e 7b 6c', '1c 2c 3c 4c 5c 6c 7c', stock='11e 10b', discard='5b')
    refused(state, 1, DrawStock(), 'not_your_turn')
    refused(state, 5, DrawStock(), 'no_such_seat')
    refused(state, 0, Discard(card('7b')), 'draw_first')
    refused(state, 0, Close(card('7b')), 'draw_first')
    refused(state, 0, 'draw', 'unknown_action')
    state.apply(0, DrawStock())
    refused(state, 0, DrawDiscard(), 'already_drawn')
    refused(state, 0, Discard(card('1c')), 'card_not_in_hand')
    refused(state, 0, BuyBack(True), 'no_buyback_offer')


def test_views_show_nothing_hidden():
    state = new_game(Rules(), 3, random.Random(2))
    for seat in range(3):
        view = state.view(seat)
        shown = json.dumps(view.to_dict())
        visible = [c for c in spanish_deck() if f'"{c}"' in shown]
        # neither the other hands nor the stock: only this hand and the face-up card
        assert sorted(visible) == sorted(view.hand + (view.discard_top,))


def test_view_carries_the_public_table():
    state = position('1o 2o 3o 12c 12e 7b 6c', '1c 2c 3c 4c 5c 6c 7c', stock='11e 10b', discard='5b')
    view = state.view(1)
    assert view.seats == 2 and view.hand_sizes == (7, 7) and view.discard_top == card('5b')
    assert view.hand == tuple(parse_spanish('1c 2c 3c 4c 5c 6c 7c')) and view.rules == Rules()
    assert view.stock_size == 2 and view.legal_actions == () and view.outcome is None
    assert json.loads(json.dumps(view.to_dict()))['discard_top'] == '5b'
