"""The coach calibrated on seeded self-play: what each level's decisions cost, and how long the
coach takes.

    python -m app.bench.coach --games 6 --seats 2 --seed 1 [--game chinchon] [--jobs 2]

For each game and level, plays seeded games between computers of that level, replays every hand
and has the coach judge every decision of seat 0 (as a review does). Prints, per level: the
decisions judged, the mean points lost per decision with its 95 % interval, the same counting
only the costs the worlds are sure of ("sure lost", what a review's summary counts), the share of
each label and the accuracy (share with no label).

Then **at the same positions**: every position judged above, from the games of all levels, is
put to each level's computer as well, and its choice is judged in the same worlds. Self-play
rows compare different games (a level that plays well meets other positions than one that plays
badly); these compare the levels' choices where they face the very same decision, and the
difference between two levels is also given position by position (a paired interval). Only
positions where the decision is a single action (Chinchón's draws and discards, some of
Continental's) count there; Ronda Robada's are whole turns' plans.

Last, the time to evaluate one decision and to analyse one hand (p50, p95), in one process. A good
coach finds easy > normal > hard in points lost, and labels few of hard's decisions. Run by hand:
figures are never asserted in the tests.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace

from app.bench.replay import percentile, self_play
from app.games import GAMES, GAMES_BY_ID
from app.coach import LABELS, decision_seed, decisions
from app.coach.core import judge
from app.review.replay import replay_hand

LEVELS = ('easy', 'normal', 'hard')


@dataclass
class Judged:
    """One decision of seat 0 judged, and the same position's judgement for each level's choice."""
    hand: int
    cost: float
    sure: float          # the cost only where the worlds tell the two choices apart (``Z`` standard
    label: str | None    # errors, as the labels do): the best of several noisy means is above its
    seconds: float       # true value, which adds a little to every near call's cost whoever made it
    levels: dict[str, tuple[float, float, str | None]] = field(default_factory=dict)   # level -> (cost, sure, label)


def judge_game(game_id: str, seats: int, seed: int, level: str) -> list[Judged]:
    """Every decision of seat 0 in one self-played game."""
    _, source, _ = self_play(game_id, seats, seed, level)
    game = GAMES_BY_ID[game_id]
    judged = []
    for number in range(1, source.hands() + 1):
        hand = replay_hand(source, number)
        for decision in decisions(hand, 0):
            world_seed = decision_seed(hand.seed, 0, decision.step)
            started = time.perf_counter()
            results = game.coach.values(decision, random.Random(world_seed))
            judgement = judge(decision, results)
            seconds = time.perf_counter() - started
            row = Judged(number, judgement.cost, judgement.sure_cost, judgement.label(game.coach_thresholds), seconds)
            for other in LEVELS:
                bot = game.ai_module.make_bot(other, random.Random(f'{world_seed}:{other}'))
                option = (bot.choose(decision.view),)
                if option in decision.options:
                    theirs = judge(replace(decision, chosen=decision.options.index(option)), results)
                    row.levels[other] = (theirs.cost, theirs.sure_cost, theirs.label(game.coach_thresholds))
            judged.append(row)
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
            header()
            times, hands, pooled = [], {}, []
            for level in LEVELS:
                games = pool.map(judge_game, [game_id] * args.games, [args.seats] * args.games,
                                 [args.seed + index for index in range(args.games)], [level] * args.games)
                rows = [(index, judged) for index, game in enumerate(games) for judged in game]
                line(level, [(judged.cost, judged.sure, judged.label) for _, judged in rows])
                times += [judged.seconds * 1000 for _, judged in rows]
                for index, judged in rows:
                    key = (level, index, judged.hand)
                    hands[key] = hands.get(key, 0.0) + judged.seconds * 1000
                pooled += [judged for _, judged in rows if set(judged.levels) == set(LEVELS)]
            if pooled:
                print(f'at the same {len(pooled)} positions (single-action decisions of all the games above):')
                for level in LEVELS:
                    line(level, [judged.levels[level] for judged in pooled])
                for weaker, stronger in zip(LEVELS, LEVELS[1:]):
                    paired(weaker, stronger, pooled)
            if times:
                per_hand = list(hands.values())
                print(f'evaluation ms per decision: p50 {statistics.median(times):.0f}, p95 {percentile(times, 0.95):.0f};'
                      f' per hand ({len(per_hand)} hands): p50 {statistics.median(per_hand):.0f},'
                      f' p95 {percentile(per_hand, 0.95):.0f}')


def header() -> None:
    print(f'{"level":<8}{"decisions":>10}{"lost/decision":>16}{"  ±95%":>8}{"sure lost":>11}{"  ±95%":>8}'
          + ''.join(f'{name:>12}' for name in LABELS) + f'{"accuracy":>10}')


def line(level: str, rows: list[tuple[float, float, str | None]]) -> None:
    """One level's row: (cost, sure cost, label) per decision."""
    mean, half = interval([cost for cost, _, _ in rows])
    sure, sure_half = interval([cost for _, cost, _ in rows])
    labels = [label for _, _, label in rows]
    shares = [100.0 * labels.count(name) / len(rows) if rows else 0.0 for name in LABELS]
    print(f'{level:<8}{len(rows):>10}{mean:>16.2f}{half:>8.2f}{sure:>11.2f}{sure_half:>8.2f}'
          + ''.join(f'{share:>11.1f}%' for share in shares) + f'{100.0 - sum(shares):>9.1f}%')


def paired(weaker: str, stronger: str, pooled: list[Judged]) -> None:
    """How much more the weaker level loses than the stronger one at the same positions, position by
    position: the levels' intervals above overlap where this one may not, since most positions see
    both levels make the same choice (a difference of 0)."""
    for name, index in (('lost', 0), ('sure lost', 1)):
        mean, half = interval([judged.levels[weaker][index] - judged.levels[stronger][index] for judged in pooled])
        print(f'  {weaker} - {stronger}, {name} per decision: {mean:+.2f} ± {half:.2f}')


if __name__ == '__main__':
    main()
