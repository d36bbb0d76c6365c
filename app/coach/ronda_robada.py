"""The coach's evaluator for Ronda Robada: a decision is one turn's whole plan.

A turn is a ``Drop``, or a ``StartRun`` followed by any steps (``TakeLoose``/``TakePile``) and a
``Confirm``. Nothing hidden comes to light during a turn: a pile taken holds only cards that were
face up once (its history is public) and the stock is dealt only once the turn is over. So every
step of a turn is taken knowing exactly what was known when it began, and judging the turn as one
plan chosen from the view at its start is honest: stopping a run early is weighed against going
on, and against every other card the turn could have played.

Suits never change anything in this game (points and runs go by rank), so plans that differ only
in the suits of their cards are one option; the plan played keeps its own cards, for the words.

The options are the normal player's best few plans (``CANDIDATES``) and the one played. Each is
played in the same ``WORLDS`` worlds (hidden hands and stock drawn to fit the view, as the hard
player draws them), then everybody plays on with the normal policy to the seat's ``HORIZON``-th
next turn; its value is the seat's score difference against the others' mean then, plus the
normal value of the turn it faces (the hard player's ``rollout``).
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import fields
from typing import Any

from app.ai.ronda_robada import obs_from_view, rollout, sample_world, score_plans
from app.engine.cards import Card
from app.engine.ronda_robada import GAME_ID, Action, View
from app.coach.core import Decision, option_index

CANDIDATES = 6   # the normal player's best plans weighed, besides the one played
WORLDS = 48      # worlds per decision: its whole budget, never seconds (p95 about 0.2 s)
HORIZON = 2      # the seat's turns each rollout plays on to, as the hard player's
KIND = 'plan'

_FIRST, _LAST = frozenset({'start_run', 'drop'}), frozenset({'confirm', 'drop'})


def _alike(plan: Sequence[Action]) -> tuple[Any, ...]:
    """A plan as far as it matters: its cards by rank."""
    return tuple((action.kind, *(value.rank if isinstance(value, Card) else value
                                 for value in (getattr(action, field.name) for field in fields(action))))
                 for action in plan)


def plan_decision(view: View, played: tuple[Action, ...], step: int) -> Decision | None:
    """The decision of the turn that starts at ``view`` (its seat on turn, no run begun) and was
    played as ``played``, at ``step`` in the replay; None when the turn had a single plan."""
    chosen = _alike(played)
    options: dict[tuple[Any, ...], tuple[Action, ...]] = {}
    for plan in score_plans(obs_from_view(view)):
        options.setdefault(_alike(plan.actions), plan.actions)
    if len(options) < 2:
        return None
    if chosen in options:
        options[chosen] = played   # in its own cards, where the normal player ranks it
    unique, index = option_index(list(options.values())[:CANDIDATES], played)
    return Decision(step, len(played), KIND, view, unique, index)


def _turns(steps: Sequence[Any], seat: int) -> Iterator[tuple[int, int]]:
    """(index of the first step, steps spanned) of each of ``seat``'s turns."""
    start = None
    for index, step in enumerate(steps[1:], 1):
        if step.seat != seat:
            continue
        if step.action.kind in _FIRST:
            start = index
        if step.action.kind in _LAST and start is not None:
            yield start, index - start + 1
            start = None


class RondaRobadaEvaluator:
    game_id = GAME_ID

    def decisions(self, replay: Any, seat: int) -> list[Decision]:
        found = []
        for start, length in _turns(replay.steps, seat):
            played = tuple(step.action for step in replay.steps[start:start + length])
            decision = plan_decision(replay.steps[start - 1].views[seat], played, start)
            if decision is not None:
                found.append(decision)
        return found

    def values(self, decision: Decision, rng: random.Random) -> list[list[float]]:
        seat = decision.view.seat
        results = []
        for _ in range(WORLDS):
            world = sample_world(decision.view, rng)
            results.append([rollout(world, seat, option, HORIZON) for option in decision.options])
        return results


EVALUATOR = RondaRobadaEvaluator()
