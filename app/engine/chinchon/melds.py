"""Chinchón melds: the exact solver for arrangements, discards and closing.

A hand is encoded as a multiset of the 40 card indices (``10 * suit + rank position``, the order
of ``spanish_deck()``) packed in one int with a 3-bit field per index: the low two bits hold the
count (two decks give up to two copies) and bit 2 is a guard, so ``m`` is a sub-multiset of
``rem`` exactly when ``((rem | guard) - m) & guard == guard``. Candidate melds come from tables
indexed by each suit's 10-bit presence pattern (runs) and by each rank's suit pattern (sets); a
short depth-first search picks the disjoint melds of greatest value. Random 7-card hands usually
hold no meld at all, so the tables answer most calls without any search.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from app.engine.cards import SPANISH_RANKS, Card, SpanishSuit

CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SpanishSuit for rank in SPANISH_RANKS)
VALUE = tuple(min(card.rank, 10) for card in CARDS)
FIELD = tuple(1 << (3 * i) for i in range(40))
GUARD40 = sum(4 << (3 * i) for i in range(40))
# keyed by the enum's name, not the member: an Enum hash is a Python call, and French suit
# names differ from Spanish ones, so a French card fails loudly with KeyError
_INDEX = {suit._name_: {rank: 10 * s + r for r, rank in enumerate(SPANISH_RANKS)}
          for s, suit in enumerate(SpanishSuit)}


def card_value(card: Card) -> int:
    """1-7 count their number; 10, 11 and 12 count 10."""
    return VALUE[card_index(card)]


def card_index(card: Card) -> int:
    try:
        return _INDEX[card.suit._name_][card.rank]
    except (KeyError, AttributeError):
        raise ValueError(f'not a Spanish card: {card!r}') from None


def _meld(indices: tuple[int, ...]) -> tuple[int, int, tuple[int, ...], None]:
    """A candidate: (encoded multiset, value, card indices, None). Lay-off options have the same
    shape with the closer's meld index last."""
    return sum(FIELD[i] for i in indices), sum(VALUE[i] for i in indices), indices, None


def _run_table() -> tuple[tuple[tuple, ...], ...]:
    table = []
    for s in range(4):
        row = []
        for bits in range(1024):
            runs = []
            for lo in range(10):
                for hi in range(lo + 2, 10):
                    if all(bits >> r & 1 for r in range(lo, hi + 1)):
                        runs.append(_meld(tuple(10 * s + r for r in range(lo, hi + 1))))
            row.append(tuple(runs))
        table.append(tuple(row))
    return tuple(table)


