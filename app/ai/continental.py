"""Continental computer players. They see one seat's view (with its legal actions), nothing else.

easy    takes an offer that pairs up with its hand, never robs out of turn, goes down at once,
        lays off what it can and often discards carelessly.
normal  scores each card by how well it links with the rest for this hand's contract (same rank
        for sets, same suit within two for runs), robs out of turn only for a strong link, sheds
        high cards once down and avoids feeding what the next seats took.
hard    measures the distance to the contract with the solver (how many wild cards the hand still
        lacks), counts the unseen cards that would shorten it, weighs the penalty card of a rob,
        and waits a turn to go down and out in one go (-20) when it is one card away.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from app.engine.cards import JOKER, Card, FrenchSuit, french_card, french_deck
from app.engine.continental import (Discard, DrawStock, GoDown, LayOff, PassOffer, TakeOffer, View,
                                    can_go_down, card_points)
from app.engine.protocol import LEVELS

FAR = 6
_CODE = {card: code for code, card in enumerate(sorted(set(french_deck())))}   # constant lookup


def _value_sets(card: Card) -> tuple[int, ...]:
    return (1, 14) if card.rank == 1 else (card.rank,)


def link_score(card: Card, hand: list[Card], sets: int, runs: int) -> float:
    """How much ``card`` belongs with the rest of ``hand`` for a contract of sets and runs."""
    if card.is_joker:
        return 100.0
    others = list(hand)
    others.remove(card)
    score = 0.0
    if sets:
        same = sum(1 for other in others if other.rank == card.rank)
        score += (0, 3, 6, 7)[min(same, 3)]
    if runs:
        near = 0.0
        ranks = {other.rank for other in others if other.suit == card.suit and other.rank != card.rank}
        for value in _value_sets(card):
            for other in ranks:
                distance = min(abs(value - v) for v in _value_sets(Card(other, card.suit)))
                near += {1: 2.0, 2: 1.0}.get(distance, 0.0)
        score += min(near, 6.0) * (1.0 if sets else 1.3)
    return score


def layable(card: Card, view: View) -> bool:
    return any(meld.lay_off_positions(card) for meld in view.table)


class Feasibility:
    """Memo of "these cards plus ``missing`` wild cards meet the contract" for one bot."""

    def __init__(self) -> None:
        self.known: dict[tuple, bool] = {}

    def __call__(self, hand: list[Card], hand_number: int, missing: int) -> bool:
        key = (hand_number, missing, tuple(sorted(_CODE[card] for card in hand)))
        found = self.known.get(key)
        if found is None:
            if len(self.known) > 50_000:
                self.known.clear()
            found = self.known[key] = can_go_down(hand + [JOKER] * missing, hand_number, keep=0)
        return found

    def need(self, hand: list[Card], hand_number: int, start: int = 0) -> int:
        """Wild cards ``hand`` still lacks to meet the contract (FAR when too many)."""
        for missing in range(start, FAR):
            if self(hand, hand_number, missing):
                return missing
        return FAR


class ContinentalBot:
    def __init__(self, level: str, rng: random.Random) -> None:
        if level not in LEVELS:
            raise ValueError(f'unknown level {level!r}; expected one of {", ".join(LEVELS)}')
        self.level = level
        self.rng = rng
        self.feasible = Feasibility()

    # entry point -------------------------------------------------------------------------
    def choose(self, view: View) -> Any:
        legal = list(view.legal_actions)
        if len(legal) == 1:
            return legal[0]
        if view.phase == 'offer':
            return TakeOffer() if TakeOffer() in legal and self._wants_offer(view) else PassOffer()
        if view.phase == 'draw':
            return DrawStock()
        go_downs = [action for action in legal if isinstance(action, GoDown)]
        if go_downs and self._should_go_down(view, go_downs[0]):
            return go_downs[0]
        lay_offs = [action for action in legal if isinstance(action, LayOff)]
        if lay_offs:
            return max(lay_offs, key=lambda action: card_points(action.card))
        return Discard(self._discard(view))

    # offers ------------------------------------------------------------------------------
    def _wants_offer(self, view: View) -> bool:
        card = view.offer.card
        hand = list(view.hand)
        on_turn = view.offer.on_turn == view.seat
        if view.down[view.seat]:
            return on_turn and (layable(card, view) or card.is_joker)
        if card.is_joker:
            return on_turn or self.level != 'easy'
        if self.level == 'easy':
            return on_turn and link_score(card, hand + [card], view.contract.sets, view.contract.runs) >= 4
        if self.level == 'normal':
            link = link_score(card, hand + [card], view.contract.sets, view.contract.runs)
            return link >= (3 if on_turn else 6)
        return self._hard_wants(view, card, hand, on_turn)

    def _hard_wants(self, view: View, card: Card, hand: list[Card], on_turn: bool) -> bool:
        number = view.hand_number
        before = self.feasible.need(hand, number)
        after = self.feasible.need(hand + [card], number, max(0, before - 1))
        if after < before:
            # a rob adds an unknown card: worth it only when it brings going down close
            return on_turn or after <= 2 or (after < before and view.hand_number >= 5)
        if not on_turn:
            return False
        return after == before and self._outs(hand + [card], view, after) > self._outs(hand, view, before) + 2

    # going down ----------------------------------------------------------------------------
    def _should_go_down(self, view: View, action: GoDown) -> bool:
        if self.level != 'hard':
            return True
        hand = Counter(view.hand)
        for meld in action.melds:
            hand.subtract(meld)
        left = list(hand.elements())
        if len(left) <= 1 or any(view.down[seat] for seat in range(view.seats) if seat != view.seat):
            return True
        # one card from going out at once: wait while nobody is down and the stock is healthy
        return not (len(left) == 2 and view.stock_size > 10 and max(
            card_points(card) for card in left) <= 10)

    # discards ------------------------------------------------------------------------------
    def _discard(self, view: View) -> Card:
        hand = list(view.hand)
        candidates = sorted(set(hand))
        if len(candidates) == 1:
            return candidates[0]
        if self.level == 'easy' and self.rng.random() < 0.5:
            naturals = [card for card in candidates if not card.is_joker] or candidates
            return self.rng.choice(naturals)
        if view.down[view.seat]:
            return max(candidates, key=lambda card: (card_points(card) - 8 * self._danger(card, view)
                                                     - 30 * layable(card, view), card))
        if self.level == 'hard':
            return self._hard_discard(view, hand, candidates)
        sets, runs = view.contract.sets, view.contract.runs
        pressure = self._pressure(view)
        return min(candidates, key=lambda card: (
            link_score(card, hand, sets, runs) - pressure * card_points(card) / 10
            + (2.5 * self._danger(card, view) if self.level != 'easy' else 0), card))

    def _hard_discard(self, view: View, hand: list[Card], candidates: list[Card]) -> Card:
        number = view.hand_number
        base = self.feasible.need(hand, number)
        scored = []
        for card in candidates:
            if card.is_joker:
                continue
            rest = list(hand)
            rest.remove(card)
            missing = base if self.feasible(rest, number, base) else self.feasible.need(rest, number, base + 1)
            scored.append((missing, card))
        if not scored:
            return candidates[0]
        low = min(missing for missing, _ in scored)
        pressure = self._pressure(view)
        best = [card for missing, card in scored if missing == low]
        if len(best) == 1:
            return best[0]
        sets, runs = view.contract.sets, view.contract.runs
        if len(best) > 4:
            best = sorted(best, key=lambda card: link_score(card, hand, sets, runs) - card_points(card) / 10)[:4]

        def cost(card: Card) -> float:
            rest = list(hand)
            rest.remove(card)
            return (-self._outs(rest, view, low) - pressure * card_points(card) / 4
                    + 3 * self._danger(card, view))
        return min(best, key=lambda card: (cost(card), card))

    def _outs(self, hand: list[Card], view: View, missing: int) -> int:
        """Unseen copies of the cards that would bring ``hand`` one card nearer the contract."""
        if missing == 0 or missing >= FAR:
            return 0
        seen = Counter(hand) + Counter(self._seen(view))
        targets = set()
        for card in hand:
            if card.is_joker:
                continue
            if view.contract.sets:
                targets.update(Card(card.rank, suit) for suit in FrenchSuit)
            if view.contract.runs:
                for step in (-2, -1, 1, 2):
                    rank = card.rank + step
                    if 1 <= rank <= 13:
                        targets.add(Card(rank, card.suit))
                    elif rank == 14:
                        targets.add(Card(1, card.suit))
        outs = 0
        for target in targets:
            copies = 2 - seen[target]
            if copies > 0 and self.feasible(hand + [target], view.hand_number, missing - 1):
                outs += copies
        return outs

    # reading the table ---------------------------------------------------------------------
    @staticmethod
    def _seen(view: View) -> list[Card]:
        seen = [card for meld in view.table for card in meld.cards]
        for event in view.events:
            if event.kind == 'discard':
                seen.append(french_card(event.data['card']))
        return seen

    @staticmethod
    def _pressure(view: View) -> float:
        """How much shedding points matters now: more once rivals are down or hold few cards."""
        rivals = [seat for seat in range(view.seats) if seat != view.seat]
        pressure = 1.0
        if any(view.down[seat] for seat in rivals):
            pressure += 2.0
        if min(view.hand_sizes[seat] for seat in rivals) <= 3:
            pressure += 1.0
        return pressure

    @staticmethod
    def _danger(card: Card, view: View) -> float:
        """How likely the next seats want ``card``: they took its rank or suit neighbours this hand,
        or they are down and it fits on the table."""
        if card.is_joker:
            return 3.0
        danger = 0.0
        for step in range(1, view.seats):
            seat = (view.seat + step) % view.seats
            weight = 1.0 if step == 1 else (0.5 if view.rules.robo_de_contra else 0.0)
            if not weight:
                continue
            for event in view.events:
                if event.seat != seat or 'card' not in event.data or event.kind not in ('take_offer', 'pass_offer'):
                    continue
                other = french_card(event.data['card'])
                if other.is_joker:
                    continue
                related = other.rank == card.rank or (
                    other.suit == card.suit and abs(other.rank - card.rank) <= 2)
                if event.kind == 'take_offer' and related:
                    danger += weight
                elif event.kind == 'pass_offer' and other == card:
                    danger -= weight * 0.5
            if view.down[seat] and layable(card, view):
                danger += 2 * weight
        return danger


def make_bot(level: str, rng: random.Random | None = None, **options: Any) -> ContinentalBot:
    """A computer player for ``level`` in easy | normal | hard."""
    return ContinentalBot(level, rng if rng is not None else random.Random())
