"""Public events of a Continental game in words, in the current language."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.cards import french_card
from app.i18n import counted, ordinal, t
from components.card import the_card
from components.table import log


def contract_words(contract: dict[str, int] | Any) -> str:
    """'dos tríos', 'un trío y una escalera', 'tres escaleras'..."""
    sets, runs = (contract['sets'], contract['runs']) if isinstance(contract, dict) else (contract.sets, contract.runs)
    parts = [t(f'contract.sets.{sets}')] if sets else []
    parts += [t(f'contract.runs.{runs}')] if runs else []
    return t('contract.and', first=parts[0], second=parts[1]) if len(parts) == 2 else parts[0]


def meld_words(meld: dict[str, Any]) -> str:
    return ' '.join(_short(item['card']) for item in meld['cards'])


def _short(code: str) -> str:
    """A card in a few characters, for lists of melds: 7♥, 10♠, J♦, 🃏."""
    if code == 'JK':
        return '🃏'
    return code[:-1] + {'s': '♠', 'h': '♥', 'd': '♦', 'c': '♣'}[code[-1]]


def event_line(event: dict[str, Any], names: Sequence[str], reader: int = 0,
               feminine: Sequence[bool] = ()) -> str | None:   # ``feminine``: the games' one signature, unused here
    kind, data, say, name = log.reading(event, names, reader)
    card = the_card(french_card(data['card'])) if 'card' in data else ''
    if kind == 'deal':
        return say('log.continental.deal', hand=data['hand'], dealer=name, contract=contract_words(data['contract']))
    if kind == 'take_offer':
        return say('log.continental.robo' if data.get('out_of_turn') else 'log.continental.take', name=name, card=card)
    if kind == 'pass_offer':
        return say('log.continental.pass', name=name, card=card)
    if kind == 'draw_stock':
        return say('log.continental.draw_stock', name=name)
    if kind == 'go_down':
        return say('log.continental.go_down', name=name, melds=' · '.join(meld_words(m) for m in data['melds']))
    if kind == 'lay_off':
        owner = data['meld']['owner']
        key = ('log.continental.lay_off_own' if owner == event.get('seat') else
               'log.continental.lay_off_yours' if owner == reader else 'log.continental.lay_off')
        return say(key, name=name, card=card, owner=names[owner], meld=meld_words(data['meld']))
    if kind == 'discard':
        return say('log.continental.discard', name=name, card=card)
    if kind == 'reshuffle':
        return say('log.continental.reshuffle', cards=counted('amount.cards', data['stock_size']),
                   number=ordinal(data['rebuild']))
    if kind == 'hand_end':
        if data['reason'] == 'out':
            out = data['out_seat']
            key = 'log.continental.out_at_once' if data['points'][out] < 0 else 'log.continental.out'
            return log.speaker(out, reader)(key, name=names[out], hand=data['hand'])
        return say('log.continental.no_draw', hand=data['hand'])
    if kind == 'game_over':
        return log.winners_line('log.continental.game_over', data['winners'], names, reader)
    return None


def log_lines(events: Sequence[dict[str, Any]], names: Sequence[str], reader: int = 0, limit: int = 30,
              cache: dict[int, tuple[dict[str, Any], str | None]] | None = None) -> list[str]:
    return log.log_lines(events, names, reader, event_line, limit, cache)
