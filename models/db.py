"""Database engine and sessions, shared by every table in `models`.

SQLite by default (a file in the data folder); DATABASE_URL selects any SQLAlchemy URL.
`init_db` brings the database to the newest Alembic revision (models/migrations/) at start, so
nobody runs a separate step: an empty database is built, one made by the release before the
migrations (tables from `create_all`, no alembic_version) is adopted as revision 0001 and upgraded,
and one already at head costs a single query.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, event, inspect, make_url, text
from sqlmodel import Session, create_engine

from app import config, metrics

MIGRATIONS = Path(__file__).resolve().parent / 'migrations'
# what `create_all` made before there were migrations; such a database is stamped as this revision
FIRST_REVISION = '0001'
FIRST_TABLES = frozenset({'user', 'playedgame', 'gameseat', 'gamedeal', 'loginthrottle'})
MIGRATION_LOCK = 0x486f4473  # PostgreSQL advisory lock key: one process migrates, the others wait

_engine: Engine | None = None


def make_engine(url: str) -> Engine:
    if url.startswith('sqlite'):
        engine = create_engine(url, connect_args={'check_same_thread': False})

        @event.listens_for(engine, 'connect')
        def _sqlite_pragmas(dbapi_connection, _record) -> None:  # foreign keys are off by default in SQLite
            cursor = dbapi_connection.cursor()
            cursor.execute('PRAGMA foreign_keys=ON')
            cursor.execute('PRAGMA journal_mode=WAL')
            cursor.close()
        _count_errors(engine)
        return engine
    engine = create_engine(url, pool_pre_ping=True)
    _count_errors(engine)
    return engine


def _count_errors(engine: Engine) -> None:
    @event.listens_for(engine, 'handle_error')
    def _counted(context) -> None:   # every error the driver raised, whoever catches it afterwards
        metrics.DATABASE_ERRORS.labels(type(context.original_exception).__name__).inc()


def init_db(url: str | None = None) -> Engine:
    """Create (or reuse) the engine for `url` and migrate its database to the newest revision."""
    global _engine  # the one process-wide connection pool; it holds no game or user state
    target = make_url(url or config.database_url())
    if _engine is None or _engine.url != target:
        if _engine is not None:
            _engine.dispose()
        _engine = make_engine(target.render_as_string(hide_password=False))
    if not _at_head(_engine):
        _migrate(_engine)
    return _engine


def get_engine() -> Engine:
    return _engine if _engine is not None else init_db()


@contextmanager
def session_scope() -> Iterator[Session]:
    """A session that commits on success and rolls back on error."""
    with Session(get_engine()) as session:
        try:
            yield session
            session.commit()
        except Exception:
            session.rollback()
            raise


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """Alembic's configuration without an alembic.ini: the scripts folder, and the connection to
    migrate (or a URL, for `python -m models.migrations`)."""
    alembic = Config()
    alembic.set_main_option('script_location', str(MIGRATIONS))
    if url is not None:
        alembic.set_main_option('sqlalchemy.url', url.replace('%', '%%'))
    alembic.attributes['connection'] = connection
    return alembic


@cache
def head_revisions() -> frozenset[str]:
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def current_revisions(connection: Connection) -> frozenset[str]:
    return frozenset(MigrationContext.configure(connection).get_current_heads())


def _at_head(engine: Engine) -> bool:
    with engine.connect() as connection:
        return current_revisions(connection) == head_revisions()


def _migrate(engine: Engine) -> None:
    sqlite = engine.dialect.name == 'sqlite'
    with engine.connect() as connection:
        if sqlite:  # else rebuilding a table in a migration would cascade-delete the rows referring to it
            _set_foreign_keys(connection, on=False)
        try:
            with connection.begin():
                _lock_for_migration(connection)
                alembic = alembic_config(connection)
                if not current_revisions(connection) and _made_by_create_all(connection):
                    command.stamp(alembic, FIRST_REVISION)
                command.upgrade(alembic, 'head')
        finally:
            if sqlite:
                _set_foreign_keys(connection, on=True)


def _lock_for_migration(connection: Connection) -> None:
    """One process migrates, the others wait and then find the database at head; held until the
    end of the transaction, which also makes the whole migration one transaction."""
    if connection.dialect.name == 'postgresql':
        connection.execute(text('SELECT pg_advisory_xact_lock(:key)'), {'key': MIGRATION_LOCK})
    elif connection.dialect.name == 'sqlite':
        # Python's sqlite3 opens no transaction before DDL by itself: open one, with the write lock
        connection.exec_driver_sql('BEGIN IMMEDIATE')


def _set_foreign_keys(connection: Connection, *, on: bool) -> None:
    connection.exec_driver_sql(f'PRAGMA foreign_keys={"ON" if on else "OFF"}')
    connection.commit()  # the pragma is ignored inside a transaction


def _made_by_create_all(connection: Connection) -> bool:
    """True for a database of the release before migrations: every first table, no version."""
    present = FIRST_TABLES & set(inspect(connection).get_table_names())
    if present and present != FIRST_TABLES:
        raise RuntimeError(f'The database has only some of the tables {sorted(FIRST_TABLES)} '
                           f'(found {sorted(present)}) and no alembic_version: not migrating it blindly.')
    return present == FIRST_TABLES
