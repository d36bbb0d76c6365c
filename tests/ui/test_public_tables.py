"""Public tables through NiceGUI's simulated users: quick match seats people together (or opens a
table that waits for them), computers fill a quick match when its wait is over, a public table is
listed in the lobby, joined and watched there; who left is played for by a computer."""
from __future__ import annotations

import pytest
from nicegui.testing import User
from people import sign_in_by_ticket
from screen import html_of, one
from seams import sees, until

from app.lobby import quick_wait, reconnect_window
from app.tables.registry import open_table
from models.db import session_scope
from models.tables import claims_of, public_table


@pytest.fixture(autouse=True)
def no_tables_left(fresh_accounts) -> None:
    """No public table of an earlier test is waiting for quick match here."""


async def quick(user: User, game: str = 'chinchon', *, seats: int | None = None, name: str | None = None) -> str:
    """Press "Play people" on the game's page and wait in the table it leads to; its id."""
    await user.open(f'/play/{game}')
    if seats is not None:
        user.find(marker='quick-seats').elements.pop().value = seats
    if name is not None:
        user.find(marker='quick-name').type(name)
    user.find(marker='quick-match').click()
    await sees(user, marker='waiting-room', clock_moves=False)
    return one(user, 'waiting-room').props['data-table']


def listed(table_id: str) -> dict:
    with session_scope() as session:
        row = public_table(session=session, table_id=table_id)
        return None if row is None else {'stage': row.stage, 'free_seats': row.free_seats, 'rated': row.rated,
                                         'spectators': row.spectators, 'people': row.people_json,
                                         'claims': [claim.seat for claim in claims_of(session=session, table_id=table_id)]}


async def test_two_signed_in_people_on_quick_match_sit_at_one_rated_table_and_it_starts_when_full(
        user: User, create_user) -> None:
    await sign_in_by_ticket(user, 'Ana')
    table_id = await quick(user)
    table = open_table(table_id)
    assert table.room.public and table.room.quick and table.room.rated and table.waiting
    assert listed(table_id)['free_seats'] == 1 and listed(table_id)['stage'] == 'waiting'
    await user.should_see(marker='fill-countdown')
    luis = create_user()
    await sign_in_by_ticket(luis, 'Luis')
    assert await quick(luis) == table_id or not table.waiting   # the same table, whoever asked second
    await until(lambda: not table.waiting)
    assert [seat.name for seat in table.seats] == ['Ana', 'Luis']
    assert all(seat.is_person for seat in table.seats)
    await sees(user, marker='table')
    await sees(luis, marker='table')
    await until(lambda: listed(table_id)['stage'] == 'playing')
    # a phone switching networks comes back to this page within the reconnect window
    assert user.client.page.resolve_reconnect_timeout() == reconnect_window() == 45.0
    # both start at a new player's rating, marked provisional
    assert table.room.ratings == {0: (1500, True), 1: (1500, True)}


async def test_a_guest_alone_gets_hard_computers_when_the_wait_is_over(user: User, clock) -> None:
    table_id = await quick(user, name='Ana')
    table = open_table(table_id)
    assert not table.room.rated   # a guest plays unrated
    await user.should_see('La partida empieza en 30 s, con quien haya llegado.')
    await clock.advance(quick_wait() - 0.5)
    assert table.waiting
    await clock.advance(0.5)
    await until(lambda: not table.waiting)
    assert [seat.kind for seat in table.seats] == ['person', 'computer']
    assert table.seats[1].level == 'hard'
    await sees(user, marker='table')
    assert listed(table_id)['stage'] == 'playing'


async def test_start_now_with_computers_and_quick_match_again_while_waiting(user: User) -> None:
    table_id = await quick(user, name='Ana', seats=3, game='chinchon')
    assert await quick(user, seats=3) == table_id   # asking again: the same seat
    user.find(marker='start-now').click()
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    assert [seat.kind for seat in table.seats] == ['person', 'computer', 'computer']


