"""What the site counts for a monitor, through ``prometheus_client`` (read at /metrics, app.health).

The metric objects live here, below every other module (this one imports nothing of the site), so
that the table, the saves, the database and the daily deal can count what they do where they do
it. Like logging's loggers they are the process's own, not game state: every name starts with
``hod_``. Under several processes (``python -m app.cluster``) each process counts its own.
"""
from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, disable_created_metrics

# a click is served in milliseconds; a computer thinks from a millisecond (easy) to a few seconds
CLICK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

# the site's own registry, not the library's default one (whose process and gc metrics have no hod_
# prefix): the process's CPU, memory and open files as hod_process_*
REGISTRY = CollectorRegistry()
disable_created_metrics()   # no hod_*_created series beside each counter: nothing a monitor here reads
ProcessCollector(namespace='hod', registry=REGISTRY)

PEOPLE = Gauge('hod_people_connected', 'Pages connected to this process now (one per open tab)',
               registry=REGISTRY)
CLICKS = Counter('hod_clicks', "People's actions at tables, by game and outcome (done or refused)",
                 ['game', 'outcome'], registry=REGISTRY)
CLICK_SECONDS = Histogram('hod_click_seconds', 'Server time of an action at a table: applied, every screen updated',
                          ['game'], buckets=CLICK_BUCKETS, registry=REGISTRY)
THINK_SECONDS = Histogram('hod_think_seconds', "A computer's think time for one move, by game and level",
                          ['game', 'level'], buckets=THINK_BUCKETS, registry=REGISTRY)
SAVES = Counter('hod_saves', "Tables' saves to the database, by outcome (ok, failed, lost to another process)",
                ['outcome'], registry=REGISTRY)
SOCKET_CONNECTS = Counter('hod_socket_connects', "Pages' sockets connected (again, after a drop, too)",
                          registry=REGISTRY)
SOCKET_DROPS = Counter('hod_socket_drops', "Pages' sockets gone (tab closed, network lost)", registry=REGISTRY)
LOOP_LAG = Gauge('hod_event_loop_lag_seconds', 'How late the event loop ran a timer, at the last look',
                 registry=REGISTRY)
DATABASE_ERRORS = Counter('hod_database_errors', 'Errors the database driver raised, by kind', ['kind'],
                          registry=REGISTRY)
RATED_GAMES = Counter('hod_rated_games', 'Rated games ended, by game', ['game'], registry=REGISTRY)
DAILY_TRIES = Counter('hod_daily_tries', "The daily deal's tries started, by game and kind (ranked, practice)",
                      ['game', 'kind'], registry=REGISTRY)
