"""Several server processes behind nginx, in real browsers: `python -m app.cluster --processes 2`
on the tests' own PostgreSQL. Ana makes a room at whichever process nginx picks; Luis opens the
invite link under the other process's prefix and is sent to the table's owner; both play one
table and see each other's moves. Then the owner is killed (SIGKILL) mid-hand: both screens come
back, at the same position, served by the other process, which took the table over, and play on.
Before that, two people who ask for a quick match at different processes meet at one table (and
the processes' metrics, one scrape of each, add up to that one table). Both
tests run on one deployment, started once for the module; the one that kills a process runs last."""
from __future__ import annotations

import os
import re
import signal
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import Browser, Page, expect
from prometheus_client.parser import text_string_to_metric_families

from cluster import Cluster, running_cluster
from serve import DEALS_ROUTE
from table_browser import saved, version
from test_chinchon_browser import hand, phase
from test_rooms_browser import POLL, step

TABLE_ADDRESS = re.compile(r'(/w/\d+)/table/([A-Za-z0-9_-]{16})$')
FAILOVER_MS = 10000   # the bound: a killed owner's screens are back within 10 s


@pytest.fixture(scope='module')
def one_cluster(request: pytest.FixtureRequest, postgres) -> Cluster:
    """One deployment for the module's tests (its start is most of their cost): the quick-match
    test comes first, the test that kills a process last, so no test meets a process restarted."""
    with running_cluster(postgres.create_database(), request.node.nodeid) as running:
        yield running


@pytest.fixture
def cluster(request: pytest.FixtureRequest, one_cluster: Cluster) -> Cluster:
    """The module's cluster, its processes dealing from this test's own name (a failure replays)."""
    query = urllib.parse.urlencode({'seed': request.node.nodeid})
    for prefix in one_cluster.pids:
        with urllib.request.urlopen(urllib.request.Request(f'{one_cluster.url}{prefix}{DEALS_ROUTE}?{query}',
                                                           method='POST'), timeout=10) as response:
            assert response.status == 200
    return one_cluster


def one_move(pages: list[Page]) -> None:
    """Whoever has a decision makes it, and every page shows the table's new version."""
    before = version(pages[0])
    for _ in range(10):   # bounded: a count waits for both people to go on
        if any(step(page, {}) for page in pages) and version(pages[0]) != before:
            break
    for page in pages:
        page.wait_for_function(f"document.querySelector('[data-testid=table]').dataset.version !== '{before}'",
                               polling=POLL)
    assert len({version(page) for page in pages}) == 1


def tables_held(cluster: Cluster, prefix: str) -> int:
    """The Ronda Robada tables in play that the process at this prefix says it holds (its /metrics,
    through nginx from this machine: a local address)."""
    with urllib.request.urlopen(f'{cluster.url}{prefix}/metrics', timeout=10) as response:
        families = text_string_to_metric_families(response.read().decode())
        return int(sum(sample.value for family in families if family.name == 'hod_tables' for sample in family.samples
                       if sample.labels == {'game': 'ronda-robada', 'phase': 'playing'}))


def test_two_people_who_enter_through_different_processes_are_matched_by_quick_match(browser: Browser,
                                                                                    cluster: Cluster) -> None:
    """The matching is a transaction in the shared database: Luis, at the process that does not
    hold Ana's waiting table, is seated at it and sent to its owner."""
    contexts = [browser.new_context(base_url=cluster.url, locale='es-ES') for _ in range(2)]
    try:
        pages = [context.new_page() for context in contexts]
        tables = []
        for page, prefix, name in zip(pages, sorted(cluster.pids), ('Ana', 'Luis')):
            page.goto(f'{cluster.url}{prefix}/play/ronda-robada')
            page.get_by_test_id('quick-card').get_by_label('El nombre con el que juegas').fill(name)
            page.get_by_test_id('quick-match').click()
            page.wait_for_url(TABLE_ADDRESS)
            tables.append(TABLE_ADDRESS.search(page.url).groups())
        (owner, table_id), (luis_at, luis_table) = tables
        assert luis_table == table_id and luis_at == owner   # one table, served by the process that holds it
        for page in pages:
            expect(page.get_by_test_id('table')).to_be_visible()   # full and both there: it starts
        expect(pages[0].get_by_test_id('scoreboard')).to_contain_text('Luis')
        # each process counts its own: one scrape of each adds up to the whole, one table in play
        held = {prefix: tables_held(cluster, prefix) for prefix in cluster.pids}
        assert held == {prefix: (1 if prefix == owner else 0) for prefix in cluster.pids}
    finally:
        for context in contexts:
            context.close()


def test_two_browsers_play_one_table_through_two_processes_and_the_owner_dies(browser: Browser,
                                                                              cluster: Cluster) -> None:
    contexts = [browser.new_context(base_url=cluster.url, locale='es-ES') for _ in range(2)]
    try:
        ana, luis = (context.new_page() for context in contexts)
        ana.goto('/play/chinchon?new=true')   # any process: nginx picks, the process keeps the browser
        ana.get_by_role('button', name='2', exact=True).click()
        ana.get_by_role('button', name='50 (partida corta)').click()
        ana.get_by_role('button', name='Al instante').click()
        ana.get_by_test_id('friends').click()
        ana.get_by_label('Tu nombre en la mesa').fill('Ana')
        ana.get_by_test_id('start').click()
        link = ana.get_by_test_id('invite-link').text_content()
        owner, table_id = TABLE_ADDRESS.search(ana.url).groups()
        other = next(prefix for prefix in cluster.pids if prefix != owner)

        # the invite link entered through the process that does not hold the table
        luis.goto(link.replace(cluster.url, cluster.url + other))
        expect(luis).to_have_url(re.compile(f'{owner}/room/{table_id}/'))
        luis.get_by_test_id('join-name').fill('Luis')
        luis.get_by_test_id('join').click()
        expect(ana.get_by_test_id('room-seat').filter(has_text='Luis')).to_be_visible()
        ana.get_by_test_id('start-room').click()
        for page in (ana, luis):
            expect(page.get_by_test_id('table')).to_be_visible()
        one_move([ana, luis])

        seen = {id(page): (hand(page), phase(page), version(page)) for page in (ana, luis)}
        saved(ana, version(ana))
        os.kill(cluster.pids[owner], signal.SIGKILL)

        for page in (ana, luis):   # each screen reconnects, through nginx, to the process left
            expect(page).to_have_url(re.compile(f'{other}/table/{table_id}$'), timeout=FAILOVER_MS)
            # the process left took the table over at once: nginx's fallback told it the owner is gone
            expect(page.get_by_test_id('table')).to_have_attribute('data-version', seen[id(page)][2],
                                                                   timeout=FAILOVER_MS)
            assert (hand(page), phase(page), version(page)) == seen[id(page)]
        one_move([ana, luis])    # and the game goes on there
    finally:
        for context in contexts:
            context.close()
