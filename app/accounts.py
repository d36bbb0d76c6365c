"""Accounts: password hashing, sign-up, login with throttling, and who is logged in.

Guests play without an account; an account only adds the score history. The browser session
(NiceGUI's signed `app.storage.user`) holds nothing but the user id under `SESSION_KEY`.

Every refusal is an `AccountError` carrying a catalog key and its parameters, so that pages show
it in the player's language: `t(error.key, **error.params)`.

Login failures say the same thing whether or not the username exists, and cost the same: a
missing user is checked against a dummy hash. Failures are counted per username in the database
(`LoginThrottle`), so the slow-down survives restarts: after `FREE_FAILURES` failures the name is
locked for `FIRST_WAIT`, doubling with every further failure up to `MAX_WAIT`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from urllib.parse import quote, urlsplit

from passlib.context import CryptContext
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app.i18n import LANGUAGES, set_language
from models.db import session_scope
from models.tables import (LoginThrottle, User, clear_login_throttle, create_user, delete_user,
                           forget_login_failures, get_login_throttle, get_user, get_user_by_username,
                           save_login_throttle, set_password_hash, set_user_language, username_key, utcnow)

SESSION_KEY = 'user_id'
USERNAME_PATTERN = re.compile(r'[A-Za-z0-9_-]{3,20}')
PASSWORD_LENGTH = (8, 128)
DISPLAY_NAME_LENGTH = 40
FREE_FAILURES = 5
FIRST_WAIT = timedelta(seconds=30)
MAX_WAIT = timedelta(minutes=15)
FORGET_FAILURES_AFTER = timedelta(hours=1)


def password_context(**argon2_settings: int) -> CryptContext:
    """argon2 for new hashes; bcrypt hashes (older accounts) still verify and get upgraded.
    Tests pass cheap argon2 settings (rounds=1, memory_cost=1024); production keeps the defaults."""
    return CryptContext(schemes=['argon2', 'bcrypt'], deprecated='auto',
                        **{f'argon2__{name}': value for name, value in argon2_settings.items()})


PASSWORDS = password_context()


def hash_password(password: str) -> str:
    return PASSWORDS.hash(password)


def verify_password(password: str, password_hash: str) -> bool:
    try:
        return PASSWORDS.verify(password, password_hash)
    except (ValueError, TypeError):  # unknown or damaged hash: a failed login, not a crash
        return False


@lru_cache(maxsize=4)
def _dummy_hash(context: CryptContext) -> str:
    return context.hash('not the password of anybody')


class AccountError(ValueError):
    """A refusal a person can read: `key` is a catalog key, `params` fill its placeholders."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True, slots=True)
class Account:
    """What pages need of a user, detached from the database session."""
    id: int
    username: str
    display_name: str
    language: str | None
    created_at: datetime

    @classmethod
    def of(cls, user: User) -> Account:
        assert user.id is not None
        return cls(user.id, user.username, user.display_name, user.language, user.created_at)


def validate_username(username: str) -> None:
    if not USERNAME_PATTERN.fullmatch(username.strip()):
        raise AccountError('account.error.username_format')


def validate_new_password(password: str, confirmation: str) -> None:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise AccountError('account.error.password_length', min=low, max=high)
    if password != confirmation:
        raise AccountError('account.error.password_mismatch')


def register(*, username: str, password: str, confirmation: str, display_name: str = '',
             language: str | None = None) -> Account:
    validate_username(username)
    validate_new_password(password, confirmation)
    display_name = ' '.join(display_name.split())[:DISPLAY_NAME_LENGTH] or username.strip()
    password_hash = hash_password(password)
    try:
        with session_scope() as session:
            if get_user_by_username(session=session, username=username) is not None:
                raise AccountError('account.error.username_taken')
            user = create_user(session=session, username=username, display_name=display_name,
                               password_hash=password_hash, language=language)
            return Account.of(user)
    except IntegrityError as error:  # two sign-ups for one name at the same moment
        raise AccountError('account.error.username_taken') from error


