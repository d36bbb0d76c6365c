"""Continental computer players: legal choices only, from views only, with sensible habits."""
import random

import pytest

from app.ai.continental import make_bot
from app.engine import continental as C
from app.engine.cards import french_card, parse_french


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
    raw.update(hands=[h.split() for h in hands], hand_number=hand_number, table=[m.to_dict() for m in table],
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


@pytest.mark.parametrize('level', ['normal', 'hard'])
def test_a_useless_card_is_not_robbed_out_of_turn(level):
    offer = {'card': 'Kd', 'discarder': None, 'order': [1, 0], 'passed': [1]}   # the turned-up card
    state = _position(['2s 5h 9c 4d 7s Jh', '3s 4s 8c 10d As Qh'], phase='offer', turn=1, offer=offer,
                      discard='Kd')
    view = state.view(0)
    assert view.current_seat == 0 and view.legal_actions == (C.TakeOffer(), C.PassOffer())
    assert make_bot(level, random.Random(0)).choose(view) == C.PassOffer()
