"""Rooms with friends, through NiceGUI's simulated users (each its own browser): a room made on the
setup page, joined through its invite link, started by its creator; seats held for people who
leave or run out of time; reactions; spectators."""
from __future__ import annotations

import asyncio
import re

import pytest
from nicegui.testing import User
from leaks import cards_in
from people import sign_in_by_ticket
from screen import html_of, join, make_room, one, started_room
from seams import sees, until

from app.engine.protocol import IllegalAction
from app.tables.registry import open_table
from app.tables.room import SPECTATOR
from app.tables import room as room_module


async def test_a_room_is_made_joined_through_its_link_and_started_by_its_creator(user: User, create_user) -> None:
    table_id, link = await make_room(user)
    assert link.startswith('http://') and '/room/' in link
    table = open_table(table_id)
    assert table.waiting and [seat.kind for seat in table.seats] == ['person', 'person', 'computer']
    luis = create_user()
    await join(luis, link, 'Luis')
    await luis.should_see('Esperando a que Ana empiece la partida.')
    assert table.seats[1].name == 'Luis'
    # Ana's waiting room lists him at once
    await until(lambda: 'Luis' in html_of(user, 'waiting-room'))
    # only the creator starts
    await luis.should_not_see(marker='start-room')
    user.find(marker='start-room').click()
    await until(lambda: not table.waiting)
    await user.should_see(marker='table')
    await luis.should_see(marker='table')
    # the waiting room gave its place to the table, on both screens
    await user.should_not_see(marker='waiting-room')
    await luis.should_not_see(marker='waiting-room')
    # each sees their own hand: Luis's screen never holds Ana's cards
    ana_cards = {str(card) for card in table.view(0).hand}
    luis_screen = html_of(luis, 'table')
    assert not any(f'data-card="{code}"' in luis_screen for code in ana_cards)
    assert all(f'data-card="{card}"' in luis_screen for card in table.view(1).hand)


async def test_the_room_form_gives_each_computer_its_level_instead_of_one_for_all(user: User) -> None:
    await user.open('/play/continental')
    await user.should_see(marker='opt-level')
    user.find(marker='friends').click()
    await user.should_see(marker='room-seat-kind-1')
    await user.should_not_see(marker='opt-level')
    user.find(marker='friends').click()   # back to a game against the computer
    await user.should_see(marker='opt-level')
    await user.should_not_see(marker='room-seat-kind-1')


async def test_a_taken_name_and_a_full_room_are_refused_in_words(user: User, create_user) -> None:
    table_id, link = await make_room(user, seats=2)
    luis = create_user()
    await luis.open(link[link.index('/room/'):])
    luis.find(marker='join-name').type('ana')
    luis.find(marker='join').click()
    await luis.should_see('Ya hay alguien en la mesa que se llama ana: elige otro nombre.')
    await join(luis, link, 'Luis')
    # the room is full: a third person watches
    eva = create_user()
    await eva.open(link[link.index('/room/'):])
    await eva.should_see('Miras la partida: no hay asiento libre para ti.')
    await eva.should_not_see(marker='join')


async def test_a_second_join_from_the_same_browser_keeps_its_one_seat(user: User, create_user) -> None:
    """A browser that has joined sends another join (an invite page it left open) under another
    name: it keeps its one seat, and the other free seat stays for a friend."""
    table_id, link = await make_room(user, seats=3, people=3)
    table = open_table(table_id)
    assert table.seating.free_seats() == [1, 2]
    luis = create_user()
    await luis.open(link[link.index('/room/'):])
    luis.find(marker='join-name').type('Luis')
    luis.find(marker='join').click()
    await until(lambda: table.seats[1].name == 'Luis')
    luis_version = table.version
    # the page left open sends its join, from the same browser, under another name
    table_seats = [(seat.name, seat.guest) for seat in table.seats]
    assert table.seating.join(table.seats[1].guest, None, 'Luis otra vez') == 1
    assert [(seat.name, seat.guest) for seat in table.seats] == table_seats and table.version == luis_version
    assert table.seating.free_seats() == [2]


