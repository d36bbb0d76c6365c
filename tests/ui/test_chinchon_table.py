"""Stories at the Chinchón table, through NiceGUI's simulated user (no browser)."""
from __future__ import annotations

import hashlib
import re

from nicegui.testing import User
from seams import until

from leaks import shown_codes
from people import browser_id
from screen import drawing, hand_codes, one, open_position, phase, pick
from table_positions import chinchon_position, my_table_path, seat_user, stored_table


async def test_setup_deals_at_once_with_the_chosen_options(user: User) -> None:
    # the deals come from the test's seeded source (conftest), so this deal is the same every run
    await user.open('/play/chinchon')
    await user.should_see('Nueva partida de Chinchón')
    one(user, 'opt-seats').set_value(3)
    one(user, 'opt-limit').set_value(50)
    one(user, 'opt-speed').set_value('instant')
    user.find(marker='start').click()
    await user.open(my_table_path())   # where the start button navigates
    await user.should_see(marker='table')
    assert drawing(user, 'seats').count('data-testid="seat"') == 2    # two computers (and you)
    await user.should_see('Tope 50')
    await until(lambda: phase(user) == 'draw')
    assert len(hand_codes(user)) == 7


async def test_the_card_you_drew_and_a_discard_just_thrown_are_ringed_until_the_next_move(user: User) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e', discard='6b', speed='slow')
    await open_position(user, table)
    user.find(marker='stock').click()
    await until(lambda: phase(user) == 'discard')
    assert re.findall(r'hod-fresh" data-testid="hand-card" data-card="(\w+)"', drawing(user, 'hand')) == ['4e']
    pick(user, '12c')
    user.find(marker='discard-button').click()
    await until(lambda: phase(user) == 'wait')
    assert 'hod-fresh' not in drawing(user, 'hand') and 'data-fresh' not in one(user, 'discard').props
    await until(lambda: table.log[-1]['kind'] == 'discard' and table.log[-1]['seat'] == 1)   # Lucía throws
    assert 'data-fresh' in one(user, 'discard').props


async def test_remembers_the_last_options(user: User) -> None:
    await user.open('/play/chinchon')
    one(user, 'opt-seats').set_value(5)
    one(user, 'opt-level').set_value('hard')
    user.find(marker='start').click()
    await user.open('/play/chinchon')
    await user.should_see(marker='resume')       # the table just dealt can be resumed from here
    assert one(user, 'opt-seats').value == 5
    assert one(user, 'opt-level').value == 'hard'


async def test_draw_from_stock_then_discard(user: User) -> None:
    # slow computers: your discard is still the top when the table is saved
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e', discard='6b', speed='slow')
    await open_position(user, table)
    assert phase(user) == 'draw'
    assert one(user, 'stock').props.get('aria-label') == 'Mazo, 25 cartas: robar la de arriba'
    user.find(marker='stock').click()
    await until(lambda: phase(user) == 'discard')
    assert '4e' in hand_codes(user)
    assert one(user, 'stock').props.get('aria-label') == 'Mazo, 24 cartas'   # nothing to draw now
    pick(user, '12c')
    user.find(marker='discard-button').click()
    await until(lambda: stored_table()['state']['discard'][-1] == '12c')
    assert '12c' not in hand_codes(user)
    # the card that took the discarded one's place is not shown chosen while the computer plays
    assert phase(user) == 'wait' and 'hod-selected' not in drawing(user, 'hand')
    await user.should_see('Tiras el rey de copas.')
    legend = drawing(user, 'legend')   # what the bars, the numbers and the dealer's mark mean
    assert 'cartas ligadas en una combinación' in legend and 'lo que vale una carta suelta' in legend
    assert 'quien reparte esta mano' in legend


async def test_taking_the_discard_then_discarding_it_is_refused(user: User) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, discard='6b')
    await open_position(user, table)
    user.find(marker='discard').click()          # draw phase: takes the discard top
    await until(lambda: phase(user) == 'discard')
    assert hand_codes(user).count('6b') == 1
    before = stored_table()['state']
    pick(user, '6b')
    user.find(marker='discard-button').click()
    await user.should_see('Acabas de coger el seis de bastos del descarte')   # the refusal, in words
    assert stored_table()['state'] == before      # nothing changed
    assert phase(user) == 'discard'


async def test_sort_puts_melds_together_then_loose_cards_by_value(user: User) -> None:
    table = chinchon_position(hands={0: '12c 2o 7e 1o 5c 11b 3o'})
    await open_position(user, table)
    user.find(marker='sort').click()
    await until(lambda: hand_codes(user)[:3] == ['1o', '2o', '3o'])
    assert hand_codes(user)[3:] == ['5c', '7e', '11b', '12c']
    await user.open(my_table_path())             # the order survives a reload
    assert hand_codes(user)[:3] == ['1o', '2o', '3o']


def count_added(user: User, seat: int) -> str:
    """What a seat adds on the count, as its line says it ("Suma +52")."""
    return re.search(r'data-testid="count-added">([^<]*)<', drawing(user, f'count-seat-{seat}'))[1]


