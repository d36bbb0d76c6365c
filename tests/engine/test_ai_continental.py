"""Continental computer players: legal choices only, from views only, with sensible habits."""
import random

import pytest

from app.ai.continental import make_bot
from app.engine import continental as C
from app.engine.cards import french_card, parse_french, seeds_from
from app.engine.protocol import Event


@pytest.mark.parametrize('levels, seats, seed', [
    (('easy', 'normal', 'hard'), 3, 1), (('hard', 'normal'), 2, 2), (('easy', 'hard', 'normal', 'easy'), 4, 3),
])
def test_bots_only_choose_legal_actions(levels, seats, seed):
    state = C.new_game(C.Rules(robo_de_contra=seed != 2), seats, random.Random(seed))
    bots = [make_bot(levels[seat], random.Random(seat)) for seat in range(seats)]
    for _ in range(3000):
        if state.outcome() is not None or state.view(0).hand_number > 3:
            break
        seat = state.current_seat
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        state.apply(seat, action)
    assert state.view(0).hand_number > 3 or state.outcome() is not None


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        make_bot('expert', random.Random(0))


def _position(hands, hand_number=1, table=(), down=(False, False), phase='play', turn=0, offer=None,
              discard='5c', stock='2c 3c 4c 6c 7c 8c'):
    raw = C.new_game(C.Rules(), 2, random.Random(0)).to_dict()
    raw.update(hands=[h.split() for h in hands], hand_number=hand_number, melds=[m.to_dict() for m in table],
               down=list(down), phase=phase, turn=turn, offer=offer, discard=discard.split(),
               stock=stock.split()[::-1], seeds=raw['seeds'] * hand_number)
    return C.GameState.from_dict(raw)


@pytest.mark.parametrize('level', ['easy', 'normal', 'hard'])
def test_every_level_goes_down_and_out_for_minus_20(level):
    state = _position(['7s 7h 7d Kc Kd JK 2c', '3s 4s'])
    bot = make_bot(level, random.Random(0))
    for _ in range(2):
        view = state.view(0)
        state.apply(0, bot.choose(view))
    assert state.view(0).hand_scores == ((-20, 7),)


@pytest.mark.parametrize('level', ['normal', 'hard'])
def test_down_players_lay_off_before_discarding(level):
    table = [C.TableMeld(0, 1, 'run', tuple(parse_french('5h 6h 7h 8h')), 5)]
    state = _position(['9h Kd 2c', '3s 4s'], table=table, down=(True, True))
    action = make_bot(level, random.Random(0)).choose(state.view(0))
    assert action == C.LayOff(french_card('9h'), 0, 9)


@pytest.mark.parametrize('level', ['easy', 'normal', 'hard'])
@pytest.mark.parametrize('down', [False, True])
def test_a_joker_is_never_thrown_while_a_natural_card_can_be(level, down, monkeypatch):
    """Even when every natural card looks dangerous to throw (the next seat took their neighbours
    all hand long), a joker is kept: thrown, the next seat takes it, and it went round for ever."""
    from app.ai import continental as bots

    monkeypatch.setattr(bots.ContinentalBot, '_danger', staticmethod(lambda card, view: 0.0 if card.is_joker else 60.0))
    state = _position(['JK 5c 4s As 6s 3s Ac 5s 5s', '4s 5d 5d 3s Ad Ad 4d 2c'], hand_number=3, down=(down, False))
    for seed in range(20):
        action = make_bot(level, random.Random(seed)).choose(state.view(0))
        assert isinstance(action, C.Discard) and not action.card.is_joker, (level, seed, action)


@pytest.mark.parametrize('level', ['normal', 'hard'])
def test_a_useless_card_is_not_robbed_out_of_turn(level):
    offer = {'card': 'Kd', 'discarder': None, 'order': [1, 0], 'passed': [1]}   # the turned-up card
    state = _position(['2s 5h 9c 4d 7s Jh', '3s 4s 8c 10d As Qh'], phase='offer', turn=1, offer=offer,
                      discard='Kd')
    view = state.view(0)
    assert view.current_seat == 0 and view.legal_actions == (C.TakeOffer(), C.PassOffer())
    assert make_bot(level, random.Random(0)).choose(view) == C.PassOffer()


