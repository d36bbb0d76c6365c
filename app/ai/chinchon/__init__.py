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

from app.engine.chinchon import BuyBack, ChinchonView, Close, Discard, DrawDiscard, DrawStock, best_arrangement
from app.engine.chinchon import best_close, best_count, best_discard
from app.engine.chinchon.melds import card_index
from app.engine.protocol import LEVELS

from . import policy
from .knowledge import Knowledge, read_view


class _Bot:
    room_share = 0.1
    patience = 1.0

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: ChinchonView):
        legal = view.legal_actions
        if not legal:
            raise ValueError('this view has no decision to make')
        if len(legal) == 1:
            return legal[0]
        if view.phase == 'buyback':
            action = BuyBack(policy.buyback(view.rules.limit, view.buyback_score, self.room_share))
        else:
            kn = read_view(view)
            kn.patience = self.patience
            action = self.draw(kn) if view.phase == 'draw' else self.discard(kn)
        return action if action in legal else legal[0]   # never expected: a bot must not break the game

    def draw(self, kn: Knowledge):
        return DrawDiscard() if policy.take_discard(kn) else DrawStock()

    def discard(self, kn: Knowledge):
        card = policy.close_choice(kn)
        if card is not None:
            return Close(card)
        keep = policy.hunt_chinchon(kn)
        ranked = policy.rank_discards(kn, self.allowed(kn), keep)
        if not ranked:
            ranked = policy.rank_discards(kn, self.allowed(kn))
        return Discard(ranked[0][1])

    @staticmethod
    def allowed(kn: Knowledge) -> list:
        return [card for card in kn.hand if card != kn.taken or kn.hand.count(card) > 1]


class EasyBot(_Bot):
    room_share = 0.25
    wander = 0.2

    def draw(self, kn: Knowledge):
        top = kn.top
        if top is None or card_index(top) in kn.discarded[kn.seat]:   # never back and forth
            return DrawStock()
        eight = kn.hand + [top]
        melded = any(top in meld for meld in best_arrangement(eight).melds)
        if melded and best_discard(eight, top)[1] < best_count(kn.hand):
            return DrawDiscard()
        return DrawStock()

    def discard(self, kn: Knowledge):
        found = best_close(kn.hand, kn.taken)
        if found is not None and kn.scores[kn.seat] + found[1] <= kn.limit:
            return Close(found[0])
        if self.rng.random() < self.wander:
            loose = [card for card in best_arrangement(kn.hand).loose if card in self.allowed(kn)]
            if loose:
                return Discard(self.rng.choice(loose))
        return Discard(best_discard(kn.hand, kn.taken)[0])


class NormalBot(_Bot):
    pass


def _hard(rng: random.Random, **options):
    from .search import HardBot
    return HardBot(rng, **options)


_LEVELS = {'easy': EasyBot, 'normal': NormalBot, 'hard': _hard}
assert set(_LEVELS) == set(LEVELS)


def make_bot(level: str, rng: random.Random, **options: object):
    """``level`` is one of ``protocol.LEVELS``; options tune the hard player (see ``search.HardBot``)."""
    try:
        factory = _LEVELS[level]
    except KeyError as error:
        raise ValueError(f'unknown level {level!r}, expected one of {", ".join(LEVELS)}') from error
    return factory(rng, **options)


__all__ = ['make_bot', 'EasyBot', 'NormalBot']
