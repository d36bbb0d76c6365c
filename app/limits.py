"""How many new tables (and rooms) one browser, and one address, may deal: limits a real player
never meets, so that one abusive page cannot fill the database and the memory.

A browser is NiceGUI's browser id (its signed session cookie); an address is the client's IP as
the server sees it (behind nginx, the forwarded one, from the proxies FORWARDED_ALLOW_IPS
trusts), keyed by ``address_key``: an IPv6 address by its /64, which one household or server
gets whole. A client that drops its cookie is a new browser at every page, which the address
limit still counts; an address may be a whole office, so it allows more.

With SQLite (one process) the counts are kept in memory, in sliding windows; the oldest keys are
forgotten first when there are too many, so the counts themselves stay bounded too. When several
processes share a PostgreSQL (``count_in_database``), each deal is one upsert there instead
(``SharedNewTables``), so one address alternating processes meets the same limit.
"""
from __future__ import annotations

import ipaddress
from collections import OrderedDict, deque
from dataclasses import dataclass

from sqlalchemy.exc import SQLAlchemyError

from models.db import session_scope
from models.tables import count_deal, forget_deal_counts


@dataclass(frozen=True, slots=True)
class Window:
    name: str        # what the page tells the player to wait for: 'minute' or 'day'
    seconds: float
    most: int


BROWSER_WINDOWS = (Window('minute', 60, 20), Window('day', 24 * 3600, 200))
ADDRESS_WINDOWS = (Window('minute', 60, 60), Window('day', 24 * 3600, 2000))
MOST_KEYS = 20_000   # browsers (or addresses) remembered at once
# seats one address may hold at once at public tables still waiting for people (app.lobby): a
# household or a few friends behind one router ask for a game within the same half minute now
# and then, three at most in practice; three seats never fill a table of four or more, and one
# address can no longer take the lobby's free seats, fresh cookies or not. Seats at tables
# being played are not counted: a family may play at several tables at once.
WAITING_SEATS_PER_ADDRESS = 3
TIDY_EVERY = 3600    # seconds between two forgettings of ended windows in the database


def address_key(address: str | None) -> str | None:
    """The key of a client address for every per-address limit: an IPv4 address itself (also
    written as IPv4-mapped IPv6), an IPv6 address its /64 network; anything else (a test
    client's name) as it is."""
    if not address:
        return None
    try:
        ip = ipaddress.ip_address(address.split('%', 1)[0])   # a zone (fe80::1%eth0) is the same network
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f'{ip}/64', strict=False))
    return str(ip)


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
        then nothing is counted, and the window is returned (what the page tells). ``now`` is
        seconds since the epoch (the tables' clock's ``wall``)."""
        address = address_key(address)
        window = self.browsers.exceeded(browser, now) or self.addresses.exceeded(address, now)
        if window is None:
            self.browsers.count(browser, now)
            self.addresses.count(address, now)
        return window


class SharedNewTables:
    """The same limits, counted in the database that every process shares: each deal is one
    upsert of the browser's and the address's windows (``count_deal``), undone (rolled back) when
    one of them is over its limit, so a refused deal is not counted. A window here is fixed from
    its key's first deal (not sliding): at a window's turn a key may deal its limit twice within
    a moment, still a limit no real player meets."""

    def __init__(self) -> None:
        self.tidied = float('-inf')

    def take(self, browser: str | None, address: str | None, now: float) -> Window | None:
        wanted = [(f'{kind}:{key[:150]}', window) for kind, key, windows in (
            ('browser', browser, BROWSER_WINDOWS), ('address', address_key(address), ADDRESS_WINDOWS))
            if key for window in windows]
        if not wanted:
            return None
        try:
            with session_scope() as session:
                counts = count_deal(session=session, windows=[(key, w.name, w.seconds) for key, w in wanted], now=now)
                over = next((w for key, w in wanted if counts[key, w.name] > w.most), None)
                if over is not None:
                    session.rollback()   # nothing counted: the deal does not happen
                    return over
            if now - self.tidied > TIDY_EVERY:
                self.tidied = now
                with session_scope() as session:
                    forget_deal_counts(session=session, now=now)
        except SQLAlchemyError:   # the database is down: dealing is refused by the table's own save
            return None
        return None


NEW_TABLES: NewTables | SharedNewTables = NewTables()   # per process, like the table registry: not game state


def count_in_database() -> None:
    """From now on the deal limits are counted in the database (several processes share it)."""
    global NEW_TABLES
    NEW_TABLES = SharedNewTables()
