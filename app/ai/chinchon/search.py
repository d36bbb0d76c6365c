"""The hard player: the normal player's choice against its best alternatives, in sampled worlds.

A world deals the unseen cards at random into the hidden part of every other hand (the cards a
seat took from the discard pile and kept stay in its hand) and into the stock, in a random order.
Every candidate is played in the same worlds (common random numbers, so the comparison is fair),
then everybody plays on with a quick greedy policy (take the top when it saves 4+ points, throw
the solver's best discard, close at once) until somebody closes or the stock gives out.
A result is scored in points from our side: what the others score minus what we score, plus a
bonus for a player going over the limit and a large one for a chinchón. Closing now is always
among the candidates, so holding for -10 or a chinchón is played out rather than guessed.
Hidden hands also avoid what a seat passed: one that drew from the stock rather than take a card
that melded with its hand probably did not hold the cards it melds with.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from app.engine.cards import Card
from app.engine.chinchon import (Close, Discard, DrawDiscard, DrawStock, best_arrangement, best_close, best_count,
                                 best_discard, close_score, count_against, is_chinchon)
from app.engine.chinchon.melds import CARDS, card_index

from . import _Bot, policy
from .knowledge import NEIGHBOURS, Knowledge

CHINCHON = 150.0        # a chinchón ends the game: worth far more than any hand
OVER = 30.0             # a player going over the limit
TAKE_SAVING = 4         # the greedy policy takes the discard top when it saves this many points
MAX_TURNS = 40          # a rollout longer than this is scored on deadwood
Z = 2.0                 # how sure the search must be to overrule the normal player
MIN_GAIN = 0.5          # ... and by how many points at least


@dataclass(slots=True)
class World:
    hands: dict[int, list[Card]]
    stock: list[Card]          # top last
    pile: list[Card]           # top last
    reshuffles: int            # reshuffles still allowed


def sample_world(kn: Knowledge, rng: random.Random, tries: int = 4) -> World:
    """Hidden cards dealt at random, preferring hands that would not have let a passed card by:
    a seat that drew from the stock instead of taking a card that melded was unlikely to hold it."""
    unknown = [CARDS[i] for i in range(40) for _ in range(kn.unseen[i])]
    rng.shuffle(unknown)
    hands = {kn.seat: list(kn.hand)}
    for seat in kn.opponents:
        need = max(0, kn.counts[seat] - len(kn.held[seat]))
        known = [CARDS[i] for i in kn.held[seat]]
        passed = [CARDS[i] for i in kn.passed[seat][-4:]]
        for attempt in range(tries):
            start = rng.randrange(len(unknown) - need + 1) if attempt and len(unknown) > need else 0
            hand = known + unknown[start:start + need]
            if not any(_melds_with(hand, card) for card in passed):
                break
        hands[seat] = hand
        del unknown[start:start + need]
    return World(hands, unknown[:kn.stock_size], [CARDS[i] for i in kn.pile], 2 - kn.reshuffles)


def _melds_with(hand: list[Card], card: Card) -> bool:
    t = card_index(card)
    if not any(card_index(other) in NEIGHBOURS[t] for other in hand):
        return False
    return any(card in meld for meld in best_arrangement(hand + [card]).melds)


def _draw_stock(world: World, rng: random.Random) -> Card | None:
    if not world.stock:
        if world.reshuffles == 0 or len(world.pile) < 2:
            return None
        world.stock, world.pile = world.pile[:-1], world.pile[-1:]
        rng.shuffle(world.stock)
        world.reshuffles -= 1
    return world.stock.pop()


def _settle(world: World, kn: Knowledge, closer: int, seven: list[Card]) -> float:
    """The count of a close, as a result for us."""
    if is_chinchon(seven):
        return CHINCHON if closer == kn.seat else -CHINCHON
    melds = best_arrangement(seven).melds
    added = {seat: count_against(hand, melds) for seat, hand in world.hands.items() if seat != closer}
    added[closer] = close_score(seven)
    return _result(kn, added)


def _result(kn: Knowledge, added: dict[int, float]) -> float:
    others = [seat for seat in added if seat != kn.seat]
    value = sum(added[seat] for seat in others) / len(others) - added[kn.seat]
    for seat, points in added.items():
        if kn.scores[seat] + points > kn.limit >= kn.scores[seat]:
            value += -OVER if seat == kn.seat else OVER / len(others)
    return value


def _turn_end(world: World, kn: Knowledge, seat: int, taken: Card | None) -> float | None:
    """Greedy second half of a turn (8 cards): close if possible, else the best discard."""
    hand = world.hands[seat]
    card, loose = best_discard(hand, taken)
    if loose <= 5:
        found = best_close(hand, taken)
        if found is not None and kn.scores[seat] + found[1] <= kn.limit:
            hand.remove(found[0])
            return _settle(world, kn, seat, hand)
    hand.remove(card)
    world.pile.append(card)
    return None


def _greedy_turn(world: World, kn: Knowledge, seat: int, rng: random.Random) -> float | None:
    hand = world.hands[seat]
    taken = None
    if world.pile:
        top = world.pile[-1]
        t = card_index(top)
        if any(card_index(card) in NEIGHBOURS[t] for card in hand):
            if best_discard(hand + [top], top)[1] <= best_count(hand) - TAKE_SAVING:
                taken = world.pile.pop()
                hand.append(taken)
    if taken is None:
        card = _draw_stock(world, rng)
        if card is None:
            raise _Void
        hand.append(card)
    return _turn_end(world, kn, seat, taken)


class _Void(Exception):
    """The stock ran out for good: the hand is void."""


def _deadwood_result(world: World, kn: Knowledge) -> float:
    return _result(kn, {seat: best_count(hand) * 0.5 for seat, hand in world.hands.items()})


def rollout(world: World, kn: Knowledge, action, rng: random.Random) -> float:
    """Our ``action`` in ``world``, then everybody greedy until the hand ends."""
    me = kn.seat
    try:
        if isinstance(action, Close):
            hand = world.hands[me]
            hand.remove(action.card)
            return _settle(world, kn, me, hand)
        if isinstance(action, Discard):
            world.hands[me].remove(action.card)
            world.pile.append(action.card)
        else:
            if isinstance(action, DrawDiscard):
                taken = world.pile.pop()
            else:
                taken = None
                card = _draw_stock(world, rng)
                if card is None:
                    return 0.0
                world.hands[me].append(card)
            if taken is not None:
                world.hands[me].append(taken)
            result = _turn_end(world, kn, me, taken)
            if result is not None:
                return result
        order = kn.players                       # starts with the seat after ours, ends with ours
        for turn in range(MAX_TURNS):
            result = _greedy_turn(world, kn, order[turn % len(order)], rng)
            if result is not None:
                return result
        return _deadwood_result(world, kn)
    except _Void:
        return 0.0


def _copy(world: World) -> World:
    return World({seat: list(hand) for seat, hand in world.hands.items()}, list(world.stock),
                 list(world.pile), world.reshuffles)


class HardBot(_Bot):
    room_share = 0.0

    def __init__(self, rng: random.Random, budget: float = 0.4, worlds: int = 60, shortlist: int = 3) -> None:
        super().__init__(rng)
        self.budget, self.worlds, self.shortlist = budget, int(worlds), int(shortlist)

    def draw(self, kn: Knowledge):
        normal = super().draw(kn)
        top = kn.top
        if top is None or card_index(top) in kn.discarded[kn.seat] \
                or not any(card_index(card) in NEIGHBOURS[card_index(top)] for card in kn.hand):
            return normal                # nothing to weigh, or a card we threw: never back and forth
        return self.search(kn, [normal, DrawStock() if isinstance(normal, DrawDiscard) else DrawDiscard()])

    def discard(self, kn: Knowledge):
        found = best_close(kn.hand, kn.taken)
        if found is not None and is_chinchon(_without(kn.hand, found[0])):
            return Close(found[0])
        normal = super().discard(kn)
        candidates = [normal]
        if found is not None and kn.scores[kn.seat] + found[1] <= kn.limit and Close(found[0]) not in candidates:
            candidates.append(Close(found[0]))
        for _, card in policy.rank_discards(kn, self.allowed(kn))[:self.shortlist]:
            if Discard(card) not in candidates:
                candidates.append(Discard(card))
        if len(candidates) == 1:
            return normal
        return self.search(kn, candidates)

    def search(self, kn: Knowledge, candidates: list):
        """The first candidate (normal's choice) unless another beats it clearly: by more than
        ``Z`` standard errors of the paired differences, world by world."""
        deadline = time.perf_counter() + self.budget
        sums = [0.0] * len(candidates)
        squares = [0.0] * len(candidates)
        worlds = 0
        for _ in range(self.worlds):
            world = sample_world(kn, self.rng)
            seed = self.rng.random()
            results = [rollout(_copy(world), kn, action, random.Random(seed)) for action in candidates]
            for k, result in enumerate(results):
                diff = result - results[0]
                sums[k] += diff
                squares[k] += diff * diff
            worlds += 1
            if time.perf_counter() > deadline:
                break
        best, best_mean = 0, 0.0
        for k in range(1, len(candidates)):
            mean = sums[k] / worlds
            spread = max(0.0, squares[k] / worlds - mean * mean) ** 0.5
            if mean > MIN_GAIN and mean > Z * spread / worlds ** 0.5 and mean > best_mean:
                best, best_mean = k, mean
        return candidates[best]


def _without(hand: list[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest
