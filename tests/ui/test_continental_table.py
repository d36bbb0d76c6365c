"""Stories at the Continental table, through NiceGUI's simulated user (no browser)."""
from __future__ import annotations

import re
from collections import Counter

from nicegui.testing import User

from table_positions import continental_position, stored_table
from screen import choose, click, disabled, drawing, hand_codes, one, open_position, phase, pick, saved
from seams import until


def group(user: User, cards: str) -> None:
    """Pick these cards (equal cards of the two decks one after the other) and make them a group."""
    codes, taken = hand_codes(user), set()
    for code in cards.split():
        index = next(i for i, c in enumerate(codes) if c == code and i not in taken)
        taken.add(index)
        user.find(marker='hand').trigger('click', index)
    click(user, 'meld-group-new')


def verdicts(user: User) -> list[str]:
    return re.findall(r'data-testid="meld-verdict">([^<]*)<', drawing(user, 'builder'))


def rivals_offer():
    """Lucía discarded the 7d; Mateo, on turn, passed: you are asked out of turn."""
    return continental_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d', 'Ks Kh Qd Jd 10c 2h'],
                                phase='offer', turn=2, stock='3s 4s Ah', discard='4c 7d',
                                offer={'discarder': 1, 'order': [2, 0], 'passed': [2]})


async def test_on_your_turn_you_keep_the_offered_card_as_your_draw(user: User) -> None:
    table = continental_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d'], phase='offer', turn=0,
                                 discard='4c 7d', offer={'discarder': 1, 'order': [0]})
    await open_position(user, table)
    assert phase(user) == 'offer'
    assert 'Lo ha tirado Lucía' in drawing(user, 'offer')
    assert 'Decides…' in drawing(user, 'offer') and 'Tú' not in drawing(user, 'offer')   # you, not "Tú"
    await user.should_see('En oferta: el siete de diamantes. Es tu turno: puedes quedártela como tu robo o pasar.')
    assert one(user, 'robo-contra').props.get('hidden') is True and not disabled(user, 'offer-take')
    click(user, 'offer-take')
    await until(lambda: phase(user) == 'play' and '7d' in saved(table)['hands'][0])
    await user.should_see('Te quedas el siete de diamantes.')


async def test_out_of_turn_you_pass_or_rob_with_a_penalty_card(user: User) -> None:
    table = rivals_offer()
    await open_position(user, table)
    assert phase(user) == 'offer'
    assert one(user, 'offer-take').props.get('hidden') is True
    assert one(user, 'robo-contra').props.get('hidden') is None and not disabled(user, 'robo-contra')
    await user.should_see('No es tu turno, pero puedes robarla de contra')
    assert 'Mateo pasa' in drawing(user, 'offer')
    click(user, 'robo-contra')
    await until(lambda: len(saved(table)['hands'][0]) == 8)
    assert saved(table)['hands'][0][-2:] == ['7d', 'Ah']       # the card and the stock's top as penalty
    assert saved(table)['phase'] == 'draw' and saved(table)['turn'] == 2   # Mateo draws; your turn is kept
    await user.should_see('Robas de contra el siete de diamantes y te llevas una carta de castigo.')


def ringed(user: User) -> list[str]:
    return re.findall(r'hod-fresh" data-testid="hand-card" data-card="(\w+)"', drawing(user, 'hand'))


async def test_the_cards_you_just_took_are_ringed_until_your_next_move(user: User) -> None:
    table = continental_position(hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d'], phase='offer', turn=0,
                                 discard='4c 7d', offer={'discarder': 1, 'order': [0]})
    await open_position(user, table)
    assert ringed(user) == []
    click(user, 'offer-take')
    await until(lambda: phase(user) == 'play')
    assert ringed(user) == ['7d']
    pick(user, '2c')
    click(user, 'discard-button')
    await until(lambda: phase(user) != 'play')
    assert ringed(user) == []


async def test_a_robo_rings_the_card_and_its_penalty_card(user: User) -> None:
    await open_position(user, rivals_offer())
    click(user, 'robo-contra')
    await until(lambda: len(hand_codes(user)) == 8)
    assert sorted(ringed(user)) == ['7d', 'Ah']


