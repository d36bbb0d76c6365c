"""What the coach says of one decision, and the interface every game's evaluator meets.

An evaluator finds the decisions of one seat in a replayed hand (``Decision``: where it is, what
kind, the seat's view just before it, the options weighed with the one chosen among them) and
values every option in the same sampled worlds (common random numbers): the mean result for that
seat in points, higher being better, so that the difference between two options is fair even
with few worlds. A decision is judged (``Judgement``) by what the choice cost against the best
option, labelled by the game's thresholds (its plugin's ``coach_thresholds`` in app.games,
calibrated on seeded self-play by level: app.bench.coach).

Everything here is pure and picklable: the values are computed in a worker process, and a
judgement is kept as JSON (on the Table for a guest's review, in the database for an account's).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from app.engine.actions_json import action_to_json

LABELS = ('inaccuracy', 'mistake', 'blunder')   # worst last
BEST = 'best'
Z = 2.0   # a choice is labelled only when its cost is this many standard errors clear of the noise


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Points lost from which a choice is an inaccuracy, a mistake, a blunder."""
    inaccuracy: float
    mistake: float
    blunder: float

    def label(self, cost: float) -> str | None:
        for name, limit in (('blunder', self.blunder), ('mistake', self.mistake), ('inaccuracy', self.inaccuracy)):
            if cost >= limit:
                return name
        return None


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision of the reviewed seat: ``step`` is the index in ``HandReplay.steps`` of its first
    action and ``length`` the steps it spans (a Ronda Robada turn's plan may take several);
    ``view`` is the seat's view just before it; ``options`` are sequences of engine actions, the
    chosen one among them at ``chosen``."""
    step: int
    length: int
    kind: str
    view: Any
    options: tuple[tuple[Any, ...], ...]
    chosen: int


class Evaluator(Protocol):
    game_id: str

    def decisions(self, replay: Any, seat: int) -> list[Decision]:
        """Every decision of ``seat`` in the replayed hand that had more than one option, in order."""

    def values(self, decision: Decision, rng: random.Random) -> list[list[float]]:
        """The result for the seat of each option (points, higher is better) in each world drawn
        from ``rng``: ``results[world][option]``, every option played in the same worlds."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """A decision judged: each option's value, the chosen and the best, what the choice cost (with
    the standard error of that difference, world by world) and its label: ``BEST`` when it was the
    best, None for a choice within the game's margin or within the noise of the worlds played
    (``Z`` standard errors), else one of ``LABELS``."""
    step: int
    length: int
    kind: str
    options: tuple[tuple[dict[str, Any], ...], ...]   # the actions' JSON forms
    values: tuple[float, ...]
    chosen: int
    best: int
    worlds: int
    error: float = 0.0

    @property
    def cost(self) -> float:
        return max(0.0, self.values[self.best] - self.values[self.chosen])

    @property
    def sure_cost(self) -> float:
        """The cost, or 0 where the worlds played cannot tell the two choices apart (``Z`` standard
        errors of their difference)."""
        return self.cost if self.cost >= Z * self.error else 0.0

    def label(self, thresholds: Thresholds) -> str | None:
        """Its label by the game's ``thresholds``."""
        if self.best == self.chosen:
            return BEST
        if not self.sure_cost:   # the worlds played cannot tell the two apart
            return None
        return thresholds.label(self.cost)

    def to_json(self) -> dict[str, Any]:
        return {'step': self.step, 'length': self.length, 'kind': self.kind,
                'options': [list(option) for option in self.options],
                'values': [round(value, 3) for value in self.values], 'chosen': self.chosen, 'best': self.best,
                'worlds': self.worlds, 'error': round(self.error, 3)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> 'Judgement':
        return cls(int(data['step']), int(data['length']), str(data['kind']),
                   tuple(tuple(dict(action) for action in option) for option in data['options']),
                   tuple(float(value) for value in data['values']), int(data['chosen']), int(data['best']),
                   int(data['worlds']), float(data.get('error', 0.0)))


def judge(decision: Decision, results: list[list[float]]) -> Judgement:
    """The judgement of a decision from its options' results world by world: the best is the
    highest mean (the chosen one wins a tie, so a choice as good as any other is never labelled)."""
    values = paired_means(results)
    best = decision.chosen
    for index, value in enumerate(values):
        if value > values[best] + 1e-9:
            best = index
    gaps = [world[best] - world[decision.chosen] for world in results]
    return Judgement(decision.step, decision.length, decision.kind,
                     tuple(tuple(action_to_json(action) for action in option) for option in decision.options),
                     tuple(float(value) for value in values), decision.chosen, best, len(results), standard_error(gaps))


def standard_error(values: list[float]) -> float:
    """Of the mean of ``values``."""
    count = len(values)
    if count < 2:
        return 0.0
    mean = sum(values) / count
    return (sum((value - mean) ** 2 for value in values) / (count - 1) / count) ** 0.5


def option_index(options: list[tuple[Any, ...]], chosen: tuple[Any, ...]) -> tuple[tuple[tuple[Any, ...], ...], int]:
    """The options without repeats, the chosen one added when missing, and its index."""
    unique = list(dict.fromkeys(options))
    if chosen not in unique:
        unique.append(chosen)
    return tuple(unique), unique.index(chosen)


def paired_means(rollouts: list[list[float]]) -> list[float]:
    """Mean per option of results ``rollouts[world][option]`` (every option in every world)."""
    worlds = len(rollouts)
    return [sum(world[k] for world in rollouts) / worlds for k in range(len(rollouts[0]))] if worlds else []


@dataclass(frozen=True, slots=True)
class Summary:
    """A seat's decisions over a hand or a game: how many, the share with no label (accuracy) and
    the points its choices lost, with each label's count. Only the losses the worlds are sure of
    count (``sure_cost``): the best of several noisy means lies above its true value, so a near
    call would otherwise cost a little whoever made it, and a hand of good choices would still
    read as points thrown away."""
    decisions: int
    labelled: dict[str, int]
    points_lost: float

    @property
    def accuracy(self) -> float | None:
        if not self.decisions:
            return None
        return 100.0 * (self.decisions - sum(self.labelled.values())) / self.decisions


def summarise(thresholds: Thresholds, judgements: list[Judgement]) -> Summary:
    labelled = {name: 0 for name in LABELS}
    for judgement in judgements:
        label = judgement.label(thresholds)
        if label in labelled:
            labelled[label] += 1
    return Summary(len(judgements), labelled, sum(judgement.sure_cost for judgement in judgements))


def decision_seed(hand_seed: str, seat: int, step: int) -> int:
    """The seed of a decision's worlds: the same hand, seat and step give the same worlds, so a
    judgement is the same every time it is computed (no Python hash: it differs per process)."""
    value = 2166136261
    for byte in f'{hand_seed}|{seat}|{step}'.encode():
        value = ((value ^ byte) * 16777619) & 0xFFFFFFFF
    return value
