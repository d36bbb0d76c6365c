"""Actions to and from JSON, in one format for every game.

An action is a frozen dataclass with a ``kind`` class variable; its JSON form is that kind plus
its fields by name, cards in the game's notation::

    {'kind': 'draw_stock'}
    {'kind': 'discard', 'card': '7o'}
    {'kind': 'buyback', 'accept': True}
    {'kind': 'lay_off', 'card': 'JK', 'meld_id': 2, 'position': 9}
    {'kind': 'go_down', 'melds': [['7s', '7h', '7d'], ['JK', '5c', '6c', '7c']]}

Each engine builds one :class:`ActionCodec` from its action classes and card parser (its
``ACTIONS``). Reading is for input from browsers: anything that is not exactly such a form
(a wrong type, an unknown kind or card, a missing or extra key) is refused with
``IllegalAction('bad_action')``. A well-formed action may still be illegal; ``apply`` says so.
"""
from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from app.engine.cards import Card
from app.engine.errors import IllegalAction

MAX_CARDS = 108   # no action names more cards than the largest deck holds
_INT_LIMIT = 2 ** 31


class _Malformed(ValueError):
    """Why one field could not be read; becomes the IllegalAction's message."""


def action_to_json(action: Any) -> dict[str, Any]:
    """The JSON form of any game's action: ``kind`` plus its fields, cards as notation."""
    return {'kind': action.kind,
            **{f.name: _dump(getattr(action, f.name)) for f in dataclasses.fields(action)}}


def _dump(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_dump(item) for item in value]
    return value


def action_from_json(engine: ModuleType, data: Any) -> Any:
    """``data`` read as an action of the game ``engine`` (a module under ``app.engine``)."""
    return engine.ACTIONS.from_json(data)


def _card(parse: Callable[[str], Card]) -> Callable[[Any], Card]:
    def read(raw: Any) -> Card:
        if not isinstance(raw, str):
            raise _Malformed(f'a card is written as text, not {type(raw).__name__}')
        try:
            return parse(raw)
        except ValueError as error:
            raise _Malformed(str(error)) from None
    return read


def _bool(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise _Malformed(f'expected true or false, not {raw!r}')
    return raw


def _int(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not -_INT_LIMIT < raw < _INT_LIMIT:
        raise _Malformed(f'expected a whole number, not {raw!r}')
    return raw


def _optional_int(raw: Any) -> int | None:
    return None if raw is None else _int(raw)


def _cards_in_melds(card: Callable[[Any], Card]) -> Callable[[Any], tuple[tuple[Card, ...], ...]]:
    def read(raw: Any) -> tuple[tuple[Card, ...], ...]:
        if not isinstance(raw, list) or not all(isinstance(meld, list) for meld in raw):
            raise _Malformed('melds are a list of lists of cards')
        if sum(len(meld) for meld in raw) > MAX_CARDS:
            raise _Malformed(f'more than {MAX_CARDS} cards')
        return tuple(tuple(card(item) for item in meld) for meld in raw)
    return read


class ActionCodec:
    """One game's actions by kind, each field read by its declared type.

    Field types understood: ``Card``, ``bool``, ``int``, ``int | None`` and
    ``tuple[tuple[Card, ...], ...]`` (melds); any other type is a programming error, raised at
    import time. A field with a default may be left out of the JSON."""

    def __init__(self, game: str, actions: Iterable[type], parse_card: Callable[[str], Card]) -> None:
        self.game = game
        card = _card(parse_card)
        readers: dict[Any, Callable[[Any], Any]] = {
            Card: card, bool: _bool, int: _int, int | None: _optional_int,
            tuple[tuple[Card, ...], ...]: _cards_in_melds(card),
        }
        self.types: dict[str, type] = {}
        self._fields: dict[str, dict[str, tuple[Callable[[Any], Any], bool]]] = {}
        for cls in actions:
            hints = typing.get_type_hints(cls)
            fields = {}
            for f in dataclasses.fields(cls):
                if hints[f.name] not in readers:
                    raise TypeError(f'{cls.__name__}.{f.name}: no JSON form for {hints[f.name]!r}')
                required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
                fields[f.name] = (readers[hints[f.name]], required)
            self.types[cls.kind] = cls
            self._fields[cls.kind] = fields

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.types)

    def from_json(self, data: Any) -> Any:
        """The action ``data`` describes; IllegalAction('bad_action') for anything else."""
        if not isinstance(data, dict):
            raise self._bad(f'an action is a JSON object, not {type(data).__name__}')
        kind = data.get('kind')
        if not isinstance(kind, str) or kind not in self.types:
            raise self._bad(f'unknown kind of action {kind!r}; known: {", ".join(self.kinds)}')
        fields = self._fields[kind]
        extra = sorted(str(key) for key in data if key != 'kind' and key not in fields)
        missing = sorted(name for name, (_, required) in fields.items() if required and name not in data)
        if extra or missing:
            raise self._bad(f'{kind}: ' + '; '.join(
                part for part in (extra and f'unexpected {", ".join(extra)}',
                                  missing and f'missing {", ".join(missing)}') if part))
        values = {}
        for name, (read, _) in fields.items():
            if name in data:
                try:
                    values[name] = read(data[name])
                except _Malformed as error:
                    raise self._bad(f'{kind}.{name}: {error}') from None
        return self.types[kind](**values)

    def _bad(self, why: str) -> IllegalAction:
        return IllegalAction('bad_action', f'Not a {self.game} action: {why}.')
