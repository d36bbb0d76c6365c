"""What a room's screens tell of its people beside their seats, through NiceGUI's simulated users:
a computer standing in for a person, a person who has gone, ratings at a rated table, how many
watch a public table; and the reactions a browser chose to hide."""
from __future__ import annotations

import re

import pytest
from nicegui.testing import User
from screen import html_of, make_room, one, started_room
from seams import sees, until

from app.tables import room as room_module
from app.tables.registry import open_table
from app.tables.room import REACTION_GAP, Room


def marks(user: User, testid: str) -> list[str]:
    """The seats this screen marks with ``testid`` (stand-in, away, seat-rating), in drawing order."""
    return re.findall(rf'data-testid="{testid}" data-seat="(\d+)"', html_of(user, 'table'))


async def test_a_computer_standing_in_after_the_clock_says_so_at_that_seat_until_the_turn_is_over(
        user: User, create_user, clock) -> None:
    table, luis, _ = await started_room(user, create_user, clock=30)
    await table.settle()
    seat = table.state.current_seat
    other, slow, name = (luis, user, 'Ana') if seat == 0 else (user, luis, 'Luis')
    clock.autojump = False   # the computer's move for the seat waits until the test lets time pass
    assert marks(other, 'stand-in') == [] and marks(slow, 'stand-in') == []
    await clock.advance(30)   # the clock runs out: a computer plays that turn
    assert table.presence.stands_in(seat)
    await until(lambda: marks(other, 'stand-in') == [str(seat)], clock_moves=False)
    assert f'la máquina juega por {name}' in html_of(other, 'table')
    # the person whose turn it is reads it of their own seat, in the second person
    await until(lambda: marks(slow, 'stand-in') == [str(seat)], clock_moves=False)
    assert 'la máquina juega por ti' in html_of(slow, 'table')
    # the computer plays the turn; the next is the other person's, and the seat is its person's again
    while table.state.current_seat == seat and table.pause is None:
        await clock.advance(clock.next_due() - clock.now())
        await table.settle()
    await until(lambda: marks(other, 'stand-in') == [] and marks(slow, 'stand-in') == [], clock_moves=False)


async def test_a_person_who_closes_their_screen_is_marked_away_then_stood_in_for_until_they_return(
        user: User, create_user, clock) -> None:
    table, luis, link = await started_room(user, create_user)
    clock.autojump = False   # nothing plays on while the test looks
    assert marks(user, 'away') == []
    luis.client.delete()   # Luis closes his last tab: Ana's screen says he has gone, at once
    await until(lambda: marks(user, 'away') == ['1'], clock_moves=False)
    assert 'se ha ido' in html_of(user, 'table') and marks(user, 'stand-in') == []
    await clock.advance(room_module.ABSENT_GRACE)   # he stays away: a computer holds his seat
    await until(lambda: marks(user, 'stand-in') == ['1'], clock_moves=False)
    assert 'la máquina juega por Luis' in html_of(user, 'table') and marks(user, 'away') == []
    await luis.open(link[link.index('/room/'):])   # back through the invite link
    await sees(luis, marker='table', clock_moves=False)
    await until(lambda: marks(user, 'stand-in') == [] and marks(user, 'away') == [], clock_moves=False)
    assert marks(luis, 'stand-in') == [] and marks(luis, 'away') == []


@pytest.mark.parametrize('game', ['chinchon', 'ronda-robada', 'continental'])
async def test_a_rated_table_shows_each_persons_rating_by_their_name_with_a_mark_while_provisional(
        user: User, create_user, game: str) -> None:
    table_id, _ = await make_room(user, seats=2, game=game)
    table = open_table(table_id)
    table.room = Room.new(30, public=True, rated=True)
    table.room.ratings[0] = (1500, True)
    user.find(marker='start-room').click()   # Luis's free seat goes to a computer, with its level's fixed rating
    await until(lambda: not table.waiting, clock_moves=False)
    await sees(user, marker='table', clock_moves=False)
    shown = html_of(user, 'table')
    assert sorted(marks(user, 'seat-rating')) == ['0', '1']
    assert not table.room.ratings[1][1]   # a computer's rating is never provisional
    assert re.search(r'data-testid="seat-rating" data-seat="0" data-provisional="true" '
                     r'title="Tu puntuación provisional: 1500\. [^"]*pocas partidas[^"]*"[^>]*>1500\?</span>', shown)
    # a spectator (the room is full) reads it beside Ana's name, in the third person
    eva = create_user()
    await eva.open(f'/room/{table.id}/{table.room.invite}')
    await sees(eva, marker='table', clock_moves=False)
    assert sorted(marks(eva, 'seat-rating')) == ['0', '1']
    assert 'title="Puntuación provisional de Ana: 1500.' in html_of(eva, 'table')
    # settled: the number alone
    table.room.ratings[0] = (1523, False)
    user.find(marker='tips-switch').click()   # a redraw
    await until(lambda: '>1523</span>' in html_of(user, 'table'), clock_moves=False)
    assert '1523?' not in html_of(user, 'table')