async def test_guests_and_accounts_are_matched_apart_and_seats_apart(user: User, create_user) -> None:
    guest_table = await quick(user, name='Ana')
    luis = create_user()
    await sign_in_by_ticket(luis, 'Luis')
    rated_table = await quick(luis)
    assert rated_table != guest_table
    three = create_user()
    assert await quick(three, name='Eva', seats=3) not in {guest_table, rated_table}   # another number of seats


async def test_the_lobby_lists_a_waiting_table_and_a_guest_joins_it_by_name(user: User, create_user) -> None:
    table_id = await quick(user, name='Ana')
    eva = create_user()
    await eva.open('/lobby')
    await sees(eva, marker='lobby-list')
    row = html_of(eva, 'lobby-list')
    assert 'Ana' in row and 'Sin puntuación' in row and '1 asiento libre' in row
    # a guest names themselves at the table's own page
    await eva.open(f'/table/{table_id}')
    eva.find(marker='join-name').type('Eva')
    eva.find(marker='join').click()
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    assert [seat.name for seat in table.seats] == ['Ana', 'Eva']


async def test_a_spectator_of_a_public_table_is_counted_and_sees_no_hand(user: User, create_user) -> None:
    table_id = await quick(user, name='Ana')
    user.find(marker='start-now').click()
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    eva = create_user()
    await eva.open(f'/table/{table_id}')
    await sees(eva, marker='spectator')
    await until(lambda: table.snapshot(0).room.spectators == 1)
    await until(lambda: listed(table_id)['spectators'] == 1)
    screen = html_of(eva, 'table')
    assert not any(f'data-card="{card}"' in screen for card in table.view(0).hand)


async def test_a_person_who_leaves_a_public_table_is_played_for_when_their_clock_runs_out_and_placed_last(
        user: User, create_user, clock) -> None:
    table_id = await quick(user, name='Ana')
    luis = create_user()
    assert await quick(luis, name='Luis') == table_id
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    await sees(luis, marker='table')
    luis.client.delete()   # Luis's page is gone (past the reconnect window)
    await until(lambda: 1 in table.presence.stand_ins or table.state.current_seat == 1)
    while table.state.current_seat != 1 and not table.is_over():   # Ana's turns are played for her too
        table.presence.stand_in(0, 'clock')
        await table.settle()
    await clock.advance(31)
    await until(lambda: table.presence.stand_ins.get(1) == 'away')
    assert table.presence.leavers() == [1]


async def play_out(table, *, leaver: int | None = None) -> None:
    """The people at the table play it to its end with the easy computer's choices (a leaver's seat
    is played by the table's stand-in), going on from every count."""
    turn = 0
    while not table.is_over():
        await table.settle()
        if table.is_over():
            break
        if table.pause is not None:
            for seat in table.person_seats():
                if seat != leaver and table.pause is not None:
                    table.resume_after_count(seat, table.version)
            continue
        seat = table.state.current_seat
        if seat == leaver or not table.seats[seat].is_person:
            continue
        view = table.view(seat)
        action = await table.thinker.think(table.game.id, 'easy', f'test:{turn}', view)
        table.act(seat, action, table.version)
        turn += 1


async def test_a_rated_quick_match_changes_both_ratings_at_its_end(user: User, create_user) -> None:
    from app.standings import rating_of

    ana = await sign_in_by_ticket(user, 'Ana')
    table_id = await quick(user)
    luis_user = create_user()
    luis = await sign_in_by_ticket(luis_user, 'Luis')
    await quick(luis_user)
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    await play_out(table)
    winner = table.state.outcome().winners[0]
    won, lost = (ana, luis) if winner == 0 else (luis, ana)
    assert rating_of(user_id=won, game_id='chinchon').display() > 1500 > rating_of(user_id=lost, game_id='chinchon').display()
    assert table.room.rating_changes[winner] > 0 > table.room.rating_changes[1 - winner]
    assert listed(table_id)['stage'] == 'over'


