"""How long a review takes to open: milliseconds to replay one finished hand (every hand before
it played through, then every seat's view at each of its steps), per game, over seeded
self-play between computer players.

    python -m app.bench.replay --games 20 --level normal --seats 3 --seed 1

A review replays its hand once when the page opens; stepping through it then costs nothing more.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from app.engine.cards import seeds_from
from app.games import GAMES, GAMES_BY_ID
from app.review.replay import GameMoves, hand_points, replay_hand
from app.tables.moves import deal_number, record


def self_play(game_id: str, seats: int, seed: int, level: str = 'easy') -> tuple[object, GameMoves, list]:
    """A whole game between computer players, every action kept as a table keeps it: (the final
    state, what replays it, each hand's points as the table would count them)."""
    game = GAMES_BY_ID[game_id]
    state = game.engine_module.new_game(game.make_rules({}), seats, random.Random(seed),
                                        hand_seeds=seeds_from(random.Random(seed + 1)))
    dealer = state.view(0).dealer
    bots = [game.ai_module.make_bot(level, random.Random(seed * 10 + seat)) for seat in range(seats)]
    ends = game.hand_end_events or {'game_over'}   # where a table shows a count (one deal: the game's end)
    moves: list = []
    scored = []
    while state.outcome() is None:
        seat = state.current_seat
        hand = deal_number(state)
        action = bots[seat].choose(state.view(seat))
        scored += [hand_points(event.to_dict()) for event in state.apply(seat, action) if event.kind in ends]
        record(moves, hand, seat, action)
    seeds = [deal.seed for deal in state.view(0).past_deals]
    return state, GameMoves.from_lists(game_id, {}, seats, dealer, seeds, moves), scored


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--games', type=int, default=20)
    parser.add_argument('--seats', type=int, default=3)
    parser.add_argument('--level', default='normal')
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    print(f'{"game":<14}{"hands":>7}{"steps p50":>11}{"ms p50":>9}{"ms p95":>9}{"ms max":>9}')
    for game in GAMES:
        timings, steps = [], []
        for index in range(args.games):
            _, source, _ = self_play(game.id, min(args.seats, game.max_seats), args.seed + index, args.level)
            for number in range(1, source.hands() + 1):
                started = time.perf_counter()
                hand = replay_hand(source, number)
                timings.append((time.perf_counter() - started) * 1000)
                steps.append(len(hand.steps))
        print(f'{game.id:<14}{len(timings):>7}{statistics.median(steps):>11.0f}{statistics.median(timings):>9.1f}'
              f'{percentile(timings, 0.95):>9.1f}{max(timings):>9.1f}')


if __name__ == '__main__':
    main()
