"""The export on /account: the whole history downloaded as JSON and as CSV, read back: every
recorded game with its options, players, result and hands; nobody else's games, and nothing for a
browser that is not signed in."""
import csv
import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from nicegui.testing import User
from people import new_account, sign_in_by_ticket
from seams import until

from app import history
from app.accounts import get_account
from app.export import history_csv
from app.history import SeatResult, record_finished_game
from app.i18n import CATALOGS

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES = CATALOGS['es']
START = datetime(2026, 11, 3, 18, 0, tzinfo=UTC)


def record_games(user_id: int) -> list[int]:
    """Three games unlike each other: finished with hands (one void), abandoned with none, and a
    room's, with another person whose name a spreadsheet would take for a formula."""
    return [
        record_finished_game(user_id=user_id, game_id='chinchon', options={'limit': 100, 'level': 'hard'},
                             started_at=START, ended_at=START + timedelta(minutes=12), hands_played=3,
                             deal_commitments=[('c0ffee', 's1'), ('beef', 's2'), ('f00d', 's3')],
                             hand_points=[[10, 4], None, [25, 0]],
                             seats=[SeatResult('Ana', True, 35, 2, False, 'Ana'),
                                    SeatResult('hard', False, 4, 1, True, 'Lola')]),
        record_finished_game(user_id=user_id, game_id='ronda-robada', options={'level': 'easy'},
                             started_at=START + timedelta(days=1), ended_at=START + timedelta(days=31),
                             hands_played=0, abandoned=True,
                             seats=[SeatResult('Ana', True, 0, 1, False), SeatResult('easy', False, 0, 1, False)]),
        record_finished_game(user_id=user_id, game_id='continental', options={'robo_de_contra': True},
                             started_at=START + timedelta(days=2), ended_at=START + timedelta(days=2, hours=1),
                             hands_played=1, deal_commitments=[('aa11', 's9')], hand_points=[[-20, 35, 60]],
                             seats=[SeatResult('Ana', True, -20, 1, True, 'Ana'),
                                    SeatResult('=HYPERLINK("x")', False, 35, 2, False, '=HYPERLINK("x")'),
                                    SeatResult('normal', False, 60, 3, False, 'Pepe')]),
    ]


async def download(user: User, marker: str):
    before = len(user.download.http_responses)
    user.find(marker=marker).click()
    await until(lambda: len(user.download.http_responses) > before)
    return user.download.http_responses[-1]


async def test_the_json_export_holds_every_game_with_its_hands(user: User) -> None:
    ana = await sign_in_by_ticket(user, 'Ana')
    ids = record_games(ana)
    record_games(new_account('Bea'))                     # someone else's: not in Ana's file
    await user.open('/account')
    response = await download(user, 'export-json')
    assert response.status_code == 200 and response.headers['content-type'].startswith('application/json')
    assert response.headers['content-disposition'].startswith('attachment; filename="house-of-decks-history-')
    document = json.loads(response.content)
    assert (document['format'], document['account']['username']) == ('house-of-decks-history/1', 'Ana')
    assert [game['record'] for game in document['games']] == ids
    chinchon, ronda, continental = document['games']
    assert chinchon['options'] == {'limit': 100, 'level': 'hard'}
    assert chinchon['result'] == {'score': 35, 'placement': 2, 'won': False}
    assert [(p['name'], p['you'], p['name_or_level'], p['final_score']) for p in chinchon['players']] == \
        [('Ana', True, 'Ana', 35), ('Lola', False, 'hard', 4)]
    assert chinchon['hands'] == [
        {'number': 1, 'fingerprint': 'c0ffee', 'seed': 's1', 'points': [10, 4], 'void': False},
        {'number': 2, 'fingerprint': 'beef', 'seed': 's2', 'points': None, 'void': True},
        {'number': 3, 'fingerprint': 'f00d', 'seed': 's3', 'points': [25, 0], 'void': False}]
    assert (ronda['abandoned'], ronda['hands'], ronda['result']['won']) == (True, [], False)
    assert continental['hands'][0]['points'] == [-20, 35, 60] and len(continental['players']) == 3
    # the same as the history pages read, game for game
    for game in document['games']:
        detail = history.game_detail(user_id=ana, record_id=game['record'])
        assert [hand.seed for hand in detail.hands] == [hand['seed'] for hand in game['hands']]
        assert game['ended_at'] == detail.record.ended_at.isoformat()


