"""The site as one process: ``build()`` makes it (database, pages, what runs at start and stop),
``serve()`` listens (HOST/PORT from the environment, default :8080).

Three ways in, one site: ``python main.py`` in a checkout, the ``house-of-decks`` command that an
install puts on PATH (``main()``), and ``python -m app.site``, which the cluster starts each of its
processes with. NiceGUI's simulated user runs main.py afresh for every test after clearing its
routes, so the building is a function to call again, not what importing this module does. The
process pool's workers (spawn) run the parent's main module again: from the command or ``-m``
they only import this one and build nothing; under main.py they build as they always did.
"""
from __future__ import annotations

import os

from app import config, security


def build() -> None:
    security.private_files()   # before anything is written: the secret, SQLite and NiceGUI's storage are 0600
    # NiceGUI keeps app.storage.user on disk, and reads where when it is first imported: in the data folder
    os.environ.setdefault('NICEGUI_STORAGE_PATH', str(config.data_dir() / 'nicegui'))

    from nicegui import app, run

    from app import cluster, health, limits, logs, serving, sockets
    from app.pages import register_pages
    from app.tables import registry
    from app.tables.registry import keep_tidy, save_all
    from app.tables.services import ThreadWriter
    from models.db import get_engine, init_db

    init_db()
    if get_engine().dialect.name != 'sqlite':
        # a save to PostgreSQL is a round trip: it waits on a thread, and the loop serves the screens
        registry.configure(writer=ThreadWriter())
        # several processes may share it: the deal limits are counted there, not in each process
        limits.count_in_database()
    register_pages()
    health.install()            # /metrics for a monitor, /healthz and /readyz for a load balancer
    security.install()          # security headers on every response; idle browsers' storage forgotten
    logs.install()              # what a page's socket (or its failures) may write to the log: a few short lines
    sockets.install()           # a page's events from its own sockets only, a budget per socket
    # the computer players think in worker processes (Table._bot_action): started fresh, as NiceGUI
    # advises, not forked from a server that runs threads
    run.process_pool_start_method = 'spawn'
    app.on_startup(keep_tidy)   # closes tables left alone for 30 days, now and every few hours
    app.on_startup(serving.tune_collector)   # what start-up loaded leaves the collector's walks; they come rarely
    app.on_startup(serving.collect_regularly)   # full walks on a clock, if HOD_GC_EVERY asks for them
    app.on_shutdown(save_all)
    cluster.install()          # one of several processes behind nginx (python -m app.cluster); else nothing


def serve() -> None:
    from nicegui import app, ui

    from app import installable, logs, serving
    from app.pages.not_found import not_found_page

    app.on_startup(lambda: print(f'House Of Decks: {config.public_url()}', flush=True))
    ui.run(
        not_found_page,   # NiceGUI renders it for every address no page answers
        host=config.host(),
        port=config.port(),
        title='House Of Decks',
        favicon=installable.FAVICON,   # the app's own icon, also at /favicon.ico
        storage_secret=config.storage_secret(),
        reload=False,
        show=False,
        show_welcome_message=False,
        tailwind=False,   # no compiler in the page: app/static/utilities.css holds the classes (app/stylesheet.py)
        **serving.uvicorn_settings(),   # bounds on slow, idle and too many connections
        **({'log_config': json_logs} if (json_logs := logs.log_config(config.log_format())) else {}),
    )


def main() -> None:
    build()
    serve()


if __name__ == '__main__':
    main()