def _suit_count_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each (once-present suits, twice-present suits) pattern pair: the sub-multisets of
    size 3 and 4 as per-suit counts."""
    table = []
    for key in range(256):
        once, twice = key >> 4, key & 15
        limits = [(once >> s & 1) + (twice >> s & 1) for s in range(4)]
        table.append(tuple(counts for counts in product(*(range(n + 1) for n in limits))
                           if 3 <= sum(counts) <= 4))
    return tuple(table)


_RUNS = _run_table()
_SUIT_COUNTS = _suit_count_table()


def _set_melds(r: int, once: int, twice: int) -> list[tuple]:
    return [_meld(tuple(10 * s + r for s in range(4) for _ in range(counts[s])))
            for counts in _SUIT_COUNTS[once << 4 | twice]]


_SETS = tuple(tuple(tuple(_set_melds(r, q, 0)) for q in range(16)) for r in range(10))


@dataclass(frozen=True, slots=True)
class Code:
    """A hand encoded for the solver: presence mask, duplicates mask, multiset, value, indices."""

    present: int
    dupes: int
    multiset: int
    total: int
    indices: tuple[int, ...]


def encode(cards) -> Code:
    present = dupes = multiset = total = 0
    indices = []
    for card in cards:
        i = card_index(card)
        bit = 1 << i
        if present & bit:
            if dupes & bit:
                raise ValueError(f'{card} appears more than twice')
            dupes |= bit
        present |= bit
        multiset += FIELD[i]
        total += VALUE[i]
        indices.append(i)
    return Code(present, dupes, multiset, total, tuple(indices))


def candidates(code: Code) -> list[tuple]:
    """Every meld that can be made from the hand (each once, even when it fits twice)."""
    p = code.present
    a, b, c, e = p & 1023, p >> 10 & 1023, p >> 20 & 1023, p >> 30
    found = []
    for s, bits in enumerate((a, b, c, e)):
        runs = _RUNS[s][bits]
        if runs:
            found += runs
    if code.dupes:
        d = code.dupes
        da, db, dc, de = d & 1023, d >> 10 & 1023, d >> 20 & 1023, d >> 30
        for r in range(10):
            once = (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (e >> r & 1) << 3
            twice = (da >> r & 1) | (db >> r & 1) << 1 | (dc >> r & 1) << 2 | (de >> r & 1) << 3
            if once.bit_count() + twice.bit_count() >= 3:
                found += _set_melds(r, once, twice)
        return found
    ranks = (a & b & (c | e)) | (c & e & (a | b))   # ranks held in at least three suits
    while ranks:
        low = ranks & -ranks
        r = low.bit_length() - 1
        ranks ^= low
        found += _SETS[r][(a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (e >> r & 1) << 3]
    return found


def max_melded(cands: list[tuple], start: int, rem: int, guard: int) -> int:
    """Greatest value of disjoint candidates (from ``start`` on) fitting in ``rem``."""
    best = 0
    for j in range(start, len(cands)):
        m, v, _, _ = cands[j]
        if ((rem | guard) - m) & guard == guard:
            t = v + max_melded(cands, j, rem - m, guard)
            if t > best:
                best = t
    return best


def best_choice(cands: list[tuple], start: int, rem: int, guard: int) -> tuple[int, tuple[int, ...]]:
    """Like ``max_melded``, also returning the chosen candidates' positions (first best found)."""
    best, path = 0, ()
    for j in range(start, len(cands)):
        m, v, _, _ = cands[j]
        if ((rem | guard) - m) & guard == guard:
            t, sub = best_choice(cands, j, rem - m, guard)
            if t + v > best:
                best, path = t + v, (j, *sub)
    return best, path


