"""/play/<game>: the options before dealing, which create a table (or a room, to play with
friends); /table/<id>: one table; /room/<id>/<secret>: a room's invite link.

Which tables are this browser's, and who it is, is `app.visitor`'s: the table itself lives in
app.tables, shared by every tab that shows it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nicegui import app, ui
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app import limits, playban
from app.lobby import PUBLIC_CLOCK, matching, quick_wait, reconnect_window
from app.engine.protocol import IllegalAction
from app.games import GAMES, GAMES_BY_ID, GameInfo
from app.i18n import current_language, language_scope, t
from app.tables.registry import TableUnavailable, add_table, create_table, new_table, open_table, services
from app.tables.room import NAME_MAX, SPECTATOR, Room, clean_name
from app.tables.seats import ROOM_BOT_NAMES, Seat
from app.tables.port import SeatPort
from app.tables.table import Table
from app.visitor import (current_account, current_user_id, guest_token, my_open_table, remember_table, watch,
                         watched_tables)
from components.frame import frame
from components.games import screens_of
from components.playban import wait_notice, wait_text
from components.table.room_form import PERSON, RoomForm
from components.table.setup import setup_form, to_table_options
from components.table.shell import TableScreen
from components.table.waiting_room import WaitingRoom
from components.table_parts import refusal_text

ROOM_KEY = 'room'       # app.storage.user: the last room choices (your name, the seats, the clock)
BACK_KEY = 'back to seat'   # app.storage.user: the table a request for another seat sent this browser back to


def table_path(table_id: str) -> str:
    return f'/table/{table_id}'


def options_key(game: GameInfo) -> str:
    return f'options:{game.id}'


def play_page(game_id: str) -> None:
    game = GAMES_BY_ID[game_id]
    storage = app.storage.user
    with frame(t(game.name_key)):
        ongoing = my_open_table(game)
        if ongoing is not None:
            _ongoing_card(t('play.ongoing', game=t(game.name_key)), ongoing.id, 'resume')
        seated = matching.open_seat(guest_token(), current_user_id())   # one of any game, from any browser
        if seated is not None and (ongoing is None or seated[0] != ongoing.id) and seated[1] in GAMES_BY_ID:
            _ongoing_card(t('play.ongoing_public', game=t(GAMES_BY_ID[seated[1]].name_key)), seated[0], 'resume-public')
        account = current_account()
        _quick_match_card(game, account.id if account is not None else None)
        room_form = RoomForm(game, account_name=account.display_name if account else None,
                             stored=storage.get(ROOM_KEY), on_create=lambda *args: None)
        room_form.on_create = lambda choice, plan, clock, name: create_room(game, choice, plan, clock, name, room_form)
        setup_form(game, storage.get(options_key(game)), lambda choice: start_table(game, choice), room_form)


def _ongoing_card(text: str, table_id: str, marker: str) -> None:
    """A game of yours in progress, and the button back to it."""
    with ui.card().classes('w-full max-w-xl self-center flex-row items-center gap-3 bg-amber-50') \
            .props(f'data-testid="ongoing" data-table="{table_id}"'):
        ui.label(text).classes('flex-1')
        ui.button(t('home.resume'), icon='play_arrow', on_click=lambda: ui.navigate.to(table_path(table_id))) \
            .props(f'unelevated no-caps data-testid="{marker}"').mark(marker)


QUICK_KEY = 'quick'   # app.storage.user: the seats last asked for at quick match, per game


def _wait_left(user_id: int | None) -> float | None:
    """Seconds this account still waits before playing people (app.playban), None when it does not."""
    if user_id is None:
        return None
    try:
        left = playban.time_left(user_id=user_id, now=matching.moment(services().clock.wall()))
    except SQLAlchemyError:   # quick match itself checks again, and says so if the database is away
        return None
    return None if left is None else left.total_seconds()


def _quick_match_card(game: GameInfo, user_id: int | None) -> None:
    """Play people: the number of seats, a guest's name, and the button; where the lobby is. Who
    keeps leaving rated games is told why they wait and how long is left instead of a button."""
    signed_in = user_id is not None
    wait = _wait_left(user_id)
    stored = app.storage.user.get(QUICK_KEY)
    seats = stored.get(game.id) if isinstance(stored, dict) else None
    values = {'seats': seats if type(seats) is int and game.min_seats <= seats <= game.max_seats else game.min_seats,
              'name': _stored_name()}

    def go() -> None:
        seats = values['seats']   # a crafted event may have set anything there
        if type(seats) is not int or not game.min_seats <= seats <= game.max_seats:
            seats = game.min_seats
        kept = app.storage.user.get(QUICK_KEY)
        app.storage.user[QUICK_KEY] = {**(kept if isinstance(kept, dict) else {}), game.id: seats}
        quick_match(game, seats, values['name'])

    with ui.card().classes('w-full max-w-xl self-center gap-2 bg-sky-50').props('flat bordered data-testid="quick-card"'):
        ui.label(t('quick.title')).classes('text-lg font-bold').props('role=heading aria-level=2')
        ui.label(t('quick.help', seconds=round(quick_wait()))).classes('text-sm text-gray-700')
        if game.max_seats > game.min_seats:   # a list, not a row of buttons: the setup form's are below
            ui.select({n: t('quick.seats', count=n) for n in range(game.min_seats, game.max_seats + 1)},
                      value=values['seats'], label=t('setup.seats')).bind_value(values, 'seats') \
                .props('outlined dense data-testid="quick-seats"').classes('w-full').mark('quick-seats')
            # fewer than the form's below, on purpose: strangers fill a small table soonest
            ui.label(t('quick.seats_help')).classes('text-xs text-gray-600 -mt-2').mark('quick-seats-help')
        if not signed_in:
            ui.input(t('quick.your_name')).bind_value(values, 'name') \
                .props(f'maxlength={NAME_MAX} counter outlined dense').classes('w-full').mark('quick-name')
        if wait is not None:
            wait_notice(wait)
        with ui.row().classes('w-full items-center gap-3'):
            button = ui.button(t('quick.button'), icon='groups', on_click=go) \
                .props('unelevated no-caps data-testid="quick-match"').classes('flex-1').mark('quick-match')
            if wait is not None:
                button.disable()
            ui.link(t('quick.lobby'), f'/lobby?game={game.id}').classes('font-semibold')
        ui.label(t('quick.rated' if signed_in else 'lobby.rated_sign_in')).classes('text-xs text-gray-600')


def may_deal() -> bool:
    """Count a new table for this browser and its address; past a limit, say so and deal nothing."""
    window = limits.NEW_TABLES.take(app.storage.browser.get('id'), ui.context.client.ip or None,
                                    services().clock.wall())   # the epoch's seconds: every process shares them
    if window is not None:
        ui.notify(t(f'play.too_many.{window.name}'), type='warning', multi_line=True)
    return window is None


def start_table(game: GameInfo, choice: dict[str, Any]) -> None:
    """Deal a new table with this browser's person in the first seat, and go to its address."""
    app.storage.user[options_key(game)] = choice
    if not may_deal():
        return
    account = current_account()
    person = Seat('person', name=account.display_name if account else '', guest=guest_token(),
                  user_id=account.id if account else None)
    try:
        table = create_table(game, to_table_options(game, choice), [person])
    except TableUnavailable:
        ui.notify(t('table.unavailable'), type='negative')
        return
    remember_table(table)
    ui.navigate.to(table_path(table.id))


