"""Log in, sign up and the account page (change password, recovery codes, log out here or
everywhere, delete the account).

Hashing a password takes a noticeable fraction of a second, so it runs in a worker thread
(`run.io_bound`) and the other players' tables keep moving meanwhile. A successful sign-in sends
the browser through /session/start, which sets the session cookie (app.sessions); a sign-up first
shows the new account's recovery codes, once, and goes there when the person has kept them.
"""
from __future__ import annotations

from urllib.parse import quote

from nicegui import run, ui
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app import accounts, moderation, recovery, visitor
from app.accounts import AccountError
from app.accounts import DISPLAY_NAME_LENGTH, PASSWORD_LENGTH, USERNAME_LENGTH
from app.i18n import current_language, t
from app.pages.export import CSV_PATH, JSON_PATH, export_path
from app.sessions import login_redirect, safe_next
from app.visitor import current_account, start_session
from components.forms import Countdown, error_label, form_card, submit_button, text_input
from components.frame import frame
from components.recovery_codes import recovery_codes_card


def login_page(request: Request) -> RedirectResponse | None:
    target = safe_next(request.query_params.get('next'))
    if current_account() is not None:
        return RedirectResponse(target, status_code=303)
    with frame(t('account.login.title')), form_card(t('account.login.title'), 'login-form'):
        username = text_input(t('account.username'), 'username', autocomplete='username',
                              maxlength=USERNAME_LENGTH[1])
        password = text_input(t('account.password'), 'password', autocomplete='current-password', secret=True,
                              maxlength=PASSWORD_LENGTH[1])
        error = error_label()
        countdown = Countdown(error)

        async def log_in() -> None:
            countdown.stop()
            try:
                account, ticket = await run.io_bound(accounts.sign_in, username=username.value or '',
                                                     password=password.value or '',
                                                     client=visitor.client_of_this_browser())
            except AccountError as refusal:
                password.value = ''
                error.set_text(t(refusal.key, **refusal.params))
                if refusal.key == 'account.error.throttled':
                    countdown.start(int(refusal.params['seconds']))
                return
            start_session(account, ticket, target)

        submit_button(t('account.login.submit'), 'login-submit', log_in, password, error)
        with ui.row().classes('gap-1 items-center text-sm'):
            ui.label(t('account.login.no_account'))
            ui.link(t('account.login.to_register'), f'/register?next={quote(target, safe="/")}') \
                .mark('to-register')
        ui.link(t('account.login.forgot'), f'/recover?next={quote(target, safe="/")}') \
            .classes('text-sm').mark('to-recover')
    return None


def register_page(request: Request) -> RedirectResponse | None:
    target = safe_next(request.query_params.get('next'))
    if current_account() is not None:
        return RedirectResponse(target, status_code=303)
    with frame(t('account.register.title')), ui.column().classes('w-full') as holder, \
            form_card(t('account.register.title'), 'register-form'):
        ui.label(t('account.register.why')).classes('text-sm text-gray-700')
        username = text_input(t('account.username'), 'username', autocomplete='username',
                              hint=t('account.username.hint', min=USERNAME_LENGTH[0], max=USERNAME_LENGTH[1]),
                              maxlength=USERNAME_LENGTH[1])
        display_name = text_input(t('account.display_name'), 'display-name', autocomplete='nickname',
                                  hint=t('account.display_name.hint', max=DISPLAY_NAME_LENGTH),
                                  maxlength=DISPLAY_NAME_LENGTH)
        password = text_input(t('account.password'), 'password', autocomplete='new-password', secret=True,
                              hint=t('account.password.hint', min=PASSWORD_LENGTH[0], max=PASSWORD_LENGTH[1]),
                              maxlength=PASSWORD_LENGTH[1])
        confirmation = text_input(t('account.password.confirm'), 'confirmation',
                                  autocomplete='new-password', secret=True, maxlength=PASSWORD_LENGTH[1])
        error = error_label()
        language = current_language()

        async def sign_up() -> None:
            client = visitor.client_of_this_browser()
            try:
                account, codes = await run.io_bound(
                    recovery.register_with_codes, username=username.value or '', password=password.value or '',
                    confirmation=confirmation.value or '', display_name=display_name.value or '',
                    language=language)
            except AccountError as refusal:
                error.set_text(t(refusal.key, **refusal.params))
                return

            async def go_on() -> None:   # signed in once the codes are kept: a ticket lives a minute
                try:
                    ticket = await run.io_bound(accounts.sign_in_ticket, account, client)
                except AccountError as refusal:
                    ui.notify(t(refusal.key, **refusal.params), type='negative')
                    return
                start_session(account, ticket, target)

            holder.clear()
            with holder:
                recovery_codes_card(codes, account.username, go_on_label=t('codes.saved'), on_go_on=go_on)

        submit_button(t('account.register.submit'), 'register-submit', sign_up, confirmation, error)
        with ui.row().classes('gap-1 items-center text-sm'):
            ui.label(t('account.register.have_account'))
            ui.link(t('account.register.to_login'), f'/login?next={quote(target, safe="/")}')
    return None


