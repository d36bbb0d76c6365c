"""Accounts as a player meets them: sign up, log in, fail, get slowed down, log out, change the
password, delete the account, and the way back to the page that asked for an account."""
import pytest
from nicegui.testing import User
from people import PASSWORD, log_in
from seams import sees
from sqlmodel import select

from app import accounts, visitor
from app.i18n import CATALOGS
from models.db import session_scope
from models.tables import GameSeat, PlayedGame
from models.tables import User as Account

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES = CATALOGS['es']




async def sign_up(user: User, username: str = 'Ana', password: str = PASSWORD, *,
                  confirmation: str | None = None, display_name: str = '') -> None:
    await user.open('/register')
    user.find(marker='username').type(username)
    user.find(marker='display-name').type(display_name)
    user.find(marker='password').type(password)
    user.find(marker='confirmation').type(password if confirmation is None else confirmation)
    user.find(marker='register-submit').click()


def landed_on(user: User) -> str:
    """The address of the page on screen, after any redirects (sign-in passes /session/start)."""
    url = user.client.request.url
    return url.path + (f'?{url.query}' if url.query else '')


async def test_a_guest_sees_log_in_and_no_history_link(user: User) -> None:
    await user.open('/')
    await user.should_see(ES['nav.login'])
    await user.should_not_see(ES['nav.history'])


async def test_sign_up_logs_in_and_shows_the_account_in_the_navigation(user: User) -> None:
    await sign_up(user, 'Ana_1', display_name='Ana María')
    await sees(user, marker='recovery-codes-shown')   # first the codes, shown once
    user.find(marker='codes-saved').click()
    await sees(user, ES['home.title'])
    await user.should_see('Ana María')
    await user.should_see(ES['nav.history'])
    await user.should_not_see(ES['nav.login'])
    header = next(iter(user.find(marker='header-links').elements)).content
    assert '<a href="/account" class="hod-nav-link">Ana María</a>' in header
    await user.open('/account')   # where that link leads
    await sees(user, ES['account.change.title'])
    await user.should_see('Usuario Ana_1')


async def test_sign_up_explains_what_is_wrong(user: User) -> None:
    await sign_up(user, 'A!')
    await sees(user, ES['account.error.username_format'].format(min=3, max=20))
    await sign_up(user, 'Ana', 'short')
    await sees(user, 'La contraseña debe tener entre 8 y 128 caracteres.')
    await sign_up(user, 'Ana', confirmation='something else')
    await sees(user, ES['account.error.password_mismatch'])
    await user.should_see(ES['nav.login'])  # still a guest


async def test_a_username_is_taken_whatever_the_case(user: User) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    await sign_up(user, 'aNA')
    await sees(user, ES['account.error.username_taken'])


async def test_log_in_and_out(user: User) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    await log_in(user, 'ANA')
    await sees(user, ES['home.title'])
    await user.should_see(ES['nav.history'])
    await user.open('/account')
    user.find(marker='logout').click()
    await sees(user, ES['nav.login'])
    await user.open('/account')
    await user.should_see(marker='login-form')


async def test_a_wrong_password_and_a_missing_user_read_the_same(user: User) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    await log_in(user, 'Ana', 'wrong password')
    await sees(user, ES['account.error.login_failed'])
    await log_in(user, 'Nobody', PASSWORD)
    await sees(user, ES['account.error.login_failed'])
    await user.should_see(ES['nav.login'])


async def test_repeated_failures_are_slowed_down_and_the_page_says_how_long(user: User) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    await user.open('/login')
    user.find(marker='username').type('Ana')
    for _ in range(4):
        user.find(marker='password').type('wrong password')
        user.find(marker='login-submit').click()
        await sees(user, ES['account.error.login_failed'])
    user.find(marker='password').type('wrong password')
    user.find(marker='login-submit').click()
    await sees(user, 'Demasiados intentos fallidos. Espera 30 s y vuelve a probar.')
    user.find(marker='password').type(PASSWORD)  # even the right password waits now
    user.find(marker='login-submit').click()
    await sees(user, 'Demasiados intentos fallidos. Espera')
    await user.should_see(ES['nav.login'])