def fair_deal(user: User, testid: str) -> str:
    """A line of the fair-deal box as the screen shows it: this hand's fingerprint, the seed revealed."""
    return re.search(rf'data-testid="{testid}">([^<]*)<', drawing(user, 'fair-deals'))[1]


async def test_closing_shows_the_count_with_lay_offs(user: User) -> None:
    # you close with 1o-2o-3o-4o + 7c 7e 7b and the 2c loose; the computer lays its 5o off on your run
    table = chinchon_position(hands={0: '1o 2o 3o 4o 7c 7e 7b', 1: '5o 12c 12e 11b 10b 6c 6e'},
                              stock_top='2c', discard='10e', dealer=1)
    await open_position(user, table)
    shown_fingerprint = fair_deal(user, 'commitment')
    user.find(marker='stock').click()
    await until(lambda: phase(user) == 'discard')
    await user.should_see('¡Puedes cerrar!')
    pick(user, '2c')
    # closing lays the selected card face down: the 2c leaves, all seven melded → -10
    user.find(marker='close').click()
    await until(lambda: phase(user) == 'count')
    await user.should_see('Mano 1: cierras')
    assert count_added(user, 0) == 'Suma −10'
    await user.should_see('Cierras con las siete cartas ligadas: te restas 10.')
    # 5o goes on the closer's run; 12c 12e 11b 10b 6c 6e stay loose: 10+10+10+10+6+6
    assert count_added(user, 1) == 'Suma +52'
    await user.should_see('Colocadas en tu jugada')
    # the screen stays on the counted hand: hand 2 is dealt already, and shows after "next hand"
    assert 'Mano 1' in drawing(user, 'table-top') and 'Mano 2' not in drawing(user, 'hand-log')
    # the fair deal: the hand's seed is revealed, and its SHA-256 is the fingerprint shown before
    revealed = fair_deal(user, 'revealed-seed').removeprefix('semilla ')
    assert hashlib.sha256(revealed.encode()).hexdigest() == shown_fingerprint
    user.find(marker='next-hand').click()
    await until(lambda: phase(user) in ('draw', 'wait'))
    assert 'Mano 2' in drawing(user, 'table-top') and 'Mano 2: reparte' in drawing(user, 'hand-log')
    assert stored_table()['pause'] is None


async def test_buy_back_question_on_the_count_screen(user: User) -> None:
    # Lucía closes at -10 (20 → 10); Mateo adds his loose 4b (40 → 44); you add 57 (60 → 117, out)
    table = chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b',
                                     2: '10o 11o 12o 10c 11c 12c 4b'},
                              stock_top='2c', current=1, dealer=0, scores=[60, 20, 40], seats=3,
                              limit=100, buyback=True, speed='instant')
    await open_position(user, table)
    await until(lambda: phase(user) == 'count')     # the computer closes at once
    await user.should_see('¿Te reenganchas con 44 puntos?')
    user.find(marker='buyback-yes').click()
    await until(lambda: stored_table()['state']['buyback_used'][0] is True)
    assert stored_table()['state']['scores'][0] == 44
    await user.should_see(marker='next-hand')


async def test_game_over_and_play_again(user: User) -> None:
    # the computer closes; you go far over the limit heads-up: the game ends
    table = chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b'},
                              stock_top='2c', current=1, dealer=0, scores=[90, 0], limit=100)
    await open_position(user, table)
    await until(lambda: phase(user) == 'over')
    await user.should_see('Gana: Lucía')
    await user.should_see('Partidas ganadas en esta mesa: Tú 0 · Lucía 1')
    user.find(marker='play-again').click()
    # the next game at the same table: the dealer one seat on, the tally kept
    await until(lambda: phase(user) in ('draw', 'wait') and stored_table()['past_games'])
    assert my_table_path() == f'/table/{table.id}'
    saved = stored_table()
    assert saved['state']['scores'] == [0, 0] and saved['state']['dealer'] == 1 and saved['dealer'] == 1
    assert [game['winners'] for game in saved['past_games']] == [[1]]
    await user.should_see('Partida 2')


async def test_reload_returns_to_the_same_table(user: User) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    await open_position(user, table)
    user.find(marker='stock').click()
    await until(lambda: phase(user) == 'discard')
    await user.open(my_table_path())
    assert phase(user) == 'discard'
    assert '4e' in hand_codes(user)


async def test_english_table_stays_english_through_the_computers_moves(user: User) -> None:
    user.http_client.headers['Accept-Language'] = 'en'
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, current=1)   # the computer plays first
    await open_position(user, table)
    await until(lambda: phase(user) == 'draw')
    await user.should_see('Your turn: draw from the stock or take the discard.')
    await user.should_see('Hand 1')
    assert 'Lucía draws from the stock.' in drawing(user, 'hand-log') \
        or 'Lucía takes from the discard pile' in drawing(user, 'hand-log')


