"""Computer players for Chinchón. They see one seat's ``ChinchonView`` and nothing else, and keep
no memory between calls: everything is rebuilt from the view (``knowledge.read_view``).

- easy: the solver's lowest-deadwood discard, but one discard in five is a random loose card;
  takes the discard top only when it completes a meld; closes as soon as it may.
- normal: deadwood plus the potential of live cards, discards judged by what the next seat took
  and passed, takes the top when it beats a stock card by more than the secret is worth; closes
  at once except to hunt a live chinchón or when the close would put it over the limit.
- hard: the normal player's judgement with less weight on a hand's potential against its
  deadwood (``patience``, which arena runs favoured); and when that call is close, its best
  alternatives (the other discards near normal's best, closing now or playing on, the other
  draw), each played out to the end of the hand in the same hidden hands and stocks sampled to
  fit the view (``search``) and judged by the chance of winning the game it leaves; an
  alternative replaces the normal choice only when it wins by more than the sampling noise.

Buy-back (room option): coming back never lowers a player's chances, but with almost no room it
only lengthens a lost game; easy comes back with a quarter of the limit to spare, normal with a
tenth, hard always.
"""
from __future__ import annotations

import random

from app.engine.protocol import LEVELS

from .players import EasyBot, NormalBot
from .search import HardBot

_LEVELS = {'easy': EasyBot, 'normal': NormalBot, 'hard': HardBot}
assert set(_LEVELS) == set(LEVELS)


def make_bot(level: str, rng: random.Random, **options: object):
    """``level`` is one of ``protocol.LEVELS``; options tune the hard player (see ``search.HardBot``)."""
    try:
        factory = _LEVELS[level]
    except KeyError as error:
        raise ValueError(f'unknown level {level!r}, expected one of {", ".join(LEVELS)}') from error
    return factory(rng, **options)


__all__ = ['make_bot', 'EasyBot', 'NormalBot']
