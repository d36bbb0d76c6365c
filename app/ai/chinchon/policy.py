"""The normal player's judgement, also the building block of the hard one.

A 7-card hand is worth its deadwood (least loose points, the solver's ``best_count``) minus what
the next draws are expected to take off it (*potential*): for every unseen card, the deadwood it
would save if drawn, weighted by how many copies are still live. Cards in the discard pile or held
by somebody are dead, so a pair whose third card is gone is worth little. A card we give away is
charged by how much the next seat can use it (what it took from the pile and kept, what it passed
or threw). Closing is almost always right at once; the exceptions are a live chinchón and a close
that would put us over the limit.
"""
from __future__ import annotations

from app.engine.cards import Card
from app.engine.chinchon import best_close, is_chinchon
from app.engine.chinchon.melds import (CARDS, FIELD, GUARD40, VALUE, best_choice, candidates, card_index, encode,
                                       remove_indices)

from .knowledge import NEIGHBOURS, Index, Knowledge

REVEAL_COST = 1.0        # taking from the pile tells the table what we collect
MELD_FEED = 9.0          # a discard that completes a meld for the next seat
NEAR_FEED = 2.5          # a discard next to a card the next seat took and kept
PASSED_RELIEF = 1.0      # the next seat left this rank / suit neighbour before
LIVE_FEED = 0.35         # per live card that could meld with the discard (anyone's hand)
INF = float('inf')


def lookahead(kn: Knowledge) -> float:
    """Weight of the potential: several draws are still to come early in the hand, few late;
    scaled by the player's ``patience`` (see ``Knowledge``)."""
    own_draws = kn.turns / max(1, len(kn.players))
    return max(0.6, 1.7 - 0.12 * own_draws) * kn.patience


