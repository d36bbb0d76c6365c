"""The pieces of the account forms (sign-in, sign-up, recovery, the account page): a titled card,
a field that says its limit, the lock-out countdown, the error line and the submit button."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import contextmanager

from nicegui import ui

from app.i18n import t


@contextmanager
def form_card(title: str, marker: str, *, level: int = 1, danger: bool = False):
    with ui.card().classes('w-full max-w-md mx-auto gap-3 p-4 sm:p-6' + (' border border-red-300' if danger else '')) \
            .props(f'aria-label="{title}"').mark(marker) as card:
        ui.label(title).classes(('text-2xl' if level == 1 else 'text-xl') + ' font-bold') \
            .classes('text-red-800' if danger else 'text-[#1f5f3a]').props(f'role=heading aria-level={level}')
        yield card


def text_input(label: str, marker: str, *, autocomplete: str, maxlength: int, secret: bool = False,
               hint: str | None = None) -> ui.input:
    """An outlined field that says and enforces its length limit (the browser stops typing at
    `maxlength`, the validation says why if more arrives anyway)."""
    field = ui.input(label, password=secret, password_toggle_button=secret,
                     validation={t('account.error.too_long', max=maxlength): lambda value: len(value or '') <= maxlength}) \
        .classes('w-full').props(f'outlined autocomplete={autocomplete}').mark(marker)
    field.props['maxlength'] = maxlength
    if not secret:
        field.props('counter')
    if hint:
        field.props['hint'] = hint
    if autocomplete == 'username':
        field.props('autocapitalize=none spellcheck=false')
    return field


class Countdown:
    """The lock-out message ticks down to zero, then says the form may be sent again."""

    def __init__(self, label: ui.label) -> None:
        self.label = label
        self.seconds = 0
        self.timer = ui.timer(1.0, self.tick, active=False)

    def start(self, seconds: int) -> None:
        self.seconds = seconds
        self.timer.activate()

    def stop(self) -> None:
        self.timer.deactivate()

    def tick(self) -> None:
        self.seconds -= 1
        if self.seconds > 0:
            self.label.set_text(t('account.error.throttled', seconds=self.seconds))
        else:
            self.stop()
            self.label.set_text(t('account.throttle_over'))


def error_label() -> ui.label:
    return ui.label('').classes('text-red-700 font-medium empty:hidden').props('role=alert aria-live=assertive') \
        .mark('form-error')


def submit_button(label: str, marker: str, action: Callable[[], Awaitable[None]], last_field: ui.input,
                  error: ui.label, *, color: str = 'primary') -> ui.button:
    """The form's button; Enter in the last field submits too. The old message goes and the button
    is disabled at once (a double click does not send the form twice); then `action` runs."""
    def submit() -> Awaitable[None] | None:
        if not button.enabled:
            return None
        button.disable()
        error.set_text('')
        return run_action()  # NiceGUI awaits it in this element's context

    async def run_action() -> None:
        try:
            await action()
        finally:
            if not button.is_deleted:
                button.enable()

    button = ui.button(label, on_click=submit, color=color).props('unelevated no-caps') \
        .classes('w-full sm:w-auto').mark(marker)
    last_field.on('keydown.enter', submit)
    return button
