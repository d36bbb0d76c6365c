"""Where a review opens from: the count, the game-over screen and a game's page in the history.
The link carries the ``review`` hook."""
from __future__ import annotations

from nicegui import ui

from app.i18n import t


def table_review_path(table_id: str, hand: int) -> str:
    return f'/table/{table_id}/review/{hand}'


def record_review_path(record_id: int, hand: int) -> str:
    return f'/history/{record_id}/review/{hand}'


def review_link(path: str, text: str | None = None, *, new_tab: bool = False, light: bool = False) -> ui.link:
    """A button-like link to a review. ``new_tab``: at a room, whose count goes on without the
    people who left its page, the table stays open behind the review."""
    colours = 'bg-white text-[#1f5f3a]' if light else 'bg-[#1f5f3a] text-white'
    return ui.link(text or t('review.open'), path, new_tab=new_tab) \
        .classes(f'{colours} hod-link-button no-underline font-semibold rounded px-4 py-2 inline-flex items-center gap-1 shadow') \
        .props('data-testid="review"').mark('review')
