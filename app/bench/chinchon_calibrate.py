"""Fit the exponent of the hard player's chance of winning (``search._chances``) on self-play.

    python -m app.bench.chinchon_calibrate --seats 2 --games 300 [--seed 1] [--limit 100]

Normal players play whole games; at the start of every hand the scores of the players still in
are noted, and at the end of the game who won. For each exponent ``k`` the command prints the mean
log-likelihood of the actual winners under ``room ** k`` shares (room = limit + 1 - score): the
best ``k`` is the one that predicted the winners best. ``search.POWER`` keeps the fitted values
(``search`` is ``app.ai.chinchon.search``).
"""
from __future__ import annotations

import argparse
import math
import random
import sys

from app.ai.chinchon import make_bot
from app.ai.chinchon.search import room_weight
from app.engine.chinchon import Rules, new_game

EXPONENTS = (0.5, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)


def positions(seats: int, games: int, seed: int, limit: int) -> list[tuple[tuple[int | None, ...], tuple[int, ...]]]:
    """(scores at the start of a hand, None for players out; winners of that game), per hand."""
    master = random.Random(seed)
    found = []
    for _ in range(games):
        deal_seed = master.getrandbits(64)
        state = new_game(Rules(limit=limit), seats, random.Random(deal_seed))
        bots = [make_bot('normal', random.Random(f'{deal_seed}:{seat}')) for seat in range(seats)]
        starts, hand = [], None
        while state.outcome() is None:
            if state.hand_number != hand:
                hand = state.hand_number
                starts.append(tuple(None if out else score for score, out in zip(state.scores, state.out)))
            seat = state.current_seat
            state.apply(seat, bots[seat].choose(state.view(seat)))
        winners = tuple(state.outcome().winners)
        found += [(scores, winners) for scores in starts]
    return found


def log_likelihood(data, exponent: float, limit: int) -> float:
    total = 0.0
    for scores, winners in data:
        weights = [0.0 if score is None else room_weight(limit, score, exponent) for score in scores]
        chance = sum(weights[w] for w in winners) / len(winners) / sum(weights)
        total += math.log(max(chance, 1e-12))
    return total / len(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m app.bench.chinchon_calibrate', description=__doc__.split('\n')[0])
    parser.add_argument('--seats', type=int, default=2)
    parser.add_argument('--games', type=int, default=300)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--limit', type=int, default=100)
    args = parser.parse_args(argv)
    data = positions(args.seats, args.games, args.seed, args.limit)
    scored = [(log_likelihood(data, k, args.limit), k) for k in EXPONENTS]
    print(f'{args.seats} seats, limit {args.limit}: {len(data)} hand starts from {args.games} games, seed {args.seed}')
    for value, k in scored:
        print(f'  k = {k:<4}  mean log-likelihood {value:.4f}')
    print(f'best k = {max(scored)[1]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
