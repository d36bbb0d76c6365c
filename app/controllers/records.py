"""A finished table becomes a history record of the logged-in player (guests' games are not kept)."""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.accounts import current_user_id
from app.controllers.table import HUMAN, TableController
from app.history import BETTER, Better, SeatResult, record_finished_game


def placements(scores: tuple[int, ...], winners: tuple[int, ...], better: Better) -> list[int]:
    """1 for the winners, then by score (equal scores share a place)."""
    def rank_key(seat: int) -> tuple[int, int]:
        return (0 if seat in winners else 1, scores[seat] if better is Better.LOWER else -scores[seat])

    keys = [rank_key(seat) for seat in range(len(scores))]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def deal_commitments(view: Any) -> list[tuple[str, str]]:
    past = getattr(view, 'past_hands', None)
    if past is not None:
        return [(hand.commitment, hand.seed) for hand in past]
    seed = getattr(view, 'seed', None)
    return [(view.commitment, seed)] if seed else []


def record_table(controller: TableController, names: list[str]) -> int | None:
    """Record the finished game for whoever is logged in in this browser now; None for a guest."""
    outcome = controller.state.outcome()
    if outcome is None:
        return None
    places = placements(outcome.scores, outcome.winners, BETTER[controller.game.id])
    seats = [SeatResult(names[seat] if seat == HUMAN else controller.options.level, is_human=seat == HUMAN,
                        final_score=outcome.scores[seat], placement=places[seat], is_winner=seat in outcome.winners)
             for seat in range(len(outcome.scores))]
    return record_finished_game(
        user_id=current_user_id(), game_id=controller.game.id, options=controller.options.to_dict(),
        started_at=datetime.fromtimestamp(controller.started_at, UTC), ended_at=datetime.now(UTC),
        hands_played=max(1, len(controller.hand_results)), seats=seats,
        deal_commitments=deal_commitments(controller.view()))
