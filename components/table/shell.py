"""The table screen shared by every game: one seat's screen of a live Table.

The shell lays out and redraws what every game has: the top bar (hand, rules link, new game), the
other seats, the count-panel slot, the play area, the scoreboard, the hand log and the fair-deal
box, the game-over screen, refusals in words, and the version each action is sent with. A game
supplies only its board (``board`` and ``draw_board``), its count panel, the words of its log
and scoreboard rows, and its seats' details (see ``components/chinchon/table.py``).

A screen knows its table the way a boardgame.io client knows its master: it holds a ``SeatPort``
(the commands its person may give) and receives its seat's ``Snapshot`` after every step, once the
command that made the step has returned. Two tabs, or two people, see the same game.

Four parts of the screen live in modules of their own and are mixed in: what each redraw tells
of the news (``moments.Storytelling``: cards travelling, banners, sounds), the first-game tips
(``tips.Tips``), a room's strip (``room_strip.RoomStrip``) and the game's end with the question
before leaving it (``ending.Ending``).
"""
from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable
from html import escape
from typing import Any

from nicegui import ui

from app.engine.cards import Card
from app.engine.protocol import IllegalAction
from app.i18n import current_language, language_scope, number, t
from app.tables.port import SeatPort
from app.tables.snapshot import Snapshot
from components.card import colour_scope, four_colours
from components.controls import action_button, fold, log_sheet_button, sound_switch
from components.live import GUESS_CSS, Live, Markup
from components.review.links import review_link, table_review_path
from components.seats import NO_MARKS, SEATS_CSS, SeatMarks
from components.table.ending import END_CSS, Ending
from components.table.fair import fair_deal_box, fair_deal_html
from components.table.follow import follow
from components.table.fit import FIT_CSS, action_bar
from components.table.moments import MOMENTS_CSS, Storytelling
from components.table.room_strip import RoomStrip
from components.table.tips import Tips
from components.table_parts import TABLE_CSS, log_pieces, refusal_text, rules_link_html, scoreboard_html


# how long a card takes to travel across the table, per play speed (none at instant speed)
MOTION_MS = {'slow': 600, 'normal': 500, 'fast': 420, 'instant': 0}   # within the pause before the next move
SAVED_QUIET = 1.0   # seconds a save's notice waits for a patch to ride before it goes alone (> normal speed's pause)


