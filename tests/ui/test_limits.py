"""One abusive browser cannot fill the database or the memory: dealing is limited per browser and
per address, a table lives in memory only while a screen shows it, and guest tables nobody needs
are deleted. The deal flood of the audit (the "Repartir" click sent in a loop) is played here."""
from __future__ import annotations

from datetime import timedelta

import pytest
from nicegui.testing import User
from sqlmodel import func, select

from app.limits import Limiter, NewTables, Window, address_key
from app.tables import registry
from models.db import session_scope
from models.tables import GameTable, insert_table, utcnow
from screen import one
from table_positions import chinchon_position


def stored_tables() -> int:
    with session_scope() as session:
        return session.exec(select(func.count()).select_from(GameTable)).one()


async def test_a_deal_flood_from_one_page_creates_at_most_the_limit(user: User, clock) -> None:
    await user.open('/play/chinchon')
    one(user, 'opt-speed').set_value('instant')
    before = stored_tables()
    for _ in range(50):   # the flood: the same click, as fast as the socket takes it
        user.find(marker='start').click()
    await user.should_see('Has empezado muchas mesas en muy poco tiempo')
    assert stored_tables() - before == 20           # the minute's limit, and not one more
    await clock.advance(60)                         # a minute on, a person may deal again
    user.find(marker='start').click()
    assert stored_tables() - before == 21


async def test_a_table_dealt_and_never_opened_is_let_go_from_memory(clock) -> None:
    clock.autojump = False
    earlier = set(registry.live_tables())            # other tests' tables, on other clocks
    unopened = registry.add_table(chinchon_position())
    shown = registry.add_table(chinchon_position())
    registry.watch(shown, 0, lambda snapshot: None)
    assert set(registry.live_tables()) - earlier == {unopened, shown}
    await clock.advance(registry.KEEP_UNWATCHED)
    assert set(registry.live_tables()) - earlier == {shown}   # the one a screen shows stays
    assert registry.open_table(unopened.id) is not unopened   # loaded again when asked for


def test_a_browser_may_deal_two_hundred_tables_a_day() -> None:
    tables = NewTables()
    refused = [tables.take('browser', None, now=minute * 60.0) for minute in range(200) for _ in range(1)]
    assert refused == [None] * 200                            # one a minute: never the minute's limit
    assert tables.take('browser', None, now=200 * 60.0).name == 'day'
    assert tables.take('another browser', None, now=200 * 60.0) is None
    assert tables.take('browser', None, now=24 * 3600 + 60.0) is None   # the first ones left the window


def test_an_address_allows_more_than_a_browser_but_not_without_end() -> None:
    tables = NewTables()
    office = [tables.take(f'browser {number}', '203.0.113.7', now=1.0) for number in range(60)]
    assert office == [None] * 60                     # sixty people behind one address
    assert tables.take('browser 60', '203.0.113.7', now=1.0).name == 'minute'
    assert tables.take('browser 60', '198.51.100.1', now=1.0) is None   # another address
    # cookieless: a new browser id at every request is still one address
    refused = [tables.take(f'fresh {number}', '192.0.2.9', now=2.0) for number in range(100)]
    assert refused.count(None) == 60


def test_ipv6_addresses_are_keyed_by_their_64() -> None:
    assert address_key('2001:db8:1:2::1') == address_key('2001:db8:1:2:ffff:ffff:ffff:ffff') == '2001:db8:1:2::/64'
    assert address_key('2001:db8:1:3::1') == '2001:db8:1:3::/64'
    assert address_key('2001:DB8:1:2:0:0:0:1') == '2001:db8:1:2::/64'            # however it is written
    assert address_key('fe80::1%eth0') == 'fe80::/64'
    assert address_key('::ffff:203.0.113.7') == address_key('203.0.113.7') == '203.0.113.7'
    assert address_key('testclient') == 'testclient' and address_key('') is None


def test_fresh_ipv6_addresses_of_one_64_are_one_address() -> None:
    tables = NewTables()
    one_network = [tables.take(f'browser {n}', f'2001:db8:0:1::{n + 1:x}', now=1.0) for n in range(61)]
    assert one_network.count(None) == 60 and one_network[60].name == 'minute'   # endless before
    assert tables.take('browser x', '2001:db8:0:2::1', now=1.0) is None            # the next /64
    assert tables.take('browser y', '2001:db8:0:1:ab::1', now=1.0).name == 'minute'


def test_a_refused_deal_is_not_counted() -> None:
    limiter = Limiter((Window('minute', 60, 2),))
    tables = NewTables()
    tables.browsers = limiter
    assert [tables.take('b', 'a', now=0.0) for _ in range(3)] == [None, None, limiter.windows[0]]
    assert len(tables.addresses._times['a']) == 2   # the address counted only what was dealt


def test_the_counts_themselves_stay_bounded() -> None:
    limiter = Limiter((Window('minute', 60, 20),), most_keys=100)
    for number in range(10_000):
        limiter.count(f'browser {number}', now=0.0)
    assert len(limiter) == 100




async def test_a_table_remembers_that_a_person_played_at_it(clock) -> None:
    from app.engine.chinchon import DrawStock
    from app.tables.table import SAVE_DELAY
    from models.tables import load_table

    def acted(table_id: str) -> bool:
        with session_scope() as session:
            return load_table(session=session, table_id=table_id).person_acted

    table = registry.add_table(chinchon_position(current=1))   # the computer opens the hand
    registry.watch(table, 0, lambda snapshot: None)
    await table.settle()
    await clock.advance(SAVE_DELAY)
    assert table.version > 0 and not acted(table.id)           # the computer's move is not yours
    table.act(0, DrawStock(), table.version)
    await clock.advance(SAVE_DELAY)
    assert acted(table.id)


def row(table_id: str, *, updated_days_ago: float, status: str = 'playing', acted: bool = False,
        user_id: int | None = None) -> None:
    moment = utcnow() - timedelta(days=updated_days_ago)
    with session_scope() as session:
        insert_table(session=session, table=GameTable(id=table_id, game_id='chinchon', state_json='{}',
                                                      status=status, person_acted=acted, user_id=user_id,
                                                      created_at=moment, updated_at=moment))


@pytest.mark.usefixtures('database')
def test_guest_tables_nobody_needs_are_deleted_and_the_rest_kept(fresh_accounts) -> None:
    row('unplayed-old', updated_days_ago=1.1)
    row('unplayed-new', updated_days_ago=0.5)
    row('played-old', updated_days_ago=20, acted=True)                    # a guest may still come back
    row('abandoned-old', updated_days_ago=31, status='abandoned', acted=True)
    row('finished-old', updated_days_ago=31, status='over', acted=True)
    row('abandoned-new', updated_days_ago=10, status='abandoned', acted=True)
    row('account-unplayed', updated_days_ago=40, user_id=1)               # feeds an account's history
    row('account-over', updated_days_ago=40, status='over', acted=True, user_id=1)
    assert registry.forget_guest_tables() == 3
    with session_scope() as session:
        left = set(session.exec(select(GameTable.id)))
    assert left == {'unplayed-new', 'played-old', 'abandoned-new', 'account-unplayed', 'account-over'}
