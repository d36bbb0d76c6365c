"""What every game's ``from_position`` shares: card text checked against the deck, seats checked
against the table, and the cards nobody named dealt from a seeded shuffle.

A position names the cards a player would describe; the rest of the deck is shuffled with
``random.Random(seed)`` and dealt where the position leaves room, so every card of the deck is in
the game exactly once and the same call builds the same game. A position has no history: its
events start empty, and its hand seed (drawn from the same generator) shuffles any stock rebuilt
later but does not rebuild the deal, which nobody dealt.
"""
from __future__ import annotations

import ast
import random
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TypeVar

from app.engine.cards import Card

T = TypeVar('T')


class Named:
    """The cards a position names, taken out of ``deck`` one text at a time."""

    def __init__(self, deck: list[Card], parse: Callable[[str], list[Card]]) -> None:
        self.deck, self.parse = deck, parse
        self.copies = Counter(deck)
        self.left = Counter(deck)

    def cards(self, text: str, where: str) -> list[Card]:
        """The cards of ``text``; refuses a bad token or a card named more often than the deck holds it."""
        if not isinstance(text, str):
            raise ValueError(f'{where}: card text such as "1o 2o 12c" expected, not {text!r}')
        try:
            cards = self.parse(text)
        except ValueError as error:
            raise ValueError(f'{where}: {error}') from None
        for card in cards:
            if not self.left[card]:
                copies = self.copies[card]
                raise ValueError(f'{card} is named {copies + 1} times (the last in {where}), but the deck '
                                 f'holds {copies} of it')
            self.left[card] -= 1
        return cards

    def rest(self, rng: random.Random) -> list[Card]:
        """Every card not named, shuffled; deal with ``deal`` (it takes from the end)."""
        spare = [card for card in dict.fromkeys(self.deck) for _ in range(self.left[card])]
        rng.shuffle(spare)
        return spare


def deal(spare: list[Card], count: int) -> list[Card]:
    """``count`` cards off ``spare`` (the callers check beforehand that there are enough)."""
    return [spare.pop() for _ in range(count)]


def seat(value: object, seats: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise ValueError(f'{what}: there is no seat {value!r} at a table of {seats} (seats 0 to {seats - 1})')
    return value


def seat_count(hands: object, seats: int | None, low: int, high: int, game: str) -> int:
    """The table size: ``seats``, else one seat per hand of a list of hands (None names none)."""
    if isinstance(hands, str):
        raise ValueError('hands: one text per seat (a list, or {seat: text}), not a single text')
    if seats is None:
        if hands is None or isinstance(hands, Mapping):
            raise ValueError('seats: say how many players there are when hands names only some of them')
        seats = len(hands)
    elif isinstance(hands, Sequence) and len(hands) != seats:
        raise ValueError(f'hands: {len(hands)} hands listed for {seats} seats')
    if isinstance(seats, bool) or not isinstance(seats, int) or not low <= seats <= high:
        raise ValueError(f'{game} is for {low} to {high} players, not {seats!r}')
    return seats


def per_seat(values: Mapping[int, T] | Sequence[T] | None, seats: int, what: str) -> dict[int, T]:
    """``{seat: value}`` from a mapping (some seats) or a sequence (every seat, in order)."""
    if values is None:
        return {}
    if isinstance(values, str):
        raise ValueError(f'{what}: one value per seat (a list, or {{seat: value}}), not a single text')
    if isinstance(values, Mapping):
        return {seat(key, seats, what): value for key, value in values.items()}
    if len(values) != seats:
        raise ValueError(f'{what}: {len(values)} values listed for {seats} seats')
    return dict(enumerate(values))


def seat_set(values: Collection[int], seats: int, what: str) -> set[int]:
    return {seat(value, seats, what) for value in values}


def count(value: object, what: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bounds = f'{low} to {high}' if high is not None else f'{low} or more'
        raise ValueError(f'{what} must be a whole number, {bounds}, not {value!r}')
    return value


def text(**values: object) -> str:
    """A position as text: ``from_position``'s keyword arguments, Python literals one after the
    other (``hands=['1o 2o', '3c 4c'], current=1``), so it pastes into a call as well as into
    ``from_position(text)``. Arguments at their default (None) are left out."""
    return ', '.join(f'{key}={value!r}' for key, value in values.items() if value is not None)


def keywords(position: str) -> dict[str, object]:
    """The keyword arguments a position's text (see ``text``) names; refuses anything but literals."""
    try:
        call = ast.parse(f'position({position})', mode='eval').body
        if not isinstance(call, ast.Call) or call.args:
            raise ValueError('only key=value pairs')
        return {item.arg: ast.literal_eval(item.value) for item in call.keywords if item.arg is not None}
    except (SyntaxError, ValueError) as error:
        raise ValueError(f'a position is key=value pairs of Python literals, as position() writes them: {error}') \
            from None


def cards_text(cards: Sequence[Card]) -> str:
    return ' '.join(str(card) for card in cards)
