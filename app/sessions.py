"""Sign-in sessions of our own, apart from NiceGUI's storage cookie.

A signed-in browser holds a random token in an HttpOnly, SameSite=Lax cookie (`Secure` over HTTPS);
the database keeps only its SHA-256, its expiry (30 days) and its last use, to the hour: a session
unused for 7 days ends too (`SignInSession`). A page's event handler cannot set a cookie, because
its answer goes over the websocket: after the password checks out, the handler asks for a one-use ticket (a pending row that lives a minute) and sends the browser to
`/session/start?ticket=...`, a plain HTTP route that swaps the ticket for a brand-new session token,
sets the cookies and redirects to the page the player wanted. Whatever cookies the browser held
before are worth nothing afterwards (no session fixation).

The same route hands the browser OWASP's device cookie (`hod_device`, also stored hashed as a
`KnownDevice` of the account): an account locked by failed attempts stays open to browsers that
have signed in to it before (see `app.accounts.authenticate`).

`/session/end` clears the cookie of a session the sign-out button has ended (a link from another
site to it signs nobody out); changing the password or "Sign out on all devices" ends the
account's other sessions (`end_other_sessions`, `end_all_sessions`).

Layers: this module knows tokens, cookies and their routes, and nothing of accounts or NiceGUI;
`app.accounts` (the account domain) uses it, and `app.visitor` (who this browser is) uses both.
`safe_next` and the redirects to the login page live here, beside the routes that follow them.
"""
from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import datetime, timedelta
from urllib.parse import quote, urlencode, urlsplit

from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app import fairplay
from models.db import session_scope
from models.tables import (User, add_sign_in_session, end_sign_in_sessions, forget_expired_sign_in_sessions,
                           remember_device, take_sign_in_ticket, user_of_sign_in_session, utcnow)

log = logging.getLogger(__name__)

SESSION_COOKIE = 'hod_session'
DEVICE_COOKIE = 'hod_device'
SESSION_LIFETIME = timedelta(days=30)
IDLE_LIMIT = timedelta(days=7)       # a session unused this long ends, however young it is
TOUCH_EVERY = timedelta(hours=1)     # how stale "last used" may be: reading a session writes at most hourly
TICKET_LIFETIME = timedelta(minutes=1)
DEVICE_LIFETIME = timedelta(days=365)
RENAME_PATH = '/account'   # where an account whose name a moderator replaced chooses another


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def ticket_digest(ticket: str, browser: str | None) -> str:
    """What is stored of a ticket: its hash together with the browser it was issued to (NiceGUI's
    browser id, from the signed session cookie), so that only that browser can use it."""
    return digest(f'{browser or ""}:{ticket}')


def issue_ticket(user_id: int, browser: str | None) -> str:
    """A one-use ticket that /session/start turns into a session of `user_id` within a minute, in
    the browser that asked for it alone (NiceGUI's browser id): a ticket an attacker got for their
    own account and sends as a link signs nobody else in (login CSRF)."""
    ticket = new_token()
    with session_scope() as session:
        add_sign_in_session(session=session, token_hash=ticket_digest(ticket, browser), user_id=user_id,
                            expires_at=utcnow() + TICKET_LIFETIME, pending=True)
    return ticket


def start_path(ticket: str, next_path: str) -> str:
    return '/session/start?' + urlencode({'ticket': ticket, 'next': next_path})


def begin_session(ticket: str, browser: str | None, *, old_session: str | None = None,
                  device: str | None = None, address: str | None = None) -> tuple[str, str] | None:
    """Swap a ticket for a new session token: (session token, device token), or None for a ticket
    that is unknown, used, expired or issued to another browser. The browser's old session ends;
    its device token is kept, and the account is seen at this browser and address (app.fairplay)."""
    now = utcnow()
    device = device or new_token()
    token = new_token()
    with session_scope() as session:
        user_id = take_sign_in_ticket(session=session, token_hash=ticket_digest(ticket, browser), now=now)
        if user_id is None:
            return None
        if old_session:
            end_sign_in_sessions(session=session, token_hash=digest(old_session))
        forget_expired_sign_in_sessions(session=session, now=now, idle_since=now - IDLE_LIMIT)
        add_sign_in_session(session=session, token_hash=digest(token), user_id=user_id,
                            expires_at=now + SESSION_LIFETIME)
        remember_device(session=session, token_hash=digest(device), user_id=user_id)
        fairplay.seen(session=session, user_id=user_id, at=now, device=device, browser=browser, address=address)
    return token, device


