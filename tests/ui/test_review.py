"""Reviewing a finished hand, in each game, through NiceGUI's simulated user on seeded deals: the
review opens from the count (or the game-over screen), steps through the hand from your seat,
shows every hand on request and ends on the very count the table showed. Nothing of a hand still
being played is offered; a crafted step or somebody else's table is refused in words. A guest's
review lives with the table (saved with it); an account's is in its history, in the database."""
from __future__ import annotations

import re

import pytest
from nicegui.testing import User
from people import log_in_and_see_history, new_account, sign_in_by_ticket
from seams import sees, until
from test_whole_games import as_the_normal_player, go_on, sit_at

from app.games import GAMES_BY_ID
from app.i18n import CATALOGS
from app.review.sources import record_source, table_source
from app.tables import registry
from app.tables.registry import add_table, new_table
from app.tables.room import Room
from app.tables.seats import Seat, TableOptions
from app.tables.table import Table
from app.tables.worker import computer_choice
from leaks import cards_in, codes, known_in_review, shown_codes
from screen import drawing, one

ES, EN = CATALOGS['es'], CATALOGS['en']
GAMES = [('chinchon', 3, {'limit': 50}), ('continental', 3, {}), ('ronda-robada', 2, {})]


async def first_hand_over(user: User, table) -> None:
    """The person plays as the normal computer would until the first hand's count (or, in Ronda
    Robada, the game's end) is on the screen."""
    step = as_the_normal_player(table.game.id)
    for _ in range(3000):
        await table.settle()
        if table.pause == 'count' or table.is_over():
            return
        step(user, table)
    raise AssertionError('the first hand did not end')


def review_index(user: User) -> int:
    return int(one(user, 'replay').props['data-index'])


def count_points(user: User, seats: int) -> list[int]:
    """Each seat's points on the count shown, in seat order, whatever the game calls them."""
    if _marked(user, 'count-seat-0'):   # Chinchón: "Suma +52" on each seat's line
        return [int(re.search(r'data-testid="count-added">[^<\d]*?([-+−]?\d+)<', drawing(user, f'count-seat-{seat}'))[1]
                    .replace('−', '-')) for seat in range(seats)]
    text = ' '.join(getattr(piece, 'content', '') for piece in one(user, 'count').descendants())
    return [int(points) for _, points in re.findall(r'data-seat="(\d)" data-points="(-?\d+)"', text)]


def _marked(user: User, marker: str) -> bool:
    try:
        return bool(user.find(marker=marker).elements)
    except AssertionError:
        return False


def hand_shown(user: User) -> list[str]:
    """The codes of your cards on the review's board."""
    return re.findall(r'data-card="(\w+)"', one(user, 'replay-board').content.split('data-testid="replay-hand"')[1])


@pytest.mark.parametrize('game_id, seats, rules', GAMES)
async def test_a_finished_hand_replays_to_the_count_the_table_showed(user: User, game_id, seats, rules) -> None:
    table = await sit_at(user, game_id, seats=seats, **rules)
    dealt = list(table.view(0).hand)   # your first hand, as dealt
    await first_hand_over(user, table)
    counted = table_source(table, 0).points[0]
    user.find(marker='review').click()
    await sees(user, marker='replay')
    # the deal, from your seat: your cards and no one else's
    assert review_index(user) == 0
    assert sorted(hand_shown(user)) == sorted(map(str, dealt))
    hand = table_source(table, 0).hand(1)
    steps = len(hand.steps)
    for index in range(steps):   # from your seat: what you could know at each moment, nothing more
        if hand.steps[index].over:
            break
        leaks = set(shown_codes(user.client.elements.values())) - known_in_review(hand, index, 0)
        assert not leaks, f'step {index} shows cards your seat did not know then: {leaks}'
        user.find(marker='replay-next').click()
    # the end: the count, as the table counted it
    user.find(marker='replay-last').click()
    assert review_index(user) == steps - 1
    assert count_points(user, len(counted)) == list(counted)
    # every hand, once asked for, at the deal
    user.find(marker='replay-first').click()
    user.find(marker='replay-all-cards').elements.pop().value = True
    others = set().union(*(cards_in(view.hand) for view in hand.steps[0].views[1:]))
    assert others <= set(shown_codes(user.client.elements.values()))


async def test_the_review_is_reached_from_the_game_over_screen_too(user: User) -> None:
    table = await sit_at(user, 'ronda-robada', seats=2)
    await first_hand_over(user, table)
    assert table.is_over()
    link = one(user, 'review')
    assert link.props['href'] == f'/table/{table.id}/review/1'
    await user.should_see(ES['review.open_game'])


