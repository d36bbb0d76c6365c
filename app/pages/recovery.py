"""/recover: "forgot your password?". The username, one recovery code and a new password (twice)
set the password and end every session of the account (app.recovery); then the person signs in
with the new password. Refusals are counted and throttled like failed sign-ins, and say so."""
from __future__ import annotations

from urllib.parse import quote

from nicegui import run, ui
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app import recovery, visitor
from app.accounts import PASSWORD_LENGTH, USERNAME_LENGTH, AccountError
from app.i18n import t
from app.sessions import login_path, safe_next
from components.forms import Countdown, error_label, form_card, submit_button, text_input
from components.frame import frame

FEW_CODES = 3   # at this many left or fewer, the page says to make new ones


def recover_page(request: Request) -> RedirectResponse | None:
    target = safe_next(request.query_params.get('next'))
    if visitor.current_account() is not None:
        return RedirectResponse('/account', status_code=303)   # signed in: the password changes there
    with frame(t('recovery.title')), ui.column().classes('w-full') as holder, \
            form_card(t('recovery.title'), 'recover-form'):
        ui.label(t('recovery.why')).classes('text-sm text-gray-700')
        username = text_input(t('account.username'), 'username', autocomplete='username',
                              maxlength=USERNAME_LENGTH[1])
        code = text_input(t('recovery.code'), 'recovery-code-input', autocomplete='one-time-code',
                          maxlength=recovery.TYPED_CODE_LENGTH, hint=t('recovery.code.hint'))
        code.props('autocapitalize=characters spellcheck=false', remove='counter')
        password = text_input(t('account.password.new'), 'new-password', autocomplete='new-password', secret=True,
                              hint=t('account.password.hint', min=PASSWORD_LENGTH[0], max=PASSWORD_LENGTH[1]),
                              maxlength=PASSWORD_LENGTH[1])
        confirmation = text_input(t('account.password.confirm'), 'new-confirmation', autocomplete='new-password',
                                  secret=True, maxlength=PASSWORD_LENGTH[1])
        error = error_label()
        countdown = Countdown(error)

        async def recover() -> None:
            countdown.stop()
            try:
                account, left = await run.io_bound(
                    recovery.recover, username=username.value or '', code=code.value or '',
                    new_password=password.value or '', confirmation=confirmation.value or '',
                    client=visitor.client_of_this_browser())
            except AccountError as refusal:
                error.set_text(t(refusal.key, **refusal.params))
                if refusal.key == 'account.error.throttled':
                    countdown.start(int(refusal.params['seconds']))
                return
            holder.clear()
            with holder:
                done(left, target)

        submit_button(t('recovery.submit'), 'recover-submit', recover, confirmation, error)
        ui.link(t('recovery.back'), f'/login?next={quote(target, safe="/")}').classes('text-sm')
    return None


def done(left: int, target: str) -> None:
    with form_card(t('recovery.done_title'), 'recovered'):
        ui.label(t('recovery.done')).classes('text-gray-800')
        ui.label(t('recovery.left', left=left)).classes('font-medium').mark('codes-left')
        if left <= FEW_CODES:
            ui.label(t('recovery.few_left')).classes('font-semibold text-amber-900 bg-amber-100 rounded px-3 py-2')
        ui.button(t('recovery.to_login'), icon='login', on_click=lambda: ui.navigate.to(login_path(target))) \
            .props('unelevated no-caps').classes('w-full sm:w-auto').mark('to-login')
