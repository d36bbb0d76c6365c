"""The one list of the site's games: each game is one plugin, and the shared code asks it.

Pages, navigation, tables, the history, the review, the coach and the arena read it; nothing else
knows which games exist or where their modules live. A game's entry here is everything about it
that has no screen (this module is below the components, which may not be imported from here); what
its screens need is its entry in ``components.games``, which points back to this one.

What a new game provides, here:

- ``id`` (its address and storage id, the engine's ``GAME_ID``) and ``engine_module``: the rules,
  with ``GAME_ID``, ``Rules``, ``GameState``, ``new_game`` and ``ACTIONS`` (app.engine.protocol);
- ``ai_module``: its computer players, ``make_bot(level, rng)``;
- ``better``, ``min_seats``/``max_seats``, ``deck`` (catalog key ``deck.<deck>``), ``sample_cards``
  for the home page and ``options``: the room options, fields of its ``Rules``;
- ``hand_end_events``/``pause_actions``: when the table shows the count, and what is answered there;
- ``colour``: its colour in the history's figures and plots;
- ``card_value`` and ``value_header``: what a card is worth, for the rules page's values table;
- ``coach`` and ``coach_thresholds``: its coach's evaluator (app.coach.core.Evaluator) and
  the points lost from which a choice is labelled, calibrated with app.bench.coach.
- ``daily``: its daily deal's format (``DailyFormat``: seats, the computers' level, the rules it
  fixes), described by a catalog key.
- its computer levels' fixed ratings, fitted from the arena with app.bench.computer_ratings into
  ``app.ratings.COMPUTER_RATINGS`` (read through ``computer_ratings``).

and in ``components.games``: its table screen (a ``TableScreen``), the coach's words for its
options, its log's line for an event, and its board's CSS where the review needs it; plus its
catalog keys (``game.<id>.name``/``summary``, ...) and its rules text (app/rules/<id>.<lang>.md).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Any

import app.ai.chinchon
import app.ai.continental
import app.ai.ronda_robada
import app.engine.chinchon
import app.engine.continental
import app.engine.ronda_robada
import app.coach.chinchon
import app.coach.continental
import app.coach.ronda_robada
from app.engine.cards import Card
from app.coach.core import Evaluator, Thresholds
from app.ratings import COMPUTER_RATINGS, Rating


class Better(Enum):
    """Which final scores are better in a game."""

    LOWER = 'lower'
    HIGHER = 'higher'

    def best(self, lowest: int, highest: int) -> int:
        return lowest if self is Better.LOWER else highest


@dataclass(frozen=True, slots=True)
class RuleOption:
    """A room option: a field of the engine's ``Rules`` that a table may choose.

    ``values`` are the allowed values in the order a form shows them; ``value_keys`` their catalog
    labels (none for a yes/no option, shown as a switch); ``help_key`` an optional explanation."""

    name: str
    default: bool | int
    values: tuple[bool | int, ...]
    label_key: str
    value_keys: tuple[str, ...] = ()
    help_key: str | None = None

    @property
    def type(self) -> type:
        return type(self.default)

    def allows(self, value: Any) -> bool:
        # type() and not isinstance(): True must not pass for 1, nor 1 for True
        return type(value) is self.type and value in self.values


@dataclass(frozen=True, slots=True)
class DailyFormat:
    """The daily deal's format for a game (app.daily), the same for everyone: you in the first
    seat against computers at ``level`` in the others, playing at ``speed``, and the engine's
    ``Rules`` fields the format fixes (e.g. a number of hands), which are not room options.
    ``about_key``: its words. Its lengths are measured with ``python -m app.bench.daily``."""

    seats: int
    about_key: str
    level: str = 'hard'
    speed: str = 'normal'   # the computers' pace (app.tables.seats.SPEEDS): what makes the format's length
    rules: tuple[tuple[str, Any], ...] = ()   # pairs: a frozen value; make_rules(fixed=dict(...))


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str                      # URL and storage id: /play/<id>, /reglas/<id>; the engine's GAME_ID
    engine_module: ModuleType    # the rules: GAME_ID, Rules, GameState, new_game, ACTIONS
    ai_module: ModuleType        # the computer players: make_bot(level, rng)
    better: Better               # which final scores win
    min_seats: int
    max_seats: int
    deck: str                    # catalog key suffix: deck.<deck>
    sample_cards: tuple[str, ...]   # a few cards in the engine's notation, shown on the home page
    options: tuple[RuleOption, ...] = ()
    hand_end_events: frozenset[str] = frozenset()   # event kinds after which the table shows the count
    pause_actions: frozenset[str] = frozenset()     # action kinds answered on the count screen
    colour: str = '#1d2521'      # in the history's figures and plots
    card_value: Callable[[Card], int] | None = None   # what a card is worth: the rules page's values table
    value_header: str = 'rules.table.points'          # that table's column, a catalog key
    coach: Evaluator | None = None                    # the coach's evaluator, once the game has one
    coach_thresholds: Thresholds | None = None        # points lost from which the coach labels a choice
    daily: DailyFormat | None = None                  # its daily deal's format, if it has one

    @property
    def engine(self) -> str:
        """The module's name under app.engine (Python's spelling of the id)."""
        return self.engine_module.__name__.rsplit('.', 1)[-1]

    @property
    def computer_ratings(self) -> Mapping[str, Rating]:
        """Level -> that computer's fixed rating in this game (app.ratings says how they are fitted)."""
        return COMPUTER_RATINGS[self.id]

    @property
    def name_key(self) -> str:
        return f'game.{self.id}.name'

    @property
    def summary_key(self) -> str:
        return f'game.{self.id}.summary'

    @property
    def play_path(self) -> str:
        return f'/play/{self.id}'

    def make_rules(self, chosen: Mapping[str, Any] | None = None, *, fixed: Mapping[str, Any] | None = None) -> Any:
        """The engine's ``Rules`` for the chosen options (the others at their default).
        ValueError for an option the game does not have or a value it does not allow.

        ``fixed``: fields of the engine's ``Rules`` that are no room option, set by code (the
        daily deal's short formats: Chinchón's ``hands``, Continental's ``hands``); the engine's
        ``Rules`` checks their values. A room option is never fixed here: it comes in ``chosen``,
        checked against the values a room may choose."""
        chosen, fixed = dict(chosen or {}), dict(fixed or {})
        by_name = {option.name: option for option in self.options}
        unknown = sorted(set(chosen) - set(by_name))
        if unknown:
            raise ValueError(f'{self.id} has no option {", ".join(map(str, unknown))}')
        for name, value in chosen.items():
            if not by_name[name].allows(value):
                raise ValueError(f'{self.id}: {name} cannot be {value!r}; allowed: {by_name[name].values}')
        extras = {f.name for f in dataclasses.fields(self.engine_module.Rules)} - set(by_name)
        not_extra = sorted(set(fixed) - extras)
        if not_extra:
            raise ValueError(f'{self.id}: cannot fix {", ".join(map(str, not_extra))}; '
                             f'the rules fields beyond the options: {", ".join(sorted(extras)) or "none"}')
        # the engine's Rules refuses a bad value with a ValueError of its own
        return self.engine_module.Rules(**{option.name: chosen.get(option.name, option.default)
                                           for option in self.options}, **fixed)


