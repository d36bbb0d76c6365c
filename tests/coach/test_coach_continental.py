"""The Continental coach: the seat's decisions in a replayed hand, worlds that fit its view, and
what prepared positions say of a joker thrown and a contract completed."""
from __future__ import annotations

import pickle
import random

import pytest

from app.bench.replay import self_play
from app.engine import continental
from app.engine.cards import JOKER, french_card
from app.engine.continental import Discard, GoDown, LayOff, PassOffer, Rules, TakeOffer
from app.games import GAMES_BY_ID
from app.i18n import language_scope
from app.coach import Decision, judge
from app.coach.continental import EVALUATOR, MAX_DISCARDS, ContinentalEvaluator, Knowledge, decision_options
from app.coach.core import option_index
from app.review.replay import replay_hand
from components.review.coach_continental import option_words

THRESHOLDS = GAMES_BY_ID['continental'].coach_thresholds
CHEAP = ContinentalEvaluator(rollouts=6, min_worlds=3)


@pytest.fixture(scope='module')
def hand():
    _, source, _ = self_play('continental', 3, 5, 'normal')
    return replay_hand(source, 1)   # offers, go-downs, lay-offs and discards, in 66 steps


def expected_kind(view) -> str:
    kinds = {type(action) for action in view.legal_actions}
    return ('offer' if view.phase == 'offer' else 'down' if GoDown in kinds else 'layoff' if LayOff in kinds
            else 'discard')


@pytest.mark.parametrize('seat', [0, 1, 2])
def test_the_decisions_are_the_seats_steps_with_a_choice_in_order(hand, seat):
    found = EVALUATOR.decisions(hand, seat)
    with_choice = [index for index, step in enumerate(hand.steps)
                   if index and step.seat == seat and len(hand.steps[index - 1].views[seat].legal_actions) > 1]
    assert [decision.step for decision in found] == with_choice
    for decision in found:
        before = hand.steps[decision.step - 1].views[seat]
        assert decision.view == before and decision.length == 1
        assert decision.options[decision.chosen] == (hand.steps[decision.step].action,)
        assert len(set(decision.options)) == len(decision.options) >= 2
        assert decision.kind == expected_kind(before)
        if decision.kind == 'discard':
            distinct = {action for action in before.legal_actions if isinstance(action, Discard)}
            assert len(decision.options) == min(len(distinct), MAX_DISCARDS)
        if decision.kind in ('down', 'layoff'):   # "not yet" / "not laying off": the turn's discard
            assert any(isinstance(option[0], Discard) for option in decision.options)
    assert {decision.kind for decision in EVALUATOR.decisions(hand, 0) + EVALUATOR.decisions(hand, 1)
            + EVALUATOR.decisions(hand, 2)} == {'offer', 'down', 'layoff', 'discard'}


def test_every_world_fits_what_the_seat_sees(hand):
    """Its own hand, the table, the pile, the sizes and the legal actions are those of the view;
    a card a rival was seen to take stays in that rival's hand."""
    rng = random.Random(7)
    for seat in range(3):
        for decision in EVALUATOR.decisions(hand, seat):
            view = decision.view
            known = Knowledge.of(view)
            state = known.deal(rng).state()
            again = state.view(seat)
            for field in ('hand', 'hand_sizes', 'melds', 'down', 'discard_top', 'discard_size', 'stock_size',
                          'phase', 'current_seat', 'offer', 'legal_actions'):
                assert getattr(again, field) == getattr(view, field), field
            assert sum(len(h) for h in state.hands) + view.stock_size + view.discard_size + sum(
                len(meld.cards) for meld in view.melds) == 108
            for other, cards in enumerate(known.held):
                assert not cards - type(cards)(state.hands[other])


def test_the_same_decision_and_seed_give_the_same_values_even_in_another_process(hand):
    decision = next(d for d in EVALUATOR.decisions(hand, 0) if d.kind == 'discard')
    first = CHEAP.values(decision, random.Random(11))
    shipped = pickle.loads(pickle.dumps(decision))   # what a worker process receives
    assert CHEAP.values(shipped, random.Random(11)) == first
    assert len(first) == 3 and all(len(world) == len(decision.options) for world in first)
    assert CHEAP.values(decision, random.Random(12)) != first


def joker_position():
    """Hand 1 (two sets), seat 0 has drawn: 7 7 and 9 9 with the joker make one set and want a
    card for the other; the two of diamonds and the king of clubs link with nothing."""
    return continental.from_position(Rules(), hands={0: '7s 7h 9c 9h JK 2d Kc'}, seats=3, phase='play',
                                     turn=0, discard='4c 5d', seed=21)


def decision_at(state, played) -> Decision:
    """The decision the coach finds when seat 0 plays ``played`` here."""
    view = state.view(0)
    kind, options = decision_options(view, played)
    options, chosen = option_index(options, (played,))
    return Decision(step=1, length=1, kind=kind, view=view, options=options, chosen=chosen)


