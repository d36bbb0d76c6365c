"""Competition you can trust (issue 51), through NiceGUI's simulated users: one seat per person
(quick match, Join and another browser of the account lead back to the game in play, which the
setup page offers), no ghost seats (a claim whose page never comes, or whose page has gone before
the start, is freed; the start seats nobody absent; Join counts as a deal; one address holds at
most three waiting seats), and a public game nobody is at leaves the lobby and ends as abandoned."""
from __future__ import annotations

import pytest
from nicegui.testing import User
from people import browser_id, sign_in_by_ticket
from screen import one
from seams import sees, until
from sqlmodel import select
from test_public_tables import listed, quick

from app import limits, sessions
from app.games import GAMES_BY_ID
from app.lobby import matching
from app.pages.lobby import read_page
from app.standings import rating_of
from app.tables.public import ARRIVAL, DESERTED_END, GONE_GRACE, SWEEP_EVERY
from app.tables.registry import open_table, services
from models.db import session_scope
from models.tables import GameTable, PlayedGame

@pytest.fixture(autouse=True)
def no_tables_left(fresh_accounts) -> None:
    """No public table or account of an earlier test is here."""


BACK = 'Ya tienes sitio en una mesa: te hemos traído a ella. Se juega en una mesa con gente a la vez.'


async def sign_in_as(user: User, account_id: int) -> None:
    """Sign this (other) browser in to an account that exists already."""
    await user.open('/')
    await user.open(sessions.start_path(sessions.issue_ticket(account_id, browser_id()), '/'))


def at(user: User) -> str:
    """The path of the page this simulated browser shows now."""
    return user.back_history[-1]


def socket(user: User, connected: bool) -> None:
    """The page's socket drops (a closed tab, a lost network) or comes back, as NiceGUI tells it."""
    client = user.client
    for handler in client.connect_handlers if connected else client.disconnect_handlers:
        client.safe_invoke(handler)


async def test_quick_match_join_and_another_browser_of_an_account_with_a_game_in_play_lead_back_to_it(
        user: User, create_user) -> None:
    ana = await sign_in_by_ticket(user, 'Ana')
    table_id = await quick(user)
    luis = create_user()
    await sign_in_by_ticket(luis, 'Luis')
    await quick(luis)
    table = open_table(table_id)
    await until(lambda: not table.waiting)   # full, both here: a rated game of Chinchón is on
    eva = create_user()
    waiting = await quick(eva, name='Eva', seats=3)   # another table waits in the lobby (time stands still)
    # Ana's page is gone; from this browser she asks for people again, and is back at her game
    await user.open('/play/chinchon')
    await sees(user, marker='resume', clock_moves=False)
    user.find(marker='quick-match').click()
    await sees(user, BACK, clock_moves=False)
    assert at(user) == f'/table/{table_id}' and table.seat_of(None, ana) == 0
    await sees(user, marker='table', clock_moves=False)
    # the lobby's Join of another table leads back too
    await user.open('/lobby')
    await sees(user, 'Sentarme', clock_moves=False)
    user.find('Sentarme').click()
    await sees(user, BACK, clock_moves=False)
    assert at(user) == f'/table/{table_id}' and listed(waiting)['claims'] == [0]
    # her phone (another browser, nothing of this one's storage) offers the game and leads to it
    phone = create_user()
    await sign_in_as(phone, ana)
    await phone.open('/play/continental')
    await sees(phone, clock_moves=False, target='Tienes sitio en una mesa con gente de Chinchón: tu partida en juego.')
    assert one(phone, 'resume-public') is not None
    phone.find(marker='quick-match').click()
    await sees(phone, BACK, clock_moves=False)
    assert at(phone) == f'/table/{table_id}'
    assert matching.open_seat(None, ana) == (table_id, 'chinchon')


async def test_a_claim_whose_page_never_comes_is_freed_and_the_start_seats_nobody_absent(user: User, clock) -> None:
    table_id = await quick(user, name='Ana', seats=3)
    table = open_table(table_id)
    # seats taken at another process (or by a script) whose pages never come here
    matching.join(table_id, matching.Person('ghost browser one', None, 'Fantasma'))
    assert listed(table_id)['claims'] == [0, 1] and listed(table_id)['free_seats'] == 1
    await clock.advance(ARRIVAL + SWEEP_EVERY)
    assert listed(table_id)['claims'] == [0] and listed(table_id)['free_seats'] == 2
    matching.join(table_id, matching.Person('ghost browser two', None, 'Espectro'))
    user.find(marker='start-now').click()   # at once, before its page could have come
    await until(lambda: not table.waiting, clock_moves=False)
    assert [seat.kind for seat in table.seats] == ['person', 'computer', 'computer']
    assert listed(table_id)['claims'] == [0] and matching.open_seat('ghost browser two', None) is None


async def test_a_wait_that_ends_while_a_page_is_on_its_way_waits_for_it(clock, monkeypatch) -> None:
    monkeypatch.setenv('HOD_QUICK_WAIT', '1')   # shorter than a page may take to come
    clock.autojump = False
    table_id = matching.quick_match(GAMES_BY_ID['chinchon'], 2, matching.Person('her browser', None, 'Ana'),
                                    wall=clock.wall())
    table = open_table(table_id)
    await clock.advance(1)   # the wait is over; her page has not connected yet
    assert table.waiting and table.seats[0].name == 'Ana' and not table.public.closed
    table.public.screen(0, 'her page', True)   # it connects
    await clock.advance(1)
    assert not table.waiting and [seat.kind for seat in table.seats] == ['person', 'computer']


