"""Migrations applied at start by `init_db`, on SQLite and on PostgreSQL: an empty database, one
made by the release before migrations (its `create_all` schema, captured in
schema_before_migrations.<dialect>.sql), one already at the newest revision, and two server
processes starting on the same new database at once."""
import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import column, create_engine, insert, inspect, table
from sqlmodel import SQLModel

from models import db
from models.tables import (GameTable, SignInSession, create_user, get_user_by_username, insert_table, list_games,
                           load_table, seats_of)

ROOT = Path(__file__).resolve().parents[2]


def schema_before_migrations(dialect: str) -> list[str]:
    text = (Path(__file__).parent / f'schema_before_migrations.{dialect}.sql').read_text()
    text = '\n'.join(line for line in text.splitlines() if not line.startswith('--'))
    return [statement for statement in text.split(';') if statement.strip()]


def inspect_database(url: str, look):
    """`look(connection)` on a connection of its own, outside `models.db`."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return look(connection)
    finally:
        engine.dispose()


def revision_of(url: str) -> frozenset[str]:
    return inspect_database(url, db.current_revisions)


def differences_from_the_models(url: str) -> list:
    return inspect_database(url, lambda connection: compare_metadata(MigrationContext.configure(connection),
                                                                     SQLModel.metadata))


def test_an_empty_database_gets_every_table_of_the_models(empty_database_url):
    db.init_db(empty_database_url)
    assert revision_of(empty_database_url) == db.head_revisions() == {'0016'}
    assert differences_from_the_models(empty_database_url) == []


def test_a_database_of_the_release_before_migrations_keeps_its_data(empty_database_url):
    engine = create_engine(empty_database_url)
    with engine.begin() as connection:
        for statement in schema_before_migrations(engine.dialect.name):
            connection.exec_driver_sql(statement)
    ended = datetime(2026, 1, 5, 20, 30, tzinfo=UTC)
    with engine.begin() as connection:   # the old release's columns only: the models have grown since
        ana_id = connection.execute(
            insert(old_table('user', 'username', 'username_key', 'display_name', 'password_hash', 'language',
                             'created_at'))
            .values(username='Ana', username_key='ana', display_name='Ana', password_hash='$argon2-hash',
                    language='es', created_at=ended).returning(column('id'))).scalar_one()
        game_id = connection.execute(
            insert(old_table('playedgame', 'user_id', 'game_id', 'options_json', 'started_at', 'ended_at',
                             'hands_played', 'computer_level', 'score', 'placement', 'won'))
            .values(user_id=ana_id, game_id='chinchon', options_json='{}', started_at=ended, ended_at=ended,
                    hands_played=4, computer_level='hard', score=12, placement=1, won=True)
            .returning(column('id'))).scalar_one()
        seats = old_table('gameseat', 'played_game_id', 'seat', 'name_or_level', 'is_human', 'final_score',
                          'placement', 'is_winner')
        connection.execute(insert(seats), [
            {'played_game_id': game_id, 'seat': 0, 'name_or_level': 'Ana', 'is_human': True, 'final_score': 12,
             'placement': 1, 'is_winner': True},
            {'played_game_id': game_id, 'seat': 1, 'name_or_level': 'hard', 'is_human': False, 'final_score': 104,
             'placement': 2, 'is_winner': False}])
        connection.execute(insert(old_table('gamedeal', 'played_game_id', 'hand', 'commitment', 'seed'))
                           .values(played_game_id=game_id, hand=0, commitment='c0', seed='s0'))
    engine.dispose()

    db.init_db(empty_database_url)

    assert revision_of(empty_database_url) == db.head_revisions()
    assert differences_from_the_models(empty_database_url) == []
    with db.session_scope() as session:
        ana = get_user_by_username(session=session, username='ana')
        assert (ana.display_name, ana.password_hash, ana.language) == ('Ana', '$argon2-hash', 'es')
        [game] = list_games(session=session, user_id=ana.id)
        assert (game.game_id, game.score, game.won, game.ended_at) == ('chinchon', 12, True, ended)
        assert not game.abandoned   # a game recorded before abandoned games were is a finished one
        assert [seat.name_or_level for seat in seats_of(session=session, played_game_ids=[game.id])[game.id]] == \
            ['Ana', 'hard']
        bea = create_user(session=session, username='Bea', display_name='Bea', password_hash='x', language=None)
        assert bea.id != ana.id  # the id sequence carried on
        insert_table(session=session, table=GameTable(id='t-after-upgrade', game_id='chinchon', state_json='{}'))
    with db.session_scope() as session:
        assert load_table(session=session, table_id='t-after-upgrade').status == 'playing'


def old_table(name: str, *columns: str):
    """A table as an older release wrote it: only the columns it had."""
    return table(name, column('id'), *(column(name) for name in columns))


def test_a_database_at_the_newest_revision_is_not_migrated_again(empty_database_url, monkeypatch):
    db.init_db(empty_database_url)

    def refuse(*_args, **_kwargs):
        raise AssertionError('alembic ran on a database already at head')

    monkeypatch.setattr(command, 'upgrade', refuse)
    monkeypatch.setattr(command, 'stamp', refuse)
    db.init_db(empty_database_url)  # the same engine
    db.init_db()
    db.init_db(empty_database_url)  # a new engine on the same database


def test_a_database_with_only_some_of_the_old_tables_is_not_touched(empty_database_url):
    engine = create_engine(empty_database_url)
    with engine.begin() as connection:
        connection.exec_driver_sql(schema_before_migrations(engine.dialect.name)[0])  # loginthrottle alone
    engine.dispose()
    with pytest.raises(RuntimeError, match='only some of the tables'):
        db.init_db(empty_database_url)
    assert inspect_database(empty_database_url, lambda connection: inspect(connection).get_table_names()) == \
        ['loginthrottle']


def test_the_migrations_go_down_and_up_again(empty_database_url):
    engine = db.init_db(empty_database_url)
    with engine.begin() as connection:
        command.downgrade(db.alembic_config(connection), 'base')
    assert inspect_database(empty_database_url, lambda connection: inspect(connection).get_table_names()) == \
        ['alembic_version']
    assert revision_of(empty_database_url) == frozenset()
    db.init_db(empty_database_url)
    assert differences_from_the_models(empty_database_url) == []


STARTING_PROCESS = '''
import sys
from models.db import init_db
sys.stdin.readline()  # wait for the go, so that both processes migrate at the same moment
init_db(sys.argv[1])
'''


def test_two_processes_starting_on_a_new_database_at_once_both_come_up(empty_database_url):
    processes = [subprocess.Popen([sys.executable, '-c', STARTING_PROCESS, empty_database_url], cwd=ROOT,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
    for process in processes:
        process.stdin.write('go\n')
        process.stdin.flush()
    for process in processes:
        _, errors = process.communicate(timeout=60)
        assert process.returncode == 0, errors
    assert revision_of(empty_database_url) == db.head_revisions()
    assert differences_from_the_models(empty_database_url) == []


def test_an_unfinished_table_saved_before_0004_is_found_by_its_account(empty_database_url):
    """0004 names each saved table's account (from its seats), so that starting another game of
    the same kind finds the table left unfinished; finished and guest tables keep none."""
    engine = db.init_db(empty_database_url)
    with engine.begin() as connection:
        command.downgrade(db.alembic_config(connection), '0003')
    seats = [{'kind': 'person', 'name': 'Ana', 'guest': 'g', 'user_id': 7}, {'kind': 'computer', 'level': 'hard'}]
    guest = [{'kind': 'person', 'name': '', 'guest': 'g2', 'user_id': None}, {'kind': 'computer', 'level': 'easy'}]
    old = create_engine(empty_database_url)
    with old.begin() as connection:
        connection.execute(insert(old_table('gametable', 'game_id', 'options_json', 'seats_json', 'state_json',
                                            'version', 'status', 'created_at', 'updated_at')), [
            {'id': table_id, 'game_id': 'chinchon', 'options_json': '{}', 'seats_json': json.dumps(sitting),
             'state_json': '{}', 'version': 3, 'status': status, 'created_at': datetime.now(UTC),
             'updated_at': datetime.now(UTC)}
            for table_id, sitting, status in (('playing', seats, 'playing'), ('over', seats, 'over'),
                                              ('guest', guest, 'playing'))])
    old.dispose()
    db.init_db(empty_database_url)
    assert differences_from_the_models(empty_database_url) == []
    with db.session_scope() as session:
        assert {table_id: load_table(session=session, table_id=table_id).user_id
                for table_id in ('playing', 'over', 'guest')} == {'playing': 7, 'over': None, 'guest': None}
    # 0005: a table saved before it counts as played at (never taken for one nobody played at)...
    with db.session_scope() as session:
        assert all(load_table(session=session, table_id=table_id).person_acted
                   for table_id in ('playing', 'over', 'guest'))
    # ...while a new one says it itself
    with db.session_scope() as session:
        insert_table(session=session, table=GameTable(id='new', game_id='chinchon', state_json='{}'))
    with db.session_scope() as session:
        assert load_table(session=session, table_id='new').person_acted is False


def test_a_session_open_before_0006_counts_as_used_when_it_began(empty_database_url):
    """0006 gives each open session a last use (for the 7 idle days): the moment it began."""
    engine = db.init_db(empty_database_url)
    with engine.begin() as connection:
        command.downgrade(db.alembic_config(connection), '0005')
    began = datetime(2026, 11, 30, 9, 15, tzinfo=UTC)
    old = create_engine(empty_database_url)
    with old.begin() as connection:
        user_id = connection.execute(insert(old_table('user', 'username', 'username_key', 'display_name',
                                                      'password_hash', 'created_at'))
                                     .values(username='Ana', username_key='ana', display_name='Ana',
                                             password_hash='x', created_at=began).returning(column('id'))).scalar_one()
        connection.execute(insert(table('signinsession', column('token_hash'), column('user_id'), column('pending'),
                                        column('created_at'), column('expires_at')))
                           .values(token_hash='h' * 64, user_id=user_id, pending=False, created_at=began,
                                   expires_at=began + timedelta(days=30)))
    old.dispose()
    db.init_db(empty_database_url)
    assert differences_from_the_models(empty_database_url) == []
    with db.session_scope() as session:
        moment = session.get(SignInSession, 'h' * 64).last_used_at
    assert moment.replace(tzinfo=moment.tzinfo or UTC) == began


async def test_a_table_in_play_saved_before_0010_loads_and_plays_on(empty_database_url):
    """0010 keeps a table's steps apart from its whole state (`tablestep`): a table saved whole
    before it loads as it was, and its next steps are appended to it."""
    from app.games import GAMES_BY_ID
    from app.tables import registry
    from app.tables.seats import Seat, TableOptions, computer_seats
    from app.tables.worker import computer_choice
    from models.tables import table_steps

    engine = db.init_db(empty_database_url)
    with engine.begin() as connection:
        command.downgrade(db.alembic_config(connection), '0009')
    options = TableOptions(seats=3, level='easy', speed='instant', hints=False)
    playing = registry.new_table(GAMES_BY_ID['chinchon'], options,
                                 computer_seats(options, [Seat('person', name='Ana', guest='g' * 16)]))
    old = create_engine(empty_database_url)
    with old.begin() as connection:
        connection.execute(insert(old_table('gametable', 'game_id', 'options_json', 'seats_json', 'state_json',
                                            'version', 'status', 'user_id', 'person_acted', 'created_at',
                                            'updated_at'))
                           .values(id=playing.id, game_id='chinchon', options_json=json.dumps(options.to_dict()),
                                   seats_json=json.dumps([seat.to_dict() for seat in playing.seats]),
                                   state_json=json.dumps(playing.to_dict()), version=4, status='playing',
                                   user_id=None, person_acted=True, created_at=datetime.now(UTC),
                                   updated_at=datetime.now(UTC)))
    old.dispose()
    db.init_db(empty_database_url)
    assert differences_from_the_models(empty_database_url) == []

    table = registry.open_table(playing.id)
    assert table.version == 4 and table.to_dict() == playing.to_dict()
    leave = registry.watch(table, 0, lambda view, events: None)
    for turn in range(3):   # Ana and the computers play on; every step is saved
        await table.settle()
        table.act(0, computer_choice('chinchon', 'easy', f'ana:{turn}', table.view(0)), table.version)
    await table.settle()
    table.flush()
    with db.session_scope() as session:
        assert len(table_steps(session=session, table_id=table.id)) >= 2   # appended after a whole write
    played = table.to_dict()
    registry.lose(table.id)
    assert registry.open_table(table.id).to_dict() == played
    leave()
