"""Public events of a Chinchón game in words, in the current language."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.cards import spanish_card
from components.card import card_name
from components.table import log


def event_line(event: dict[str, Any], names: Sequence[str], reader: int = 0) -> str | None:
    """One line for the hand log, or None for events that need no line. The reader's own seat is
    addressed in the second person."""
    kind, data, say, name = log.reading(event, names, reader)
    card = card_name(spanish_card(data['card'])) if 'card' in data else ''
    if kind == 'deal':
        return say('log.chinchon.deal', hand=data['hand'], dealer=names[data['dealer']],
                 card=card_name(spanish_card(data['first_discard'])))
    if kind == 'close':
        key = 'log.chinchon.close_chinchon' if data.get('chinchon') else 'log.chinchon.close'
        return say(key, name=name, score=data.get('score', 0))
    if kind == 'eliminated':
        return say('log.chinchon.eliminated', names=', '.join(names[s] for s in data['seats']))
    if kind == 'buyback':
        key = 'log.chinchon.buyback_yes' if data.get('accept') else 'log.chinchon.buyback_no'
        return say(key, name=name, score=data.get('score', 0))
    if kind == 'game_over':
        return say('log.chinchon.game_over', names=', '.join(names[s] for s in data['winners']))
    if kind in SIMPLE:
        return say(f'log.chinchon.{kind}', name=name, card=card, number=data.get('number', ''),
                 hand=data.get('hand', ''))
    return None


SIMPLE = frozenset({'draw_stock', 'draw_discard', 'discard', 'reshuffle', 'count', 'void_hand'})


def log_lines(events: Sequence[dict[str, Any]], names: Sequence[str], reader: int = 0, limit: int = 30,
              cache: dict[int, tuple[dict[str, Any], str | None]] | None = None) -> list[str]:
    return log.log_lines(events, names, reader, event_line, limit, cache)
