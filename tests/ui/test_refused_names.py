"""Words refused in names (app/names.py): a refused word is refused however it is written (case,
accents, look-alike letters and digits, spacing, a letter written again and again, another
alphabet's look-alikes, full-width letters), names that only hold one innocently pass, the
operator's own file replaces the shipped one and is read again when edited, and sign-up and quick
match refuse such a name in the person's language, changing nothing."""
from __future__ import annotations

import os

import pytest
from nicegui.testing import User
from seams import sees
from test_account import sign_up
from test_public_tables import quick

from app import accounts, names
from app.engine.protocol import IllegalAction
from app.i18n import CATALOGS
from app.tables.room import clean_name
from models.db import session_scope
from models.tables import get_user_by_username

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES, EN = CATALOGS['es'], CATALOGS['en']


@pytest.mark.parametrize('name', ['puta', 'PUTA', 'Pútá', 'p u t a', 'p.u.t.a', 'p_u-t_a', 'puuuuta', 'pu7a',
                                  'рuта',      # Cyrillic р and т
                                  'ｐｕｔａ',   # full-width
                                  'Ana la puta', 'N4Z1', 'h1tl3r', 'f.u.c.k', 'ni99er', 'Cabrón', 'GILIPOLLAS',
                                  'Nazi Ana'])
def test_a_refused_word_is_refused_however_it_is_written(name: str) -> None:
    assert names.is_refused(name)
    with pytest.raises(IllegalAction) as refusal:
        clean_name(name)
    assert refusal.value.code == 'name_refused'


@pytest.mark.parametrize('name', ['Ana', 'Luis', 'Julia', 'Zora', 'Pola', 'Nigeria', 'Niger', 'Nazir', 'Nazira',
                                  'Computadora', 'Diputado Pérez', 'Caputo', 'Scunthorpe', 'Mongolia', 'María José'])
def test_a_name_that_only_holds_a_refused_word_innocently_passes(name: str) -> None:
    assert not names.is_refused(name)
    assert clean_name(name) == name


def test_the_operators_file_replaces_the_shipped_one_and_an_edit_is_read_again(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv('DATA_DIR', str(tmp_path))
    assert names.is_refused('puta') and not names.is_refused('Pepito')
    own = tmp_path / names.OPERATORS
    own.write_text('# ours\npepito\n', encoding='utf-8')
    assert names.is_refused('Pep1to') and not names.is_refused('puta')   # the operator's list alone
    own.write_text('pepito\nputa  # again\n!computadora\n', encoding='utf-8')
    os.utime(own, ns=(own.stat().st_atime_ns, own.stat().st_mtime_ns + 1_000_000_000))   # a later edit
    assert names.is_refused('puta') and not names.is_refused('Computadora')


def test_an_account_is_not_made_with_a_refused_username_or_display_name() -> None:
    for fields in ({'username': 'Nazi_88'}, {'username': 'Ana', 'display_name': 'Ana la p.u.t.a'}):
        with pytest.raises(accounts.AccountError) as refusal:
            accounts.register(password='correct horse', confirmation='correct horse', **fields)
        assert refusal.value.key == 'account.error.name_refused'
    with session_scope() as session:
        assert get_user_by_username(session=session, username='Ana') is None


@pytest.mark.parametrize('language', ['es', 'en'])
async def test_sign_up_says_the_name_is_refused_in_your_language(user: User, language: str) -> None:
    if language == 'en':
        user.http_client.headers['Accept-Language'] = 'en'
    await sign_up(user, 'Hitler_1')
    await sees(user, CATALOGS[language]['account.error.name_refused'])
    await user.should_see(CATALOGS[language]['nav.login'])   # still a guest
    with session_scope() as session:
        assert get_user_by_username(session=session, username='Hitler_1') is None


async def test_quick_match_refuses_a_guests_refused_name_and_seats_nobody(user: User) -> None:
    await user.open('/play/chinchon')
    user.find(marker='quick-name').type('Puuuta')
    user.find(marker='quick-match').click()
    await sees(user, ES['illegal.name_refused'])
    await user.should_not_see(marker='waiting-room')
    assert await quick(user, name='Ana')   # another name is seated
