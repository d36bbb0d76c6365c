"""One server process among several behind nginx (``python -m app.cluster`` starts them all).

nginx serves each process under its own path prefix (``/w/1``, ``/w/2``...): it strips the prefix
and names it in ``X-Forwarded-Prefix``, from which NiceGUI builds the page's scripts and its
socket.io path, so a page and its socket always reach the same process. Here, in every request:

- a table's address (``/table/<id>``, an invite link ``/room/<id>/<secret>``) is served by the
  process that holds the table's lease (app.tables.lease): any other sends the browser there, and
  claims the table first if nobody live holds it;
- any other page is served by whichever process nginx picked, under that process's own prefix;
- a request that arrives under another process's prefix came through nginx's fallback (that
  process did not answer): a table of that process is taken over at once, without waiting for
  its lease to run out (the lease's epoch fences the old holder out, should it be alive).

``install`` does nothing unless HOD_PREFIX names this process's prefix: ``python main.py`` alone
stays one process with no leases.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.tables.lease import LeasedStore

PREFIX_VARIABLE = 'HOD_PREFIX'
PREFIX_PATTERN = re.compile(r'^/w/[0-9]+$')


def own_prefix() -> str | None:
    prefix = os.environ.get(PREFIX_VARIABLE)
    if prefix is not None and not PREFIX_PATTERN.match(prefix):
        raise SystemExit(f'{PREFIX_VARIABLE} must look like /w/1, not {prefix!r}')
    return prefix


def install() -> 'LeasedStore | None':
    """Called as the site is built (app.site): with HOD_PREFIX set, this process plays only the
    tables it leases and routes every request as above. Returns the store (None: a single process)."""
    prefix = own_prefix()
    if prefix is None:
        return None
    from nicegui import app

    from app.cluster.routing import ProcessRouting
    from app.tables import registry
    from app.tables.lease import LeasedStore, keep_leases

    store = LeasedStore(prefix)
    registry.configure(store=store)
    app.add_middleware(ProcessRouting, store=store)
    app.on_startup(lambda: keep_leases(store))
    app.on_shutdown(store.release_all_off_loop)   # after save_all (registered first): the tables are saved
    return store
