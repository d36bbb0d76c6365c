"""Accounts: password hashing, sign-up, login with throttling, password changes.

Guests play without an account; an account only adds the score history. This is the account
domain: no page, no NiceGUI. Signing in ends in a one-use ticket of `app.sessions`, which turns it
into the session cookie; who is signed in in the browser at hand is `app.visitor`'s question.

Every refusal is an `AccountError` carrying a catalog key and its parameters, so that pages show
it in the player's language: `t(error.key, **error.params)`.

Login failures say the same thing whether or not the username exists, and cost the same: a
missing user is checked against a dummy hash. Failures are counted in the database
(`LoginThrottle`, one atomic upsert per key), so the slow-down survives restarts and holds under
parallel attempts: after `FREE_FAILURES[kind]` failures a key is locked for `FIRST_WAIT`, doubling
with every further failure up to `MAX_WAIT`. Three kinds of key (OWASP's device-cookie scheme):
the account and the client (by browser and by address), for browsers that have not signed in to
the account before; a browser that has is counted by its device cookie alone, so an attacker cannot
lock the owner out.

Passwords and usernames are compared in Unicode NFKC (NIST SP 800-63B), so 'José' typed with a
combining accent is 'José'. A database that fails (read-only, missing, down) gives the
'account.error.unavailable' refusal, logged once, instead of an exception.
"""
from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from passlib.context import CryptContext
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session

from app import names, sessions
from app.limits import address_key
from models.db import session_scope
from models.tables import (User, clear_login_throttles, count_login_failure, create_user, delete_user,
                           forget_login_failures, get_user, get_user_by_username, is_known_device,
                           lock_login_throttle, locked_throttles, set_display_name, set_password_hash,
                           set_user_language, username_key, utcnow)

log = logging.getLogger(__name__)

USERNAME_LENGTH = (3, 20)
USERNAME_PATTERN = re.compile(r'[^\W]|-')   # any letter (ñ, é too), digit, _ or -
PASSWORD_LENGTH = (8, 128)
DISPLAY_NAME_LENGTH = 40
MODERATOR = 'moderator'   # an account's role: it sees /admin (app.moderation)
# failures before the first lock, per kind of key: an address may be shared by a whole household
FREE_FAILURES = {'account': 5, 'browser': 10, 'address': 30}
FIRST_WAIT = timedelta(seconds=30)
MAX_WAIT = timedelta(minutes=15)
FORGET_FAILURES_AFTER = timedelta(hours=1)
SHARED_KEY = 'account:'   # the key every client that types the username counts against


def password_context(**argon2_settings: int) -> CryptContext:
    """argon2 for new hashes; bcrypt hashes (older accounts) still verify and get upgraded.
    Tests pass cheap argon2 settings (rounds=1, memory_cost=1024); production keeps the defaults."""
    return CryptContext(schemes=['argon2', 'bcrypt'], deprecated='auto',
                        **{f'argon2__{name}': value for name, value in argon2_settings.items()})


PASSWORDS = password_context()


def normalized(text: str) -> str:
    return unicodedata.normalize('NFKC', text)


def hash_password(password: str) -> str:
    return PASSWORDS.hash(normalized(password))


def verify_password(password: str, password_hash: str) -> bool:
    try:
        # a hash made before passwords were normalised holds the password as it was typed
        return PASSWORDS.verify(normalized(password), password_hash) or (
            normalized(password) != password and PASSWORDS.verify(password, password_hash))
    except (ValueError, TypeError):  # unknown or damaged hash: a failed login, not a crash
        return False


@contextmanager
def database_guard() -> Iterator[None]:
    """A database failure (read-only, missing, unreachable) becomes a refusal the page can show."""
    try:
        yield
    except SQLAlchemyError as error:
        log.error('accounts: the database failed: %s', error.__class__.__name__, exc_info=error)
        raise AccountError('account.error.unavailable') from error


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
    role: str | None = None     # MODERATOR (app.moderation), else None
    must_rename: bool = False   # a moderator replaced the display name: another is to be chosen

    @classmethod
    def of(cls, user: User) -> Account:
        assert user.id is not None
        return cls(user.id, user.username, user.display_name, user.language, user.created_at, user.role,
                   user.must_rename)

    @property
    def is_moderator(self) -> bool:
        return self.role == MODERATOR


