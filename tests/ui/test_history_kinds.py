"""The three kinds of game /history counts apart, recorded the way tables really record them: a daily
try played to its end is a daily try (not a game of Chinchón like the others), and a rated quick
match between two accounts is a game against people for each of them (not a bar of the level chart)."""
from __future__ import annotations

import pytest
from nicegui.testing import User
from people import sign_in_by_ticket
from seams import until
from test_daily import person, play_out as play_out_alone
from test_public_tables import play_out, quick

from app import accounts
from app.daily import tries
from app.games import GAMES_BY_ID
from app.history import history_page, totals_by_game, totals_by_level, totals_with_people
from app.i18n import CATALOGS
from app.tables.registry import open_table

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES = CATALOGS['es']


async def test_a_daily_try_played_to_its_end_is_recorded_as_a_daily_try(clock) -> None:
    ana = accounts.register(username='Ana', password='correct horse', confirmation='correct horse').id
    attempt, _ = tries.start_try(GAMES_BY_ID['chinchon'], person('Ana', ana))
    await play_out_alone(open_table(attempt.table_id))
    [record] = history_page(user_id=ana).games
    assert record.daily == tries.today().isoformat() and record.hands_played == 5
    assert totals_by_game(user_id=ana) == [] and totals_by_level(user_id=ana) == []
    [daily] = totals_by_game(user_id=ana, daily=True)
    assert (daily.key, daily.played) == ('chinchon', 1)


async def test_a_rated_quick_match_is_a_game_against_people(user: User, create_user) -> None:
    ana = await sign_in_by_ticket(user, 'Ana')
    table_id = await quick(user)
    luis_user = create_user()
    await sign_in_by_ticket(luis_user, 'Luis')
    await quick(luis_user)
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    await play_out(table)
    [record] = history_page(user_id=ana).games
    assert record.with_people and not record.daily
    assert totals_by_level(user_id=ana) == []
    assert totals_with_people(user_id=ana).played == 1
    await user.open('/history')
    with user.scope(marker='totals-people'):
        await user.should_see(ES['history.people.title'])
        await user.should_see(ES['history.people.rated'])
    await user.should_see(marker='chart-by-level-none')
    await user.should_not_see(marker='chart-by-level')   # no bar named after Luis
