"""Moderators and what they do, every act written to the audit (``models.tables.Moderation``):
who, when, what, to whom and why, and its undoing.

A moderator is an account with the role ``moderator``, granted and revoked from the command line
(``python -m app.admin grant NAME``), where nobody can be tricked into it by a page. A moderator
sees ``/admin`` (app/pages/admin.py): the rated games fair play marked (two accounts seen at one
address), and the audit; and may hide an account from the rankings or rename it, with a reason,
and undo any act of the audit from there. Hidden accounts still play and keep their rating; the
rankings skip them until the hiding is undone. A renamed account shows a neutral name, and its
owner is asked for another at the next sign-in, with the reason.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from app.accounts import MODERATOR, AccountError, get_account
from models.db import session_scope
from models.tables import (Moderation, User, add_moderation, get_user_by_username, hidden_from_rankings,
                           marked_rated_games, moderation_log, set_display_name, set_role, standing_reason, utcnow)

REASON_MAX = 300
# the acts of the audit; undoing one puts back what it changed
GRANT, REVOKE, HIDE, RENAME = 'grant', 'revoke', 'hide_ranking', 'rename'


@dataclass(frozen=True, slots=True)
class Entry:
    """One act of the audit, as /admin lists it."""
    id: int
    at: datetime
    action: str
    target: str
    moderator: str | None      # None: the command line
    reason: str
    undone_at: datetime | None


@dataclass(frozen=True, slots=True)
class Marked:
    """One account's rating change that fair play marked."""
    at: datetime
    game_id: str
    table_id: str
    account: str
    marks: str
    change: int


def is_moderator(user_id: int | None) -> bool:
    """Read afresh at every act: a role revoked holds at once, even on a page opened before."""
    account = get_account(user_id) if user_id is not None else None
    return account is not None and account.is_moderator


def grant(username: str, *, reason: str = '') -> None:
    """Make the account a moderator (the command line's act). Raises LookupError for no such account."""
    _set_role(username, MODERATOR, GRANT, reason)


def revoke(username: str, *, reason: str = '') -> None:
    _set_role(username, None, REVOKE, reason)


def _set_role(username: str, role: str | None, action: str, reason: str) -> None:
    with session_scope() as session:
        user = get_user_by_username(session=session, username=username)
        if user is None:
            raise LookupError(username)
        set_role(session=session, user_id=user.id, role=role)
        add_moderation(session=session, entry=Moderation(action=action, target_id=user.id, reason=reason[:REASON_MAX]))


def hide_from_rankings(moderator_id: int, username: str, reason: str) -> None:
    """A moderator hides the account from every ranking. Raises AccountError (a catalog key) for a
    missing reason, a reason too long, an unknown account, one already hidden, or no moderator."""
    with acting(moderator_id, username, reason) as (session, user, reason):
        if hidden_from_rankings(session=session, user_id=user.id) is not None:
            raise AccountError('admin.error.already_hidden')
        add_moderation(session=session, entry=Moderation(action=HIDE, moderator_id=moderator_id, target_id=user.id,
                                                         reason=reason))


def rename(moderator_id: int, username: str, reason: str) -> str:
    """A moderator replaces the account's display name by a neutral one (``#`` and its number,
    the same in every language), and its owner must choose another at the next sign-in; returns
    the neutral name. Raises AccountError as ``hide_from_rankings``."""
    with acting(moderator_id, username, reason) as (session, user, reason):
        neutral = neutral_name(user.id)
        add_moderation(session=session, entry=Moderation(action=RENAME, moderator_id=moderator_id,
                                                         target_id=user.id, reason=reason, detail=user.display_name))
        set_display_name(session=session, user_id=user.id, display_name=neutral, must_rename=True)
        return neutral


def neutral_name(user_id: int) -> str:
    return f'#{user_id}'


@contextmanager
def acting(moderator_id: int, username: str, reason: str) -> Iterator[tuple[Session, User, str]]:
    """A moderator's act on an account, in one transaction: the reason said (folded to one line),
    the account found. Raises AccountError for what a moderator can correct."""
    reason = ' '.join(reason.split())
    if not reason:
        raise AccountError('admin.error.reason')
    if len(reason) > REASON_MAX:
        raise AccountError('admin.error.reason_long', max=REASON_MAX)
    if not is_moderator(moderator_id):
        raise AccountError('admin.error.not_moderator')
    with session_scope() as session:
        user = get_user_by_username(session=session, username=username.strip())
        if user is None:
            raise AccountError('admin.error.no_account')
        yield session, user, reason


def undo(moderator_id: int, entry_id: int) -> None:
    """Undo an act of the audit: a hiding ends, a grant or a revoke is reversed. Undoing is kept
    on the act (when and by whom); an act undone stays undone. Raises AccountError."""
    if not is_moderator(moderator_id):
        raise AccountError('admin.error.not_moderator')
    with session_scope() as session:
        entry = session.get(Moderation, entry_id) if isinstance(entry_id, int) else None
        if entry is None or entry.undone_at is not None:
            raise AccountError('admin.error.no_act')
        if entry.action in (GRANT, REVOKE):
            if entry.target_id == moderator_id:
                raise AccountError('admin.error.own_role')   # nobody ends their own standing by a click
            set_role(session=session, user_id=entry.target_id, role=None if entry.action == GRANT else MODERATOR)
        elif entry.action == RENAME:   # the name back, unless its owner has chosen a new one since
            user = session.get(User, entry.target_id)
            if user is not None and user.display_name == neutral_name(user.id):
                set_display_name(session=session, user_id=user.id, display_name=entry.detail, must_rename=False)
        entry.undone_at, entry.undone_by = utcnow(), moderator_id
        session.add(entry)


def rename_reason(user_id: int) -> str | None:
    """Why a moderator replaced this account's name, the latest time (not undone)."""
    with session_scope() as session:
        return standing_reason(session=session, user_id=user_id, action=RENAME)


def hidden_reason(user_id: int) -> str | None:
    """Why this account is hidden from the rankings (what the person is told); None if it is not."""
    with session_scope() as session:
        return hidden_from_rankings(session=session, user_id=user_id)


def audit(limit: int = 100) -> list[Entry]:
    with session_scope() as session:
        return [Entry(entry.id, entry.at, entry.action, target, by, entry.reason, entry.undone_at)
                for entry, target, by in moderation_log(session=session, limit=limit)]


def marked(limit: int = 50) -> list[Marked]:
    with session_scope() as session:
        return [Marked(change.at, change.game_id, change.table_id, name, change.marks, change.after - change.before)
                for change, name in marked_rated_games(session=session, limit=limit)]
