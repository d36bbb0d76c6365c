"""Public events of a Chinchón game in words, in the current language."""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from app.engine.cards import spanish_card
from app.i18n import CATALOGS, counted, current_language, ordinal, personal, t
from components.card import the_card
from components.table import log


def out_words(seats: Sequence[int], names: Sequence[str], reader: int, feminine: Sequence[bool], key: str) -> str:
    """Who went over the limit: you in the second person, then the others, the Spanish agreeing
    with one name or with all (``<key>.you``, ``<key>.one`` / ``<key>``, and their ``.f`` forms)."""
    parts = [t(f'{key}.you')] if reader in seats else []
    others = [seat for seat in seats if seat != reader]
    if others:
        women = bool(feminine) and all(feminine[seat] for seat in others)
        one = f'{key}.one'
        parts.append(personal(one if len(others) == 1 and one in CATALOGS[current_language()] else key,
                              feminine=women, names=', '.join(names[seat] for seat in others)))
    return ' '.join(parts)


def event_line(event: dict[str, Any], names: Sequence[str], reader: int = 0,
               feminine: Sequence[bool] = ()) -> str | None:
    """One line for the hand log, or None for events that need no line. The reader's own seat is
    addressed in the second person."""
    kind, data, say, name = log.reading(event, names, reader)
    card = the_card(spanish_card(data['card'])) if 'card' in data else ''
    if kind == 'deal':
        return log.speaker(data['dealer'], reader)('log.chinchon.deal', hand=data['hand'], dealer=names[data['dealer']],
                 card=the_card(spanish_card(data['first_discard'])))
    if kind == 'close':
        key = 'log.chinchon.close_chinchon' if data.get('chinchon') else 'log.chinchon.close'
        return say(key, name=name, score=data.get('score', 0))
    if kind == 'eliminated':
        return out_words(data['seats'], names, reader, feminine, 'log.chinchon.eliminated')
    if kind == 'buyback':
        key = 'log.chinchon.buyback_yes' if data.get('accept') else 'log.chinchon.buyback_no'
        return say(key, name=name, score=counted('amount.points', data.get('score', 0)))
    if kind == 'game_over':
        return log.winners_line('log.chinchon.game_over', data['winners'], names, reader)
    if kind in SIMPLE:
        return say(f'log.chinchon.{kind}', name=name, card=card, number=ordinal(data['number']) if 'number' in data else '',
                 hand=data.get('hand', ''))
    return None


SIMPLE = frozenset({'draw_stock', 'draw_discard', 'discard', 'reshuffle', 'count', 'void_hand'})


def log_lines(events: Sequence[dict[str, Any]], names: Sequence[str], reader: int = 0, limit: int = 30,
              cache: dict[int, tuple[dict[str, Any], str | None]] | None = None,
              feminine: Sequence[bool] = ()) -> list[str]:
    return log.log_lines(events, names, reader, partial(event_line, feminine=feminine), limit, cache)
