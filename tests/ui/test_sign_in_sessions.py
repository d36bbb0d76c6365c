"""Sign-in sessions as browsers meet them: a cookie copied before sign-in (or before sign-out) is
worth nothing, a password change or "Sign out on all devices" ends the other browsers' sessions,
the lock-out message counts down, the fields say their limits, names with accents, and a database
that fails gives a message instead of silence."""
import shutil
import unicodedata
from pathlib import Path

import httpx
import pytest
from nicegui import app
from nicegui.testing import User
from people import PASSWORD, browser_id, log_in
from seams import sees

from app import accounts, sessions
from app.i18n import CATALOGS
from models import db

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES, EN = CATALOGS['es'], CATALOGS['en']


async def ana_signed_in(create_user) -> User:
    """Ana's account, and a browser of hers signed in to it."""
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    user = create_user()
    await log_in(user)
    await sees(user, ES['nav.history'])
    return user


def copy_cookies(source: User, target: User) -> None:
    target.http_client.cookies.update(source.http_client.cookies)


async def test_a_cookie_copied_before_sign_in_is_worthless_after_it(create_user) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    user, thief = create_user(), create_user()
    await user.open('/login')              # the browser has its NiceGUI cookie, and someone copies it
    copy_cookies(user, thief)
    await log_in(user)
    await sees(user, ES['nav.history'])
    cookie = user.http_client.cookies.get(sessions.SESSION_COOKIE)
    assert cookie and cookie not in str(thief.http_client.cookies.jar)
    await thief.open('/account')
    await thief.should_see(marker='login-form')
    await thief.should_not_see(ES['nav.history'])


async def test_the_session_cookie_is_http_only_lax_and_secure_over_https(user: User) -> None:
    account = accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    await user.open('/')
    for base, secure in (('http://test', False), ('https://test', True)):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=base) as browser:
            await browser.get('/')   # the browser NiceGUI knows by its session cookie: its ticket is good there alone
            response = await browser.get(sessions.start_path(sessions.issue_ticket(account.id, browser_id()), '/'))
        assert response.status_code == 303 and response.headers['location'] == '/'
        cookie = next(value for value in response.headers.get_list('set-cookie')
                      if value.startswith(f'{sessions.SESSION_COOKIE}='))
        attributes = {part.strip().split('=')[0].lower() for part in cookie.split(';')}
        assert {'httponly', 'max-age', 'path'} <= attributes and 'samesite=lax' in cookie.lower()
        assert ('secure' in attributes) is secure


async def test_the_session_ends_at_sign_out_and_a_new_one_starts_at_each_sign_in(create_user) -> None:
    user = await ana_signed_in(create_user)
    first = user.http_client.cookies.get(sessions.SESSION_COOKIE)
    thief = create_user()
    copy_cookies(user, thief)              # copied while signed in ...
    await user.open('/account')
    user.find(marker='logout').click()
    await sees(user, ES['nav.login'])
    assert user.http_client.cookies.get(sessions.SESSION_COOKIE) is None
    await thief.open('/account')           # ... is worth nothing after the sign-out
    await thief.should_see(marker='login-form')
    await log_in(user)
    await sees(user, ES['nav.history'])
    assert user.http_client.cookies.get(sessions.SESSION_COOKIE) not in {None, first}


async def test_changing_the_password_signs_out_the_other_browsers(create_user) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    user, phone = create_user(), create_user()
    await log_in(phone)
    await sees(phone, ES['nav.history'])
    await log_in(user)
    await sees(user, ES['nav.history'])
    await user.open('/account')
    user.find(marker='current-password').type(PASSWORD)
    user.find(marker='new-password').type('a new password')
    user.find(marker='new-confirmation').type('a new password')
    user.find(marker='change-submit').click()
    await sees(user, ES['account.change.done'])
    await phone.open('/account')
    await phone.should_see(marker='login-form')
    await user.open('/account')            # this browser stays signed in
    await user.should_see(ES['account.change.title'])


async def test_sign_out_on_all_devices(create_user) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    user, phone = create_user(), create_user()
    await log_in(phone)
    await sees(phone, ES['nav.history'])
    await log_in(user)
    await sees(user, ES['nav.history'])
    await user.open('/account')
    user.find(ES['account.logout_everywhere']).click()
    await sees(user, ES['nav.login'])
    for browser in (user, phone):
        await browser.open('/account')
        await browser.should_see(marker='login-form')


async def test_the_owner_signs_in_from_a_known_browser_while_the_account_is_locked(create_user) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    owner, attacker = create_user(), create_user()
    await log_in(owner)                    # once: this browser is known to the account from now on
    await sees(owner, ES['nav.history'])
    await owner.open('/account')
    owner.find(marker='logout').click()
    await sees(owner, ES['nav.login'])
    await attacker.open('/login')
    attacker.find(marker='username').type('Ana')
    for _ in range(accounts.FREE_FAILURES['account'] - 1):
        attacker.find(marker='password').type('a guess')
        attacker.find(marker='login-submit').click()
        await sees(attacker, ES['account.error.login_failed'])
    attacker.find(marker='password').type('a guess')
    attacker.find(marker='login-submit').click()
    await sees(attacker, ES['account.error.throttled'].format(seconds=30))
    await log_in(attacker, password=PASSWORD)   # locked, even with the right password, for a new browser
    await sees(attacker, ES['account.error.throttled'].split('{')[0])
    await log_in(owner)                          # but not for the owner's browser
    await sees(owner, ES['nav.history'])


