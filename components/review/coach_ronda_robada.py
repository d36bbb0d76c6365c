"""A Ronda Robada option (one turn's plan, app/coach/ronda_robada.py) in words, in the
current language: an infinitive phrase, lowercase, for the coach's sentences ("{chosen} te costó
unos {points}: mejor {best}.").

A plan says what the turn won: the piles it took, else the loose card it matched or the run it
made, and where it stopped when the run could have gone on."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.ronda_robada import TakeLoose, TakePile, step_options
from app.i18n import FEMININE, current_language, names_list, t
from components.card import the_card


def _the_rank(rank: int) -> str:
    """The rank with its article: "el seis", "la sota", "the six"."""
    key = f'card.es.rank.{rank}'
    return t('card.the.f' if key in FEMININE[current_language()] else 'card.the', card=t(key))


def _pile(owner: int, reader: int, names: Sequence[str | None] | None) -> str:
    if owner == reader:
        return t('coach.ronda.own_pile')
    name = names[owner] if names is not None else None
    return t('coach.ronda.pile', name=name) if name else t('coach.ronda.seat_pile', number=owner + 1)


def option_words(actions: tuple, view: Any, names: Sequence[str | None] | None = None) -> str:
    """``actions``: a whole turn (a drop, or a run started, its steps and its confirm) played from
    ``view``, the turn's first view for the seat on turn (spoken to as "you"). ``names``: every
    seat's name, as ``ReviewSource.names`` gives them (the reader's own is not used and may be
    None); without them the other seats are "player 2"..."""
    first = actions[0]
    if first.kind == 'drop':
        return t('coach.ronda.drop', card=the_card(first.card))
    loose, tops = list(view.loose), list(view.pile_tops)
    loose.remove(first.loose)
    rank, closed, taken = first.card.rank, False, []
    for action in actions[1:]:
        if type(action) is TakeLoose:
            loose.remove(action.card)
            reached = action.card.rank
        elif type(action) is TakePile:
            reached, tops[action.owner] = tops[action.owner].rank, None
            taken.append(action.owner)
        else:
            break
        rank, closed = reached, reached < rank
    cards, owners = step_options(rank, closed, loose, tops)
    stopped = bool(cards or owners)
    words = {'card': the_card(first.card), 'rank': _the_rank(rank)}
    if taken:
        piles = names_list([_pile(owner, view.seat, names) for owner in taken])
        return t('coach.ronda.piles_stop' if stopped else 'coach.ronda.piles', piles=piles, **words)
    if stopped:
        return t('coach.ronda.stop', **words)
    if len(actions) > 2:
        return t('coach.ronda.run', **words)
    return t('coach.ronda.match', loose=the_card(first.loose), **words)
