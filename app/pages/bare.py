"""A bare NiceGUI button and label at /bench/bare, served only when HOD_BENCH=1: the baseline that
the table's click-to-screen time is compared with (python -m app.bench.table starts the site so)."""
from nicegui import ui


def bare_button_page() -> None:
    counter = {'clicks': 0}
    label = ui.label('0').props('data-testid="bare-label"')

    def clicked() -> None:
        counter['clicks'] += 1
        label.set_text(str(counter['clicks']))

    ui.button('+1', on_click=clicked).props('data-testid="bare-button"')
