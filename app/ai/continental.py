"""Continental computer players. They see one seat's view (with its legal actions), nothing else.

easy    takes an offer that pairs up with its hand, never robs out of turn, goes down at once,
        lays off what it can and often discards carelessly.
normal  scores each card by how well it links with the rest for this hand's contract (same rank
        for sets, same suit within two for runs), robs out of turn only for a strong link, sheds
        high cards once down and avoids feeding what the next seats took.
hard    measures the distance to the contract with the solver (how many wild cards the hand still
        lacks), counts the cards still to come that would shorten it (not on the table, in the
        discard pile or picked up by a rival), weighs the penalty card of a rob, and waits a turn
        to go down and out in one go (-20) when it is one card away. It takes an offer that does
        not shorten the distance only when the hand left after its best discard waits on clearly
        more cards, and never takes back a card it discarded in this hand, so two players cannot
        hand the same cards back and forth for ever without drawing.
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


# a discard's danger (how much the next seats want it) weighs at most like a good link: over a
# long hand it would otherwise outgrow every other reason, and the players would throw the cards
# they need and never go down
MAX_DANGER = 4.0


def layable(card: Card, view: View) -> bool:
    return any(meld.lay_off_positions(card) for meld in view.melds)


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
        self._seen_key: tuple | None = None
        self._seen_cards: Counter = Counter()
        self._answers_key: tuple | None = None
        self._answers: dict[int, list[tuple[str, Card]]] = {}

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
            # never a card it would throw straight back: two normal players who each held a pair of
            # threes took one three from each other and threw it back for ever, the stock untouched
            return link >= (3 if on_turn else 6) and self._discard(view, hand + [card]) != card
        return self._hard_wants(view, card, hand, on_turn)

    def _hard_wants(self, view: View, card: Card, hand: list[Card], on_turn: bool) -> bool:
        number = view.hand_number
        before = self.feasible.need(hand, number)
        after = self.feasible.need(hand + [card], number, max(0, before - 1))
        if after < before:
            # a rob adds an unknown card: worth it only when it brings going down close
            return on_turn or after <= 2 or view.hand_number >= 5
        if not on_turn or before == 0 or before >= FAR or card in self._own_discards(view):
            return False
        if not link_score(card, hand + [card], view.contract.sets, view.contract.runs):
            return False
        # same distance: take it only when the hand it leaves after the best discard waits on
        # clearly more cards than the hand now (never a card it would throw straight back)
        kept = self._rank_discards(view, hand + [card])
        if not kept or kept[0][2] == card or kept[0][0] > before:
            return False
        return kept[0][1] > self._outs(hand, view, before) + 2

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
    def _discard(self, view: View, hand: list[Card] | None = None) -> Card:
        """What to throw from ``hand`` (the view's own, unless another is asked about)."""
        hand = list(view.hand) if hand is None else hand
        candidates = sorted(set(hand))
        if len(candidates) == 1:
            return candidates[0]
        # a joker is never thrown while a natural card can be: it fits any meld, and the next
        # player takes it (a hand where every natural looked dangerous to throw had the joker go
        # round the table, each seat taking it and throwing it back, for ever)
        naturals = [card for card in candidates if not card.is_joker] or candidates
        if self.level == 'easy' and self.rng.random() < 0.5:
            return self.rng.choice(naturals)
        if view.down[view.seat]:
            return max(naturals, key=lambda card: (card_points(card) - 8 * self._danger(card, view)
                                                   - 30 * layable(card, view), card))
        if self.level == 'hard':
            return self._hard_discard(view, hand, candidates)
        sets, runs = view.contract.sets, view.contract.runs
        pressure = self._pressure(view)
        return min(naturals, key=lambda card: (
            link_score(card, hand, sets, runs) - pressure * card_points(card) / 10
            + (2.5 * self._danger(card, view) if self.level != 'easy' else 0), card))

    def _hard_discard(self, view: View, hand: list[Card], candidates: list[Card]) -> Card:
        ranked = self._rank_discards(view, hand)
        return ranked[0][2] if ranked else candidates[0]

    def _rank_discards(self, view: View, hand: list[Card]) -> list[tuple[int, int, Card]]:
        """(wild cards still lacking, outs, card) for the discards worth comparing, best first:
        the fewest lacking, then the most outs, fewest points kept and least danger. Jokers are
        never thrown; outs are counted only for the few candidates left after the cheap cuts."""
        number = view.hand_number
        base = self.feasible.need(hand, number)
        scored = []
        for card in sorted(set(hand)):
            if card.is_joker:
                continue
            rest = list(hand)
            rest.remove(card)
            missing = base if self.feasible(rest, number, base) else self.feasible.need(rest, number, base + 1)
            scored.append((missing, card))
        if not scored:
            return []
        low = min(missing for missing, _ in scored)
        best = [card for missing, card in scored if missing == low]
        if len(best) == 1:
            return [(low, 0, best[0])]
        sets, runs = view.contract.sets, view.contract.runs
        if len(best) > 4:
            best = sorted(best, key=lambda card: link_score(card, hand, sets, runs) - card_points(card) / 10)[:4]
        pressure = self._pressure(view)
        ranked = []
        for card in best:
            rest = list(hand)
            rest.remove(card)
            outs = self._outs(rest, view, low)
            ranked.append((-outs - pressure * card_points(card) / 4 + 3 * self._danger(card, view), card, outs))
        ranked.sort(key=lambda item: (item[0], item[1]))
        return [(low, outs, card) for _, card, outs in ranked]

    def _outs(self, hand: list[Card], view: View, missing: int) -> int:
        """Unseen copies of the cards that would bring ``hand`` one card nearer the contract.

        Only cards that link with the hand can: a run card needs a natural of its suit within two
        values (two jokers never touch), a set card a natural of its rank. Set cards of a rank
        whose suit links with nothing are interchangeable, so one solver call counts them all."""
        if missing == 0 or missing >= FAR:
            return 0
        number = view.hand_number
        seen = Counter(hand) + self._seen(view)
        naturals = [card for card in hand if not card.is_joker]
        near: set[Card] = set()
        if view.contract.runs:
            for card in naturals:
                for value in _value_sets(card):
                    for step in (-2, -1, 1, 2):
                        rank = value + step
                        if 1 <= rank <= 14:
                            near.add(Card(1 if rank == 14 else rank, card.suit))
        outs = 0
        for target in near:
            copies = 2 - seen[target]
            if copies > 0 and self.feasible(hand + [target], number, missing - 1):
                outs += copies
        if view.contract.sets:
            for rank in {card.rank for card in naturals}:
                plain = [Card(rank, suit) for suit in FrenchSuit if Card(rank, suit) not in near]
                copies = sum(max(0, 2 - seen[card]) for card in plain)
                if copies and self.feasible(hand + [plain[0]], number, missing - 1):
                    outs += copies
        return outs

    # reading the table ---------------------------------------------------------------------
    def _seen(self, view: View) -> Counter:
        """Cards that cannot come from the stock: on the table, in the discard pile, or taken from
        the pile by a rival and not shown since (followed through this hand's events)."""
        key = (view.commitment, view.seat, len(view.events))      # one hand's events so far
        if self._seen_key == key:
            return self._seen_cards
        pile: list[Card] = []
        held: Counter = Counter()
        for event in view.events:
            kind = event.kind
            if kind == 'offer' and event.data.get('discarder') is None and not pile:
                pile.append(french_card(event.data['card']))
            elif kind == 'discard':
                card = french_card(event.data['card'])
                pile.append(card)
                if held[card] > 0 and event.seat != view.seat:
                    held[card] -= 1
            elif kind == 'take_offer':
                card = pile.pop() if pile else french_card(event.data['card'])
                if event.seat != view.seat:
                    held[card] += 1
            elif kind == 'reshuffle':
                pile = pile[-1:]
            elif kind in ('go_down', 'lay_off') and event.seat != view.seat:
                shown = ([item['card'] for meld in event.data['melds'] for item in meld['cards']]
                         if kind == 'go_down' else [event.data['card']])
                for text in shown:
                    card = french_card(text)
                    if held[card] > 0:
                        held[card] -= 1
        seen = Counter(pile) + +held
        for meld in view.melds:
            seen.update(meld.cards)
        self._seen_key, self._seen_cards = key, seen
        return seen

    @staticmethod
    def _own_discards(view: View) -> set[Card]:
        return {french_card(event.data['card']) for event in view.events
                if event.kind == 'discard' and event.seat == view.seat}

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

    def _offer_answers(self, view: View, seat: int) -> list[tuple[str, Card]]:
        """What ``seat`` took and passed in this hand, each card counted once however often it
        went round (a long hand repeats offers); read once per view, not once per card weighed."""
        key = (view.commitment, view.seat, len(view.events))
        if self._answers_key != key:
            self._answers_key, self._answers = key, {}
        answers = self._answers.get(seat)
        if answers is None:
            seen = {(event.kind, event.data['card']) for event in view.events
                    if event.seat == seat and event.kind in ('take_offer', 'pass_offer') and 'card' in event.data}
            answers = self._answers[seat] = [(kind, french_card(code)) for kind, code in seen]
        return answers

    def _danger(self, card: Card, view: View) -> float:
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
            for kind, other in self._offer_answers(view, seat):
                if other.is_joker:
                    continue
                related = other.rank == card.rank or (
                    other.suit == card.suit and abs(other.rank - card.rank) <= 2)
                if kind == 'take_offer' and related:
                    danger += weight
                elif kind == 'pass_offer' and other == card:
                    danger -= weight * 0.5
            if view.down[seat] and layable(card, view):
                danger += 2 * weight
        return min(danger, MAX_DANGER)


def make_bot(level: str, rng: random.Random | None = None, **options: Any) -> ContinentalBot:
    """A computer player for ``level`` in easy | normal | hard."""
    return ContinentalBot(level, rng if rng is not None else random.Random())
