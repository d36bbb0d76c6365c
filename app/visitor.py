"""Who this browser is: the account signed in here, its guest token, the tables it sits at or
watches. Everything here reads the page (or event) in hand through NiceGUI.

Who is signed in comes from our own session cookie (`app.sessions`), never from NiceGUI's storage
cookie, which may have been copied before the sign-in. A browser keeps only the ids of its tables
(and its guest token, which seats it) in `app.storage.user`: the table itself lives in app.tables,
shared by every tab that shows it.
"""
from __future__ import annotations

import logging
import secrets

from nicegui import app, ui
from sqlalchemy.exc import SQLAlchemyError

from app import sessions
from app.accounts import Account, Client, database_guard, get_account, save_language
from app.games import GameInfo
from app.i18n import LANGUAGES, set_language
from app.tables.registry import open_table
from app.tables.table import Table

log = logging.getLogger(__name__)

TABLES_KEY = 'tables'   # app.storage.user: game id -> id of this browser's latest table of it
GUEST_KEY = 'guest'
WATCHING_KEY = 'watching'   # app.storage.user: the rooms this browser watches, admitted by their invite link
MOST_WATCHED = 20           # the newest ones: what a browser keeps cannot grow without bound


# the account signed in here

def session_token() -> str | None:
    """This browser's session cookie, as sent with the request of the page in hand."""
    try:
        return ui.context.client.request.cookies.get(sessions.SESSION_COOKIE)
    except RuntimeError:  # no page or event context: nobody is signed in here
        return None


def current_account() -> Account | None:
    token = session_token()
    if not token:
        return None
    try:
        user_id = sessions.user_of_token(token, visit=_visit())
        return get_account(user_id) if user_id is not None else None
    except SQLAlchemyError as error:  # pages still show, as a guest's
        log.error('visitor: the database failed: %s', error.__class__.__name__, exc_info=error)
        return None


def _visit() -> dict[str, str | None] | None:
    """This browser as fair play knows it (app.fairplay): its device cookie, NiceGUI's browser id,
    its address; None outside a page or event."""
    try:
        client = ui.context.client
        return {'device': client.request.cookies.get(sessions.DEVICE_COOKIE),
                'browser': app.storage.browser.get('id'), 'address': client.ip or None}
    except RuntimeError:
        return None


def current_user_id() -> int | None:
    """The id of the account signed in in this browser, or None for a guest (also outside any
    page or event context, when the session has ended or the account has been deleted meanwhile)."""
    account = current_account()
    return account.id if account else None


def client_of_this_browser() -> Client:
    """For `sign_in`'s throttle: read in the event handler, before the work goes to a thread."""
    client = ui.context.client
    return Client(browser=app.storage.browser.get('id'), address=client.ip or None,
                  device=client.request.cookies.get(sessions.DEVICE_COOKIE))


def start_session(account: Account, ticket: str, next_path: str) -> None:
    """Send the browser to swap its ticket for a session cookie (app.sessions), then to `next_path`;
    the account's language (if it chose one) becomes the page language."""
    if account.language in LANGUAGES:
        set_language(account.language)
    ui.navigate.to(sessions.start_path(ticket, sessions.safe_next(next_path)))


def sign_out(next_path: str = '/') -> None:
    """Sign this browser out: its session ends at once, and /session/end clears the cookie."""
    with database_guard():
        sessions.end_session_of_token(session_token())
    ui.navigate.to(sessions.end_path(next_path))


def save_language_choice(language: str) -> None:
    """A logged-in player's language choice, saved to the account (the language switch in
    `components/frame.py` calls it); `start_session` brings it back on any device."""
    user_id = current_user_id()
    if user_id is not None:
        save_language(user_id, language)


# the tables of this browser

def guest_token() -> str:
    """This browser's token: the seats it sits at (kept with NiceGUI's signed browser storage)."""
    storage = app.storage.user
    token = storage.get(GUEST_KEY)
    if not isinstance(token, str) or len(token) < 16:
        token = storage[GUEST_KEY] = secrets.token_urlsafe(16)
    return token


def my_table_id(game: GameInfo) -> str | None:
    tables = app.storage.user.get(TABLES_KEY)
    table_id = tables.get(game.id) if isinstance(tables, dict) else None
    return table_id if isinstance(table_id, str) else None


def my_open_table(game: GameInfo) -> Table | None:
    """This browser's unfinished table of `game`, if it still sits at one."""
    table_id = my_table_id(game)
    table = open_table(table_id) if table_id else None
    if table is None or table.is_over() or table.seat_of(guest_token(), current_user_id()) is None:
        return None
    return table


def remember_table(table: Table) -> None:
    """This browser's latest table of its game, which the home and setup pages offer to resume."""
    tables = app.storage.user.get(TABLES_KEY)
    app.storage.user[TABLES_KEY] = {**(tables if isinstance(tables, dict) else {}), table.game.id: table.id}


def watched_tables() -> list[str]:
    """The ids of the rooms this browser was admitted to watch by their invite link."""
    watched = app.storage.user.get(WATCHING_KEY)
    return [table_id for table_id in watched if isinstance(table_id, str)] if isinstance(watched, list) else []


def watch(table: Table) -> None:
    watched = [table_id for table_id in watched_tables() if table_id != table.id]
    app.storage.user[WATCHING_KEY] = (watched + [table.id])[-MOST_WATCHED:]
