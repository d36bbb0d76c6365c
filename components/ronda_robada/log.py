"""Public events of a Ronda Robada game in words, in the current language."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.cards import spanish_card
from app.i18n import counted
from components.card import the_card
from components.table import log


def cards_words(codes: Sequence[str]) -> str:
    return ', '.join(the_card(spanish_card(code)) for code in codes)


def event_line(event: dict[str, Any], names: Sequence[str], reader: int = 0,
               feminine: Sequence[bool] = ()) -> str | None:   # ``feminine``: the games' one signature, unused here
    """One line for the log, or None. The reader is spoken to in the second person, also when a
    pile of theirs is taken."""
    kind, data, say, name = log.reading(event, names, reader)
    card = the_card(spanish_card(data['card'])) if 'card' in data else ''
    if kind == 'deal':
        return say('log.ronda.deal', dealer=name, cards=cards_words(data['loose']),
                   stock=counted('amount.cards', data['stock']))
    if kind == 'start_run':
        return say('log.ronda.start_run', name=name, card=card, loose=the_card(spanish_card(data['loose'])))
    if kind == 'take_loose':
        return say('log.ronda.take_loose', name=name, card=card)
    if kind == 'take_pile':
        owner = data['owner']
        key = ('log.ronda.take_own_pile' if owner == event.get('seat') else
               'log.ronda.take_your_pile' if owner == reader else 'log.ronda.take_pile')
        return say(key, name=name, owner=names[owner], size=counted('amount.cards', data['size']),
                   card=the_card(spanish_card(data['top'])))
    if kind == 'confirm':
        return say('log.ronda.confirm', name=name, cards=counted('amount.cards', data['cards']),
                   top=the_card(spanish_card(data['top'])), pile=counted('amount.cards', data['pile_size']))
    if kind == 'drop':
        return say('log.ronda.drop', name=name, card=card)
    if kind == 'redeal':
        return say('log.ronda.redeal', stock=data['stock'])
    if kind == 'sweep':
        if data.get('to') is None:
            return say('log.ronda.sweep_nobody', cards=cards_words(data['cards']))
        return say('log.ronda.sweep', name=name, cards=cards_words(data['cards']))
    if kind == 'game_over':
        return log.winners_line('log.ronda.game_over', data['winners'], names, reader)
    return None


def log_lines(events: Sequence[dict[str, Any]], names: Sequence[str], reader: int = 0, limit: int = 30,
              cache: dict[int, tuple[dict[str, Any], str | None]] | None = None) -> list[str]:
    return log.log_lines(events, names, reader, event_line, limit, cache)
