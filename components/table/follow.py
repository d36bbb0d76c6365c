"""Where a table's screen goes when this process loses the table to another one (several server
processes behind nginx, app.cluster): to the table's address, which the process that holds the
table now serves, so that nobody plays on a copy that can no longer save."""
from __future__ import annotations

from collections.abc import Callable

from nicegui import ui

def follow(table_id: str) -> Callable[[], None]:
    """For ``port.watch(..., moved=follow(table_id))``, made while building the page (its client)."""
    client = ui.context.client

    def moved() -> None:
        with client:
            ui.navigate.to(f'/table/{table_id}')
    return moved
