"""The count after a close: optimal lay-offs on the closer's melds, and the closer's arrangement.

Lay-offs join the same search as the player's own melds. Each place a lay-off can go is a
*slot* with its own field in the encoded multiset (count 1): the 4th place on a closer's set of 3,
and each end of a closer's run, where one option is a whole chain (``3o 4o`` before ``5o 6o 7o``).
An option uses its slot's field, so each slot is used at most once and the search stays a plain
disjoint-melds search.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.engine.cards import Card

from .melds import (GUARD40, FIELD, VALUE, CARDS, Arrangement, all_choices, arrangement, best_choice,
                    candidates, close_score, card_index, encode, max_melded, remove_indices)


@dataclass(frozen=True, slots=True)
class Count:
    """A non-closer's hand as counted: own melds, lay-offs as (index of the closer's meld, cards
    laid off in rank order), loose cards, and the points they score."""

    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...]
    loose: tuple[Card, ...]
    points: int


def _meld_shape(meld: list[Card]) -> tuple[str, list[int]]:
    indices = sorted(card_index(card) for card in meld)
    code = encode(meld)
    if len(meld) < 3 or not any(cand[0] == code.multiset for cand in candidates(code)):
        raise ValueError(f'not a meld: {" ".join(map(str, meld))}')
    ranks = {i % 10 for i in indices}
    return ('set' if len(ranks) == 1 else 'run'), indices


def layoff_options(closer_melds) -> tuple[list[tuple], int]:
    """Lay-off options as solver candidates (multiset incl. slot field, value, card indices,
    closer meld index), and the multiset of all slot fields."""
    options, slots = [], 0
    field = 40

    def add(chains: list[tuple[int, ...]], k: int) -> None:
        nonlocal field, slots
        slot = 1 << (3 * field)
        for chain in chains:
            options.append((sum(FIELD[i] for i in chain) + slot, sum(VALUE[i] for i in chain), chain, k))
        slots += slot
        field += 1

    for k, meld in enumerate(closer_melds):
        kind, indices = _meld_shape(list(meld))
        if kind == 'set':
            if len(indices) == 3:
                r = indices[0] % 10
                add([(10 * s + r,) for s in range(4)], k)
            continue
        s, lo, hi = indices[0] // 10, indices[0] % 10, indices[-1] % 10
        if lo > 0:
            add([tuple(10 * s + r for r in range(lo - n, lo)) for n in range(1, lo + 1)], k)
        if hi < 9:
            add([tuple(10 * s + r for r in range(hi + 1, hi + 1 + n)) for n in range(1, 10 - hi)], k)
    return options, slots


def _guard(slots: int) -> int:
    return GUARD40 | (slots << 2)


_CARD_FIELDS = (1 << 120) - 1


def _with_layoffs(code, options: list[tuple]) -> list[tuple]:
    """The hand's own meld candidates plus the lay-off options its cards can make."""
    rem = code.multiset | GUARD40
    return candidates(code) + [o for o in options
                               if (rem - (o[0] & _CARD_FIELDS)) & GUARD40 == GUARD40]


def count_with_layoffs(hand, closer_melds) -> Count:
    """The least points ``hand`` can score against the closer's melds, and how."""
    code = encode(hand)
    options, slots = layoff_options(closer_melds)
    cands = _with_layoffs(code, options)
    covered, path = best_choice(cands, 0, code.multiset + slots, _guard(slots)) if cands else (0, ())
    melds, layoffs, used = [], [], []
    for j in path:
        chosen = cands[j]
        used += chosen[2]
        cards = tuple(CARDS[i] for i in chosen[2])
        if chosen[3] is not None:
            layoffs.append((chosen[3], cards))
        else:
            melds.append(cards)
    loose = remove_indices(code.indices, used)
    return Count(tuple(melds), tuple(sorted(layoffs)), tuple(CARDS[i] for i in loose),
                 code.total - covered)


def count_against(hand, closer_melds) -> int:
    """Least loose points of ``hand`` with its own melds and lay-offs on ``closer_melds``."""
    code = encode(hand)
    options, slots = layoff_options(closer_melds)
    cands = _with_layoffs(code, options)
    if not cands:
        return code.total
    return code.total - max_melded(cands, 0, code.multiset + slots, _guard(slots))


def closer_arrangements(seven_cards) -> list[Arrangement]:
    """Every arrangement of the closer's 7 cards reaching the closer's score (see
    ``melds.close_score``): all melded, or the one loose card worth exactly that score."""
    code = encode(seven_cards)
    cands = candidates(code)
    score = close_score(seven_cards)
    target = code.total - max(score, 0)
    found = []
    for value, path in all_choices(cands, 0, code.multiset, GUARD40):
        if value == target:
            option = arrangement(code, cands, path)
            if len(option.loose) <= 1:
                found.append(option)
    return found


def closer_choice(seven_cards, other_hands) -> tuple[Arrangement, list[Count]]:
    """The closer's arrangement giving the other players the most points in total (first one
    found on ties), with each other player's count against it."""
    best = None
    for option in closer_arrangements(seven_cards):
        counts = [count_with_layoffs(hand, option.melds) for hand in other_hands]
        total = sum(count.points for count in counts)
        if best is None or total > best[0]:
            best = (total, option, counts)
    if best is None:
        raise ValueError(f'these cards cannot close: {" ".join(map(str, seven_cards))}')
    return best[1], best[2]
