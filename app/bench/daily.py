"""How long each game's daily deal takes to play, over many days' seeds.

The computers' part is exact: every computer action at a daily table waits its format's beat
(app.tables.pacing.beat), and none waits while a count is read. Your part is an assumption, said
in the output: a normal computer plays your seat (as a person would, move for move), and each of
your decisions is counted at ``--think`` seconds, each count at ``--read`` seconds.

    python -m app.bench.daily --days 40 --think 4 --read 8
"""
from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass

from app.daily.tries import game_seed
from app.games import GAMES, GameInfo
from app.tables.pacing import beat
from app.tables.worker import computer_choice


@dataclass(frozen=True, slots=True)
class Played:
    yours: int        # your decisions
    computers: int    # the computers' actions
    counts: int       # counts read (hands ended, the game's end included)


def play(game: GameInfo, seed: str) -> Played:
    fmt = game.daily
    state = game.engine_module.new_game(game.make_rules(fixed=dict(fmt.rules)), fmt.seats,
                                        random.Random(game_seed(seed)))
    yours = computers = counts = moves = 0
    while state.outcome() is None:
        seat = state.current_seat
        level = 'normal' if seat == 0 else fmt.level
        events = state.apply(seat, computer_choice(game.id, level, f'{seed}:{seat}:{moves}', state.view(seat)))
        moves += 1
        yours, computers = yours + (seat == 0), computers + (seat != 0)
        counts += sum(event.kind in game.hand_end_events for event in events)
    return Played(yours, computers, max(1, counts))


def minutes(played: Played, game: GameInfo, think: float, read: float) -> tuple[float, float]:
    """(the computers' share, the whole), in minutes."""
    theirs = played.computers * beat(game.daily.speed, people_out=False, counting=False)
    return theirs / 60, (theirs + played.yours * think + played.counts * read) / 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--days', type=int, default=40, help="days' seeds per game")
    parser.add_argument('--think', type=float, default=4.0, help='seconds per decision of yours')
    parser.add_argument('--read', type=float, default=8.0, help='seconds to read a count')
    parser.add_argument('--seed', default='daily bench')
    args = parser.parse_args()
    print(f'{args.days} days per game; your decisions at {args.think:g} s, counts read in {args.read:g} s')
    print(f'{"game":<14}{"seats":>6}{"speed":>8}{"yours":>8}{"theirs":>8}{"counts":>8}'
          f'{"computers min":>15}{"median min":>12}{"p10-p90 min":>14}')
    for game in (game for game in GAMES if game.daily is not None):
        rng = random.Random(f'{args.seed}:{game.id}')
        runs = [play(game, f'{rng.getrandbits(128):032x}') for _ in range(args.days)]
        spans = sorted(minutes(run, game, args.think, args.read) for run in runs)
        whole = sorted(total for _, total in spans)
        deciles = statistics.quantiles(whole, n=10)
        print(f'{game.id:<14}{game.daily.seats:>6}{game.daily.speed:>8}'
              f'{statistics.median(run.yours for run in runs):>8.0f}'
              f'{statistics.median(run.computers for run in runs):>8.0f}'
              f'{statistics.median(run.counts for run in runs):>8.0f}'
              f'{statistics.median(theirs for theirs, _ in spans):>15.1f}{statistics.median(whole):>12.1f}'
              f'{deciles[0]:>7.1f}-{deciles[-1]:<6.1f}')


if __name__ == '__main__':
    main()