def account_page(request: Request) -> RedirectResponse | None:
    account = current_account()
    if account is None:
        return login_redirect(request)
    with frame(account.display_name):
        with ui.column().classes('w-full max-w-md mx-auto gap-4'):
            with ui.column().classes('gap-1'):
                ui.label(account.display_name).classes('text-3xl font-bold break-all') \
                    .props('role=heading aria-level=1').mark('account-name')
                ui.label(t('account.summary', username=account.username,
                           date=account.created_at.strftime('%d/%m/%Y' if current_language() == 'es'
                                                            else '%Y-%m-%d'))) \
                    .classes('text-gray-700 break-all')
                with ui.row().classes('gap-2 mt-2'):
                    ui.button(t('account.to_history'), icon='history',
                              on_click=lambda: ui.navigate.to('/history')).props('unelevated no-caps')
                    ui.button(t('account.logout'), icon='logout', on_click=log_out) \
                        .props('outline no-caps').mark('logout')
                ui.button(t('account.logout_everywhere'), icon='devices',
                          on_click=lambda: log_out_everywhere(account.id)) \
                    .props('flat no-caps').classes('self-start').mark('logout-everywhere')
            name_card(account)
            change_password_card(account.id)
            renew_codes_card(account)
            export_card()
            delete_account_card(account.id)
    return None


def log_out() -> None:
    try:
        visitor.sign_out()
    except AccountError as refusal:
        ui.notify(t(refusal.key, **refusal.params), type='negative')


async def log_out_everywhere(user_id: int) -> None:
    try:
        await run.io_bound(accounts.sign_out_everywhere, user_id)
    except AccountError as refusal:
        ui.notify(t(refusal.key, **refusal.params), type='negative')
        return
    visitor.sign_out()


def name_card(account: accounts.Account) -> None:
    """The name others see, to change; first of all when a moderator replaced it, saying why."""
    renamed = account.must_rename
    with form_card(t('account.name.title'), 'name-card', level=2):
        if renamed:
            reason = moderation.rename_reason(account.id)
            ui.label(t('account.name.renamed', reason=reason or '')).classes('text-amber-900 font-medium') \
                .props('role=alert').mark('renamed')
        name = text_input(t('account.name.label'), 'new-display-name', autocomplete='nickname',
                          hint=t('account.name.hint', max=DISPLAY_NAME_LENGTH), maxlength=DISPLAY_NAME_LENGTH)
        if not renamed:
            name.value = account.display_name
        error = error_label()

        async def change() -> None:
            try:
                chosen = accounts.change_display_name(user_id=account.id, display_name=name.value or '')
            except AccountError as refusal:
                error.set_text(t(refusal.key, **refusal.params))
                return
            ui.notify(t('account.name.done', name=chosen), type='positive')
            ui.navigate.reload()   # the heading, the header and the notice say the new name
        submit_button(t('account.name.submit'), 'name-submit', change, name, error)