async def test_passing_moves_the_offer_on(user: User) -> None:
    table = rivals_offer()
    await open_position(user, table)
    click(user, 'offer-pass')
    await until(lambda: saved(table)['phase'] == 'draw')
    assert saved(table)['hands'][0] == '7s 7h 9d 9h 2c 5s'.split()
    await user.should_see('Pasas.')


async def test_a_game_of_three_contracts_says_which_hand_of_three_it_is(user: User) -> None:
    table = continental_position(hands=['7s 7h 9d 9h 2c 5s 5h 4d', '3c 4c 5c 6c 8h 8d 10s'], hand_number=2, contracts=3)
    await open_position(user, table)
    await user.should_see('Mano 2 de 3')


async def test_going_down_groups_are_checked_live_and_the_contract_met_exactly(user: User) -> None:
    # hand 2: you drew and robbed two discards out of turn (7 + 1 + 2 + 2 cards), Lucía holds what was dealt
    table = continental_position(hands=['7s 7h 7d 9c 9d 9h 5h 6h JK JK 8h Kc', '3c 4c 5c 6c 8h 8d 10s'],
                                 hand_number=2)
    await open_position(user, table)
    assert phase(user) == 'play'
    group(user, '5h 6h 8h')
    assert verdicts(user) == ['Una escalera necesita 4 cartas seguidas del mismo palo.']
    click(user, 'meld-group-new')   # nothing selected: nothing happens
    choose(user, 'builder', 'ungroup:0')
    await until(lambda: verdicts(user) == [])
    group(user, '5h JK JK 8h')
    assert verdicts(user) == ['Dos comodines no pueden ir juntos.']
    choose(user, 'builder', 'ungroup:0')
    group(user, '7s 7h 7d')
    group(user, '5h 6h JK 8h')
    group(user, '9c 9d 9h')          # one set too many for hand 2 (a set and a run)
    assert verdicts(user) == ['Trío', 'Escalera', 'Trío']
    assert 'sobra un grupo' in drawing(user, 'builder') and disabled(user, 'meld-confirm')
    before = stored_table(table.id)
    click(user, 'meld-confirm')      # a crafted click on the disabled button: the engine says no
    await user.should_see('La mano 2 pide exactamente 1 trío(s) y 1 escalera(s).')
    assert stored_table(table.id) == before
    choose(user, 'builder', 'ungroup:2')
    await until(lambda: '✔ tríos 1/1 · escaleras 1/1' in drawing(user, 'builder'))
    assert not disabled(user, 'meld-confirm')
    click(user, 'meld-confirm')
    await until(lambda: saved(table)['down'][0])
    melds = [[item['card'] for item in meld['cards']] for meld in saved(table)['melds']]
    assert melds == [['7s', '7h', '7d'], ['5h', '6h', 'JK', '8h']]
    await user.should_see('Te bajas: 7♠ 7♥ 7♦ · 5♥ 6♥ 🃏 8♥.')


async def test_propose_fills_the_builder_with_the_solvers_arrangement(user: User) -> None:
    # you drew and robbed a discard out of turn (6 + 1 + 2 cards): 7s 7h 7d 7c and 9c 9d 9h, 5h Kc loose
    table = continental_position(hands=['7s 7h 7d 7c 9c 9d 9h 5h Kc', '3c 4c 5c 6c 8h 8d'])
    await open_position(user, table)
    click(user, 'meld-propose')
    await user.should_see('Propuesta: te quedarían 15 puntos en la mano.')
    assert verdicts(user) == ['Trío', 'Trío'] and not disabled(user, 'meld-confirm')


async def test_you_keep_a_card_to_discard(user: User) -> None:
    table = continental_position(hands=['7s 7h 7d 7c 9c 9d 9h', '3c 4c 5c 6c 8h 8d'])   # 6 dealt and 1 drawn
    await open_position(user, table)
    group(user, '7s 7h 7d 7c')
    group(user, '9c 9d 9h')
    assert 'Tienes que quedarte una carta para descartar.' in drawing(user, 'builder')
    assert disabled(user, 'meld-confirm')


