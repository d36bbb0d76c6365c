"""A day's tries held against each other, as duplicate bridge scores a board: pure functions of
the results, so every board and result screen reads the same numbers.

- **Matchpoints**: a try scores 1 for every other try it beats and ½ for every tie; its
  percentile is that share of the others (a try alone on its day has nobody to beat or lose to:
  50 %, the middle). A finished try beats every unfinished one (a try left before its end is
  scored as it stood when the day ended, which in a game of fewest points would otherwise reward
  leaving early); between two finished or two unfinished tries, the points decide.
- **The month**: the average of a player's best ``BEST_DAYS`` daily percentiles.
- **The streak**: days in a row, up to today, with a finished daily (today not yet played does
  not break it: it still counts from yesterday).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from app.games import Better

BEST_DAYS = 20     # the month's board averages this many best days
BINS = 10          # the result's histogram: tenths of the field
SQUARES = 10       # the shared text's line of squares


@dataclass(frozen=True, slots=True)
class Result:
    """One try as the field sees it."""

    key: int                  # the try's id
    name: str
    points: int
    finished: bool            # played to its end (else scored as it stood when the day ended)
    seconds: float | None     # how long it took, once finished
    user_id: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    result: Result
    rank: int           # 1 for the best; equal results share a rank
    percentile: float   # 0-100: the share of the other tries this one beat (ties count half)


def order_key(result: Result, better: Better) -> tuple[int, int]:
    """Smaller is better: finished before unfinished, then the game's better points."""
    return (0 if result.finished else 1, result.points if better is Better.LOWER else -result.points)


def percentile(result: Result, others: Sequence[Result], better: Better) -> float:
    """The matchpoint percentile of one result against others (which it is not among)."""
    return _percentile(order_key(result, better), sorted(order_key(other, better) for other in others))


def _percentile(key: tuple[int, int], keys: list[tuple[int, int]]) -> float:
    if not keys:
        return 50.0
    ties = bisect_right(keys, key) - bisect_left(keys, key)
    beaten = len(keys) - bisect_right(keys, key)
    return 100.0 * (beaten + ties / 2) / len(keys)


def standings(results: Iterable[Result], better: Better) -> list[Standing]:
    """Every try of a day, best first (equal results in the order they finished, the faster first)."""
    results = list(results)
    keys = sorted(order_key(result, better) for result in results)
    lines = []
    for result in results:
        key = order_key(result, better)
        own = keys.copy()
        own.pop(bisect_left(own, key))   # the others: every key but this one
        lines.append(Standing(result, rank=1 + bisect_left(keys, key), percentile=_percentile(key, own)))
    return sorted(lines, key=lambda line: (line.rank, line.result.seconds if line.result.seconds is not None
                                           else float('inf'), line.result.key))


@dataclass(frozen=True, slots=True)
class MonthLine:
    user_id: int
    name: str
    average: float   # the average of the best BEST_DAYS daily percentiles
    days: int        # days played that month


def month_board(days: Iterable[Sequence[Standing]], best: int = BEST_DAYS) -> list[MonthLine]:
    """The month's board from each day's standings (accounts only), best average first."""
    percentiles: dict[int, list[float]] = defaultdict(list)
    names: dict[int, str] = {}
    for day in days:
        for line in day:
            if line.result.user_id is not None:
                percentiles[line.result.user_id].append(line.percentile)
                names[line.result.user_id] = line.result.name
    lines = [MonthLine(user_id, names[user_id], sum(top := sorted(values, reverse=True)[:best]) / len(top),
                       len(values))
             for user_id, values in percentiles.items()]
    return sorted(lines, key=lambda line: (-line.average, -line.days, line.name.casefold()))


def streak(days: Iterable[date], today: date) -> int:
    """Days in a row with a finished daily, up to today (or up to yesterday, today not played yet)."""
    played = set(days)
    day = today if today in played else today - timedelta(days=1)
    count = 0
    while day in played:
        count, day = count + 1, day - timedelta(days=1)
    return count


def histogram(percentiles: Iterable[float], bins: int = BINS) -> list[int]:
    """How many tries fall in each band of percentiles, the lowest band first (100 % in the last)."""
    counts = [0] * bins
    for value in percentiles:
        counts[bin_of(value, bins)] += 1
    return counts


def bin_of(value: float, bins: int = BINS) -> int:
    return min(bins - 1, max(0, int(value * bins // 100)))


def squares(value: float, count: int = SQUARES) -> str:
    """A line of squares for the shared text, one filled per tenth of the field beaten (geometric
    shapes, not emoji: every font has them, so no reader sees empty boxes)."""
    filled = round(value * count / 100)
    return '■' * filled + '□' * (count - filled)