async def test_a_page_gone_before_the_start_frees_its_seat_after_a_short_grace(
        user: User, create_user, clock) -> None:
    table_id = await quick(user, name='Ana', seats=3)
    luis = create_user()
    assert await quick(luis, name='Luis', seats=3) == table_id
    table = open_table(table_id)
    socket(luis, False)   # a blip: back within the grace, the seat stays his
    await clock.advance(GONE_GRACE - 1)
    socket(luis, True)
    await clock.advance(GONE_GRACE)
    assert table.seats[1].name == 'Luis'
    socket(luis, False)   # his tab is closed: seconds later, not at the reconnect window's 45 s
    await clock.advance(GONE_GRACE - 1)
    assert table.seats[1].name == 'Luis'
    await clock.advance(1)
    assert table.seats[1].is_empty and listed(table_id)['claims'] == [0] and listed(table_id)['free_seats'] == 2
    await luis.should_see('Tu asiento ha quedado libre porque tu página no estaba abierta. '
                          'Vuelve a «Jugar con gente» cuando quieras.')
    assert table.waiting and table.seats[0].name == 'Ana'   # hers is kept: her page is there
    eva = create_user()
    assert await quick(eva, name='Eva', seats=3) == table_id
    socket(eva, False)   # her page has just gone when Ana starts: the start seats nobody absent
    user.find(marker='start-now').click()
    await until(lambda: not table.waiting, clock_moves=False)
    assert [seat.kind for seat in table.seats] == ['person', 'computer', 'computer']
    assert listed(table_id)['claims'] == [0] and matching.open_seat(None, None) is None


async def test_join_counts_as_a_deal_and_is_refused_past_the_limit(user: User, create_user) -> None:
    table_id = await quick(user, name='Ana', seats=3)
    eva = create_user()
    await eva.open(f'/table/{table_id}')
    for _ in range(limits.BROWSER_WINDOWS[0].most):   # this browser dealt its minute's tables already
        limits.NEW_TABLES.take(browser_id(), None, services().clock.wall())
    eva.find(marker='join-name').type('Eva')
    eva.find(marker='join').click()
    await sees(eva, 'Has empezado muchas mesas en muy poco tiempo')
    assert listed(table_id)['claims'] == [0]


async def test_one_address_holds_at_most_three_waiting_seats(user: User, create_user) -> None:
    # the simulated browsers all come from one address, as a family's behind one router
    family = [user] + [create_user() for _ in range(3)]
    first = await quick(family[0], name='Ana', seats=3)
    assert await quick(family[1], name='Luis', seats=3) == first
    await quick(family[2], 'continental', name='Eva')
    await family[3].open('/play/ronda-robada')
    family[3].find(marker='quick-name').type('Mateo')
    family[3].find(marker='quick-match').click()
    await sees(family[3], 'Desde tu conexión ya hay 3 asientos esperando partida en mesas públicas. '
                          'Cuando empiecen esas partidas podrás sentarte en otra.')
    assert matching.open_seat(None, None) is None and at(family[3]) == '/play/ronda-robada'


async def test_a_public_game_nobody_is_at_leaves_the_lobby_and_ends_as_abandoned(user: User, clock) -> None:
    ana = await sign_in_by_ticket(user, 'Ana')
    table_id = await quick(user)
    clock.autojump = False   # the computer's moves wait for the clock: the game stays where she left it
    user.find(marker='start-now').click()
    table = open_table(table_id)
    await until(lambda: not table.waiting, clock_moves=False)
    while table.state.current_seat == 0:   # her turn played: the computer's is next
        action = await table.thinker.think('chinchon', 'easy', f'test:{table.version}', table.view(0))
        table.act(0, action, table.version)
    assert listed(table_id)['stage'] == 'playing'
    user.client.delete()   # her page is gone, past the reconnect window: nobody is at the game
    await until(lambda: listed(table_id)['stage'] == 'left', clock_moves=False)
    assert table_id not in [row['table_id'] for row in read_page(None, 1).rows]
    assert matching.open_seat(None, ana) == (table_id, 'chinchon')   # still hers: asking leads back
    await clock.advance(DESERTED_END - 1)
    await user.open(f'/table/{table_id}')   # she came back in time: listed again, and it goes on
    await until(lambda: listed(table_id)['stage'] == 'playing', clock_moves=False)
    user.client.delete()
    await until(lambda: listed(table_id)['stage'] == 'left', clock_moves=False)
    await clock.advance(DESERTED_END - 1)
    assert listed(table_id)['stage'] == 'left'
    await clock.advance(1)
    await until(lambda: listed(table_id)['stage'] == 'over', clock_moves=False)
    with session_scope() as session:
        assert session.get(GameTable, table_id).status == 'abandoned'
        assert [game.abandoned for game in session.exec(select(PlayedGame).where(PlayedGame.user_id == ana))] == [True]
    assert listed(table_id)['claims'] == [] and matching.open_seat(None, ana) is None
    assert rating_of(user_id=ana, game_id='chinchon').display() < 1500   # rated, who left placed last
    assert await quick(user) != table_id
