"""Time the Chinchón solver: ``python -m app.bench.chinchon_solver --hands 20000 --seed 1``.

Prints microseconds per call (median, p95) of the public functions, called with lists of cards,
over seeded random hands and meld-dense hands (cards from a window of 3 suits x 4 ranks). The
solver keeps no cache between calls, so every figure is cold.
"""
from __future__ import annotations

import argparse
import random
import statistics
from time import perf_counter_ns

from app.engine.cards import SPANISH_RANKS, SpanishSuit, spanish_deck
from app.engine.chinchon import best_arrangement, best_discard, count_against


def random_cards(rng: random.Random, size: int) -> list:
    return rng.sample(spanish_deck(), size)


def dense_cards(rng: random.Random, size: int) -> list:
    start = rng.randrange(len(SPANISH_RANKS) - 3)
    ranks = SPANISH_RANKS[start:start + 4]
    suits = rng.sample(list(SpanishSuit), 3)
    return rng.sample([c for c in spanish_deck() if c.rank in ranks and c.suit in suits], size)


def count_case(rng: random.Random, make) -> tuple[list, list]:
    """A hand and the melds of a closer holding other cards of the same deck."""
    while True:
        closer = make(rng, 7)
        melds = [list(meld) for meld in best_arrangement(closer).melds]
        if melds:
            rest = [c for c in spanish_deck() if c not in closer]
            return rng.sample(rest, 7) if make is random_cards else _near(rng, rest, closer), melds


def _near(rng: random.Random, rest: list, closer: list) -> list:
    """Seven cards close to the closer's (same suits, nearby ranks): lay-offs likely."""
    suits = {c.suit for c in closer}
    ranks = {c.rank for c in closer}
    near = [c for c in rest if c.suit in suits or c.rank in ranks]
    return rng.sample(near, 7) if len(near) >= 7 else rng.sample(rest, 7)


def timed(calls: list) -> tuple[float, float]:
    samples = []
    for fn, args in calls:
        start = perf_counter_ns()
        fn(*args)
        samples.append(perf_counter_ns() - start)
    samples.sort()
    return statistics.median(samples) / 1000, samples[int(len(samples) * 0.95)] / 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--hands', type=int, default=20000)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args(argv)
    print(f'{args.hands} hands per row, seed {args.seed}, no cache (cold); µs per call')
    print(f'{"case":<42}{"median":>9}{"p95":>9}')
    for label, make in (('random', random_cards), ('meld-dense', dense_cards)):
        rng = random.Random(f'{args.seed}-{label}')
        rows = {
            'best melds (7 cards)': [(best_arrangement, (make(rng, 7),)) for _ in range(args.hands)],
            'best discard (8 cards)': [(best_discard, (make(rng, 8),)) for _ in range(args.hands)],
            'count with lay-offs (7 cards)': [(count_against, count_case(rng, make))
                                              for _ in range(args.hands)],
        }
        for name, calls in rows.items():
            median, p95 = timed(calls)
            print(f'{name + ", " + label:<42}{median:>9.1f}{p95:>9.1f}')


if __name__ == '__main__':
    main()
