"""The coach in Ronda Robada: a decision is a whole turn's plan, valued in the same seeded worlds;
stopping a run before a big pile it could take is an error, taking it is the best; the plans in
words, in both languages."""
from __future__ import annotations

import pickle
import random

import pytest

from app.bench.replay import self_play
from app.engine.cards import spanish_card
from app.engine.ronda_robada import Confirm, Drop, StartRun, TakeLoose, TakePile, from_position
from app.games import GAMES_BY_ID
from app.i18n import language_scope
from app.coach import evaluate, judge
from app.coach.ronda_robada import EVALUATOR, plan_decision
from app.review.replay import replay_hand
from components.review.coach_ronda_robada import option_words

THRESHOLDS = GAMES_BY_ID['ronda-robada'].coach_thresholds


def card(text: str):
    return spanish_card(text)


def turns(steps, seat: int) -> list[tuple[int, int]]:
    """The seat's turns as blocks of its consecutive steps (the next turn is always another seat's)."""
    found, index = [], 1
    while index < len(steps):
        end = index
        while end + 1 < len(steps) and steps[end + 1].seat == steps[index].seat:
            end += 1
        if steps[index].seat == seat:
            found.append((index, end - index + 1))
        index = end + 1
    return found


def has_a_choice(view) -> bool:
    """A run to start, or cards of two ranks to drop (suits change nothing in this game)."""
    legal = view.legal_actions
    return any(type(action) is StartRun for action in legal) or len({action.card.rank for action in legal}) > 1


@pytest.mark.parametrize('seats, seed', [(2, 4), (3, 5)])
def test_the_decisions_are_the_seats_turns_with_a_choice(seats: int, seed: int) -> None:
    _, source, _ = self_play('ronda-robada', seats, seed, 'normal')
    hand = replay_hand(source, 1)
    assert GAMES_BY_ID['ronda-robada'].coach is EVALUATOR
    for seat in range(seats):
        found = EVALUATOR.decisions(hand, seat)
        every = turns(hand.steps, seat)
        wanted = [(step, length) for step, length in every if has_a_choice(hand.steps[step - 1].views[seat])]
        assert 0 < len(wanted) < len(every)    # the last card of a hand often leaves no choice
        assert [(decision.step, decision.length) for decision in found] == wanted
        for decision in found:
            played = tuple(step.action for step in hand.steps[decision.step:decision.step + decision.length])
            assert decision.options[decision.chosen] == played and decision.kind == 'plan'
            assert decision.view == hand.steps[decision.step - 1].views[seat]
            assert len(set(decision.options)) == len(decision.options) >= 2
        assert pickle.loads(pickle.dumps(found)) == found    # they are valued in a worker process


def big_pile_position():
    """Seat 0 can run 5-6 and go on into Lucía's 19-card pile (a 7 on top); seat 1 is Lucía."""
    state = from_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 6e 3b', piles=['', '7b'], pile_sizes=[0, 19],
                          last_runner=1, seed=3)
    return state.view(0)


STOPPED = (StartRun(card('5o'), card('5c')), TakeLoose(card('6e')), Confirm())
ON_INTO_THE_PILE = (StartRun(card('5o'), card('5c')), TakeLoose(card('6e')), TakePile(1), Confirm())


def test_the_same_decision_and_seed_give_the_same_values() -> None:
    decision = plan_decision(big_pile_position(), STOPPED, 1)
    results = EVALUATOR.values(decision, random.Random(11))
    assert EVALUATOR.values(pickle.loads(pickle.dumps(decision)), random.Random(11)) == results
    assert EVALUATOR.values(decision, random.Random(12)) != results     # the worlds do come from the seed
    assert evaluate(EVALUATOR, decision, 11) == judge(decision, results)


def test_stopping_a_run_before_a_big_pile_is_an_error_and_going_on_is_best() -> None:
    view = big_pile_position()
    stopped = plan_decision(view, STOPPED, 1)
    judged = evaluate(EVALUATOR, stopped, 21)
    assert judged.label(THRESHOLDS) in ('mistake', 'blunder')
    assert judged.cost > 100    # 19 cards of about 6 points, that Lucía keeps instead of losing to you
    assert stopped.options[judged.best] == ON_INTO_THE_PILE

    went_on = plan_decision(view, ON_INTO_THE_PILE, 1)
    assert set(went_on.options) == set(stopped.options)
    assert evaluate(EVALUATOR, went_on, 21).label(THRESHOLDS) == 'best'


@pytest.mark.parametrize('language, stopped, went_on, dropped, no_names', [
    ('es', 'jugar el cinco de oros y parar la escalera en el seis', 'llevarte el montón de Lucía con el cinco de oros',
     'soltar el siete de copas en el centro', 'llevarte el montón del jugador 2 con el cinco de oros'),
    ('en', 'playing the five of coins and stopping the run at the six', "taking Lucía's pile with the five of coins",
     'dropping the seven of cups in the centre', "taking player 2's pile with the five of coins"),
])
def test_the_plans_in_words(language: str, stopped: str, went_on: str, dropped: str, no_names: str) -> None:
    view, names = big_pile_position(), [None, 'Lucía']
    with language_scope(language):
        assert option_words(STOPPED, view, names) == stopped
        assert option_words(ON_INTO_THE_PILE, view, names) == went_on
        assert option_words((Drop(card('7c')),), view, names) == dropped
        assert option_words(ON_INTO_THE_PILE, view) == no_names


@pytest.mark.parametrize('language, words', [
    ('es', ['jugar el siete de oros y llevarte la escalera hasta el rey',
            'jugar el siete de oros y parar la escalera en la sota',
            'llevarte tu propio montón con el dos de bastos y parar en el cuatro',
            'llevarte tu propio montón y el montón del jugador 2 con el dos de bastos',
            'llevarte el rey de oros con el rey de bastos']),
    ('en', ['playing the seven of coins and taking the run up to the king',
            'playing the seven of coins and stopping the run at the jack',
            'taking your own pile with the two of clubs and stopping at the four',
            "taking your own pile and player 2's pile with the two of clubs",
            'taking the king of coins with the king of clubs']),
])
def test_a_run_says_what_it_took_and_where_it_stopped(language: str, words: list[str]) -> None:
    state = from_position(hands={0: '7o 2b 12b'}, seats=2, loose='7c 10o 11o 2e 3c 12o', piles=['2c 4c', '5b'],
                          pile_sizes=[6, 5], dealer=0, last_runner=1, seed=3)
    view = state.view(0)
    seven, two = StartRun(card('7o'), card('7c')), StartRun(card('2b'), card('2e'))
    plans = [(seven, TakeLoose(card('10o')), TakeLoose(card('11o')), TakeLoose(card('12o')), Confirm()),
             (seven, TakeLoose(card('10o')), Confirm()),
             (two, TakeLoose(card('3c')), TakePile(0), Confirm()),
             (two, TakeLoose(card('3c')), TakePile(0), TakePile(1), Confirm()),
             (StartRun(card('12b'), card('12o')), Confirm())]
    with language_scope(language):
        assert [option_words(plan, view) for plan in plans] == words