async def test_the_lock_out_message_counts_down(user: User) -> None:
    await user.open('/login')
    user.find(marker='username').type('Ana')
    for _ in range(accounts.FREE_FAILURES['account'] - 1):
        user.find(marker='password').type('wrong password')
        user.find(marker='login-submit').click()
        await sees(user, ES['account.error.login_failed'])
    user.find(marker='password').type('wrong password')
    user.find(marker='login-submit').click()
    await sees(user, ES['account.error.throttled'].format(seconds=30))
    await user.should_see(ES['account.error.throttled'].format(seconds=29), retries=30)  # 3 s at most


async def test_a_name_with_accents_signs_up_and_the_fields_say_their_limits(user: User) -> None:
    await user.open('/register')
    limits = {marker: next(iter(user.find(marker=marker).elements)).props.get('maxlength')
              for marker in ('username', 'display-name', 'password', 'confirmation')}
    assert limits == {'username': 20, 'display-name': 40, 'password': 128, 'confirmation': 128}
    assert next(iter(user.find(marker='display-name').elements)).props['hint'] == \
        ES['account.display_name.hint'].format(max=40)
    user.find(marker='username').type(unicodedata.normalize('NFD', 'José'))
    user.find(marker='display-name').type('J' * 41)
    user.find(marker='password').type(PASSWORD)
    user.find(marker='confirmation').type(PASSWORD)
    user.find(marker='register-submit').click()
    await sees(user, ES['account.error.display_name_length'].format(max=40))
    user.find(marker='display-name').clear().type('José Luis')
    user.find(marker='register-submit').click()
    await sees(user, marker='codes-saved')
    user.find(marker='codes-saved').click()
    await sees(user, ES['nav.history'])
    await user.open('/account')
    await user.should_see('Usuario José')


@pytest.fixture
def failing_database(tmp_path: Path):
    """Yield a function that breaks the database: 'read-only' (a migrated SQLite file opened
    read-only) or 'missing' (its folder removed under the running site)."""
    folder = tmp_path / 'db'
    folder.mkdir()
    url = f'sqlite:///{folder / "site.db"}'
    db.init_db(url)
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)

    def fail(how: str) -> None:
        if how == 'read-only':
            db.init_db(f'sqlite:///file:{folder / "site.db"}?mode=ro&uri=true')
        else:
            db.get_engine().dispose()
            shutil.rmtree(folder)

    try:
        yield fail
    finally:
        db.init_db()


@pytest.mark.parametrize('how', ['read-only', 'missing'])
async def test_a_failing_database_gives_a_message_at_sign_up_and_sign_in(user: User, failing_database, how,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    await user.open('/register')
    failing_database(how)
    user.find(marker='username').type('Bea')
    user.find(marker='password').type(PASSWORD)
    user.find(marker='confirmation').type(PASSWORD)
    user.find(marker='register-submit').click()
    await sees(user, ES['account.error.unavailable'])
    for password in (PASSWORD, 'wrong password'):
        await log_in(user, 'Ana', password)
        await sees(user, ES['account.error.unavailable'])
    errors = [record for record in caplog.get_records('call') if record.levelname == 'ERROR']
    assert [record.name for record in errors] == ['app.accounts'] * 3   # once per failure
    caplog.clear()  # logged as expected: not a failure of the test


async def test_a_link_from_another_site_to_the_sign_out_address_signs_nobody_out(create_user) -> None:
    user = await ana_signed_in(create_user)
    token = user.http_client.cookies.get(sessions.SESSION_COOKIE)
    response = await user.http_client.get('/session/end?next=/', follow_redirects=False)   # as a foreign link would
    assert response.status_code == 303 and 'set-cookie' not in response.headers
    assert sessions.user_of_token(token) is not None
    await user.open('/history')
    await sees(user, ES['nav.history'])


async def test_a_ticket_sent_as_a_link_signs_nobody_else_in(create_user) -> None:
    """Login CSRF: an attacker signs in, stops before the redirect and sends the victim the link to
    /session/start. The ticket was issued to the attacker's browser: the victim stays signed out
    (their games would have gone to the attacker's history), and the ticket still works where it
    was issued."""
    attacker_account = accounts.register(username='Mallory', password=PASSWORD, confirmation=PASSWORD)
    attacker, victim = create_user(), create_user()
    await attacker.open('/')
    link = sessions.start_path(sessions.issue_ticket(attacker_account.id, browser_id()), '/')
    await victim.open('/')
    await victim.open(link)
    assert sessions.SESSION_COOKIE not in victim.http_client.cookies
    await victim.open('/account')
    await victim.should_see(marker='login-form')
    await attacker.open(link)
    await sees(attacker, ES['nav.history'])
