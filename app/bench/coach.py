"""The coach calibrated on seeded self-play: what each level's decisions cost, and how long the
coach takes.

    python -m app.bench.coach --games 6 --seats 2 --seed 1 [--game chinchon] [--jobs 2]

For each game and level, plays seeded games between computers of that level, replays every hand
and has the coach judge every decision of seat 0 (as a review does). Prints, per level: the
decisions judged, the mean points lost per decision with its 95 % interval, the same counting
only the costs the worlds are sure of ("sure lost"), the share of each label and the accuracy
(share with no label); then the time to evaluate one decision and to
analyse one hand (p50, p95), in one process. A good coach finds easy > normal > hard in points
lost, and labels few of hard's decisions. Run by hand: figures are never asserted in the tests.
"""
from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from app.bench.replay import percentile, self_play
from app.games import GAMES
from app.review.coach import LABELS, decision_seed, decisions, evaluate
from app.review.coach.core import Z
from app.review.replay import replay_hand

LEVELS = ('easy', 'normal', 'hard')


def judge_game(game_id: str, seats: int, seed: int, level: str) -> list[tuple[int, float, float, str | None, float]]:
    """Every decision of seat 0 in one self-played game: (hand, cost, sure cost, label, seconds).
    The sure cost counts a cost only where the worlds played tell the two choices apart (``Z``
    standard errors, as the labels do): the best of several noisy means is above its true value,
    which adds a little to every near call's cost whoever made it."""
    _, source, _ = self_play(game_id, seats, seed, level)
    judged = []
    for number in range(1, source.hands() + 1):
        hand = replay_hand(source, number)
        for decision in decisions(hand, 0):
            started = time.perf_counter()
            judgement = evaluate(game_id, decision, decision_seed(hand.seed, 0, decision.step))
            sure = judgement.cost if judgement.cost >= Z * judgement.error else 0.0
            judged.append((number, judgement.cost, sure, judgement.label(game_id), time.perf_counter() - started))
    return judged


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (normal approximation)."""
    if len(values) < 2:
        return (values[0] if values else 0.0), 0.0
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / len(values) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--game', choices=[game.id for game in GAMES], action='append')
    parser.add_argument('--games', type=int, default=6, help='games per level')
    parser.add_argument('--seats', type=int, default=2)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--jobs', type=int, default=1)
    args = parser.parse_args()
    wanted = args.game or [game.id for game in GAMES]
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_id in wanted:
            print(f'\n{game_id}, {args.seats} seats, {args.games} games per level, seat 0 judged')
            print(f'{"level":<8}{"decisions":>10}{"lost/decision":>16}{"  ±95%":>8}{"sure lost":>11}{"  ±95%":>8}'
                  + ''.join(f'{name:>12}' for name in LABELS) + f'{"accuracy":>10}')
            times, hands = [], {}
            for level in LEVELS:
                games = pool.map(judge_game, [game_id] * args.games, [args.seats] * args.games,
                                 [args.seed + index for index in range(args.games)], [level] * args.games)
                rows = [row for index, game in enumerate(games) for row in [(index, *judged) for judged in game]]
                mean, half = interval([cost for _, _, cost, _, _, _ in rows])
                sure, sure_half = interval([cost for _, _, _, cost, _, _ in rows])
                labels = [label for _, _, _, _, label, _ in rows]
                shares = [100.0 * labels.count(name) / len(rows) if rows else 0.0 for name in LABELS]
                accuracy = 100.0 - sum(shares)
                print(f'{level:<8}{len(rows):>10}{mean:>16.2f}{half:>8.2f}{sure:>11.2f}{sure_half:>8.2f}'
                      + ''.join(f'{share:>11.1f}%' for share in shares) + f'{accuracy:>9.1f}%')
                times += [seconds * 1000 for *_, seconds in rows]
                for game_index, number, *_, seconds in rows:
                    hands[(level, game_index, number)] = hands.get((level, game_index, number), 0.0) + seconds * 1000
            if times:
                per_hand = list(hands.values())
                print(f'evaluation ms per decision: p50 {statistics.median(times):.0f}, p95 {percentile(times, 0.95):.0f};'
                      f' per hand ({len(per_hand)} hands): p50 {statistics.median(per_hand):.0f},'
                      f' p95 {percentile(per_hand, 0.95):.0f}')


if __name__ == '__main__':
    main()
