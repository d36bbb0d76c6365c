"""The daily deal (app.daily): the same cards and the same computers for everyone, one try per
account (or guest browser), the field's percentiles, the day's end and its revealed seed. What the
database holds (one try under concurrent starts, a guest's try, the day's end) runs on SQLite and
PostgreSQL alike. The tables' clock is the test's: moving it a day on ends the day."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlmodel import select
from nicegui.testing import User
from people import register_and_log_in

from app.daily import tries
from app.daily.field import standings
from app.engine.cards import commitment
from app.engine.protocol import IllegalAction
from app.games import GAMES_BY_ID
from app.i18n import CATALOGS
from app.tables import registry
from app.tables.seats import Seat
from models.db import session_scope
from models.tables import DailyTry

pytestmark = pytest.mark.usefixtures('fresh_accounts')

CHINCHON = GAMES_BY_ID['chinchon']
ES = CATALOGS['es']
DAY = 86400.0


def person(name: str, user_id: int | None = None, guest: str | None = None) -> Seat:
    return Seat('person', name=name, guest=guest or f'guest-of-{name}-0123456789', user_id=user_id)


async def play_out(table) -> None:
    """A computer plays the person's seat too (as it stands in for someone away) to the game's end."""
    table.presence.stand_in(0, 'away')
    while not table.is_over():
        if table.pause is not None:
            table.go_on_from_count()
        table.start_computers()
        await table.settle()


def moves_of(table) -> list:
    return [[list(move) for move in deal] for deal in table.moves]


async def test_two_accounts_get_the_same_cards_and_the_same_computers(clock) -> None:
    from app import accounts
    ana = accounts.register(username='Ana', password='correct horse', confirmation='correct horse').id
    luis = accounts.register(username='Luis', password='correct horse', confirmation='correct horse').id
    first, _ = tries.start_try(CHINCHON, person('Ana', ana))
    second, _ = tries.start_try(CHINCHON, person('Luis', luis))
    one, two = registry.open_table(first.table_id), registry.open_table(second.table_id)
    assert one.id != two.id
    assert one.view(0).hand == two.view(0).hand and one.view(0).dealer == two.view(0).dealer
    assert one.view(0).commitment == two.view(0).commitment
    assert [seat.level for seat in one.seats] == [None, 'hard', 'hard']
    await play_out(one)
    await play_out(two)
    assert moves_of(one) == moves_of(two)              # the same moves drew the same replies, to the end
    assert one.state.outcome() == two.state.outcome()
    assert one.view(0).hand_number == 5 == len(one.hand_results)   # the format: five hands


async def test_a_try_saved_and_loaded_again_deals_on_from_the_days_seed(clock) -> None:
    """A daily table let go mid-game (a restart) deals its next hands from the day's seed, not
    from the server's secret deals: it plays on exactly as one that never left memory."""
    kept, _ = tries.start_try(CHINCHON, person('Ana', guest='ana-browser-0123456789'))
    moved, _ = tries.start_try(CHINCHON, person('Luis', guest='luis-browser-0123456789'))
    whole = registry.open_table(kept.table_id)
    reloaded = registry.open_table(moved.table_id)
    reloaded.presence.stand_in(0, 'away')
    reloaded.start_computers()
    while len(reloaded.hand_results) < 1:
        if reloaded.pause is not None:
            break
        await reloaded.settle()
    reloaded.flush()
    registry.lose(reloaded.id)                  # forgotten here: the next screen loads it back
    again = registry.open_table(moved.table_id)
    assert again is not reloaded and again.version == reloaded.version
    await play_out(again)
    await play_out(whole)
    assert moves_of(again) == moves_of(whole)
    assert [deal.seed for deal in again.view(0).past_deals] == [deal.seed for deal in whole.view(0).past_deals]


