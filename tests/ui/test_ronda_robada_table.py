"""Stories at the Ronda Robada table, through NiceGUI's simulated user (no browser)."""
from __future__ import annotations

import re

from nicegui.testing import User

from table_positions import ronda_position, stored_table
from screen import choose, drawing, one, open_position, phase, saved
from seams import until


def options(user: User) -> list[str]:
    """The run builder's choices: loose cards by code, piles as 'pile:<seat>'."""
    markup = drawing(user, 'run')
    return [card or f'pile:{seat}' for card, seat in
            re.findall(r'data-testid="run-option"[^>]*?(?:data-card="(\w+)"|data-seat="(\d)")', markup)]


async def test_a_marked_card_starts_a_run_with_the_loose_card_you_pick(user: User) -> None:
    # the second deal: the first round left 3 cards loose and won Lucía 7 (a full deck leaves 24 in the stock)
    table = ronda_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b', pile_sizes=[0, 7], last_runner=1,
                           stock='6o 6c 6e 6b 7o 7e')
    await open_position(user, table)
    assert phase(user) == 'start'
    # your empty pile is an outline on the felt, not a blank white card
    mine = re.search(r'data-testid="pile" [^>]*data-seat="0"[^>]*>(<img [^>]*>)', drawing(user, 'piles'))
    assert 'hod-card-empty' in mine.group(1) and 'src="/cards/empty.svg"' in mine.group(1)
    assert 'aria-label="Tu montón: vacío"' in mine.group(0)
    hand = drawing(user, 'hand')
    assert re.search(r'data-card="5o"[^>]*>\s*<span class="hod-rr-mark"', hand)   # 5o can start a run
    assert not re.search(r'data-card="7c"[^>]*>\s*<span class="hod-rr-mark"', hand)
    choose(user, 'hand', 'hand:5o')
    assert options(user) == ['5c', '5e']           # two loose fives: you pick
    await user.should_see('Has elegido el cinco de oros: elige una carta suelta de su número')
    choose(user, 'run', 'loose:5e')
    await until(lambda: phase(user) == 'run' and saved(table)['run'] is not None)
    run = saved(table)['run']
    assert run['played'] == '5o' and run['loose'] == ['5e']
    assert saved(table)['loose'] == ['5c', '3b']
    assert one(user, 'drop').props.get('disabled') is True     # no drop once a run has started
    await user.should_see('Empiezas una escalera con el cinco de oros y el cinco de espadas.')
    await user.should_see('Siguiente número: 6')


async def test_a_drop_after_starting_a_run_is_refused_and_tampered_choices_change_nothing(user: User) -> None:
    # a round after the first deal: Lucía's pile, 4b on top, holds the 5 cards not loose (the stock 30)
    table = ronda_position(hands=['5o 7c', '1e 3e'], loose='5c', piles=['', '4b'], pile_sizes=[0, 5], last_runner=1,
                           stock='6o 6c 6e 6b')
    await open_position(user, table)
    choose(user, 'hand', 'hand:5o')
    choose(user, 'run', 'loose:5c')
    await until(lambda: phase(user) == 'run' and saved(table)['run'] is not None)
    before = stored_table(table.id)
    user.find(marker='drop').trigger('click', None)             # a crafted click on the disabled button
    await user.should_see('Ya has empezado una escalera este turno: no puedes soltar una carta.')
    choose(user, 'run', 'loose:99x')                            # no such card
    await user.should_see('Esa jugada no se entiende')
    choose(user, 'piles', 'pile:1')                             # its top is a 4, the run needs a 6
    await user.should_see('La escalera necesita ahora otro número')
    assert stored_table(table.id) == before


async def test_you_steal_a_rivals_pile_and_then_your_own_closing_one(user: User) -> None:
    # slow computers: the board is read before Lucía's turn is over; after the first deal (the stock
    # 30), the 4o loose can join no run of this turn
    table = ronda_position(hands=['5o 2c', '7b 2e'], loose='5c 4o', piles=['3b 1c', '10b 6e'], last_runner=1,
                           stock='', dealer=1, speed='slow')
    await open_position(user, table)
    choose(user, 'hand', 'hand:5o')
    choose(user, 'run', 'loose:5c')
    await until(lambda: options(user) == ['pile:1'])           # Lucía's pile, top 6e
    assert 'Montón de Lucía' in drawing(user, 'run') and '2 cartas' in drawing(user, 'run')
    choose(user, 'run', 'pile:1')
    await until(lambda: saved(table)['run'] and saved(table)['run']['rank'] == 6)
    assert options(user) == []                                  # nothing with a 7: only Confirm
    await user.should_see('No queda nada que llevarte: confirma la escalera.')
    assert 'Sigue la escalera' not in drawing(user, 'status') + drawing(user, 'run')   # one message, not two
    await user.should_see('Te llevas el montón de Lucía (2 cartas, el seis de espadas encima).')
    user.find(marker='confirm-run').trigger('click', None)
    await until(lambda: saved(table)['piles'][0][-1] == '5o')
    assert saved(table)['piles'] == [['3b', '1c', '5c', '10b', '6e', '5o'], []]
    seats = drawing(user, 'piles')
    assert re.search(r'data-testid="pile" [^>]*data-seat="0" data-count="6" data-card="5o"', seats)
    assert 'hod-robbed' in seats and 'Te lo llevas tú' in seats
    assert 'aria-label="Tu montón: 6 cartas, el cinco de oros encima"' in seats and 'de Tú' not in seats


