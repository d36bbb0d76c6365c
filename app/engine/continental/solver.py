"""Contract solver: can these cards make the hand's contract, and which arrangement leaves least?

The search picks the runs first (branch and bound over every run a suit's cards allow, including
runs that skip a natural so a joker stands in for it), then the sets by a small exact enumeration
over ranks. Jokers beyond what the melds need go to a set (any size) or to a run's free end.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from collections import Counter
from typing import Iterable, Sequence

from app.engine.cards import JOKER, Card, FrenchSuit
from app.engine.continental.melds import ACE_HIGH, RUN_MIN, SET_MIN, card_points, contract

_SUITS = tuple(FrenchSuit)
_RANK_POINTS = (0, 20, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
JOKER_POINTS = 50


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds that meet the contract (runs low to high) and the cards left in hand."""

    melds: tuple[tuple[Card, ...], ...]
    left: tuple[Card, ...]
    left_points: int


@dataclass(frozen=True, slots=True)
class _Run:
    points: int
    need: tuple[int, ...]       # natural indices suit*13 + rank-1
    jokers: int                 # jokers the run needs (gaps + extensions up to 4 cards)
    flex: int                   # free ends that could still take a joker
    suit: int
    values: tuple[int, ...]
    low_ok: bool
    high_ok: bool


def _index(card: Card) -> int:
    return _SUITS.index(card.suit) * 13 + card.rank - 1


def _run_candidates(counts: list[int], jokers: int) -> list[_Run]:
    found: list[_Run] = []
    for suit in range(4):
        mask = 0
        for rank in range(1, 14):
            if counts[suit * 13 + rank - 1]:
                mask |= 1 << rank
        if mask & 2:
            mask |= 1 << ACE_HIGH
        found.extend(_suit_runs(suit, mask, min(jokers, 8)))
    found.sort(key=lambda run: -run.points)
    return found


@lru_cache(maxsize=1 << 16)
def _suit_runs(suit: int, mask: int, jokers: int) -> tuple[_Run, ...]:
    """Every run one suit's values (bit v of ``mask``) allow with at most ``jokers`` jokers.
    A pure function of its arguments, so the cache holds no game state."""
    found: list[_Run] = []
    have = [value for value in range(1, ACE_HIGH + 1) if mask >> value & 1]

    def grow(values: list[int], gaps: int) -> None:
        if len(values) >= 2:
            _add_run(found, suit, values, gaps, jokers)
        last = values[-1]
        for step in (1, 2):
            nxt = last + step
            if mask >> nxt & 1 and not (values[0] == 1 and nxt == ACE_HIGH) and gaps + step - 1 <= jokers:
                values.append(nxt)
                grow(values, gaps + step - 1)
                values.pop()

    for first in have:
        grow([first], 0)
    return tuple(found)


def _add_run(found: list[_Run], suit: int, values: list[int], gaps: int, jokers: int) -> None:
    low, high = values[0], values[-1]
    low_ok = low - 1 >= 1 and not (low - 1 == 1 and high == ACE_HIGH)
    high_ok = high + 1 <= ACE_HIGH and not (high + 1 == ACE_HIGH and low == 1)
    cap = low_ok + high_ok - (low_ok and high_ok and low - 1 == 1 and high + 1 == ACE_HIGH)
    extend = max(0, RUN_MIN - len(values) - gaps)
    if extend > cap or gaps + extend > jokers:
        return
    need = tuple(suit * 13 + (1 if value == ACE_HIGH else value) - 1 for value in values)
    points = sum(_RANK_POINTS[1 if value == ACE_HIGH else value] for value in values)
    found.append(_Run(points, need, gaps + extend, cap - extend, suit, tuple(values), low_ok, high_ok))


