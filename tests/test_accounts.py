"""Accounts and history without a browser: hashing, validation, throttling, recording, figures."""
import unicodedata
from datetime import UTC, datetime, timedelta, timezone

import pytest
from passlib.context import CryptContext
from sqlmodel import select

from app import accounts, history, visitor
from app.accounts import AccountError, authenticate, register
from app.history import SeatResult, record_finished_game
from app.sessions import safe_next
from models.db import session_scope
from models.tables import GameDeal, GameSeat, PlayedGame, User

pytestmark = pytest.mark.usefixtures('database', 'fresh_accounts')  # each test on SQLite and on PostgreSQL

PASSWORD = 'correct horse'




def new_account(username='Ana', password=PASSWORD):
    return register(username=username, password=password, confirmation=password)


def stored_hash(username):
    with session_scope() as session:
        return session.exec(select(User.password_hash).where(User.username == username)).one()


def chinchon(user_id, *, score, won, ended, level='hard', opponents=1):
    seats = [SeatResult('Ana', True, score, 1 if won else 2, won)]
    seats += [SeatResult(level, False, 60, 2 if won else 1, not won) for _ in range(opponents)]
    return record_finished_game(user_id=user_id, game_id='chinchon', options={'target': 100},
                                started_at=ended - timedelta(minutes=9), ended_at=ended, hands_played=5,
                                seats=seats, deal_commitments=[('c0', 's0'), ('c1', 's1')])


def test_passwords_are_argon2_and_verify():
    password_hash = accounts.hash_password(PASSWORD)
    assert password_hash.startswith('$argon2')
    assert accounts.verify_password(PASSWORD, password_hash)
    assert not accounts.verify_password('wrong password', password_hash)
    assert not accounts.verify_password(PASSWORD, 'not a hash at all')


def test_an_old_bcrypt_hash_logs_in_and_is_upgraded_to_argon2():
    account = new_account()
    old = CryptContext(schemes=['bcrypt'], bcrypt__rounds=4).hash(PASSWORD)
    with session_scope() as session:
        session.get(User, account.id).password_hash = old
    assert accounts.PASSWORDS.needs_update(old)
    assert authenticate(username='ana', password=PASSWORD).id == account.id
    assert stored_hash('Ana').startswith('$argon2')
    assert authenticate(username='ana', password=PASSWORD).id == account.id


@pytest.mark.parametrize('username', ['ab', 'a' * 21, 'ana maría', 'ana!', '', 'ana.b', 'ß' * 20])
def test_usernames_outside_the_rules_are_refused(username):
    with pytest.raises(AccountError) as refusal:
        new_account(username)
    assert (refusal.value.key, refusal.value.params) == ('account.error.username_format', {'min': 3, 'max': 20})


@pytest.mark.parametrize('username', ['abc', 'a' * 20, 'Ana_1-b', 'José', 'añil', 'Begoña', 'Çelik'])
def test_usernames_inside_the_rules_are_accepted(username):
    assert new_account(username).username == username


def test_usernames_are_normalised_and_unique_whatever_the_case_and_the_accent_form():
    decomposed = unicodedata.normalize('NFD', 'José')
    assert decomposed != 'José'
    assert new_account(decomposed).username == 'José'   # stored composed (NFKC)
    for twin in ('JOSÉ', unicodedata.normalize('NFD', 'josé')):
        with pytest.raises(AccountError) as refusal:
            new_account(twin)
        assert refusal.value.key == 'account.error.username_taken'
    assert authenticate(username='josé', password=PASSWORD).username == 'José'


def test_a_display_name_over_its_limit_is_refused_not_cut():
    with pytest.raises(AccountError) as refusal:
        register(username='Ana', password=PASSWORD, confirmation=PASSWORD, display_name='x' * 41)
    assert (refusal.value.key, refusal.value.params) == ('account.error.display_name_length', {'max': 40})
    assert register(username='Ana', password=PASSWORD, confirmation=PASSWORD,
                    display_name='y' * 40).display_name == 'y' * 40


