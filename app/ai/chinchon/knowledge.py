"""What one seat can know in a hand, rebuilt from its view alone.

Cards are handled as solver indices (``10 * suit + rank position``, see ``engine.chinchon.melds``)
so that counting and neighbour look-ups are list operations. The public events of the hand give
the discard pile card by card, what each seat took from it and still holds, and what each seat
passed (the discard top it left when drawing from the stock). Everything not in our hand, in the
pile or known to be held by somebody is *unseen*: in the stock or in a hidden part of a hand.

A hand need not have its whole history: one set up at a known position (``engine.chinchon.from_position``)
has no deal event, so its events name at most the cards discarded since. The view's discard top
and size are the truth then: the top is known, and the cards under what the events name
(``buried``) are unseen too, since nobody can tell which they are.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.engine.cards import Card
from app.engine.chinchon import ChinchonView
from app.engine.chinchon.melds import CARDS, VALUE, card_index

Index = int
_INDEX_OF = {str(card): i for i, card in enumerate(CARDS)}   # notation -> index, a constant


def neighbours(i: Index) -> list[Index]:
    """Cards that can share a meld with ``i``: same rank in another suit (a set), and the same suit
    one or two ranks away (a run through or next to it). Same card twice counts too (two decks)."""
    s, r = divmod(i, 10)
    found = [10 * t + r for t in range(4)]
    found += [10 * s + q for q in (r - 2, r - 1, r + 1, r + 2) if 0 <= q <= 9]
    return found


NEIGHBOURS: tuple[tuple[Index, ...], ...] = tuple(tuple(neighbours(i)) for i in range(40))


@dataclass(slots=True)
class Knowledge:
    seat: int
    seats: int
    players: list[int]              # seats still in, in turn order starting after ours
    hand: list[Card]
    taken: Card | None              # taken from the discard pile this turn: must stay
    top: Card | None
    pile: list[Index]               # the discard pile, top last
    held: dict[int, list[Index]]    # per other seat: cards taken from the pile and not given back
    passed: dict[int, list[Index]]  # per other seat: discard tops it left for the stock
    discarded: dict[int, list[Index]]   # per seat, ours included
    unseen: list[int]               # copies of each index not accounted for
    unseen_total: int
    stock_size: int
    counts: tuple[int, ...]         # cards in each hand
    reshuffles: int                 # of the stock, this hand
    turns: int                      # draws made this hand, by everybody
    limit: int
    scores: tuple[int, ...]
    swaps: list[float] | None = None   # policy.swap_table, filled on first use
    patience: float = 1.0           # how much the potential of a hand counts (policy.lookahead)
    buried: int = 0                 # cards of the pile under ``pile`` that the events do not name

    @property
    def next_seat(self) -> int | None:
        return self.players[0] if self.players else None

    @property
    def opponents(self) -> list[int]:
        return [s for s in self.players if s != self.seat]

    def live(self, i: Index) -> int:
        return self.unseen[i]


def read_view(view: ChinchonView) -> Knowledge:
    pile: list[Index] = []
    held: dict[int, list[Index]] = {s: [] for s in range(view.seats) if s != view.seat}
    passed: dict[int, list[Index]] = {s: [] for s in held}
    discarded: dict[int, list[Index]] = {s: [] for s in range(view.seats)}
    turns = 0
    for event in view.events:
        kind, seat, data = event.kind, event.seat, event.data
        if kind == 'deal':
            pile = [_INDEX_OF[data['first_discard']]]
        elif kind == 'draw_stock':
            turns += 1
            if seat in passed and pile:
                passed[seat].append(pile[-1])
        elif kind == 'draw_discard':
            turns += 1
            i = pile.pop() if pile else _INDEX_OF[data['card']]
            if seat in held:
                held[seat].append(i)
        elif kind == 'discard':
            i = _INDEX_OF[data['card']]
            pile.append(i)
            if seat in discarded:
                discarded[seat].append(i)
            if seat in held:
                if i in held[seat]:
                    held[seat].remove(i)
        elif kind == 'reshuffle':
            pile = pile[-1:]
    pile, buried = _checked_pile(pile, view)
    copies = 2 if view.seats >= 5 else 1
    unseen = [copies] * 40
    for card in view.hand:
        unseen[card_index(card)] -= 1
    for i in pile:
        unseen[i] -= 1
    for cards in held.values():
        for i in cards:
            unseen[i] -= 1
    unseen = [max(0, n) for n in unseen]   # never negative, even on a view we do not understand
    order = [(view.seat + step) % view.seats for step in range(1, view.seats + 1)]
    players = [s for s in order if not view.eliminated[s]]
    return Knowledge(view.seat, view.seats, players, list(view.hand), view.taken_this_turn,
                     view.discard_top, pile, held, passed, discarded, unseen, sum(unseen),
                     view.stock_size, view.hand_sizes, view.reshuffles, turns, view.rules.limit, view.scores,
                     buried=buried)


def _checked_pile(pile: list[Index], view: ChinchonView) -> tuple[list[Index], int]:
    """The pile the events rebuilt, held against the view's top and size, and how many cards lie
    under it unnamed. With the whole hand's history they agree (nothing buried); without its
    start (a position set up by ``from_position``) the events miss the top, which the view shows,
    and the cards under it, which it does not: taking them for unseen keeps every card of the
    deck in one place, so a sampled world's pile has its top to take."""
    if view.discard_top is None:
        return [], 0
    top = card_index(view.discard_top)
    if not pile or pile[-1] != top or len(pile) > view.discard_size:
        pile = [top]
    return pile, view.discard_size - len(pile)


def values(indices: list[Index]) -> int:
    return sum(VALUE[i] for i in indices)


def cards_of(indices: list[Index]) -> list[Card]:
    return [CARDS[i] for i in indices]
