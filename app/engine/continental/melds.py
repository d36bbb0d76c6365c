"""Continental melds: points, sets, runs, the seven contracts and lay-off placement.

A run on the table keeps its cards in order with explicit positions: ``start`` is the value of
the first card (1 = ace low ... 13 = K, 14 = ace high) and card ``i`` stands at ``start + i``.
So a joker's value is always known (``5h 6h JK 8h`` starting at 5: the joker is the 7).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from app.engine.cards import Card, french_card

ACE_HIGH = 14
SET_MIN = 3
RUN_MIN = 4


@dataclass(frozen=True, slots=True)
class Contract:
    """What hand ``number`` asks for, and how many cards each player is dealt."""

    number: int
    sets: int
    runs: int
    cards: int

    def to_dict(self) -> dict[str, int]:
        return {'number': self.number, 'sets': self.sets, 'runs': self.runs, 'cards': self.cards}


CONTRACTS: tuple[Contract, ...] = (
    Contract(1, sets=2, runs=0, cards=6),
    Contract(2, sets=1, runs=1, cards=7),
    Contract(3, sets=0, runs=2, cards=8),
    Contract(4, sets=3, runs=0, cards=9),
    Contract(5, sets=2, runs=1, cards=10),
    Contract(6, sets=1, runs=2, cards=11),
    Contract(7, sets=0, runs=3, cards=12),
)
HANDS = len(CONTRACTS)


def contract(hand_number: int) -> Contract:
    if not 1 <= hand_number <= HANDS:
        raise ValueError(f'hand_number must be 1..{HANDS}, got {hand_number!r}')
    return CONTRACTS[hand_number - 1]


def card_points(card: Card) -> int:
    """Joker 50, ace 20, J/Q/K 10, others their number."""
    if card.is_joker:
        return 50
    if card.rank == 1:
        return 20
    return 10 if card.rank > 10 else card.rank


def is_set(cards: Sequence[Card]) -> bool:
    """3+ cards of one rank; jokers stand for any card; at least one natural."""
    ranks = {card.rank for card in cards if not card.is_joker}
    return len(cards) >= SET_MIN and len(ranks) == 1


def _value_fits(card: Card, value: int) -> bool:
    return card.rank == value or (card.rank == 1 and value == ACE_HIGH)


def run_start(ordered: Sequence[Card]) -> int | None:
    """The start value if ``ordered`` (low to high) is a valid run as laid out, else None."""
    if len(ordered) < RUN_MIN:
        return None
    naturals = [(i, card) for i, card in enumerate(ordered) if not card.is_joker]
    if not naturals or len({card.suit for _, card in naturals}) != 1:
        return None
    if any(a.is_joker and b.is_joker for a, b in zip(ordered, ordered[1:])):
        return None
    first_index, first = naturals[0]
    values = (1, ACE_HIGH) if first.rank == 1 else (first.rank,)
    for value in values:
        start = value - first_index
        end = start + len(ordered) - 1
        if start < 1 or end > ACE_HIGH or (start == 1 and end == ACE_HIGH):
            continue
        if all(_value_fits(card, start + i) for i, card in naturals):
            return start
    return None


def arrange_run(cards: Iterable[Card]) -> tuple[int, tuple[Card, ...]] | None:
    """Some valid run order of ``cards`` as ``(start, ordered)``, or None if there is none.

    Jokers first fill gaps; spare ones go to the high end, then the low end.
    """
    cards = list(cards)
    naturals = [card for card in cards if not card.is_joker]
    jokers = [card for card in cards if card.is_joker]
    if len(cards) < RUN_MIN or not naturals or len({card.suit for card in naturals}) != 1:
        return None
    ranks = [card.rank for card in naturals]
    options = [ranks]
    if 1 in ranks:
        options.append([ACE_HIGH if rank == 1 else rank for rank in ranks])
    for values in options:
        layout = _layout(sorted(values), len(jokers))
        if layout is not None:
            start, slots = layout
            by_value = {value: card for value, card in zip(values, naturals)}
            ordered = tuple(jokers[0] if slot is None else by_value[slot] for slot in slots)
            return start, ordered
    return None


def _layout(values: list[int], jokers: int) -> tuple[int, list[int | None]] | None:
    """Slots low to high (a value, or None for a joker) holding ``values`` and ``jokers`` jokers."""
    if len(set(values)) != len(values):
        return None
    slots: list[int | None] = [values[0]]
    for low, high in zip(values, values[1:]):
        gap = high - low - 1
        if gap > 1:
            return None
        slots.extend([None] * gap + [high])
    spare = jokers - slots.count(None)
    if spare < 0 or spare > 2:
        return None
    start, end = values[0], values[-1]
    if spare and end + 1 <= ACE_HIGH and not (start == 1 and end + 1 == ACE_HIGH):
        slots.append(None)
        end += 1
        spare -= 1
    if spare and start - 1 >= 1 and not (start - 1 == 1 and end == ACE_HIGH):
        slots.insert(0, None)
        start -= 1
        spare -= 1
    if spare or len(slots) < RUN_MIN:
        return None
    return start, slots


def is_run(cards: Sequence[Card]) -> bool:
    """4+ cards of one suit that some order makes consecutive (jokers fill in, never two adjacent)."""
    return arrange_run(cards) is not None


def meld_kind(cards: Sequence[Card]) -> str | None:
    """'set', 'run' or None. No group of cards is both (a run needs two naturals of distinct ranks)."""
    if is_set(cards):
        return 'set'
    if is_run(cards):
        return 'run'
    return None


def meets_contract(hand_number: int, melds: Sequence[Sequence[Card]]) -> bool:
    """True when ``melds`` are exactly the sets and runs hand ``hand_number`` asks for."""
    wanted = contract(hand_number)
    kinds = [meld_kind(meld) for meld in melds]
    return kinds.count('set') == wanted.sets and kinds.count('run') == wanted.runs \
        and len(kinds) == wanted.sets + wanted.runs


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table. For a run, ``cards[i]`` stands at value ``start + i``."""

    id: int
    owner: int
    kind: str
    cards: tuple[Card, ...]
    start: int | None = None

    def positions(self) -> list[int | None]:
        if self.kind == 'set':
            return [None] * len(self.cards)
        return [self.start + i for i in range(len(self.cards))]

    def lay_off_positions(self, card: Card) -> list[int | None]:
        """Where ``card`` may be added: [None] for a set, run values (low end first) for a run."""
        if self.kind == 'set':
            return [None] if is_set(self.cards + (card,)) else []
        end = self.start + len(self.cards) - 1
        options = []
        for value, neighbour in ((self.start - 1, self.cards[0]), (end + 1, self.cards[-1])):
            low, high = min(value, self.start), max(value, end)
            if low < 1 or high > ACE_HIGH or (low == 1 and high == ACE_HIGH):
                continue
            if card.is_joker:
                if not neighbour.is_joker:
                    options.append(value)
            elif card.suit == self.suit and _value_fits(card, value):
                options.append(value)
        return options

    @property
    def suit(self):
        return next(card.suit for card in self.cards if not card.is_joker)

    def with_card(self, card: Card, position: int | None) -> 'TableMeld':
        if self.kind == 'set':
            return TableMeld(self.id, self.owner, 'set', self.cards + (card,))
        if position == self.start - 1:
            return TableMeld(self.id, self.owner, 'run', (card,) + self.cards, position)
        return TableMeld(self.id, self.owner, 'run', self.cards + (card,), self.start)

    def to_dict(self) -> dict[str, Any]:
        return {'id': self.id, 'owner': self.owner, 'kind': self.kind, 'start': self.start,
                'cards': [{'card': str(card), 'position': position}
                          for card, position in zip(self.cards, self.positions())]}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'TableMeld':
        cards = tuple(french_card(item['card']) for item in raw['cards'])
        return cls(raw['id'], raw['owner'], raw['kind'], cards, raw['start'])


def table_meld(meld_id: int, owner: int, cards: Sequence[Card]) -> TableMeld | None:
    """The table form of a meld; a run keeps the given order when that order is valid."""
    if is_set(cards):
        return TableMeld(meld_id, owner, 'set', tuple(cards))
    start = run_start(cards)
    if start is not None:
        return TableMeld(meld_id, owner, 'run', tuple(cards), start)
    arranged = arrange_run(cards)
    if arranged is None:
        return None
    return TableMeld(meld_id, owner, 'run', arranged[1], arranged[0])