def user_of_token(token: str | None, *, now: datetime | None = None, visit: dict[str, str | None] | None = None) \
        -> int | None:
    """The account this session token signs in, or None: unknown, ended, past its 30 days, or
    unused for 7 (its last use is kept to the hour, so most calls are a single read). When the
    hourly write of its last use is due, the account is also seen at the ``visit``'s device,
    browser and address (app.fairplay), in the same transaction: a visit costs no other write."""
    if not token:
        return None
    now = now or utcnow()
    with session_scope() as session:
        def touched(user_id: int) -> None:
            fairplay.seen(session=session, user_id=user_id, at=now, **(visit or {}))
        return user_of_sign_in_session(session=session, token_hash=digest(token), now=now,
                                       idle_since=now - IDLE_LIMIT, touch_before=now - TOUCH_EVERY,
                                       touched=touched if visit else None)


def end_session_of_token(token: str | None) -> None:
    """The session this token opened ends (what signing out does)."""
    if token:
        with session_scope() as session:
            end_sign_in_sessions(session=session, token_hash=digest(token))


def end_other_sessions(user_id: int, keep_token: str | None) -> None:
    with session_scope() as session:
        end_sign_in_sessions(session=session, user_id=user_id, keep=digest(keep_token) if keep_token else None)


def end_all_sessions(user_id: int) -> None:
    end_other_sessions(user_id, None)


# the two HTTP routes (registered by app.pages.register_pages). Async: their few quick queries
# run on the event loop like every page's, instead of waiting for a worker thread of the server

async def start_route(request: Request, ticket: str = '', next: str = '/') -> RedirectResponse:
    try:
        tokens = begin_session(ticket, request.session.get('id'), old_session=request.cookies.get(SESSION_COOKIE),
                               device=request.cookies.get(DEVICE_COOKIE),
                               address=request.client.host if request.client else None)
    except SQLAlchemyError as error:  # back to the form, which says what is wrong if it lasts
        log.error('sessions: the database failed: %s', error.__class__.__name__, exc_info=error)
        tokens = None
    if tokens is None:
        return RedirectResponse('/login?' + urlencode({'next': safe_next(next)}), status_code=303)
    token, device = tokens
    # a moderator replaced the account's name: the account page asks for another first
    response = RedirectResponse(RENAME_PATH if must_choose_a_name(token) else safe_next(next), status_code=303)
    set_cookie(response, request, SESSION_COOKIE, token, SESSION_LIFETIME)
    set_cookie(response, request, DEVICE_COOKIE, device, DEVICE_LIFETIME)
    return response


def must_choose_a_name(token: str) -> bool:
    try:
        user_id = user_of_token(token)
        with session_scope() as session:
            user = session.get(User, user_id) if user_id is not None else None
            return user is not None and user.must_rename
    except SQLAlchemyError:   # signed in all the same: the account page asks when it can read it
        return False


async def end_route(request: Request, next: str = '/') -> RedirectResponse:
    """Clears the cookie of a session that has already ended. The sign-out button ends it (from the
    page's own event, which another site cannot send); a link from elsewhere to this address finds
    the session alive and changes nothing, so nobody can be signed out by a foreign link."""
    response = RedirectResponse(safe_next(next), status_code=303)
    token = request.cookies.get(SESSION_COOKIE)
    try:
        alive = user_of_token(token) is not None
    except SQLAlchemyError as error:
        log.error('sessions: the database failed: %s', error.__class__.__name__, exc_info=error)
        alive = False   # the cookie then goes: a session that cannot be read signs nobody in
    if not alive:
        response.delete_cookie(SESSION_COOKIE, path='/', httponly=True, samesite='lax',
                               secure=request.url.scheme == 'https')
    return response


def set_cookie(response: RedirectResponse, request: Request, name: str, value: str, lifetime: timedelta) -> None:
    response.set_cookie(name, value, max_age=int(lifetime.total_seconds()), path='/', httponly=True,
                        samesite='lax', secure=request.url.scheme == 'https')


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


def end_path(next_path: str) -> str:
    return f'/session/end?next={quote(safe_next(next_path), safe="/")}'


def login_redirect(request: Request) -> RedirectResponse:
    """For a page that needs an account: to the login page, which comes back here afterwards."""
    here = request.url.path + (f'?{request.url.query}' if request.url.query else '')
    return RedirectResponse(login_path(here), status_code=303)
