"""A table's move log: every action of its game, per deal, as JSON (what replays its hands, in
``app.review.replay``, and what a save appends between whole states, in ``app.tables.saving``)."""
from __future__ import annotations

from typing import Any

from app.engine.actions_json import action_to_json

Moves = list[list[list[Any]]]   # per deal: [[seat, the action's JSON form], ...]


def deal_number(state: Any) -> int:
    """The deal a game is in: 1 for the first (every deal counts, a Chinchón void one too); a game
    of one deal (Ronda Robada) has no hand number."""
    return getattr(state, 'hand_number', 1)


def record(moves: Moves, hand: int, seat: int, action: Any) -> None:
    """Keep an applied action under its deal (``hand``, 1 for the first)."""
    while len(moves) < hand:
        moves.append([])
    moves[hand - 1].append([seat, action_to_json(action)])
