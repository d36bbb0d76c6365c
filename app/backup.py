"""Backing up the site's database and restoring it: the database is the whole site (accounts,
history, ratings, the tables in play), so this is what an operator keeps.

    python -m app.backup create FILE
    python -m app.backup restore FILE [--force]

Both work on the database DATABASE_URL names (the site's SQLite file in the data folder by
default), or ``--database URL``. SQLite is copied through its online backup API (the standard
library's ``sqlite3.Connection.backup``): one consistent moment, taken while people play, with the
site running. PostgreSQL goes through ``pg_dump``'s custom format and ``pg_restore`` (one
transaction: all of it or nothing), the server's own tools (``HOD_PG_BIN``, PATH, or Debian's
/usr/lib/postgresql/<newest>/bin).

A backup is written beside its file and moved into place when whole, so a failed run never leaves
a half file where the last good one was. A restore goes into an empty database (a new one, or one
the site made and nobody used yet); one with data is refused unless ``--force``, and so is a file
that is not a backup of this kind of database. Stop the site before restoring and start it after:
it migrates a backup from an older release at start, as it does any database.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, inspect, make_url, select, func, table
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from app import config

SQLITE_MAGIC, PG_DUMP_MAGIC = b'SQLite format 3\x00', b'PGDMP'
# written by migrations, not by people: a database holding only this is empty
BOOKKEEPING = frozenset({'alembic_version'})


class BackupError(RuntimeError):
    """What went wrong, in words for the operator; nothing was changed."""


def create(file: Path, url: str | None = None) -> Path:
    """Back up the database at ``url`` (the site's by default) into ``file``; returns the file."""
    target = make_url(url or config.database_url())
    file = Path(file)
    partial = file.with_name(f'.{file.name}.partial')
    try:
        if target.get_backend_name() == 'sqlite':
            _sqlite_copy(_sqlite_file(target, must_exist=True), partial)
        else:
            _pg_tool('pg_dump', target, '--format=custom', f'--file={partial}')
        os.replace(partial, file)
    finally:
        partial.unlink(missing_ok=True)
    return file


def restore(file: Path, url: str | None = None, *, force: bool = False) -> None:
    """Restore ``file`` into the database at ``url`` (the site's by default), which must hold no
    data unless ``force``."""
    target = make_url(url or config.database_url())
    file = Path(file)
    sqlite = target.get_backend_name() == 'sqlite'
    kind = _kind_of(file)
    if kind != ('sqlite' if sqlite else 'postgresql'):
        raise BackupError(f'{file} is {"not a backup" if kind is None else f"a backup of a {kind} database"}: '
                          f'it cannot be restored into {target.get_backend_name()}')
    destination = _sqlite_file(target, must_exist=False) if sqlite else None
    filled = [] if destination is not None and not destination.exists() else tables_with_rows(target)
    if filled and not force:
        raise BackupError(f'the database already holds data (in {", ".join(filled[:5])}): restore into an '
                          f'empty database, or add --force to replace everything in it')
    if sqlite:
        _sqlite_copy(file, destination, check=True)
    else:   # drops what the dump holds first: the site's empty tables, or with --force its data
        _pg_tool('pg_restore', target, '--clean', '--if-exists', '--no-owner', '--no-privileges',
                 '--single-transaction', '--exit-on-error', str(file))


def _kind_of(file: Path) -> str | None:
    try:
        with open(file, 'rb') as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise BackupError(f'cannot read {file}: {error.strerror}') from None
    return 'sqlite' if head == SQLITE_MAGIC else 'postgresql' if head.startswith(PG_DUMP_MAGIC) else None


def tables_with_rows(target: URL) -> list[str]:
    engine = create_engine(target)
    try:
        with engine.connect() as connection:
            names = sorted(set(inspect(connection).get_table_names()) - BOOKKEEPING)
            return [name for name in names
                    if connection.execute(select(func.count()).select_from(table(name))).scalar()]
    except SQLAlchemyError as error:
        raise BackupError(f'cannot read the database: {str(error).splitlines()[0]}') from None
    finally:
        engine.dispose()


def _sqlite_file(target: URL, *, must_exist: bool) -> Path:
    if not target.database or target.database == ':memory:':
        raise BackupError('an in-memory SQLite database has nothing to back up or restore into')
    path = Path(target.database)
    if must_exist and not path.is_file():
        raise BackupError(f'there is no database at {path}')
    return path


def _sqlite_copy(source: Path, destination: Path, *, check: bool = False) -> None:
    """SQLite's online backup: the source as it stands at one moment, whatever else is writing to
    it meanwhile, copied page by page into the destination (replacing all it held)."""
    try:
        reader = sqlite3.connect(f'file:{source}?mode=ro', uri=True)
        try:
            if check and reader.execute('PRAGMA quick_check').fetchone()[0] != 'ok':
                raise BackupError(f'{source} is damaged (SQLite quick_check failed): not restoring it')
            destination.parent.mkdir(parents=True, exist_ok=True)
            writer = sqlite3.connect(destination)
            try:
                reader.backup(writer)
            finally:
                writer.close()
        finally:
            reader.close()
    except sqlite3.Error as error:
        raise BackupError(f'SQLite could not copy {source} to {destination}: {error}') from None


def postgres_bin(*tools: str) -> Path | None:
    """The folder of PostgreSQL's programs that holds all these tools: the one HOD_PG_BIN names,
    else the first tool's on PATH, else Debian's newest /usr/lib/postgresql/<version>/bin (pg_dump
    must be at least as new as the server). The database tests find initdb and pg_ctl so too."""
    def holds(folder: Path) -> bool:
        return all((folder / tool).is_file() for tool in tools)
    explicit = os.environ.get('HOD_PG_BIN')
    if explicit:
        return Path(explicit) if holds(Path(explicit)) else None
    on_path = shutil.which(tools[0])
    if on_path and holds(Path(on_path).parent):
        return Path(on_path).parent

    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r'\d+', folder.parent.name))
    folders = sorted(Path('/usr/lib/postgresql').glob('*/bin'), key=version, reverse=True)
    return next((folder for folder in folders if holds(folder)), None)


