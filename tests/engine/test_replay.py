"""The replay of a hand is exact: seeded self-play of every game, each action kept as a table
keeps it (app.tables.moves.record), replays hand by hand to the points each hand scored and,
at the last hand, to the game's own outcome; nothing of the deal that follows a hand (made from
no real seed) appears in its steps."""
from __future__ import annotations

import pytest

from app.bench.replay import self_play
from app.review.replay import CannotReplay, GameMoves, replay_hand


@pytest.mark.parametrize('game_id, seats, seed', [('chinchon', 2, 3), ('chinchon', 4, 8), ('ronda-robada', 3, 5),
                                                  ('continental', 2, 11)])
def test_every_hand_replays_to_its_points_and_the_last_to_the_outcome(game_id: str, seats: int, seed: int) -> None:
    state, source, scored = self_play(game_id, seats, seed)
    assert source.hands() == len(scored) >= 1
    for number in range(1, source.hands() + 1):
        hand = replay_hand(source, number)
        assert hand.points == scored[number - 1]
        ended = [index for index, step in enumerate(hand.steps) if step.over]
        assert ended and all(hand.steps[index].over for index in range(ended[0], len(hand.steps)))
        assert not any(event['kind'] == 'deal' for step in hand.steps[1:] for event in step.events)
    assert hand.steps[-1].views[0].outcome == state.outcome()


def test_a_hand_not_finished_or_moves_that_do_not_fit_are_refused() -> None:
    _, source, _ = self_play('ronda-robada', 2, 1)
    for number in (0, 2):
        with pytest.raises(CannotReplay):
            replay_hand(source, number)
    tampered = GameMoves(source.game_id, source.rules, source.seats, source.dealer, source.seeds,
                         (source.moves[0][1:],))
    with pytest.raises(CannotReplay):
        replay_hand(tampered, 1)