def create_room(game: GameInfo, choice: dict[str, Any], plan: list[str], clock: int, name: str,
                form: RoomForm) -> None:
    """A room with you in the first seat, its other seats waiting for people or held by computers;
    go to it (its waiting room shows the invite link)."""
    app.storage.user[options_key(game)] = choice
    app.storage.user[ROOM_KEY] = form.stored()
    account = current_account()
    try:
        name = account.display_name if account else clean_name(name)
    except IllegalAction as refusal:
        ui.notify(refusal_text(refusal), type='warning')
        return
    if not may_deal():
        return
    names = iter(bot for bot in ROOM_BOT_NAMES if bot.casefold() != name.casefold())
    seats = [Seat('person', name=name, guest=guest_token(), user_id=account.id if account else None)]
    seats += [Seat('person') if kind == PERSON else Seat('computer', name=next(names), level=kind) for kind in plan]
    public = form.values['public'] is True
    rated = public and account is not None and form.values['rated'] is True
    options = to_table_options(game, choice)
    if rated:   # the hint is a computer's advice: not in a rated game
        options.hints = False
    # strangers cannot be waited for: a public table always has a turn clock
    room = Room.new(clock or (PUBLIC_CLOCK if public else 0), public=public, rated=rated)
    try:
        table = new_table(game, options, seats, room=room)
        if public:
            matching.open_public(table, matching.Person(guest_token(), account.id if account else None, name,
                                                        _address()))
        else:
            add_table(table)
    except IllegalAction as refusal:
        ui.notify(refused(refusal), type='warning', multi_line=True)
        return
    except TableUnavailable:
        ui.notify(t('table.unavailable'), type='negative')
        return
    except matching.AlreadySeated as seated:
        _back_to_seat(seated.table_id)
        return
    remember_table(table)
    ui.navigate.to(table_path(table.id))


