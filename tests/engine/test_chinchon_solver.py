"""The fast solver against a deliberately simple brute-force one, on 10,000+ seeded hands.

The reference tries every partition of a hand into melds and loose cards and, for lay-offs, every
way of giving loose cards to the closer's melds such that each grown meld is still a meld.
Slow, obviously right.
"""
from __future__ import annotations

import functools
import random
from itertools import combinations, product

import pytest

from app.engine import chinchon
from app.engine.cards import SPANISH_RANKS, Card, spanish_deck


def value(card: Card) -> int:
    return min(card.rank, 10)


def is_meld(cards: list[Card]) -> bool:
    if len(cards) < 3:
        return False
    if len({card.rank for card in cards}) == 1:
        return len(cards) <= 4
    if len({card.suit for card in cards}) != 1:
        return False
    positions = sorted(SPANISH_RANKS.index(card.rank) for card in cards)
    return positions == list(range(positions[0], positions[0] + len(positions)))


def partitions(cards: list[Card]) -> list[tuple[list[list[Card]], list[Card]]]:
    """Every (melds, loose) split of the hand."""
    return _partitions(tuple(cards))


# The splits of every rest of cards, kept: a hand's best count, its closing, its discards and its
# count against the closer's melds enumerate the same rests again and again (a seed's CPU time
# 4.0 s without it, 3.0 s with it). A list, not a generator: what it holds is read, never changed.
@functools.lru_cache(maxsize=1 << 14)
def _partitions(cards: tuple[Card, ...]) -> list[tuple[list[list[Card]], list[Card]]]:
    if not cards:
        return [([], [])]
    first, rest = cards[0], cards[1:]
    splits = [(melds, [first] + loose) for melds, loose in _partitions(rest)]
    for size in range(2, len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            meld = [first] + [rest[i] for i in chosen]
            if is_meld(meld):
                remaining = tuple(card for i, card in enumerate(rest) if i not in chosen)
                splits += [([meld] + melds, loose) for melds, loose in _partitions(remaining)]
    return splits


def best_count(cards: list[Card]) -> int:
    return min(sum(map(value, loose)) for _, loose in partitions(cards))


def closing(cards: list[Card]) -> int | None:
    """The closer's score (-10, or the one loose card worth 5 or less), None if it cannot close."""
    scores = [-10 if not loose else value(loose[0])
              for _, loose in partitions(cards) if len(loose) <= 1 and sum(map(value, loose)) <= 5]
    return min(scores, default=None)


def is_chinchon(cards: list[Card]) -> bool:
    return len(cards) == 7 and is_meld(cards) and len({card.rank for card in cards}) == 7


def _laid_off_value(loose: list[Card], closer_melds: list[list[Card]]) -> int:
    choices = [[None] + [k for k, meld in enumerate(closer_melds)
                         if card.rank == meld[0].rank or card.suit == meld[0].suit]
               for card in loose]
    best = 0
    for assignment in product(*choices):
        grown = [list(meld) for meld in closer_melds]
        for card, k in zip(loose, assignment):
            if k is not None:
                grown[k].append(card)
        if all(is_meld(meld) for meld in grown):
            best = max(best, sum(value(card) for card, k in zip(loose, assignment) if k is not None))
    return best


def count_against(cards: list[Card], closer_melds: list[list[Card]]) -> int:
    return min(sum(map(value, loose)) - _laid_off_value(loose, closer_melds)
               for _, loose in partitions(cards))


def discard_points(cards: list[Card]) -> tuple[int, int]:
    """Least loose points after the best discard: any card, and the last card excluded."""
    after = [best_count(cards[:i] + cards[i + 1:]) for i in range(len(cards))]
    return min(after), min(after[:-1])


def random_hand(rng: random.Random, size: int = 7, copies: int = 1) -> list[Card]:
    return rng.sample(spanish_deck(copies), size)


def dense_hand(rng: random.Random, size: int = 7, copies: int = 1) -> list[Card]:
    """Cards from a small window of the deck (3 suits x 4 ranks in a row): melds everywhere."""
    start = rng.randrange(7)
    ranks = SPANISH_RANKS[start:start + 4]
    suits = rng.sample(sorted({card.suit for card in spanish_deck()}, key=lambda s: s.value), 3)
    window = [card for card in spanish_deck(copies) if card.rank in ranks and card.suit in suits]
    return rng.sample(window, size)


def _cases(seed: int, count: int):
    """Hands from one or two decks, random and meld-dense, with a closer's melds from cards of the
    same deck(s) for the lay-off check."""
    rng = random.Random(seed)
    for n in range(count):
        copies = 2 if n % 5 == 0 else 1
        make = dense_hand if n % 2 else random_hand
        cards = make(rng, 8, copies)
        hand, extra = cards[:7], cards[7]
        closer = make(rng, 7, copies)
        if copies == 1:
            closer = [card for card in closer if card not in cards]
        melds = [list(meld) for meld in chinchon.best_arrangement(closer).melds]
        yield hand, extra, melds


@pytest.mark.parametrize('seed', range(4))
def test_solver_matches_brute_force_on_seeded_hands(seed):
    """4 x 2,600 hands: best melds, closing and chinchón on all, the lay-off count on all whose
    closer has melds, the best discard (free, and with the drawn card kept) on every other one."""
    checked = 0
    for n, (hand, extra, closer_melds) in enumerate(_cases(seed, 2600)):
        expected = best_count(hand)
        assert chinchon.best_count(hand) == expected, hand
        assert chinchon.best_arrangement(hand).loose_value == expected, hand
        score = closing(hand)
        assert chinchon.can_close(hand) == (score is not None), hand
        if score is not None:
            assert chinchon.close_score(hand) == score, hand
        assert chinchon.is_chinchon(hand) == is_chinchon(hand), hand
        if n % 2:
            eight = hand + [extra]
            free, keeping_extra = discard_points(eight)
            assert chinchon.best_discard(eight)[1] == free, eight
            assert chinchon.best_discard(eight, forbidden=extra)[1] == keeping_extra, eight
        if closer_melds:
            laid = count_against(hand, closer_melds)
            assert chinchon.count_against(hand, closer_melds) == laid, (hand, closer_melds)
            assert chinchon.count_with_layoffs(hand, closer_melds).points == laid
        checked += 1
    assert checked == 2600


def test_shown_arrangements_are_real():
    """What the solver shows adds up: melds are melds, lay-offs grow the closer's melds into
    melds, and every card of the hand appears exactly once."""
    for hand, _, closer_melds in _cases(99, 1500):
        shown = chinchon.count_with_layoffs(hand, closer_melds)
        assert all(is_meld(list(meld)) for meld in shown.melds)
        grown = [list(meld) for meld in closer_melds]
        for k, cards in shown.layoffs:
            grown[k] += cards
        assert all(is_meld(meld) for meld in grown)
        used = [c for m in shown.melds for c in m] + [c for _, cs in shown.layoffs for c in cs]
        assert sorted(used + list(shown.loose)) == sorted(hand)
        assert shown.points == sum(map(value, shown.loose))


def test_closing_asks_the_same_of_some_arrangement_as_of_the_best_one():
    """The rules (app/rules/chinchon.en.md) ask for one loose card worth 5 or less "in their best
    arrangement"; the engine asks it of any arrangement. They differ only if the best one leaves
    two or more cards worth less than a lone loose card x <= 5 of another: 5 cards melded (a
    5-run) + two cards worth <= 4 together, or 4 melded + three worth <= 4 (four loose 1s would
    be a set). With one deck, no such hand exists."""
    deck = spanish_deck()
    low = [card for card in deck if value(card) <= 3]
    runs5 = [deck[10 * s + start:10 * s + start + 5] for s in range(4) for start in range(6)]
    melds4 = ([[card for card in deck if card.rank == rank] for rank in SPANISH_RANKS]
              + [deck[10 * s + start:10 * s + start + 4] for s in range(4) for start in range(7)])
    hands = [run + list(extra) for run in runs5
             for extra in combinations([c for c in low if c not in run], 2)]
    hands += [meld + list(extra) for meld in melds4
              for extra in combinations([c for c in low if c not in meld and value(c) <= 2], 3)]
    for hand in hands:
        score = closing(hand)
        assert score is None or score == -10 or score == best_count(hand), hand