def test_a_password_typed_in_another_unicode_form_signs_in():
    composed = 'contraseña €uro'
    register(username='Ana', password=composed, confirmation=composed)
    assert authenticate(username='Ana', password=unicodedata.normalize('NFD', composed)).username == 'Ana'
    register(username='Bea', password=unicodedata.normalize('NFD', composed),
             confirmation=unicodedata.normalize('NFD', composed))
    assert authenticate(username='Bea', password=composed).username == 'Bea'


def test_password_length_and_confirmation():
    for password in ('short', 'x' * 129):
        with pytest.raises(AccountError) as refusal:
            new_account(password=password)
        assert (refusal.value.key, refusal.value.params) == ('account.error.password_length',
                                                             {'min': 8, 'max': 128})
    with pytest.raises(AccountError) as refusal:
        register(username='Ana', password=PASSWORD, confirmation=PASSWORD + '!')
    assert refusal.value.key == 'account.error.password_mismatch'


def test_usernames_are_unique_whatever_the_case():
    new_account('Ana')
    with pytest.raises(AccountError) as refusal:
        new_account('aNA')
    assert refusal.value.key == 'account.error.username_taken'


def test_login_failure_is_the_same_for_a_missing_user_and_a_wrong_password():
    new_account()
    refusals = []
    for username, password in (('ana', 'wrong password'), ('nobody', PASSWORD)):
        with pytest.raises(AccountError) as refusal:
            authenticate(username=username, password=password)
        refusals.append((refusal.value.key, refusal.value.params))
    assert refusals == [('account.error.login_failed', {})] * 2


def test_repeated_failures_lock_the_name_for_a_growing_while_and_survive_restarts():
    new_account()
    start = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def attempt(password, seconds_later):
        try:
            return authenticate(username='ANA', password=password, now=start + timedelta(seconds=seconds_later))
        except AccountError as refusal:
            return refusal.key, refusal.params

    for second in range(4):
        assert attempt('wrong password', second) == ('account.error.login_failed', {})
    assert attempt('wrong password', 4) == ('account.error.throttled', {'seconds': 30})
    # locked: even the right password waits, and the state is in the database, not in memory
    assert attempt(PASSWORD, 14) == ('account.error.throttled', {'seconds': 20})
    assert attempt('wrong password', 35) == ('account.error.throttled', {'seconds': 60})
    assert attempt(PASSWORD, 96).username == 'Ana'
    assert attempt('wrong password', 97) == ('account.error.login_failed', {})


def test_a_missing_user_is_throttled_too():
    for second in range(5):
        with pytest.raises(AccountError) as refusal:
            authenticate(username='ghost', password='whatever', now=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=second))
    assert refusal.value.key == 'account.error.throttled'


def test_change_password_needs_the_current_one():
    account = new_account()
    with pytest.raises(AccountError) as refusal:
        accounts.change_password(user_id=account.id, current_password='wrong password',
                                 new_password='new password', confirmation='new password')
    assert refusal.value.key == 'account.error.wrong_password'
    accounts.change_password(user_id=account.id, current_password=PASSWORD,
                             new_password='new password', confirmation='new password')
    assert authenticate(username='ana', password='new password').id == account.id


def test_deleting_an_account_removes_every_record_of_it():
    ana, bea = new_account('Ana'), new_account('Bea')
    chinchon(ana.id, score=10, won=True, ended=datetime(2026, 1, 1))
    chinchon(bea.id, score=20, won=True, ended=datetime(2026, 1, 1))
    with pytest.raises(AccountError):
        accounts.delete_account(user_id=ana.id, password='wrong password')
    accounts.delete_account(user_id=ana.id, password=PASSWORD)
    with session_scope() as session:
        assert session.exec(select(User.username)).all() == ['Bea']
        assert [game.user_id for game in session.exec(select(PlayedGame))] == [bea.id]
        assert len(session.exec(select(GameSeat)).all()) == 2
        assert len(session.exec(select(GameDeal)).all()) == 2