class _Search:
    def __init__(self, hand: Sequence[Card], sets: int, runs: int, keep: int, first: bool = False) -> None:
        self.first = first      # stop at the first arrangement found (feasibility only)
        self.size = len(hand)
        self.keep = keep
        self.sets = sets
        self.runs = runs
        self.counts = [0] * 52
        self.jokers = 0
        for card in hand:
            if card.is_joker:
                self.jokers += 1
            else:
                self.counts[_index(card)] += 1
        self.natural_points = sum(_RANK_POINTS[i % 13 + 1] * n for i, n in enumerate(self.counts))
        self.best = -1
        self.best_plan: tuple | None = None
        self.candidates = _run_candidates(self.counts, self.jokers) if runs else []

    def run(self) -> None:
        self._pick_runs(0, [], 0, self.jokers, 0)

    def _pick_runs(self, start: int, chosen: list[_Run], run_points: int, jokers: int, run_cards: int) -> None:
        if run_points + (self.natural_points - run_points) + JOKER_POINTS * self.jokers <= self.best:
            return
        if len(chosen) == self.runs:
            self._leaf(chosen, run_points, jokers, run_cards)
            return
        counts = self.counts
        for i in range(start, len(self.candidates)):
            if self.first and self.best_plan is not None:
                return
            run = self.candidates[i]
            if run.jokers > jokers or any(counts[n] == 0 for n in run.need):
                continue
            for n in run.need:
                counts[n] -= 1
            chosen.append(run)
            self._pick_runs(i, chosen, run_points + run.points, jokers - run.jokers,
                            run_cards + len(run.need) + run.jokers)
            chosen.pop()
            for n in run.need:
                counts[n] += 1

    def _leaf(self, chosen: list[_Run], run_points: int, jokers: int, run_cards: int) -> None:
        ranks = [0] * 14
        for i, n in enumerate(self.counts):
            ranks[i % 13 + 1] += n
        flex = sum(run.flex for run in chosen)
        for plan in _set_plans(ranks, jokers, self.sets):
            set_points, set_cards, need, groups = plan
            spare = jokers - need
            extra = spare if self.sets else min(spare, flex)
            used = run_cards + set_cards + need + extra
            points = run_points + set_points + JOKER_POINTS * (self.jokers - spare + extra)
            drop = None
            if self.size - used < self.keep:
                drop = _cheapest_drop(groups, ranks, extra)
                if drop is None:
                    continue
                points -= drop[0]
            if points > self.best:
                self.best = points
                self.best_plan = (tuple(chosen), groups, extra, drop)
                if self.first:
                    return

    def arrangement(self, hand: Sequence[Card]) -> Arrangement | None:
        if self.best_plan is None:
            return None
        runs, groups, extra, drop = self.best_plan
        counts = list(self.counts)
        melds: list[list[Card]] = []
        ends: list[tuple[list[Card], _Run]] = []
        for run in runs:
            for n in run.need:
                counts[n] -= 1
            meld, spare_ends = _build_run(run)
            melds.append(meld)
            ends.append((meld, spare_ends))
        jokers_left = self.jokers - sum(run.jokers for run in runs)
        if drop is not None and drop[1] == 'joker':
            extra, drop = extra - 1, None
        set_melds: list[list[Card]] = []
        for rank, many in groups:
            naturals = [Card(rank, _SUITS[s]) for s in range(4) for _ in range(counts[s * 13 + rank - 1])]
            for s in range(4):
                counts[s * 13 + rank - 1] = 0
            split = [naturals[i::many] for i in range(many)]
            for group in split:
                while len(group) < SET_MIN:
                    group.append(JOKER)
                    jokers_left -= 1
            set_melds.extend(split)
        for _ in range(extra):
            if set_melds:
                set_melds[0].append(JOKER)
            else:
                meld, free = next(item for item in ends if item[1])
                meld.insert(0, JOKER) if free.pop() == 'low' else meld.append(JOKER)
            jokers_left -= 1
        if drop is not None:
            _apply_drop(drop, set_melds, groups)
        melds.extend(set_melds)
        left = list(hand)
        for meld in melds:
            for card in meld:
                left.remove(card)
        left.sort()
        return Arrangement(tuple(tuple(meld) for meld in melds), tuple(left),
                           sum(card_points(card) for card in left))


def _set_plans(ranks: list[int], jokers: int, sets: int):
    """(points, naturals used, jokers needed, ((rank, how many sets), ...)) for each way to make
    ``sets`` sets, each taking every remaining natural of its rank."""
    if sets == 0:
        yield 0, 0, 0, ()
        return
    present = [rank for rank in range(1, 14) if ranks[rank]]

    def pick(start: int, left: int, jokers_left: int, points: int, cards: int, groups: tuple):
        if left == 0:
            yield points, cards, jokers - jokers_left, groups
            return
        for i in range(start, len(present)):
            rank = present[i]
            have = ranks[rank]
            for many in range(1, min(left, have) + 1):
                need = max(0, SET_MIN * many - have)
                if need <= jokers_left:
                    yield from pick(i + 1, left - many, jokers_left - need,
                                    points + have * _RANK_POINTS[rank], cards + have, groups + ((rank, many),))

    yield from pick(0, sets, jokers, 0, 0, ())


