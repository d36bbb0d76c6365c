"""Who sits at a table and what its players chose: plain data, saved as JSON beside the game."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

BOT_NAMES = ('Lucía', 'Mateo', 'Carmen', 'Javier', 'Elena')
# more computers' names for rooms, where people may already go by some of the first ones
ROOM_BOT_NAMES = BOT_NAMES + ('Pablo', 'Sofía', 'Diego', 'Marta', 'Hugo', 'Irene')
FEMININE_NAMES = frozenset({'Lucía', 'Carmen', 'Elena', 'Sofía', 'Marta', 'Irene'})   # Spanish words about them agree
MASCULINE_NAMES = frozenset(ROOM_BOT_NAMES) - FEMININE_NAMES   # a person's gender is unknown: their words are neutral
# seconds between two visible computer actions, per play speed
SPEEDS: dict[str, float] = {'slow': 1.6, 'normal': 0.9, 'fast': 0.6, 'instant': 0.0}   # fast: still long enough to follow


@dataclass
class TableOptions:
    """What the players chose before dealing; JSON-compatible."""

    seats: int = 4
    level: str = 'normal'
    speed: str = 'normal'
    hints: bool = True
    rules: dict[str, Any] = field(default_factory=dict)   # the engine's Rules fields
    # a daily deal's table (app.daily): its day, 'YYYY-MM-DD'; its game follows the game's daily
    # format, every hand dealt from the game's own seed
    daily: str = ''
    practice: bool = False   # a daily table of the day's practice deal (a guest's), not the ranked one

    def to_dict(self) -> dict[str, Any]:
        return {'seats': self.seats, 'level': self.level, 'speed': self.speed, 'hints': self.hints,
                'rules': dict(self.rules), **({'daily': self.daily} if self.daily else {}),
                **({'practice': True} if self.practice else {})}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'TableOptions':
        return cls(seats=int(raw['seats']), level=raw['level'], speed=raw['speed'], hints=bool(raw['hints']),
                   rules=dict(raw.get('rules', {})), daily=str(raw.get('daily', '')),
                   practice=raw.get('practice') is True)

    def daily_open(self, now: float) -> bool:
        return daily_open(self.daily, now)


def daily_open(day: str, now: float) -> bool:
    """Whether a daily table's day ('YYYY-MM-DD', '' for a table that is none) is still open at
    ``now`` (seconds since the epoch, UTC): its hands' seeds stay secret until then, as the day's
    seed does, because every try of the day is dealt the same hands."""
    return bool(day) and day >= datetime.fromtimestamp(now, UTC).date().isoformat()


@dataclass
class Seat:
    """Who sits at one seat: a person (an account, or a guest token kept in one browser) or a
    computer at a level. ``name`` is a person's display name or a computer's."""

    kind: str                      # 'person' | 'computer'
    name: str = ''
    level: str | None = None       # computers
    guest: str | None = None       # people: the token of the browser that sat down
    user_id: int | None = None     # people who are logged in: history is recorded for them

    @property
    def is_person(self) -> bool:
        return self.kind == 'person'

    @property
    def is_empty(self) -> bool:
        """A person's seat of a room that nobody has taken yet."""
        return self.is_person and self.guest is None and self.user_id is None

    def belongs_to(self, guest: str | None, user_id: int | None) -> bool:
        return self.is_person and ((guest is not None and self.guest == guest)
                                   or (user_id is not None and self.user_id == user_id))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'Seat':
        return cls(kind=raw['kind'], name=raw.get('name', ''), level=raw.get('level'), guest=raw.get('guest'),
                   user_id=raw.get('user_id'))


def computer_seats(options: TableOptions, people: list[Seat]) -> list[Seat]:
    """The people first, then computers at the chosen level up to the number of seats."""
    return people + [Seat('computer', name=BOT_NAMES[index], level=options.level)
                     for index in range(options.seats - len(people))]
