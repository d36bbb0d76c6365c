"""Recovery codes as a person meets them: shown once at sign-up, a forgotten password set again
with one of them (which ends the other sessions and never works twice), refusals slowed down like
failed sign-ins, and a new set made on /account."""
import pytest
from nicegui.testing import User
from people import PASSWORD, log_in, new_account, sign_in_by_ticket
from seams import sees, until

from app import recovery
from app.accounts import AccountError
from app.i18n import CATALOGS

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES, EN = CATALOGS['es'], CATALOGS['en']
NEW = 'a new password'


def codes_on_screen(user: User) -> list[str]:
    return sorted(label.text for label in user.find(marker='recovery-code').elements)


async def recover(user: User, username: str, code: str, password: str = NEW) -> None:
    """Fill in and send the "forgot your password?" form, reached from the login page."""
    await user.open('/login')
    user.find(marker='to-recover').click()
    await sees(user, marker='recover-form')
    user.find(marker='username').type(username)
    user.find(marker='recovery-code-input').type(code)
    user.find(marker='new-password').type(password)
    user.find(marker='new-confirmation').type(password)
    user.find(marker='recover-submit').click()


async def test_a_code_noted_at_sign_up_brings_a_forgotten_password_back_once(create_user) -> None:
    ana = create_user()
    await ana.open('/register')
    ana.find(marker='username').type('Ana')
    ana.find(marker='password').type(PASSWORD)
    ana.find(marker='confirmation').type(PASSWORD)
    ana.find(marker='register-submit').click()
    await sees(ana, ES['codes.once'])
    codes = codes_on_screen(ana)
    assert len(codes) == 10
    code = codes[0]
    ana.find(marker='codes-saved').click()
    await sees(ana, ES['nav.history'])            # signed in once the codes are kept

    phone = create_user()                         # elsewhere, the password forgotten
    await recover(phone, 'ana', code.lower())
    await sees(phone, ES['recovery.done'])
    await phone.should_see(ES['recovery.left'].format(left=9))
    await ana.open('/account')                    # every other session has ended
    await ana.should_see(marker='login-form')

    phone.find(marker='to-login').click()
    await sees(phone, marker='login-form')
    await log_in(phone, 'Ana', PASSWORD)          # the old password is gone
    await sees(phone, ES['account.error.login_failed'])
    await log_in(phone, 'Ana', NEW)
    await sees(phone, ES['nav.history'])

    thief = create_user()                         # the same code, a second time
    await recover(thief, 'Ana', code, 'the thief password')
    await sees(thief, ES['account.error.recovery_failed'])
    await thief.should_not_see(ES['recovery.done'])
    await log_in(thief, 'Ana', NEW)               # the password is still the owner's
    await sees(thief, ES['nav.history'])


async def test_wrong_codes_are_slowed_down_but_the_owner_gets_in_with_a_right_code(create_user) -> None:
    account_id = new_account('Ana')     # this browser has never signed in to it: the account's count applies
    code = recovery.new_codes(account_id)[0]
    stranger = create_user()
    for _ in range(4):
        await recover(stranger, 'Ana', 'ABCDE-FGHJK')
        await sees(stranger, ES['account.error.recovery_failed'])
    await recover(stranger, 'Ana', 'ABCDE-FGHJK')
    await sees(stranger, ES['account.error.throttled'].format(seconds=30))
    owner = create_user()                         # a new browser: the stranger's guesses do not keep it out
    await recover(owner, 'Ana', code)
    await sees(owner, ES['recovery.done'])
    await owner.should_not_see('Demasiados intentos fallidos. Espera')
    assert recovery.codes_left(account_id) == 9


async def test_a_new_set_on_the_account_page_needs_the_password_and_voids_the_old_one(user: User) -> None:
    account_id = await sign_in_by_ticket(user, 'Ana')     # made directly: an account without codes yet
    await user.open('/account')
    await user.should_see(ES['account.codes.none'])
    old = recovery.new_codes(account_id)
    await user.open('/account')
    await user.should_see(ES['account.codes.left'].format(left=10, total=10))
    await user.should_not_see(ES['account.codes.none'])
    user.find(marker='renew-password').type('not my password')
    user.find(marker='renew-submit').click()
    await sees(user, ES['account.error.wrong_password'])
    user.find(marker='renew-password').type(PASSWORD)
    user.find(marker='renew-submit').click()
    await sees(user, marker='recovery-codes-shown')
    new = codes_on_screen(user)
    assert len(new) == 10 and not set(new) & set(old)
    user.find(marker='download-codes').click()      # kept as a text file, whose first line says whose codes
    await until(lambda: len(user.download.http_responses) == 1)
    assert sorted(user.download.http_responses[0].text.splitlines()[2:12]) == new
    user.find(marker='codes-saved').click()
    await sees(user, marker='codes-left')
    for code, outcome in ((old[0], 'refused'), (new[0], 'accepted')):
        try:
            recovery.recover(username='Ana', code=code, new_password=NEW, confirmation=NEW)
        except AccountError as refusal:
            assert (outcome, refusal.key) == ('refused', 'account.error.recovery_failed')
        else:
            assert outcome == 'accepted'


async def test_the_recovery_page_speaks_english_too(user: User) -> None:
    await user.open('/recover')
    user.find(marker='language-switch').click()
    await sees(user, EN['recovery.title'])
    await user.should_see(EN['recovery.code'])
