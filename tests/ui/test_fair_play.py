"""Fair play at public tables through NiceGUI's simulated users: a rated game whose person's seat
a computer took before they played twice is aborted and unrated, and whoever keeps doing it
waits before playing people (told why and for how long on the setup page, on the manual clock);
two accounts of one browser are not seated together by quick match and their game is unrated
however they met; two that share only an address play rated, marked for moderation."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from nicegui.testing import User
from people import browser_id, sign_in_by_ticket
from screen import one
from seams import sees, until
from sqlmodel import select
from test_public_tables import play_out, quick

from app import playban, sessions
from app.engine.protocol import IllegalAction
from app.games import GAMES_BY_ID
from app.i18n import CATALOGS
from app.lobby import matching
from app.standings import rating_of
from app.tables.registry import open_table
from models.db import session_scope
from models.tables import RatingChange

ES = CATALOGS['es']


def left(user_id: int, table_id: str, clock) -> None:
    """This account left a rated game now (on the tables' clock)."""
    playban.record_leave(user_id=user_id, table_id=table_id, game_id='chinchon', aborted=True,
                         at=datetime.fromtimestamp(clock.wall(), UTC))


@pytest.fixture(autouse=True)
def no_tables_left(fresh_accounts) -> None:
    """No public table or account of an earlier test is left."""


async def play_own_turns(table, seat: int) -> None:
    """The person at ``seat`` plays their own turns (the easy computer's choices) until it is
    somebody else's turn."""
    turn = 0
    while table.state.current_seat == seat and not table.is_over():
        if table.pause is not None:
            table.resume_after_count(seat, table.version)
            continue
        action = await table.thinker.think(table.game.id, 'easy', f'own:{turn}', table.view(seat))
        table.act(seat, action, table.version)
        turn += 1
        await table.settle()


async def rated_room(user: User):
    """A public rated table of two seats opened from the setup page: it waits for somebody to Join."""
    await user.open('/play/chinchon')
    user.find(marker='friends').click()
    user.find(marker='room-public').click()
    user.find(marker='opt-seats').elements.pop().value = 2
    user.find(marker='start').click()
    await sees(user, marker='waiting-room', clock_moves=False)
    table = open_table(one(user, 'waiting-room').props['data-table'])
    assert table.room.rated and table.waiting
    return table


async def two_at_a_quick_match(user: User, create_user) -> tuple:
    """Ana and Luis, signed in on two browsers, at one rated quick match that has started."""
    ana = await sign_in_by_ticket(user, 'Ana')
    table_id = await quick(user)
    luis_user = create_user()
    luis = await sign_in_by_ticket(luis_user, 'Luis')
    assert await quick(luis_user) == table_id
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    await sees(luis_user, marker='table')
    return table, ana, luis, luis_user


async def test_a_rated_game_left_before_two_moves_is_unrated_and_the_leaver_waits(user: User, create_user,
                                                                                  clock) -> None:
    table, ana, luis, luis_user = await two_at_a_quick_match(user, create_user)
    seat = table.seat_of(None, luis)
    luis_user.client.delete()   # Luis's page is gone before he played
    await play_own_turns(table, 1 - seat)   # Ana plays hers herself
    assert table.state.current_seat == seat and table.room.unrated is None
    await clock.advance(31)                 # his turn clock runs out with no screen of his open
    await until(lambda: table.presence.stand_ins.get(seat) == 'away')
    assert table.room.unrated == 'aborted'
    assert table.snapshot(1 - seat).room.rated is False
    await sees(user, ES['log.room.aborted'].format(name='Luis'))
    await play_out(table, leaver=seat)
    assert rating_of(user_id=ana, game_id='chinchon').games == rating_of(user_id=luis, game_id='chinchon').games == 0
    assert table.room.rating_changes == {}
    # the first leave is forgiven; a second within a day makes him wait 10 minutes
    await luis_user.open('/play/chinchon')
    await sees(luis_user, marker='quick-match')
    await luis_user.should_not_see(marker='playban')
    left(luis, 'another', clock)   # he leaves another rated game, of another game, at once
    await luis_user.open('/play/chinchon')
    await sees(luis_user, ES['playban.wait'].format(left='10 min'))
    assert not one(luis_user, 'quick-match').enabled
    await clock.advance(4 * 60)
    await luis_user.open('/play/chinchon')
    await sees(luis_user, ES['playban.wait'].format(left='6 min'))
    await clock.advance(6 * 60)
    await luis_user.open('/play/chinchon')
    await sees(luis_user, marker='quick-match')
    await luis_user.should_not_see(marker='playban')
    assert one(luis_user, 'quick-match').enabled


async def test_the_wait_is_said_in_english_and_a_crafted_quick_match_or_join_is_refused(user: User, create_user,
                                                                                        clock) -> None:
    ana = create_user()
    await sign_in_by_ticket(ana, 'Ana')
    waiting = (await rated_room(ana)).id
    luis = await sign_in_by_ticket(user, 'Luis')
    left(luis, 't1', clock)
    left(luis, 't2', clock)
    user.http_client.headers['Accept-Language'] = 'en'
    clock.autojump = False
    await clock.advance(30)
    await user.open('/play/chinchon')
    await sees(user, CATALOGS['en']['playban.wait'].format(left='10 min'), clock_moves=False)
    await sees(user, CATALOGS['en']['playban.why'], clock_moves=False)
    person = matching.Person('guest-token-of-luis', luis, 'Luis')
    with pytest.raises(IllegalAction) as refused:   # a crafted click of the disabled button
        matching.quick_match(GAMES_BY_ID['chinchon'], 2, person, wall=clock.wall())
    assert refused.value.code == 'playban' and refused.value.params == {'seconds': 570}
    with pytest.raises(IllegalAction) as refused:   # nor Join in the lobby
        matching.join(waiting, person)
    assert refused.value.code == 'playban'
    await user.open(f'/table/{waiting}')
    user.find(marker='join').click()
    await sees(user, CATALOGS['en']['playban.wait'].format(left='10 min'), clock_moves=False)


async def _two_accounts_of_one_browser(user: User, create_user) -> tuple[int, int, User]:
    """Ana signs in on this browser, then Bea on the same one; Ana also has a second browser."""
    ana = await sign_in_by_ticket(user, 'Ana')
    bea = await sign_in_by_ticket(user, 'Bea')
    elsewhere = create_user()
    await elsewhere.open('/')
    await elsewhere.open(sessions.start_path(sessions.issue_ticket(ana, browser_id()), '/'))
    return ana, bea, elsewhere


async def test_two_accounts_of_one_browser_are_not_seated_together_by_quick_match(user: User, create_user) -> None:
    _, _, elsewhere = await _two_accounts_of_one_browser(user, create_user)
    ana_table = await quick(elsewhere)
    assert await quick(user) != ana_table         # quick match keeps them apart
    luis = create_user()                          # somebody else is seated with Ana
    await sign_in_by_ticket(luis, 'Luis')
    assert await quick(luis) == ana_table


async def test_a_game_of_two_accounts_of_one_browser_met_by_join_is_unrated(user: User, create_user) -> None:
    ana, bea, elsewhere = await _two_accounts_of_one_browser(user, create_user)
    # (one seat per person: each test seats them once) at a public rated table opened by hand,
    # Bea sits down with Ana by Join
    table = await rated_room(elsewhere)
    await user.open(f'/table/{table.id}')
    user.find(marker='join').click()
    await until(lambda: not table.waiting)
    assert {seat.user_id for seat in table.seats} == {ana, bea}
    await sees(elsewhere, marker='table')
    await play_out(table)
    assert table.room.unrated == 'shared_browser' and table.room.rating_changes == {}
    assert rating_of(user_id=ana, game_id='chinchon').games == rating_of(user_id=bea, game_id='chinchon').games == 0
    await sees(elsewhere, ES['log.room.unrated'])


async def test_two_accounts_that_share_only_an_address_play_rated_and_marked(user: User, create_user) -> None:
    table, ana, luis, _ = await two_at_a_quick_match(user, create_user)   # two browsers, one test address
    await play_out(table)
    assert table.room.unrated is None
    assert rating_of(user_id=ana, game_id='chinchon').games == rating_of(user_id=luis, game_id='chinchon').games == 1
    with session_scope() as session:
        marks = {row.user_id: row.marks for row in session.exec(select(RatingChange)
                                                               .where(RatingChange.table_id == table.id))}
    assert marks == {ana: 'address', luis: 'address'}


@pytest.mark.parametrize('language', ['es', 'en'])
async def test_the_ranking_says_the_fair_play_rules(user: User, language: str) -> None:
    user.http_client.headers['Accept-Language'] = language
    await user.open('/ranking/chinchon')
    words = CATALOGS[language]
    await sees(user, words['ranking.fair.title'])
    for key in ('abort', 'leave', 'browser', 'address'):
        await sees(user, words[f'ranking.fair.{key}'])
    await sees(user, words['ranking.fair.cap'].format(cap=150))
