"""Meeting other players: public tables listed in the lobby, quick match, and their settings.

- ``matching``: seats taken at public tables in the database, in one transaction, from whichever
  process a person asked (quick match, or Join in the lobby), and the tables quick match opens;
- ``feed``: the lobby's pages of open tables, read from the database and told to every lobby
  screen of this process when they change.

The table's own side (seating whoever claimed a seat, starting, its line in the lobby) is
``app.tables.public``.
"""
from __future__ import annotations

import os


def _seconds(name: str, default: float, low: float, high: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return min(high, max(low, value))


def quick_wait() -> float:
    """Seconds a quick match waits for people before computers fill its free seats (HOD_QUICK_WAIT)."""
    return _seconds('HOD_QUICK_WAIT', 30.0, 0.5, 600.0)


def reconnect_window() -> float:
    """Seconds a table's page waits for its browser to come back after the socket dropped (a phone
    switching networks) before the page is gone and, at a public table, a computer holds the seat
    (HOD_RECONNECT_WINDOW; 30 to 60 in production, shorter only for the tests' server)."""
    return _seconds('HOD_RECONNECT_WINDOW', 45.0, 0.5, 120.0)


PUBLIC_CLOCK = 30   # seconds per turn at a quick match: a table of strangers cannot wait for one