def _cheapest_drop(groups: tuple, ranks: list[int], extra: int) -> tuple[int, str, int] | None:
    """The cheapest card that can stay in hand so one card is left to discard."""
    best = (JOKER_POINTS, 'joker', 0) if extra else None
    for rank, many in groups:
        have = ranks[rank]
        if have > many and (have - 1 >= SET_MIN * many or extra):
            if best is None or _RANK_POINTS[rank] < best[0]:
                best = (_RANK_POINTS[rank], 'natural', rank)
    return best


def _apply_drop(drop: tuple[int, str, int], set_melds: list[list[Card]], groups: tuple) -> None:
    _, kind, rank = drop
    if kind == 'joker':
        meld = next(m for m in set_melds if m.count(JOKER) and len(m) > SET_MIN) if set_melds else None
        if meld is not None:
            meld.remove(JOKER)
        return
    meld = max((m for m in set_melds if any(c.rank == rank for c in m)),
               key=lambda m: sum(not c.is_joker for c in m))
    natural = next(c for c in meld if not c.is_joker)
    meld.remove(natural)
    if len(meld) < SET_MIN:
        donor = next(m for m in set_melds if JOKER in m and len(m) > SET_MIN)
        donor.remove(JOKER)
        meld.append(JOKER)


def _build_run(run: _Run) -> tuple[list[Card], list[str]]:
    suit = _SUITS[run.suit]
    meld: list[Card] = []
    previous = None
    for value in run.values:
        if previous is not None and value - previous == 2:
            meld.append(JOKER)
        meld.append(Card(1 if value == ACE_HIGH else value, suit))
        previous = value
    free = [end for end, ok in (('low', run.low_ok), ('high', run.high_ok)) if ok]
    if run.low_ok and run.high_ok and run.values[0] - 1 == 1 and run.values[-1] + 1 == ACE_HIGH:
        free = ['high']
    while len(meld) < RUN_MIN:
        if free.pop() == 'high':
            meld.append(JOKER)
        else:
            meld.insert(0, JOKER)
    return meld, free


def solve(hand: Iterable[Card], hand_number: int, keep: int = 1) -> Arrangement | None:
    """The arrangement meeting hand ``hand_number``'s contract that leaves the fewest points in
    hand, keeping at least ``keep`` cards (1: a card to discard); None when there is none."""
    hand = list(hand)
    wanted = contract(hand_number)
    search = _Search(hand, wanted.sets, wanted.runs, keep)
    search.run()
    return search.arrangement(hand)


def can_go_down(hand: Iterable[Card], hand_number: int, keep: int = 1) -> bool:
    """Whether some arrangement meets the contract (stops at the first one found)."""
    hand = list(hand)
    wanted = contract(hand_number)
    search = _Search(hand, wanted.sets, wanted.runs, keep, first=True)
    search.run()
    return search.best_plan is not None


def go_down_options(hand: Sequence[Card], hand_number: int, cap: int = 8) -> list[tuple[tuple[Card, ...], ...]]:
    """Ways to go down for a legal-action list: the best arrangement (keeping a card to discard)
    first, then for each card it uses, the best arrangement that keeps that card in hand, as long
    as it leaves a different set of cards; at most ``cap`` in all."""
    best = solve(hand, hand_number, keep=1)
    if best is None:
        return []
    options = [best.melds]
    seen = {frozenset(Counter(best.left).items())}
    for card in sorted(set(card for meld in best.melds for card in meld)):
        if len(options) >= cap:
            break
        rest = list(hand)
        rest.remove(card)
        other = solve(rest, hand_number, keep=0)
        if other is None:
            continue
        key = frozenset((Counter(other.left) + Counter([card])).items())
        if key not in seen:
            seen.add(key)
            options.append(other.melds)
    return options
