"""Continental solver benchmark: microseconds per ``solve`` call on 12-card hands.

    python -m app.bench.continental_solver --hands 2000 --seed 1

Each hand holds 0-4 jokers (uniform) and naturals drawn from the rest of the 108-card deck; half
of the hands are drawn from two suits and a window of seven ranks so that many can meet the
contract (the search does the most work there). Every contract is timed on the same hands.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from app.engine.cards import french_deck
from app.engine.continental.melds import CONTRACTS
from app.engine.continental.solver import solve


def sample_hands(count: int, rng: random.Random, size: int = 12) -> list[list]:
    deck = french_deck()
    naturals = [card for card in deck if not card.is_joker]
    jokers = [card for card in deck if card.is_joker]
    hands = []
    for i in range(count):
        pool = naturals
        if i % 2:
            suits = rng.sample(sorted({card.suit for card in naturals}, key=lambda s: s.value), 2)
            low = rng.randint(1, 7)
            pool = [card for card in naturals if card.suit in suits and low <= card.rank <= low + 6]
        joker_count = rng.randint(0, 4)
        hands.append(rng.sample(jokers, joker_count) + rng.sample(pool, size - joker_count))
    return hands


def percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, int(round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--hands', type=int, default=1000)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args(argv)
    hands = sample_hands(args.hands, random.Random(args.seed))
    print(f'{args.hands} hands of 12 cards, 0-4 jokers, seed {args.seed}')
    print(f'{"contract":<22}{"can":>6}{"median µs":>12}{"p95 µs":>10}{"p99 µs":>10}{"max µs":>10}')
    overall: list[float] = []
    for wanted in CONTRACTS:
        times = []
        can = 0
        for hand in hands:
            began = time.perf_counter()
            result = solve(hand, wanted.number, keep=0)
            times.append((time.perf_counter() - began) * 1e6)
            can += result is not None
        times.sort()
        overall.extend(times)
        name = f'{wanted.number}) {wanted.sets} sets {wanted.runs} runs'
        print(f'{name:<22}{can:>6}{statistics.median(times):>12.0f}{percentile(times, .95):>10.0f}'
              f'{percentile(times, .99):>10.0f}{times[-1]:>10.0f}')
    overall.sort()
    print(f'{"all":<22}{"":>6}{statistics.median(overall):>12.0f}{percentile(overall, .95):>10.0f}'
          f'{percentile(overall, .99):>10.0f}{overall[-1]:>10.0f}')


if __name__ == '__main__':
    main()
