"""Recovery codes: the way back into an account whose password is lost (the site sends no email).

They are NIST SP 800-63B look-up secrets: ten codes shown once at sign-up (and again whenever the
owner renews them on /account, which voids the old set), each good for one use. With one of them,
the username and a new password, `recover` sets the password and ends every session of the
account.

A code is ten characters of an alphabet without look-alikes (no 0/O, 1/I/L), about 49 bits of
chance, shown in two groups of five. Typing is forgiving: case, spaces and dashes do not matter.

Stored is an HMAC-SHA256 of the account id and the code, keyed with a key derived from the site's
storage secret, which lives outside the database. Why a fast keyed hash and not argon2 like the
passwords: a code is random and long (nobody picks it, there is no dictionary to try), guessing
online is throttled like signing in (free tries, then waits that double), and a copy of the
database alone cannot be searched offline without the key. A keyed hash also lets the code be
found by its hash, so that using it is one conditional DELETE: of two attempts with the same code
at the same moment, exactly one gets through. Changing STORAGE_SECRET voids every code.

Whom the throttle stops: the client that guesses. Its own counts (browser, address, or a device
the account knows) refuse it once used up, a right code included. The account's count, which
anybody who types the username fills, counts every wrong code (a wrong code past its free tries
reads "wait", and sign-in from a new browser waits too) but never refuses a code: otherwise five
wrong codes typed by a stranger would keep the owner out of the one way back into the account.

No page and no NiceGUI here: the pages call these in a worker thread (the new password's hash is slow).
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import UTC, datetime

from app import accounts, config
from app.accounts import Account, AccountError, Client, database_guard
from models.db import session_scope
from models.tables import (count_recovery_codes, end_sign_in_sessions, get_user_by_username, replace_recovery_codes,
                           set_password_hash, take_recovery_code, utcnow)

ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'   # no 0/O, 1/I/L: nothing to misread on paper
CODE_LENGTH = 10
GROUP = 5
CODES = 10
TYPED_CODE_LENGTH = 32   # what the form takes: a code with its dash, spaces, a stray character


def new_code() -> str:
    return ''.join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def shown(code: str) -> str:
    """'ABCDE-FGHJK': grouped for reading aloud and copying by hand."""
    return '-'.join(code[start:start + GROUP] for start in range(0, len(code), GROUP))


def typed(text: str) -> str:
    """The code as stored, from what a person typed (any case, spaces and dashes anywhere)."""
    return re.sub(r'[\s\-‐‑‒–—_.]', '', text).upper()


def code_hash(user_id: int, code: str) -> str:
    """HMAC-SHA256 of the account and the code (see the module's docstring for why this hash)."""
    return hmac.new(_key(), f'{user_id}:{code}'.encode(), hashlib.sha256).hexdigest()


def _key() -> bytes:
    # derived, so that the secret that signs cookies is never used as this key itself
    return hmac.new(config.storage_secret().encode(), b'house-of-decks recovery codes', hashlib.sha256).digest()


def new_codes(user_id: int) -> list[str]:
    """A fresh set of codes for the account, to show once (grouped); the old set is void from now."""
    codes = [new_code() for _ in range(CODES)]
    with database_guard(), session_scope() as session:
        replace_recovery_codes(session=session, user_id=user_id, code_hashes=[code_hash(user_id, code) for code in codes])
    return [shown(code) for code in codes]


def renew_codes(*, user_id: int, password: str) -> list[str]:
    """`new_codes`, once the password confirms it is the owner asking."""
    accounts.check_password(user_id, password)
    return new_codes(user_id)


def codes_left(user_id: int) -> int:
    with database_guard(), session_scope() as session:
        return count_recovery_codes(session=session, user_id=user_id)


def recover(*, username: str, code: str, new_password: str, confirmation: str, now: datetime | None = None,
            client: Client = Client()) -> tuple[Account, int]:
    """Set a new password with a recovery code: (the account, codes it has left). The code is used
    up and every session of the account ends in the same transaction. Refusals: the new password's
    own ('password_length', 'password_mismatch', counted as nothing), 'recovery_failed' (the same
    for an unknown name and a wrong code), 'throttled' (too many failures, as for signing in) and
    'unavailable'."""
    accounts.validate_new_password(new_password, confirmation)
    now = (now or utcnow()).astimezone(UTC)
    with database_guard():
        with session_scope() as session:
            keys = accounts.open_throttle_keys(session, username, client, now, gated_by_shared=False)
            user = get_user_by_username(session=session, username=username)
            account = Account.of(user) if user is not None else None
        # hashed outside any transaction, and for an unknown name too: the answer takes as long
        new_hash = accounts.hash_password(new_password)
        with session_scope() as session:
            used = account is not None and take_recovery_code(session=session, user_id=account.id,
                                                              code_hash=code_hash(account.id, typed(code)))
            if used:
                set_password_hash(session=session, user_id=account.id, password_hash=new_hash)
                end_sign_in_sessions(session=session, user_id=account.id)
                accounts.forgive_failures(session, keys)
                left = count_recovery_codes(session=session, user_id=account.id)
        if not used:
            raise _recovery_refusal(accounts.count_failure(keys, now))
    return account, left


def _recovery_refusal(refusal: AccountError) -> AccountError:
    """The throttle's refusal in recovery's words: a wrong code is not a wrong password."""
    return refusal if refusal.key == 'account.error.throttled' else AccountError('account.error.recovery_failed')


def register_with_codes(**fields: str | None) -> tuple[Account, list[str]]:
    """`accounts.register`, and the new account's first codes. The page shows them before it
    signs the browser in (`accounts.sign_in_ticket`), so a one-minute ticket never waits on a person
    copying codes."""
    account = accounts.register(**fields)
    return account, new_codes(account.id)
