"""Clean failures: whatever a query string holds (digits that are not ASCII, a 5,000-digit
number, negatives, text, an empty value, a control character), every page answers as it would
without it: its normal page, a redirect, or the 404 page for an unknown address; never a 500."""
import pytest
from nicegui.testing import User
from people import PASSWORD

from app import accounts

BAD = ['²', '9' * 5000, '-1', 'abc', '', '%00', '1e9', '１', '../../etc', '<b>x</b>']
PAGES = ['/', '/play/chinchon', '/play/ronda-robada', '/play/continental', '/reglas/chinchon', '/rules/continental',
         '/login', '/register', '/account', '/history', '/history/1', '/table/' + 'x' * 16, '/no-such-page']
NAMES = ['page', 'game', 'next', 'game_id', 'table_id', 'record_id', 'language', 'seats', 'lang']


def query(value: str) -> str:
    return '&'.join(f'{name}={value}' for name in NAMES)


@pytest.mark.parametrize('value', BAD)
async def test_no_bad_query_value_breaks_a_page(user: User, value: str, fresh_accounts) -> None:
    accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    for signed_in in (False, True):
        if signed_in:
            await user.open('/login')
            user.find(marker='username').type('Ana')
            user.find(marker='password').type(PASSWORD)
            user.find(marker='login-submit').click()
            await user.should_see('Historial', retries=30)
        for page in PAGES:
            response = await user.http_client.get(f'{page}?{query(value)}', follow_redirects=False)
            # no such page; and Ana has no game 1 (a guest is sent to log in first)
            missing = page in ('/no-such-page', '/table/' + 'x' * 16) or (page == '/history/1' and signed_in)
            expected = {404} if missing else {200, 302, 303, 307}
            assert response.status_code in expected, (page, value, signed_in, response.status_code)