# the coach's thresholds are calibrated with app.bench.coach (seeded self-play, per level): see the README
GAMES: tuple[GameInfo, ...] = (
    GameInfo('chinchon', app.engine.chinchon, app.ai.chinchon, Better.LOWER, 2, 6, 'spanish40',
             ('1o', '2o', '3o', '4o'),
             options=(RuleOption('limit', 100, (100, 50), 'setup.limit', ('setup.limit_100', 'setup.limit_50')),
                      RuleOption('buyback', False, (False, True), 'setup.buyback', help_key='setup.buyback_help')),
             hand_end_events=frozenset({'count', 'void_hand'}), pause_actions=frozenset({'buyback'}),
             colour='#1f5f3a', card_value=app.engine.chinchon.card_value, value_header='rules.table.value',
             coach=app.coach.chinchon.EVALUATOR, coach_thresholds=Thresholds(3.0, 7.0, 15.0),
             # three seats, not four: at four a third of the hands run out the stock and are void (12 seeded
             # hard games: 20 void hands of 60 at four seats, 1 of 60 at three)
             daily=DailyFormat(3, 'daily.format.chinchon', rules=(('hands', 5),))),
    GameInfo('ronda-robada', app.engine.ronda_robada, app.ai.ronda_robada, Better.HIGHER, 2, 4, 'spanish40',
             ('10c', '11c', '12c', '1c'),
             colour='#b5462b', card_value=app.engine.ronda_robada.card_points,
             coach=app.coach.ronda_robada.EVALUATOR, coach_thresholds=Thresholds(3.0, 6.0, 12.0),
             daily=DailyFormat(2, 'daily.format.ronda-robada')),
    # stock_rebuilds is not a room option: the rules fix it at 10
    GameInfo('continental', app.engine.continental, app.ai.continental, Better.LOWER, 2, 6, 'french108',
             ('7h', '8h', 'JK', '10h'),
             options=(RuleOption('robo_de_contra', True, (False, True), 'setup.continental.robo_de_contra',
                                 help_key='setup.continental.robo_de_contra_help'),),
             hand_end_events=frozenset({'hand_end'}),
             colour='#2b5fb5', card_value=app.engine.continental.card_points,
             coach=app.coach.continental.EVALUATOR, coach_thresholds=Thresholds(5.0, 12.0, 25.0),
             daily=DailyFormat(4, 'daily.format.continental', speed='fast', rules=(('hands', 3),))),
)

GAMES_BY_ID: dict[str, GameInfo] = {game.id: game for game in GAMES}
