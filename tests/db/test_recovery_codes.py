"""Recovery codes on SQLite and on PostgreSQL: their shape, only keyed hashes stored, one use each
even when two attempts race, a new set voids the old, the password changes and every session ends,
and wrong codes are throttled like wrong passwords."""
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlmodel import select

from app import accounts, recovery, sessions
from app.accounts import AccountError, Client, authenticate, register, sign_in
from models.db import session_scope
from models.tables import RecoveryCode

pytestmark = pytest.mark.usefixtures('database', 'fresh_accounts')

PASSWORD = 'correct horse'
NEW = 'a brand new password'


def attempt(code: str, new_password: str = NEW, username: str = 'Ana', client: Client = Client()) -> str:
    """'ok', or the key of the refusal."""
    try:
        recovery.recover(username=username, code=code, new_password=new_password, confirmation=new_password,
                         client=client)
    except AccountError as refusal:
        return refusal.key
    return 'ok'


def test_ten_grouped_codes_of_an_unambiguous_alphabet_stored_only_as_keyed_hashes():
    account = register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    codes = recovery.new_codes(account.id)
    assert len(set(codes)) == 10
    assert all(re.fullmatch(r'[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}', code) for code in codes)
    with session_scope() as session:
        stored = set(session.exec(select(RecoveryCode.code_hash).where(RecoveryCode.user_id == account.id)))
    assert len(stored) == 10 and not any(recovery.typed(code) in hashed for code in codes for hashed in stored)
    assert recovery.code_hash(account.id, recovery.typed(codes[0])) in stored
    # the same code for another account would hash differently: a code is bound to its account
    assert recovery.code_hash(account.id + 1, recovery.typed(codes[0])) not in stored


def test_a_code_sets_the_password_ends_every_session_and_works_once():
    account = register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    codes = recovery.new_codes(account.id)
    _, ticket = sign_in(username='Ana', password=PASSWORD)
    token, _ = sessions.begin_session(ticket, None)
    typed_sloppily = codes[3].lower().replace('-', ' ')
    assert attempt(typed_sloppily) == 'ok'
    assert sessions.user_of_token(token) is None
    assert authenticate(username='Ana', password=NEW).id == account.id
    with pytest.raises(AccountError, match='login_failed'):
        authenticate(username='Ana', password=PASSWORD)
    assert attempt(codes[3], 'yet another password') == 'account.error.recovery_failed'
    assert recovery.codes_left(account.id) == 9


def test_two_uses_of_one_code_at_the_same_moment_are_accepted_once():
    account = register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    code = recovery.new_codes(account.id)[0]
    start = threading.Barrier(8)

    def race(n: int) -> str:
        start.wait()
        return attempt(code, f'new password number {n}', client=Client(browser=f'b{n}'))

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(race, range(8)))
    assert results.count('ok') == 1   # the losers are refused, or throttled once five have failed
    assert set(results) <= {'ok', 'account.error.recovery_failed', 'account.error.throttled'}
    winner = results.index('ok')
    accounts.check_password(account.id, f'new password number {winner}')   # the losers' failures lock sign-in a while
    assert recovery.codes_left(account.id) == 9


def test_new_codes_void_the_old_ones_and_need_the_password():
    account = register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    old = recovery.new_codes(account.id)
    with pytest.raises(AccountError, match='wrong_password'):
        recovery.renew_codes(user_id=account.id, password='not the password')
    assert recovery.codes_left(account.id) == 10
    new = recovery.renew_codes(user_id=account.id, password=PASSWORD)
    assert not set(old) & set(new)
    assert attempt(old[0]) == 'account.error.recovery_failed'
    assert attempt(new[0]) == 'ok'


def test_a_bad_new_password_changes_nothing_and_counts_as_no_failure():
    account = register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    code = recovery.new_codes(account.id)[0]
    for _ in range(accounts.FREE_FAILURES['account'] + 1):
        with pytest.raises(AccountError, match='password_mismatch'):
            recovery.recover(username='Ana', code=code, new_password=NEW, confirmation='something else')
    assert recovery.codes_left(account.id) == 10
    assert attempt(code) == 'ok'


def test_wrong_codes_are_throttled_like_wrong_passwords_and_an_unknown_name_reads_the_same():
    account = register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    code = recovery.new_codes(account.id)[0]
    assert attempt(code, username='Nobody') == 'account.error.recovery_failed'
    free = accounts.FREE_FAILURES['account']
    results = [attempt('ABCDE-FGHJK', client=Client(browser=f'b{n}')) for n in range(free + 1)]
    assert results == ['account.error.recovery_failed'] * (free - 1) + ['account.error.throttled'] * 2
    # the lock is the sign-in's: the password waits too
    with pytest.raises(AccountError, match='throttled'):
        authenticate(username='Ana', password=PASSWORD)
    assert recovery.codes_left(account.id) == 10


def test_wrong_codes_typed_by_others_never_keep_the_owner_and_a_right_code_out():
    account = register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    code = recovery.new_codes(account.id)[0]
    for n in range(accounts.FREE_FAILURES['account'] * 3):   # anybody may type Ana's name
        attempt('ABCDE-FGHJK', client=Client(browser=f'guesser {n}', address='203.0.113.9'))
    owner = Client(browser='a new phone', address='198.51.100.7')
    assert attempt(code, client=owner) == 'ok'
    assert recovery.codes_left(account.id) == 9
    assert authenticate(username='Ana', password=NEW).id == account.id   # and the account's lock is forgiven


def test_the_browser_that_guesses_waits_even_when_it_hits_a_right_code():
    account = register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
    code = recovery.new_codes(account.id)[0]
    guesser = Client(browser='guesser')
    results = [attempt('ABCDE-FGHJK', client=guesser) for _ in range(accounts.FREE_FAILURES['browser'])]
    assert results[-1] == 'account.error.throttled'
    assert attempt(code, client=guesser) == 'account.error.throttled'   # its own lock: no code is even looked at
    assert recovery.codes_left(account.id) == 10
    assert attempt(code, client=Client(browser='the owner')) == 'ok'
