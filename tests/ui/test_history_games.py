"""Each recorded game has its own page, linked from its row in /history: its players (names and
levels), its rule options, every hand's points as recorded and every hand's seed and fingerprint.
It is its owner's alone: any other address of that form gets the 404 page."""
from datetime import UTC, datetime, timedelta

import pytest
from nicegui.testing import User
from people import PASSWORD, log_in_and_see_history, new_account, set_browser_clock

from app import accounts
from app.history import SeatResult, game_detail, record_finished_game
from app.i18n import CATALOGS
from app.tables import registry

from table_positions import chinchon_position

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES = CATALOGS['es']
ENDED = datetime(2026, 12, 1, 8, 1, tzinfo=UTC)


@pytest.fixture(autouse=True)
def browser_clock(user: User) -> None:
    """The simulated browser is in Madrid, in winter (JavaScript says -60: one hour ahead of UTC)."""
    set_browser_clock(user, -60)


def chinchon_game(user_id: int) -> int:
    """Three hands at 50 points with buy-back: the second one void; Ana wins against Lucía and Mateo."""
    return record_finished_game(
        user_id=user_id, game_id='chinchon', started_at=ENDED - timedelta(minutes=25), ended_at=ENDED,
        options={'seats': 3, 'level': 'hard', 'speed': 'fast', 'hints': False, 'rules': {'limit': 50, 'buyback': True}},
        hands_played=3,
        seats=[SeatResult('Ana', True, 14, 1, True, name='Ana'), SeatResult('hard', False, 52, 3, False, name='Lucía'),
               SeatResult('hard', False, 38, 2, False, name='Mateo')],
        deal_commitments=[('c0ffee01', 'semilla-uno'), ('c0ffee02', 'semilla-dos'), ('c0ffee03', 'semilla-tres')],
        hand_points=[(4, 21, 30), None, (10, 31, 8)])


async def test_a_games_page_shows_its_players_options_hands_and_seeds(user: User) -> None:
    ana = new_account('Ana')
    record_id = chinchon_game(ana)
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    link = user.find(marker='game-link').elements.pop()
    assert link.props['href'] == f'/history/{record_id}'
    await user.open(link.props['href'])
    await user.should_see('Chinchón, 1 dic 2026, 08:36')   # started, on Madrid's clock
    await user.should_see('Terminó: 1 dic 2026, 09:01')
    await user.should_see('Resultado 14 · puesto 1 de 3')
    players = user.find(marker='players-table').elements.pop()
    assert [(row['player'], row['level'], row['score'], row['place']) for row in players.rows] == [
        ('Ana (tú)', 'Persona', 14, 1), ('Lucía', 'Difícil', 52, 3), ('Mateo', 'Difícil', 38, 2)]   # levels as the setup page names them
    with user.scope(marker='options'):
        for text in ('Jugadores en la mesa, contándote a ti', '3', 'Nivel de la máquina', 'Difícil',
                     'Velocidad de juego', 'Tope de puntos', '50 (partida corta)', 'Reenganche', 'Pistas'):
            await user.should_see(text)
    hands = user.find(marker='hands-table').elements.pop()
    assert [column['label'] for column in hands.columns][1:] == ['Ana (tú)', 'Lucía', 'Mateo']
    assert [[row['hand'], row['seat0'], row['seat1'], row['seat2']] for row in hands.rows] == [
        ['Mano 1', '4', '21', '30'], ['Mano 2', 'nula', 'nula', 'nula'], ['Mano 3', '10', '31', '8']]
    with user.scope(marker='seed-2'):
        await user.should_see('semilla-dos')
        await user.should_see('c0ffee02')


async def test_a_game_recorded_before_points_were_kept_says_so(user: User) -> None:
    ana = new_account('Ana')
    record_id = record_finished_game(
        user_id=ana, game_id='continental', options={}, started_at=ENDED, ended_at=ENDED, hands_played=2,
        seats=[SeatResult('Ana', True, 40, 2, False), SeatResult('easy', False, 10, 1, True)],
        deal_commitments=[('aa', '1'), ('bb', '2')])
    await log_in_and_see_history(user, 'Ana')
    await user.open(f'/history/{record_id}')
    hands = user.find(marker='hands-table').elements.pop()
    assert {row['seat0'] for row in hands.rows} == {'sin apuntar'}
    players = user.find(marker='players-table').elements.pop()
    assert players.rows[1]['player'] == 'La máquina' and players.rows[1]['level'] == 'Fácil'


async def test_another_players_game_and_any_other_id_get_the_404_page(user: User) -> None:
    record_id = chinchon_game(new_account('Ana'))
    new_account('Bea')
    await log_in_and_see_history(user, 'Bea')
    for address in (f'/history/{record_id}', '/history/987654', '/history/abc', '/history/-1',
                    '/history/' + '9' * 5000, '/history/²'):
        response = await user.http_client.get(address)
        assert response.status_code == 404, address
        assert ES['not_found.title'] in response.text and 'semilla-uno' not in response.text


async def test_a_guest_is_asked_to_log_in(user: User) -> None:
    record_id = chinchon_game(new_account('Ana'))
    response = await user.http_client.get(f'/history/{record_id}', follow_redirects=False)
    assert response.status_code in (302, 303, 307) and '/login' in response.headers['location']


async def test_a_game_played_at_a_table_keeps_each_hands_points_seed_and_computer_names() -> None:
    ana = accounts.register(username='ana', password=PASSWORD, confirmation=PASSWORD)
    # Lucía (seat 1) closes at once and you go over 100: one hand, game over
    table = chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b'},
                              stock_top='2c', current=1, dealer=0, scores=[90, 0])
    table.seats[0].user_id, table.seats[0].name = ana.id, 'Ana'
    registry.add_table(table)
    leave = registry.watch(table, 0, lambda snapshot: None)
    for _ in range(20):   # a hand or two: Lucía closes, you go on from the count
        await table.settle()
        if table.is_over():
            break
        if table.pause is not None:
            table.resume_after_count(0, table.version)
    leave()
    assert table.is_over()
    from app.history import history_page
    [record] = history_page(user_id=ana.id).games
    detail = game_detail(user_id=ana.id, record_id=record.id)
    counted = [event['data']['result'] for event in table.hand_results if 'result' in event['data']]
    assert [hand.points for hand in detail.hands] == [tuple(result['added']) for result in counted]
    assert [hand.seed for hand in detail.hands] == [past.seed for past in table.view(0).past_deals]
    assert [seat.name for seat in detail.record.seats] == ['Ana', 'Lucía']
    assert detail.options['rules'] == {'limit': 100, 'buyback': False}
    assert game_detail(user_id=ana.id + 1, record_id=record.id) is None
