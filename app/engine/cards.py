"""Cards, decks and the text notation shared by all three games.

Spanish cards: ranks 1-7, 10 (sota), 11 (caballo), 12 (rey); suits o c e b.
French cards: ranks 1 (A) to 13 (K); suits s h d c; the joker is ``JK``.
Cards are plain values (frozen, hashable). Two decks hold equal cards twice, so
a hand or a pile is a list (a multiset), never a set of cards.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum


class SpanishSuit(Enum):
    OROS = 'o'
    COPAS = 'c'
    ESPADAS = 'e'
    BASTOS = 'b'


class FrenchSuit(Enum):
    SPADES = 's'
    HEARTS = 'h'
    DIAMONDS = 'd'
    CLUBS = 'c'


SPANISH_RANKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
FRENCH_RANKS: tuple[int, ...] = tuple(range(1, 14))
_FRENCH_RANK_TEXT = {1: 'A', 11: 'J', 12: 'Q', 13: 'K'}
_FRENCH_TEXT_RANK = {text: rank for rank, text in _FRENCH_RANK_TEXT.items()}
JOKER_TEXT = 'JK'


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``suit`` is None only for a joker (French deck)."""

    rank: int
    suit: SpanishSuit | FrenchSuit | None

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def is_spanish(self) -> bool:
        return isinstance(self.suit, SpanishSuit)

    def __str__(self) -> str:
        if self.suit is None:
            return JOKER_TEXT
        if isinstance(self.suit, FrenchSuit):
            return f'{_FRENCH_RANK_TEXT.get(self.rank, str(self.rank))}{self.suit.value}'
        return f'{self.rank}{self.suit.value}'

    def __repr__(self) -> str:
        return f'Card({self})'

    # dataclass(order=True) would compare enums, which do not order; sort by a key instead
    def __lt__(self, other: 'Card') -> bool:
        return sort_key(self) < sort_key(other)


def sort_key(card: Card) -> tuple[int, int]:
    return (_SUIT_ORDER[card.suit], card.rank)


JOKER = Card(0, None)
_SUIT_ORDER = {None: -1} | {suit: index for suits in (SpanishSuit, FrenchSuit) for index, suit in enumerate(suits)}

_SPANISH_SUITS = {suit.value: suit for suit in SpanishSuit}
_FRENCH_SUITS = {suit.value: suit for suit in FrenchSuit}


def spanish_card(token: str) -> Card:
    """Parse one Spanish card such as ``7o`` or ``12b``."""
    suit = _SPANISH_SUITS.get(token[-1:])
    rank_text = token[:-1]
    if suit is None or not rank_text.isdigit() or int(rank_text) not in SPANISH_RANKS:
        raise ValueError(f'not a Spanish card: {token!r} (expected e.g. 1o, 7c, 10e, 12b)')
    return Card(int(rank_text), suit)


def french_card(token: str) -> Card:
    """Parse one French card such as ``As``, ``10h``, ``Qd`` or the joker ``JK``."""
    if token == JOKER_TEXT:
        return JOKER
    suit = _FRENCH_SUITS.get(token[-1:])
    rank_text = token[:-1]
    rank = _FRENCH_TEXT_RANK.get(rank_text)
    if rank is None and rank_text.isdigit() and 2 <= int(rank_text) <= 10:
        rank = int(rank_text)
    if suit is None or rank is None:
        raise ValueError(f'not a French card: {token!r} (expected e.g. As, 10h, Qd, JK)')
    return Card(rank, suit)


def parse_spanish(text: str) -> list[Card]:
    """``"1o 2o 12c"`` -> list of cards; a bad token raises ValueError naming it."""
    return [spanish_card(token) for token in text.split()]


def parse_french(text: str) -> list[Card]:
    """``"As 10h JK"`` -> list of cards; a bad token raises ValueError naming it."""
    return [french_card(token) for token in text.split()]


def cards_str(cards: Iterable[Card]) -> str:
    return ' '.join(str(card) for card in cards)


def spanish_deck(copies: int = 1) -> list[Card]:
    """40 Spanish cards in a fixed order (suit o c e b, rank low to high), ``copies`` times."""
    one = [Card(rank, suit) for suit in SpanishSuit for rank in SPANISH_RANKS]
    return one * copies


def french_deck(copies: int = 2, jokers: int = 4) -> list[Card]:
    """Two 52-card French decks and four jokers (108 cards) in a fixed order."""
    one = [Card(rank, suit) for suit in FrenchSuit for rank in FRENCH_RANKS]
    return one * copies + [JOKER] * jokers


# Fair deal -----------------------------------------------------------------
# Each hand is shuffled from its own seed, a 32-hex-digit string. A table draws it
# from `secrets` and hands it to the engine (``new_game(..., hand_seeds=...)``); the
# engine draws it from the game's generator only when given none (tests, the arena).
# Views carry sha256(seed) from the deal on, and the seed once the hand is over.
# Anyone can rebuild the deal, and every stock rebuilt from the discard pile:
#
#     import random
#     from app.engine.cards import spanish_deck
#     deck = spanish_deck()            # or spanish_deck(2), french_deck()
#     random.Random(seed).shuffle(deck)
#     # deck[0] is the first card dealt; see each game's deal() for the order.
#     pile = discard_pile[:-1]         # rebuild n (1, 2...): all but the top card, bottom first
#     random.Random(f'{seed}:{n}').shuffle(pile)
#     # pile[0] is the first card drawn from the rebuilt stock.

HandSeeds = Callable[[], str]   # each call: the seed of the next hand


def new_hand_seed(rng: random.Random) -> str:
    return f'{rng.getrandbits(128):032x}'


def seeds_from(rng: random.Random) -> HandSeeds:
    """Hand seeds drawn from the game's own generator: reproducible, for tests and the arena."""
    return lambda: new_hand_seed(rng)


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode('ascii')).hexdigest()


def shuffled(deck: list[Card], seed: str) -> list[Card]:
    cards = list(deck)
    random.Random(seed).shuffle(cards)
    return cards


def rebuilt_stock(pile: list[Card], seed: str, number: int) -> list[Card]:
    """The stock made of ``pile`` (the discard pile but its top card, bottom first) at the hand's
    rebuild ``number`` (1, 2...): shuffled from the hand's own seed, so that the revealed seed
    accounts for every card of the hand. The first card drawn is the last of the list (the top)."""
    return shuffled(pile, f'{seed}:{number}')[::-1]