def invite_path(table: Table) -> str:
    return f'/room/{table.id}/{table.room.invite}'


def table_page(table_id: str, request: Request) -> None:
    table = open_table(table_id)
    with frame(t(table.game.name_key) if table else t('table.missing_title')):
        if table is not None and app.storage.user.get(BACK_KEY) == table.id:
            del app.storage.user[BACK_KEY]   # said once: the next visit of this table is an ordinary one
            ui.label(t('quick.back_to_seat')).classes('text-sky-900 bg-sky-100 rounded px-3 py-1 self-center') \
                .props('data-testid="back-to-seat" role=status').mark('back-to-seat')
        seat = None if table is None else table.seat_of(guest_token(), current_user_id())
        if table is None:
            ui.status_code(404)   # the page says so in the table's own words
        if table is not None and seat is None:   # a seat taken at a public table, from any process
            seat = matching.seat_here(table, guest_token(), current_user_id())
        if table is not None and seat is None and table.room is not None and screens_of(table.game.id) is not None \
                and (table.room.public or table.id in watched_tables()):
            # anybody watches a public table; a room, whoever its invite link admitted
            if table.room.public and table.waiting and table.seating.free_seats():
                _public_join(table)
            _spectate(table, request)
            return
        if table is None or seat is None or screens_of(table.game.id) is None:
            _no_seat(t('table.missing') if table is None else t('table.not_yours'),
                     None if table is None or screens_of(table.game.id) is None else table.game)
            return
        account = current_account()
        if account is not None:
            table.claim(seat, account.id, account.display_name)
        remember_table(table)
        _show(table, seat, request)


def _show(table: Table, seat: int, request: Request) -> None:
    """The table's screen for this seat (SPECTATOR: the public one); a room not started yet shows
    its waiting room, which turns into the table in place when the game starts."""
    game = table.game
    # read now, in this page's request: a waiting room turns into the table from the event of
    # whoever started it, whose browser (storage, language) is not this one
    language, storage = current_language(), app.storage.user
    port = SeatPort(table, seat)

    def play() -> None:
        with language_scope(language):
            screen(game)(port, on_new_game=lambda: ui.navigate.to(game.play_path), storage=storage).build()

    if not table.waiting:
        play()
        return
    holder = ui.element('div').classes('w-full flex flex-col')

    def started() -> None:   # the waiting room gives its place to the table
        holder.clear()
        with holder:
            play()

    url = str(request.base_url).rstrip('/') + invite_path(table)
    with holder:
        WaitingRoom(port, invite_url=url, on_started=started).build()


