"""A game left unfinished is recorded as abandoned when its player (logged in) starts another game
of the same kind, or once it has been left alone for 30 days: it counts as played, never as won,
its partial score stays out of the averages, and the history says "Abandonada"."""
from datetime import timedelta

import pytest
from nicegui import app
from nicegui.testing import User
from people import PASSWORD, register_and_log_in, set_browser_clock

from app import accounts
from app.history import game_detail, history_page, totals_by_game
from app.i18n import CATALOGS
from app.tables import registry
from app.visitor import TABLES_KEY
from models.tables import utcnow

from table_positions import chinchon_position

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES = CATALOGS['es']


@pytest.fixture(autouse=True)
def browser_clock(user: User) -> None:
    """The simulated browser is on UTC."""
    set_browser_clock(user, 0)


async def deal(user: User, game_id: str) -> str:
    """Deal a new table of the game from its setup form (slow computers); returns its id."""
    await user.open(f'/play/{game_id}')
    user.find(marker='opt-speed').elements.pop().set_value('slow')
    user.find(marker='start').click()
    return app.storage.user[TABLES_KEY][game_id]   # where the start button navigates


async def test_starting_another_game_of_the_same_kind_records_the_first_as_abandoned(user: User) -> None:
    ana = await register_and_log_in(user, 'Ana')
    first = await deal(user, 'chinchon')
    other_game = await deal(user, 'ronda-robada')   # another kind: the Chinchón table stays open
    assert history_page(user_id=ana).total == 0
    second = await deal(user, 'chinchon')
    assert second != first
    [record] = history_page(user_id=ana).games
    assert (record.game_id, record.abandoned, record.won, record.hands_played) == ('chinchon', True, False, 0)
    assert registry.open_table(first) is None               # closed for good
    assert registry.open_table(other_game) is not None and registry.open_table(second) is not None
    [totals] = totals_by_game(user_id=ana)
    assert (totals.played, totals.wins, totals.average, totals.best) == (1, 0, None, None)
    await user.open('/history')
    with user.scope(marker='game-row-0'):
        await user.should_see(ES['history.row.abandoned'])
        await user.should_see(ES['history.row.abandoned_text'])
    with user.scope(marker='totals-chinchon'):
        await user.should_see(ES['history.no_figure'])       # no average of unfinished games
    await user.open(f'/history/{record.id}')
    with user.scope(marker='summary'):
        await user.should_see(ES['history.row.abandoned'])
    await user.should_see(ES['history.detail.no_hands'])


async def test_a_guest_starting_again_records_nothing(user: User) -> None:
    await user.open('/')
    first = await deal(user, 'chinchon')
    await deal(user, 'chinchon')
    assert registry.open_table(first) is not None   # a guest's table is only closed after 30 days


async def test_a_table_left_alone_for_30_days_is_recorded_as_abandoned(user: User) -> None:
    ana = accounts.register(username='ana', password=PASSWORD, confirmation=PASSWORD)
    # a finished, won game first: the abandoned one must not change its average or best
    finished = chinchon_position(hands={0: '1o 2o 3o 4o 7c 7e 7b', 1: '12e 12b 11e 10b 6c 6e 5b'},
                                 stock_top='2c', current=0, dealer=1, scores=[0, 95])
    left = chinchon_position(scores=[31, 56], seed=11)
    for table in (finished, left):
        table.seats[0].user_id, table.seats[0].name = ana.id, 'Ana'
        registry.add_table(table)
    from app.engine.chinchon import Close, DrawStock
    finished.act(0, DrawStock(), finished.version)
    close = next(action for action in finished.view(0).legal_actions if isinstance(action, Close))
    finished.act(0, close, finished.version)
    assert finished.is_over() and history_page(user_id=ana.id).total == 1
    won = history_page(user_id=ana.id).games[0]

    assert registry.abandon_idle(now=utcnow() + timedelta(days=29)) == 0
    assert history_page(user_id=ana.id).total == 1
    assert registry.abandon_idle(now=utcnow() + timedelta(days=31)) >= 1
    games = history_page(user_id=ana.id).games
    [abandoned] = [game for game in games if game.abandoned]
    assert (abandoned.won, abandoned.score, abandoned.placement) == (False, 31, 1)   # the scores it had reached
    assert [seat.final_score for seat in abandoned.seats] == [31, 56]
    assert registry.open_table(left.id) is None
    [totals] = totals_by_game(user_id=ana.id)
    assert (totals.played, totals.wins, totals.average, totals.best) == (2, 1, float(won.score), won.score)
    assert game_detail(user_id=ana.id, record_id=abandoned.id).record.abandoned
    assert registry.abandon_idle(now=utcnow() + timedelta(days=62)) == 0   # recorded once only
    assert len(history_page(user_id=ana.id).games) == 2
