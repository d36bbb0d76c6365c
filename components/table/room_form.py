"""The room's choices on a game's setup page ("Jugar con amigos"): your name, each other seat as a
person or a computer (with its level), and the turn clock. The rule options, speed and hints are
the setup form's own."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nicegui import ui

from app.engine.protocol import LEVELS
from app.games import GameInfo
from app.i18n import t
from app.tables.room import CLOCKS, NAME_MAX

TOGGLE = 'no-caps spread unelevated toggle-color=primary'
PERSON = 'person'

# (choice, plan: per other seat 'person' or a computer's level, clock seconds, your name)
CreateRoom = Callable[[dict[str, Any], list[str], int, str], None]


def clean_plan(game: GameInfo, raw: Any, level: str) -> list[str]:
    """Per seat after yours, as many as the game allows: 'person' or a level (stored or submitted
    values checked again)."""
    raw = raw if isinstance(raw, list) else []
    plan = [value if value == PERSON or value in LEVELS else None for value in raw[:game.max_seats - 1]]
    plan += [None] * (game.max_seats - 1 - len(plan))
    return [value or (PERSON if index == 0 else level) for index, value in enumerate(plan)]


class RoomForm:
    def __init__(self, game: GameInfo, *, account_name: str | None, stored: Any, on_create: CreateRoom) -> None:
        stored = stored if isinstance(stored, dict) else {}
        self.game = game
        self.account_name = account_name
        self.on_create = on_create
        self.values = {'name': stored.get('name') if isinstance(stored.get('name'), str) else '',
                       'clock': stored.get('clock') if stored.get('clock') in CLOCKS else 0,
                       'public': stored.get('public') is True, 'rated': stored.get('rated', True) is True}
        self.plan = clean_plan(game, stored.get('plan'), 'normal')

    def draw(self, choice: dict[str, Any]) -> None:
        with ui.card().classes('w-full gap-2 bg-green-50').props('flat bordered data-testid="room-form"'):
            ui.label(t('room.form_title')).classes('text-lg font-bold').props('role=heading aria-level=2')
            ui.label(t('room.form_help')).classes('text-sm text-gray-700')
            if self.account_name:
                ui.label(t('room.you_as', name=self.account_name)).classes('font-semibold')
            else:
                ui.input(t('room.your_name'), validation={t('room.name_needed'): lambda v: bool(v and v.strip())}) \
                    .bind_value(self.values, 'name').props(f'maxlength={NAME_MAX} counter outlined dense') \
                    .classes('w-full').mark('room-name')
            for index in range(self.game.max_seats - 1):
                with ui.column().classes('w-full gap-0') \
                        .bind_visibility_from(choice, 'seats', backward=lambda seats, i=index: i < seats - 1):
                    ui.label(t('room.seat', number=index + 2)).classes('text-sm font-semibold')
                    values = {PERSON: t('room.person'), **{level: t(f'level.{level}') for level in LEVELS}}
                    ui.toggle(values, value=self.plan[index],
                              on_change=lambda event, i=index: self.plan.__setitem__(i, event.value)).props(TOGGLE) \
                        .classes('w-full').mark(f'room-seat-kind-{index + 1}')
            ui.label(t('room.seat_help')).classes('text-xs text-gray-600')
            ui.label(t('room.clock')).classes('font-semibold mt-1')
            ui.toggle({clock: t(f'room.clock.{clock}') for clock in CLOCKS}, value=self.values['clock']) \
                .bind_value(self.values, 'clock').props(TOGGLE).classes('w-full').mark('room-clock')
            ui.label(t('room.clock_help')).classes('text-xs text-gray-600')
            ui.switch(t('room.public'), value=self.values['public']).bind_value(self.values, 'public') \
                .mark('room-public')
            ui.label(t('room.public_help')).classes('text-xs text-gray-600 -mt-2 ml-12')
            with ui.column().classes('w-full gap-0').bind_visibility_from(self.values, 'public'):
                if self.account_name:
                    ui.switch(t('room.rated'), value=self.values['rated']).bind_value(self.values, 'rated') \
                        .mark('room-rated')
                    ui.label(t('room.rated_help')).classes('text-xs text-gray-600 -mt-2 ml-12')
                else:
                    ui.label(t('lobby.rated_sign_in')).classes('text-xs text-gray-600 ml-12')

    def create(self, choice: dict[str, Any]) -> None:
        plan = clean_plan(self.game, self.plan, choice['level'])[:choice['seats'] - 1]
        clock = self.values['clock'] if self.values['clock'] in CLOCKS else 0
        name = self.account_name or (self.values['name'] if isinstance(self.values['name'], str) else '')
        self.on_create(choice, plan, clock, name)

    def stored(self) -> dict[str, Any]:
        """What to remember in this browser for the next room."""
        return {'name': self.values['name'], 'clock': self.values['clock'], 'plan': list(self.plan),
                'public': self.values['public'] is True, 'rated': self.values['rated'] is True}