def authenticate(*, username: str, password: str, now: datetime | None = None) -> Account:
    """The account for these credentials, else `AccountError` ('login_failed' or 'throttled')."""
    now = (now or utcnow()).astimezone(UTC)
    key = username_key(username)[:128]
    with session_scope() as session:
        throttle = get_login_throttle(session=session, key=key)
        if throttle is not None and throttle.locked_until is not None and throttle.locked_until > now:
            raise _throttled(throttle.locked_until - now)
        user = get_user_by_username(session=session, username=username)
        valid = verify_password(password, user.password_hash if user else _dummy_hash(PASSWORDS))
        if user is None or not valid:
            error = _count_failure(session=session, key=key, throttle=throttle, now=now)
        else:
            clear_login_throttle(session=session, key=key)
            if PASSWORDS.needs_update(user.password_hash):
                user.password_hash = hash_password(password)
                session.add(user)
            return Account.of(user)
    raise error  # outside the session block, so that the counted failure is committed


def _count_failure(*, session, key: str, throttle: LoginThrottle | None, now: datetime) -> AccountError:
    forget_login_failures(session=session, before=now - FORGET_FAILURES_AFTER)
    if throttle is None or now - throttle.last_failure_at > FORGET_FAILURES_AFTER:
        throttle = LoginThrottle(username_key=key, failures=0)
    throttle.failures += 1
    throttle.last_failure_at = now
    wait = _wait_after(throttle.failures)
    throttle.locked_until = now + wait if wait else None
    save_login_throttle(session=session, throttle=throttle)
    return _throttled(wait) if wait else AccountError('account.error.login_failed')


def _wait_after(failures: int) -> timedelta | None:
    if failures < FREE_FAILURES:
        return None
    return min(FIRST_WAIT * 2 ** (failures - FREE_FAILURES), MAX_WAIT)


def _throttled(wait: timedelta) -> AccountError:
    return AccountError('account.error.throttled', seconds=max(1, math.ceil(wait.total_seconds())))


def change_password(*, user_id: int, current_password: str, new_password: str, confirmation: str) -> None:
    _check_password(user_id, current_password)
    validate_new_password(new_password, confirmation)
    new_hash = hash_password(new_password)
    with session_scope() as session:
        set_password_hash(session=session, user_id=user_id, password_hash=new_hash)


def delete_account(*, user_id: int, password: str) -> None:
    """The account and all its records, once the password confirms it."""
    _check_password(user_id, password)
    with session_scope() as session:
        delete_user(session=session, user_id=user_id)


def _check_password(user_id: int, password: str) -> None:
    with session_scope() as session:
        user = get_user(session=session, user_id=user_id)
        stored = user.password_hash if user else _dummy_hash(PASSWORDS)
    if user is None or not verify_password(password, stored):
        raise AccountError('account.error.wrong_password')


def get_account(user_id: int) -> Account | None:
    with session_scope() as session:
        user = get_user(session=session, user_id=user_id)
        return Account.of(user) if user else None


# the browser session (these need a page or event context)

def current_user_id() -> int | None:
    """The id of the account logged in in this browser, or None for a guest (also outside any
    page or event context, and when the account has been deleted meanwhile)."""
    account = current_account()
    return account.id if account else None


def current_account() -> Account | None:
    from nicegui import app

    try:
        user_id = app.storage.user.get(SESSION_KEY)
    except RuntimeError:  # no request context: nobody is logged in here
        return None
    if not isinstance(user_id, int):
        return None
    account = get_account(user_id)
    if account is None:
        app.storage.user.pop(SESSION_KEY, None)
    return account


def start_session(account: Account) -> None:
    """Log this browser in; the account's language (if it chose one) becomes the page language."""
    from nicegui import app

    app.storage.user[SESSION_KEY] = account.id
    if account.language in LANGUAGES:
        set_language(account.language)


def end_session() -> None:
    from nicegui import app

    app.storage.user.pop(SESSION_KEY, None)


def save_language_choice(language: str) -> None:
    """A logged-in player's language choice, saved to the account (the language switch in
    `components/frame.py` calls it); `start_session` brings it back on any device."""
    user_id = current_user_id()
    if user_id is not None:
        with session_scope() as session:
            set_user_language(session=session, user_id=user_id, language=language)


def safe_next(target: str | None, default: str = '/') -> str:
    """`target` if it is a path on this site, else `default` (no open redirects)."""
    if not target or not target.startswith('/') or target.startswith('//') or '\\' in target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or any(ord(char) < 32 for char in target):
        return default
    return target


def login_path(next_path: str) -> str:
    return f'/login?next={quote(safe_next(next_path), safe="/")}'


def login_redirect(request: Request) -> RedirectResponse:
    """For a page that needs an account: to the login page, which comes back here afterwards."""
    here = request.url.path + (f'?{request.url.query}' if request.url.query else '')
    return RedirectResponse(login_path(here), status_code=303)
