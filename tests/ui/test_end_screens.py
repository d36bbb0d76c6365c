"""A game's end and the ways out of it, through NiceGUI's simulated users: the rating's change and
its "?" at a rated public table's end, a spectator's way on, the question before leaving a rated
game in play (and what it costs), and the reason a guest may not sit at a rated table."""
from __future__ import annotations

import pytest
from nicegui.testing import User
from people import sign_in_by_ticket
from screen import html_of, one
from seams import sees, until
from test_public_tables import play_out, quick

from app.i18n import CATALOGS
from app.tables.registry import open_table

ES, EN = CATALOGS['es'], CATALOGS['en']


@pytest.fixture(autouse=True)
def no_tables_left(fresh_accounts) -> None:
    """No public table of an earlier test is waiting for quick match here."""


async def rated_game_with_computers(user: User, name: str = 'Ana'):
    """Ana, signed in, plays people; nobody comes and she starts with computers: a rated table."""
    await sign_in_by_ticket(user, name)
    table_id = await quick(user)
    user.find(marker='start-now').click()
    table = open_table(table_id)
    await until(lambda: not table.waiting)
    await sees(user, marker='table')
    assert table.room.rated
    return table


async def test_a_rated_games_end_shows_the_rating_change_and_says_what_its_question_mark_means(
        user: User, create_user) -> None:
    table = await rated_game_with_computers(user)
    eva = create_user()
    await eva.open(f'/table/{table.id}')   # a spectator watches it to its end
    await sees(eva, marker='spectator')
    await play_out(table)   # the last move is told to the screens before the ratings are in
    await sees(user, marker='rating-change')
    change = table.room.rating_changes[0]
    assert one(user, 'rating-change').text == f'Tu puntuación: {table.room.ratings[0][0]}? ({change:+d})'
    assert one(user, 'rating-provisional').text == ES['over.provisional']
    # the spectator is not left at a dead end: another table to watch, or a game of their own
    await sees(eva, marker='watch-another')
    eva.find(marker='watch-another').click()
    await sees(eva, marker='lobby-list')


async def test_new_game_at_a_rated_game_in_play_asks_and_says_what_leaving_costs(user: User) -> None:
    table = await rated_game_with_computers(user)
    user.find(marker='new-game').click()
    await user.should_see(ES['table.new_game_confirm'])
    await user.should_see(ES['table.leave_costs'])
    user.find(marker='leave-no').click()   # kept playing: still seated, nothing changed
    await user.should_not_see(ES['table.leave_costs'])
    assert not table.is_over() and table.seats[0].name == 'Ana'
    assert one(user, 'table').props['data-leave-costs'] == ''   # the site's links ask too (a browser test follows one)
    user.find(marker='new-game').click()
    user.find(marker='leave-yes').click()
    await sees(user, marker='quick-match')   # the game's page, to start another


async def test_new_game_at_a_computer_table_asks_without_a_cost(user: User) -> None:
    await user.open('/play/chinchon')
    user.find(marker='start').click()
    await sees(user, marker='table')
    assert 'data-leave-costs' not in one(user, 'table').props
    user.find(marker='new-game').click()
    await user.should_see(ES['table.new_game_confirm'])
    await user.should_not_see(ES['table.leave_costs'])


async def test_a_guest_sees_why_the_seat_of_a_rated_table_is_greyed_and_where_to_sign_in(
        user: User, create_user) -> None:
    await sign_in_by_ticket(user, 'Ana')
    table_id = await quick(user)   # rated, waiting for a second person
    eva = create_user()
    await eva.open('/lobby')
    await sees(eva, marker='lobby-list')
    assert 'Con puntuación' in html_of(eva, 'lobby-list')
    await eva.should_see(ES['lobby.join_needs_account'])
    link = one(eva, 'join-sign-in')
    assert link.text == ES['nav.login'] and link.props['href'] == f'/login?next=/table/{table_id}'
    # an account's browser gets the seat itself
    luis = create_user()
    await sign_in_by_ticket(luis, 'Luis')
    await luis.open('/lobby')
    await sees(luis, marker='lobby-list')
    await luis.should_not_see(ES['lobby.join_needs_account'])
    await luis.should_see(ES['lobby.join'])


async def test_a_crafted_leave_event_goes_nowhere_off_the_site() -> None:
    from components.table.ending import local_path

    assert local_path('/lobby?game=chinchon') == '/lobby?game=chinchon'
    for crafted in ('//evil.example', 'https://evil.example/', '\\\\evil', 'javascript:alert(1)', None, 7, ['/'], 'x' * 600):
        assert local_path(crafted) is None
