"""Whole games of every game, through NiceGUI's simulated user, on seeded deals, the inline thinker
and the manual clock: each runs the same way every time, in no real time.

After every step the whole screen (every element the server holds for the browser) is scanned
for cards its seat may not know (tests/leaks.py): another seat's hand, the stock. The count shows
every hand on purpose and is left out. (What only a real browser receives, the websocket frames,
is checked from a position in tests/e2e.)"""
from __future__ import annotations

import re

import pytest
from nicegui.testing import User

from app.engine.chinchon import Close, DrawStock
from app.games import GAMES_BY_ID
from app.tables.registry import new_table, open_table
from app.tables.room import SPECTATOR
from app.tables.seats import Seat, TableOptions, computer_seats
from app.tables.worker import computer_choice
from leaks import known_to, screen_text, shown_codes
from screen import hand_codes, join, make_room, one, pick
from table_positions import seat_user

MOST_STEPS = 3000   # a bound far above any game's length: a game that never ends fails
# the reader named in the third person on a screen: "Montón de Tú", "Lo ha tirado Tú"
THIRD_PERSON = re.compile(r'\b(?:de|que|por|con|para|tirado|cogido) Tú\b|\bTú (?:tiró|ha|se|tira|coge|roba|cierra)\b')


def scanned(user: User, table, seat: int = 0) -> int:
    """Nothing this seat may not know is on its screen (the count shows every hand on purpose);
    returns how many cards the screen shows (the scan read something)."""
    if table.pause == 'count' or table.is_over():
        return 0
    assert not THIRD_PERSON.search(screen_text(user.client)), THIRD_PERSON.search(screen_text(user.client))
    shown = shown_codes(user.client.elements.values())
    known = known_to(table, seat)
    leaks = {code: where for code, where in shown.items() if code not in known}
    assert not leaks, f'cards the seat may not know on its screen: {leaks}'
    return len(shown)


async def sit_at(user: User, game_id: str, *, seats: int, level: str = 'normal', **rules) -> object:
    options = TableOptions(seats=seats, level=level, speed='instant', hints=True, rules=rules)
    table = new_table(GAMES_BY_ID[game_id], options, computer_seats(options, [Seat('person')]))
    await user.open('/')
    await user.open(seat_user(table))
    return table


def go_on(user: User, table, seat: int = 0) -> None:
    """On the count: answer its question (no buy-back), or go on to the next hand."""
    if table.must_answer_during_pause(seat):
        user.find(marker='buyback-no').click()
    else:
        user.find(marker='next-hand').click()


def chinchon_step(user: User, table, seat: int = 0) -> str:
    """A simple player, through the screen's own controls: draw from the stock, close when the
    table allows it, else throw the card just drawn."""
    view = table.view(seat)
    if DrawStock() in view.legal_actions:
        user.find(marker='stock').click()
        return 'draw'
    if any(isinstance(action, Close) for action in view.legal_actions):
        user.find(marker='close').click()   # no card chosen: confirm the one the table offers
        user.find(marker='close-yes').click()
        return 'close'
    pick(user, hand_codes(user)[-1])
    user.find(marker='discard-button').click()
    return 'discard'


async def play_through(user: User, table, step) -> dict[str, int]:
    """Play to the game-over screen: ``step`` makes the person's move; the computers answer;
    the screen is scanned after every step. Returns how many steps of each kind were taken."""
    taken: dict[str, int] = {}
    most = 0
    for _ in range(MOST_STEPS):
        await table.settle()
        most = max(most, scanned(user, table))
        if table.is_over():
            break
        before = table.version
        if table.pause == 'count':
            go_on(user, table)
            kind = 'count'
        else:
            kind = step(user, table)
        taken[kind] = taken.get(kind, 0) + 1
        assert table.version > before, f'the {kind} step changed nothing'
    assert table.is_over(), 'the game did not end'
    assert most >= 7, 'the scan found no cards: it read nothing'
    await user.should_see(marker='game-over')
    return taken


