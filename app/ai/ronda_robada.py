"""Computer players for Ronda Robada. They see one seat's ``View`` and nothing else.

A turn is planned whole (start, each step, where to stop) and played one action per call:
- easy: the plan with the most immediate points, blurred by noise, sometimes a random one;
- normal: immediate gain (as a score difference against the others) minus what the next
  players can expect to take from the table it leaves, the new top of its own pile included,
  plus a little for its own next turn;
- hard: the best few normal plans, each tried in the same hidden hands and stock orders sampled to
  fit the view, played on by everybody with the normal policy for two rounds (``horizon``) and
  judged by the score difference plus the normal value of the turn it then faces; the plan with
  the best average wins. ``worlds`` caps the sampling: the budget is counted in worlds, never in
  seconds, so the same view and seed give the same plan on any machine. Its worlds
  (``sample_world``) and rollouts (``rollout``) also serve the coach (app/coach).

Pile contents are rebuilt from the public events (every card in a pile was once face up), and the
cards never seen are exactly the other hands plus the stock.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Iterator

from app.engine.cards import Card, spanish_card, spanish_deck
from app.engine.protocol import LEVELS
from app.engine.ronda_robada import (RANK_ORDER, Action, Confirm, Drop, GameState, Rules, StartRun, TakeLoose,
                                     TakePile, View, next_rank, step_options)

_DECK = spanish_deck()
_FUTURE_WEIGHT = 0.3
_LATER_OPPONENT_WEIGHT = 0.6


@dataclass(slots=True)
class Obs:
    """What a player knows at its decision, from a view or from a world the bot imagines."""

    seat: int
    hand: list[Card]
    hand_sizes: list[int]
    loose: list[Card]
    tops: list[Card | None]
    points: list[int]           # points in each pile on the table
    unseen: dict[int, int]      # rank -> cards of that rank in other hands or the stock
    unseen_total: int
    stock: int
    run: tuple[int, bool, Card, int] | None = None   # rank, closed, played card, points collected

    @property
    def seats(self) -> int:
        return len(self.points)


def _rank(text: str) -> int:
    return int(text[:-1])


def replay_piles(view: View) -> tuple[list[list[str]], int, set[str]]:
    """Pile contents, points collected by the run in progress, and every card seen face up."""
    piles: list[list[str]] = [[] for _ in range(view.seats)]
    run: list[str] = []
    seen: set[str] = set()
    for event in view.events:
        data = event.data
        kind = event.kind
        if kind == 'deal':
            seen.update(data['loose'])
        elif kind == 'start_run':
            run = [data['loose'], data['card']]
            seen.update(run)
        elif kind == 'take_loose':
            run.insert(-1, data['card'])
            seen.add(data['card'])
        elif kind == 'take_pile':
            run[-1:-1] = piles[data['owner']]
            piles[data['owner']] = []
        elif kind == 'confirm':
            piles[event.seat].extend(run)
            run = []
        elif kind == 'drop':
            seen.add(data['card'])
        elif kind == 'sweep' and data['to'] is not None:
            piles[data['to']][:0] = data['cards']
    return piles, sum(_rank(card) for card in run), seen


_AVERAGE_POINTS = 244 / 40


def _checked_piles(view: View, piles: list[list[str]]) -> list[list[Card]]:
    """The replayed piles; where they do not fit the view (a position set up without its history),
    the visible top alone, so a bot still plays something sensible instead of failing."""
    checked = []
    for pile, top, size in zip(piles, view.pile_tops, view.pile_sizes):
        if len(pile) == size and (top is None or pile[-1] == str(top)):
            checked.append([spanish_card(text) for text in pile])
        else:
            checked.append([] if top is None else [top])
    return checked


def _pile_points(view: View, piles: list[list[Card]]) -> list[int]:
    return [round(sum(card.rank for card in pile) + (size - len(pile)) * _AVERAGE_POINTS)
            for pile, size in zip(piles, view.pile_sizes)]


def _known(view: View) -> tuple[list[list[Card]], int, set[str]]:
    """The piles as far as the view tells them, the run's points so far, and every card it has
    shown: the hand, the loose cards and the piles count as seen also in a position set up
    without its history (in a real game the events have shown them all already)."""
    replayed, run_points, seen = replay_piles(view)
    piles = _checked_piles(view, replayed)
    seen.update(str(card) for card in (*view.hand, *view.loose))
    seen.update(str(card) for pile in piles for card in pile)
    return piles, run_points, seen


def obs_from_view(view: View) -> Obs:
    piles, run_points, seen = _known(view)
    unseen: dict[int, int] = {}
    for card in _DECK:
        if str(card) not in seen:
            unseen[card.rank] = unseen.get(card.rank, 0) + 1
    run = None if view.run is None else (view.run.rank, view.run.closed, view.run.played, run_points)
    return Obs(view.seat, list(view.hand), list(view.hand_sizes), list(view.loose), list(view.pile_tops),
               _pile_points(view, piles), unseen, sum(unseen.values()),
               view.stock_size, run)


def obs_from_world(state: GameState, seat: int) -> Obs:
    """For a world the bot imagined (never the real game): everything not in view is known there."""
    unseen: dict[int, int] = {}
    hidden = [card for other, hand in enumerate(state.hands) if other != seat for card in hand] + state.stock
    for card in hidden:
        unseen[card.rank] = unseen.get(card.rank, 0) + 1
    return Obs(seat, list(state.hands[seat]), [len(h) for h in state.hands], list(state.loose),
               state.pile_tops(), [sum(card.rank for card in pile) for pile in state.piles], unseen,
               len(hidden), len(state.stock))


# -- turn plans --------------------------------------------------------------------------

@dataclass(slots=True)
class Plan:
    actions: tuple[Action, ...]
    played: Card
    loose: list[Card]           # the loose cards after the turn
    tops: list[Card | None]
    points: list[int]
    gain: float                 # change of the player's score difference
    value: float = 0.0

    @property
    def is_drop(self) -> bool:
        return type(self.actions[0]) is Drop


def _diff(points: list[int], seat: int) -> float:
    return points[seat] - (sum(points) - points[seat]) / (len(points) - 1)


_Step = tuple[tuple[Action, ...], list[Card], list[Card | None], tuple[int, ...]]


def _steps(rank: int, closed: bool, loose: list[Card], tops: list[Card | None], actions: tuple[Action, ...],
           taken: tuple[int, ...]) -> Iterator[_Step]:
    """Every way to go on from a run at ``rank`` (stopping anywhere); equal-rank loose cards are alike."""
    yield actions, loose, tops, taken
    cards, owners = step_options(rank, closed, loose, tops)
    if cards:
        card = cards[0]
        rest = list(loose)
        rest.remove(card)
        yield from _steps(card.rank, card.rank < rank, rest, tops, actions + (TakeLoose(card),), taken)
    for owner in owners:
        top = tops[owner]
        rest_tops = list(tops)
        rest_tops[owner] = None
        yield from _steps(top.rank, top.rank < rank, loose, rest_tops, actions + (TakePile(owner),), taken + (owner,))


def _runs(obs: Obs, seat: int, played: Card, rank: int, closed: bool, loose: list[Card],
          collected: int, first: tuple[Action, ...]) -> Iterator[Plan]:
    before = _diff(obs.points, seat)
    loose_points = sum(card.rank for card in loose)
    for actions, rest, tops, taken in _steps(rank, closed, loose, obs.tops, first, ()):
        points = list(obs.points)
        gained = collected + loose_points - sum(card.rank for card in rest)
        for owner in taken:
            gained += points[owner]
            points[owner] = 0
        points[seat] += gained
        tops = list(tops)
        tops[seat] = played
        yield Plan(actions + (Confirm(),), played, rest, tops, points, _diff(points, seat) - before)


def plans(obs: Obs) -> list[Plan]:
    """Every distinct way to play this turn (or to finish the run in progress) as whole plans."""
    if obs.run is not None:
        rank, closed, played, collected = obs.run
        return list(_runs(obs, obs.seat, played, rank, closed, obs.loose, collected, ()))
    found: list[Plan] = []
    for card in obs.hand:
        matched = {loose.rank for loose in obs.loose}
        if card.rank in matched:
            loose_card = next(loose for loose in obs.loose if loose.rank == card.rank)
            rest = [loose for loose in obs.loose if loose != loose_card]
            found.extend(_runs(obs, obs.seat, card, card.rank, False, rest, 2 * card.rank,
                               (StartRun(card, loose_card),)))
        found.append(Plan((Drop(card),), card, obs.loose + [card], list(obs.tops), list(obs.points), 0.0))
    return found


# -- how much the next players can take ---------------------------------------------------

def _holds(obs: Obs, rank: int, hand_size: int) -> float:
    """Chance that a hand of ``hand_size`` unseen cards holds at least one of ``rank``."""
    left, total, miss = obs.unseen.get(rank, 0), obs.unseen_total, 1.0
    for i in range(min(hand_size, total)):
        miss *= max(0, total - left - i) / (total - i)
    return 1.0 - miss


_NEXT_RANK = {rank: next_rank(rank, False) for rank in RANK_ORDER}


def _chain(rank: int, counts: dict[int, int], tops: list[int], points: list[int], runner: int, me: int,
           collected: int, stolen: int, lost: int) -> tuple[float, float]:
    """The runner's best way on from ``rank`` as (runner's gain, our change), both as score differences.

    ``counts`` are loose cards per rank, ``tops`` pile top ranks (0: none); every step adds points,
    so only the branches between piles need comparing. With k others, a player's difference moves by
    (own change)(1 + 1/k) - (everybody's change)/k, and everybody's change is just ``collected``."""
    wanted = None if rank < 0 else _NEXT_RANK[rank]
    if wanted is not None:
        closing = -1 if wanted < rank else wanted       # -1: the closing 1, nothing follows
        if counts.get(wanted):
            counts[wanted] -= 1
            best = _chain(closing, counts, tops, points, runner, me, collected + wanted, stolen, lost)
            counts[wanted] += 1
            return best
        best = None
        for owner, top in enumerate(tops):
            if top == wanted:
                tops[owner] = 0
                option = _chain(closing, counts, tops, points, runner, me, collected,
                                stolen + (points[owner] if owner != runner else 0),
                                lost + (points[owner] if owner == me != runner else 0))
                tops[owner] = top
                if best is None or option > best:
                    best = option
        if best is not None:
            return best
    share = 1.0 / (len(points) - 1)
    gain = (collected + stolen) * (1 + share) - collected * share
    ours = gain if runner == me else -lost * (1 + share) - collected * share
    return gain, ours


def _best_runs(obs: Obs, runner: int, loose: list[Card], tops: list[Card | None], points: list[int],
               hand: list[Card] | None) -> list[tuple[float, float, int]]:
    """Per start rank the runner could play: (runner's best gain, that run's effect on ``obs.seat``, rank)."""
    counts: dict[int, int] = {}
    for card in loose:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    top_ranks = [0 if top is None else top.rank for top in tops]
    found = []
    for rank in list(counts):
        if hand is not None and all(card.rank != rank for card in hand):
            continue
        counts[rank] -= 1
        gain, ours = _chain(rank, counts, top_ranks, points, runner, obs.seat, 2 * rank, 0, 0)
        counts[rank] += 1
        found.append((gain, ours, rank))
    return found


def _threat(obs: Obs, plan: Plan) -> float:
    """Expected change of our score difference from the next opponents' best runs."""
    total, weight = 0.0, 1.0
    for step in range(1, obs.seats):
        runner = (obs.seat + step) % obs.seats
        size = obs.hand_sizes[runner] or (3 if obs.stock else 0)
        runs = sorted(_best_runs(obs, runner, plan.loose, plan.tops, plan.points, None), reverse=True)
        still = 1.0
        for gain, effect, rank in runs:
            chance = _holds(obs, rank, size)
            total += weight * still * chance * effect
            still *= 1.0 - chance
        weight *= _LATER_OPPONENT_WEIGHT
    return total


def _future(obs: Obs, plan: Plan) -> float:
    hand = list(obs.hand)
    if plan.played in hand:
        hand.remove(plan.played)
    runs = _best_runs(obs, obs.seat, plan.loose, plan.tops, plan.points, hand)
    return max((gain for gain, _, _ in runs), default=0.0)


def score_plans(obs: Obs) -> list[Plan]:
    """The normal policy's judgement, best plan first."""
    found = plans(obs)
    for plan in found:
        plan.value = plan.gain + _threat(obs, plan) + _FUTURE_WEIGHT * _future(obs, plan)
        if plan.is_drop:
            plan.value -= 0.01 * plan.played.rank      # among equal drops, give away the least
    found.sort(key=lambda plan: plan.value, reverse=True)
    return found


# -- imagined worlds: the hard player's lookahead, and the coach's -------------------------

@dataclass(frozen=True, slots=True)
class World:
    """One way the cards a seat has not seen could lie, fitting its view: every hand, the stock
    front first, the piles bottom to top."""
    seats: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    loose: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    last_runner: int | None


def sample_world(view: View, rng: random.Random) -> World:
    """The other hands and the stock dealt at random from the cards never seen; so are a pile's
    lower cards when the view cannot tell them (a position set up without its history)."""
    piles, _, seen = _known(view)
    hidden = [card for card in _DECK if str(card) not in seen]
    rng.shuffle(hidden)
    hands = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(tuple(view.hand))
        else:
            hands.append(tuple(hidden[:size]))
            hidden = hidden[size:]
    filled = []
    for pile, size in zip(piles, view.pile_sizes):
        under = size - len(pile)
        filled.append(tuple(hidden[:under]) + tuple(pile))
        hidden = hidden[under:]
    return World(view.seats, tuple(hands), tuple(hidden), tuple(view.loose), tuple(filled), view.last_runner)


def rollout(world: World, seat: int, actions: tuple[Action, ...], horizon: int) -> float:
    """``seat`` plays ``actions`` (a whole turn) in ``world``, then everybody the normal policy
    until ``seat``'s ``horizon``-th next turn or the end: the score difference then (``_diff``),
    plus the normal value of the turn it faces when the game goes on."""
    state = GameState(Rules(), world.seats, '0', stock=list(world.stock), hands=[list(h) for h in world.hands],
                      loose=list(world.loose), piles=[list(p) for p in world.piles], rng=random.Random(0),
                      current=seat, last_runner=world.last_runner)
    for action in actions:
        state.apply(seat, action)
    turns_left = horizon
    while state.current_seat is not None:
        mover = state.current_seat
        if mover == seat:
            turns_left -= 1
            if turns_left == 0:
                break
        for action in score_plans(obs_from_world(state, mover))[0].actions:
            state.apply(mover, action)
    if state.outcome() is not None:
        return _diff(list(state.outcome().scores), seat)
    obs = obs_from_world(state, seat)
    return _diff(obs.points, seat) + max(0.0, score_plans(obs)[0].value)


# -- the three players --------------------------------------------------------------------

class _PlanningBot(ABC):
    """Plays a planned turn one action per call; replans whenever the view departs from the plan."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._plan: tuple[Action, ...] = ()
        self._mark: tuple[int, int] | None = None

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        mark = (view.seat, len(view.events))
        if self._mark == mark and self._plan and self._plan[0] in legal:
            action, self._plan = self._plan[0], self._plan[1:]
        elif len(legal) == 1:
            action, self._plan = legal[0], ()
        else:
            planned = self.plan(view)
            action, self._plan = planned[0], planned[1:]
            if action not in legal:         # never expected; a bot must not break the game
                action, self._plan = legal[0], ()
        self._mark = (view.seat, len(view.events) + 1)
        return action

    @abstractmethod
    def plan(self, view: View) -> tuple[Action, ...]:
        """The steps of this turn, from the view alone."""


class EasyBot(_PlanningBot):
    noise = 4.0
    wander = 0.15

    def plan(self, view: View) -> tuple[Action, ...]:
        found = plans(obs_from_view(view))
        if self.rng.random() < self.wander:
            return self.rng.choice(found).actions
        return max(found, key=lambda plan: plan.gain - 0.1 * plan.played.rank * plan.is_drop
                   + self.rng.gauss(0.0, self.noise)).actions


class NormalBot(_PlanningBot):
    def plan(self, view: View) -> tuple[Action, ...]:
        return score_plans(obs_from_view(view))[0].actions


class HardBot(_PlanningBot):
    """Determinised lookahead: same sampled worlds for every candidate, so the comparison is fair.
    Options: ``worlds`` (worlds per plan, its whole budget), ``candidates`` (normal's best plans
    weighed), ``horizon`` (our turns each rollout plays on to)."""

    def __init__(self, rng: random.Random, worlds: int = 16, candidates: int = 6, horizon: int = 2) -> None:
        super().__init__(rng)
        self.worlds, self.candidates, self.horizon = worlds, candidates, horizon

    def plan(self, view: View) -> tuple[Action, ...]:
        obs = obs_from_view(view)
        ranked = score_plans(obs)
        shortlist = ranked[:self.candidates]
        if view.run is not None or len(shortlist) == 1:
            return ranked[0].actions
        totals = [0.0] * len(shortlist)
        for _ in range(self.worlds):
            world = sample_world(view, self.rng)
            for index, plan in enumerate(shortlist):
                totals[index] += rollout(world, view.seat, plan.actions, self.horizon)
        return shortlist[max(range(len(shortlist)), key=lambda index: totals[index])].actions


_LEVELS = {'easy': EasyBot, 'normal': NormalBot, 'hard': HardBot}
assert set(_LEVELS) == set(LEVELS)


def make_bot(level: str, rng: random.Random, **options: float) -> _PlanningBot:
    """``level`` is one of ``protocol.LEVELS``; options tune the hard player (worlds, candidates, horizon)."""
    try:
        return _LEVELS[level](rng, **options)
    except KeyError as error:
        raise ValueError(f'unknown level {level!r}, expected one of {", ".join(LEVELS)}') from error