async def test_a_joker_laid_off_on_a_rivals_run_goes_at_the_end_you_choose(user: User) -> None:
    # hand 2 (a set and a run): both of you are down
    table = continental_position(hands=['JK 2c 3d', '3c 4c 5c 6c 8h 8d'], hand_number=2, down=[True, True],
                                 melds=[(1, '5h 6h 7h 8h'), (1, 'Ks Kh Kd'), (0, 'Qs Qh Qd'), (0, '8s 9s 10s Js')])
    await open_position(user, table)
    pick(user, 'JK')
    assert re.search(r'data-testid="layoff-target" data-choice="meld:0"[^>]*data-seat="1"', drawing(user, 'melds'))
    choose(user, 'melds', 'meld:0')
    await user.should_see('¿Dónde pones el comodín?')
    choose(user, 'melds', 'end:4')
    await until(lambda: saved(table)['melds'][0]['start'] == 4)
    assert [item['card'] for item in saved(table)['melds'][0]['cards']] == ['JK', '5h', '6h', '7h', '8h']
    await user.should_see('Colocas el comodín en la jugada de Lucía (🃏 5♥ 6♥ 7♥ 8♥).')


async def test_your_last_card_cannot_be_laid_off(user: User) -> None:
    table = continental_position(hands=['9h', '3c 4c 5c 6c 8h 8d'], hand_number=2, down=[True, True],
                                 melds=[(1, '5h 6h 7h 8h'), (1, 'Ks Kh Kd'), (0, 'Qs Qh Qd'), (0, '8s 9s 10s Js')])
    await open_position(user, table)
    pick(user, '9h')
    assert 'layoff-target' not in drawing(user, 'melds')      # nothing is offered...
    before = stored_table(table.id)
    choose(user, 'melds', 'meld:0')                           # ...and a crafted click is refused
    await user.should_see('Tienes que quedarte una carta para descartar.')
    assert stored_table(table.id) == before


async def test_the_last_hand_a_rebuilt_stock_minus_20_the_count_and_the_end(user: User) -> None:
    # hand 7 (three runs); the stock is out: drawing rebuilds it from the discard pile, which holds
    # every card not in a hand (84, the 4s on top)
    table = continental_position(hands=['3h 4h 5h 6h 7s 8s 9s 10s Jd Qd Kd Ad', '3c 4c 5c 6c 8h 8d 2c 2d 2h 2s 9c 9d'],
                                 hand_number=7, phase='draw', stock='', stock_size=0, discard='Kc Kh 10d 4s')
    await open_position(user, table)
    assert phase(user) == 'draw'
    held = Counter(hand_codes(user))
    user.find(marker='stock').click()
    await until(lambda: phase(user) == 'play')
    await user.should_see('Se acaba el mazo: el descarte se baraja y hace un mazo nuevo de 83 cartas (1.ª vez).')
    drawn, = Counter(hand_codes(user)) - held
    click(user, 'meld-propose')
    await until(lambda: '✔ escaleras 3/3' in drawing(user, 'builder'))
    click(user, 'meld-confirm')
    await until(lambda: saved(table)['down'][0])
    await until(lambda: '· 1 carta · Te has bajado' in drawing(user, 'own-seat'))   # not "1 cartas", not "Se ha bajado"
    pick(user, drawn)
    click(user, 'discard-button')
    await until(lambda: phase(user) == 'over')
    await user.should_see('Fin de la mano 7: te quedas sin cartas')
    await user.should_see(marker='minus-20')
    count = drawing(user, 'count')
    assert re.search(r'data-seat="0" data-points="-20"', count)
    # the others' cards are shown to be read: cards of the seats' size, in a fan that keeps every corner
    left = re.search(r'data-seat="1".*?<div class="hod-open-fan">(.*?)</div>', count).group(1)
    assert left.count('class="hod-card hod-card-sm select-none"') == 12 and '−20' in count and '-20<' not in count
    await user.should_see('¡Has ganado!')
    rows = drawing(user, 'scoreboard')
    assert 'Mano 7 · tres escaleras' in rows and 'Mano 1 · dos tríos' in rows