async def test_two_joins_racing_for_the_last_seat_give_it_to_exactly_one(user: User) -> None:
    """Two browsers' joins in the same turn of the event loop (a join is one step of the table,
    never interleaved): the first gets the last seat, the second is told the room is full."""
    table_id, _ = await make_room(user, seats=2)
    table = open_table(table_id)

    async def join_as(guest: str, name: str) -> int | str:
        try:
            return table.seating.join(guest, None, name)
        except IllegalAction as refusal:
            return refusal.code

    assert await asyncio.gather(join_as('luis-browser', 'Luis'), join_as('eva-browser', 'Eva')) == [1, 'room_full']
    assert [seat.name for seat in table.seats] == ['Ana', 'Luis'] and table.seats[1].guest == 'luis-browser'


async def test_the_creator_frees_a_seat_before_the_start(user: User, create_user) -> None:
    table_id, link = await make_room(user)
    luis = create_user()
    await join(luis, link, 'Luis')
    table = open_table(table_id)
    await user.should_see(marker='waiting-room')
    await until(lambda: table.seats[1].name == 'Luis')
    table.seating.free_seat(0, 1, table.version)
    await luis.should_see('Quien creó la sala te ha dejado sin asiento.')
    assert table.seating.free_seats() == [1]
    # somebody else than the creator cannot free a seat
    await join(luis, link, 'Luis')
    with pytest.raises(Exception, match='only the person who made the room'):
        table.seating.free_seat(1, 0, table.version)


@pytest.mark.parametrize('game', ['chinchon', 'ronda-robada', 'continental'])
async def test_a_spectator_of_a_started_room_sees_no_hand_and_every_seat_once(user: User, create_user,
                                                                              game: str) -> None:
    table_id, link = await make_room(user, seats=2, game=game)
    user.find(marker='start-room').click()   # the free seat goes to a computer
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    assert not table.seats[1].is_person
    eva = create_user()
    await eva.open(link[link.index('/room/'):])
    await eva.should_see('Miras la partida: no hay asiento libre para ti.')
    await eva.should_see(marker='table')
    shown = html_of(eva, 'table')
    hands = {str(card) for seat in range(2) for card in table.state.view(seat).hand}
    # Continental plays two decks: a hand card may have a public twin (on the discard pile, say)
    hidden = hands - cards_in(table.view(SPECTATOR))
    assert hidden and not any(f'data-card="{code}"' in shown for code in hidden)
    assert table.view(SPECTATOR).hand == () and table.view(SPECTATOR).legal_actions == ()
    # the seats as the spectator sees them: both, once each (not the last one again as "yours")
    assert sorted(re.findall(r'data-testid="(?:rr-)?seat" data-seat="(-?\d+)"', shown)) == ['0', '1']


async def test_a_spectator_admitted_by_the_link_watches_at_the_tables_own_address(user: User, create_user) -> None:
    table_id, link = await make_room(user, seats=2)
    user.find(marker='start-room').click()   # the free seat goes to a computer
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    eva = create_user()
    await eva.open(link[link.index('/room/'):])
    await eva.should_see('Miras la partida: no hay asiento libre para ti.')
    await eva.open(f'/table/{table_id}')     # a reload of the table's address, say
    await eva.should_see('Miras la partida: no hay asiento libre para ti.')
    await eva.should_see(marker='table')
    # a spectator is offered nothing of the players': no new game of theirs
    await eva.should_not_see(marker='new-game')
    await user.should_see(marker='new-game')
    # a browser that never had the link still finds the table closed to it
    mallory = create_user()
    await mallory.open(f'/table/{table_id}')
    await mallory.should_see('Esta mesa es de otros jugadores')
    await mallory.should_not_see(marker='table')