def _conninfo(target: URL) -> str:
    """libpq's keyword form of a SQLAlchemy URL (its query may name a socket folder as host);
    the password goes in the environment instead, not on a command line others can read."""
    parts = {'host': target.host, 'port': target.port, 'user': target.username, 'dbname': target.database}
    parts.update({key: value if isinstance(value, str) else value[-1] for key, value in target.query.items()})
    quoted = (value.replace('\\', '\\\\').replace("'", "\\'") for value in map(str, parts.values()))
    return ' '.join(f"{key}='{value}'" for key, value in zip(parts, quoted) if parts[key] not in (None, ''))


def _pg_tool(tool: str, target: URL, *arguments: str) -> None:
    folder = postgres_bin(tool)
    if folder is None:
        raise BackupError(f'{tool} not found: install PostgreSQL\'s client tools (Debian/Ubuntu '
                          f'`apt-get install -y postgresql-client`) or set HOD_PG_BIN=/path/to/postgresql/bin')
    env = {**os.environ, **({'PGPASSWORD': target.password} if target.password else {})}
    result = subprocess.run([str(folder / tool), f'--dbname={_conninfo(target)}', *arguments],
                            capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise BackupError(f'{tool} failed ({result.returncode}): {result.stderr.strip()}')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m app.backup', description=__doc__.split('\n\n')[0])
    parser.add_argument('--database', metavar='URL', help='the database (default: DATABASE_URL, or the '
                                                          "site's SQLite file)")
    commands = parser.add_subparsers(dest='command', required=True)
    commands.add_parser('create', help='back the database up into FILE').add_argument('file', type=Path)
    restoring = commands.add_parser('restore', help='restore FILE into an empty database')
    restoring.add_argument('file', type=Path)
    restoring.add_argument('--force', action='store_true', help='replace the data the database holds')
    arguments = parser.parse_args(argv)
    try:
        if arguments.command == 'create':
            written = create(arguments.file, arguments.database)
            print(f'backed up into {written} ({written.stat().st_size:,} bytes)')
        else:
            restore(arguments.file, arguments.database, force=arguments.force)
            print(f'restored {arguments.file}; start the site to bring it to the newest revision')
    except BackupError as error:
        print(f'backup: {error}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