async def test_one_try_per_account_even_when_two_start_at_once(database, clock) -> None:
    from app import accounts
    ana = accounts.register(username='Ana', password='correct horse', confirmation='correct horse').id
    barrier, answers = threading.Barrier(2), []

    def start(browser: str) -> None:
        barrier.wait()
        answers.append(tries.start_try(CHINCHON, person('Ana', ana, guest=browser)))

    workers = [threading.Thread(target=start, args=(f'browser-{index}-0123456789',)) for index in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    with session_scope() as session:
        ids = list(session.exec(select(DailyTry.id)))
    assert len(ids) == 1
    assert {attempt.id for attempt, _ in answers} == set(ids)
    assert sorted(new for _, new in answers) == [False, True]
    again, new = tries.start_try(CHINCHON, person('Ana', ana, guest='a-third-browser-0123456789'))
    assert (again.id, new) == (ids[0], False)


async def test_a_guest_has_one_unranked_try_per_browser(database, clock) -> None:
    first, new = tries.start_try(CHINCHON, person('', guest='the-same-browser-0123456789'))
    again, again_new = tries.start_try(CHINCHON, person('', guest='the-same-browser-0123456789'))
    other, _ = tries.start_try(CHINCHON, person('', guest='another-browser-0123456789'))
    assert new and not again_new and again.id == first.id and other.id != first.id
    await play_out(registry.open_table(first.table_id))
    assert tries.field_of(CHINCHON, tries.today()) == {}    # guests stay off the board


async def test_a_guests_daily_is_the_practice_deal_never_the_ranked_one(database, clock) -> None:
    """A private window is no rehearsal: a guest is dealt the day's practice deal (the same for
    every guest, the same format), from a seed the ranked one cannot be read back from; signing in
    in that browser then starts the ranked try afresh, and the practice stays a practice."""
    from app import accounts
    ana = accounts.register(username='Ana', password='correct horse', confirmation='correct horse').id
    ranked, _ = tries.start_try(CHINCHON, person('Ana', ana, guest='ana-browser-0123456789'))
    practice, _ = tries.start_try(CHINCHON, person('', guest='a-private-window-0123456789'))
    other_guest, _ = tries.start_try(CHINCHON, person('', guest='another-private-window-0123456789'))
    one, two, three = (registry.open_table(row.table_id) for row in (ranked, practice, other_guest))
    assert (one.options.practice, two.options.practice) == (False, True) and len(two.seats) == len(one.seats)
    assert two.view(0).commitment != one.view(0).commitment and two.seed != one.seed     # another deal...
    assert three.view(0).commitment == two.view(0).commitment                           # ...the guests' one
    seed = _day_seed()
    assert tries.practice_seed(seed) != seed and two.seed == tries.game_seed(tries.practice_seed(seed))
    assert one.seed == tries.game_seed(seed)
    await play_out(two)
    assert tries.field_of(CHINCHON, tries.today()) == {}          # a finished practice is on no board
    luis = accounts.register(username='Luis', password='correct horse', confirmation='correct horse').id
    signed_in, new = tries.start_try(CHINCHON, person('Luis', luis, guest='a-private-window-0123456789'))
    assert new and signed_in.id != practice.id and not registry.open_table(signed_in.table_id).options.practice
    assert registry.open_table(signed_in.table_id).view(0).commitment == one.view(0).commitment
    assert tries.try_by_id(practice.id).user_id is None


def _day_seed() -> str:
    from models.tables import DailyDeal
    with session_scope() as session:
        return session.get(DailyDeal, ('chinchon', tries.today())).seed


async def test_a_daily_tables_seeds_stay_secret_until_its_day_is_over(clock) -> None:
    """Every try of the day is dealt the same hands: a finished hand's seed is its whole deck for
    anyone who has not played it yet. The snapshots keep the fingerprints and blank the seeds
    until midnight (UTC), then show them, so each can be checked against its fingerprint."""
    attempt, _ = tries.start_try(CHINCHON, person('', guest='a-browser-0123456789'))
    table = registry.open_table(attempt.table_id)
    await play_out(table)
    deals = table.view(0).past_deals
    assert len(deals) == 5 and all(deal.seed for deal in deals)
    held = table.snapshot(0).view.past_deals
    assert [deal.seed for deal in held] == [''] * 5
    assert [deal.commitment for deal in held] == [commitment(deal.seed) for deal in deals]
    await clock.advance(tries.seconds_left_today() + 1)
    assert table.snapshot(0).view.past_deals == deals


async def test_finished_tries_get_their_points_and_percentiles(clock) -> None:
    from app import accounts
    ids = [accounts.register(username=name, password='correct horse', confirmation='correct horse').id
           for name in ('Ana', 'Luis')]
    for name, user_id in zip(('Ana', 'Luis'), ids):
        attempt, _ = tries.start_try(CHINCHON, person(name, user_id))
        table = registry.open_table(attempt.table_id)
        await play_out(table)
    day = tries.today()
    rows = tries.field_of(CHINCHON, day)[day]
    assert [row.status for row in rows] == ['finished', 'finished']
    table = registry.open_table(rows[0].table_id)
    assert rows[0].points == table.state.outcome().scores[0]
    lines = standings([tries.result_of(row) for row in rows], CHINCHON.better)
    assert [line.percentile for line in lines] == [50.0, 50.0]     # the same moves: a tie, half each
    assert all(line.result.seconds is not None for line in lines)


async def test_the_days_end_scores_an_unfinished_try_and_reveals_the_seed(database, clock) -> None:
    from app import accounts
    ana = accounts.register(username='Ana', password='correct horse', confirmation='correct horse').id
    attempt, _ = tries.start_try(CHINCHON, person('Ana', ana))
    day = tries.today()
    deal = tries.day_deal(CHINCHON, day)
    assert deal.seed is None and len(deal.fingerprint) == 64
    await clock.advance(tries.seconds_left_today() + 1)    # midnight, UTC
    assert tries.today() == day + timedelta(days=1)
    assert tries.close_past_days() == 1
    [row] = tries.field_of(CHINCHON, day)[day]
    assert (row.status, row.points, row.finished_at is not None) == ('unfinished', 0, True)
    assert registry.open_table(attempt.table_id) is None      # closed: it cannot be played on
    revealed = tries.day_deal(CHINCHON, day)
    assert revealed.seed is not None and commitment(revealed.seed) == deal.fingerprint
    assert tries.game_seed(revealed.seed) == _table_seed(attempt.table_id)


def _table_seed(table_id: str) -> int:
    import json

    from models.tables import GameTable
    with session_scope() as session:
        return json.loads(session.get(GameTable, table_id).state_json)['seed']


async def test_a_daily_table_plays_no_second_game(clock) -> None:
    attempt, _ = tries.start_try(CHINCHON, person('', guest='one-browser-0123456789'))
    table = registry.open_table(attempt.table_id)
    await play_out(table)
    with pytest.raises(IllegalAction) as refusal:
        table.next_game(0, table.version)
    assert refusal.value.code == 'daily_once'


async def test_starting_a_game_of_the_same_kind_leaves_the_daily_try_alone(user: User, clock) -> None:
    ana = await register_and_log_in(user, 'Ana')
    attempt, _ = tries.start_try(CHINCHON, person('Ana', ana))
    await user.open('/play/chinchon')
    user.find(marker='start').click()
    assert registry.open_table(attempt.table_id) is not None and not registry.open_table(attempt.table_id).is_over()


async def test_a_try_whose_table_is_gone_still_ends_with_its_day(clock) -> None:
    attempt, _ = tries.start_try(CHINCHON, person('', guest='a-browser-0123456789'))
    day = tries.today()
    registry.abandon(registry.open_table(attempt.table_id))    # closed by something else
    await clock.advance(tries.seconds_left_today() + 1)
    assert tries.close_past_days() == 1 and tries.close_past_days() == 0   # once, not at every visit
    assert (tries.try_by_id(attempt.id).status, tries.try_by_id(attempt.id).points) == ('unfinished', 0)
    assert tries.day_deal(CHINCHON, day).seed is not None
