"""The computer levels' fixed ratings (app.ratings.COMPUTER_RATINGS), fitted from the arena.

    python -m app.bench.computer_ratings --games 200000 --seed 40 [--game chinchon]
    python -m app.bench.computer_ratings --measure 200 --arena-seed 4040   # play the arena afresh first

No rating maths of its own: the three levels of a game are entered as players in openskill's
Plackett-Luce model and play ``--games`` simulated two-seat games, each pair of levels as often as
the arena played it, each won with the probability the arena measured (a seeded RNG). Their mu
wander around the values that make the model's chances match the measured ones; the mean over the
second half is read, and all three are shifted so that normal sits at a new player's mu (25, 1500
shown), the fixed number of the scale. The sigma printed is the last one, the floor where openskill's
tau keeps it: a well-measured strength.

The check beside it: each measured win rate as an Elo-like gap, ``400 log10(p / (1 - p))``, and
the gap between the fitted levels on the display scale; the display scale was made so the two
agree (app.ratings.DISPLAY_SCALE). The pair hard-easy is measured too, so a level whose
strengths are not one number (hard far above normal against easy, not against normal...) shows
as a misfit there.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys

from app.bench.arena import play_match
from app.games import GAMES_BY_ID
from app.ratings import DISPLAY_SCALE, MODEL, Rating

# (level, level, the first one's wins (shared wins count half), games), two seats, each deal played
# from both seats. Measured 2026-12-04 with python -m app.bench.arena <game> --seats <a>,<b>
# --games <n> --seed 4040 (hard-easy: --seed 4041), one process each; the wins are read back from
# the printed rate (one decimal), near enough for a fit whose own noise is larger:
MEASURED: dict[str, tuple[tuple[str, str, float, int], ...]] = {
    'chinchon': (('hard', 'normal', 131.0, 240),      # 54.6 %
                 ('normal', 'easy', 1502.0, 2000),    # 75.1 %
                 ('hard', 'easy', 84.0, 100)),        # 84.0 %
    'ronda-robada': (('hard', 'normal', 602.0, 1000),  # 60.2 %
                     ('normal', 'easy', 1360.0, 2000),  # 68.0 %
                     ('hard', 'easy', 306.0, 400)),    # 76.5 %
    'continental': (('hard', 'normal', 745.5, 800),    # 93.2 %
                    ('normal', 'easy', 1714.0, 2000),   # 85.7 %
                    ('hard', 'easy', 298.0, 300)),     # 99.3 %
}
LEVELS = ('easy', 'normal', 'hard')


def measure(game_id: str, games: int, seed: int) -> tuple[tuple[str, str, float, int], ...]:
    """The arena played afresh: each pair of levels for ``games`` games (two seats)."""
    pairs = []
    for first, second in (('hard', 'normal'), ('normal', 'easy'), ('hard', 'easy')):
        result = play_match(game_id, (first, second), games, seed)
        pairs.append((first, second, result.slots[0].wins, result.slots[0].games))
    return tuple(pairs)


def fit(pairs: tuple[tuple[str, str, float, int], ...], games: int, seed: int) -> dict[str, Rating]:
    """Each level's rating after playing the measured outcomes through Plackett-Luce; normal at 25."""
    played = [pair for pair in pairs if pair[3] > 0]
    if not played:
        raise ValueError('no measured games')
    rng = random.Random(seed)
    ratings = {level: MODEL.rating() for level in LEVELS}
    seen: dict[str, list[float]] = {level: [] for level in LEVELS}
    weights = [pair[3] for pair in played]   # a pair measured on more games weighs more
    for index in range(games):
        first, second, wins, measured = rng.choices(played, weights)[0]
        first_wins = rng.random() < wins / measured
        teams = [[ratings[first]], [ratings[second]]]
        [[ratings[first]], [ratings[second]]] = MODEL.rate(teams, ranks=[0, 1] if first_wins else [1, 0])
        if index >= games // 2:
            for level in LEVELS:
                seen[level].append(ratings[level].mu)
    shift = MODEL.mu - statistics.fmean(seen['normal'])
    return {level: Rating(round(statistics.fmean(seen[level]) + shift, 2), round(ratings[level].sigma, 2))
            for level in LEVELS}


def elo_gap(rate: float) -> float:
    rate = min(max(rate, 1e-3), 1 - 1e-3)
    return 400 * math.log10(rate / (1 - rate))


def report(game_id: str, pairs: tuple[tuple[str, str, float, int], ...], fitted: dict[str, Rating]) -> str:
    lines = [f'{game_id}:', f'  {"level":<7} {"mu":>6} {"sigma":>6} {"shown":>6}']
    lines += [f'  {level:<7} {rating.mu:>6.2f} {rating.sigma:>6.2f} {rating.display():>6}'
              for level, rating in fitted.items()]
    for first, second, wins, games in pairs:
        if games:
            rate = wins / games
            lines.append(f'  {first}-{second}: measured {rate:.1%} of {games} (Elo-like gap {elo_gap(rate):+.0f}), '
                         f'fitted gap {fitted[first].display() - fitted[second].display():+d}')
    return '\n'.join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m app.bench.computer_ratings', description=__doc__.split('\n')[0])
    parser.add_argument('--game', choices=list(GAMES_BY_ID), action='append', help='one game (repeatable); all by default')
    parser.add_argument('--games', type=int, default=200000, help='simulated rated games per game')
    parser.add_argument('--seed', type=int, default=40)
    parser.add_argument('--measure', type=int, default=0, metavar='GAMES',
                        help='play the arena first, GAMES per pair (slow for hard: ~1 s a game of Chinchón)')
    parser.add_argument('--arena-seed', type=int, default=4040)
    args = parser.parse_args(argv)
    constants = []
    for game_id in args.game or list(GAMES_BY_ID):
        pairs = measure(game_id, args.measure, args.arena_seed) if args.measure else MEASURED[game_id]
        fitted = fit(pairs, args.games, args.seed)
        print(report(game_id, pairs, fitted))
        levels = ', '.join(f"'{level}': computer({rating.mu}, {rating.sigma})" for level, rating in fitted.items())
        constants.append(f"    '{game_id}': MappingProxyType({{{levels}}}),")
    print(f'\nfor app/ratings.py (scale: {DISPLAY_SCALE:.2f} shown per unit of mu):')
    print('\n'.join(constants))
    return 0


if __name__ == '__main__':
    sys.exit(main())