def all_choices(cands: list[tuple], start: int, rem: int, guard: int):
    """Every set of disjoint candidates, as (value, positions); the empty one included."""
    yield 0, ()
    for j in range(start, len(cands)):
        m, v, _, _ = cands[j]
        if ((rem | guard) - m) & guard == guard:
            for t, sub in all_choices(cands, j, rem - m, guard):
                yield t + v, (j, *sub)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into melds (each sorted) and loose cards (in hand order)."""

    melds: tuple[tuple[Card, ...], ...]
    loose: tuple[Card, ...]

    @property
    def loose_value(self) -> int:
        return sum(card_value(card) for card in self.loose)


def remove_indices(indices: tuple[int, ...], used) -> list[int]:
    rest = list(indices)
    for i in used:
        rest.remove(i)
    return rest


def arrangement(code: Code, cands: list[tuple], path: tuple[int, ...]) -> Arrangement:
    melds = [cands[j][2] for j in path]
    loose = remove_indices(code.indices, [i for meld in melds for i in meld])
    return Arrangement(tuple(tuple(CARDS[i] for i in meld) for meld in melds),
                       tuple(CARDS[i] for i in loose))


def best_arrangement(hand) -> Arrangement:
    """The arrangement with the least loose points (own melds only)."""
    code = encode(hand)
    cands = candidates(code)
    if not cands:
        return Arrangement((), tuple(hand))
    _, path = best_choice(cands, 0, code.multiset, GUARD40)
    return arrangement(code, cands, path)


def best_count(hand) -> int:
    """Least loose points the hand can reach with its own melds."""
    code = encode(hand)
    cands = candidates(code)
    if not cands:
        return code.total
    return code.total - max_melded(cands, 0, code.multiset, GUARD40)


def is_meld(cards) -> bool:
    code = encode(cards)
    return any(cand[0] == code.multiset for cand in candidates(code))


def is_chinchon(seven_cards) -> bool:
    """Seven cards of one suit in a row (1-7, 2-10, 3-11 or 4-12)."""
    code = encode(seven_cards)
    if len(code.indices) != 7 or code.dupes:
        return False
    low = code.present & -code.present
    return code.present == low * 127 and (low.bit_length() - 1) % 10 <= 3


def _closing_loose(cands: list[tuple], multiset: int, total: int, indices) -> int | None:
    """The closer's score for these 7 cards: -10 when all meld, else the smallest card worth
    5 or less whose removal leaves 6 melded cards; None when the hand cannot close."""
    if len(indices) != 7:
        raise ValueError(f'closing needs 7 cards, got {len(indices)}')
    if not cands:
        return None
    melded = max_melded(cands, 0, multiset, GUARD40)
    if melded == total:
        return -10
    if total - melded > 5:   # every one-loose-card arrangement is at least this bad
        return None
    for value, i in sorted({(VALUE[i], i) for i in indices}):
        if value <= 5 and max_melded(cands, 0, multiset - FIELD[i], GUARD40) == total - value:
            return value
    return None


def can_close(seven_cards) -> bool:
    """Some arrangement leaves at most one loose card, worth 5 or less. (With one deck this is
    the same as asking it of the least-loose-points arrangement: a hand whose best arrangement
    leaves two or more small cards always has an even better one, checked exhaustively.)"""
    code = encode(seven_cards)
    return _closing_loose(candidates(code), code.multiset, code.total, code.indices) is not None


def close_score(seven_cards) -> int:
    """-10 when all seven meld, else the loose value (the one loose card when closing is allowed,
    the least loose total otherwise)."""
    code = encode(seven_cards)
    cands = candidates(code)
    score = _closing_loose(cands, code.multiset, code.total, code.indices)
    if score is None:
        return code.total - (max_melded(cands, 0, code.multiset, GUARD40) if cands else 0)
    return score


def _without_each(code: Code, forbidden: Card | None):
    """(card index, remaining multiset) for each distinct card that may leave the hand."""
    banned = card_index(forbidden) if forbidden is not None else None
    for i in dict.fromkeys(code.indices):
        if i == banned and code.indices.count(i) < 2:
            continue
        yield i, code.multiset - FIELD[i]


def best_discard(eight_cards, forbidden: Card | None = None) -> tuple[Card, int]:
    """The discard leaving the fewest loose points, chosen jointly with the arrangement of the 7
    kept cards; ``forbidden`` is the card taken from the discard pile this turn. Ties go to the
    first such card in hand order. Returns (card, loose points after discarding it)."""
    code = encode(eight_cards)
    cands = candidates(code)
    best = None
    for i, rem in _without_each(code, forbidden):
        loose = code.total - VALUE[i] - (max_melded(cands, 0, rem, GUARD40) if cands else 0)
        if best is None or loose < best[1]:
            best = (CARDS[i], loose)
    if best is None:
        raise ValueError('no card may be discarded')
    return best


def closing_cards(eight_cards, forbidden: Card | None = None) -> dict[Card, int]:
    """Each card that may be put face down to close, with the closer's score (-10 when all
    seven meld); chinchón shows as -10 too, check it with ``is_chinchon``."""
    code = encode(eight_cards)
    cands = candidates(code)
    found = {}
    if not cands:
        return found
    for i, rem in _without_each(code, forbidden):
        score = _closing_loose(cands, rem, code.total - VALUE[i], remove_indices(code.indices, [i]))
        if score is not None:
            found[CARDS[i]] = score
    return found


def best_close(eight_cards, forbidden: Card | None = None) -> tuple[Card, int] | None:
    """The card to put face down for the best close (chinchón first, then the lowest score);
    None when the hand cannot close."""
    options = closing_cards(eight_cards, forbidden)
    if not options:
        return None
    hand = list(eight_cards)

    def rank(card: Card) -> tuple[bool, int]:
        rest = list(hand)
        rest.remove(card)
        return (not is_chinchon(rest), options[card])

    card = min(options, key=rank)
    return card, options[card]
