"""The coach: every decision of your seat in a finished hand, weighed against its alternatives.

``decisions`` finds them in a replayed hand; ``evaluate`` values one in a worker process (plain
picklable arguments, deterministic per hand: its worlds come from ``decision_seed``). Each game's
evaluator lives in its own module here (``EVALUATOR``) and is its plugin's ``coach`` in app.games,
with the thresholds of its labels; the words for its options are in components/review. Nothing
here knows the games: it asks the game a replay carries, or the evaluator it is handed.
"""
from __future__ import annotations

import random
from typing import Any

from app.coach.core import (BEST, LABELS, Decision, Evaluator, Judgement, Summary, Thresholds, decision_seed,
                                   judge, summarise)

__all__ = ['BEST', 'LABELS', 'Decision', 'Evaluator', 'Judgement', 'Summary', 'Thresholds', 'decision_seed',
           'decisions', 'evaluate', 'summarise']


def decisions(replay: Any, seat: int) -> list[Decision]:
    return replay.game.coach.decisions(replay, seat)


def evaluate(evaluator: Evaluator, decision: Decision, seed: int) -> Judgement:
    """One decision judged by its game's ``evaluator``: its options valued in the same worlds, drawn from ``seed``."""
    return judge(decision, evaluator.values(decision, random.Random(seed)))