async def test_home_offers_to_resume_a_game_in_progress(user: User) -> None:
    await user.open('/')
    await user.should_not_see(marker='resume-chinchon')
    seat_user(chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}))
    await user.open('/')
    await user.should_see('Continuar partida')
    user.find(marker='resume-chinchon').click()
    await user.open(my_table_path())
    assert sorted(hand_codes(user)) == sorted('1o 2o 3o 5c 7e 11b 12c'.split())


async def test_a_finished_game_goes_to_the_players_history(user: User, fresh_accounts) -> None:
    from app import accounts, sessions

    account = accounts.register(username='ana', password='correct horse', confirmation='correct horse')
    await user.open('/')
    await user.open(sessions.start_path(sessions.issue_ticket(account.id, browser_id()), '/'))  # as after the login form
    table = chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b'},
                              stock_top='2c', current=1, dealer=0, scores=[90, 0], limit=100)
    await open_position(user, table)
    await until(lambda: phase(user) == 'over')
    await user.open('/history')
    await user.should_see('147')          # your final score: 90 + 57
    await user.should_see('0 %')          # no wins yet


async def test_a_guests_finished_game_is_not_recorded(user: User, fresh_accounts) -> None:
    from sqlmodel import select

    from models.db import session_scope
    from models.tables import PlayedGame

    table = chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b'},
                              stock_top='2c', current=1, dealer=0, scores=[90, 0], limit=100)
    await open_position(user, table)
    await until(lambda: phase(user) == 'over')
    with session_scope() as session:
        assert session.exec(select(PlayedGame)).all() == []


async def test_once_out_the_rest_of_the_game_plays_out_without_waiting(user: User) -> None:
    # Lucía closes; you go over (90 + 57) while Lucía and Mateo stay in: you see that count, then
    # the computers finish the game on their own
    table = chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b',
                                     2: '10o 11o 12o 10c 11c 12c 4b'},
                              stock_top='2c', current=1, dealer=0, scores=[90, 0, 0], seats=3, limit=100)
    await open_position(user, table)
    await until(lambda: phase(user) == 'count')
    await user.should_see('Te pasas del tope.')
    user.find(marker='next-hand').click()
    await table.settle()   # the computers play the game out among themselves
    assert phase(user) == 'over'
    assert len(stored_table()['hand_results']) >= 2


async def test_closing_with_no_card_chosen_asks_once_which_card_goes_face_down(user: User) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 4o 7c 7e 7b', 1: '5o 12c 12e 11b 10b 6c 6e'},
                              stock_top='2c', discard='10e', dealer=1, speed='slow')
    await open_position(user, table)
    user.find(marker='stock').click()
    await until(lambda: phase(user) == 'discard')
    version = table.version
    user.find(marker='close').click()                # nothing selected: the table asks first
    await user.should_see('¿Cerrar dejando boca abajo el dos de copas?')
    user.find(marker='close-no').click()
    assert phase(user) == 'discard' and table.version == version   # nothing happened
    user.find(marker='close').click()
    user.find(marker='close-yes').click()
    await until(lambda: phase(user) == 'count')
    await user.should_see('Mano 1: cierras')


async def test_every_computer_discard_stays_in_view_until_your_turn(user: User) -> None:
    # four seats: Lucía, Mateo and Carmen play before you, each discard covering the one before
    table = chinchon_position(seats=4, current=1, dealer=0)
    await open_position(user, table)
    await until(lambda: phase(user) == 'draw')
    discards = {event['seat']: event['data']['card'] for event in table.log if event['kind'] == 'discard'}
    assert sorted(discards) == [1, 2, 3]
    shown = re.findall(r'data-testid="seat-discard"[^>]*>.*?data-card="(\w+)"', drawing(user, 'seats'))
    assert shown == [discards[1], discards[2], discards[3]]
    assert 'Tiró:' in drawing(user, 'seats')
    # once you have moved, the marks start again from your move
    user.find(marker='stock').click()
    await until(lambda: phase(user) == 'discard')
    assert 'seat-discard' not in drawing(user, 'seats')


async def test_a_void_hand_shows_every_hand_at_its_count(user: User) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 12c 12e 7b 6b', 1: '1c 2c 3c 4c 5c 6c 7c'}, stock_size=0,
                              discard='10o 11o 10e 11e 5o', reshuffles=2, dealer=1)
    await open_position(user, table)
    user.find(marker='stock').click()   # the stock runs out a third time
    await until(lambda: phase(user) == 'count')
    await user.should_see('Mano 1 nula')
    await user.should_see('Aquí tienes las cartas con que acabó cada uno.')
    shown = {seat: set(shown_codes([one(user, f'count-seat-{seat}'), *one(user, f'count-seat-{seat}').descendants()]))
             for seat in (0, 1)}
    assert shown[0] == {'1o', '2o', '3o', '12c', '12e', '7b', '6b'}
    assert shown[1] == {'1c', '2c', '3c', '4c', '5c', '6c', '7c'}
