"""How many new tables (and rooms) one browser, and one address, may deal: limits a real player
never meets, so that one abusive page cannot fill the database and the memory.

A browser is NiceGUI's browser id (its signed session cookie); an address is the client's IP as
the server sees it (behind nginx, the forwarded one). A client that drops its cookie is a new
browser at every page, which the address limit still counts; an address may be a whole office,
so it allows more. Counts are kept per process, in memory, in sliding windows; the oldest keys
are forgotten first when there are too many, so the counts themselves stay bounded too.
"""
from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Window:
    name: str        # what the page tells the player to wait for: 'minute' or 'day'
    seconds: float
    most: int


BROWSER_WINDOWS = (Window('minute', 60, 20), Window('day', 24 * 3600, 200))
ADDRESS_WINDOWS = (Window('minute', 60, 60), Window('day', 24 * 3600, 2000))
MOST_KEYS = 20_000   # browsers (or addresses) remembered at once


class Limiter:
    """Counts what each key did in sliding windows (the times of its last actions, at most as many
    as the largest window allows)."""

    def __init__(self, windows: tuple[Window, ...], *, most_keys: int = MOST_KEYS) -> None:
        self.windows = windows
        self.most_keys = most_keys
        self._times: OrderedDict[str, deque[float]] = OrderedDict()

    def exceeded(self, key: str | None, now: float) -> Window | None:
        """The first window this key has used up at `now`, or None (a key of None is never limited)."""
        times = self._times.get(key) if key else None
        if not times:
            return None
        for window in self.windows:
            recent = sum(1 for moment in reversed(times) if moment > now - window.seconds)
            if recent >= window.most:
                return window
        return None

    def count(self, key: str | None, now: float) -> None:
        if not key:
            return
        times = self._times.pop(key, None) or deque(maxlen=max(window.most for window in self.windows))
        times.append(now)
        self._times[key] = times           # the newest at the end: the oldest go first
        while len(self._times) > self.most_keys:
            self._times.popitem(last=False)

    def __len__(self) -> int:
        return len(self._times)


class NewTables:
    """The limits on dealing, for one browser and its address together."""

    def __init__(self) -> None:
        self.browsers = Limiter(BROWSER_WINDOWS)
        self.addresses = Limiter(ADDRESS_WINDOWS)

    def take(self, browser: str | None, address: str | None, now: float) -> Window | None:
        """Count one new table for this browser and address, unless either has used up a window:
        then nothing is counted, and the window is returned (what the page tells)."""
        window = self.browsers.exceeded(browser, now) or self.addresses.exceeded(address, now)
        if window is None:
            self.browsers.count(browser, now)
            self.addresses.count(address, now)
        return window


NEW_TABLES = NewTables()   # per process, like the table registry: not game state
