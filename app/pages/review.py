"""The review of a finished hand: /table/<id>/review/<hand> for the current game of a table you
sit at (a guest's review lives with the table), /history/<id>/review/<hand> for a game of your
account's history (kept in the database). A hand still being played, one that is not there, or a
table or record that is not yours gets a message in words and shows no card."""
from __future__ import annotations

import re

from nicegui import ui
from starlette.requests import Request
from starlette.responses import RedirectResponse

from app.i18n import current_language, t
from app.pages.tables import table_path
from app.review.analyses import analysis_for
from app.review.sources import ReviewSource, record_source, reviewable, table_source
from app.sessions import login_redirect
from app.tables.registry import open_table, services
from app.tables.seats import FEMININE_NAMES
from app.visitor import current_account, current_user_id, guest_token
from components.frame import frame
from components.review.links import record_review_path, table_review_path
from components.review.screen import ReviewScreen

NUMBER = re.compile(r'[0-9]{1,6}')


def table_review_page(table_id: str, hand: str) -> None:
    table = open_table(table_id)
    seat = None if table is None else table.seat_of(guest_token(), current_user_id())
    source = None if table is None or seat is None else table_source(table, seat)
    game_name = t(table.game.name_key) if table is not None and seat is not None else t('review.title_plain')
    show_review(source, hand, game_name, back=(t('review.back_table'), table_path(table_id)) if seat is not None else None,
                path=lambda number: table_review_path(table_id, number),
                playing=table is not None and seat is not None and not table.is_over())


async def record_review_page(request: Request, record_id: str, hand: str) -> RedirectResponse | None:
    account = current_account()
    if account is None:
        return login_redirect(request)
    source = record_source(account.id, int(record_id)) if NUMBER.fullmatch(record_id) else None
    name = t(source.moves.game.name_key) if source is not None else t('review.title_plain')
    show_review(source, hand, name, back=(t('review.back_record'), f'/history/{record_id}') if source else None,
                path=lambda number: record_review_path(int(record_id), number), playing=False)
    return None


def show_review(source: ReviewSource | None, raw_hand: str, game_name: str, *, back: tuple[str, str] | None,
                path, playing: bool, refusal: str | None = None) -> None:
    """A hand of ``source`` from its reader's seat, or (no source, no such hand) why not, in words:
    ``refusal`` is the catalog key that says so when there is no source."""
    number = int(raw_hand) if NUMBER.fullmatch(raw_hand) else 0
    hand = reviewable(source, number)
    with frame(t('review.title', game=game_name, hand=number) if hand else t('review.title_plain')):
        with ui.row().classes('w-full items-end justify-between gap-2'):
            ui.label(t('review.title', game=game_name, hand=number) if hand else t('review.title_plain')) \
                .classes('text-2xl font-bold').props('role=heading aria-level=1').mark('review-title')
            if back is not None:
                ui.link(back[0], back[1]).classes('font-semibold text-[#1f5f3a]') \
                    .props('data-testid="review-back"').mark('review-back')
        if source is not None and source.hands() > 1:
            _hand_links(source.hands(), number, path)
        if hand is None:
            ui.status_code(404)
            _refused(source, number, playing, refusal)
            return
        names = [t('table.you') if name is None else (name or t('table.guest')) for name in source.names]
        feminine = [name is not None and name in FEMININE_NAMES for name in source.names]
        analysis, keep = analysis_for(source, hand)
        ReviewScreen(hand, reader=source.seat, names=names, feminine=feminine, language=current_language(),
                     analysis=analysis).build()
        analysis.start(services().thinker, keep)   # in the process pool: the page answers meanwhile


def _hand_links(hands: int, current: int, path) -> None:
    with ui.row().classes('w-full items-center gap-1 flex-wrap').props('role=navigation').mark('review-hands'):
        ui.label(t('review.hands')).classes('text-sm text-gray-700')
        for number in range(1, hands + 1):
            link = ui.link(str(number), path(number)).classes('px-2 rounded font-semibold') \
                .props(f'data-testid="review-hand" data-hand="{number}"')
            if number == current:
                link.classes('bg-[#1f5f3a] text-white').props('aria-current=page')


def _refused(source: ReviewSource | None, number: int, playing: bool, refusal: str | None = None) -> None:
    """Why there is nothing to review here, in words; nothing of any hand is sent."""
    if source is None:
        key = refusal or 'review.not_yours'
    elif playing and number == source.hands() + 1:
        key = 'review.still_playing'
    else:
        key = 'review.no_such_hand'
    with ui.card().classes('w-full max-w-xl self-center gap-3').props('data-testid="review-refused"'):
        ui.label(t(key)).classes('text-lg')
        ui.link(t('nav.home'), '/').classes('font-semibold')


def register_review_pages() -> None:
    ui.page('/table/{table_id}/review/{hand}')(table_review_page)
    ui.page('/history/{record_id}/review/{hand}')(record_review_page)
