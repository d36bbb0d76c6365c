"""Fair play between accounts: who has been seen from the same browser or address, and what that
means for a rated game (lichess keeps the same signs for its moderators).

- Two accounts that have shared a browser in the last 30 days (the sign-in device cookie, or
  NiceGUI's browser id) are very probably one person: quick match never seats them together
  (app.lobby.matching), and a rated game between them, however they met, is unrated
  (app.tables.records).
- Two that have shared only an address in those days may be a family behind one router, or
  strangers behind one mobile operator: their game is rated, and each change is marked
  'address' for whoever moderates (``RatingChange.marks``).
- Whatever the signs, one account's rating moves at most ``pairs.DAILY_CAP`` shown points
  through games with one other account in any 24 hours (app.standings applies it).

What is recorded (``seen``): at sign-in (app.sessions) and on a visit at most once an hour, when
the sign-in session's last use is written anyway (app.visitor), each as an upsert of a keyed hash.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlmodel import Session

from app import config
from app.limits import address_key
from models.db import session_scope
from models.fairplay import partners, see, sharing

SHARED = timedelta(days=30)
BROWSERS = ('device', 'browser')   # either one seen by two accounts: they shared a browser
ADDRESSES = ('address',)


def key_hash(kind: str, value: str) -> str:
    """A sighting's key: keyed with the site's secret, so the table tells nobody an address (an
    IPv4 address's plain hash is undone by trying all four billion)."""
    return hmac.new(config.storage_secret().encode(), f'{kind}:{value}'.encode(), hashlib.sha256).hexdigest()


def seen(*, session: Session, user_id: int, at: datetime, device: str | None = None, browser: str | None = None,
         address: str | None = None) -> None:
    """Keep that this account was at this browser (its device cookie and NiceGUI's browser id)
    and address now, in the caller's transaction."""
    for kind, value in (('device', device), ('browser', browser), ('address', address_key(address))):
        if value:
            see(session=session, user_id=user_id, kind=kind, key_hash=key_hash(kind, value), at=at)


def browser_partners(*, session: Session, user_id: int, now: datetime) -> list[int]:
    """The accounts that shared a browser with this one in the last 30 days (the caller's transaction)."""
    return partners(session=session, user_id=user_id, kinds=BROWSERS, since=now - SHARED)


def shared_browsers(user_ids: Iterable[int], now: datetime) -> set[tuple[int, int]]:
    """Pairs of these accounts (lower id first) seen at one browser in the last 30 days."""
    return _sharing(user_ids, BROWSERS, now)


def shared_addresses(user_ids: Iterable[int], now: datetime) -> set[tuple[int, int]]:
    """Pairs of these accounts (lower id first) seen at one address in the last 30 days."""
    return _sharing(user_ids, ADDRESSES, now)


def _sharing(user_ids: Iterable[int], kinds: tuple[str, ...], now: datetime) -> set[tuple[int, int]]:
    wanted = sorted({user_id for user_id in user_ids if user_id is not None})
    if len(wanted) < 2:
        return set()
    with session_scope() as session:
        return sharing(session=session, user_ids=wanted, kinds=kinds, since=now - SHARED)
