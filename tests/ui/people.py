"""Accounts as the simulated users meet them: the tests' password, an account made directly, the
ways of logging in (the form alone, the form and the wait for the signed-in navigation, a sign-in
ticket) and the browser's clock offset."""
from __future__ import annotations

import re

from nicegui import app
from nicegui.testing import User
from seams import sees

from app import accounts, sessions
from app.i18n import CATALOGS

PASSWORD = 'correct horse'
ASK_OFFSET = re.compile(re.escape('new Date().getTimezoneOffset()'))


def set_browser_clock(user: User, offset: int | str) -> None:
    """Make the simulated browser's getTimezoneOffset() answer this (minutes; -120: two hours ahead of UTC)."""
    user.javascript_rules[ASK_OFFSET] = lambda _: offset


def new_account(username: str) -> int:
    """Register an account with PASSWORD, directly (no page); returns its id."""
    return accounts.register(username=username, password=PASSWORD, confirmation=PASSWORD).id


async def log_in(user: User, username: str = 'Ana', password: str = PASSWORD, *, path: str = '/login') -> None:
    """Fill in and send the log-in form at this address, without waiting for what follows."""
    await user.open(path)
    user.find(marker='username').type(username)
    user.find(marker='password').type(password)
    user.find(marker='login-submit').click()


async def log_in_and_see_history(user: User, username: str) -> None:
    """Log in with PASSWORD through the form and wait until the navigation shows the history link."""
    await log_in(user, username)
    await sees(user, CATALOGS['es']['nav.history'])


async def register_and_log_in(user: User, username: str) -> int:
    """Register an account, log in to it through the form and wait for the history link; returns its id."""
    account_id = new_account(username)
    await log_in_and_see_history(user, username)
    return account_id


def browser_id() -> str:
    """NiceGUI's id of the browser that made this test's latest request (in its signed session
    cookie): a sign-in ticket is good in that browser alone."""
    return app.storage.browser['id']


async def sign_in_by_ticket(user: User, username: str) -> int:
    """Register an account and sign this browser in through a sign-in ticket (no form); returns its id."""
    account_id = new_account(username)
    await user.open('/')
    await user.open(sessions.start_path(sessions.issue_ticket(account_id, browser_id()), '/'))
    return account_id