def validate_username(username: str) -> str:
    """The username in NFKC, or `AccountError` if it breaks the rules."""
    name = normalized(username.strip())
    low, high = USERNAME_LENGTH
    if not (low <= len(name) <= high and len(username_key(name)) <= high
            and all(USERNAME_PATTERN.fullmatch(char) for char in name)):
        raise AccountError('account.error.username_format', min=low, max=high)
    if names.is_refused(name):
        raise AccountError('account.error.name_refused')
    return name


def validate_display_name(display_name: str, username: str) -> str:
    name = ' '.join(normalized(display_name).split())
    if len(name) > DISPLAY_NAME_LENGTH:
        raise AccountError('account.error.display_name_length', max=DISPLAY_NAME_LENGTH)
    if names.is_refused(name):
        raise AccountError('account.error.name_refused')
    return name or username


def validate_new_password(password: str, confirmation: str) -> None:
    low, high = PASSWORD_LENGTH
    if not low <= len(normalized(password)) <= high:
        raise AccountError('account.error.password_length', min=low, max=high)
    if normalized(password) != normalized(confirmation):
        raise AccountError('account.error.password_mismatch')


def register(*, username: str, password: str, confirmation: str, display_name: str = '',
             language: str | None = None) -> Account:
    username = validate_username(username)
    display_name = validate_display_name(display_name, username)
    validate_new_password(password, confirmation)
    password_hash = hash_password(password)
    with database_guard():
        try:
            with session_scope() as session:
                if get_user_by_username(session=session, username=username) is not None:
                    raise AccountError('account.error.username_taken')
                user = create_user(session=session, username=username, display_name=display_name,
                                   password_hash=password_hash, language=language)
                return Account.of(user)
        except IntegrityError as error:  # two sign-ups for one name at the same moment
            raise AccountError('account.error.username_taken') from error


def sign_in_ticket(account: Account, client: Client) -> str:
    """A one-use ticket for /session/start that signs this account in, good in this client's
    browser only (see `app.sessions`)."""
    with database_guard():
        return sessions.issue_ticket(account.id, client.browser)


@dataclass(frozen=True, slots=True)
class Client:
    """Who is trying to sign in: NiceGUI's browser id, the address and the device cookie, if any."""
    browser: str | None = None
    address: str | None = None
    device: str | None = None


def authenticate(*, username: str, password: str, now: datetime | None = None,
                 client: Client = Client()) -> Account:
    """The account for these credentials, else `AccountError` ('login_failed', 'throttled' or
    'unavailable'). The database is used in short transactions around the slow hash check, and a
    failure is counted in one that starts with its write (no lock upgrade for SQLite to refuse)."""
    now = (now or utcnow()).astimezone(UTC)
    with database_guard():
        with session_scope() as session:
            keys = open_throttle_keys(session, username, client, now)
            user = get_user_by_username(session=session, username=username)
            account, stored = (Account.of(user), user.password_hash) if user else (None, _dummy_hash(PASSWORDS))
        if account is None or not verify_password(password, stored):
            raise count_failure(keys, now)
        with session_scope() as session:
            forgive_failures(session, keys)
            if PASSWORDS.needs_update(stored):
                set_password_hash(session=session, user_id=account.id, password_hash=hash_password(password))
    return account


def sign_in(*, username: str, password: str, client: Client = Client()) -> tuple[Account, str]:
    """`authenticate`, then a one-use ticket for /session/start, good in this client's browser only
    (see `app.sessions`)."""
    account = authenticate(username=username, password=password, client=client)
    return account, sign_in_ticket(account, client)


def open_throttle_keys(session: Session, username: str, client: Client, now: datetime, *,
                       gated_by_shared: bool = True) -> dict[str, int]:
    """The throttle keys an attempt on `username` from `client` counts against (see `_throttle_keys`),
    or the 'throttled' refusal while one of them is locked. Sign-in and recovery share them: a
    wrong recovery code is a failed attempt like a wrong password. Recovery passes
    `gated_by_shared=False`: the account's key, which anybody who types the name fills, then counts
    the attempt but does not refuse it; only the client's own keys do (see `app.recovery`)."""
    known = client.device is not None and is_known_device(
        session=session, token_hash=sessions.digest(client.device), username=username)
    keys = _throttle_keys(username, client, known_device=known)
    gates = [key for key in keys if gated_by_shared or not key.startswith(SHARED_KEY)]
    locked = locked_throttles(session=session, keys=gates, now=now)
    if locked:
        raise _throttled(max(_aware(throttle.locked_until) for throttle in locked) - now)
    return keys


