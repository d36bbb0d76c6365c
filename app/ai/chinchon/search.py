"""The hard player: the normal player's choice against its best alternatives, in sampled worlds.

Only near calls are searched: the draw when normal's take-or-leave edge (``policy.take_edge``) is
within ``DRAW_MARGIN`` points, the discard when another discard costs within ``DISCARD_MARGIN`` of
normal's best or when we may close (then closing now and the best ways of playing on are all
weighed). Clear calls cost no more than the normal player's.

A world deals the unseen cards at random into the hidden part of every other hand (the cards a
seat took from the discard pile and kept stay in its hand) and into the stock, in a random order;
in a hand without its history the rest go under the pile's known top (``Knowledge.buried``).
Every candidate is played in the same worlds (common random numbers, so the comparison is fair),
then everybody plays on with a quick greedy policy (take the top when it saves 12+ points, throw
the solver's best discard, close at once) until somebody closes or the stock gives out. The
playouts work on solver indices, and the solver's answers for a hand are remembered for the
search, since the same hands come back in every candidate's playout of a world.
A result is our chance of winning the game, guessed from the room each player keeps under the
limit after the count, raised to a power fitted on self-play (a chinchón wins outright);
``by_room=False`` scores points instead: what the others score minus what we score, with bonuses
for going over the limit and for a chinchón.
An alternative replaces normal's choice when its mean gain over normal's, world by world, is
above ``MIN_GAIN`` and ``Z`` standard errors; one that can no longer get there is dropped on the
way, and the search ends when none is left or after ``worlds`` worlds: its budget is counted in
worlds, never in seconds, so the same view and seed give the same move on any machine.
Hidden hands also avoid what a seat let go lately: one that passed or threw a card that melded
with its hand probably did not hold the cards it melds with.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from app.engine.cards import Card
from app.engine.chinchon import (Close, Discard, DrawDiscard, DrawStock, best_arrangement, best_close, close_score,
                                 count_against, is_chinchon)
from app.engine.chinchon.melds import CARDS, FIELD, GUARD40, VALUE, Code, candidates, card_index, max_melded

from . import policy
from .knowledge import NEIGHBOURS, Index, Knowledge
from .players import _Bot

CHINCHON = 150.0        # scoring by points: a chinchón ends the game, worth far more than any hand
OVER = 30.0             # ... and a player going over the limit
TAKE_SAVING = 12        # the greedy policy takes the discard top when it saves this many points:
                        # normal takes 16% of what we could throw, this rule 11% of it on sampled hands
                        # (4 took 52%: hard feared feeding the next seat for nothing; app.bench.chinchon_fidelity)
MAX_TURNS = 40          # a rollout longer than this is scored on deadwood
Z = 1.0                 # how sure the search must be to overrule the normal player (standard errors)
MIN_GAIN = 0.5          # ... and by how much at least (points of winning chance, or of score)
MIN_WORLDS = 12         # worlds played before a hopeless alternative is dropped
DRAW_MARGIN = 2.5       # the draw is searched only when normal's take/leave call is this close
DISCARD_MARGIN = 2.0    # discards costing this much more than normal's best are not searched
TRIES = 8               # deals tried per hidden hand to find one that fits what the seat let go
RECENT = 4              # ... of its last passes and of its last discards
PATIENCE = 0.7          # hard weighs the potential of its hand at this share of normal's weight
POWER = 1.75            # exponent of ``_chances``: app.bench.chinchon_calibrate finds 1.5-2 best at 2-4 seats


@dataclass(slots=True)
class World:
    hands: dict[int, list[Index]]   # solver indices
    stock: list[Index]              # top last
    pile: list[Index]               # top last
    reshuffles: int                 # reshuffles still allowed


def sample_world(kn: Knowledge, rng: random.Random, tries: int = TRIES) -> World:
    """Hidden cards dealt at random, preferring hands that would not have let go of what the seat
    passed or threw lately: a seat that left a card melding with its hand was unlikely to hold it."""
    unknown = [i for i in range(40) for _ in range(kn.unseen[i])]
    rng.shuffle(unknown)
    hands = {kn.seat: [card_index(card) for card in kn.hand]}
    for seat in kn.opponents:
        need = max(0, kn.counts[seat] - len(kn.held[seat]))
        known = list(kn.held[seat])
        let_go = kn.passed[seat][-RECENT:] + kn.discarded[seat][-RECENT:]
        for attempt in range(tries):
            start = rng.randrange(len(unknown) - need + 1) if attempt and len(unknown) > need else 0
            hand = known + unknown[start:start + need]
            if not any(_melds_with(hand, t) for t in let_go):
                break
        hands[seat] = hand
        del unknown[start:start + need]
    # what is left after the stock lies under the pile's named cards (a position without its history)
    buried = unknown[kn.stock_size:kn.stock_size + kn.buried]
    return World(hands, unknown[:kn.stock_size], buried + list(kn.pile), 2 - kn.reshuffles)


def _encode(hand) -> tuple[int, int, int, list]:
    """(multiset, total value, candidate melds, presence mask) of a hand of indices."""
    present = dupes = multiset = total = 0
    for i in hand:
        bit = 1 << i
        if present & bit:
            dupes |= bit
        present |= bit
        multiset += FIELD[i]
        total += VALUE[i]
    return multiset, total, candidates(Code(present, dupes, multiset, total, ())), present


def _melded(hand) -> int:
    """Value of the cards the best arrangement melds."""
    multiset, _, cands, _ = _encode(hand)
    return max_melded(cands, 0, multiset, GUARD40) if cands else 0


def _melds_with(hand: list[Index], t: Index) -> bool:
    """Card ``t`` would join a meld of ``hand``: the best arrangement melds more with it."""
    if not any(i in NEIGHBOURS[t] for i in hand):
        return False
    return _melded(hand + [t]) > _melded(hand)


class Solver:
    """The solver calls of a rollout on hands of indices, remembered for one search: the same
    hands come back in every candidate's playout of a world."""

    def __init__(self, by_room: bool = False, power: float = POWER) -> None:
        self.by_room = by_room       # score results as chances of winning the game (``_chances``)
        self.power = power
        self.turns: dict[tuple, tuple[int, int, int, int]] = {}
        self.counts: dict[tuple, int] = {}

    def count(self, hand: list[Index]) -> int:
        key = tuple(sorted(hand))
        found = self.counts.get(key)
        if found is None:
            multiset, total, cands, _ = _encode(key)
            found = total - (max_melded(cands, 0, multiset, GUARD40) if cands else 0)
            self.counts[key] = found
        return found

    def turn(self, hand: list[Index], taken: Index) -> tuple[int, int, int, int]:
        """For 8 cards: (best discard, its loose points, card to close with or -1, close score).
        ``taken`` (-1 for none) may not leave unless held twice. Chinchón is the best close."""
        key = (tuple(sorted(hand)), taken)
        found = self.turns.get(key)
        if found is None:
            found = self.turns[key] = _turn(key[0], taken)
        return found