async def test_an_unrated_table_shows_no_ratings(user: User) -> None:
    table_id, _ = await make_room(user, seats=2)
    table = open_table(table_id)
    table.room = Room.new(30, public=True)
    table.room.ratings[0] = (1500, True)   # known, but this table's end changes no rating
    user.find(marker='start-room').click()
    await sees(user, marker='table', clock_moves=False)
    assert marks(user, 'seat-rating') == []


async def test_a_public_table_says_how_many_watch(user: User, create_user) -> None:
    table_id, _ = await make_room(user, seats=2)
    table = open_table(table_id)
    table.room = Room.new(0, public=True)
    user.find(marker='start-room').click()
    await sees(user, marker='table', clock_moves=False)
    await user.should_not_see(marker='spectators')
    assert 'data-testid="spectators"' not in one(user, 'room-strip').content
    invite = f'/room/{table.id}/{table.room.invite}'
    eva = create_user()
    await eva.open(invite)
    await sees(eva, marker='table', clock_moves=False)
    await until(lambda: '1 persona mirando' in one(user, 'room-strip').content, clock_moves=False)
    mateo = create_user()
    await mateo.open(invite)
    await sees(mateo, marker='table', clock_moves=False)
    await until(lambda: '2 personas mirando' in one(user, 'room-strip').content, clock_moves=False)
    assert '2 personas mirando' in one(eva, 'room-strip').content   # spectators see it too
    mateo.client.delete()
    await until(lambda: '1 persona mirando' in one(user, 'room-strip').content, clock_moves=False)


async def test_a_private_room_keeps_its_spectators_count_to_itself(user: User, create_user) -> None:
    table_id, link = await make_room(user, seats=2)
    table = open_table(table_id)
    user.find(marker='start-room').click()
    await sees(user, marker='table', clock_moves=False)
    eva = create_user()
    await eva.open(link[link.index('/room/'):])
    await sees(eva, marker='table', clock_moves=False)
    assert table.snapshot(0).room.spectators == 1
    user.find(marker='tips-switch').click()   # a redraw of Ana's screen with Eva watching
    await user.should_see('Mostrar consejos')
    assert 'data-testid="spectators"' not in one(user, 'room-strip').content


async def test_muted_reactions_are_hidden_on_the_muting_browser_only_and_stay_hidden_after_a_reload(
        user: User, create_user, clock) -> None:
    table, luis, link = await started_room(user, create_user, seats=3)
    eva = create_user()   # the room is full: Eva watches
    await eva.open(link[link.index('/room/'):])
    await sees(eva, marker='table', clock_moves=False)
    # only people send reactions: Ana may hide Luis's, not the computer's (seat 2)
    assert [element.props['data-seat'] for element in user.find(marker='mute-1').elements] == ['1']
    await user.should_not_see(marker='mute-2')
    await user.should_not_see(marker='mute-0')
    user.find(marker='mute-1').click()
    await until(lambda: one(user, 'mute-1').props['aria-checked'] == 'true', clock_moves=False)
    await user.should_see('Mostrar las reacciones de Luis')
    luis.find(marker='reaction', content='¡Bien jugado!').click()
    await until(lambda: '¡Bien jugado!' in one(eva, 'room-strip').content, clock_moves=False)
    assert '¡Bien jugado!' in one(luis, 'room-strip').content   # Luis is not told: his screen shows it
    assert '¡Bien jugado!' not in one(user, 'room-strip').content
    assert 'data-testid="reaction-shown"' not in one(user, 'room-strip').content
    # a reload of the table: still hidden
    await user.open(f'/table/{table.id}')
    await sees(user, marker='table', clock_moves=False)
    await clock.advance(REACTION_GAP)
    luis.find(marker='reaction', content='Gracias').click()
    await until(lambda: 'Gracias' in one(eva, 'room-strip').content, clock_moves=False)
    assert 'Gracias' not in one(user, 'room-strip').content
    assert one(user, 'mute-1').props['aria-checked'] == 'true'
    # shown again once Ana asks for them
    user.find(marker='mute-1').click()
    await until(lambda: 'Gracias' in one(user, 'room-strip').content, clock_moves=False)
    await user.should_see('Ocultar las reacciones de Luis')