def forgive_failures(session: Session, keys: dict[str, int]) -> None:
    """After a success: the account's and the browser's counts start again; an address's does not,
    since others behind it may still be guessing."""
    clear_login_throttles(session=session, keys=[key for key in keys if not key.startswith('address:')])


def _throttle_keys(username: str, client: Client, *, known_device: bool) -> dict[str, int]:
    """Throttle key -> free failures. A browser the account knows is counted by its device cookie
    alone (OWASP): neither the account's lock nor its address's (a whole office behind one address,
    or an attacker in it) keeps the owner out, and dropping its other cookies does not reset the count."""
    if known_device and client.device:
        return {f'device:{sessions.digest(client.device)[:64]}': FREE_FAILURES['browser']}
    keys = {f'{SHARED_KEY}{username_key(username)[:100]}': FREE_FAILURES['account']}
    if client.browser:
        keys[f'browser:{client.browser[:100]}'] = FREE_FAILURES['browser']
    address = address_key(client.address)   # an IPv6 address by its /64
    if address:
        keys[f'address:{address[:100]}'] = FREE_FAILURES['address']
    return keys


def count_failure(keys: dict[str, int], now: datetime) -> AccountError:
    """Count one failed attempt against every key, locking those past their free failures; the
    refusal to raise: 'login_failed', or 'throttled' with the wait."""
    wait = None
    with session_scope() as session:
        for key, free in keys.items():  # always in this order: two attempts never wait on each other's rows
            failures = count_login_failure(session=session, key=key, now=now,
                                           forget_before=now - FORGET_FAILURES_AFTER)
            key_wait = _wait_after(failures, free)
            if key_wait:
                lock_login_throttle(session=session, key=key, until=now + key_wait)
                wait = max(wait or key_wait, key_wait)
    with session_scope() as session:  # apart: it takes no lock while the counts above hold theirs
        forget_login_failures(session=session, before=now - FORGET_FAILURES_AFTER)
    return _throttled(wait) if wait else AccountError('account.error.login_failed')


def _wait_after(failures: int, free: int) -> timedelta | None:
    if failures < free:
        return None
    return min(FIRST_WAIT * 2 ** min(failures - free, 16), MAX_WAIT)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite gives them back naive


def _throttled(wait: timedelta) -> AccountError:
    return AccountError('account.error.throttled', seconds=max(1, math.ceil(wait.total_seconds())))


def change_password(*, user_id: int, current_password: str, new_password: str, confirmation: str,
                    keep_session: str | None = None) -> None:
    """A new password; every session of the account but `keep_session` (this browser's) ends."""
    check_password(user_id, current_password)
    validate_new_password(new_password, confirmation)
    new_hash = hash_password(new_password)
    with database_guard():
        with session_scope() as session:
            set_password_hash(session=session, user_id=user_id, password_hash=new_hash)
        sessions.end_other_sessions(user_id, keep_session)


def delete_account(*, user_id: int, password: str) -> None:
    """The account and all its records, once the password confirms it."""
    check_password(user_id, password)
    with database_guard(), session_scope() as session:
        delete_user(session=session, user_id=user_id)


def sign_out_everywhere(user_id: int) -> None:
    with database_guard():
        sessions.end_all_sessions(user_id)


def change_display_name(*, user_id: int, display_name: str) -> str:
    """The name others see, changed (also the one a moderator's rename asks for); returns it.
    Raises AccountError for an empty, too long or refused name."""
    account = get_account(user_id)
    if account is None:
        raise AccountError('account.error.unavailable')
    name = validate_display_name(display_name, '')
    if not name:
        raise AccountError('account.error.display_name_empty')
    with database_guard():
        with session_scope() as session:
            set_display_name(session=session, user_id=user_id, display_name=name, must_rename=False)
    return name


def must_rename(user_id: int) -> bool:
    """A moderator replaced this account's name: it chooses another (app.moderation)."""
    account = get_account(user_id)
    return account is not None and account.must_rename


def check_password(user_id: int, password: str) -> None:
    with database_guard(), session_scope() as session:
        user = get_user(session=session, user_id=user_id)
        stored = user.password_hash if user else _dummy_hash(PASSWORDS)
    if user is None or not verify_password(password, stored):
        raise AccountError('account.error.wrong_password')


def get_account(user_id: int) -> Account | None:
    with session_scope() as session:
        user = get_user(session=session, user_id=user_id)
        return Account.of(user) if user else None


def save_language(user_id: int, language: str) -> None:
    with session_scope() as session:
        set_user_language(session=session, user_id=user_id, language=language)
