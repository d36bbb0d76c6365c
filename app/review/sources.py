"""Where a review's game comes from, and who may see it: the live table of the browser's own seat
(a guest's review lives as long as the table), or a game recorded in the account's history (it
survives restarts in the database). Every hand offered is finished: its seed is revealed, its
count was shown, and it must replay to the points the table counted, or it is not offered."""
from __future__ import annotations

import json
from dataclasses import dataclass

from app.games import GAMES_BY_ID
from app.history import game_detail
from app.review.replay import CannotReplay, GameMoves, HandReplay, replay_hand
from app.tables.records import hand_points
from app.tables.table import Table
from models.db import session_scope
from models.tables import replay_of


@dataclass(frozen=True, slots=True)
class ReviewSource:
    """A game to review from one seat: its moves, the seat's place, the names to show (``None``
    for the reader's own, said as 'you'), and each finished hand's points as the table counted
    them (None for a void hand)."""
    moves: GameMoves
    seat: int
    names: tuple[str | None, ...]
    points: tuple[tuple[int, ...] | None, ...]
    table: Table | None = None        # where a live table's review keeps the coach's analyses
    record_id: int | None = None      # ... and a recorded game's

    def hands(self) -> int:
        return min(self.moves.hands(), len(self.points))

    def hand(self, number: int) -> HandReplay:
        """The hand replayed; CannotReplay when it is not one of the finished hands, or when it does
        not replay to the count the table showed."""
        if not 1 <= number <= self.hands():
            raise CannotReplay(f'hand {number} is not a finished hand of this game')
        replayed = replay_hand(self.moves, number)
        if replayed.points != self.points[number - 1]:
            raise CannotReplay(f'hand {number} replays to {replayed.points}, the table counted '
                               f'{self.points[number - 1]}')
        return replayed


def table_source(table: Table, seat: int) -> ReviewSource | None:
    """The finished hands of a live table's current game, from ``seat``; None when the game was
    not recorded from its deal (a table saved before moves were kept)."""
    if table.moves is None or not 0 <= seat < len(table.seats):
        return None
    view = table.view(seat)
    deals = view.past_deals
    counted = hand_points(table, view)
    moves = GameMoves.from_lists(table.game.id, table.options.rules, len(table.seats), table.dealer,
                                 [deal.seed for deal in deals], table.moves, daily=bool(table.options.daily))
    names = tuple(None if index == seat else person.name for index, person in enumerate(table.seats))
    return ReviewSource(moves, seat, names, tuple(counted.get(deal.hand_number) for deal in deals), table=table)


def record_source(user_id: int, record_id: int) -> ReviewSource | None:
    """A game of the account's history; None for another account's record, one that is no record,
    or one recorded before replays were kept."""
    detail = game_detail(user_id=user_id, record_id=record_id)
    if detail is None:
        return None
    with session_scope() as session:
        row = replay_of(session=session, played_game_id=record_id)
        replay = None if row is None else (row.first_dealer, row.moves_json)
    if replay is None:
        return None
    record = detail.record
    seat = next(index for index, seat in enumerate(record.seats) if seat.is_human)
    rules = detail.options.get('rules') if isinstance(detail.options.get('rules'), dict) else {}
    try:
        moves = GameMoves.from_lists(record.game_id, rules, len(record.seats), replay[0],
                                     [hand.seed for hand in detail.hands if hand.seed], json.loads(replay[1]),
                                     daily=bool(detail.options.get('daily')))
    except (ValueError, TypeError):   # a stored record this release cannot read: no review
        return None
    if record.game_id not in GAMES_BY_ID:
        return None
    names = tuple(None if seat.is_human else (seat.name or seat.name_or_level) for seat in record.seats)
    return ReviewSource(moves, seat, names, tuple(hand.points for hand in detail.hands), record_id=record_id)


def record_has_replay(record_id: int) -> bool:
    """Whether a recorded game kept its moves (games recorded before replays were kept did not)."""
    with session_scope() as session:
        return replay_of(session=session, played_game_id=record_id) is not None


def reviewable(source: ReviewSource | None, number: int) -> HandReplay | None:
    """The hand, or None when it cannot be reviewed (the page says why in words)."""
    if source is None:
        return None
    try:
        return source.hand(number)
    except CannotReplay:
        return None