def change_password_card(user_id: int) -> None:
    with form_card(t('account.change.title'), 'change-password', level=2):
        current = text_input(t('account.password.current'), 'current-password',
                             autocomplete='current-password', secret=True, maxlength=PASSWORD_LENGTH[1])
        new = text_input(t('account.password.new'), 'new-password', autocomplete='new-password', secret=True,
                         hint=t('account.password.hint', min=PASSWORD_LENGTH[0], max=PASSWORD_LENGTH[1]),
                         maxlength=PASSWORD_LENGTH[1])
        confirmation = text_input(t('account.password.confirm'), 'new-confirmation',
                                  autocomplete='new-password', secret=True, maxlength=PASSWORD_LENGTH[1])
        error = error_label()

        async def change() -> None:
            try:
                await run.io_bound(accounts.change_password, user_id=user_id,
                                   current_password=current.value or '', new_password=new.value or '',
                                   confirmation=confirmation.value or '',
                                   keep_session=visitor.session_token())
            except AccountError as refusal:
                error.set_text(t(refusal.key, **refusal.params))
                return
            for field in (current, new, confirmation):
                field.value = ''
            ui.notify(t('account.change.done'), type='positive')

        submit_button(t('account.change.submit'), 'change-submit', change, confirmation, error)


def renew_codes_card(account: accounts.Account) -> None:
    """How many codes are left, and a new set for the password (the old set is void from then)."""
    with ui.column().classes('w-full') as holder, form_card(t('account.codes.title'), 'renew-codes', level=2):
        try:
            left = recovery.codes_left(account.id)
        except AccountError:
            left = None   # the page still shows; renewing says what is wrong
        if left is not None:
            ui.label(t('account.codes.left', left=left, total=recovery.CODES)).classes('font-medium') \
                .mark('codes-left')
        if left == 0:   # an account made before codes existed, or one that used them all
            ui.label(t('account.codes.none')).classes('font-semibold text-amber-900 bg-amber-100 rounded px-3 py-2') \
                .props('role=note')
        ui.label(t('account.codes.renew_help')).classes('text-sm text-gray-800')
        password = text_input(t('account.password'), 'renew-password', autocomplete='current-password',
                              secret=True, maxlength=PASSWORD_LENGTH[1])
        error = error_label()

        async def renew() -> None:
            try:
                codes = await run.io_bound(recovery.renew_codes, user_id=account.id, password=password.value or '')
            except AccountError as refusal:
                password.value = ''
                error.set_text(t(refusal.key, **refusal.params))
                return
            holder.clear()
            with holder:
                recovery_codes_card(codes, account.username, go_on_label=t('codes.saved_account'),
                                    on_go_on=lambda: ui.navigate.to('/account'), level=2)

        submit_button(t('account.codes.renew'), 'renew-submit', renew, password, error)


def export_card() -> None:
    """Your whole history as a file: JSON for programs, CSV for a spreadsheet (in your language)."""
    language = current_language()
    with form_card(t('account.export.title'), 'export', level=2):
        ui.label(t('account.export.help')).classes('text-sm text-gray-800')
        with ui.row().classes('gap-2'):
            for label, path, marker in ((t('account.export.csv'), CSV_PATH, 'export-csv'),
                                        (t('account.export.json'), JSON_PATH, 'export-json')):
                ui.button(label, icon='download', on_click=lambda path=path: ui.download.from_url(
                    export_path(path, language))).props('outline no-caps').mark(marker)


def delete_account_card(user_id: int) -> None:
    with form_card(t('account.delete.title'), 'delete-account', level=2, danger=True):
        ui.label(t('account.delete.warning')).classes('text-sm text-gray-800')
        password = text_input(t('account.password'), 'delete-password', autocomplete='current-password',
                              secret=True, maxlength=PASSWORD_LENGTH[1])
        error = error_label()

        async def delete() -> None:
            try:
                await run.io_bound(accounts.delete_account, user_id=user_id, password=password.value or '')
            except AccountError as refusal:
                error.set_text(t(refusal.key, **refusal.params))
                return
            ui.notify(t('account.delete.done'))
            visitor.sign_out()

        submit_button(t('account.delete.submit'), 'delete-submit', delete, password, error,
                      color='negative')