def invite_page(table_id: str, secret: str, request: Request) -> RedirectResponse | None:
    """An invite link: your seat if you have one; else a free seat under the name you choose;
    else (the room is full or playing) the game as a spectator, who sees what is public only."""
    table = open_table(table_id)
    if table is not None and table.room is not None and table.room.admits(secret) \
            and (table.room.public or table.seat_of(guest_token(), current_user_id()) is not None):
        # a public table's own page seats whoever comes (its seats are taken in the database)
        return RedirectResponse(table_path(table.id), status_code=303)
    with frame(t(table.game.name_key) if table else t('table.missing_title')):
        if table is None or table.room is None or not table.room.admits(secret) or screens_of(table.game.id) is None:
            ui.status_code(404)
            _no_seat(t('room.bad_invite'), None)
            return None
        if table.waiting and table.seating.free_seats():
            _join_form(table)
        else:
            watch(table)
            _spectate(table, request)
    return None


def _spectate(table: Table, request: Request) -> None:
    """The room as a spectator sees it: the public view, said to be watched."""
    ui.label(t('room.watching_public' if table.room.public else 'room.watching')) \
        .classes('text-amber-900 bg-amber-100 rounded px-3 py-1 self-center').props('data-testid="spectator"') \
        .mark('spectator')
    _show(table, SPECTATOR, request)


def _public_join(table: Table) -> None:
    """A public table still waiting for people: a seat for this browser, if it wants one."""
    account = current_account()
    with ui.card().classes('w-full max-w-xl self-center gap-2').props('data-testid="join-public"'):
        if table.room.rated and account is None:
            ui.label(t('lobby.rated_sign_in')).classes('text-gray-700')
            ui.link(t('nav.login'), f'/login?next=/table/{table.id}').classes('font-semibold')
            return
        name = {'name': account.display_name if account else _stored_name()}
        if account is None:
            ui.input(t('room.your_name')).bind_value(name, 'name') \
                .props(f'maxlength={NAME_MAX} counter outlined dense').classes('w-full').mark('join-name')
        ui.button(t('lobby.join'), icon='login', on_click=lambda: join_public(table.id, name['name'])) \
            .props('unelevated no-caps data-testid="join"').classes('w-full').mark('join')


def _stored_name() -> str:
    stored = app.storage.user.get(ROOM_KEY)
    name = stored.get('name') if isinstance(stored, dict) else None
    return name if isinstance(name, str) else ''


def asking_person(name: Any) -> matching.Person:
    """Who asks for a seat from this browser: the account's name, or the name a guest typed.
    Raises IllegalAction when a guest's name is unusable."""
    account = current_account()
    if account is not None:
        return matching.Person(guest_token(), account.id, account.display_name, _address())
    cleaned = clean_name(name)
    stored = app.storage.user.get(ROOM_KEY)
    app.storage.user[ROOM_KEY] = {**(stored if isinstance(stored, dict) else {}), 'name': cleaned}
    return matching.Person(guest_token(), None, cleaned, _address())


def _address() -> str | None:
    """The asker's address as every per-address limit keys it (an IPv6 address by its /64)."""
    return limits.address_key(ui.context.client.ip or None)


def join_public(table_id: str, name: Any) -> None:
    """Take a seat at a waiting public table (from the lobby, or the table's own page), and go
    there. It counts as a deal, as quick match does: a browser cannot take seats without end."""
    def join() -> str | None:
        person = asking_person(name)
        return matching.join(table_id, person) if may_deal() else None
    _take_seat(join)


def quick_match(game: GameInfo, seats: int, name: Any) -> None:
    """Play people: a seat at a waiting public table that fits, or a new one; go there."""
    def match() -> str | None:
        person = asking_person(name)
        return matching.quick_match(game, seats, person, wall=services().clock.wall()) if may_deal() else None
    _take_seat(match)


