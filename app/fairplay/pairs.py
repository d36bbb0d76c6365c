"""The daily cap of one pair of accounts: pure, from the rating changes they made together.

``DAILY_CAP`` is 150 shown points: through games with one other account, an account's rating
moves at most that far up or down (net: a win given back by a loss frees the room again) in any
24 hours. On this site's scale 150 points is the gap at which the stronger player finishes ahead
about 70 times in 100. No honest game reaches it alone: a new player's first game moves 78
points at two seats and at most 119 at four (last of four new players), a settled player's
about 9. Two new accounts farming, one always first, reach it in the third game (+78, +59, then
13 of a possible 47), and a settled pair after about 16 one-sided games; friends who win and lose
in turn never meet it.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Protocol

DAILY_CAP = 150
WINDOW = timedelta(hours=24)
UNCAPPED = 10 ** 9


class Change(Protocol):
    user_id: int
    table_id: str
    before: int
    after: int


def bounds(changes: Iterable[Change], people: Sequence[int], cap: int = DAILY_CAP) -> dict[int, tuple[int, int]]:
    """For each of ``people`` about to be rated together: the lowest and highest shown change
    this game may make to their rating, so that with every other person here their net of the
    window's earlier ``changes`` (made at tables shared with that person) stays within the cap.
    Always ``low <= 0 <= high``: a cap never turns a loss into a gain."""
    by_table: dict[str, dict[int, int]] = {}
    for change in changes:
        by_table.setdefault(change.table_id, {})[change.user_id] = change.after - change.before
    found: dict[int, tuple[int, int]] = {}
    for person in people:
        low, high = -UNCAPPED, UNCAPPED   # alone with computers: no pair, no cap
        for other in people:
            if other == person:
                continue
            net = sum(moved[person] for moved in by_table.values() if person in moved and other in moved)
            low, high = max(low, -cap - net), min(high, cap - net)
        found[person] = (min(0, low), max(0, high))
    return found
