"""Options before dealing a Chinchón game. The last choices are remembered per browser."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nicegui import ui

from app.tables.table import SPEEDS, TableOptions
from app.engine.protocol import LEVELS
from app.i18n import t

DEFAULTS: dict[str, Any] = {'seats': 4, 'level': 'normal', 'speed': 'normal', 'hints': True,
                            'limit': 100, 'buyback': False}


def clean_options(raw: Any) -> dict[str, Any]:
    """Stored choices, each checked; anything unknown or tampered falls back to the default."""
    raw = raw if isinstance(raw, dict) else {}
    valid = {
        'seats': lambda v: isinstance(v, int) and 2 <= v <= 6,
        'level': lambda v: v in LEVELS,
        'speed': lambda v: v in SPEEDS,
        'hints': lambda v: isinstance(v, bool),
        'limit': lambda v: v in (100, 50),
        'buyback': lambda v: isinstance(v, bool),
    }
    return {key: raw[key] if key in raw and check(raw[key]) else DEFAULTS[key] for key, check in valid.items()}


def to_table_options(choice: dict[str, Any]) -> TableOptions:
    return TableOptions(seats=choice['seats'], level=choice['level'], speed=choice['speed'], hints=choice['hints'],
                        rules={'limit': choice['limit'], 'buyback': choice['buyback']})


def setup_form(stored: Any, on_start: Callable[[dict[str, Any]], None]) -> None:
    choice = clean_options(stored)
    with ui.card().classes('w-full max-w-xl self-center gap-3').props('data-testid="setup"'):
        ui.label(t('setup.title', game=t('game.chinchon.name'))).classes('text-2xl font-bold') \
            .props('role=heading aria-level=1')
        ui.label(t('setup.intro')).classes('text-gray-700')
        _field(t('setup.seats'))
        ui.toggle({n: str(n) for n in range(2, 7)}, value=choice['seats']).bind_value(choice, 'seats') \
            .props('no-caps spread unelevated toggle-color=primary').classes('w-full').mark('opt-seats')
        ui.label(t('setup.seats_help')).classes('text-xs text-gray-600 -mt-2')
        _field(t('setup.level'))
        ui.toggle({level: t(f'level.{level}') for level in LEVELS}, value=choice['level']) \
            .bind_value(choice, 'level').props('no-caps spread unelevated toggle-color=primary').classes('w-full') \
            .mark('opt-level')
        _field(t('setup.limit'))
        ui.toggle({100: t('setup.limit_100'), 50: t('setup.limit_50')}, value=choice['limit']) \
            .bind_value(choice, 'limit').props('no-caps spread unelevated toggle-color=primary').classes('w-full') \
            .mark('opt-limit')
        _field(t('setup.speed'))
        ui.toggle({speed: t(f'speed.{speed}') for speed in SPEEDS}, value=choice['speed']) \
            .bind_value(choice, 'speed').props('no-caps spread unelevated toggle-color=primary').classes('w-full') \
            .mark('opt-speed')
        ui.switch(t('setup.buyback'), value=choice['buyback']).bind_value(choice, 'buyback').mark('opt-buyback')
        ui.label(t('setup.buyback_help')).classes('text-xs text-gray-600 -mt-3 ml-12')
        ui.switch(t('setup.hints'), value=choice['hints']).bind_value(choice, 'hints').mark('opt-hints')
        ui.button(t('setup.start'), on_click=lambda: on_start(clean_options(choice))) \
            .props('unelevated size=lg no-caps data-testid="start"').classes('w-full mt-2').mark('start')


def _field(text: str) -> None:
    ui.label(text).classes('font-semibold mt-1')
