"""The options before dealing, built from a game's registry entry: the seats, the computers'
level, the play speed, hints, and every rule option the game declares (a toggle of its values,
or a switch for a yes/no option). The last choices are remembered per browser, each checked
again when read back: a tampered or outdated value falls back to its default."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from nicegui import ui

from app.engine.cards import french_card
from app.engine.protocol import LEVELS
from app.games import GameInfo, RuleOption
from app.i18n import CATALOGS, current_language, t
from app.tables.seats import SPEEDS, TableOptions
from components.card import card_html, choose_four_colours, four_colours
from components.table_parts import TABLE_CSS

if TYPE_CHECKING:
    from components.table.room_form import RoomForm

TOGGLE = 'no-caps spread unelevated toggle-color=primary'
# "Repartir" sits before the options, in its own place on a first view (it covers none of them),
# and sticks while they scroll: under the site's fixed header (48 px high on a phone, which shows
# its menu button; 51 px from md up, which shows its links), or at the window's foot when its own
# place is below it (a short phone under the card offering to resume a table). Its background
# hides what scrolls under it, and a control reached with Tab is scrolled clear of it.
START_BAR_CSS = '''
.hod-start-bar { position: sticky; top: 48px; bottom: 0; z-index: 10; background: #fff; padding: 6px 0; margin: -6px 0; }
@media (min-width: 768px) { .hod-start-bar { top: 51px; } }
html:has(.hod-start-bar) { scroll-padding-top: 120px; }
'''


def defaults(game: GameInfo) -> dict[str, Any]:
    return {'seats': min(4, game.max_seats), 'level': 'normal', 'speed': 'normal', 'hints': True,
            **{option.name: option.default for option in game.options}}


def clean_options(game: GameInfo, raw: Any) -> dict[str, Any]:
    """Stored or submitted choices, each checked against what the game allows."""
    raw = raw if isinstance(raw, dict) else {}
    valid: dict[str, Callable[[Any], bool]] = {
        'seats': lambda v: type(v) is int and game.min_seats <= v <= game.max_seats,
        'level': lambda v: v in LEVELS,
        'speed': lambda v: v in SPEEDS,
        'hints': lambda v: type(v) is bool,
        **{option.name: option.allows for option in game.options},
    }
    fallback = defaults(game)
    return {key: raw[key] if key in raw and check(raw[key]) else fallback[key] for key, check in valid.items()}


def to_table_options(game: GameInfo, choice: dict[str, Any]) -> TableOptions:
    return TableOptions(seats=choice['seats'], level=choice['level'], speed=choice['speed'], hints=choice['hints'],
                        rules={option.name: choice[option.name] for option in game.options})


def setup_form(game: GameInfo, stored: Any, on_start: Callable[[dict[str, Any]], None],
               room_form: RoomForm | None = None) -> None:
    """``room_form``, when given, offers "Jugar con amigos": its choices are drawn below the
    options, and the start button then creates the room (``room_form.create``) instead of dealing."""
    choice = clean_options(game, stored)
    ui.add_css(START_BAR_CSS)
    with ui.card().classes('w-full max-w-xl self-center gap-3').props('data-testid="setup"'):
        ui.label(t('setup.title', game=t(game.name_key))).classes('text-2xl font-bold') \
            .props('role=heading aria-level=1')
        ui.label(t('setup.intro')).classes('text-gray-700')
        with ui.element('div').classes('hod-start-bar w-full'):
            start_button = ui.button(t('setup.start'), on_click=lambda: start()) \
                .props('unelevated size=lg no-caps data-testid="start"').classes('w-full').mark('start')
        _toggle(t('setup.seats'), choice, 'seats', {n: str(n) for n in range(game.min_seats, game.max_seats + 1)},
                help_key=f'setup.{game.id}.seats_help')
        with ui.column().classes('w-full gap-3') as level_part:   # a room gives each computer its own level
            _toggle(t('setup.level'), choice, 'level', {level: t(f'level.{level}') for level in LEVELS})
        for option in game.options:
            if option.value_keys:
                _toggle(t(option.label_key), choice, option.name,
                        {value: t(key) for value, key in zip(option.values, option.value_keys)},
                        help_key=option.help_key)
        _toggle(t('setup.speed'), choice, 'speed', {speed: t(f'speed.{speed}') for speed in SPEEDS})
        for option in game.options:
            if not option.value_keys:
                _switch(option, choice)
        ui.switch(t('setup.hints'), value=choice['hints']).bind_value(choice, 'hints').mark('opt-hints')
        if game.deck.startswith('french'):
            _colours_switch()
        room_slot = ui.column().classes('w-full gap-3')
        mode = {'room': False}

        def start() -> None:
            if mode['room'] and room_form is not None:
                room_form.create(clean_options(game, choice))
            else:
                on_start(clean_options(game, choice))

        if room_form is not None:
            def switch() -> None:
                mode['room'] = not mode['room']
                room_slot.clear()
                if mode['room']:
                    with room_slot:
                        room_form.draw(choice)
                level_part.set_visibility(not mode['room'])
                start_button.set_text(t('room.create') if mode['room'] else t('setup.start'))
                friends.set_text(t('room.alone') if mode['room'] else t('room.friends'))
                friends.props(f'icon={"smart_toy" if mode["room"] else "group"}')

            friends = ui.button(t('room.friends'), icon='group', on_click=switch) \
                .props('outline no-caps data-testid="friends"').classes('w-full').mark('friends')


def _toggle(label: str, choice: dict[str, Any], name: str, values: dict[Any, str], help_key: str | None = None) -> None:
    ui.label(label).classes('font-semibold mt-1')
    ui.toggle(values, value=choice[name]).bind_value(choice, name).props(TOGGLE).classes('w-full').mark(f'opt-{name}')
    _help(help_key, '-mt-2')


def _switch(option: RuleOption, choice: dict[str, Any]) -> None:
    ui.switch(t(option.label_key), value=choice[option.name]).bind_value(choice, option.name) \
        .mark(f'opt-{option.name}')
    _help(option.help_key, '-mt-3 ml-12')


PREVIEW = [french_card(code) for code in ('7s', '7h', '7d', '7c')]


def _colours_switch() -> None:
    """The four-colour French deck: this browser's choice (not the table's: at a room each person
    sees their own), kept as soon as it is switched, with the four suits shown as they will look."""
    def preview() -> str:
        return ('<div class="flex gap-2" aria-hidden="true" data-testid="colours-preview">'
                + ''.join(card_html(card, size='sm') for card in PREVIEW) + '</div>')

    def switched(on: bool) -> None:
        choose_four_colours(on)
        cards.set_content(preview())

    ui.add_css(TABLE_CSS)   # the cards' sizes and faces
    with ui.row().classes('items-center gap-3'):
        ui.switch(t('setup.four_colours'), value=four_colours(),
                  on_change=lambda event: switched(bool(event.value))).mark('opt-four-colours')
        cards = ui.html(preview(), sanitize=False).mark('setup-colours')
    _help('setup.four_colours_help', '-mt-3 ml-12')


def _help(key: str | None, classes: str) -> None:
    if key and key in CATALOGS[current_language()]:
        ui.label(t(key)).classes(f'text-xs text-gray-600 {classes}')
