"""Register, play a Chinchón game to the end, and find it in the history with its plot."""
from __future__ import annotations

from playwright.sync_api import Page, expect

from test_chinchon_browser import play_one_step, start_game, wait_for_my_decision


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
