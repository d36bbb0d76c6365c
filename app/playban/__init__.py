"""Leaving rated games (lichess's ``playban`` module): each leave is kept, and someone who keeps
leaving waits before their next quick match or rated table (``rules`` says how long).

- ``record_leave``: a rated game this account left (app.tables, when the table took its seat);
- ``time_left``: how long this account still waits, None when it does not.
"""
from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from app.playban import rules
from models.db import session_scope
from models.fairplay import RatedLeave, add_leave, leaves_of

log = logging.getLogger(__name__)


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def record_leave(*, user_id: int, table_id: str, game_id: str, aborted: bool, at: datetime) -> None:
    """Keep that the account left this rated game (once per table). A database failure is logged:
    the table goes on."""
    try:
        with session_scope() as session:
            add_leave(session=session, leave=RatedLeave(user_id=user_id, table_id=table_id, game_id=game_id,
                                                        aborted=aborted, at=_utc(at)))
    except SQLAlchemyError as error:
        log.error('playban: the leave of %s at %s was not kept: %s', user_id, table_id, error.__class__.__name__)


def time_left(*, user_id: int, now: datetime, session: Session | None = None) -> timedelta | None:
    """How long this account waits before its next quick match, or None (raises SQLAlchemyError).
    In the caller's transaction when it hands one."""
    now = _utc(now)
    if session is None:
        with session_scope() as session:
            return time_left(user_id=user_id, now=now, session=session)
    leaves = [_utc(at) for at in leaves_of(session=session, user_id=user_id, since=now - rules.REMEMBERED)]
    return rules.time_left(leaves, now)
