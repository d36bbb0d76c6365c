"""A room's strip over the table: the turn clock, the reactions people send, who the count still
waits for, how many watch a public table, and (for people) the reaction buttons. Its row is
reserved: nothing below it moves."""
from __future__ import annotations

from html import escape

from nicegui import ui

from app.engine.protocol import IllegalAction
from app.i18n import counted, names_list, t
from app.tables.room import REACTIONS
from components.controls import action_button, icon_html
from components.table_parts import refusal_text


def waiting_words(names: list[str]) -> str:
    """Who a room's count still waits for, as a sentence ("Esperando a que siga Luis.")."""
    return t('room.count_waiting' + ('.one' if len(names) == 1 else ''), names=names_list(names))


class RoomStrip:
    """Mixed into ``TableScreen``: it uses the screen's ``port``, ``snap``, ``seat``, ``names``,
    ``spectator``, ``seat_testid``, ``parse_card``, ``speaking`` and ``refused``."""

    def _room_strip(self) -> None:
        """At a room: the turn clock, the reactions people send, who the count waits for, and
        (for people) the reaction buttons. Its row is reserved: nothing below it moves."""
        self.room_view = ui.html('', sanitize=False).classes('w-full hod-room-strip').mark('room-strip')
        if self.spectator:
            return
        with ui.row().classes('w-full justify-center gap-1'):
            for key in REACTIONS:
                action_button(t(f'reaction.{key}'), 'reaction', self.speaking(lambda key=key: self._react(key)),
                              tone='flat').classes('hod-reaction-button').props(f'data-reaction="{key}"')

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
        for seat, key, at in room.reactions:
            parts.append(f'<span class="hod-bubble" data-testid="reaction-shown" data-seat="{seat}" '
                         f'data-pin="{self.seat_testid}" data-at="{at}">'
                         f'<b>{escape(self.names[seat])}:</b> {escape(t(f"reaction.{key}"))}</span>')
        return f'<div class="flex flex-wrap items-center justify-center gap-2">{"".join(parts)}</div>'
