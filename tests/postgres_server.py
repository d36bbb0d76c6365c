"""A throwaway PostgreSQL server for the database tests: initdb into a temporary folder, started
with pg_ctl on a unix socket in that folder (no TCP port, nothing shared with the machine),
stopped and deleted at the end, also when the run is killed (a watchdog, tests/run_watchdog.py, stops
it with pg_ctl and removes its folder when the process that started it goes away).

The binaries are, in this order: the folder in HOD_PG_BIN, `initdb` and `pg_ctl` on PATH, Debian's
/usr/lib/postgresql/<newest>/bin. Without them the tests fail with advice; they never skip.
PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user (or `nobody`).
"""
from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import URL

from app.backup import postgres_bin
from run_watchdog import Watchdog, watch

NO_POSTGRESQL = ('No PostgreSQL server binaries (initdb, pg_ctl) found for the database tests, which run '
                 'against SQLite and a real PostgreSQL. Install them: Debian/Ubuntu `apt-get install -y '
                 'postgresql` (the tests start their own server; none needs to be running); or set '
                 'HOD_PG_BIN=/path/to/postgresql/bin.')
PORT = 5432  # only names the socket file inside our own folder: no clash with any other server
SUPERUSER = 'postgres'
# not UTC, so that code which only works when the server happens to be in UTC fails here
SERVER_TIMEZONE = 'Europe/Madrid'


def find_bin() -> Path | None:
    return postgres_bin('initdb', 'pg_ctl')


def require_bin() -> Path:
    folder = find_bin()
    if folder is None:
        pytest.fail(NO_POSTGRESQL, pytrace=False)
    return folder


def _run_as() -> str | None:
    """The account to run the server as when we are root (PostgreSQL will not run as root)."""
    if os.geteuid() != 0:
        return None
    for name in ('postgres', 'nobody'):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError('running as root, and there is no postgres or nobody user to run PostgreSQL as')


class PostgresServer:
    def __init__(self, bin_folder: Path) -> None:
        self.bin = bin_folder
        self.folder = Path(tempfile.mkdtemp(prefix='hod-pg-'))  # short: socket paths are limited to ~100 bytes
        self.data = self.folder / 'data'
        self.user = _run_as()
        self._names = (f'hod_{number}' for number in itertools.count(1))
        self.watchdog: Watchdog | None = None

    def _as_user(self, *arguments: str) -> list[str]:
        return [*(['runuser', '-u', self.user, '--'] if self.user else []), *arguments]

    def _command(self, *arguments: str) -> None:
        result = subprocess.run(self._as_user(*arguments), capture_output=True, text=True,
                                env={**os.environ, 'LC_ALL': 'C.UTF-8', 'LANG': 'C.UTF-8'})
        if result.returncode != 0:
            log = self.folder / 'server.log'
            pytest.fail(f'{" ".join(arguments[:2])} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}'
                        + (f'\nserver log:\n{log.read_text()}' if log.exists() else ''), pytrace=False)

    def start(self) -> None:
        # before the server exists, so that no moment leaves it unguarded
        self.watchdog = watch(commands=[self._as_user(str(self.bin / 'pg_ctl'), 'stop', '-D', str(self.data),
                                                      '-m', 'immediate', '-w')],
                              folders=[self.folder])
        if self.user:
            shutil.chown(self.folder, self.user)
        self._command(str(self.bin / 'initdb'), '-D', str(self.data), '-U', SUPERUSER, '--auth=trust',
                      '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync')
        self.resume()

    def resume(self) -> None:
        """Start the server (again, after ``halt``) on the data it has."""
        # durability is worth nothing to a throwaway server: no fsync, no waiting on commit
        options = (f"-p {PORT} -k {self.folder} -c listen_addresses='' -c fsync=off "
                   f'-c synchronous_commit=off -c full_page_writes=off -c timezone={SERVER_TIMEZONE}')
        self._command(str(self.bin / 'pg_ctl'), 'start', '-D', str(self.data), '-w', '-t', '60',
                      '-l', str(self.folder / 'server.log'), '-o', options)

    def halt(self) -> None:
        """Stop the server as an outage would, keeping its data: connections fail until ``resume``."""
        self._command(str(self.bin / 'pg_ctl'), 'stop', '-D', str(self.data), '-m', 'fast', '-w')

    def stop(self) -> None:
        if (self.data / 'postmaster.pid').exists():
            self._command(str(self.bin / 'pg_ctl'), 'stop', '-D', str(self.data), '-m', 'immediate', '-w')
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.watchdog is not None:
            self.watchdog.release()

    def url(self, database: str) -> str:
        return URL.create('postgresql+psycopg', username=SUPERUSER, database=database,
                          query={'host': str(self.folder), 'port': str(PORT)}).render_as_string()

    def create_database(self) -> str:
        """A new, empty database; returns its SQLAlchemy URL."""
        import psycopg  # here, so that a missing driver fails only the PostgreSQL tests

        name = next(self._names)
        with psycopg.connect(host=str(self.folder), port=PORT, user=SUPERUSER, dbname='postgres',
                             autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE {name}')
        return self.url(name)


def running() -> Iterator[PostgresServer]:
    """A new throwaway server, started, and stopped (its files removed) when the caller is done:
    ``yield from running()`` in a fixture."""
    server = PostgresServer(require_bin())
    try:
        server.start()
        yield server
    finally:
        server.stop()
