"""A room's strip over the table: the turn clock, the reactions people send, who the count still
waits for, how many watch a public table, and (for people) the reaction buttons. Its row is
reserved: nothing below it moves.

Anybody at the table, a spectator too, may hide another person's reactions from their own
screens: a choice of this browser, kept per table in ``app.storage.user``, and told to nobody."""
from __future__ import annotations

from html import escape

from nicegui import app, ui

from app.engine.protocol import IllegalAction
from app.i18n import counted, names_list, t
from app.tables.room import REACTIONS
from components.controls import action_button, icon_html
from components.table_parts import refusal_text


MUTED_KEY = 'muted'   # app.storage.user: table id -> the seats whose reactions this browser hides
MOST_MUTED_TABLES = 20


def waiting_words(names: list[str]) -> str:
    """Who a room's count still waits for, as a sentence ("Esperando a que siga Luis.")."""
    return t('room.count_waiting' + ('.one' if len(names) == 1 else ''), names=names_list(names))


class RoomStrip:
    """Mixed into ``TableScreen``: it uses the screen's ``port``, ``snap``, ``seat``, ``names``,
    ``spectator``, ``seat_testid``, ``parse_card``, ``speaking``, ``refused``, ``render`` and
    ``user_storage``."""

    def _room_strip(self) -> None:
        """At a room: the turn clock, the reactions people send, who the count waits for, how many
        watch, and the reaction buttons (for people) and the mute menu. Its row is reserved:
        nothing below it moves."""
        # kept: the screen is also drawn from the table's background task
        self.mute_storage = self.user_storage if self.user_storage is not None else app.storage.user
        # the mute menu sits at the end of the strip's own row: no row of its own on a phone, where
        # the reaction buttons fill theirs
        with ui.element('div').classes('w-full flex items-center gap-1'):
            self.room_view = ui.html('', sanitize=False).classes('flex-1 min-w-0 hod-room-strip').mark('room-strip')
            if self._mutable_seats():
                label = t('room.mute_menu')
                # a title, not a tooltip: on a phone a tooltip opens with the menu and covers it
                with ui.button(icon='volume_off').props(f'flat round dense size=sm color=white aria-label="{label}" '
                                                        f'title="{label}" data-testid="mute-menu"').mark('mute-menu'):
                    self.mute_menu = ui.menu().props('data-testid="mute-list"')
                self._mute_items()
        if self.spectator:
            return
        with ui.row().classes('w-full justify-center gap-1'):
            for key in REACTIONS:
                action_button(t(f'reaction.{key}'), 'reaction', self.speaking(lambda key=key: self._react(key)),
                              tone='flat').classes('hod-reaction-button').props(f'data-reaction="{key}"')

    def _mutable_seats(self) -> list[int]:
        """The other people at the table: the seats that may send reactions."""
        return [seat for seat, line in enumerate(self.snap.seats) if line.is_person and seat != self.seat]

    def muted(self) -> set[int]:
        """The seats whose reactions this browser hides at this table (read at every drawing: a
        choice made in another tab of this browser holds here too)."""
        chosen = self.mute_storage.get(MUTED_KEY)
        seats = chosen.get(self.snap.table_id) if isinstance(chosen, dict) else None
        return {seat for seat in seats if isinstance(seat, int)} if isinstance(seats, list) else set()

    def _mute_items(self) -> None:
        self.mute_menu.clear()
        muted = self.muted()
        with self.mute_menu:
            for seat in self._mutable_seats():
                hidden = seat in muted
                words = t('room.unmute' if hidden else 'room.mute', name=self.names[seat])
                ui.menu_item(words, self.speaking(lambda seat=seat: self._switch_mute(seat)), auto_close=False) \
                    .props(f'data-testid="mute" data-seat="{seat}" role="menuitemcheckbox" '
                           f'aria-checked="{str(hidden).lower()}"').mark(f'mute-{seat}')

    def _switch_mute(self, seat: int) -> None:
        seats = sorted(self.muted() ^ {seat})
        chosen = self.mute_storage.get(MUTED_KEY)
        chosen = {table: muted for table, muted in (chosen.items() if isinstance(chosen, dict) else ())
                  if table != self.snap.table_id}
        if seats:   # the latest tables' choices only: the storage does not grow with every table ever muted at
            chosen[self.snap.table_id] = seats
        self.mute_storage[MUTED_KEY] = dict(list(chosen.items())[-MOST_MUTED_TABLES:])
        self._mute_items()
        self.render()

    def _react(self, key: str) -> None:
        try:
            self.port.react(key)
        except IllegalAction as refusal:
            self.refused(refusal_text(refusal, self.parse_card))

    def _room_html(self) -> str:
        room, parts = self.snap.room, []
        if room.clock_seat is not None:
            seat, left = room.clock_seat, room.clock_left_ms
            if seat < 0:
                words = t('room.clock_count')
            elif seat == self.seat:
                words = t('room.clock_you')
            else:
                words = t('room.clock_other', name=self.names[seat])
            parts.append(f'<span class="hod-clock" data-testid="turn-clock" data-left="{left}" data-seat="{seat}">'
                         f'{icon_html("timer")} {escape(words)} <b>{(left + 999) // 1000}</b> s</span>')
        if self.snap.paused and self.snap.ready:
            # the others the count waits for (you see your own "Siguiente mano" button)
            slow = [self.names[seat] for seat in room.count_waits_for if seat != self.seat]
            if slow:
                parts.append(f'<span class="text-sm" data-testid="count-waiting">{escape(waiting_words(slow))}</span>')
        if room.public and room.spectators > 0:   # a room of friends: they know who has the link
            parts.append(f'<span class="hod-watchers" data-testid="spectators" data-count="{room.spectators}">'
                         f'{icon_html("visibility")} {escape(counted("room.spectators", room.spectators))}</span>')
        muted = self.muted()
        for seat, key, at in room.reactions:
            if seat in muted:
                continue
            parts.append(f'<span class="hod-bubble" data-testid="reaction-shown" data-seat="{seat}" '
                         f'data-pin="{self.seat_testid}" data-at="{at}">'
                         f'<b>{escape(self.names[seat])}:</b> {escape(t(f"reaction.{key}"))}</span>')
        return f'<div class="flex flex-wrap items-center justify-center gap-2">{"".join(parts)}</div>'
