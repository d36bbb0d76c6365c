"""A new account's history in a real browser: its plots drawn, each game's time on the browser's
own clock (its real UTC offset, asked once the page is connected) and the game's page. The game
is written to the server's database as a finished table writes it (how a table gets there is told
in process: tests/ui/test_history_games.py and tests/ui/test_whole_games.py)."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app.history import SeatResult, record_finished_game
from conftest import servers_database
from models.db import session_scope
from models.tables import get_user_by_username


@pytest.fixture(scope='session')
def browser_context_args(browser_context_args: dict) -> dict:
    # Mexico City: UTC-6 all year, so a time shown in UTC (or the server's zone) cannot pass for it
    return {**browser_context_args, 'timezone_id': 'America/Mexico_City'}


def test_register_and_see_a_finished_game_in_history(page: Page, server_data: Path) -> None:
    page.goto('/register')
    page.get_by_label('Nombre de usuario').fill('paula_e2e')
    page.get_by_label('Contraseña', exact=True).fill('correct horse battery')
    page.get_by_label('Repite la contraseña').fill('correct horse battery')
    page.get_by_role('button', name='Crear la cuenta').click()
    page.get_by_role('button', name='Ya los he guardado: continuar').click()   # after the recovery codes
    expect(page.get_by_role('link', name='Historial')).to_be_visible()

    ended = datetime.now(UTC).replace(second=0, microsecond=0)
    with servers_database(server_data):
        with session_scope() as session:
            user_id = get_user_by_username(session=session, username='paula_e2e').id
        record_finished_game(user_id=user_id, game_id='chinchon', options={'level': 'normal', 'limit': 50},
                             started_at=ended - timedelta(minutes=9), ended_at=ended, hands_played=3,
                             deal_commitments=[('c0ffee', '17'), ('beef', '18'), ('f00d', '19')],
                             hand_points=[[10, 4], [25, 0], [20, 3]],
                             seats=[SeatResult('Paula', True, 55, 2, False), SeatResult('normal', False, 7, 1, True)])

    page.get_by_role('link', name='Historial').click()
    expect(page.locator('.nicegui-echart canvas').first).to_be_visible()   # the plots are drawn
    expect(page.get_by_text('Chinchón').first).to_be_visible()
    expect(page.get_by_text('Porcentaje de victorias').first).to_be_visible()
    expect(page.get_by_text('Aún no hay partidas guardadas')).to_have_count(0)
    # the end of the game on the browser's clock: Mexico City is UTC-6
    local = ended - timedelta(hours=6)
    months = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic']
    expect(page.get_by_text(f'{local.day} {months[local.month - 1]} {local.year}, {local:%H:%M}',
                            exact=True).first).to_be_visible()

    page.get_by_role('link', name='Ver la partida').first.click()
    expect(page.get_by_text('Mano 1', exact=True).first).to_be_visible()
    expect(page.get_by_text('La semilla de cada mano')).to_be_visible()
    expect(page.get_by_text(re.compile(r'^Chinchón, \d{1,2} [a-z]+ \d{4}, \d\d:\d\d$'))).to_be_visible()