async def test_the_turn_clock_hands_the_turn_to_the_computer(user: User, create_user, clock) -> None:
    table, luis, link = await started_room(user, create_user, clock=30)
    await table.settle()
    seat = table.state.current_seat
    assert table.turn_clock.deadline == clock.wall() + 30
    await until(lambda: 'data-testid="turn-clock"' in one(user, 'room-strip').content)
    assert 'data-testid="turn-clock"' in one(luis, 'room-strip').content
    await clock.advance(29.9)
    assert table.state.current_seat == seat and not table.presence.stands_in(seat)   # not yet...
    await clock.advance(0.1)   # ... and now the clock runs out
    await table.settle()
    name = table.seats[seat].name
    assert table.state.current_seat != seat
    watcher = luis if seat == 0 else user
    await watcher.should_see(f'{name} no responde: la máquina juega su turno.')
    assert not table.presence.stands_in(seat)   # the next turn is theirs again


async def test_a_person_who_leaves_is_played_for_and_comes_back_through_the_link(user: User, create_user,
                                                                                  clock) -> None:
    table, luis, link = await started_room(user, create_user)
    luis.client.delete()   # Luis closes his tab
    await clock.advance(room_module.ABSENT_GRACE - 0.1)
    assert not table.presence.stands_in(1)   # a moment away is no departure
    await clock.advance(0.1)
    assert table.presence.stands_in(1)
    await sees(user, 'Luis se ha ido: la máquina juega en su asiento hasta que vuelva.')
    await until(lambda: table.state.current_seat == 0 or table.pause is not None or table.is_over())
    await luis.open(link[link.index('/room/'):])   # back through the invite link: his own seat
    await sees(luis, marker='table')
    await until(lambda: not table.presence.stands_in(1))
    await sees(user, 'Luis ha vuelto a la mesa.')


async def test_reactions_show_by_name_and_are_rate_limited(user: User, create_user) -> None:
    table, luis, link = await started_room(user, create_user)
    luis.find(marker='reaction', content='¡Bien jugado!').click()
    await until(lambda: '¡Bien jugado!' in one(user, 'room-strip').content)
    assert 'Luis:' in one(user, 'room-strip').content
    luis.find(marker='reaction', content='Suerte').click()   # too soon after the first
    await luis.should_see('Espera unos segundos antes de mandar otra reacción.')
    assert 'Suerte' not in one(user, 'room-strip').content


async def test_every_logged_in_person_gets_the_game_with_the_others_names(user: User, fresh_accounts) -> None:
    from app.engine.cards import spanish_card
    from app.engine.chinchon.actions import Close, DrawStock
    from app.games import GAMES_BY_ID
    from app.tables.registry import add_table, create_table
    from app.tables.room import Room
    from app.tables.seats import Seat, TableOptions
    from models.db import session_scope
    from models.tables import list_games, seats_of
    from table_positions import chinchon_position

    ana_id = await sign_in_by_ticket(user, 'Ana')
    luis_id = await sign_in_by_ticket(user, 'Luis')
    # a room of Ana and Luis: Luis closes with every card joined, Ana goes over the limit
    table = chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b'},
                              stock_top='2c', current=1, dealer=0, scores=[90, 0], limit=100)
    table.seats = [Seat('person', name='Ana', guest='a' * 16, user_id=ana_id),
                   Seat('person', name='Luis', guest='l' * 16, user_id=luis_id)]
    table.room = Room(invite='x' * 22, started=True)
    add_table(table)
    # Ana starts a game of her own meanwhile: the room is left to her friends, not abandoned
    create_table(GAMES_BY_ID['chinchon'], TableOptions(seats=2), [Seat('person', name='Ana', user_id=ana_id)])
    assert not table.is_over() and not table.recorded and open_table(table.id) is table
    table.act(1, DrawStock(), table.version)
    table.act(1, Close(spanish_card('2c')), table.version)
    await until(lambda: table.is_over() and table.recorded)
    with session_scope() as session:
        for account_id, other in ((ana_id, 'Luis'), (luis_id, 'Ana')):
            games = list_games(session=session, user_id=account_id)
            assert len(games) == 1
            names = [seat.name for seat in seats_of(session=session, played_game_ids=[games[0].id])[games[0].id]]
            assert other in names