def test_throwing_the_joker_when_a_natural_card_could_go_is_a_mistake():
    decision = decision_at(joker_position(), Discard(JOKER))
    judged = judge(decision, EVALUATOR.values(decision, random.Random(5)))
    assert judged.label(THRESHOLDS) in ('mistake', 'blunder')
    best = decision.options[judged.best][0]
    assert isinstance(best, Discard) and not best.card.is_joker
    assert best.card in (french_card('Kc'), french_card('2d'))   # a card that links with nothing


def contract_on_offer(passed=()):
    """Seat 0 is on turn with 7 7 7 and 9 9 and is offered the nine of diamonds: taking it makes
    both sets, and with the two left it goes down and out at once (-20)."""
    return continental.from_position(Rules(), hands={0: '7s 7h 7d 9c 9h 2d'}, seats=3, phase='offer', turn=0,
                                     discard='4c 9d', offer={'passed': list(passed)}, seed=8)


def test_taking_the_card_that_completes_the_contract_is_best():
    decision = decision_at(contract_on_offer(), TakeOffer())
    assert decision.options == ((TakeOffer(),), (PassOffer(),))
    results = EVALUATOR.values(decision, random.Random(3))
    judged = judge(decision, results)
    assert judged.label(THRESHOLDS) == 'best'
    assert judged.values[0] - judged.values[1] > 25     # out at once for -20, against a hand still to make
    passing = judge(Decision(1, 1, 'offer', decision.view, decision.options, 1), results)
    assert passing.label(THRESHOLDS) == 'blunder'


@pytest.mark.parametrize(('language', 'joker', 'king', 'keep', 'rob', 'passing'), [
    ('es', 'tirar el comodín', 'tirar el rey de tréboles', 'quedarte el nueve de diamantes',
     'robar el nueve de diamantes de contra', 'pasar'),
    ('en', 'throwing the joker', 'throwing the king of clubs', 'keeping the nine of diamonds',
     'robbing the nine of diamonds out of turn', 'passing'),
])
def test_the_options_in_words(language, joker, king, keep, rob, passing):
    view = joker_position().view(0)
    offered = contract_on_offer().view(0)
    with language_scope(language):
        assert option_words((Discard(JOKER),), view) == joker
        assert option_words((Discard(french_card('Kc')),), view) == king
        assert option_words((TakeOffer(),), offered) == keep
        assert option_words((PassOffer(),), offered) == passing
        # seat 0 passed: seat 1, not on turn, could rob it (with a penalty card)
        assert option_words((TakeOffer(),), contract_on_offer(passed=[0]).view(1)) == rob


@pytest.mark.parametrize(('language', 'down', 'other_way', 'wait', 'queen', 'lay_off', 'no_lay_off'), [
    ('es', 'bajarte ya', 'bajarte ya guardando el comodín', 'esperar para bajarte y tirar el nueve de diamantes',
     'quedarte la reina de picas', 'colocar el siete de tréboles', 'tirar el rey de tréboles sin colocar nada'),
    ('en', 'going down now', 'going down now keeping the joker',
     'waiting to go down and throwing the nine of diamonds', 'keeping the queen of spades',
     'laying off the seven of clubs', 'throwing the king of clubs without laying anything off'),
])
def test_going_down_laying_off_and_a_feminine_card_in_words(language, down, other_way, wait, queen, lay_off,
                                                            no_lay_off):
    ready = continental.from_position(Rules(), hands={0: '7s 7h 7d 9c 9h 9d JK'}, seats=3, phase='play',
                                      turn=0, seed=2).view(0)
    solvers = next(action for action in ready.legal_actions if isinstance(action, GoDown))
    keeping_joker = continental.go_down('7s 7h 7d', '9c 9h 9d')   # the solver keeps a seven
    queen_offered = continental.from_position(Rules(), hands={0: '7s 7h 9c 9h 2d Kc'}, seats=3, phase='offer',
                                              turn=0, discard='4c Qs', seed=2).view(0)
    down_seat = continental.from_position(Rules(), hands=['7c Kc', '2s 3s 4s 5s 8h 9h', '2c 3c 4c 5c 6c 8d'],
                                          phase='play', turn=0, melds=[(0, '7s 7h 7d'), (0, '9c 9h 9d')],
                                          seed=2).view(0)
    with language_scope(language):
        assert option_words((solvers,), ready) == down
        assert option_words((keeping_joker,), ready) == other_way
        assert option_words((Discard(french_card('9d')),), ready) == wait
        assert option_words((TakeOffer(),), queen_offered) == queen
        assert option_words((LayOff(french_card('7c'), 0),), down_seat) == lay_off
        assert option_words((Discard(french_card('Kc')),), down_seat) == no_lay_off