async def test_the_closing_one_after_the_king_can_come_from_your_own_pile(user: User) -> None:
    # after the first deal (the stock 30): the loose 5o 6c 10e can join no run of this turn
    table = ronda_position(hands=['12o 4c', '7b 2e'], loose='12c 5o 6c 10e', piles=['3b 1c', ''], last_runner=0,
                           stock='')
    await open_position(user, table)
    choose(user, 'hand', 'hand:12o')
    choose(user, 'run', 'loose:12c')
    await until(lambda: phase(user) == 'run')
    await user.should_see('Siguiente: el 1 que cierra la escalera')
    assert options(user) == ['pile:0'] and 'Tu montón' in drawing(user, 'run')
    choose(user, 'run', 'pile:0')
    await until(lambda: saved(table)['run'] and saved(table)['run']['closed'])
    await user.should_see('Cerrada con el 1 después del rey: ya no sigue.')
    await user.should_see('Recuperas tu propio montón (2 cartas, el as de copas encima).')
    user.find(marker='confirm-run').trigger('click', None)
    await until(lambda: saved(table)['piles'][0] == ['12c', '3b', '1c', '12o'])


async def test_three_more_cards_each_when_every_hand_is_empty(user: User) -> None:
    # you drop your last card, then Lucía hers; the stock holds what two more deals take (3 cards a
    # player each), the piles the cards already won
    table = ronda_position(hands=['7c', '11o'], loose='12b', pile_sizes=[12, 13], last_runner=1,
                           stock='1o 2o 3o 4o 5o 6o 10c 10e 10o 10b 11c 11e')
    await open_position(user, table)
    choose(user, 'hand', 'hand:7c')
    user.find(marker='drop').trigger('click', None)
    await until(lambda: phase(user) == 'start' and saved(table)['stock'] == '10c 10e 10o 10b 11c 11e'.split())
    # dealt from the player after the dealer (you), one at a time: you 1o 3o 5o, Lucía 2o 4o 6o
    assert saved(table)['hands'][0] == ['1o', '3o', '5o']
    await user.should_see('Tres cartas más para cada uno; quedan 6 en el mazo.')
    await user.should_see('Las manos se han vaciado: tres cartas más para cada uno. Quedan 6 en el mazo.')
    assert 'data-count="6"' in drawing(user, 'centre')


async def test_the_sweep_the_count_and_the_next_game_dealt_one_seat_on(user: User) -> None:
    # Lucía made the last run; you drop, she drops, the stock is out: the loose cards are hers. Her
    # pile holds every card not named: the deck's 244 points but your 17
    table = ronda_position(hands=['3c', '4e'], loose='12b', piles=['10o 7o', '11c'], pile_sizes=[2, 35], stock='',
                           last_runner=1)
    await open_position(user, table)
    choose(user, 'hand', 'hand:3c')
    user.find(marker='drop').trigger('click', None)
    await until(lambda: phase(user) == 'over')
    await user.should_see('Fin del mazo: las cartas sueltas (el rey de bastos, el tres de copas, el cuatro de espadas) '
                          'van a Lucía, que hizo la última escalera.')
    rows = drawing(user, 'count')
    assert re.findall(r'data-seat="(\d)" data-points="(\d+)"', rows) == [('0', '17'), ('1', '227')]
    await user.should_see('Gana: Lucía')
    await user.should_see('Partidas ganadas en esta mesa: Tú 0 · Lucía 1')
    user.find(marker='play-again').click()
    # the dealer was Lucía: now you deal, and the player after you, Lucía, starts
    await until(lambda: stored_table(table.id)['past_games'] != [])
    data = stored_table(table.id)
    assert data['state']['dealer'] == 0 and data['dealer'] == 0
    assert data['state']['events'][0]['seat'] == 0 and data['past_games'] == [{'scores': [17, 227], 'winners': [1]}]
    await until(lambda: phase(user) in ('start', 'wait'))
    await user.should_see('Partida 2')
    dealer_marks = re.findall(r'data-testid="rr-seat" data-seat="(\d)"><div class="hod-rr-name">[^<]*</div>'
                              r'<span class="hod-chip hod-rr-dealer"', drawing(user, 'piles'))
    assert dealer_marks == ['0']


async def test_a_hint_names_the_normal_players_move_and_picks_its_card(user: User) -> None:
    table = ronda_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 6e 3b', pile_sizes=[0, 7], last_runner=1,
                           stock='6o 6c 6b 7o 7e 7b')
    await open_position(user, table)
    user.find(marker='hint').trigger('click', None)
    # thought out in the process pool, like a computer's move (its first use starts a worker)
    await user.should_see('Pista: empieza una escalera con el cinco de oros y el cinco de copas.', retries=150)
    assert re.search(r'hod-selected" data-testid="hand-card" data-choice="hand:5o"', drawing(user, 'hand'))
    assert options(user) == ['5c']
