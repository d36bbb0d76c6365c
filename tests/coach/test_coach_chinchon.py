"""The coach at Chinchón: which decisions it weighs in a replayed hand, that it weighs them the same
every time, and that it calls a plain error one, in words, in both languages."""
from __future__ import annotations

import pytest

from app.bench.replay import self_play
from app.engine.cards import spanish_card
from app.engine.chinchon import Close, Discard, DrawDiscard, DrawStock, Rules, from_position
from app.games import GAMES_BY_ID
from app.i18n import language_scope
from app.coach import Decision, decision_seed, decisions, evaluate
from app.coach.chinchon import EVALUATOR
from app.review.replay import replay_hand
from components.review.coach import judgement_words

THRESHOLDS = GAMES_BY_ID['chinchon'].coach_thresholds


@pytest.fixture(scope='module')
def hand():
    _, source, _ = self_play('chinchon', 2, seed=3, level='normal')
    return replay_hand(source, 1)


def test_every_draw_and_discard_with_a_choice_is_a_decision(hand) -> None:
    found = decisions(hand, 0)
    mine = [index for index, step in enumerate(hand.steps) if step.seat == 0
            and isinstance(step.action, (DrawStock, DrawDiscard, Discard, Close))]
    assert [decision.step for decision in found] == [index for index in mine
                                                     if len(hand.steps[index - 1].views[0].legal_actions) > 1]
    assert found, 'a hand has decisions'
    for decision in found:
        assert decision.options[decision.chosen] == (hand.steps[decision.step].action,)
        assert decision.view == hand.steps[decision.step - 1].views[0]
        assert set(option for (option,) in decision.options) <= set(decision.view.legal_actions)
        assert decision.kind in ('draw', 'discard', 'close')
    discards = [decision for decision in found if decision.kind != 'draw']
    assert all(len(decision.options) >= 7 for decision in discards)   # every card of the eight (one may stay)


def test_the_same_decision_is_weighed_the_same_every_time(hand) -> None:
    decision = decisions(hand, 0)[1]
    seed = decision_seed(hand.seed, 0, decision.step)
    assert evaluate(EVALUATOR, decision, seed) == evaluate(EVALUATOR, decision, seed)
    assert evaluate(EVALUATOR, decision, seed).values != evaluate(EVALUATOR, decision, seed + 1).values


def position(hand_text: str, chosen) -> Decision:
    """Your turn to discard, eight cards in hand, at a fresh hand of two."""
    state = from_position(Rules(), hands={0: hand_text}, seats=2, discard='7b', phase='discard', seed=5)
    view = state.view(0)
    options = tuple((action,) for action in view.legal_actions if isinstance(action, (Discard, Close)))
    return Decision(1, 1, 'close', view, options, options.index((chosen,)))


def test_throwing_a_melded_card_instead_of_a_loose_king_is_an_error_said_in_words() -> None:
    # 1-2-3 of coins and 5-6-7 of cups meld; the king of swords and the four of clubs are loose
    decision = position('1o 2o 3o 5c 6c 7c 12e 4b', Discard(spanish_card('2o')))
    judged = evaluate(EVALUATOR, decision, seed=11)
    assert judged.label(THRESHOLDS) in ('mistake', 'blunder')
    best = decision.options[judged.best][0]
    assert best.card == spanish_card('12e')   # the king goes (closing with it, or playing on)
    with language_scope('es'):
        spanish = judgement_words('chinchon', judged, decision.view)
    with language_scope('en'):
        english = judgement_words('chinchon', judged, decision.view)
    assert spanish.startswith('Tirar el dos de oros te costó unos ') and 'rey de espadas' in spanish
    assert english.startswith('Throwing the two of coins cost you about ') and 'king of swords' in english


def test_closing_when_the_others_hold_a_lot_is_the_best() -> None:
    decision = position('1o 2o 3o 5c 6c 7c 12e 4b', Close(spanish_card('12e')))
    judged = evaluate(EVALUATOR, decision, seed=11)
    assert judged.label(THRESHOLDS) == 'best'
    with language_scope('es'):
        assert judgement_words('chinchon', judged, decision.view) == 'Cerrar tirando el rey de espadas: la mejor opción.'
    assert EVALUATOR.worlds == judged.worlds