class TableScreen(Ending, Storytelling, Tips, RoomStrip, ABC):
    """One seat's screen of a table. Subclasses draw their game's board."""

    seat_testid = 'seat'   # the other seats' boxes: where their cards come and go

    parse_card: Callable[[str], Card]   # the game's card notation, to name cards in refusals
    verify_snippet: dict[str, str]      # per language: Python that rebuilds a deal from its revealed seed

    def __init__(self, port: SeatPort, *, on_new_game: Callable[[], None],
                 storage: dict[str, Any] | None = None) -> None:
        """``storage``: this browser's app.storage.user, when the screen is not built in its request."""
        self.port = port
        self.snap: Snapshot = port.snapshot()   # the latest the table sent this screen
        self.user_storage = storage
        self.seat = port.seat
        self.spectator = port.spectator   # watches the public view: no hand, no actions
        self.on_new_game = on_new_game
        self.notice = ''
        self.shown_version = self.snap.version
        self.built: dict[str, tuple] = {}   # the key each rebuilt part was last drawn for
        self.saved_later: asyncio.TimerHandle | None = None   # the save's notice, sent alone
        # fixed while the page lives (the switch reloads it): the computers' moves are drawn from a
        # background task, which cannot see the browser's request to read its preferred language
        self.language = current_language()
        self.four_colours = four_colours(storage)   # the French deck in two colours or four, per browser
        with language_scope(self.language):
            self.names = self.seat_names()
        self.feminine = [seat.feminine for seat in self.snap.seats]

    def seat_names(self) -> list[str]:
        """Names as this screen's reader sees them: 'You' for their own seat."""
        return [t('table.you') if index == self.seat else (seat.name or t('table.guest'))
                for index, seat in enumerate(self.snap.seats)]

    # building -------------------------------------------------------------------------------
    def build(self) -> None:
        ui.add_css(TABLE_CSS + SEATS_CSS + FIT_CSS + MOMENTS_CSS + END_CSS + GUESS_CSS)
        self.live = Live()
        self.live.motion_ms = MOTION_MS.get(self.snap.options.speed, MOTION_MS['normal'])
        self.last_event = self._last_event()   # the events up to this one are on the screen already
        self.root = ui.element('div').classes('w-full' + (' hod-spectator' if self.spectator else '')) \
            .props('data-testid="table"').mark('table')
        self._tips_choice()
        with language_scope(self.language), colour_scope(self.four_colours):
            self._layout()
        self.render()
        room = self.snap.room
        if not self.spectator and room is not None and room.public and room.rated:
            self._listen_for_leaving()
        unheard = self.port.on_saved(self._show_saved)
        leave = self.port.watch(self.render, moved=follow(self.port.table_id))
        client = ui.context.client
        # only when the page is gone for good: NiceGUI calls its disconnect handlers at every dropped
        # socket too, and a screen that left then would stay frozen after the browser reconnects
        # (its missed updates wait in the outbox meanwhile and are replayed on reconnection).
        # The save listener goes first: leaving saves at once, and this page is gone.
        client.on_delete(unheard)
        client.on_delete(leave)
        client.on_delete(lambda: self.saved_later is not None and self.saved_later.cancel())

    def _layout(self) -> None:
        """Every part is built once and redrawn in place: a move then updates a handful of elements
        instead of rebuilding the table (what keeps a click's answer close to a bare button's).
        The slots' sizes and places are components/table/fit.py's."""
        self.root.classes('hod-fit')
        with self.root, ui.element('div').classes('hod-felt'):
            self._top_bar()
            self.holding_view = ui.html('', sanitize=False).classes('w-full').mark('saving-held')
            if self.snap.room is not None:
                self._room_strip()
            self.seats_view = ui.html('', sanitize=False).classes('w-full').mark('seats')
            self.panel = ui.element('div').classes('w-full hod-panel')
            with ui.element('div').classes('hod-play w-full') as self.play_area:
                self.board()
            self._tips_slot()
            self.banner_view = ui.html('', sanitize=False).classes('hod-banner-slot').mark('banner')
        with self.root, ui.element('div').classes('hod-side'):
            # on a narrow screen the side panels are a sheet over the table, opened from the top bar
            log_sheet_button(t('table.log_close'), 'log-close', 'close').classes('hod-sheet-close')
            # folded or open as the player leaves them
            with fold(t('table.scoreboard'), icon='leaderboard', testid='scoreboard-fold'):
                self.scores = ui.html('', sanitize=False).classes('w-full').mark('scoreboard')
            with fold(t('table.log'), icon='history', testid='log-fold'):
                self.log = ui.html('', sanitize=False).classes('w-full').mark('hand-log')
            with ui.element('div').classes('w-full bg-white rounded px-2'):
                self.fair = fair_deal_box(self.verify_snippet[self.language])

    def action_bar(self, *, two_rows_on_a_phone: bool = False) -> ui.element:
        return action_bar(two_rows_on_a_phone=two_rows_on_a_phone)

    # what the screen shows -------------------------------------------------------------------
    def phase(self, view: Any) -> str:
        """'over', 'count' (a hand's count is on the screen), or the game's own turn phase."""
        if view.outcome is not None:
            return 'over'
        if self.snap.paused:
            return 'count'
        return self.turn_phase(view)

    def render(self, snapshot: Snapshot | None = None) -> None:
        """Redraw from a snapshot the table sent, or from the table as it stands now (a notice, a
        refusal, a switch: no step, but a turn clock has run on meanwhile): what changes on every
        move goes through the live channel (one patch), the rest (count, game over, a new hand) as
        element updates."""
        self.snap = snapshot if snapshot is not None else self.port.snapshot()
        if self.snap.version != self.shown_version:
            self.notice = ''   # a hint or a refusal speaks of the position it was given in
        self.shown_version = self.snap.version
        with language_scope(self.language), colour_scope(self.four_colours):
            self._render(self.snap.view)
        self.live.send()

    def _render(self, view: Any) -> None:
        phase = self.phase(view)
        turn = view.current_seat   # whose turn it is (public), for tests and styles
        self.live.attrs(self.root, {'data-phase': phase, 'data-version': str(self.snap.version),
                                    'data-turn': None if turn is None else str(turn),
                                    'data-saved': str(self.snap.saved_version),
                                    'data-motion-ms': str(self.live.motion_ms),   # a guess's travel (guess.js)
                                    'data-leave-costs': '' if self.leave_costs(phase) else None})
        self.live.html(self.holding_view, self.holding_html())
        game = self.snap.game_number
        self.live.html(self.top, self.shared('top', lambda: self._top_html(view)))
        during_play = phase not in ('count', 'over')
        # during a count the seats would show the next hand (its dealer, its first turn): the count
        # panel speaks of every seat instead
        self.live.html(self.seats_view, self.shared('others', lambda: self.others_html(view)) if during_play else '')
        # a rated game's end draws again once its ratings are in (the last move may come first)
        rated = () if self.snap.room is None else self.snap.room.rating_changes
        panel_key = ('play' if during_play else phase, game, self.hand_number(view), self.went_on(), rated,
                     *self.panel_key(view))
        self.rebuild_when_changed('panel', panel_key, self.panel, lambda: self._panel(view, phase))
        self.play_area.set_visibility(during_play)
        news = self._news()
        if during_play:   # the next hand is already dealt: it shows once the count is read
            self._travel(news)
            self.draw_board(view, phase)
        self._announce(news)
        self._sound(news, phase, view)
        self._draw_tips(view, phase)
        # the side panels go in the same patch (one message per move and screen): of the log,
        # only its new lines
        self.live.html(self.scores, self.shared('scores', lambda: scoreboard_html(
            self.names, self.score_rows(view)[-12:], *self.score_totals(view))))
        self.live.html(self.log, self.shared('log', lambda: log_pieces(self.log_lines())))
        self.live.html(self.fair, self.shared('fair', lambda: fair_deal_html(view.commitment, view.past_deals)))
        if self.snap.room is not None:
            self.live.html(self.room_view, self._room_html())

    def shared(self, part: str, draw: Callable[[], Markup]) -> Markup:
        """A part drawn from the snapshot alone, the same on every screen it is sent to that reads
        it in the same words and colours: drawn by the first of them, reused by the others (the
        spectators of a table, two tabs of one seat). Nothing of this screen's own (a choice, a
        notice, the news since its last redraw) may go into it."""
        key = (part, self.language, self.four_colours, tuple(self.names))
        drawings = self.snap.drawings
        if key not in drawings:
            drawings[key] = draw()
        return drawings[key]

    def _show_saved(self, version: int) -> None:
        """The table has been saved at this version: one attribute (what a test awaits before it
        kills the server, instead of reading the database). It rides the screen's next patch, or
        goes alone once the screen has had none for a moment: a save is not a second message per
        step and screen (the next computer's move usually comes first)."""
        self.live.attrs(self.root, {'data-saved': str(version)})
        if self.saved_later is not None:
            return
        try:
            self.saved_later = asyncio.get_running_loop().call_later(SAVED_QUIET, self._send_saved)
        except RuntimeError:   # saved with no loop running (the server stopping): at once
            self.live.send()

    def _send_saved(self) -> None:
        self.saved_later = None
        self.live.send()   # nothing, when a patch has taken it already

    def others(self) -> list[int]:
        """The other seats in playing order, starting after this one (every seat, for a spectator)."""
        count = len(self.snap.seats)
        if self.spectator:
            return list(range(count))
        return [(self.seat + step) % count for step in range(1, count)]

    def seat_marks(self) -> list[SeatMarks]:
        """What a room tells beside each seat's name: the person's rating at a rated table, a
        computer standing in for them, or that they have gone (no screen open, nobody stands in
        yet). Every game's seats draw these with ``components.seats.marks_html``."""
        room, count = self.snap.room, len(self.snap.seats)
        if room is None:
            return [NO_MARKS] * count
        ratings = room.ratings if room.rated else ()
        return [SeatMarks(stand_in=seat in room.stand_ins, away=seat in room.away,
                          rating=ratings[seat] if seat < len(ratings) else None) for seat in range(count)]

    def went_on(self) -> bool:
        """At a room, you have gone on from the count and it waits for the others."""
        return self.snap.paused and self.seat in self.snap.ready

    def every_seat(self) -> list[int]:
        """This seat first, then the others in playing order (for a spectator, every seat once)."""
        return self.others() if self.spectator else [self.seat, *self.others()]

    def rebuild_when_changed(self, part: str, key: tuple, container: ui.element, build: Callable[[], None]) -> None:
        if self.built.get(part) != key:
            self.built[part] = key
            container.clear()
            with container:
                build()

    def holding_html(self) -> str:
        """While the table cannot be saved it takes no move: every screen at it says so."""
        if not self.snap.holding:
            return ''
        return (f'<div class="bg-amber-100 text-amber-900 rounded px-3 py-2 text-sm font-medium" '
                f'data-testid="saving-held" role="alert">{escape(t("table.saving_held"))}</div>')

    def notice_html(self) -> str:
        return (f'<div class="text-amber-200 text-sm" data-testid="notice" role="alert">{escape(self.notice)}</div>'
                if self.notice else '')

    def _panel(self, view: Any, phase: str) -> None:
        if phase in ('count', 'over'):
            self.count_panel(view, phase)
        if phase == 'count':
            self._review_link(self.hand_number(view))
        if phase == 'over':
            self._game_over(view)

    def _review_link(self, hand: int, text: str | None = None) -> None:
        """The finished hand, step by step (a table dealt before moves were kept has no review)."""
        if not self.spectator and self.snap.reviewable and hand >= 1:
            review_link(table_review_path(self.snap.table_id, hand), text, new_tab=self.snap.room is not None,
                        light=text is None).classes('self-end' if text is None else '')

    def _top_bar(self) -> None:
        with ui.element('div').classes('w-full hod-top'):
            # the page's heading for a screen reader's list of headings: the top bar has no room to show it
            ui.html(f'<h1 class="sr-only">{escape(t(self.snap.game.name_key))}</h1>', sanitize=False)
            self.top = ui.html('', sanitize=False).classes('hod-top-texts').mark('table-top')
            ui.html(rules_link_html(self.snap.game.id, 'text-white underline'), sanitize=False).classes('ml-auto')
            if not self.spectator:
                self.tips_switch = action_button(t('tips.off'), 'tips-switch', self.speaking(self._switch_tips),
                                                 tone='flat', icon='tips_and_updates')
            sound_switch()
            log_sheet_button(t('table.log_button'), 'log-button', 'history').classes('hod-log-button')
            if not self.spectator and not self.snap.options.daily:   # a spectator's game is not theirs to leave,
                # and a daily deal is one try: leaving it is coming back later
                action_button(t('table.new_game'), 'new-game', self._confirm_new_game, tone='flat', icon='restart_alt')

    def _top_html(self, view: Any) -> str:
        return ''.join(f'<span class="{"font-semibold" if index == 0 else "opacity-80"}">{escape(text)}</span>'
                       for index, text in enumerate(self.game_texts() + self.top_texts(view)))

    # the player's actions -------------------------------------------------------------------
    def speaking(self, handler: Callable[..., None]) -> Callable[..., None]:
        """The player's actions answer in the page's language, looked up once per action; what the
        screen sends meanwhile answers the click (the browser's guess of it gives way)."""
        def speaking(*args: Any) -> None:
            with language_scope(self.language), self.live.answering():
                handler(*args)
        return speaking

    async def ask_hint(self) -> None:
        """The hint button: the table thinks it out off the event loop, then the game's screen
        shows it (``show_hint``) in the page's language."""
        action = await self.port.hint()
        if action is not None:
            with language_scope(self.language):
                self.show_hint(action)

    @abstractmethod
    def show_hint(self, action: Any) -> None:
        """Say what the normal computer player would do now: the words, and the cards it would play
        chosen in your hand."""

    def act(self, action: Any, version: int | None = None) -> bool:
        """Send an action with the version of the screen it was chosen on; a refusal is shown in
        words and changes nothing."""
        return self._attempt(lambda seen: self.port.act(action, seen), version)

    def play_again(self) -> None:
        """The next game at this table: same seats and options, the dealer one seat on."""
        self._attempt(self.port.next_game, None)

    def resume(self, version: int | None = None) -> None:
        self._attempt(self.port.resume, version)

    def _attempt(self, send: Callable[[int], None], version: int | None) -> bool:
        # the table tells its screens of an accepted step when the command block ends: the card
        # you chose is forgotten first, so the one that takes its place in your hand is not
        # drawn chosen while the others play
        with self.port.command():
            try:
                send(self.shown_version if version is None else version)
            except IllegalAction as refusal:
                self.refused(refusal_text(refusal, self.parse_card))
                return False
            self.after_action()
            self.notice = ''
        return True

    def refused(self, text: str) -> None:
        self.notice = text
        ui.notify(text, type='warning')
        self.render()

    # what a game supplies ----------------------------------------------------------------------
    @abstractmethod
    def board(self) -> None:
        """Build the game's board in the play area (once)."""

    @abstractmethod
    def draw_board(self, view: Any, phase: str) -> None:
        """Redraw the board for this view, through ``self.live``."""

    @abstractmethod
    def turn_phase(self, view: Any) -> str:
        """What this seat is doing now in the game's words ('draw', 'discard'...) or 'wait'."""

    @abstractmethod
    def count_panel(self, view: Any, phase: str) -> None:
        ...

    @abstractmethod
    def others_html(self, view: Any) -> Markup:
        """The other seats, above the board, as markup (``seats_html`` of their ``SeatInfo``, or
        the game's own drawing; '' when the board shows every seat itself)."""

    @abstractmethod
    def score_rows(self, view: Any) -> list[tuple[str, list[str]]]:
        ...

    @abstractmethod
    def log_lines(self) -> list[str]:
        ...

    def hand_number(self, view: Any) -> int:
        """The hand on the screen: while its count is read, the hand that was counted (the engine
        has already dealt the next one, which shows once the player goes on)."""
        if self.snap.paused:
            counted = self.counted_hand(view)
            if counted is not None:
                return counted
        return view.hand_number

    def counted_hand(self, view: Any) -> int | None:
        """The number of the hand whose count is on the screen (games with several hands)."""
        return None

    def visible_log(self) -> tuple[dict[str, Any], ...]:
        """The table's log as far as the screen has got (while a count is read, up to the end of
        the counted hand: the next deal appears with the next hand)."""
        return self.snap.log

    def top_texts(self, view: Any) -> list[str]:
        return [t('table.hand_number', hand=self.hand_number(view))]

    def game_texts(self) -> list[str]:
        """'Daily deal' (or 'Practice deal') at a daily table, 'Game 2' once a table plays again (in the top bar)."""
        if self.snap.options.daily:
            return [t('daily.practice.table_tag' if self.snap.options.practice else 'daily.table_tag')]
        return [t('table.game_number', game=self.snap.game_number)] if self.snap.game_number > 1 else []

    def score_totals(self, view: Any) -> tuple[list[str], str]:
        """The scoreboard's last row: its cells and its label."""
        return [number(score) for score in view.scores], t('table.total')

    def panel_key(self, view: Any) -> tuple:
        """What else rebuilds the count panel when it changes."""
        return ()

    def after_action(self) -> None:
        """The table accepted an action of this screen."""
