"""A session unused for 7 days ends, beside the 30 days a session lives at most, on SQLite and on
PostgreSQL; its last use is written at most once an hour, so reading a session stays a read.
Time is passed in (`now`), never waited for."""
from datetime import timedelta

import pytest

from app import sessions
from app.accounts import register, sign_in
from models.db import session_scope
from models.tables import SignInSession, utcnow

pytestmark = pytest.mark.usefixtures('database', 'fresh_accounts')

PASSWORD = 'correct horse'
DAY, HOUR = timedelta(days=1), timedelta(hours=1)


def new_session() -> str:
    _, ticket = sign_in(username='Ana', password=PASSWORD)
    token, _ = sessions.begin_session(ticket, None)
    return token


def last_use(token: str):
    with session_scope() as session:
        moment = session.get(SignInSession, sessions.digest(token)).last_used_at
    return moment.replace(tzinfo=moment.tzinfo or utcnow().tzinfo)


def test_a_session_unused_for_seven_days_ends_and_one_in_use_lives_its_thirty():
    account = register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    idle, used = new_session(), new_session()
    start = utcnow()
    assert sessions.user_of_token(idle, now=start + 6 * DAY) == account.id
    assert sessions.user_of_token(idle, now=start + 6 * DAY + 7 * DAY + HOUR) is None   # a week and an hour unused
    for day in range(6, 30, 6):                       # used every six days: never idle a week
        assert sessions.user_of_token(used, now=start + day * DAY) == account.id
    assert sessions.user_of_token(used, now=start + 30 * DAY + HOUR) is None            # the absolute limit


def test_the_last_use_is_written_at_most_once_an_hour():
    register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    token = new_session()
    began = last_use(token)
    for minutes in (1, 20, 59):
        sessions.user_of_token(token, now=began + timedelta(minutes=minutes))
    assert last_use(token) == began                   # reads within the hour wrote nothing
    later = began + HOUR + timedelta(minutes=1)
    sessions.user_of_token(token, now=later)
    assert last_use(token) == later


def test_idle_sessions_are_forgotten_at_the_next_sign_in():
    register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    token = new_session()
    with session_scope() as session:
        session.get(SignInSession, sessions.digest(token)).last_used_at = utcnow() - 8 * DAY
    new_session()
    with session_scope() as session:
        assert session.get(SignInSession, sessions.digest(token)) is None
