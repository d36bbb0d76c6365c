"""The coach: every decision of your seat in a finished hand, weighed against its alternatives.

``decisions`` finds them in a replayed hand; ``evaluate`` values one in a worker process (plain
picklable arguments, deterministic per hand: its worlds come from ``decision_seed``); each game's
evaluator lives in its own module here (``EVALUATOR``), and the words for its options in
components/review.
"""
from __future__ import annotations

import importlib
import random
from typing import Any

from app.review.coach.core import (BEST, LABELS, THRESHOLDS, Decision, Evaluator, Judgement, Summary,
                                   decision_seed, judge, summarise)

__all__ = ['BEST', 'LABELS', 'THRESHOLDS', 'Decision', 'Evaluator', 'Judgement', 'Summary', 'decision_seed',
           'decisions', 'evaluate', 'evaluator', 'summarise']


def evaluator(game_id: str) -> Evaluator:
    return importlib.import_module(f'app.review.coach.{game_id.replace("-", "_")}').EVALUATOR


def decisions(replay: Any, seat: int) -> list[Decision]:
    return evaluator(replay.game.id).decisions(replay, seat)


def evaluate(game_id: str, decision: Decision, seed: int) -> Judgement:
    """One decision judged: its options valued in the same worlds, drawn from ``seed``."""
    return judge(decision, evaluator(game_id).values(decision, random.Random(seed)))