async def test_a_crafted_step_moves_nothing_and_a_hand_still_played_shows_nothing(user: User) -> None:
    table = await sit_at(user, 'chinchon', seats=2, limit=50)
    await first_hand_over(user, table)
    go_on(user, table)   # the second hand is being played now
    await table.settle()
    await user.open(f'/table/{table.id}/review/1')
    user.find(marker='replay-next').click()
    for crafted in (['step:99999', None], ['step:-1', None], ['hand:1o', None], 'step:1', None):
        user.find(marker='replay-steps').trigger('click', crafted)
        assert review_index(user) == 1
    await user.should_see(ES['review.bad_step'])
    user.find(marker='replay-steps').trigger('click', ['step:3', None])
    assert review_index(user) == 3
    for hand in ('2', '0', '99', 'x', '9' * 5000):
        response = await user.http_client.get(f'/table/{table.id}/review/{hand}')
        assert response.status_code == 404
        assert ES['review.still_playing' if hand == '2' else 'review.no_such_hand'] in response.text
        assert not codes(response.text), 'a refused review sent cards'


async def test_somebody_elses_table_is_not_reviewed(user: User, create_user) -> None:
    table = await sit_at(user, 'ronda-robada', seats=2)
    await first_hand_over(user, table)
    other = create_user()
    await other.open('/')
    response = await other.http_client.get(f'/table/{table.id}/review/1')
    assert response.status_code == 404 and ES['review.not_yours'] in response.text and not codes(response.text)


async def test_a_guests_review_lives_with_the_table_saved_and_loaded_again(user: User) -> None:
    table = await sit_at(user, 'chinchon', seats=2, limit=50)
    await first_hand_over(user, table)
    before = table_source(table, 0).hand(1)
    again = Table.from_saved(table.id, table.game.id, table.options.to_dict(), [seat.to_dict() for seat in table.seats],
                             table.to_dict(), table.version, services=registry.services())
    after = table_source(again, 0).hand(1)
    assert after.points == before.points and len(after.steps) == len(before.steps)
    # in the reader's language: an English browser reads it in English
    user.http_client.headers['Accept-Language'] = 'en-GB,en;q=0.9'
    await user.open(f'/table/{table.id}/review/1')
    await user.should_see('Review of hand 1 · Chinchón')
    await user.should_see(EN['review.all_cards'])
    user.find(marker='replay-last').click()
    await user.should_see(EN['review.back_table'])


@pytest.mark.usefixtures('fresh_accounts')
async def test_an_accounts_review_is_kept_in_its_history(user: User, create_user) -> None:
    ana = new_account('Ana')
    await log_in_and_see_history(user, 'Ana')
    table = await sit_at(user, 'ronda-robada', seats=2)
    table.claim(0, ana, 'Ana')
    await first_hand_over(user, table)
    await table.settle()
    counted = table_source(table, 0).points[0]
    await user.open('/history')
    record = int(user.find(marker='game-link').elements.pop().props['href'].rsplit('/', 1)[1])
    # nothing of the table is needed any more: the record alone replays the hand
    assert record_source(ana, record).hand(1).points == counted
    await user.open(f'/history/{record}')
    user.find(marker='review').click()
    await sees(user, marker='replay')
    user.find(marker='replay-last').click()
    assert count_points(user, len(counted)) == list(counted)
    # somebody else's record is refused
    luis = create_user()
    new_account('Luis')
    await log_in_and_see_history(luis, 'Luis')
    response = await luis.http_client.get(f'/history/{record}/review/1')
    assert response.status_code == 404 and ES['review.not_yours'] in response.text and not codes(response.text)



@pytest.mark.usefixtures('fresh_accounts')
async def test_at_a_room_each_person_reviews_the_hand_from_their_own_seat(user: User, create_user) -> None:
    """Ana and Luis at one table: each reader's review, at the table and in the history, shows the
    reader's own cards, never the first person's."""
    ana_id = await sign_in_by_ticket(user, 'Ana')
    luis = create_user()
    luis_id = await sign_in_by_ticket(luis, 'Luis')
    options = TableOptions(seats=2, level='normal', speed='instant', hints=True, rules={})
    table = new_table(GAMES_BY_ID['ronda-robada'], options,
                      [Seat('person', name='Ana', user_id=ana_id), Seat('person', name='Luis', user_id=luis_id)])
    table.room = Room(invite='x' * 22, started=True)
    add_table(table)
    dealt = {seat: sorted(map(str, table.view(seat).hand)) for seat in (0, 1)}
    assert dealt[0] != dealt[1]
    while not table.is_over():    # each plays as the normal computer would, through the table
        seat = table.state.current_seat
        table.act(seat, computer_choice('ronda-robada', 'normal', f'person:{table.version}', table.view(seat)),
                  table.version)
        await table.settle()
    await until(lambda: table.recorded)
    for person, seat in ((luis, 1), (user, 0)):
        await person.open(f'/table/{table.id}/review/1')
        await sees(person, marker='replay')
        assert sorted(hand_shown(person)) == dealt[seat]
        await person.open('/history')
        record = int(person.find(marker='game-link').elements.pop().props['href'].rsplit('/', 1)[1])
        await person.open(f'/history/{record}/review/1')
        await sees(person, marker='replay')
        assert sorted(hand_shown(person)) == dealt[seat]
