"""How long someone who keeps leaving rated games waits before their next quick match: pure, from
the times they left (lichess's playban, ``modules/playban/TempBan``).

A leave is a rated game in which the table had to take the person's seat from them: before they
played twice (the game was aborted for everybody), or later and they were not back by its end.

- One leave alone costs nothing: a phone runs out of battery, a train enters a tunnel.
- A leave with another one in the 24 hours before it starts a wait of 10 minutes.
- The next wait starts from the last one: 2.2 times it when it comes at once after it ended,
  falling evenly to the same length 72 hours after (lichess's ``(132 - h) / 60``); later than
  that, it halves for every further day, so a record fades. Never under 10 minutes, never over
  48 hours.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

FIRST = timedelta(minutes=10)
LONGEST = timedelta(hours=48)
TOGETHER = timedelta(hours=24)     # two leaves this close are someone who keeps leaving
REMEMBERED = timedelta(days=30)    # older leaves no longer change a wait (it has faded to FIRST by then)
QUICK_REPEAT = 2.2
EVEN_AFTER = 72.0                  # hours after a wait's end at which the next one is as long


@dataclass(frozen=True, slots=True)
class Wait:
    starts: datetime
    length: timedelta

    @property
    def ends(self) -> datetime:
        return self.starts + self.length


def next_length(previous: Wait | None, at: datetime) -> timedelta:
    """The length of a wait that starts ``at``, after the ``previous`` one (None: the first)."""
    if previous is None:
        return FIRST
    hours = max(0.0, (at - previous.ends).total_seconds() / 3600)
    if hours < EVEN_AFTER:
        factor = QUICK_REPEAT - (QUICK_REPEAT - 1) * hours / EVEN_AFTER
    else:
        factor = 0.5 ** ((hours - EVEN_AFTER) / 24)
    return min(LONGEST, max(FIRST, previous.length * factor))


def last_wait(leaves: Sequence[datetime]) -> Wait | None:
    """The latest wait these leaves earned (any order), or None."""
    wait: Wait | None = None
    ordered = sorted(leaves)
    for before, at in zip(ordered, ordered[1:]):
        if at - before <= TOGETHER:
            wait = Wait(at, next_length(wait, at))
    return wait


def time_left(leaves: Sequence[datetime], now: datetime) -> timedelta | None:
    """How long from ``now`` before a quick match again, or None when there is no wait."""
    wait = last_wait(leaves)
    if wait is None or wait.ends <= now:
        return None
    return wait.ends - now
