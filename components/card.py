"""A playing card on the page: an <img> of the project's SVG art, served from /cards/... so the
browser caches each face once and table updates stay small.

Only cards that are public (or the player's own) are ever given a face URL; every hidden card is
the same back image, so nothing about it reaches the browser.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from html import escape
from typing import Any

from fastapi import HTTPException, Response
from nicegui import app, ui

from app.engine.cards import Card, french_card, spanish_card
from app.i18n import FEMININE, current_language, translate
from components.card_art import back_svg, card_svg, empty_slot_svg

_CACHE = {'Cache-Control': 'public, max-age=604800'}
# each deck's address: its card notation, and whether French suits take four colours
_DECKS: dict[str, tuple[Callable[[str], Card], bool]] = {'es': (spanish_card, False), 'fr': (french_card, False),
                                                         'fr4': (french_card, True)}
FOUR_COLOURS_KEY = 'four_colour_deck'   # this browser's choice, in app.storage.user
_SCOPED_COLOURS: ContextVar[bool | None] = ContextVar('four_colours', default=None)


def four_colours(storage: MutableMapping[str, Any] | None = None) -> bool:
    """Whether this reader chose the four-colour French deck: the scope's choice (a table drawn from
    its background task), else ``storage`` or this browser's own, else the usual two colours."""
    scoped = _SCOPED_COLOURS.get()
    if scoped is not None:
        return scoped
    if storage is None:
        try:
            storage = app.storage.user
        except RuntimeError:   # outside a page request
            return False
    return storage.get(FOUR_COLOURS_KEY) is True


def choose_four_colours(on: bool) -> None:
    app.storage.user[FOUR_COLOURS_KEY] = bool(on)


@contextmanager
def colour_scope(four: bool) -> Iterator[None]:
    """Draw the cards of a burst of markup in the reader's colours (like i18n's language_scope)."""
    token = _SCOPED_COLOURS.set(four)
    try:
        yield
    finally:
        _SCOPED_COLOURS.reset(token)


def register_card_routes() -> None:
    app.add_api_route('/cards/{deck}/{code}.svg', _card_face, methods=['GET'], include_in_schema=False)
    app.add_api_route('/cards/back.svg', lambda: _svg(back_svg()), methods=['GET'], include_in_schema=False)
    app.add_api_route('/cards/empty.svg', lambda: _svg(empty_slot_svg()), methods=['GET'], include_in_schema=False)


def _card_face(deck: str, code: str) -> Response:
    if deck not in _DECKS:
        raise HTTPException(status_code=404)
    parser, four = _DECKS[deck]
    try:
        card = parser(code)
    except ValueError:
        raise HTTPException(status_code=404) from None
    return _svg(card_svg(card, four_colours=four))


def _svg(markup: str) -> Response:
    return Response(markup, media_type='image/svg+xml', headers=_CACHE)


def card_url(card: Card, four: bool = False) -> str:
    deck = 'es' if card.is_spanish else 'fr4' if four else 'fr'
    return f"/cards/{deck}/{card}.svg"


def card_name(card: Card) -> str:
    """The card's name in the current language, for screen readers and the hand log."""
    return _card_name(current_language(), card)


@lru_cache(maxsize=1024)   # a table names every card of a hand on every move: a few hundred names in all
def _card_name(language: str, card: Card) -> str:
    if card.is_joker:
        return translate(language, 'card.joker')
    deck = 'es' if card.is_spanish else 'fr'
    return translate(language, 'card.name', rank=translate(language, f'card.{deck}.rank.{card.rank}'),
                     suit=translate(language, f'card.{deck}.suit.{card.suit.value}'))


def the_card(card: Card) -> str:
    """The card's name with its article, as a sentence says it: "la sota de copas", "el tres de
    bastos", "the jack of cups". Bare names (``card_name``) label pictures; sentences use this."""
    return _the_card(current_language(), card)


@lru_cache(maxsize=1024)
def _the_card(language: str, card: Card) -> str:
    if card.is_joker:
        return translate(language, 'card.the_joker')
    rank = f"card.{'es' if card.is_spanish else 'fr'}.rank.{card.rank}"
    return translate(language, 'card.the.f' if rank in FEMININE[language] else 'card.the',
                     card=_card_name(language, card))


def card_image(card: Card | None, *, face_down: bool = False, label: str | None = None) -> tuple[str, str, str | None]:
    """(src, alt, data-card) of a card picture: a face only for a card that is shown."""
    return _card_image(current_language(), four_colours(), card, face_down, label)


def _card_image(language: str, four: bool, card: Card | None, face_down: bool,
                label: str | None) -> tuple[str, str, str | None]:
    if card is not None and not face_down:
        return card_url(card, four), label or _card_name(language, card), str(card)
    if face_down:
        return '/cards/back.svg', label or translate(language, 'card.back'), None
    return '/cards/empty.svg', label or translate(language, 'card.empty'), None


def card_html(card: Card | None, *, face_down: bool = False, size: str = 'md', label: str | None = None) -> str:
    """The same picture as `playing_card`, as markup for pieces drawn in one HTML block."""
    return _card_html(current_language(), four_colours(), card, face_down, size, label)


@lru_cache(maxsize=4096)
def _card_html(language: str, four: bool, card: Card | None, face_down: bool, size: str, label: str | None) -> str:
    src, alt, code = _card_image(language, four, card, face_down, label)
    data = f' data-card="{code}"' if code else ''
    return (f'<img class="{_classes(card, face_down, size)}" src="{src}" alt="{escape(alt)}"'
            f' draggable="false"{data}>')


def _classes(card: Card | None, face_down: bool, size: str) -> str:
    # an empty pile is an outline on the felt, without the white face every card has
    empty = ' hod-card-empty' if card is None and not face_down else ''
    return f'hod-card hod-card-{size}{empty} select-none'


class playing_card(ui.element):
    """One card image. `card=None` draws the back (`face_down`) or an empty slot."""

    def __init__(self, card: Card | None, *, face_down: bool = False, size: str = 'md',
                 label: str | None = None) -> None:
        super().__init__('img')
        src, alt, code = card_image(card, face_down=face_down, label=label)
        self.props(f'src="{src}" alt="{escape(alt)}" draggable="false"' + (f' data-card="{code}"' if code else ''))
        self.classes(_classes(card, face_down, size))