@pytest.mark.parametrize('target, expected', [
    ('/history', '/history'),
    ('/history?game=chinchon&page=2', '/history?game=chinchon&page=2'),
    (None, '/'), ('', '/'), ('history', '/'), ('//evil.example/x', '/'),
    ('https://evil.example/', '/'), ('/\\evil.example', '/'), ('/a\nb', '/'),
])
def test_only_local_paths_are_followed_after_login(target, expected):
    assert safe_next(target) == expected


def test_a_guest_game_is_not_recorded():
    assert chinchon(None, score=10, won=True, ended=datetime(2026, 1, 1)) is None


def test_a_recorded_game_needs_a_known_game_and_one_human():
    ana = new_account()
    arguments = dict(user_id=ana.id, options={}, started_at=datetime(2026, 1, 1), ended_at=datetime(2026, 1, 1),
                     hands_played=1)
    with pytest.raises(ValueError):
        record_finished_game(game_id='mus', seats=[SeatResult('Ana', True, 1, 1, True)], **arguments)
    with pytest.raises(ValueError):
        record_finished_game(game_id='chinchon', seats=[SeatResult('easy', False, 1, 1, True)], **arguments)


def test_figures_per_game_take_better_from_the_game():
    ana = new_account()
    day = datetime(2026, 3, 1, 18, 0, tzinfo=timezone(timedelta(hours=1)))
    chinchon(ana.id, score=12, won=True, ended=day)
    chinchon(ana.id, score=80, won=False, ended=day + timedelta(hours=1), level='easy')
    chinchon(ana.id, score=40, won=True, ended=day + timedelta(hours=2), opponents=2)
    for cards, won in ((30, True), (14, False)):
        record_finished_game(user_id=ana.id, game_id='ronda-robada', options={}, started_at=day, ended_at=day,
                             hands_played=3, seats=[SeatResult('Ana', True, cards, 1 if won else 2, won),
                                                    SeatResult('normal', False, 20, 2 if won else 1, not won)])
    totals = {group.key: group for group in history.totals_by_game(user_id=ana.id)}
    assert (totals['chinchon'].played, totals['chinchon'].wins, totals['chinchon'].best) == (3, 2, 12)
    assert totals['chinchon'].average == pytest.approx(44.0)
    assert totals['chinchon'].win_rate == pytest.approx(2 / 3)
    assert (totals['ronda-robada'].best, totals['ronda-robada'].average) == (30, 22.0)
    levels = {group.key: (group.played, group.wins) for group in history.totals_by_level(user_id=ana.id)}
    assert levels == {'hard': (2, 2), 'easy': (1, 0), 'normal': (2, 1)}
    newest = history.history_page(user_id=ana.id, game_id='chinchon').games[0]
    assert (newest.score, newest.ended_at, len(newest.seats)) == (40, datetime(2026, 3, 1, 19, 0, tzinfo=UTC), 3)
    timeline = history.score_timeline(user_id=ana.id)
    assert [score for _, score in timeline['chinchon']] == [12, 80, 40]
    assert set(timeline) == {'chinchon', 'ronda-robada'}


def test_history_pages_hold_twenty_games_newest_first():
    ana = new_account()
    for minute in range(45):
        chinchon(ana.id, score=minute, won=False, ended=datetime(2026, 1, 1, 10, minute))
    first, last = (history.history_page(user_id=ana.id, page=page) for page in (1, 3))
    assert (first.total, first.pages, len(first.games), len(last.games)) == (45, 3, 20, 5)
    assert first.games[0].score == 44 and last.games[-1].score == 0
    assert history.history_page(user_id=ana.id, page=99).page == 3


def test_outside_any_page_nobody_is_logged_in():
    new_account()
    assert visitor.current_user_id() is None


def test_old_failures_are_forgotten():
    new_account()
    start = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    for second in range(4):
        with pytest.raises(AccountError):
            authenticate(username='ana', password='wrong password', now=start + timedelta(seconds=second))
    later = start + timedelta(hours=2)
    for second in range(4):  # four more failures two hours later: the count started again
        with pytest.raises(AccountError) as refusal:
            authenticate(username='ana', password='wrong password', now=later + timedelta(seconds=second))
        assert refusal.value.key == 'account.error.login_failed'
