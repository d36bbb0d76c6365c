"""The home page: the three games from the registry, each with the actions whose pages exist."""
from __future__ import annotations

from nicegui import ui

from app.engine.cards import french_card, spanish_card
from app.games import GAMES, GameInfo
from app.i18n import current_language, t
from app.pages.tables import table_path
from app.routes import route_exists, rules_path
from app.visitor import my_open_table
from components.card import playing_card
from components.frame import frame
from components.table_parts import TABLE_CSS

CARD_PARSERS = {'spanish40': spanish_card, 'french108': french_card}


def home_page() -> None:
    with frame(t('site.name')):
        ui.add_css(TABLE_CSS)
        ui.label(t('home.title')).classes('text-3xl font-bold mt-2').props('role=heading aria-level=1')
        ui.label(t('home.intro')).classes('text-lg text-gray-700')
        with ui.element('div').classes('grid gap-4 w-full grid-cols-1 md:grid-cols-3'):
            for game in GAMES:
                game_card(game)
        if route_exists('/daily'):
            daily_card()


def daily_card() -> None:
    """The daily deal's entry: one deal per game a day, the same for everyone."""
    with ui.card().classes('w-full flex-row flex-wrap items-center gap-3 bg-amber-50').props('data-testid="home-daily"'):
        ui.icon('today', size='32px').classes('text-[#1f5f3a]')
        with ui.column().classes('gap-0 flex-1 min-w-[14rem]'):
            ui.label(t('daily.title')).classes('text-xl font-bold text-[#1f5f3a]').props('role=heading aria-level=2')
            ui.label(t('daily.home')).classes('text-gray-800')
        ui.button(t('daily.home_button'), on_click=lambda: ui.navigate.to('/daily')) \
            .props('unelevated no-caps').mark('home-daily')


def game_card(game: GameInfo) -> None:
    language = current_language()
    with ui.card().classes('w-full gap-2').props(f'aria-label="{t(game.name_key)}"').mark(f'game-{game.id}'):
        with ui.element('div').classes('hod-fan self-center my-1').props('aria-hidden="true"'):
            for code in game.sample_cards:
                playing_card(CARD_PARSERS[game.deck](code), size='sm')
        ui.label(t(game.name_key)).classes('text-2xl font-bold text-[#1f5f3a]') \
            .props('role=heading aria-level=2')
        ui.label(t(game.summary_key)).classes('text-gray-800')
        ui.label(f"{t('home.players', min=game.min_seats, max=game.max_seats)} · {t(f'deck.{game.deck}')}") \
            .classes('text-sm text-gray-600')
        with ui.row().classes('gap-2 mt-auto'):
            if route_exists(game.play_path):
                ongoing = my_open_table(game)
                if ongoing is not None:
                    ui.button(t('home.resume'), icon='play_arrow',
                              on_click=lambda path=table_path(ongoing.id): ui.navigate.to(path)) \
                        .props('unelevated no-caps').mark(f'resume-{game.id}')
                    ui.button(t('home.new_game'), on_click=lambda g=game: ui.navigate.to(g.play_path)) \
                        .props('outline no-caps').mark(f'play-{game.id}')
                else:
                    ui.button(t('home.play'), on_click=lambda g=game: ui.navigate.to(g.play_path)) \
                        .props('unelevated no-caps').mark(f'play-{game.id}')
            if route_exists(rules_path(game.id, language)):
                ui.button(t('home.rules'), on_click=lambda g=game: ui.navigate.to(rules_path(g.id, language))) \
                    .props('outline no-caps').mark(f'rules-{game.id}')