def as_the_normal_player(game_id: str):
    """The person plays what the normal computer would (through the table, as the screen sends
    it): a game that plays well gets down, steals and ends, so every screen comes up."""
    def step(user: User, table) -> str:
        view = table.view(0)
        action = computer_choice(game_id, 'normal', f'person:{table.version}', view)
        table.act(0, action, table.version)
        return type(action).__name__
    return step


async def test_a_whole_chinchon_game_through_the_screen(user: User, clock) -> None:
    table = await sit_at(user, 'chinchon', seats=3, limit=50)
    taken = await play_through(user, table, chinchon_step)
    assert taken['count'] >= 1 and taken['draw'] >= 5 and taken['discard'] + taken.get('close', 0) >= 5
    # every count you went on from was a hand of this game, and so was the last one
    assert len(table.hand_results) >= taken['count'] + 1
    # the next game is dealt at the same table
    user.find(marker='play-again').click()
    await table.settle()
    assert table.game_number == 2 and not table.is_over()
    scanned(user, table)


@pytest.mark.parametrize('seats', [2, 4])
async def test_a_whole_ronda_robada_game(user: User, clock, seats: int) -> None:
    table = await sit_at(user, 'ronda-robada', seats=seats)
    taken = await play_through(user, table, as_the_normal_player('ronda-robada'))
    assert taken['StartRun'] >= 1 and taken['Drop'] >= 1
    # the end: every pile counted (somebody made a run, so the loose cards left were swept to a
    # pile and the whole deck is counted), the winners marked, the tally; then the next game here
    points = [int(p) for p in re.findall(r'data-testid="count-row" data-seat="\d" data-points="(\d+)"',
                                         screen_text(user.client))]
    assert len(points) == seats and sum(points) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 10 + 11 + 12)
    winners = [i for i, p in enumerate(points) if p == max(points)]
    assert list(table.state.outcome().winners) == winners
    assert screen_text(user.client).count('<span class="hod-chip">') == len(winners)   # each winner marked
    await user.should_see('Partidas ganadas en esta mesa: Tú ')
    user.find(marker='play-again').click()
    await table.settle()
    await user.should_see('Partida 2')
    scanned(user, table)


async def test_a_whole_continental_game_of_seven_hands(user: User, clock) -> None:
    table = await sit_at(user, 'continental', seats=4)
    taken = await play_through(user, table, as_the_normal_player('continental'))
    assert taken['count'] == 6   # the count after each of the first six hands; the seventh ends it
    assert one(user, 'scoreboard') is not None
    await user.should_see('Mano 7 · tres escaleras')


async def test_a_whole_room_game_of_two_people_and_a_computer_with_a_spectator(user: User, create_user, clock) -> None:
    """Ana and Luis play a whole Chinchón game in a room, a computer in the third seat and Eva
    watching: each screen, the spectator's too, holds only what its seat may know."""
    table_id, link = await make_room(user, seats=3)
    luis = create_user()
    await join(luis, link, 'Luis')
    table = open_table(table_id)
    user.find(marker='start-room').click()
    await table.settle()
    eva = create_user()
    await eva.open(link[link.index('/room/'):])
    await eva.should_see('Miras la partida: no hay asiento libre para ti.')
    people = {0: user, 1: luis}
    moves = {0: 0, 1: 0}
    for _ in range(MOST_STEPS):
        await table.settle()
        for seat, person in [*people.items(), (SPECTATOR, eva)]:
            scanned(person, table, seat)
        if table.is_over():
            break
        before = table.version
        if table.pause == 'count':
            for seat, person in people.items():
                go_on(person, table, seat)
        else:
            seat = table.state.current_seat
            chinchon_step(people[seat], table, seat)
            moves[seat] += 1
        assert table.version > before
    assert table.is_over() and moves[0] > 5 and moves[1] > 5
    for person in (user, luis):
        await person.should_see(marker='game-over')