def _hand_six_offer(card, hard_discarded=()):
    """Hand 6 (a set and two runs): seat 0 holds both runs and a joker and lacks one card for the
    set; ``card`` is on offer to it, on turn. ``hard_discarded``: cards seat 0 threw earlier."""
    offer = {'card': card, 'discarder': 1, 'order': [0], 'passed': []}
    state = _position(['JK 6s 7s 8s 9s 4h 5h 6h 7h Qh Jc', '5s 4d 4d 5d Qd Kd 4c 5c Qc Qc'], hand_number=6,
                      phase='offer', offer=offer, discard=card, stock='2c 3c 4c 6c 7c 8c 9c 10c 2d 3d 6d 7d')
    for seat, text in [(0, discarded) for discarded in hard_discarded] + [(1, card)]:
        state.events.append(Event('discard', seat, {'card': text}))
    return state


def test_hard_never_takes_back_its_own_discard_when_it_does_not_shorten_the_hand():
    state = _hand_six_offer('3d', hard_discarded=['3d'])
    view = state.view(0)
    assert C.TakeOffer() in view.legal_actions
    assert make_bot('hard', random.Random(0)).choose(view) == C.PassOffer()


def test_hard_does_not_take_a_card_it_would_throw_straight_back():
    view = _hand_six_offer('Kd').view(0)
    assert make_bot('hard', random.Random(0)).choose(view) == C.PassOffer()


def test_hard_still_takes_the_card_that_completes_its_set():
    view = _hand_six_offer('Qd').view(0)
    assert make_bot('hard', random.Random(0)).choose(view) == C.TakeOffer()


def test_hard_counts_a_card_passed_back_and_forth_once():
    state = _position(['2s 5h 9c 4d 7s Jh', '3s 4s 8c 10d As Qh'])
    for kind, seat in [('discard', 1), ('take_offer', 0), ('discard', 0), ('take_offer', 1), ('discard', 1)]:
        state.events.append(Event(kind, seat, {'card': '3d'}))
    seen = make_bot('hard', random.Random(0))._seen(state.view(0))
    assert seen[french_card('3d')] == 1


def plays_out(state, bots, most: int) -> bool:
    """The computers play the game on: True once it is over within ``most`` actions."""
    for _ in range(most):
        if state.outcome() is not None:
            return True
        seat = state.current_seat
        state.apply(seat, bots[seat].choose(state.view(seat)))
    return state.outcome() is not None


def test_hard_and_normal_finish_a_deal_where_they_used_to_pass_cards_back_and_forth():
    # arena seed 2, deal 3: the old hard bot and normal took each other's discards for ever in hand 6
    deal_seed = 6660334802794327005
    state = C.new_game(C.Rules(), 2, random.Random(deal_seed))
    bots = [make_bot('hard', random.Random(f'{deal_seed}:0')), make_bot('normal', random.Random(f'{deal_seed}:1'))]
    assert plays_out(state, bots, 3000)


@pytest.mark.parametrize('seed', [1, 3, 4])
def test_two_normal_players_finish_the_games_where_they_passed_a_three_back_and_forth(seed):
    # the coach bench's self-play: hand 6 went on for ever, each taking the other's three of
    # spades and throwing it straight back, the stock never drawn
    state = C.new_game(C.Rules(), 2, random.Random(seed), hand_seeds=seeds_from(random.Random(seed + 1)))
    bots = [make_bot('normal', random.Random(seed * 10 + seat)) for seat in range(2)]
    assert plays_out(state, bots, 6000)


def test_a_cards_danger_counts_each_card_taken_once_and_stays_bounded():
    """A long hand offers the same cards round and round: the danger of throwing a card grows with
    the different cards the next seat took, not with how often, and never outweighs a good link
    (unbounded, it made the normal players throw what they needed and a hand run for thousands of
    moves)."""
    from app.ai.continental import MAX_DANGER

    danger = make_bot('normal', random.Random(0))._danger
    state = _position(['7s 8s 9c 2d', '3s 4s'])
    raw = state.to_dict()
    taken = [{'kind': 'take_offer', 'seat': 1, 'data': {'card': '6s', 'out_of_turn': False, 'penalty': False}}]
    raw['events'] = raw.get('events', []) + taken * 40
    once = C.GameState.from_dict({**raw, 'events': raw.get('events', [])[:-39]})
    many = C.GameState.from_dict(raw)
    card = french_card('7s')
    assert danger(card, many.view(0)) == danger(card, once.view(0)) == 1.0
    # eight different neighbours taken: the danger is capped
    raw['events'] = raw['events'][:-40] + [
        {'kind': 'take_offer', 'seat': 1, 'data': {'card': code, 'out_of_turn': False, 'penalty': False}}
        for code in ('5s', '6s', '8s', '9s', '7h', '7d', '7c', '6s')]
    assert danger(card, C.GameState.from_dict(raw).view(0)) == MAX_DANGER
