"""Guidance at every table: first-game tips you can switch off, the hand log's button for phones,
and a count screen that speaks only of the hand counted."""
from __future__ import annotations

import re

from nicegui.testing import User

from screen import drawing, open_position
from table_positions import chinchon_position, continental_position, my_table_path, ronda_position


def tip(user: User) -> str:
    return re.sub(r'<[^>]+>', '', drawing(user, 'tips'))


async def test_tips_follow_your_turn_and_stay_off_once_switched_off(user: User) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    await open_position(user, table)
    assert tip(user).startswith('Consejo: Roba tocando el mazo')
    user.find(marker='stock').click()
    await user.should_see(marker='tips')
    assert 'pulsa «Tirar»' in tip(user)   # the tip of the discard, not of the draw
    user.find(marker='tips-switch').click()
    assert tip(user) == ''
    await user.should_see('Mostrar consejos')
    await user.open(my_table_path())   # the choice is remembered in this browser
    assert tip(user) == ''
    user.find(marker='tips-switch').click()
    assert 'pulsa «Tirar»' in tip(user)


async def test_each_game_has_its_own_tips_in_english(user: User) -> None:
    user.http_client.headers['Accept-Language'] = 'en'
    await open_position(user, ronda_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b', pile_sizes=[0, 7],
                                             last_runner=1, stock='6o 6c 6e 6b 7o 7e'))
    assert tip(user).startswith('Tip: Marked cards can start a run')
    await open_position(user, continental_position(hands=['7s 7h 9d 9h 2c 5s Kd', '3c 4c 5c 6c 8h 8d']))
    assert tip(user).startswith('Tip: Tap cards and press “Make a group”')


async def test_the_first_game_over_turns_the_tips_off_for_the_next_games(user: User) -> None:
    # the computer closes; you go far over the limit heads-up: the game ends
    table = chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b'},
                              stock_top='2c', current=1, dealer=0, scores=[90, 0], limit=100)
    await open_position(user, table)
    await table.settle()   # the computer closes: the count, and the game is over
    await user.should_see(marker='game-over')
    await open_position(user, chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e'))
    assert tip(user) == ''
    await user.should_see('Mostrar consejos')


async def test_the_log_opens_from_the_table_and_the_count_hides_the_next_hands_seats(user: User) -> None:
    # you close at once: the count of hand 1 is on the screen while hand 2 is already dealt
    table = chinchon_position(seats=3, hands={0: '1o 2o 3o 4c 4e 4b 7e'}, stock_top='1c', dealer=2)
    await open_position(user, table)
    await user.should_see(marker='log-button')
    assert 'data-testid="seat"' in drawing(user, 'seats')
    user.find(marker='stock').click()
    await user.should_see(marker='close')
    user.find(marker='hand').trigger('click', 6)   # the 7 goes face down; the 1 drawn is left loose
    user.find(marker='close').click()
    await user.should_see(marker='count')
    # the seats would show hand 2 (its dealer, its first turn): they wait for "Siguiente mano"
    assert drawing(user, 'seats') == ''
    user.find(marker='next-hand').click()
    await user.should_see('Mano 2')
    assert 'data-testid="seat"' in drawing(user, 'seats')