def _turn(hand: tuple[Index, ...], taken: Index) -> tuple[int, int, int, int]:
    multiset, total, cands, _ = _encode(hand)
    options = [i for i in dict.fromkeys(hand) if i != taken or hand.count(i) > 1]
    best, best_loose = -1, 99
    melded = {}
    in_melds = {i for cand in cands for i in cand[2]}
    whole = -1          # melded value of all eight, the same without any card that melds with nothing
    for i in options:
        if i in in_melds:
            m = max_melded(cands, 0, multiset - FIELD[i], GUARD40)
        else:
            if whole < 0:
                whole = max_melded(cands, 0, multiset, GUARD40) if cands else 0
            m = whole
        melded[i] = m
        loose = total - VALUE[i] - m
        if loose < best_loose:
            best, best_loose = i, loose
    close, score = -1, 99
    if best_loose <= 5:
        for i in options:
            seven_total = total - VALUE[i]
            m = melded[i]
            if m == seven_total:
                rest = list(hand)
                rest.remove(i)
                if _is_run7(rest):
                    return best, best_loose, i, CHINCHON_SCORE
                value = -10
            elif seven_total - m > 5:
                continue
            else:
                value = _one_loose(cands, multiset - FIELD[i], seven_total, hand, i)
                if value is None:
                    continue
            if value < score:
                close, score = i, value
    return best, best_loose, close, score


CHINCHON_SCORE = -100   # marks a chinchón among close scores (lower than any real one)


def _one_loose(cands, rem: int, total: int, hand, gone: Index) -> int | None:
    """The closer's score when one card (5 or less) stays loose, else None."""
    rest = list(hand)
    rest.remove(gone)
    for value, i in sorted({(VALUE[i], i) for i in rest}):
        if value > 5:
            return None
        if max_melded(cands, 0, rem - FIELD[i], GUARD40) == total - value:
            return value
    return None


def _is_run7(seven: list[Index]) -> bool:
    low = min(seven)
    return sorted(seven) == list(range(low, low + 7)) and low % 10 <= 3


def _draw_stock(world: World, rng: random.Random) -> Index | None:
    if not world.stock:
        if world.reshuffles == 0 or len(world.pile) < 2:
            return None
        world.stock, world.pile = world.pile[:-1], world.pile[-1:]
        rng.shuffle(world.stock)
        world.reshuffles -= 1
    return world.stock.pop()


