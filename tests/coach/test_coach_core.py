"""The coach's judgement of a decision, whatever the game: labels by cost, ties, seeds, summaries."""
from __future__ import annotations

import pytest

from app.engine.chinchon import Discard, DrawDiscard, DrawStock
from app.engine.cards import spanish_card
from app.games import GAMES, GAMES_BY_ID
from app.coach import Decision, Judgement, decision_seed, judge, summarise
from app.coach.core import option_index

CHINCHON = GAMES_BY_ID['chinchon'].coach_thresholds


def decision(chosen: int = 0) -> Decision:
    return Decision(step=3, length=1, kind='draw', view=None, options=((DrawStock(),), (DrawDiscard(),)), chosen=chosen)


def steady(values: list[float], worlds: int = 24) -> list[list[float]]:
    """The same results in every world: no noise."""
    return [list(values) for _ in range(worlds)]


@pytest.mark.parametrize(('cost', 'label'), [(0.4, None), (3.0, 'inaccuracy'), (6.9, 'inaccuracy'),
                                              (7.0, 'mistake'), (15.0, 'blunder'), (40.0, 'blunder')])
def test_a_choice_is_labelled_by_the_points_it_cost(cost: float, label: str | None) -> None:
    judged = judge(decision(chosen=0), steady([-cost, 0.0]))
    assert judged.best == 1 and judged.cost == pytest.approx(cost)
    assert judged.label(CHINCHON) == label


def test_the_best_choice_and_a_tie_are_best() -> None:
    assert judge(decision(chosen=1), steady([-5.0, 2.0])).label(CHINCHON) == 'best'
    tie = judge(decision(chosen=1), steady([2.0, 2.0]))   # as good as any other: never labelled
    assert tie.best == 1 and tie.cost == 0 and tie.label(CHINCHON) == 'best'


def test_a_cost_within_the_noise_of_the_worlds_is_not_labelled() -> None:
    # the king thrown is 10 points worse on average, but the worlds disagree wildly: 2 standard errors
    noisy = [[0.0, 60.0], [0.0, -40.0], [0.0, 50.0], [0.0, -30.0]]
    judged = judge(decision(chosen=0), noisy)
    assert judged.best == 1 and judged.cost == pytest.approx(10.0) and judged.error == pytest.approx(26.141, abs=1e-3)
    assert judged.label(CHINCHON) is None
    clear = judge(decision(chosen=0), [[0.0, 11.0], [0.0, 9.0], [0.0, 10.5], [0.0, 9.5]])
    assert clear.label(CHINCHON) == 'mistake'


def test_a_judgement_survives_json() -> None:
    judged = judge(Decision(5, 1, 'discard', None, ((Discard(spanish_card('12c')),), (Discard(spanish_card('1o')),)), 1),
                   [[1.0, -3.0], [1.5, -4.0]])
    assert Judgement.from_json(judged.to_json()) == judged
    assert judged.to_json()['options'] == [[{'kind': 'discard', 'card': '12c'}], [{'kind': 'discard', 'card': '1o'}]]


def test_options_lose_repeats_and_keep_the_choice() -> None:
    options, chosen = option_index([(DrawStock(),), (DrawStock(),)], (DrawDiscard(),))
    assert options == ((DrawStock(),), (DrawDiscard(),)) and chosen == 1


def test_a_decisions_seed_depends_on_the_hand_seat_and_step_only() -> None:
    assert decision_seed('abc', 0, 4) == decision_seed('abc', 0, 4) == 451309175
    assert len({decision_seed('abc', 0, 4), decision_seed('abc', 1, 4), decision_seed('abc', 0, 5),
                decision_seed('abd', 0, 4)}) == 4


def test_accuracy_is_the_share_with_no_label() -> None:
    judged = [judge(decision(), steady([0.0, 0.1])), judge(decision(), steady([-20.0, 0.0])),
              judge(decision(), steady([-4.0, 0.0])), judge(decision(), steady([0.0, -1.0]))]
    summary = summarise(CHINCHON, judged)
    assert summary.decisions == 4 and summary.labelled == {'inaccuracy': 1, 'mistake': 0, 'blunder': 1}
    assert summary.accuracy == 50.0 and summary.points_lost == pytest.approx(24.1)
    assert summarise(CHINCHON, []).accuracy is None


def test_points_lost_count_only_what_the_worlds_are_sure_of() -> None:
    noisy = judge(decision(chosen=0), [[0.0, 60.0], [0.0, -40.0], [0.0, 50.0], [0.0, -30.0]])   # 10 ± 26
    clear = judge(decision(chosen=0), steady([-4.0, 0.0]))
    assert noisy.cost == pytest.approx(10.0) and noisy.sure_cost == 0.0
    assert summarise(CHINCHON, [noisy, clear]).points_lost == pytest.approx(4.0)
    assert {game.id for game in GAMES if game.coach is not None and game.coach_thresholds is not None} == \
        {'chinchon', 'ronda-robada', 'continental'}
