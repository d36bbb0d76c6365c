"""A room before its start: the invite link, who has joined, and (for its creator) freeing a
seat and starting the game. Every screen of the room is redrawn as people join; when the game
starts, each one turns into its table screen in place."""
from __future__ import annotations

import time
from collections.abc import Callable
from html import escape

from nicegui import ui

from app.engine.protocol import IllegalAction
from app.i18n import language_scope, current_language, t
from app.tables.port import SeatPort
from app.tables.snapshot import SeatLine, Snapshot
from components.table.follow import follow
from components.table_parts import refusal_text


class WaitingRoom:
    def __init__(self, port: SeatPort, *, invite_url: str, on_started: Callable[[], None]) -> None:
        self.port, self.seat, self.invite_url, self.on_started = port, port.seat, invite_url, on_started
        self.snap: Snapshot = port.snapshot()
        self.language = current_language()
        self.leave: Callable[[], None] | None = None
        self.ticker: ui.timer | None = None          # a quick match's countdown, once a second
        self.countdown: ui.label | None = None
        self.fill_deadline = 0.0

    def build(self) -> None:
        self.box = ui.column().classes('w-full max-w-xl self-center gap-3') \
            .props(f'data-testid="waiting-room" data-table="{self.port.table_id}"').mark('waiting-room')
        self._draw()
        if self.snap.room.quick:   # outside the box, which every redraw empties
            self.ticker = ui.timer(1.0, self._tick)
        self.leave = self.port.watch(self._changed, moved=follow(self.port.table_id))
        client = ui.context.client
        client.on_delete(self._stop)   # not at a dropped socket: the browser reconnects to this page
        # ...but a seat is held before the start only while its page is there: the table hears of
        # every socket that comes and goes, and frees a seat whose pages stay gone (app.tables.public)
        client.on_connect(lambda: self._present(True))
        client.on_disconnect(lambda: self._present(False))

    def _present(self, connected: bool) -> None:
        if self.leave is not None:   # still this seat's screen
            self.port.present(connected)

    def _stop(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
            self.ticker = None
        if self.leave is not None:
            self.port.present(False)
            self.leave()
            self.leave = None

    def _changed(self, snapshot: Snapshot) -> None:
        self.snap = snapshot
        if not snapshot.waiting:   # started: this screen becomes the table
            self._stop()
            self.on_started()
            return
        if 0 <= self.seat < len(snapshot.seats) and snapshot.seats[self.seat].is_empty:
            self._stop()   # freed: whoever sits there next is not shown on this screen
        self._draw()

    def _draw(self) -> None:
        self.drawn_version = self.snap.version   # what the creator's clicks were chosen on
        self.box.clear()
        with language_scope(self.language), self.box:
            self._contents()

    def _contents(self) -> None:
        snap, room = self.snap, self.snap.room
        mine = 0 <= self.seat < len(snap.seats)
        if mine and snap.seats[self.seat].is_empty:   # the creator freed this seat, or its page was gone
            ui.label(t('quick.seat_freed' if room.public else 'room.freed')).classes('text-lg') \
                .props('data-testid="freed"')
            if room.public:
                ui.link(t('quick.button'), snap.game.play_path).classes('font-semibold')
            return
        with ui.card().classes('w-full gap-3'):
            ui.label(t('quick.waiting_title' if room.quick else 'room.title', game=t(snap.game.name_key))) \
                .classes('text-2xl font-bold').props('role=heading aria-level=1')
            if room.public:
                self._public_lines()
            elif mine:
                ui.label(t('room.invite_help')).classes('text-gray-700')
                with ui.row().classes('w-full items-center gap-2 no-wrap'):
                    ui.label(self.invite_url).classes('flex-1 font-mono text-sm break-all bg-gray-100 rounded p-2') \
                        .props('data-testid="invite-link"').mark('invite-link')
                    ui.button(t('room.copy'), icon='content_copy', on_click=self._copy) \
                        .props('unelevated no-caps data-testid="copy-invite"')
            clock = f'{room.clock} s' if room.clock else t('room.clock.0')
            ui.label(t('room.clock_is', clock=clock)).classes('text-sm text-gray-700')
            with ui.column().classes('w-full gap-1').props('role=list'):
                for index, seat in enumerate(snap.seats):
                    self._seat_row(index, seat)
            creator = snap.seats[room.creator].name
            if room.quick and mine:   # nobody owns a quick match: anybody seated may start it now
                ui.button(t('quick.start_now'), icon='smart_toy', on_click=self._start) \
                    .props('outline size=lg no-caps data-testid="start-now"').classes('w-full').mark('start-now')
            if room.public and mine:
                ui.button(t('quick.leave'), icon='logout', on_click=self._leave) \
                    .props('flat no-caps data-testid="leave-seat"').classes('self-center').mark('leave-seat')
            elif room.quick:
                pass
            elif self.seat == room.creator:
                empty = len(room.free_seats)
                if empty:
                    ui.label(t('room.empty_go_to_computers', count=empty)).classes('text-sm text-gray-700')
                ui.button(t('room.start'), icon='play_arrow', on_click=self._start) \
                    .props('unelevated size=lg no-caps data-testid="start-room"').classes('w-full').mark('start-room')
            else:
                ui.label(t('room.waiting_for', name=creator)).classes('text-gray-700') \
                    .props('data-testid="waiting-for-start"')

    def _public_lines(self) -> None:
        """A public table: where it is listed, whether it is rated, and a quick match's countdown."""
        room = self.snap.room
        ui.label(t('room.public_listed') + ' ' + t('room.rated_is' if room.rated else 'room.unrated_is')) \
            .classes('text-gray-700').props('data-testid="public-note"')
        if room.fill_left_ms is not None:
            self.fill_deadline = time.monotonic() + room.fill_left_ms / 1000
            self.countdown = ui.label(self._countdown_text()).classes('text-lg font-semibold') \
                .props('data-testid="fill-countdown" aria-live="polite"').mark('fill-countdown')

    def _countdown_text(self) -> str:
        left = max(0, round(self.fill_deadline - time.monotonic()))
        with language_scope(self.language):
            return t('quick.countdown', seconds=left)

    def _tick(self) -> None:
        if self.snap.waiting and self.countdown is not None:
            self.countdown.set_text(self._countdown_text())

    def _seat_row(self, index: int, seat: SeatLine) -> None:
        if seat.is_person and seat.is_empty and self.snap.room.public:
            who, note = t('room.free_seat'), t('quick.free_seat_note')
        elif seat.is_person and seat.is_empty:
            who, note = t('room.free_seat'), t('room.free_seat_note')
        elif seat.is_person:
            who = seat.name + (f' ({t("room.you")})' if index == self.seat else '')
            note = t('room.creator') if index == self.snap.room.creator and not self.snap.room.quick \
                else t('room.joined')
            shown = self.snap.room.ratings[index] if index < len(self.snap.room.ratings) else None
            if shown is not None:
                who += f' · {shown[0]}{"?" if shown[1] else ""}'
        else:
            who, note = seat.name, t('room.computer', level=t(f'level.{seat.level or "normal"}'))
        with ui.row().classes('w-full items-center gap-2 border-b border-gray-200 py-1') \
                .props(f'data-testid="room-seat" data-seat="{index}" role=listitem'):
            ui.html(f'<span class="font-semibold">{index + 1}. {escape(who)}</span> '
                    f'<span class="text-sm text-gray-600">{escape(note)}</span>', sanitize=False).classes('flex-1')
            if self.seat == self.snap.room.creator and seat.is_person and not seat.is_empty \
                    and index != self.seat and not self.snap.room.public:   # a public seat stays taken
                ui.button(t('room.free'), on_click=lambda i=index: self._free(i)) \
                    .props(f'flat dense no-caps data-testid="free-seat" data-seat="{index}"')

    def _copy(self) -> None:
        ui.clipboard.write(self.invite_url)
        ui.notify(t('room.copied'), type='positive')

    def _free(self, index: int) -> None:
        self._attempt(lambda: self.port.free_seat(index, self.drawn_version))

    def _leave(self) -> None:
        with language_scope(self.language):
            if self.port.leave_seat():
                self._stop()
                ui.notify(t('quick.left'))
                ui.navigate.to(self.snap.game.play_path)

    def _start(self) -> None:
        self._attempt(lambda: self.port.start(self.drawn_version))

    def _attempt(self, change: Callable[[], None]) -> None:
        if self.port.spectator:
            return
        try:
            with language_scope(self.language):
                change()
        except IllegalAction as refusal:
            with language_scope(self.language):
                ui.notify(refusal_text(refusal), type='warning')