async def test_the_csv_export_has_a_row_per_hand_in_your_language(user: User) -> None:
    ana = await sign_in_by_ticket(user, 'Ana')
    ids = record_games(ana)
    await user.open('/account')
    response = await download(user, 'export-csv')
    assert response.headers['content-type'].startswith('text/csv')
    assert response.headers['content-disposition'].endswith('.csv"')
    text = response.content.decode('utf-8')
    assert text.startswith('\ufeff')                    # spreadsheets then read the accents right
    rows = list(csv.DictReader(io.StringIO(text[1:])))
    column = {key: ES[f'export.col.{key}'] for key in ('record', 'game', 'hand', 'seed', 'fingerprint', 'void',
                                                        'abandoned', 'options', 'score')}
    by_game: dict[int, list[dict]] = {}
    for row in rows:
        by_game.setdefault(int(row[column['record']]), []).append(row)
    assert list(by_game) == ids
    chinchon, ronda, continental = (by_game[record] for record in ids)
    assert [(row[column['hand']], row[column['seed']], row[column['fingerprint']], row[column['void']])
            for row in chinchon] == [('1', 's1', 'c0ffee', 'no'), ('2', 's2', 'beef', 'sí'), ('3', 's3', 'f00d', 'no')]
    assert [row[ES['export.col.seat_points'].format(n=n)] for n in (1, 2, 3) for row in chinchon[:1]] == \
        ['10', '4', '']
    assert chinchon[0][column['game']] == 'Chinchón' and json.loads(chinchon[0][column['options']]) == \
        {'level': 'hard', 'limit': 100}
    assert [(row[column['abandoned']], row[column['hand']]) for row in ronda] == [('sí', '')]
    assert continental[0][ES['export.col.seat'].format(n=2)] == '\'=HYPERLINK("x")'   # never run as a formula
    assert continental[0][column['score']] == '-20'


async def test_a_browser_that_is_not_signed_in_gets_the_login_page_not_a_file(user: User) -> None:
    record_games(new_account('Ana'))
    await user.open('/')
    for path in ('/account/export.json', '/account/export.csv'):
        response = await user.http_client.get(path)
        assert response.status_code == 303 and response.headers['location'].startswith('/login?next=/account/export')


def test_a_long_history_is_read_in_batches_and_every_game_comes_once() -> None:
    ana = new_account('Ana')
    ids = [record_finished_game(user_id=ana, game_id='chinchon', options={}, started_at=START, ended_at=START,
                                hands_played=1, deal_commitments=[(f'c{n}', f's{n}')], hand_points=[[n, 0]],
                                seats=[SeatResult('Ana', True, n, 1, True), SeatResult('easy', False, 0, 2, False)])
           for n in range(7)]
    games = list(history.every_game(user_id=ana, batch=3))
    assert [game.record.id for game in games] == ids
    assert [game.hands[0].seed for game in games] == [f's{n}' for n in range(7)]


@pytest.mark.parametrize('name', [' =1+1', '  +1', '\u00a0-1', '\u3000@SUM(A1)', '＝1+1', '＋1', '－1', '＠SUM(A1)',
                                  '﹦1+1', '\t=1+1', '\r=1+1', '\tplain'])
def test_no_name_in_the_csv_starts_a_formula_however_it_is_disguised(name: str) -> None:
    """A spreadsheet skips leading spaces and reads fullwidth signs as the signs themselves (OWASP):
    a name that only looks like text must start with the apostrophe too."""
    ana = new_account('Ana')
    record_finished_game(user_id=ana, game_id='chinchon', options={}, started_at=START, ended_at=START,
                         hands_played=1, deal_commitments=[('c', 's')], hand_points=[[-3, 0]],
                         seats=[SeatResult('Ana', True, -3, 1, True, 'Ana'), SeatResult(name, False, 0, 2, False, name)])
    text = ''.join(history_csv(get_account(ana), 'en'))
    row = next(csv.DictReader(io.StringIO(text[1:])))
    assert row[CATALOGS['en']['export.col.seat'].format(n=2)] == "'" + name
    assert row[CATALOGS['en']['export.col.seat'].format(n=1)] == 'Ana'
    assert row[CATALOGS['en']['export.col.seat_points'].format(n=1)] == '-3'    # numbers stay numbers