async def test_each_person_keeps_their_own_language_and_tips_when_the_room_starts(user: User, create_user) -> None:
    table_id, link = await make_room(user, seats=2)
    luis = create_user()
    luis.http_client.headers['Accept-Language'] = 'en'
    await luis.open(link[link.index('/room/'):])
    luis.find(marker='join-name').type('Luis')
    luis.find(marker='join').click()
    await sees(luis, 'Waiting for Ana to start the game.', clock_moves=False)
    user.find(marker='start-room').click()   # Ana's click turns Luis's waiting room into his table
    await sees(luis, marker='table', clock_moves=False)
    await luis.should_see('Hide tips')
    await user.should_see('Ocultar consejos')
    luis.find(marker='tips-switch').click()   # his choice, in his browser only
    await luis.should_see('Show tips')
    await user.open(f'/table/{table_id}')
    await user.should_see('Ocultar consejos')


def test_continental_offers_go_round_the_people_and_one_out_of_turn_robs_with_a_penalty() -> None:
    from app.engine.continental.actions import PassOffer, TakeOffer
    from app.tables.room import Room
    from app.tables.seats import Seat
    from table_positions import continental_position

    table = continental_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d', 'Ks Kh Qd Jd 10c 2h'],
                                 phase='offer', turn=0, stock='3d 4d 5d 6d', discard='4c 7d',
                                 offer={'discarder': 2, 'order': [0, 1]})
    table.seats = [Seat('person', name='Ana', guest='a' * 16), Seat('person', name='Luis', guest='l' * 16),
                   Seat('computer', name='Lucía', level='easy')]
    table.room = Room(invite='x' * 22, started=True)
    assert table.state.current_seat == 0           # the player on turn is asked first
    table.act(0, PassOffer(), table.version)
    assert table.state.current_seat == 1           # then the other person, in turn order
    luis_before = len(table.view(1).hand)
    table.act(1, TakeOffer(), table.version)       # out of turn: robo de contra
    assert len(table.view(1).hand) == luis_before + 2   # the card and a penalty card
    assert table.state.current_seat == 0 and table.view(0).phase == 'draw'   # Ana's turn goes on: she draws


async def test_a_count_waits_for_every_person_present_and_then_for_the_clock(clock) -> None:
    from app.engine.cards import spanish_card
    from app.engine.chinchon.actions import Close, DrawStock
    from app.tables.room import COUNT_CLOCK, Room
    from app.tables.seats import Seat
    from table_positions import chinchon_position

    table = chinchon_position(hands={1: '1o 2o 3o 4c 4e 4b 7e'}, stock_top='1c', current=1, dealer=0)
    table.seats = [Seat('person', name='Ana', guest='a' * 16), Seat('person', name='Luis', guest='l' * 16)]
    table.room = Room(invite='x' * 22, clock=30, started=True)
    for seat in (0, 1):   # both have a screen open
        table.subscribe(seat, lambda snapshot: None)
    table.act(1, DrawStock(), table.version)
    table.act(1, Close(spanish_card('7e')), table.version)
    assert table.pause == 'count' and table.turn_clock.deadline is None   # nobody has gone on yet: no clock
    await clock.advance(3600)
    assert table.pause == 'count'                                       # a count waits for ever...
    table.resume_after_count(1, table.version)
    assert table.pause == 'count' and table.presence.waiting_to_go_on() == [0]   # Luis waits for Ana
    assert table.turn_clock.seat() == COUNT_CLOCK and table.turn_clock.deadline == clock.wall() + 30   # Ana's clock
    await clock.advance(30)   # ... and it runs out
    assert table.pause is None and table.state.view(0).hand_number == 2


