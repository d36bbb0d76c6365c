"""A rated game left before its person played twice is aborted: it counts for nobody's rating
(lichess aborts a game before its second move).

Precisely, at a started public rated table: "playing" is an action the person sent themselves
and the table applied (a draw, a discard, a meld: not one a computer played for them, not reading
the count); "leaving" is the table taking the person's seat for a computer because their turn
clock ran out, whether their screen was closed (away: gone past the reconnect window) or open
(they did not move). When that happens before they have played twice, the game is aborted at
once for everybody: it goes on, and a computer holds the seat until its person is back, but its
end rates nobody, and the table's log says why. The leave is kept for the person
(``left(seat)``, which app.playban turns into a wait when it keeps happening).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.tables.room import RoomHost, room_event

PLAYS_BEFORE_RATED = 2


class Aborts:
    def __init__(self, table: RoomHost, *, left: Callable[[int], None]) -> None:
        self.table, self.left = table, left

    def _counting(self) -> bool:
        room = self.table.room
        return room is not None and room.public and room.rated and room.started and room.unrated is None

    def acted(self, seat: int) -> None:
        """The person at this seat played (an action of their own the table applied)."""
        if self._counting():
            plays = self.table.room.plays
            plays[seat] = min(PLAYS_BEFORE_RATED, plays.get(seat, 0) + 1)

    def taken(self, seat: int) -> list[dict[str, Any]]:
        """The table takes this person's seat for a computer: the log's note if that aborts the
        game (nothing otherwise)."""
        room = self.table.room
        if not self._counting() or room.plays.get(seat, 0) >= PLAYS_BEFORE_RATED \
                or not self.table.seats[seat].is_person or self.table.seats[seat].user_id is None:
            return []
        room.unrated = 'aborted'
        self.left(seat)
        return [room_event('aborted', seat)]