def _settle(world: World, kn: Knowledge, closer: int, seven: list[Index], score: int, solver: Solver) -> float:
    """The count of a close, as a result for us."""
    if score == CHINCHON_SCORE:
        if solver.by_room:
            return 100.0 if closer == kn.seat else 0.0
        return CHINCHON if closer == kn.seat else -CHINCHON
    melds = best_arrangement([CARDS[i] for i in seven]).melds
    added = {seat: count_against([CARDS[i] for i in hand], melds)
             for seat, hand in world.hands.items() if seat != closer}
    added[closer] = score
    return _result(kn, added, solver)


def _chances(kn: Knowledge, added: dict[int, float], power: float = POWER) -> float:
    """Our chance of winning the game, in percent, guessed from the room each player has left
    under the limit after this hand: ``room ** power`` as a share of the same for all still in.
    The power that predicts the winners of self-play games best (app.bench.chinchon_calibrate) is above 1: a lead
    in room is worth more than its share, since the player with less room tends to go first."""
    weights = {seat: room_weight(kn.limit, kn.scores[seat] + points, power) for seat, points in added.items()}
    total = sum(weights.values())
    return 100.0 * weights[kn.seat] / total if total else 0.0


def room_weight(limit: int, score: float, power: float) -> float:
    """A player's weight in the chances of winning: its room under the limit, ``** power``
    (nothing once over the limit). app.bench.chinchon_calibrate fits ``power`` with this same weight."""
    return max(0.0, limit + 1 - score) ** power


def _result(kn: Knowledge, added: dict[int, float], solver: Solver) -> float:
    if solver.by_room:
        return _chances(kn, added, solver.power)
    others = [seat for seat in added if seat != kn.seat]
    value = sum(added[seat] for seat in others) / len(others) - added[kn.seat]
    for seat, points in added.items():
        if kn.scores[seat] + points > kn.limit >= kn.scores[seat]:
            value += -OVER if seat == kn.seat else OVER / len(others)
    return value


def _turn_end(world: World, kn: Knowledge, seat: int, taken: Index, solver: Solver) -> float | None:
    """Greedy second half of a turn (8 cards): close if possible, else the best discard."""
    hand = world.hands[seat]
    card, _, close, score = solver.turn(hand, taken)
    if close >= 0 and kn.scores[seat] + score <= kn.limit:
        hand.remove(close)
        return _settle(world, kn, seat, hand, score, solver)
    hand.remove(card)
    world.pile.append(card)
    return None


def greedy_takes(hand: list[Index], top: Index, solver: Solver, saving: int | None = None) -> bool:
    """The rollouts' take rule: take the discard top when it saves ``saving`` points
    (``TAKE_SAVING``) of deadwood after the best discard. app.bench.chinchon_fidelity measures it against normal."""
    if not any(i in NEIGHBOURS[top] for i in hand):
        return False
    saving = TAKE_SAVING if saving is None else saving
    hand.append(top)
    takes = solver.turn(hand, top)[1] <= solver.count(hand[:-1]) - saving
    hand.pop()
    return takes


def _greedy_turn(world: World, kn: Knowledge, seat: int, rng: random.Random, solver: Solver) -> float | None:
    hand = world.hands[seat]
    taken = -1
    if world.pile and greedy_takes(hand, world.pile[-1], solver):
        taken = world.pile.pop()
        hand.append(taken)
    else:
        card = _draw_stock(world, rng)
        if card is None:
            raise _Void
        hand.append(card)
    return _turn_end(world, kn, seat, taken, solver)


class _Void(Exception):
    """The stock ran out for good: the hand is void."""


def _deadwood_result(world: World, kn: Knowledge, solver: Solver) -> float:
    return _result(kn, {seat: solver.count(hand) * 0.5 for seat, hand in world.hands.items()}, solver)


def _void(world: World, kn: Knowledge, solver: Solver) -> float:
    return _result(kn, {seat: 0 for seat in world.hands}, solver)


def rollout(world: World, kn: Knowledge, action, rng: random.Random, solver: Solver | None = None) -> float:
    """Our ``action`` in ``world``, then everybody greedy until the hand ends."""
    solver = solver or Solver()
    me = kn.seat
    try:
        if isinstance(action, Close):
            hand = world.hands[me]
            hand.remove(card_index(action.card))
            return _settle(world, kn, me, hand, CHINCHON_SCORE if _is_run7(hand) else close_score(
                [CARDS[i] for i in hand]), solver)
        if isinstance(action, Discard):
            card = card_index(action.card)
            world.hands[me].remove(card)
            world.pile.append(card)
        else:
            if isinstance(action, DrawDiscard):
                taken = world.pile.pop()
            else:
                taken = _draw_stock(world, rng)
                if taken is None:
                    return _void(world, kn, solver)
            world.hands[me].append(taken)
            result = _turn_end(world, kn, me, taken if isinstance(action, DrawDiscard) else -1, solver)
            if result is not None:
                return result
        order = kn.players                       # starts with the seat after ours, ends with ours
        for turn in range(MAX_TURNS):
            result = _greedy_turn(world, kn, order[turn % len(order)], rng, solver)
            if result is not None:
                return result
        return _deadwood_result(world, kn, solver)
    except _Void:
        return _void(world, kn, solver)


