"""What the Continental coach costs and how sure it is: per-decision evaluation time, the points
the chosen option cost, and the standard error of the paired difference (best less chosen) over
seeded self-play between normal computer players.

    python -m app.bench.coach_continental --games 2 --hands 1,4,7 --seats 3 --seed 1

The evaluator's budget (``ROLLOUTS``, ``MIN_WORLDS``, ``HORIZON``) was chosen with it: one decision
within about 300 ms at the 95th percentile on a 2-core machine, with the paired differences' error
well under the mistake threshold.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from app.bench.replay import percentile, self_play
from app.review.coach import decision_seed, judge
from app.review.coach.continental import HORIZON, MIN_WORLDS, ROLLOUTS, ContinentalEvaluator
from app.review.replay import replay_hand


def paired_error(rollouts: list[list[float]], a: int, b: int) -> float:
    differences = [world[a] - world[b] for world in rollouts]
    return statistics.stdev(differences) / len(differences) ** 0.5 if len(differences) > 1 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--games', type=int, default=2)
    parser.add_argument('--hands', default='1,4,7')
    parser.add_argument('--seats', type=int, default=3)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--rollouts', type=int, default=ROLLOUTS)
    parser.add_argument('--min-worlds', type=int, default=MIN_WORLDS)
    parser.add_argument('--horizon', type=int, default=HORIZON)
    args = parser.parse_args()
    evaluator = ContinentalEvaluator(args.rollouts, args.min_worlds, args.horizon)
    timings, costs, errors, labels, by_hand = [], [], [], {}, {}
    for game in range(args.games):
        _, source, _ = self_play('continental', args.seats, args.seed + game, 'normal')
        for number in (int(text) for text in args.hands.split(',')):
            hand = replay_hand(source, number)
            for decision in evaluator.decisions(hand, 0):
                started = time.perf_counter()
                rng = random.Random(decision_seed(hand.seed, 0, decision.step))
                rollouts = evaluator.rollouts_of(decision, rng)
                timings.append((time.perf_counter() - started) * 1000)
                by_hand.setdefault(number, []).append(timings[-1])
                judged = judge(decision, [sum(world[k] for world in rollouts) / len(rollouts)
                                          for k in range(len(decision.options))], len(rollouts))
                costs.append(judged.cost)
                if judged.best != judged.chosen:
                    errors.append(paired_error(rollouts, judged.best, judged.chosen))
                label = judged.label('continental') or 'none'
                labels[label] = labels.get(label, 0) + 1
    print(f'decisions {len(timings)}  ms p50 {statistics.median(timings):.0f}  p95 {percentile(timings, 0.95):.0f}  '
          f'max {max(timings):.0f}')
    for number, spent in sorted(by_hand.items()):
        print(f'  hand {number}: {len(spent)} decisions, ms p50 {statistics.median(spent):.0f}  '
              f'p95 {percentile(spent, 0.95):.0f}')
    print(f'cost mean {statistics.mean(costs):.1f}  p50 {percentile(costs, 0.5):.1f}  p90 {percentile(costs, 0.9):.1f}')
    if errors:
        print(f'paired s.e. (best - chosen) mean {statistics.mean(errors):.1f}  p90 {percentile(errors, 0.9):.1f}')
    print('labels', dict(sorted(labels.items())))


if __name__ == '__main__':
    main()
