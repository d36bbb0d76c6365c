"""The contract solver against a brute-force reference, and its arrangements checked by the rules."""
import random
from collections import Counter

import pytest

from app.engine import continental as C
from app.engine.cards import french_deck, parse_french


def brute_force(hand, hand_number, keep=1):
    """Fewest points left over every choice of disjoint valid melds (None: contract impossible)."""
    wanted = C.contract(hand_number)
    n = len(hand)
    kinds = {}
    for mask in range(1, 1 << n):
        group = [hand[i] for i in range(n) if mask >> i & 1]
        if len(group) >= 3:
            kind = C.meld_kind(group)
            if kind:
                kinds[mask] = kind
    by_lowest = {}
    for mask, kind in kinds.items():
        by_lowest.setdefault((mask & -mask).bit_length() - 1, []).append((mask, kind))
    points = [C.card_points(card) for card in hand]
    best = [None]

    def search(i, used, sets, runs, left_points, left_count):
        if sets == wanted.sets and runs == wanted.runs:
            rest = [j for j in range(i, n) if not used >> j & 1]
            total = left_points + sum(points[j] for j in rest)
            if left_count + len(rest) >= keep and (best[0] is None or total < best[0]):
                best[0] = total
            return
        if i == n:
            return
        if used >> i & 1:
            search(i + 1, used, sets, runs, left_points, left_count)
            return
        search(i + 1, used, sets, runs, left_points + points[i], left_count + 1)
        for mask, kind in by_lowest.get(i, ()):
            if not mask & used:
                if kind == 'set' and sets < wanted.sets:
                    search(i + 1, used | mask, sets + 1, runs, left_points, left_count)
                elif kind == 'run' and runs < wanted.runs:
                    search(i + 1, used | mask, sets, runs + 1, left_points, left_count)

    search(0, 0, 0, 0, 0, 0)
    return best[0]


def crowded_hand(rng, size):
    """A hand drawn from few suits and a narrow band of ranks, so contracts are often met."""
    suits = rng.sample('shdc', rng.choice([1, 2, 2, 3]))
    low = rng.randint(1, 8)
    pool = [card for card in french_deck()
            if card.is_joker or (card.suit.value in suits and low <= card.rank <= low + 5)]
    if size > len(pool):
        pool = [card for card in french_deck() if card.is_joker or card.suit.value in suits]
    return rng.sample(pool, size)


def check_arrangement(hand, hand_number, keep, arrangement):
    assert C.meets_contract(hand_number, [list(meld) for meld in arrangement.melds])
    assert Counter(hand) == Counter([c for meld in arrangement.melds for c in meld] + list(arrangement.left))
    assert len(arrangement.left) >= keep
    assert arrangement.left_points == sum(C.card_points(card) for card in arrangement.left)
    for meld in arrangement.melds:
        if C.meld_kind(meld) == 'run':
            assert C.run_start(meld) is not None        # runs come laid out low to high


@pytest.mark.parametrize('hand_number', range(1, 8))
def test_solver_matches_brute_force_on_seeded_hands(hand_number):
    rng = random.Random(100 + hand_number)
    met = 0
    for _ in range(28 if hand_number <= 5 else 10):
        size = min(13, C.contract(hand_number).cards + rng.randint(0, 2 if hand_number <= 5 else 1))
        hand = crowded_hand(rng, size)
        keep = rng.choice([0, 1])
        arrangement = C.solve(hand, hand_number, keep)
        expected = brute_force(hand, hand_number, keep)
        assert (arrangement is None) == (expected is None), ' '.join(map(str, hand))
        assert C.can_go_down(hand, hand_number, keep) == (expected is not None)
        if arrangement is not None:
            met += 1
            assert arrangement.left_points == expected, ' '.join(map(str, hand))
            check_arrangement(hand, hand_number, keep, arrangement)
    assert met >= 2


@pytest.mark.parametrize('hand_number, text, left', [
    (1, '7s 7h 7d Kc Kd JK 2c', 2),
    (3, '5h 6h 7h 8h 9h As 2s JK 4s 3c', 3),
    (7, 'As 2s 3s 4s 5h 6h 7h 8h JK Qd Kd Ad 9c', 9),
    (5, '5s 5h 5c 9h 9d JK 4d 5d 6d 7d', 0),
])
def test_solver_known_hands(hand_number, text, left):
    hand = parse_french(text)
    arrangement = C.solve(hand, hand_number, keep=0 if left == 0 else 1)
    assert arrangement.left_points == left
    check_arrangement(hand, hand_number, 0, arrangement)


def test_solver_keeps_a_card_to_discard():
    hand = parse_french('7s 7h 7d Kc Kd Ks 7c')
    assert C.solve(hand, 1, keep=0).left_points == 0
    kept = C.solve(hand, 1, keep=1)
    assert len(kept.left) == 1 and kept.left_points == 7


def test_solver_says_when_the_contract_cannot_be_met():
    assert C.solve(parse_french('As 3h 5d 7c 9s Jh Kd'), 2) is None
    assert not C.can_go_down(parse_french('5h 6h 7h 8h 5s 6s 7s 9s'), 3)
    assert C.can_go_down(parse_french('5h 6h 7h 8h 5s 6s JK 8s'), 3, keep=0)
    assert not C.can_go_down(parse_french('5h 6h 7h 8h 5s 6s JK 8s'), 3, keep=1)