def copy_world(world: World) -> World:
    return World({seat: list(hand) for seat, hand in world.hands.items()}, list(world.stock),
                 list(world.pile), world.reshuffles)


class HardBot(_Bot):
    """Options: ``worlds`` (most worlds per search: a decision's whole budget, counted in work so
    that a loaded machine plays the same moves, only later), ``shortlist`` (discards weighed),
    ``draw_margin`` and ``discard_margin`` (how near a call must be to be searched), ``z``
    (standard errors to overrule), ``by_room`` (results as chances of winning the game, else as
    points), ``power`` (exponent of those chances), ``patience`` (weight of a hand's potential
    against its deadwood, normal's is 1)."""
    room_share = 0.0

    def __init__(self, rng: random.Random, worlds: int = 48, shortlist: int = 3,
                 draw_margin: float = DRAW_MARGIN, discard_margin: float = DISCARD_MARGIN, z: float = Z,
                 by_room: bool = True, power: float = POWER, patience: float = PATIENCE) -> None:
        super().__init__(rng)
        self.power, self.patience = power, patience
        self.worlds, self.shortlist = int(worlds), int(shortlist)
        self.draw_margin, self.discard_margin, self.z, self.by_room = draw_margin, discard_margin, z, by_room

    def draw(self, kn: Knowledge):
        edge = policy.take_edge(kn)
        normal = DrawDiscard() if edge > 0 else DrawStock()
        if abs(edge) >= self.draw_margin:
            return normal                # a clear call, or a rule (never back and forth, closing)
        return self.search(kn, [normal, DrawStock() if edge > 0 else DrawDiscard()])

    def discard(self, kn: Knowledge):
        found = best_close(kn.hand, kn.taken)
        if found is not None and is_chinchon(_without(kn.hand, found[0])):
            return Close(found[0])
        normal = super().discard(kn)
        candidates = [normal]
        closing = found is not None and kn.scores[kn.seat] + found[1] <= kn.limit
        if closing and Close(found[0]) not in candidates:
            candidates.append(Close(found[0]))
        ranked = policy.rank_discards(kn, self.allowed(kn))
        for cost, card in ranked[:self.shortlist]:
            # with a close on the table every way of playing on is weighed, else only near calls
            if (closing or cost < ranked[0][0] + self.discard_margin) and Discard(card) not in candidates:
                candidates.append(Discard(card))
        if len(candidates) == 1:
            return normal
        return self.search(kn, candidates)

    def search(self, kn: Knowledge, candidates: list):
        """The first candidate (normal's choice) unless another beats it clearly: by more than
        ``MIN_GAIN`` and ``z`` standard errors of the paired differences, world by world. An
        alternative that cannot get there any more is dropped on the way, and the search ends
        when none is left or after ``worlds`` worlds."""
        sums = [0.0] * len(candidates)
        squares = [0.0] * len(candidates)
        alive = list(range(1, len(candidates)))
        worlds = 0
        solver = Solver(self.by_room, self.power)
        while worlds < self.worlds and alive:
            world = sample_world(kn, self.rng)
            seed = self.rng.getrandbits(32)
            base = rollout(copy_world(world), kn, candidates[0], random.Random(seed), solver)
            for k in alive:
                diff = rollout(copy_world(world), kn, candidates[k], random.Random(seed), solver) - base
                sums[k] += diff
                squares[k] += diff * diff
            worlds += 1
            if worlds >= MIN_WORLDS and worlds % 4 == 0:
                alive = [k for k in alive if _upper(sums[k], squares[k], worlds, self.z) > MIN_GAIN]
        best, best_mean = 0, 0.0
        for k in range(1, len(candidates)):
            mean, error = _mean_error(sums[k], squares[k], worlds)
            if mean > MIN_GAIN and mean > self.z * error and mean > best_mean:
                best, best_mean = k, mean
        return candidates[best]


def _upper(total: float, squares: float, worlds: int, z: float) -> float:
    """The mean gain plus ``z`` standard errors: an alternative below ``MIN_GAIN`` here is out."""
    mean, error = _mean_error(total, squares, worlds)
    return mean + z * error


def _mean_error(total: float, squares: float, worlds: int) -> tuple[float, float]:
    """Mean of the paired gains over ``worlds`` worlds, and its standard error."""
    mean = total / worlds
    return mean, max(0.0, squares / worlds - mean * mean) ** 0.5 / worlds ** 0.5


def _without(hand: list[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest
