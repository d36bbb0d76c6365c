"""Fair play as the database keeps it, on SQLite and on PostgreSQL: a leaver's wait grows with
repeats and fades with the days (app.playban, on given times); accounts seen at one browser in
the last 30 days are told apart from those seen only at one address (app.fairplay); one pair's
rating moves at most 150 shown points in 24 hours, and a capped or shared-address change is
marked for moderation (app.standings)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from app import fairplay, playban, sessions
from app.fairplay.pairs import DAILY_CAP
from app.standings import rating_of, record_rated_game
from models.db import session_scope
from models.fairplay import Sighting
from models.tables import RatingChange, create_user, utcnow

NOW = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def account(name: str) -> int:
    with session_scope() as session:
        return create_user(session=session, username=name, display_name=name, password_hash='x', language=None).id


def seen(user_id: int, at: datetime = NOW, **where: str) -> None:
    with session_scope() as session:
        fairplay.seen(session=session, user_id=user_id, at=at, **where)


def leave(user_id: int, table_id: str, at: datetime) -> None:
    playban.record_leave(user_id=user_id, table_id=table_id, game_id='chinchon', aborted=True, at=at)


def test_a_leavers_wait_grows_with_repeats_and_fades_with_the_days(database: str) -> None:
    ana = account('Ana')
    leave(ana, 't1', NOW)
    assert playban.time_left(user_id=ana, now=NOW) is None          # once is forgiven
    leave(ana, 't2', NOW + MINUTE)
    leave(ana, 't2', NOW + 2 * MINUTE)                              # one table counts once
    assert playban.time_left(user_id=ana, now=NOW + MINUTE) == timedelta(minutes=10)
    assert playban.time_left(user_id=ana, now=NOW + 7 * MINUTE) == timedelta(minutes=4)
    assert playban.time_left(user_id=ana, now=NOW + 11 * MINUTE) is None
    leave(ana, 't3', NOW + 11 * MINUTE)                             # again as soon as it ended
    assert playban.time_left(user_id=ana, now=NOW + 11 * MINUTE) == timedelta(minutes=22)
    later = NOW + timedelta(days=8)                                 # a week without leaving
    leave(ana, 't4', later)
    leave(ana, 't5', later + MINUTE)
    assert playban.time_left(user_id=ana, now=later + MINUTE) == timedelta(minutes=10)
    assert playban.time_left(user_id=account('Luis'), now=later) is None


def test_one_browser_is_told_apart_from_one_address_and_30_days_forget_both(database: str) -> None:
    ana, bea, luis, eva = account('Ana'), account('Bea'), account('Luis'), account('Eva')
    seen(ana, device='cookie-1', browser='b-1', address='203.0.113.7')
    seen(bea, browser='b-1', address='198.51.100.1')                   # Ana's browser, another address
    seen(luis, device='cookie-2', browser='b-2', address='203.0.113.7')  # Ana's router only
    seen(eva, NOW - timedelta(days=31), device='cookie-1')             # Ana's browser, long ago
    assert fairplay.shared_browsers([ana, bea, luis, eva], NOW) == {(ana, bea)}
    assert fairplay.shared_addresses([ana, bea, luis, eva], NOW) == {(ana, luis)}
    with session_scope() as session:
        assert fairplay.browser_partners(session=session, user_id=ana, now=NOW) == [bea]
        kept = {row.key_hash for row in session.exec(select(Sighting))}
    assert not {'cookie-1', 'b-1', '203.0.113.7'} & kept                 # only keyed hashes are kept
    seen(eva, NOW, device='cookie-1')                                    # back in that browser now
    assert fairplay.shared_browsers([ana, eva], NOW) == {(ana, eva)}


def test_an_ipv6_household_is_one_address(database: str) -> None:
    ana, luis = account('Ana'), account('Luis')
    seen(ana, address='2001:db8:1:2::10')
    seen(luis, address='2001:db8:1:2:abcd::99')
    assert fairplay.shared_addresses([ana, luis], NOW) == {(ana, luis)}


def one_game(winner: int, loser: int, table_id: str, at: datetime, **marks) -> dict[int, tuple[int, int]]:
    return record_rated_game(game_id='chinchon', table_id=table_id, people={0: winner, 1: loser}, computers={},
                             placements=[1, 2], at=at, **marks)


def marks_of(table_id: str) -> dict[int, str]:
    with session_scope() as session:
        return {row.user_id: row.marks for row in session.exec(select(RatingChange)
                                                               .where(RatingChange.table_id == table_id))}


def test_a_pair_moves_at_most_150_points_in_24_hours(database: str) -> None:
    ana, luis, eva = account('Ana'), account('Luis'), account('Eva')
    gains = []
    for game in range(5):   # Luis loses to Ana again and again (or never moves, and is placed last)
        shown = one_game(ana, luis, f'farm{game}', NOW + game * MINUTE)
        gains.append(shown[ana][1] - shown[ana][0])
    assert gains == [78, 59, 13, 0, 0]
    assert sum(gains) == DAILY_CAP
    assert rating_of(user_id=luis, game_id='chinchon').display() == 1500 - DAILY_CAP
    assert marks_of('farm1') == {ana: '', luis: ''} and marks_of('farm2') == {ana: 'capped', luis: 'capped'}
    # with somebody else, Ana's rating still moves; and a day later, with Luis again
    with_eva = one_game(ana, eva, 'other', NOW + 10 * MINUTE)
    assert with_eva[ana][1] > with_eva[ana][0]
    next_day = one_game(ana, luis, 'next-day', NOW + timedelta(hours=24, minutes=1))
    assert next_day[ana][1] > next_day[ana][0]


def test_a_shared_address_is_rated_and_marked(database: str) -> None:
    ana, luis = account('Ana'), account('Luis')
    shown = one_game(ana, luis, 'family', NOW, marked={ana, luis})
    assert shown[ana][1] > 1500 > shown[luis][1]
    assert marks_of('family') == {ana: 'address', luis: 'address'}


def sightings(user_id: int) -> set[tuple[str, str]]:
    with session_scope() as session:
        return {(row.kind, row.key_hash) for row in session.exec(select(Sighting).where(Sighting.user_id == user_id))}


def test_an_account_is_seen_at_sign_in_and_then_at_most_hourly_on_a_visit(database: str) -> None:
    ana = account('Ana')
    token, device = sessions.begin_session(sessions.issue_ticket(ana, 'browser-1'), 'browser-1',
                                           address='203.0.113.7')
    assert sightings(ana) == {('device', fairplay.key_hash('device', device)),
                              ('browser', fairplay.key_hash('browser', 'browser-1')),
                              ('address', fairplay.key_hash('address', '203.0.113.7'))}
    phone = {'device': device, 'browser': 'browser-1', 'address': '198.51.100.20'}   # the same browser, on the move
    assert sessions.user_of_token(token, visit=phone) == ana
    assert ('address', fairplay.key_hash('address', '198.51.100.20')) not in sightings(ana)   # within the hour: no write
    assert sessions.user_of_token(token, now=utcnow() + timedelta(hours=2), visit=phone) == ana
    assert ('address', fairplay.key_hash('address', '198.51.100.20')) in sightings(ana)
    luis = account('Luis')   # Luis signs in on Ana's browser: one browser, two accounts
    sessions.begin_session(sessions.issue_ticket(luis, 'browser-1'), 'browser-1', device=device)
    assert fairplay.shared_browsers([ana, luis], utcnow()) == {(ana, luis)}