async def test_pages_that_need_an_account_send_to_login_and_back(user: User) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    await user.open('/history?game=chinchon')
    await user.should_see(marker='login-form')
    user.find(marker='username').type('Ana')
    user.find(marker='password').type(PASSWORD)
    user.find(marker='login-submit').click()
    await sees(user, marker='history-empty')
    assert landed_on(user) == '/history?game=chinchon'


async def test_login_never_follows_next_off_the_site(user: User) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    await log_in(user, path='/login?next=//evil.example/phish')
    await sees(user, ES['home.title'])
    assert landed_on(user) == '/'


async def test_change_password(user: User) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    await log_in(user)
    await sees(user, ES['nav.history'])
    await user.open('/account')
    user.find(marker='current-password').type('wrong password')
    user.find(marker='new-password').type('a new password')
    user.find(marker='new-confirmation').type('a new password')
    user.find(marker='change-submit').click()
    await sees(user, ES['account.error.wrong_password'])
    user.find(marker='current-password').clear().type(PASSWORD)
    user.find(marker='change-submit').click()
    await sees(user, ES['account.change.done'])
    user.find(marker='logout').click()
    await sees(user, ES['nav.login'])
    await log_in(user, password=PASSWORD)
    await sees(user, ES['account.error.login_failed'])
    await log_in(user, password='a new password')
    await sees(user, ES['nav.history'])


async def test_delete_account_removes_it_and_its_records(user: User) -> None:
    from datetime import UTC, datetime

    from app.history import SeatResult, record_finished_game

    ana = accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    record_finished_game(user_id=ana.id, game_id='chinchon', options={}, started_at=datetime.now(UTC),
                         ended_at=datetime.now(UTC), hands_played=3,
                         seats=[SeatResult('Ana', True, 10, 1, True), SeatResult('easy', False, 99, 2, False)])
    await log_in(user)
    await sees(user, ES['nav.history'])
    await user.open('/account')
    user.find(marker='delete-password').type('wrong password')
    user.find(marker='delete-submit').click()
    await sees(user, ES['account.error.wrong_password'])
    user.find(marker='delete-password').clear().type(PASSWORD)
    user.find(marker='delete-submit').click()
    await sees(user, ES['nav.login'])
    with session_scope() as session:
        assert session.exec(select(Account)).all() == []
        assert session.exec(select(PlayedGame)).all() == []
        assert session.exec(select(GameSeat)).all() == []
    await log_in(user)
    await sees(user, ES['account.error.login_failed'])


async def test_the_language_choice_follows_the_account(user: User) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD, language='es')
    await log_in(user)
    await sees(user, ES['nav.history'])
    user.find(marker='language-switch').click()  # to English, saved to the account
    await user.open('/')
    await user.should_see('History')
    await user.open('/account')
    user.find(marker='logout').click()
    await sees(user, 'Log in')
    user.find(marker='language-switch').click()  # this browser back to Spanish, as a guest
    await user.open('/')
    await user.should_see(ES['nav.login'])
    await log_in(user)  # the account brings its English back
    await sees(user, 'History')


async def test_logging_in_during_a_guest_game_gives_the_game_an_owner_at_its_end(user: User) -> None:
    from nicegui import ui

    ana = accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    owners = []

    @ui.page('/probe-table')
    def table() -> None:  # stands for a table whose controller asks at the end of the game
        ui.button('Terminar', on_click=lambda: owners.append(visitor.current_user_id()))

    await user.open('/probe-table')
    user.find('Terminar').click()
    await log_in(user)  # meanwhile, in another tab of the same browser
    await sees(user, ES['nav.history'])
    await user.open('/probe-table')
    user.find('Terminar').click()
    assert owners == [None, ana.id]
