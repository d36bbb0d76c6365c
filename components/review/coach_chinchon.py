"""Chinchón's options in words, for the coach's sentences ("Tirar el rey de copas te costó…")."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.chinchon import Close, Discard, DrawDiscard, DrawStock
from app.i18n import t
from components.card import the_card


def option_words(actions: tuple[Any, ...], view: Any, names: Sequence[str | None] | None = None) -> str:
    """The option as an infinitive phrase, lower case: "robar del mazo", "tirar el rey de copas"
    (no other seat is named: ``names`` is there for the games whose options name one)."""
    action = actions[0]
    if isinstance(action, DrawStock):
        return t('coach.chinchon.draw_stock')
    if isinstance(action, DrawDiscard):
        return t('coach.chinchon.draw_discard', card=the_card(view.discard_top))
    if isinstance(action, Close):
        return t('coach.chinchon.close', card=the_card(action.card))
    if isinstance(action, Discard):
        return t('coach.chinchon.discard', card=the_card(action.card))
    raise ValueError(f'no words for {action!r}')