def test_a_full_room_of_computers_finds_each_a_name_of_its_own() -> None:
    from app.games import GAMES_BY_ID
    from app.tables.room import Room
    from app.tables.registry import new_table
    from app.tables.seats import ROOM_BOT_NAMES, Seat, TableOptions

    # six seats: two people who took computers' names, four seats still free at the start
    seats = [Seat('person', name='lucía', guest='a' * 16), Seat('person', name='Mateo', guest='m' * 16)]
    seats += [Seat('person') for _ in range(4)]
    table = new_table(GAMES_BY_ID['chinchon'], TableOptions(seats=6), seats, seed=5, room=Room(invite='x' * 22))
    table.seating.start(0, table.version, ROOM_BOT_NAMES, 'normal')
    names = [seat.name.casefold() for seat in table.seats]
    assert len(set(names)) == 6 and all(not seat.is_person for seat in table.seats[2:])


async def test_a_wrong_invite_secret_seats_nobody(user: User, create_user) -> None:
    table_id, link = await make_room(user, seats=2)
    eva = create_user()
    response = await eva.http_client.get(f'/room/{table_id}/{"x" * 22}')   # the table id alone is not enough
    assert response.status_code == 404
    assert 'Esta invitación no vale' in response.text
    assert open_table(table_id).seating.free_seats() == [1]


@pytest.mark.parametrize('language, words', [
    ('es', ['Esperando a que siga Luis.', 'Esperando a que sigan Luis y Eva.', 'Esperando a que sigan Luis, Eva y Mateo.']),
    ('en', ['Waiting for Luis to go on.', 'Waiting for Luis and Eva to go on.',
            'Waiting for Luis, Eva and Mateo to go on.']),
])
def test_who_a_count_waits_for_reads_as_a_sentence(language: str, words: list[str]) -> None:
    from app.i18n import language_scope
    from components.table.room_strip import waiting_words

    with language_scope(language):
        assert [waiting_words(['Luis', 'Eva', 'Mateo'][:n]) for n in (1, 2, 3)] == words


async def test_once_you_go_on_from_a_rooms_count_your_button_says_you_wait_for_the_others(user: User) -> None:
    from app.engine.cards import spanish_card
    from app.engine.chinchon.actions import Close, DrawStock
    from app.tables.room import Room
    from app.tables.seats import Seat
    from table_positions import chinchon_position, seat_user

    table = chinchon_position(hands={1: '1o 2o 3o 4c 4e 4b 7e'}, stock_top='1c', current=1, dealer=0)
    table.seats = [Seat('person', name='Ana'), Seat('person', name='Luis', guest='l' * 16)]
    table.room = Room(invite='x' * 22, started=True)
    await user.open('/')
    await user.open(seat_user(table))
    await user.should_see(marker='table')
    table.subscribe(1, lambda snapshot: None)   # Luis has a screen open too
    table.act(1, DrawStock(), table.version)
    table.act(1, Close(spanish_card('7e')), table.version)
    await user.should_see(marker='next-hand')
    assert one(user, 'next-hand').text == 'Siguiente mano' and one(user, 'next-hand').enabled
    user.find(marker='next-hand').click()
    await until(lambda: one(user, 'next-hand').text == 'Esperando a los demás…')
    assert not one(user, 'next-hand').enabled and table.pause == 'count'
    await user.should_see('Esperando a que siga Luis.')
    table.resume_after_count(1, table.version)   # Luis goes on: the next hand for both
    await user.should_not_see(marker='next-hand')


async def test_a_redraw_between_steps_shows_the_turn_clock_as_it_stands_now(user: User, create_user, clock) -> None:
    table, luis, link = await started_room(user, create_user, clock=30)
    await table.settle()
    reader = user if table.state.current_seat == 0 else luis
    await until(lambda: 'data-left="30000"' in one(reader, 'room-strip').content)
    await clock.advance(20)
    reader.find(marker='tips-switch').click()   # the screen redraws with no step between
    await until(lambda: 'data-left="10000"' in one(reader, 'room-strip').content)