async def test_a_guest_at_a_public_table_makes_it_unrated(user: User, create_user) -> None:
    from app.standings import rating_of

    await sign_in_by_ticket(user, 'Ana')
    await user.open('/play/chinchon')
    user.find(marker='friends').click()
    user.find(marker='room-public').click()   # public, unrated: guests may sit
    user.find(marker='room-rated').click()
    user.find(marker='opt-seats').elements.pop().value = 2
    user.find(marker='start').click()
    await sees(user, marker='waiting-room', clock_moves=False)
    table_id = one(user, 'waiting-room').props['data-table']
    table = open_table(table_id)
    assert table.room.public and not table.room.rated and table.room.clock == 30
    eva = create_user()
    await eva.open(f'/table/{table_id}')
    eva.find(marker='join-name').type('Eva')
    eva.find(marker='join').click()
    await until(lambda: table.seats[1].name == 'Eva')
    await until(lambda: not table.waiting)   # full, and both are here: it starts by itself
    await play_out(table)
    assert rating_of(user_id=table.seats[0].user_id, game_id='chinchon').games == 0


async def test_leaving_a_waiting_table_frees_the_seat_and_an_empty_quick_match_closes_instead_of_dealing(
        user: User, create_user, clock) -> None:
    table_id = await quick(user, name='Ana', seats=3)
    luis = create_user()
    assert await quick(luis, name='Luis', seats=3) == table_id
    table = open_table(table_id)
    assert listed(table_id)['free_seats'] == 1
    luis.find(marker='leave-seat').click()
    await until(lambda: table.seats[1].is_empty)
    assert listed(table_id)['free_seats'] == 2 and listed(table_id)['claims'] == [0]
    await luis.should_see('Has dejado tu asiento libre.')
    user.client.delete()   # Ana's page is gone too (past the reconnect window): her seat is freed
    await until(lambda: table.seats[0].is_empty)
    await clock.advance(quick_wait())
    assert table.waiting and table.public.closed   # nobody to play: no game of computers alone
    await until(lambda: listed(table_id)['stage'] == 'over')


async def test_a_public_table_plays_one_game_and_offers_people_again(user: User) -> None:
    from app.engine.protocol import IllegalAction

    table_id = await quick(user, name='Ana')
    user.find(marker='start-now').click()
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    await play_out(table)
    await sees(user, 'Jugar con gente otra vez')
    await user.should_not_see(marker='play-again')
    try:
        table.next_game(0, table.version)
    except IllegalAction as refusal:
        assert refusal.code == 'public_once'
    else:
        raise AssertionError('a second game was dealt at a public table')


async def test_a_crafted_number_of_seats_or_name_changes_nothing(user: User) -> None:
    await user.open('/play/chinchon')
    user.find(marker='quick-seats').elements.pop().value = 'many'   # as a crafted event would set it
    user.find(marker='quick-match').click()
    await sees(user, 'Escribe un nombre')   # a guest without a name is told, and nothing is dealt
    user.find(marker='quick-name').type('Ana')
    user.find(marker='quick-match').click()
    await sees(user, marker='waiting-room', clock_moves=False)
    assert len(open_table(one(user, 'waiting-room').props['data-table']).seats) == 2   # the fewest seats


async def test_an_open_lobby_redraws_only_after_a_change_to_some_public_table(user: User, create_user,
                                                                              clock) -> None:
    from app.pages.lobby import changed_since, read_page

    empty = read_page(None, 1)
    assert empty.rows == () and not changed_since(empty.latest)   # an empty lobby: nothing to redraw
    table_id = await quick(user, name='Ana')
    page = read_page(None, 1)
    assert [row['table_id'] for row in page.rows] == [table_id] and changed_since(empty.latest)
    assert not changed_since(page.latest)   # nothing moved since: the two-second look sends nothing
    await clock.advance(1)
    luis = create_user()
    await quick(luis, name='Luis')   # a moment later he sits down: the row changes
    assert changed_since(page.latest)