def _take_seat(take: Callable[[], str | None]) -> None:
    """Take a seat (``take`` returns its table's id, or None when it said why not) and go there; a
    refusal or an unavailable database is said in words."""
    try:
        table_id = take()
    except IllegalAction as refusal:
        ui.notify(refused(refusal), type='warning', multi_line=True)
        return
    except matching.MatchUnavailable:
        ui.notify(t('table.unavailable'), type='negative')
        return
    except matching.AlreadySeated as seated:
        _back_to_seat(seated.table_id)
        return
    if table_id is not None:
        ui.navigate.to(table_path(table_id))


def refused(refusal: IllegalAction) -> str:
    """A refused seat in words; a wait for leaving rated games says how long is left."""
    if refusal.code == 'playban':
        return wait_text(refusal.params.get('seconds', 0))
    return refusal_text(refusal)


def _back_to_seat(table_id: str) -> None:
    """One seat per person: a request for another goes back to the table where you sit, which
    says why (BACK_KEY, read by its page)."""
    app.storage.user[BACK_KEY] = table_id
    ui.navigate.to(table_path(table_id))


def _join_form(table: Table) -> None:
    account = current_account()
    values = {'name': account.display_name if account else app.storage.user.get(ROOM_KEY, {}).get('name', '')}
    if not isinstance(values['name'], str):
        values['name'] = ''
    creator = table.seats[table.room.creator].name

    def join() -> None:
        try:
            table.seating.join(guest_token(), account.id if account else None, values['name'])
        except IllegalAction as refusal:
            ui.notify(refusal_text(refusal), type='warning')
            return
        remember_table(table)
        ui.navigate.to(table_path(table.id))

    with ui.card().classes('w-full max-w-xl self-center gap-3').props('data-testid="join-room"'):
        ui.label(t('room.invited', name=creator, game=t(table.game.name_key))).classes('text-2xl font-bold') \
            .props('role=heading aria-level=1')
        ui.label(t('room.join_help')).classes('text-gray-700')
        name = ui.input(t('room.your_name'), validation={t('room.name_needed'): lambda v: bool(v and v.strip())}) \
            .bind_value(values, 'name').props('maxlength=20 counter outlined data-testid="join-name"') \
            .classes('w-full').mark('join-name')
        if account is not None:
            name.disable()
        name.on('keydown.enter', join)
        ui.button(t('room.join'), icon='login', on_click=join) \
            .props('unelevated size=lg no-caps data-testid="join"').classes('w-full').mark('join')


def _no_seat(text: str, game: GameInfo | None) -> None:
    """Why there is no table to show, and where to go instead."""
    with ui.card().classes('w-full max-w-xl self-center gap-3').props('data-testid="no-table"'):
        ui.label(text).classes('text-lg')
        with ui.row().classes('gap-4'):
            if game is not None:
                ui.link(t('table.own_game', game=t(game.name_key)), game.play_path).classes('font-semibold')
            ui.link(t('nav.home'), '/').classes('font-semibold')


def screen(game: GameInfo) -> type[TableScreen]:
    """The game's table screen, from its entry in components.games."""
    return screens_of(game.id).table


def _play_page_of(game_id: str):
    def page() -> None:   # no parameters: NiceGUI would read them from the query string
        play_page(game_id)
    return page


def register_table_pages() -> None:
    for game in GAMES:
        if screens_of(game.id) is not None:
            ui.page(game.play_path)(_play_page_of(game.id))
    # a phone that switches networks comes back to the same page within the window; past it, the
    # page is gone and a computer holds the seat at a public table (app.tables.public)
    ui.page('/table/{table_id}', reconnect_timeout=reconnect_window())(table_page)
    ui.page('/room/{table_id}/{secret}')(invite_page)
