import pytest
from sqlalchemy import text

from app import config
from models import db


def test_default_database_is_a_sqlite_file_in_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv('DATA_DIR', str(tmp_path))
    monkeypatch.delenv('DATABASE_URL', raising=False)
    assert config.database_url() == f'sqlite:///{tmp_path / "house_of_decks.db"}'


def test_database_url_from_the_environment_wins(monkeypatch):
    monkeypatch.setenv('DATABASE_URL', 'postgresql+psycopg://u:p@localhost/hod')
    assert config.database_url() == 'postgresql+psycopg://u:p@localhost/hod'


def test_session_scope_commits_and_rolls_back(empty_database_url):
    db.init_db(empty_database_url)
    with db.session_scope() as session:
        session.exec(text('CREATE TABLE probe (x INTEGER)'))
        session.exec(text('INSERT INTO probe VALUES (1)'))
    with pytest.raises(RuntimeError):
        with db.session_scope() as session:
            session.exec(text('INSERT INTO probe VALUES (2)'))
            raise RuntimeError('boom')
    with db.session_scope() as session:
        assert session.exec(text('SELECT x FROM probe')).all() == [(1,)]


def test_the_default_sqlite_database_needs_no_set_up(monkeypatch, tmp_path):
    monkeypatch.setenv('DATA_DIR', str(tmp_path))
    monkeypatch.delenv('DATABASE_URL', raising=False)
    try:
        db.init_db()
        assert (tmp_path / 'house_of_decks.db').exists()
        with db.session_scope() as session:
            assert session.exec(text('SELECT count(*) FROM gametable')).one() == (0,)
    finally:
        monkeypatch.undo()
        db.init_db()  # back to the suite's database


def test_storage_secret_is_generated_once_and_kept(monkeypatch, tmp_path):
    monkeypatch.setenv('DATA_DIR', str(tmp_path))
    monkeypatch.delenv('STORAGE_SECRET', raising=False)
    first = config.storage_secret()
    assert len(first) >= 40
    assert config.storage_secret() == first
    assert (tmp_path / 'storage_secret').read_text().strip() == first


def test_storage_secret_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv('DATA_DIR', str(tmp_path))
    monkeypatch.setenv('STORAGE_SECRET', 'from-env')
    assert config.storage_secret() == 'from-env'
    assert not (tmp_path / 'storage_secret').exists()


def test_the_collector_is_tuned_at_start(monkeypatch) -> None:
    """What start-up loaded leaves the collector's walks, and a collection waits for 50,000 new
    objects (app.serving.tune_collector: full walks of a crowded server stopped it for 250 ms)."""
    import gc

    from app import serving

    before = gc.get_threshold()
    monkeypatch.setenv('HOD_GC_THRESHOLDS', '40000,15,8')
    try:
        gc.unfreeze()
        serving.tune_collector()
        assert gc.get_threshold() == (40000, 15, 8) and gc.get_freeze_count() > 0
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
    monkeypatch.delenv('HOD_GC_THRESHOLDS')
    assert serving.collector_thresholds() == (50000, 20, 10)


def test_socket_compression_is_a_setting_handed_to_uvicorn(monkeypatch) -> None:
    """HOD_WS_DEFLATE turns permessage-deflate on a page's socket on (1); it is off by default (it
    cost memory and CPU per socket for bytes no connection misses); uvicorn gets it."""
    from app import serving

    monkeypatch.delenv('HOD_WS_DEFLATE', raising=False)
    assert serving.uvicorn_settings()['ws_per_message_deflate'] is False
    monkeypatch.setenv('HOD_WS_DEFLATE', '0')
    assert serving.uvicorn_settings()['ws_per_message_deflate'] is False
    monkeypatch.setenv('HOD_WS_DEFLATE', '1')
    assert serving.uvicorn_settings()['ws_per_message_deflate'] is True


async def test_a_full_collection_comes_every_period_and_frees_dropped_cycles(monkeypatch) -> None:
    """Every period (HOD_GC_EVERY seconds; 0, the default: never) the server walks every object, so
    that the cycles its screens drop are freed without waiting for Python's own rule: here that rule
    is off altogether, and a cycle dropped during a period is freed at its end."""
    import gc
    import weakref

    from app import serving

    class Cycle:
        def __init__(self) -> None:
            self.itself = self

    class Stop(Exception):
        pass

    kept = {'old': Cycle()}   # alive through the first walk
    old = weakref.ref(kept['old'])
    periods: list[float] = []
    old_gone: list[bool] = []   # after each walk

    async def sleep(seconds: float) -> None:   # the server's clock: each call is one period gone by
        periods.append(seconds)
        if len(periods) > 1:
            old_gone.append(old() is None)
        if len(periods) == 2:
            kept.clear()
        if len(periods) == 3:
            raise Stop

    monkeypatch.setenv('HOD_GC_EVERY', '300')
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        with pytest.raises(Stop):
            await serving.collect_regularly(sleep=sleep)
    finally:
        if was:
            gc.enable()
    assert periods == [300.0] * 3 and old_gone == [False, True]
    monkeypatch.delenv('HOD_GC_EVERY')
    assert serving.collection_period() == 0
    await serving.collect_regularly(sleep=sleep)   # returns at once: no period, no walk
    assert len(periods) == 3
