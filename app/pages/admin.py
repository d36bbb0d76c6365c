"""/admin: the moderators' desk (app.moderation). Anybody who is not a moderator gets the
ordinary 404, as for an address that does not exist. A moderator sees the rated games fair play
marked, hides an account from the rankings or renames it, with a reason, and reads the audit,
undoing any act from there."""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

from nicegui import ui
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request

from app import moderation
from app.accounts import AccountError
from app.games import GAMES_BY_ID
from app.i18n import t
from app.pages.not_found import not_found_content
from app.visitor import current_account
from components.forms import error_label, submit_button, text_input
from components.frame import frame
from components.local_time import show_times, when

PATH = '/admin'


def admin_page(request: Request) -> None:
    account = current_account()   # read afresh for this page, its role with it
    if account is None or not account.is_moderator:
        not_found_content(request.url.path)
        return
    with frame(t('admin.title')), ui.column().classes('w-full max-w-2xl self-center gap-4').mark('admin'):
        ui.label(t('admin.title')).classes('text-3xl font-bold text-[#143d26]').props('role=heading aria-level=1')
        times: list = []
        act_form(account.id, lambda: audit_list.refresh(account.id))
        marked_list(times)
        audit_list(account.id, times)
        show_times(times)


@contextmanager
def panel(title: str, marker: str) -> Iterator[ui.card]:
    """One part of the desk: a card as wide as the page's column, with its heading."""
    with ui.card().classes('w-full gap-3 p-4 sm:p-6').props(f'aria-label="{title}"').mark(marker) as card:
        ui.label(title).classes('text-xl font-bold text-[#1f5f3a]').props('role=heading aria-level=2')
        yield card


def line(marker: str) -> ui.row:
    """One line of a list of the desk, wrapping on a phone."""
    return ui.row().classes('w-full items-center gap-x-3 gap-y-1 flex-wrap border-b border-gray-200 py-1').mark(marker)


def stamp(moment: datetime, times: list | None) -> None:
    """When, in UTC at once; on the reader's clock once the browser says it, for the labels in ``times``."""
    label = ui.label(when(moment, None)).classes('text-gray-600 text-sm')
    if times is not None:
        times.append((label, lambda offset: when(moment, offset)))


def act_form(moderator_id: int, changed: Callable[[], None]) -> None:
    """An account, a reason, and what to do: hide it from the rankings, or rename it."""
    with panel(t('admin.act.title'), 'act-form'):
        ui.label(t('admin.act.text')).classes('text-gray-700')
        name = text_input(t('admin.act.name'), 'act-name', autocomplete='off', maxlength=20)
        reason = text_input(t('admin.reason'), 'act-reason', autocomplete='off', maxlength=moderation.REASON_MAX)
        error = error_label()

        def doing(act: Callable[[int, str, str], object], done: str) -> Callable[[], Awaitable[None]]:
            async def run_act() -> None:
                error.set_text('')
                try:
                    act(moderator_id, name.value or '', reason.value or '')
                except AccountError as refusal:
                    error.set_text(t(refusal.key, **refusal.params))
                    return
                except SQLAlchemyError:
                    error.set_text(t('admin.error.unavailable'))
                    return
                ui.notify(t(done, name=name.value.strip()), type='positive')
                name.set_value('')
                reason.set_value('')
                changed()
            return run_act
        with ui.row().classes('gap-2 flex-wrap'):
            submit_button(t('admin.hide.submit'), 'hide-submit', doing(moderation.hide_from_rankings, 'admin.hidden'),
                          reason, error)
            # Enter in the reason hides (the form's button); renaming is this click only
            ui.button(t('admin.rename.submit'), on_click=doing(moderation.rename, 'admin.renamed')) \
                .props('outline no-caps').classes('w-full sm:w-auto').mark('rename-submit')


def marked_list(times: list) -> None:
    with panel(t('admin.marked.title'), 'marked'):
        rows = moderation.marked()
        if not rows:
            ui.label(t('admin.marked.none')).classes('text-gray-700')
        for row in rows:
            with line('marked-row'):
                stamp(row.at, times)
                ui.label(row.account).classes('font-medium')
                ui.label(t(GAMES_BY_ID[row.game_id].name_key) if row.game_id in GAMES_BY_ID else row.game_id)
                ui.label(', '.join(t(f'admin.mark.{mark}') for mark in row.marks.split())).classes('text-amber-900')
                ui.label(f'{row.change:+d}').classes('tabular-nums')


@ui.refreshable
def audit_list(moderator_id: int, times: list | None = None) -> None:
    """The audit, newest first; ``times``: the labels to put on the reader's clock once the browser
    says it (a list drawn again after an act shows its times in UTC, and says so)."""
    with panel(t('admin.audit.title'), 'audit'):
        entries = moderation.audit()
        if not entries:
            ui.label(t('admin.audit.none')).classes('text-gray-700')
        for entry in entries:
            with line('audit-row'):
                stamp(entry.at, times)
                ui.label(t(f'admin.act.{entry.action}', name=entry.target,
                           by=entry.moderator or t('admin.command_line'))).classes('font-medium')
                if entry.reason:
                    ui.label(t('admin.because', reason=entry.reason)).classes('text-gray-700')
                if entry.undone_at is not None:
                    ui.label(t('admin.undone')).classes('text-gray-500').mark('undone')
                else:
                    ui.button(t('admin.undo'), on_click=lambda _, entry_id=entry.id: undo(moderator_id, entry_id)) \
                        .props('outline no-caps').mark(f'undo-{entry.id}')


def undo(moderator_id: int, entry_id: int) -> None:
    try:
        moderation.undo(moderator_id, entry_id)
    except AccountError as refusal:
        ui.notify(t(refusal.key, **refusal.params), type='warning')
        return
    except SQLAlchemyError:
        ui.notify(t('admin.error.unavailable'), type='negative')
        return
    ui.notify(t('admin.undone_now'), type='positive')
    audit_list.refresh(moderator_id)
