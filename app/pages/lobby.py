"""/lobby: the open public tables of every game, a page at a time, kept up to date while it is
open; Join takes a free seat (app.lobby.matching), Watch opens the table as a spectator."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from nicegui import run, ui
from sqlalchemy.exc import SQLAlchemyError

from app.games import GAMES, GAMES_BY_ID, GameInfo
from app.i18n import current_language, language_scope, t
from app.pages.tables import join_public, table_path
from app.sessions import login_path
from app.visitor import current_account
from components.frame import frame
from app.tables.registry import services
from components.lobby import LOBBY_CSS, lobby_row_html, start_words
from models.db import session_scope
from models.tables import list_public_tables, public_tables_changed_since

PAGE_SIZE = 20
REFRESH = 2.0   # seconds between two looks at whether any listed table changed


@dataclass(frozen=True, slots=True)
class LobbyPage:
    """One page of the lobby as read from the database."""

    rows: tuple[dict[str, Any], ...]
    total: int
    latest: datetime | None


def read_page(game_id: str | None, page: int) -> LobbyPage:
    """The open public tables on this page (plain values: the session is closed after), and the
    last change to any public table, read first: a change made meanwhile costs one more redraw,
    never a missed one."""
    with session_scope() as session:
        latest = public_tables_changed_since(session=session, since=None)
        rows, total = list_public_tables(session=session, game_id=game_id, offset=(page - 1) * PAGE_SIZE,
                                         limit=PAGE_SIZE)
        values = tuple({'table_id': row.table_id, 'game_id': row.game_id, 'seats': row.seats, 'rated': row.rated,
                        'quick': row.quick, 'stage': row.stage, 'free_seats': row.free_seats,
                        'people': json.loads(row.people_json), 'rules': json.loads(row.options_json),
                        'spectators': row.spectators, 'fill_at': _epoch(row.fill_at)} for row in rows)
    return LobbyPage(values, total, latest)


def _epoch(moment: datetime | None) -> float | None:
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()   # SQLite gives it back naive


def changed_since(moment: datetime | None) -> bool:
    """Whether any public table changed after the page was read (nothing to redraw, else)."""
    with session_scope() as session:
        return public_tables_changed_since(session=session, since=moment) is not None


def _page_number(raw: str) -> int:
    return int(raw) if raw.isdigit() and 0 < int(raw) < 100_000 else 1


def lobby_page(game: str = '', page: str = '1') -> None:
    chosen: GameInfo | None = GAMES_BY_ID.get(game) if isinstance(game, str) else None
    number = _page_number(page if isinstance(page, str) else '1')
    language = current_language()
    signed_in = current_account() is not None
    with frame(t('lobby.title')):
        ui.add_css(LOBBY_CSS)
        with ui.column().classes('w-full max-w-3xl self-center gap-3'):
            ui.label(t('lobby.title')).classes('text-2xl font-bold').props('role=heading aria-level=1')
            ui.label(t('lobby.intro')).classes('text-gray-700')
            with ui.row().classes('gap-2 items-center').props('role=navigation data-testid="lobby-filter"'):
                for label, target in [(t('lobby.all_games'), None), *[(t(g.name_key), g) for g in GAMES]]:
                    href = '/lobby' + (f'?game={target.id}' if target else '')
                    current = target is chosen
                    ui.link(label, href).classes('hod-chip' + (' hod-chip-on' if current else '')) \
                        .props('aria-current="page"' if current else '')
            state = {'latest': None}
            starts: list[tuple[ui.label, dict[str, Any]]] = []   # each waiting row's start, counted down
            listing = ui.column().classes('w-full gap-2').props('data-testid="lobby-list" aria-live="polite"').mark('lobby-list')

            def draw(found: LobbyPage | None) -> None:
                listing.clear()
                # a list while it lists tables; its empty state (a sentence and links) is not one
                listing.props(remove='role') if found is None or not found.rows else listing.props('role=list')
                with language_scope(language), listing:
                    if found is None:
                        ui.label(t('lobby.unavailable')).classes('text-red-800').props('data-testid="lobby-error"')
                        return
                    state['latest'] = found.latest
                    starts[:] = _draw_rows(found, chosen, number, signed_in)

            try:
                draw(read_page(chosen.id if chosen else None, number))
            except SQLAlchemyError:
                draw(None)

            async def refresh() -> None:
                try:
                    if not await run.io_bound(changed_since, state['latest']):
                        with language_scope(language):
                            for label, row in starts:   # the rows stay; only their countdowns move
                                label.set_text(start_words(row, services().clock.wall()))
                        return
                    found = await run.io_bound(read_page, chosen.id if chosen else None, number)
                except SQLAlchemyError:
                    found = None
                draw(found)

            ui.timer(REFRESH, refresh)


def _sign_in_to_join(table_id: str) -> None:
    """Why a guest's seat at a rated table is greyed, on a line of its own under the row (a phone
    shows no tooltip), with a link to sign in that comes back to the table, whose page then offers
    the seat."""
    with ui.element('div').classes('hod-lobby-why').props(f'id=join-why-{table_id}'):
        ui.label(t('lobby.join_needs_account')).props('data-testid="join-needs-account"')
        ui.link(t('nav.login'), login_path(table_path(table_id))).classes('font-semibold') \
            .props('data-testid="join-sign-in"').mark('join-sign-in')


def _draw_rows(found: LobbyPage, chosen: GameInfo | None, number: int,
               signed_in: bool) -> list[tuple[ui.label, dict[str, Any]]]:
    """The rows of the page; returns the label of each waiting row's start, with its row."""
    starts = []
    now = services().clock.wall()   # the tables' clock, which their deadlines are on
    if not found.rows:
        ui.label(t('lobby.empty')).classes('text-gray-700').props('data-testid="lobby-empty"')
        with ui.row().classes('gap-3'):
            for game in [chosen] if chosen else GAMES:
                ui.link(t('lobby.play_people', game=t(game.name_key)), game.play_path).classes('font-semibold')
        return starts
    for row in found.rows:
        game = GAMES_BY_ID.get(row['game_id'])
        if game is None:
            continue
        with ui.element('div').classes('hod-lobby-row').props(
                f'data-testid="lobby-row" data-table="{row["table_id"]}" data-stage="{row["stage"]}" role=listitem'):
            with ui.element('div').classes('hod-lobby-what'):
                ui.html(lobby_row_html(game, row), sanitize=False)
                words = start_words(row, now)
                if words is not None:   # not read out every 2 s: the list's own changes are
                    starts.append((ui.label(words).classes('text-sm font-semibold text-[#1f5f3a]')
                                   .props('data-testid="lobby-starts" aria-live="off"').mark('lobby-starts'), row))
            free = row['stage'] == 'waiting' and row['free_seats'] > 0
            for_accounts = free and row['rated'] and not signed_in
            with ui.row().classes('gap-2 no-wrap'):
                if free:
                    if for_accounts:   # greyed: its reason on the line below
                        ui.button(t('lobby.join'), icon='login') \
                            .props(f'unelevated no-caps disable aria-describedby=join-why-{row["table_id"]}')
                    else:   # a guest names themselves on the table's own page first
                        ui.button(t('lobby.join'), icon='login',
                                  on_click=lambda table_id=row['table_id']: join_public(table_id, None) if signed_in
                                  else ui.navigate.to(table_path(table_id))) \
                            .props('unelevated no-caps data-testid="lobby-join"')
                ui.button(t('lobby.watch'), icon='visibility',
                          on_click=lambda table_id=row['table_id']: ui.navigate.to(table_path(table_id))) \
                    .props('outline no-caps data-testid="lobby-watch"')
            if for_accounts:
                _sign_in_to_join(row['table_id'])
    pages = max(1, -(-found.total // PAGE_SIZE))
    if pages > 1:
        base = '/lobby?' + (f'game={chosen.id}&' if chosen else '')
        with ui.row().classes('w-full items-center justify-center gap-4').props('data-testid="lobby-pages"'):
            if number > 1:
                ui.link(t('lobby.previous'), f'{base}page={number - 1}').classes('font-semibold')
            ui.label(t('lobby.page', number=min(number, pages), pages=pages)).classes('text-sm text-gray-700')
            if number < pages:
                ui.link(t('lobby.next'), f'{base}page={number + 1}').classes('font-semibold')
    return starts
