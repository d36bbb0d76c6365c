"""What a monitor and a load balancer read (app.health): /metrics, parsed by prometheus_client's own
parser, counts a seeded rated game and a daily try as they were played (clicks and their server
time, the computers' think time, saves, tables by game and phase, pages connected, rated games,
daily tries) and answers only loopback addresses, or a token's bearer when HOD_METRICS_TOKEN is
set; /healthz answers, /readyz says whether the database answers and is migrated; the event loop's
lag and the database's errors are counted."""
from __future__ import annotations

from collections import defaultdict

import httpx
import pytest
from nicegui import app
from nicegui.testing import User
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from test_daily import CHINCHON, person, play_out as play_daily
from test_fair_play import two_at_a_quick_match
from test_public_tables import play_out

from app import health, metrics
from app.daily import tries
from app.tables.registry import open_table
from models.db import make_engine, session_scope

pytestmark = pytest.mark.usefixtures('fresh_accounts')

NAMED = ('hod_people_connected', 'hod_clicks', 'hod_click_seconds', 'hod_think_seconds', 'hod_saves',
         'hod_socket_connects', 'hod_socket_drops', 'hod_event_loop_lag_seconds', 'hod_database_errors',
         'hod_rated_games', 'hod_daily_tries', 'hod_tables')


def parsed(body: str) -> tuple[set[str], dict[tuple, float]]:
    """The metric families' names, and every sample by (name, labels)."""
    families, samples = set(), defaultdict(float)
    for family in text_string_to_metric_families(body):
        families.add(family.name)
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return families, samples


async def scrape(client: httpx.AsyncClient, **headers: str) -> httpx.Response:
    return await client.get(health.METRICS_PATH, headers=headers)


def from_address(address: str) -> httpx.AsyncClient:
    """A client of the site that connects from this address."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 40000)), base_url='http://hod')


async def test_a_rated_game_and_a_daily_try_are_counted_as_they_were_played(user: User, create_user) -> None:
    families, before = parsed((await scrape(user.http_client)).text)
    assert set(NAMED) <= families and all(name.startswith('hod_') for name in families)
    table, ana, luis, _ = await two_at_a_quick_match(user, create_user)
    await play_out(table)
    daily, _ = tries.start_try(CHINCHON, person('Ana', ana))
    await play_daily(open_table(daily.table_id))
    response = await scrape(user.http_client)
    assert response.status_code == 200 and response.headers['content-type'].startswith('text/plain')
    _, after = parsed(response.text)

    def grew(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after[key] - before.get(key, 0.0)

    clicks = grew('hod_clicks_total', game='chinchon', outcome='done')
    assert clicks >= 10   # both people's draws and discards, to a game's end
    assert grew('hod_click_seconds_count', game='chinchon') == clicks + grew('hod_clicks_total', game='chinchon',
                                                                              outcome='refused')
    assert 0 < grew('hod_click_seconds_sum', game='chinchon') < clicks   # milliseconds each, not seconds
    assert grew('hod_think_seconds_count', game='chinchon', level='hard') > 0   # the daily's computers
    assert grew('hod_saves_total', outcome='ok') > 0 and grew('hod_saves_total', outcome='failed') == 0
    assert grew('hod_rated_games_total', game='chinchon') == 1
    assert grew('hod_daily_tries_total', game='chinchon', kind='ranked') == 1
    assert after[('hod_tables', (('game', 'chinchon'), ('phase', 'over')))] >= 2
    assert after[('hod_people_connected', ())] >= 2 and grew('hod_socket_connects_total') >= 2


async def test_metrics_answer_a_local_address_or_the_tokens_bearer_and_nobody_else(
        user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    async with from_address('127.0.0.1') as local, from_address('203.0.113.7') as remote:
        assert (await scrape(local)).status_code == 200
        assert (await scrape(remote)).status_code == 404
        monkeypatch.setenv('HOD_METRICS_TOKEN', 's3cret-token')
        assert (await scrape(remote, authorization='Bearer s3cret-token')).status_code == 200
        assert (await scrape(remote, authorization='Bearer wrong')).status_code == 404
        assert (await scrape(local)).status_code == 404   # with a token, being local is not enough
        assert 'hod_' not in (await scrape(remote)).text


async def test_health_answers_and_readiness_follows_the_database(user: User, tmp_path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert (await user.http_client.get(health.HEALTH_PATH)).json() == {'status': 'ok'}
    assert (await user.http_client.get(health.READY_PATH)).status_code == 200
    unmigrated = make_engine(f'sqlite:///{tmp_path / "new.db"}')   # answers, but no migration ran on it
    monkeypatch.setattr(health, 'get_engine', lambda: unmigrated)
    ready = await user.http_client.get(health.READY_PATH)
    assert ready.status_code == 503 and ready.json()['database'] == 'migrations pending'
    unreachable = make_engine(f'sqlite:///{tmp_path / "no-such-folder" / "site.db"}')
    monkeypatch.setattr(health, 'get_engine', lambda: unreachable)
    ready = await user.http_client.get(health.READY_PATH)
    assert ready.status_code == 503 and ready.json()['database'] == 'unreachable'
    assert (await user.http_client.get(health.HEALTH_PATH)).status_code == 200   # the process still answers


async def test_the_event_loop_lag_is_how_late_the_loop_woke() -> None:
    now = [100.0]

    async def late_sleep(seconds: float) -> None:   # a loop busy for a quarter of a second more
        now[0] += seconds + 0.25

    await health.watch_loop_lag(1.0, sleep=late_sleep, now=lambda: now[0], looks=1)
    assert metrics.REGISTRY.get_sample_value('hod_event_loop_lag_seconds') == pytest.approx(0.25)


def test_an_error_of_the_database_is_counted(database: str) -> None:
    def errors() -> float:
        return sum(sample.value for family in metrics.REGISTRY.collect() if family.name == 'hod_database_errors'
                   for sample in family.samples if sample.name.endswith('_total'))
    before = errors()
    with pytest.raises(SQLAlchemyError):
        with session_scope() as session:
            session.exec(text('SELECT * FROM no_such_table'))
    assert errors() == before + 1
