"""The exact replay of a finished hand, from what a table keeps of its game.

A game is rebuilt from its first dealer, the seed of every hand and every action in the order it
was applied (``GameMoves``): the engines are deterministic, and with the dealer and the seeds
given they draw nothing else from their generator, so the same moves give the same game. A hand
is replayed by playing the hands before it through, then stepping through its own moves; every
step keeps each seat's view, so a review shows one seat's knowledge at each moment and, since
the hand is over, every hand at once.

The seeds known are those of finished hands: the deal that follows the last one is made from a
seed that is no hand's (``NEXT_DEAL``), so nothing of a hand still being played is ever rebuilt.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.games import GAMES_BY_ID, GameInfo
from app.tables.moves import deal_number

NEXT_DEAL = 'replay-next-deal'   # what a replay deals after the hands it knows: no real hand's seed
Move = tuple[int, dict[str, Any]]   # (seat, the action's JSON form)


class CannotReplay(ValueError):
    """This hand cannot be replayed: not finished, not recorded, or its moves do not fit."""


@dataclass(frozen=True, slots=True)
class GameMoves:
    """What replays a game: its rules, seats and first dealer, the seeds of its finished hands and
    the moves of each deal."""
    game_id: str
    rules: dict[str, Any]
    seats: int
    dealer: int
    seeds: tuple[str, ...]
    moves: tuple[tuple[Move, ...], ...]
    daily: bool = False    # a daily deal's game: its format's rules (e.g. its number of hands) apply

    @classmethod
    def from_lists(cls, game_id: str, rules: dict[str, Any], seats: int, dealer: int, seeds: Sequence[str],
                   moves: Sequence[Sequence[Sequence[Any]]], *, daily: bool = False) -> 'GameMoves':
        return cls(game_id, dict(rules), seats, dealer, tuple(seeds),
                   tuple(tuple((int(seat), dict(action)) for seat, action in hand) for hand in moves), daily)

    @property
    def game(self) -> GameInfo:
        return GAMES_BY_ID[self.game_id]

    def make_rules(self) -> Any:
        game = self.game
        return game.make_rules(self.rules, fixed=dict(game.daily.rules) if self.daily and game.daily else None)

    def hands(self) -> int:
        """How many hands can be replayed: finished (their seed is known) and recorded."""
        return min(len(self.seeds), len(self.moves))


@dataclass(frozen=True, slots=True)
class Step:
    """One moment of a hand: the deal (no seat, no action) or an action, its public events, and
    every seat's view just after it. ``over``: the hand had ended by then (its count shows)."""
    seat: int | None
    action: Any | None
    events: tuple[dict[str, Any], ...]
    views: tuple[Any, ...]
    over: bool


@dataclass(frozen=True, slots=True)
class HandReplay:
    game: GameInfo
    number: int                 # 1 for the first hand
    seed: str
    steps: tuple[Step, ...]     # steps[0] is the deal
    points: tuple[int, ...] | None   # each seat's points in the hand (None: a void hand)


def end_kinds(game: GameInfo) -> frozenset[str]:
    """The events that end a hand (a game of one deal ends with the game)."""
    return game.hand_end_events | {'game_over'}


def replay_hand(source: GameMoves, number: int) -> HandReplay:
    """Hand ``number`` (1 for the first), replayed exactly. CannotReplay for a hand that is not
    finished or not recorded, or moves the rules refuse (a record that does not fit)."""
    if not 1 <= number <= source.hands():
        raise CannotReplay(f'hand {number} cannot be replayed: {source.hands()} can')
    game = source.game
    seeds = iter(source.seeds)
    try:
        state = game.engine_module.new_game(source.make_rules(), source.seats, random.Random(0),
                                            dealer=source.dealer, hand_seeds=lambda: next(seeds, NEXT_DEAL))
        for hand in source.moves[:number - 1]:
            for seat, action in hand:
                state.apply(seat, game.engine_module.ACTIONS.from_json(action))
        if deal_number(state) != number:
            raise CannotReplay(f'the moves before hand {number} end in deal {deal_number(state)}')
        steps = [Step(None, None, _deal_events(state), _views(state, source.seats), False)]
        over, points = False, None
        for seat, raw in source.moves[number - 1]:
            action = game.engine_module.ACTIONS.from_json(raw)
            events = []
            for event in state.apply(seat, action):
                if over and event.kind == 'deal':   # the next hand, dealt from no real seed: not this hand's
                    break
                events.append(event.to_dict())
                if not over and event.kind in end_kinds(game):
                    over, points = True, hand_points(event.to_dict())
            steps.append(Step(seat, action, tuple(events), _views(state, source.seats), over))
    except ValueError as error:   # IllegalAction included: the record does not fit the rules
        raise CannotReplay(f'hand {number} does not replay: {error}') from error
    if not over:
        raise CannotReplay(f'hand {number} has not ended in its recorded moves')
    return HandReplay(game, number, source.seeds[number - 1], tuple(steps), points)


def _deal_events(state: Any) -> tuple[dict[str, Any], ...]:
    """The deal of the hand now starting: its last 'deal' event."""
    deals = [event for event in state.view(0).events if event.kind == 'deal']
    return (deals[-1].to_dict(),) if deals else ()


def _views(state: Any, seats: int) -> tuple[Any, ...]:
    return tuple(state.view(seat) for seat in range(seats))


def hand_points(event: dict[str, Any]) -> tuple[int, ...] | None:
    """Each seat's points in the hand an end event closes; None for a void hand."""
    data = event.get('data', {})
    if 'result' in data:            # Chinchón's count
        return tuple(data['result']['added'])
    if 'points' in data:            # Continental's hand end
        return tuple(data['points'])
    if 'scores' in data and 'hand' not in data:   # Ronda Robada's end: the game is the hand
        return tuple(data['scores'])
    return None                     # Chinchón's void hand
