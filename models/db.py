"""Database engine and sessions, shared by every table in `models`.

SQLite by default (a file in the data folder); DATABASE_URL selects any SQLAlchemy URL.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, event
from sqlmodel import Session, SQLModel, create_engine

from app import config

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
        return engine
    return create_engine(url, pool_pre_ping=True)


def init_db(url: str | None = None) -> Engine:
    """Create (or reuse) the engine for `url` and create every table that is missing."""
    global _engine  # the one process-wide connection pool; it holds no game or user state
    target = url or config.database_url()
    if _engine is None or _engine.url.render_as_string(hide_password=False) != target:
        if _engine is not None:
            _engine.dispose()
        _engine = make_engine(target)
    import models.tables  # noqa: F401  (registers every table on SQLModel.metadata)
    SQLModel.metadata.create_all(_engine)
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