def _run_outs(bits: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For one suit's loose positions: each missing position that would complete a run of 3+,
    with the loose positions of that run."""
    found = []
    for q in range(10):
        if bits >> q & 1:
            continue
        low = q
        while low - 1 >= 0 and bits >> (low - 1) & 1:
            low -= 1
        high = q
        while high + 1 <= 9 and bits >> (high + 1) & 1:
            high += 1
        if high - low >= 2:
            found.append((q, tuple(p for p in range(low, high + 1) if p != q)))
    return tuple(found)


_RUN_OUTS = tuple(_run_outs(bits) for bits in range(1024))


def _add(outs: dict[Index, tuple[int, ...]], c: Index, used: tuple[int, ...]) -> None:
    """Keep, per out card, the loose cards it melds with that save the most."""
    old = outs.get(c)
    if old is None or sum(VALUE[i] for i in used) > sum(VALUE[i] for i in old):
        outs[c] = used


def _outs(melds, loose: list[Index]) -> dict[Index, tuple[int, ...]]:
    """Cards that would meld with our loose cards (or extend a meld), each with the loose cards
    it would meld too. An extension melds the drawn card itself, so the worst loose card can go."""
    outs: dict[Index, tuple[int, ...]] = {}
    suits = [0, 0, 0, 0]
    for i in loose:
        suits[i // 10] |= 1 << (i % 10)
    for idx in melds:
        suit, low, high = idx[0] // 10, idx[0] % 10, idx[-1] % 10
        if low == high:                              # a set: a 4th card, never a 5th
            if len(idx) == 3:
                for t in range(4):
                    _add(outs, 10 * t + low, ())
            continue
        bits = suits[suit]
        if low > 0:
            chain, q = [], low - 2
            while q >= 0 and bits >> q & 1:
                chain.append(10 * suit + q)
                q -= 1
            _add(outs, 10 * suit + low - 1, tuple(chain))
        if high < 9:
            chain, q = [], high + 2
            while q <= 9 and bits >> q & 1:
                chain.append(10 * suit + q)
                q += 1
            _add(outs, 10 * suit + high + 1, tuple(chain))
    by_rank: dict[int, list[Index]] = {}
    for i in loose:
        by_rank.setdefault(i % 10, []).append(i)
    for r, group in by_rank.items():
        if len(group) >= 2:
            for t in range(4):
                _add(outs, 10 * t + r, tuple(group[:3]))
    for suit, bits in enumerate(suits):
        for q, others in _RUN_OUTS[bits]:
            _add(outs, 10 * suit + q, tuple(10 * suit + p for p in others))
    return outs


def swap_table(kn: Knowledge) -> list[float]:
    """For each value of our worst loose card: total saving over the unseen cards of drawing a
    lower card and throwing the worst one (cards that meld are handled apart)."""
    table = [0.0] * 11
    for c in range(40):
        n = kn.unseen[c]
        if n:
            for worst in range(VALUE[c] + 1, 11):
                table[worst] += n * (worst - VALUE[c])
    return table


def split(cards) -> tuple[int, list[tuple[int, ...]], list[Index]]:
    """(deadwood, melds, loose cards) of the best arrangement, as solver indices."""
    code = encode(cards)
    cands = candidates(code)
    if not cands:
        return code.total, [], list(code.indices)
    value, path = best_choice(cands, 0, code.multiset, GUARD40)
    melds = [cands[j][2] for j in path]
    return code.total - value, melds, remove_indices(code.indices, [i for meld in melds for i in meld])


def splits_without(eight, allowed) -> list[tuple[Card, int, list[tuple[int, ...]], list[Index]]]:
    """For each distinct allowed discard: (card, deadwood, melds, loose) of the seven kept."""
    code = encode(eight)
    cands = candidates(code)
    found = []
    for card in dict.fromkeys(allowed):
        i = card_index(card)
        kept = remove_indices(code.indices, [i])
        if not cands:
            found.append((card, code.total - VALUE[i], [], kept))
            continue
        value, path = best_choice(cands, 0, code.multiset - FIELD[i], GUARD40)
        melds = [cands[j][2] for j in path]
        found.append((card, code.total - VALUE[i] - value, melds,
                      remove_indices(kept, [m for meld in melds for m in meld])))
    return found


def potential(melds, loose: list[Index], kn: Knowledge) -> float:
    """Expected deadwood saved by the next draw from the unseen cards (one step, closed form)."""
    total = kn.unseen_total
    if total == 0:
        return 0.0
    values = [VALUE[i] for i in loose]
    dead = sum(values)
    worst = max(values, default=0)
    if kn.swaps is None:
        kn.swaps = swap_table(kn)
    saved = kn.swaps[worst]
    for c, used in _outs(melds, loose).items():
        n = kn.unseen[c]
        if n:
            rest = list(values)
            for i in used:
                rest.remove(VALUE[i])
            gain = dead - (sum(rest) - max(rest, default=0))
            saved += n * (gain - max(0, worst - VALUE[c]))
    return saved / total


def hand_value(hand: list[Card], kn: Knowledge, weight: float) -> float:
    """Lower is better: deadwood now minus the expected savings to come."""
    dead, melds, loose = split(hand)
    return dead - weight * potential(melds, loose, kn)


def _without(hand: list[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


PRUNE = 10   # a keep this much worse in deadwood than the best is not worth a closer look


def _best_keeps(kn: Knowledge, eight: list[Card], allowed, weight: float) -> tuple[list[tuple[float, Card]], int]:
    """(value of the 7 kept + danger of the discard, discard) for the promising discards, best
    first, and the least deadwood of any keep."""
    found = splits_without(eight, allowed)
    if not found:
        return [], 99
    floor = min(dead for _, dead, _, _ in found)
    scored = [(dead - weight * potential(melds, loose, kn) + danger(card, kn), card)
              for card, dead, melds, loose in found if dead <= floor + PRUNE]
    scored.sort(key=lambda pair: pair[0])
    return scored, floor


def danger(card: Card, kn: Knowledge) -> float:
    """How much giving ``card`` to the next seat costs us, in deadwood points."""
    i = card_index(card)
    nxt = kn.next_seat
    live = sum(kn.unseen[n] for n in NEIGHBOURS[i])
    # a card others can still meld costs more as the stock shrinks and closes come nearer
    cost = LIVE_FEED * live * (0.5 + (8 - min(8, kn.stock_size // 3)) / 8)
    if nxt is None or nxt == kn.seat:
        return cost
    held = kn.held.get(nxt, [])
    if held:
        suit, pos = divmod(i, 10)
        same = sum(1 for h in held if h % 10 == pos)
        run = {h % 10 for h in held if h // 10 == suit}
        if same >= 2 or {pos - 1, pos + 1} <= run or {pos + 1, pos + 2} <= run or {pos - 2, pos - 1} <= run:
            cost += MELD_FEED
        elif any(h in NEIGHBOURS[i] for h in held):
            cost += NEAR_FEED
    left = kn.passed.get(nxt, []) + kn.discarded.get(nxt, [])
    if any(p in NEIGHBOURS[i] for p in left):
        cost -= PASSED_RELIEF
    return cost


def rank_discards(kn: Knowledge, allowed: list[Card], keep: set[int] | None = None) -> list[tuple[float, Card]]:
    """The promising allowed discards with their cost (value of the 7 kept plus danger), best first."""
    allowed = [card for card in allowed if not keep or card_index(card) not in keep]
    return _best_keeps(kn, kn.hand, allowed, lookahead(kn))[0]


def take_discard(kn: Knowledge) -> bool:
    """Draw phase: is the discard top worth more than a stock card (and the secret kept)?
    Taking it to close is always worth it."""
    return take_edge(kn) > 0


def take_edge(kn: Knowledge) -> float:
    """How many points taking the discard top beats a stock card by (negative: draw from the
    stock); infinite either way when a rule, not an estimate, decides."""
    top = kn.top
    if top is None:
        return -INF
    run = hunt_chinchon(kn)
    if run is not None:                  # hunting: only the seventh card is worth showing
        wanted = card_index(top) in [e for suit in range(4) for low in range(5) for e in _ends(suit, low)
                                     if {10 * suit + p for p in range(low, low + 6)} == run]
        return INF if wanted else -INF
    t = card_index(top)
    eight = kn.hand + [top]
    if t in kn.discarded[kn.seat]:       # we threw it this hand: taking it back could go round forever
        return INF if closes_with(kn, eight) else -INF
    weight = lookahead(kn)
    dead, melds, loose = split(kn.hand)
    pot = potential(melds, loose, kn)
    if not any(card_index(card) in NEIGHBOURS[t] for card in kn.hand):
        # the top melds with nothing of ours: it can only replace our worst loose card
        if not loose:
            return -INF
        worst = CARDS[max(loose, key=VALUE.__getitem__)]
        saved = VALUE[card_index(worst)] - VALUE[t]
        if dead - saved <= 5 and closes_with(kn, eight):
            return INF
        return saved - danger(worst, kn) - REVEAL_COST - pot
    found, floor = _best_keeps(kn, eight, kn.hand, weight)   # a twin of the top may go, the top not
    if not found:
        return -INF
    if floor <= 5 and closes_with(kn, eight):
        return INF
    return dead - (1.0 + weight) * pot - (found[0][0] + REVEAL_COST)


def closes_with(kn: Knowledge, eight: list[Card]) -> bool:
    """Taking the top lets us close this turn without going over the limit."""
    found = best_close(eight, kn.top)
    return found is not None and kn.scores[kn.seat] + found[1] <= kn.limit


def threatened(kn: Knowledge, margin: int = 12) -> bool:
    """Some opponent would likely go over the limit if we closed now."""
    return any(kn.scores[o] + margin > kn.limit for o in kn.opponents)


def close_choice(kn: Knowledge) -> Card | None:
    """The card to put face down, or None to play on (see the module docstring)."""
    found = best_close(kn.hand, kn.taken)
    if found is None:
        return None
    card, score = found
    if is_chinchon(_without(kn.hand, card)):
        return card
    if kn.scores[kn.seat] + score > kn.limit:
        return None                                  # closing would eliminate us: play on
    if hunt_chinchon(kn) is not None:
        return None
    return card


def hunt_chinchon(kn: Knowledge, cards: list[Card] | None = None) -> set[int] | None:
    """Six of a run held and the seventh live, with time left and nobody to eliminate by closing:
    the cards to keep (the discard is chosen among the others), else None."""
    if kn.stock_size < 6 or threatened(kn):
        return None
    cards = kn.hand if cards is None else cards
    idx = {card_index(card) for card in cards}
    for suit in range(4):
        for low in range(0, 5):
            run = {10 * suit + p for p in range(low, low + 6)}
            if run <= idx:
                if sum(kn.unseen[e] for e in _ends(suit, low)) and _hunt_is_cheap(cards, run):
                    return run
    return None


def _ends(suit: int, low: int) -> list[Index]:
    return [10 * suit + p for p in (low - 1, low + 6) if 0 <= p <= 9]


def _hunt_is_cheap(cards: list[Card], run: set[int]) -> bool:
    """A low card can stay beside the run: if somebody closes meanwhile we lose little."""
    others = sorted(VALUE[card_index(card)] for card in cards if card_index(card) not in run)
    return bool(others) and others[0] <= 5


def buyback(limit: int, score: int | None, room_share: float) -> bool:
    """Come back when the score to come back on leaves ``room_share`` of the limit to play with."""
    return score is None or limit - score >= room_share * limit
