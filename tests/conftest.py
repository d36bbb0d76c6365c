"""Shared test set-up: a throwaway data folder and database, NiceGUI's `user` fixture, the tables'
seams (inline thinker, seeded deals, manual clock), the database fixtures that run a test on
SQLite and on a real PostgreSQL (postgres_server.py), and the three tiers, browser tests last
(sync Playwright leaves an event loop running that would break the asyncio tests after it)."""
import gc
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from postgres_server import PostgresServer, running

# The suite starts about a hundred Python processes (xdist's workers, the browser tests' servers,
# the cluster's, their worker pools, the scripts some tests run): where bytecode is not written
# (PYTHONDONTWRITEBYTECODE, which some containers set), each of them compiled the project and the
# test modules from source again. Written once to __pycache__ (ignored by git), that is about two
# CPU-minutes less per run on two cores (a clean clone's CI: 7.5 CPU-minutes to 5.6).
os.environ.pop('PYTHONDONTWRITEBYTECODE', None)
sys.dont_write_bytecode = False
_DATA = Path(tempfile.mkdtemp(prefix='hod-test-'))
os.environ['DATA_DIR'] = str(_DATA)
os.environ['DATABASE_URL'] = f'sqlite:///{_DATA / "test.db"}'
os.environ['NICEGUI_STORAGE_PATH'] = str(_DATA / 'nicegui')
os.environ.pop('STORAGE_SECRET', None)

pytest_plugins = ['nicegui.testing.user_plugin']


class RememberingThinker:
    """The inline thinker, remembering each choice it made in this test process: a computer's
    choice is a function of its game, level, seed and view alone (tests/engine/test_ai_determinism),
    so the same decision met again (two accounts playing one daily deal, a try played again after
    a restart) gets the same move without its search, which at hard level is most of the CPU of
    the tests that play whole dailies and quick matches."""

    CHOICES: dict[tuple[str, str, str, bytes], object] = {}

    def __init__(self) -> None:
        from app.tables.services import InlineThinker

        self.inline = InlineThinker()

    async def think(self, game_id: str, level: str, seed: str, view: object) -> object:
        seen = hashlib.blake2b(json.dumps(view.to_dict(), sort_keys=True).encode(), digest_size=16).digest()
        key = (game_id, level, seed, seen)
        if key not in self.CHOICES:
            self.CHOICES[key] = await self.inline.think(game_id, level, seed, view)
        return self.CHOICES[key]

    async def compute(self, function: Callable[..., object], *args: object) -> object:
        """The coach's judgements and other work: computed each time, as inline."""
        return await self.inline.compute(function, *args)


@pytest.fixture(autouse=True)
def inline_tables(request: pytest.FixtureRequest) -> Iterator['ManualClock']:
    """Every table a test makes thinks inline (the same move as the process pool, without one),
    deals from the test's own name (a failure replays) and runs on a clock the test moves: a
    computer's pause moves it on by itself (``autojump``), and ``await clock.advance(30)`` runs
    a 30 s turn clock out at once. No table of a test waits on the wall clock."""
    from app.tables import registry
    from app.tables.services import SeededDeals
    from seams import ManualClock

    manual = ManualClock()
    old = registry.configure(thinker=RememberingThinker(), deals=SeededDeals(request.node.nodeid), clock=manual)
    yield manual
    registry.configure(**vars(old))


@pytest.fixture(autouse=True)
def fresh_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test counts its new tables from zero (each test's clock starts at zero too)."""
    from app import limits

    monkeypatch.setattr(limits, 'NEW_TABLES', limits.NewTables())


@pytest.fixture
def memory_store() -> Iterator['MemoryStore']:
    """Tables made from now on save to memory instead of the database."""
    from app.tables import registry
    from app.tables.services import MemoryStore

    memory = MemoryStore()
    old = registry.configure(store=memory)
    yield memory
    registry.configure(**vars(old))


@pytest.fixture
def clock(inline_tables: 'ManualClock') -> 'ManualClock':
    """The tables' clock, for a test that moves it itself (``clock.autojump = False``: time passes
    only when the test says so)."""
    return inline_tables


@pytest.fixture
def fresh_accounts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cheap argon2 hashed in the page's own task (tests only: production keeps the library's cost
    and hashes in a thread), and no accounts or games left over from other tests."""
    import nicegui.run

    from app import accounts

    async def inline(function, *args, **kwargs):   # no thread to wait for: the submit's task finishes at once
        return function(*args, **kwargs)

    monkeypatch.setattr(accounts, 'PASSWORDS', accounts.password_context(rounds=1, memory_cost=1024))
    monkeypatch.setattr(nicegui.run, 'io_bound', inline)
    _empty_every_table()


def _empty_every_table() -> None:
    from sqlmodel import SQLModel

    import models.tables  # noqa: F401  (every table on the metadata)
    from models.db import init_db, session_scope

    init_db()
    with session_scope() as session:
        for table in reversed(SQLModel.metadata.sorted_tables):  # children before parents
            session.exec(table.delete())


@pytest.fixture(scope='session')
def postgres() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the whole run, started at the first test that needs it."""
    yield from running()


@pytest.fixture(scope='session')
def _postgres_suite_database(postgres: PostgresServer) -> str:
    return postgres.create_database()


@pytest.fixture(params=['sqlite', 'postgresql'])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a new, empty database (nothing migrated), once per backend. The test may point
    `models.db` at it (`init_db(url)`); afterwards it points back at the suite's database."""
    from models.db import init_db

    if request.param == 'sqlite':
        url = f'sqlite:///{tmp_path / "empty.db"}'
    else:
        url = request.getfixturevalue('postgres').create_database()
    try:
        yield url
    finally:
        init_db()


@pytest.fixture(params=['sqlite', 'postgresql'])
def database(request: pytest.FixtureRequest) -> Iterator[str]:
    """The test runs once on SQLite and once on PostgreSQL: `models.db` (and DATABASE_URL, for
    code that calls `init_db()` itself) point at a migrated database with no rows, and back at the
    suite's SQLite database afterwards."""
    from models.db import init_db

    url = (os.environ['DATABASE_URL'] if request.param == 'sqlite'
           else request.getfixturevalue('_postgres_suite_database'))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv('DATABASE_URL', url)
        _empty_every_table()
        try:
            yield url
        finally:
            patch.undo()
            init_db()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Each test process's collector tuned as the site's server tunes its own (app.serving's
    tune_collector), further still, since a test process lives minutes: what collection imported is
    frozen out of the walks, and a walk waits for 100,000 new objects instead of 700 (the site:
    50,000). The engines' and screens' tests make millions of short-lived objects and
    their walks took a sixth of the core tier's CPU (67 s to 54 s on one worker) and a tenth of the
    screens' (125 s to 114 s). Garbage without cycles is freed at once as always, and the tests
    that count what is freed collect first themselves."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 20, 10)


TIERS = ('core', 'inprocess', 'browser')   # in the order they run: the fastest feedback first


def tier_of(item: pytest.Item) -> str:
    parts = Path(str(item.fspath)).parts
    return 'core' if {'engine', 'coach'} & set(parts) else 'browser' if 'e2e' in parts else 'inprocess'


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test gets its tier's marker (``-m core``, ``-m inprocess``, ``-m browser`` run one)
    and the tiers run in order: the browser tier last also on each of xdist's workers, which take
    their tests in this order."""
    for item in items:
        item.add_marker(getattr(pytest.mark, tier_of(item)))
    items.sort(key=lambda item: TIERS.index(tier_of(item)))  # stable: keeps file order within each tier
