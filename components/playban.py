"""What someone who keeps leaving rated games is told where they would press "Play people":
why they wait, and how long is left, in their language (app.playban decides the wait)."""
from __future__ import annotations

import math

from nicegui import ui

from app.i18n import t


def time_words(seconds: float) -> str:
    """The time left, rounded up to the minute: '18 min', '2 h 5 min'."""
    minutes = max(1, math.ceil(seconds / 60))
    if minutes < 60:
        return t('playban.minutes', minutes=minutes)
    return t('playban.hours', hours=minutes // 60, minutes=minutes % 60)


def wait_text(seconds: float) -> str:
    return t('playban.wait', left=time_words(seconds))


def wait_notice(seconds: float) -> None:
    with ui.column().classes('w-full gap-1 rounded bg-amber-50 border border-amber-300 p-3') \
            .props('role=status data-testid="playban"').mark('playban'):
        ui.label(wait_text(seconds)).classes('font-semibold text-amber-900')
        ui.label(t('playban.why')).classes('text-sm text-gray-800')
