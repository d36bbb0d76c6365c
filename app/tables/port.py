"""The commands one screen may give its table, for one seat (boardgame.io's client: moves out,
state in).

A screen holds a ``SeatPort`` and the latest ``Snapshot`` it was sent; it never reads the Table.
Every command that a screen of that seat could send is here, each checked by the table as if it
came from a crafted websocket message (a foreign seat, a stale version, an illegal action are
refused with ``IllegalAction`` and change nothing). The table's screens hear of a step after the
command that made it has returned (or after a ``command()`` block), through ``watch``.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from app.tables import registry
from app.tables.room import SPECTATOR
from app.tables.seats import ROOM_BOT_NAMES
from app.tables.snapshot import Snapshot

if TYPE_CHECKING:
    from app.tables.table import Table


class SeatPort:
    def __init__(self, table: 'Table', seat: int) -> None:
        self._table = table
        self.seat = seat

    @property
    def table_id(self) -> str:
        return self._table.id

    @property
    def spectator(self) -> bool:
        return self.seat == SPECTATOR

    def command(self) -> AbstractContextManager[None]:
        """A screen's command runs inside: the table's screens, this one included, hear of its
        steps once the block has ended (the screen has done what follows its own action)."""
        return self._table.telling_later()

    def snapshot(self) -> Snapshot:
        return self._table.snapshot(self.seat)

    def watch(self, subscriber: Callable[[Snapshot], None], *, moved: Callable[[], None] | None = None) \
            -> Callable[[], None]:
        """Receive this seat's snapshot after every step; the call returned ends it (when the
        page is gone). ``moved()`` is called if this process loses the table to another one."""
        return registry.watch(self._table, self.seat, subscriber, moved=moved)

    def present(self, connected: bool) -> None:
        """This screen's page connected (True) or lost its socket (False): before a public
        table's start, a seat is held only while one of its pages is there."""
        self._table.public.screen(self.seat, self, connected)

    def on_saved(self, listener: Callable[[int], None]) -> Callable[[], None]:
        """``listener(version)`` each time the table has been written."""
        return self._table.on_saved(listener)

    # the game --------------------------------------------------------------------------
    def act(self, action: Any, version: int) -> None:
        with self._table.telling_later():
            self._table.act(self.seat, action, version)

    def arrange(self, order: list[str]) -> None:
        """How this person arranged their hand (card codes): every screen of theirs keeps it."""
        with self._table.telling_later():
            self._table.arrange(self.seat, order)

    def resume(self, version: int) -> None:
        """This person has read the count: play on."""
        with self._table.telling_later():
            self._table.resume_after_count(self.seat, version)

    def next_game(self, version: int) -> None:
        with self._table.telling_later():
            self._table.next_game(self.seat, version)

    async def hint(self) -> Any | None:
        """The normal computer player's choice for this person now, or None."""
        return await self._table.hint(self.seat)

    # a room ------------------------------------------------------------------------------
    def react(self, key: str) -> None:
        with self._table.telling_later():
            self._table.reactions.send(self.seat, key)

    def start(self, version: int) -> None:
        """The room's creator starts it: the empty seats go to computers at the room's level."""
        with self._table.telling_later():
            if self._table.public.on:   # its seats are closed in the database first (app.lobby)
                self._table.public.start_now(self.seat, version)
            else:
                self._table.seating.start(self.seat, version, ROOM_BOT_NAMES, self._table.options.level)

    def leave_seat(self) -> bool:
        """Give up this seat at a public table before its start (another person may take it)."""
        with self._table.telling_later():
            return self._table.public.release(self.seat)

    def free_seat(self, seat: int, version: int) -> None:
        """The room's creator frees a person's seat before the start."""
        with self._table.telling_later():
            self._table.seating.free_seat(self.seat, seat, version)
