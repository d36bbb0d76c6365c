"""Shared test set-up: a throwaway data folder and database, NiceGUI's `user` fixture, and
browser tests ordered last (sync Playwright leaves an event loop running that would break the
asyncio tests after it)."""
import os
import tempfile
from pathlib import Path

import pytest

_DATA = Path(tempfile.mkdtemp(prefix='hod-test-'))
os.environ['DATA_DIR'] = str(_DATA)
os.environ['DATABASE_URL'] = f'sqlite:///{_DATA / "test.db"}'
os.environ['NICEGUI_STORAGE_PATH'] = str(_DATA / 'nicegui')
os.environ.pop('STORAGE_SECRET', None)

pytest_plugins = ['nicegui.testing.user_plugin']


@pytest.fixture
def fresh_accounts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cheap argon2 (tests only: production keeps the library's cost) and no accounts or games
    left over from other tests."""
    from sqlmodel import delete

    from app import accounts
    from models.db import init_db, session_scope
    from models.tables import GameDeal, GameSeat, LoginThrottle, PlayedGame, User

    monkeypatch.setattr(accounts, 'PASSWORDS', accounts.password_context(rounds=1, memory_cost=1024))
    init_db()
    with session_scope() as session:
        for table in (GameSeat, GameDeal, PlayedGame, LoginThrottle, User):
            session.exec(delete(table))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def is_browser(item: pytest.Item) -> bool:
        return 'e2e' in Path(str(item.fspath)).parts

    for item in items:
        if is_browser(item):
            item.add_marker(pytest.mark.browser)
    items.sort(key=is_browser)  # stable: keeps file order within each group
