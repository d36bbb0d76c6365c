"""The easy and normal Chinchón players, and the judgement every level starts from (``_Bot``);
the hard player, built on it, is in ``search``. What each level does: the package's docstring."""
from __future__ import annotations

import random

from app.engine.chinchon import BuyBack, ChinchonView, Close, Discard, DrawDiscard, DrawStock, best_arrangement
from app.engine.chinchon import best_close, best_count, best_discard
from app.engine.chinchon.melds import card_index

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
