"""The coach at Chinchón: your draws (the stock or the discard pile's top) and your discards,
closing among them, each weighed against every other choice you had.

Every option is played in the same sampled worlds (the hard player's ``sample_world``: the unseen
cards dealt into the other hands and the stock, avoiding hands that would not have let go of what
a seat passed or threw), then everybody plays on greedily until the hand ends (``rollout``). The
result is in points for you: what the others score on average minus what you score, with the
bonuses the hard player uses for somebody going over the limit and for a chinchón (which ends the
game). Unlike the hard player, the coach weighs every option, not only near calls.
"""
from __future__ import annotations

import random
from typing import Any

from app.ai.chinchon.knowledge import read_view
from app.ai.chinchon.search import Solver, copy_world, rollout, sample_world
from app.engine.chinchon import Close, Discard, DrawDiscard, DrawStock
from app.coach.core import Decision, option_index

WORLDS = 48   # every option in each: the paired differences' standard error is about 1 point
DRAWS = (DrawStock, DrawDiscard)
ENDS = (Discard, Close)


class ChinchonEvaluator:
    game_id = 'chinchon'

    def __init__(self, worlds: int = WORLDS) -> None:
        self.worlds = worlds

    def decisions(self, replay: Any, seat: int) -> list[Decision]:
        found = []
        for index in range(1, len(replay.steps)):
            step = replay.steps[index]
            if step.seat != seat or not isinstance(step.action, DRAWS + ENDS):
                continue
            view = replay.steps[index - 1].views[seat]
            kinds = DRAWS if isinstance(step.action, DRAWS) else ENDS
            options = [(action,) for action in view.legal_actions if isinstance(action, kinds)]
            if len(options) < 2:
                continue
            options, chosen = option_index(options, (step.action,))
            kind = 'draw' if kinds is DRAWS else 'close' if any(isinstance(o[0], Close) for o in options) else 'discard'
            found.append(Decision(index, 1, kind, view, options, chosen))
        return found

    def values(self, decision: Decision, rng: random.Random) -> list[list[float]]:
        kn = read_view(decision.view)
        solver = Solver(by_room=False)
        results = []
        for _ in range(self.worlds):
            world = sample_world(kn, rng)
            seed = rng.getrandbits(32)
            results.append([rollout(copy_world(world), kn, action, random.Random(seed), solver)
                            for (action,) in decision.options])
        return results


EVALUATOR = ChinchonEvaluator()
