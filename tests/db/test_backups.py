"""Backups (app.backup), on SQLite and PostgreSQL: one taken while a game is in play restores into
an empty database where the account signs in, its history is there and the table plays on from
where it was; what is not yet committed stays out of it; a database with data, a file of the other
kind of database, or no backup at all is refused and changes nothing."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import make_url

from app import accounts, backup
from app.engine.chinchon import DrawStock
from app.games import GAMES_BY_ID
from app.history import SeatResult, history_page, record_finished_game
from app.tables import registry
from app.tables.seats import Seat, TableOptions
from models.db import init_db
from models.tables import utcnow

pytestmark = pytest.mark.usefixtures('fresh_accounts')

PASSWORD = 'correct horse battery'


@pytest.fixture
def second_empty_url(request: pytest.FixtureRequest, empty_database_url: str, tmp_path: Path) -> str:
    """Another new, empty database of the same kind as ``empty_database_url``: where a backup goes."""
    if empty_database_url.startswith('sqlite'):
        return f'sqlite:///{tmp_path / "restored.db"}'
    return request.getfixturevalue('postgres').create_database()


@pytest.fixture
def sqlite_site(tmp_path: Path) -> Iterator[Path]:
    """A site's SQLite file in the test's folder, Ana's account in it; the suite's database again
    afterwards."""
    file = tmp_path / 'site.db'
    init_db(f'sqlite:///{file}')
    try:
        accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD)
        yield file
    finally:
        init_db()


async def a_site_in_play(url: str):
    """The site at ``url``: Ana's account, one finished game in her history, and a Chinchón table
    of hers in play (she has drawn; her discard is next), saved as the site saves it."""
    init_db(url)
    ana = accounts.register(username='Ana', password=PASSWORD, confirmation=PASSWORD).id
    ended = utcnow().replace(microsecond=0)
    record_finished_game(user_id=ana, game_id='chinchon', options={'level': 'easy', 'limit': 100},
                         started_at=ended - timedelta(minutes=9), ended_at=ended, hands_played=3,
                         seats=[SeatResult('Ana', True, 12, 1, True), SeatResult('easy', False, 104, 0, False)])
    table = registry.create_table(GAMES_BY_ID['chinchon'], TableOptions(seats=2, level='easy'),
                                  [Seat('person', name='Ana', guest='ana-browser-0123456789', user_id=ana)])
    table.start_computers()   # the computer plays first if it is its turn
    await table.settle()
    table.act(0, DrawStock(), table.version)
    table.flush()
    return ana, table


def nothing_in(url: str) -> bool:
    """No rows at ``url`` (no file at all, for SQLite)."""
    where = make_url(url)
    return (not Path(where.database).exists() if where.get_backend_name() == 'sqlite'
            else backup.tables_with_rows(where) == [])


async def test_a_backup_taken_in_play_restores_into_an_empty_database_and_the_site_goes_on(
        empty_database_url: str, second_empty_url: str, tmp_path: Path, clock) -> None:
    ana, table = await a_site_in_play(empty_database_url)
    hand, version = table.view(0).hand, table.version
    file = backup.create(tmp_path / 'site.backup', empty_database_url)
    table.act(0, table.state.legal_actions(0)[0], table.version)   # played on after the backup
    table.flush()
    registry.lose(table.id)

    backup.restore(file, second_empty_url)
    init_db(second_empty_url)
    assert accounts.authenticate(username='Ana', password=PASSWORD).id == ana
    [game] = history_page(user_id=ana).games
    assert (game.game_id, game.won, game.score, game.hands_played) == ('chinchon', True, 12, 3)
    again = registry.open_table(table.id)
    assert again is not None and again.version == version and again.view(0).hand == hand   # as at the backup
    again.act(0, again.state.legal_actions(0)[0], again.version)                            # and it plays on
    assert again.version == version + 1


def test_what_is_not_committed_when_the_backup_is_taken_stays_out_of_it(sqlite_site: Path, tmp_path: Path) -> None:
    """SQLite's backup reads one committed moment: a write in progress elsewhere is not half in it."""
    source = sqlite_site
    writer = sqlite3.connect(source)
    writer.execute('BEGIN IMMEDIATE')
    writer.execute("UPDATE user SET display_name = 'Half' WHERE username = 'Ana'")
    try:
        file = backup.create(tmp_path / 'site.backup', f'sqlite:///{source}')
    finally:
        writer.commit()
        writer.close()
    with sqlite3.connect(file) as copy:
        assert copy.execute("SELECT display_name FROM user WHERE username = 'Ana'").fetchone() == ('Ana',)
    with sqlite3.connect(source) as live:
        assert live.execute("SELECT display_name FROM user WHERE username = 'Ana'").fetchone() == ('Half',)


async def test_a_database_with_data_is_refused_unless_forced(empty_database_url: str, second_empty_url: str,
                                                             tmp_path: Path, clock) -> None:
    await a_site_in_play(empty_database_url)
    file = backup.create(tmp_path / 'site.backup', empty_database_url)
    init_db(second_empty_url)   # the site started once on it (its tables made, no rows): still empty
    accounts.register(username='Luis', password=PASSWORD, confirmation=PASSWORD)
    with pytest.raises(backup.BackupError, match='already holds data'):
        backup.restore(file, second_empty_url)
    assert accounts.authenticate(username='Luis', password=PASSWORD)      # unchanged
    backup.restore(file, second_empty_url, force=True)
    init_db(second_empty_url)
    assert accounts.authenticate(username='Ana', password=PASSWORD)
    with pytest.raises(accounts.AccountError):
        accounts.authenticate(username='Luis', password=PASSWORD)         # replaced, all of it


async def test_a_file_that_is_not_a_backup_of_this_kind_of_database_is_refused(
        empty_database_url: str, second_empty_url: str, tmp_path: Path, clock) -> None:
    await a_site_in_play(empty_database_url)
    other = tmp_path / 'other.backup'
    if empty_database_url.startswith('sqlite'):   # how a dump of PostgreSQL starts
        other.write_bytes(b'PGDMP\x01\x0f\x00' + bytes(100))
    else:        # a SQLite database
        with sqlite3.connect(other) as lite:
            lite.execute('CREATE TABLE user (id INTEGER)')
    not_one = tmp_path / 'notes.txt'
    not_one.write_text('my notes')
    with pytest.raises(backup.BackupError, match='a backup of a'):
        backup.restore(other, second_empty_url)
    with pytest.raises(backup.BackupError, match='is not a backup'):
        backup.restore(not_one, second_empty_url)
    with pytest.raises(backup.BackupError, match='cannot read'):
        backup.restore(tmp_path / 'missing.backup', second_empty_url)
    assert nothing_in(second_empty_url)


def test_the_command_line_backs_up_and_refuses_with_a_message_and_an_exit_code(sqlite_site: Path,
                                                                              tmp_path: Path) -> None:
    url = f'sqlite:///{sqlite_site}'
    run = [sys.executable, '-m', 'app.backup', '--database', url]
    made = subprocess.run([*run, 'create', str(tmp_path / 'nightly.backup')], capture_output=True, text=True)
    assert made.returncode == 0 and 'backed up into' in made.stdout
    refused = subprocess.run([*run, 'restore', str(tmp_path / 'nightly.backup')], capture_output=True, text=True)
    assert refused.returncode == 1 and 'already holds data' in refused.stderr and not refused.stdout
