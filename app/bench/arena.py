"""Self-play arena for every game: computer players against each other, luck paired out.

    python -m app.bench.arena ronda-robada --seats hard,normal --games 2000 --seed 1 [--rules key=value ...]

A game id is an entry of ``app.games``: its engine module (``Rules``, ``new_game``) and its computer
players (``make_bot``); nothing here knows any particular game. Each deal seed is played once
per rotation of the seats, so every level plays every position of the same deals. Who did better is
the game's own ``outcome().winners``; a shared win counts 1/k to each of the k winners.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, TextIO

from app.engine.protocol import Bot
from app.games import GAMES_BY_ID

MAX_ACTIONS_PER_GAME = 100_000


@dataclass
class SlotStats:
    """One entry of the ``--seats`` list, wherever it sat."""

    level: str
    games: int = 0
    wins: float = 0.0
    points: int = 0
    decision_times: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        return wilson(self.wins, self.games, z)

    @property
    def average_points(self) -> float:
        return self.points / self.games if self.games else 0.0

    def decision_ms(self, quantile: float) -> float:
        return percentile(self.decision_times, quantile) * 1000.0


@dataclass
class MatchResult:
    game_id: str
    levels: tuple[str, ...]
    seed: int
    games: int = 0
    hands: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0        # processor time of the games themselves, whichever process played them
    slots: list[SlotStats] = field(default_factory=list)

    def absorb(self, part: MatchResult) -> None:
        """Add the games of ``part`` (same levels) to these figures."""
        self.games += part.games
        self.hands += part.hands
        self.cpu_seconds += part.cpu_seconds
        for mine, theirs in zip(self.slots, part.slots):
            mine.games += theirs.games
            mine.wins += theirs.wins
            mine.points += theirs.points
            mine.decision_times.extend(theirs.decision_times)

    def report(self) -> str:
        deals = self.games // max(1, len(self.levels))
        lines = [f'{self.game_id}: {" vs ".join(self.levels)}, {self.games} games '
                 f'({deals} deals x {len(self.levels)} seatings), seed {self.seed}',
                 f'{"slot":<4} {"level":<7} {"win rate":>8}  {"95% interval":<16} {"avg points":>10} '
                 f'{"decision p50":>12} {"p95":>9}']
        for index, slot in enumerate(self.slots):
            low, high = slot.interval()
            lines.append(f'{index:<4} {slot.level:<7} {slot.win_rate:>8.1%}  [{low:.1%}, {high:.1%}]'.ljust(47)
                         + f' {slot.average_points:>10.1f} {slot.decision_ms(0.5):>10.2f}ms'
                         f' {slot.decision_ms(0.95):>7.2f}ms')
        seconds = max(self.seconds, 1e-9)
        lines.append(f'{self.hands} hands, {self.games} games in {self.seconds:.1f} s: '
                     f'{self.hands / seconds:.1f} hands/s, {self.games / seconds:.2f} games/s; '
                     f'{self.cpu_seconds / max(1, self.games):.2f} CPU-s per game')
        return '\n'.join(lines)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional successes allowed for shared wins)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], quantile: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(quantile * len(ordered)))]


def load_game(game_id: str) -> tuple[ModuleType, ModuleType]:
    """The registered game's engine and computer players; ValueError for an unknown id."""
    game = GAMES_BY_ID.get(game_id)
    if game is None:
        raise ValueError(f'unknown game {game_id!r}; known: {", ".join(GAMES_BY_ID)}')
    return game.engine_module, game.ai_module


def make_rules(engine: ModuleType, rules: Any = None) -> Any:
    """``None`` -> defaults; a mapping of strings or values -> ``Rules(**...)``; a ``Rules`` as is."""
    if rules is None:
        return engine.Rules()
    if isinstance(rules, engine.Rules):
        return rules
    defaults = engine.Rules()
    known = {f.name for f in dataclasses.fields(engine.Rules)}
    unknown = set(rules) - known
    if unknown:
        raise ValueError(f'unknown rule option(s) {", ".join(sorted(unknown))}; '
                         f'known: {", ".join(sorted(known)) or "none"}')
    return engine.Rules(**{key: _coerce(value, getattr(defaults, key)) for key, value in rules.items()})


def _coerce(value: Any, default: Any) -> Any:
    if not isinstance(value, str) or isinstance(default, str):
        return value
    if isinstance(default, bool):
        if value.lower() in ('1', 'true', 'yes', 'on'):
            return True
        if value.lower() in ('0', 'false', 'no', 'off'):
            return False
        raise ValueError(f'not a true/false value: {value!r}')
    if default is None:
        return value
    return type(default)(value)


def _hands_in(state: Any) -> int:
    """Hands dealt in a finished game: its ``deal`` events."""
    return max(1, sum(1 for event in getattr(state, 'events', ()) if event.kind == 'deal'))


