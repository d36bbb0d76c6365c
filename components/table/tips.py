"""First-game tips under a table's action bar: on until you finish a game of that kind in this
browser, or switch them off (the switch is in the top bar). Their slot keeps its height either way
(``fit.py`` sizes it), so the hand above never moves when a tip comes or goes."""
from __future__ import annotations

from html import escape
from typing import Any

from nicegui import app, ui

from app.i18n import CATALOGS, t, translate
from components.controls import icon_html

TIPS_KEY = 'tips'   # app.storage.user: game id -> whether its table shows tips
EMPTY_TIP = '<div class="hod-tip hod-tip-empty" aria-hidden="true"></div>'   # the slot's room, nothing to read


def tip_html(language: str, keys: list[str]) -> str:
    """The tip of the first of ``keys`` the catalog has; a tip that names keys (its ``.keys``
    form) shows only where there is a keyboard and a mouse, its plain form everywhere else."""
    catalog = CATALOGS[language]
    key = next((key for key in keys if key in catalog), None)
    if key is None:
        return ''
    text = escape(translate(language, key))
    if f'{key}.keys' in catalog:
        text = (f'<span class="hod-no-keys">{text}</span>'
                f'<span class="hod-keys">{escape(translate(language, key + ".keys"))}</span>')
    return (f'<div class="hod-tip" role="note" data-testid="tip"><span class="font-semibold">'
            f'{escape(translate(language, "tips.title"))}</span> {text}</div>')


class Tips:
    """The tips of a table's screen. Mixed into ``TableScreen``: it uses the screen's ``snap``,
    ``language``, ``live``, ``spectator``, ``user_storage`` and ``render``."""

    def _tips_slot(self) -> None:
        """First-game tips under the action bar, in a slot of their own height: on until you
        finish a game of this kind in this browser, or switch them off (the switch is in the top bar)."""
        with ui.element('div').classes('w-full hod-own hod-tips-slot'):
            self.tips_view = ui.html('', sanitize=False).classes('w-full').mark('tips')

    def _tips_choice(self) -> None:
        # kept: the screen is also drawn from the table's background task
        storage = self.user_storage if self.user_storage is not None else app.storage.user
        self.tips_storage = storage
        choices = storage.get(TIPS_KEY)
        self.tips_on = bool(choices.get(self.snap.game.id, True)) if isinstance(choices, dict) else True

    def _switch_tips(self) -> None:
        self.tips_on = not self.tips_on
        self._remember_tips(self.tips_on)
        self.render()

    def _remember_tips(self, on: bool) -> None:
        choices = self.tips_storage.get(TIPS_KEY)
        self.tips_storage[TIPS_KEY] = {**(choices if isinstance(choices, dict) else {}), self.snap.game.id: on}

    def _draw_tips(self, view: Any, phase: str) -> None:
        if phase == 'over':
            choices = self.tips_storage.get(TIPS_KEY)
            if not isinstance(choices, dict) or self.snap.game.id not in choices:
                self._remember_tips(False)   # your first game is over: no tips next time, unless asked for
        # with tips off, or a moment without one, the slot keeps a tip's room: the hand above it stays
        # put when the tips go off by themselves after your first game, and at a page loaded again
        tip = tip_html(self.language, self.tip_keys(view, phase)) if self.tips_on else ''
        self.live.html(self.tips_view, tip or EMPTY_TIP)
        if self.spectator:   # watches without a tips switch
            return
        label = t('tips.off') if self.tips_on else t('tips.on')
        self.live.attrs(self.tips_switch, {'aria-label': label, 'aria-pressed': str(self.tips_on).lower(),
                                           'innerHTML': f'{icon_html("tips_and_updates")}<span>{escape(label)}</span>'})
        self.tips_switch.label = label

    def tip_keys(self, view: Any, phase: str) -> list[str]:
        """The catalog keys of this moment's tip, the most particular first (the first one the
        catalog has is shown)."""
        return [f'tips.{self.snap.game.id}.{phase}', f'tips.{phase}']
