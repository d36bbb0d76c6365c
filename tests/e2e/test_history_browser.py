"""Register, play a Chinchón game to the end, and find it in the history with its plot, its time
on the browser's own clock (its real UTC offset, asked once the page is connected) and its page."""
from __future__ import annotations

import re
from datetime import datetime

import pytest
from playwright.sync_api import Page, expect

from test_chinchon_browser import play_one_step, start_game, wait_for_my_decision


@pytest.fixture(scope='session')
def browser_context_args(browser_context_args: dict) -> dict:
    # Mexico City: UTC-6 all year, so a time shown in UTC (or the server's zone) cannot pass for it
    return {**browser_context_args, 'timezone_id': 'America/Mexico_City'}


def test_register_play_and_see_the_game_in_history(page: Page) -> None:
    page.goto('/register')
    page.get_by_label('Nombre de usuario').fill('paula_e2e')
    page.get_by_label('Contraseña', exact=True).fill('correct horse battery')
    page.get_by_label('Repite la contraseña').fill('correct horse battery')
    page.get_by_role('button', name='Crear la cuenta').click()
    expect(page.get_by_role('link', name='Historial')).to_be_visible(timeout=15000)

    start_game(page)
    for _ in range(600):
        if wait_for_my_decision(page) == 'over':
            break
        play_one_step(page)
    expect(page.get_by_test_id('game-over')).to_be_visible()

    page.get_by_role('link', name='Historial').click()
    games = page.locator('.nicegui-echart canvas')
    expect(games.first).to_be_visible(timeout=15000)   # the plots are drawn
    expect(page.get_by_text('Chinchón').first).to_be_visible()
    expect(page.get_by_text('Porcentaje de victorias').first).to_be_visible()
    expect(page.get_by_text('Aún no hay partidas guardadas')).to_have_count(0)
    shown = page.get_by_text(re.compile(r'^\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept|oct|nov|dic) \d{4}, \d\d:\d\d$'))
    expect(shown.first).to_be_visible()
    browser_now = datetime.fromisoformat(page.evaluate(
        "(() => { const d = new Date(); d.setMinutes(d.getMinutes() - d.getTimezoneOffset());"
        " return d.toISOString().slice(0, 16); })()"))   # the browser's wall clock
    hour, minute = map(int, shown.first.inner_text().rsplit(', ', 1)[1].split(':'))
    apart = (browser_now.hour * 60 + browser_now.minute - hour * 60 - minute) % (24 * 60)
    assert min(apart, 24 * 60 - apart) < 10   # minutes: the game just ended, on this clock

    page.get_by_role('link', name='Ver la partida').first.click()
    expect(page.get_by_text('Mano 1', exact=True).first).to_be_visible()
    expect(page.get_by_text('La semilla de cada mano')).to_be_visible()
    expect(page.get_by_text(re.compile(r'^Chinchón, \d{1,2} [a-z]+ \d{4}, \d\d:\d\d$'))).to_be_visible()