def play_match(game_id: str, levels: list[str] | tuple[str, ...], games: int, seed: int, rules: Any = None,
               *, progress: TextIO | None = None, bot_options: dict[str, dict[str, Any]] | None = None,
               jobs: int = 1) -> MatchResult:
    """Play ``games`` games (rounded up to whole rotations) and gather the statistics per slot.

    ``bot_options`` maps a level to keyword options of that game's ``make_bot`` (for tuning).
    ``jobs`` > 1 plays the deals in that many worker processes; the figures do not depend on it
    (every deal is seeded on its own), only the decision times feel the machine's load."""
    engine, _ = load_game(game_id)
    rules = make_rules(engine, rules)
    seats = len(levels)
    deals = max(1, math.ceil(games / seats))
    result = MatchResult(game_id, tuple(levels), seed, slots=[SlotStats(level) for level in levels])
    master = random.Random(seed)
    tasks = [(game_id, tuple(levels), rules, master.getrandbits(64), bot_options or {}) for _ in range(deals)]
    started = time.perf_counter()
    bar = _ProgressBar(deals * seats, progress)
    if jobs > 1:
        with multiprocessing.get_context('fork').Pool(jobs) as pool:
            for part in pool.imap(_play_deal, tasks):
                result.absorb(part)
                bar.update(result.games)
    else:
        for task in tasks:
            result.absorb(_play_deal(task))
            bar.update(result.games)
    result.seconds = time.perf_counter() - started
    bar.close()
    return result


def _play_deal(task: tuple[str, tuple[str, ...], Any, int, dict[str, dict[str, Any]]]) -> MatchResult:
    """One deal seed played once per rotation of the seats."""
    game_id, levels, rules, deal_seed, bot_options = task
    engine, ai = load_game(game_id)
    seats = len(levels)
    part = MatchResult(game_id, levels, deal_seed, slots=[SlotStats(level) for level in levels])
    started = time.process_time()
    for rotation in range(seats):
        slot_of_seat = [(seat - rotation) % seats for seat in range(seats)]
        _play_one(engine, ai, rules, levels, slot_of_seat, deal_seed, part, bot_options)
    part.cpu_seconds = time.process_time() - started
    return part


def _play_one(engine: ModuleType, ai: ModuleType, rules: Any, levels: list[str] | tuple[str, ...],
              slot_of_seat: list[int], deal_seed: int, result: MatchResult,
              bot_options: dict[str, dict[str, Any]]) -> None:
    state = engine.new_game(rules, len(levels), random.Random(deal_seed))
    bots: list[Bot] = [ai.make_bot(levels[slot], random.Random(f'{deal_seed}:{slot}'), **bot_options.get(levels[slot], {}))
            for slot in slot_of_seat]
    for _ in range(MAX_ACTIONS_PER_GAME):
        outcome = state.outcome()
        if outcome is not None:
            break
        seat = state.current_seat
        view = state.view(seat)
        started = time.perf_counter()
        action = bots[seat].choose(view)
        result.slots[slot_of_seat[seat]].decision_times.append(time.perf_counter() - started)
        state.apply(seat, action)
    else:
        raise RuntimeError(f'{result.game_id}: no result after {MAX_ACTIONS_PER_GAME} actions (deal {deal_seed})')
    for seat, slot in enumerate(slot_of_seat):
        stats = result.slots[slot]
        stats.games += 1
        stats.points += outcome.scores[seat]
        if seat in outcome.winners:
            stats.wins += 1 / len(outcome.winners)
    result.games += 1
    result.hands += _hands_in(state)


class _ProgressBar:
    """A plain text bar on a stream (stderr from the command line), redrawn a few times a second."""

    def __init__(self, total: int, stream: TextIO | None, width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width
        self.started = self.drawn = time.perf_counter()

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if self.stream is None or (now - self.drawn < 0.2 and done < self.total):
            return
        self.drawn = now
        filled = self.width * done // self.total
        rate = done / max(now - self.started, 1e-9)
        left = (self.total - done) / rate if rate else 0.0
        self.stream.write(f'\r[{"#" * filled}{"-" * (self.width - filled)}] {done}/{self.total} games '
                          f'{rate:.1f} games/s, {left:.0f} s left ')
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.write('\n')
            self.stream.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m app.bench.arena', description=__doc__.split('\n')[0])
    parser.add_argument('game', choices=list(GAMES_BY_ID))
    parser.add_argument('--seats', required=True, help='levels per seat, comma separated, e.g. hard,normal')
    parser.add_argument('--games', type=int, default=200, help='games in all (rounded up to whole rotations)')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--rules', nargs='*', default=[], metavar='KEY=VALUE', help='rule options')
    parser.add_argument('--quiet', action='store_true', help='no progress bar')
    parser.add_argument('--jobs', type=int, default=1, help='worker processes (one per free core)')
    args = parser.parse_args(argv)
    levels = [level.strip() for level in args.seats.split(',') if level.strip()]
    try:
        rules = dict(option.split('=', 1) for option in args.rules)
    except ValueError:
        parser.error('--rules takes KEY=VALUE pairs')
    try:
        engine, ai = load_game(args.game)
        rules = make_rules(engine, rules or None)
        for level in levels:
            ai.make_bot(level, random.Random(0))
    except ValueError as error:
        parser.error(str(error))
    result = play_match(args.game, levels, args.games, args.seed, rules,
                        progress=None if args.quiet else sys.stderr, jobs=max(1, args.jobs))
    print(result.report())
    return 0


if __name__ == '__main__':
    sys.exit(main())
