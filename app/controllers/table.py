"""One controller per open table: the engine state, the computer players and their pacing.

The page builds a controller, listens to it and sends the human's actions through `act`. The
controller hands the page only the human seat's view. It saves itself after every step through
the `save` callback (the page stores it per browser), so a reload finds the same table.
"""
from __future__ import annotations

import asyncio
import importlib
import json
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from app.engine.protocol import Event, IllegalAction
from app.games import GAMES_BY_ID, GameInfo

# seconds between two visible computer actions, per play speed
SPEEDS: dict[str, float] = {'slow': 1.6, 'normal': 0.9, 'fast': 0.3, 'instant': 0.0}
HUMAN = 0
logger = logging.getLogger(__name__)
LOG_LENGTH = 80
MIN_BEAT = 0.02   # seconds; lets the outbox send a move before the next computer move is computed
SAVE_DELAY = 0.01  # seconds; a move is saved just after its update has left for the browser


@dataclass
class TableOptions:
    """What the player chose before dealing; JSON-compatible."""

    seats: int = 4
    level: str = 'normal'
    speed: str = 'normal'
    hints: bool = True
    rules: dict[str, Any] = field(default_factory=dict)   # the engine's Rules fields

    def to_dict(self) -> dict[str, Any]:
        return {'seats': self.seats, 'level': self.level, 'speed': self.speed, 'hints': self.hints,
                'rules': dict(self.rules)}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'TableOptions':
        return cls(seats=int(raw['seats']), level=raw['level'], speed=raw['speed'], hints=bool(raw['hints']),
                   rules=dict(raw.get('rules', {})))


def storage_key(game: GameInfo) -> str:
    """Where a browser's open table of this game is kept (in app.storage.user)."""
    return f'table:{game.id}'


def save_table(storage: Any, controller: 'TableController') -> None:
    """Keep the table in the browser's storage, as one JSON string: NiceGUI would otherwise wrap
    every nested value of the state in an observable, which costs more than the move itself."""
    storage[storage_key(controller.game)] = json.dumps(controller.to_dict(), separators=(',', ':'))


def saved_table(storage: Any, game: GameInfo) -> dict[str, Any] | None:
    saved = storage.get(storage_key(game))
    return json.loads(saved) if isinstance(saved, str) else None


async def settle_saves() -> None:
    """Wait until a move made just before has been saved (``save_soon`` holds a save back for
    ``SAVE_DELAY``): a page about to read a saved table calls this first, so a reload right
    after a click finds the click. Timers run in deadline order, so this is not a guess."""
    await asyncio.sleep(2 * SAVE_DELAY)


def restore_table(storage: Any, game: GameInfo) -> 'TableController | None':
    """The browser's saved table of `game`, or None (none saved, or an old or damaged save)."""
    try:
        saved = saved_table(storage, game)
        return TableController.from_dict(saved) if saved else None
    except (KeyError, TypeError, ValueError, IndexError) as error:
        logger.warning('could not restore a saved %s table: %s', game.id, error)
        return None


class TableController:
    """Engine state + bots for one table; the human always sits at seat 0."""

    def __init__(self, game: GameInfo, options: TableOptions, *, seed: int,
                 state: Any | None = None, started_at: float | None = None,
                 hand_order: list[str] | None = None, pause: str | None = None,
                 actions_applied: int = 0, log: list[dict[str, Any]] | None = None,
                 hand_results: list[dict[str, Any]] | None = None) -> None:
        self.game = game
        self.options = options
        self.seed = seed
        self.engine: ModuleType = importlib.import_module(f'app.engine.{game.engine}')
        self.ai: ModuleType = importlib.import_module(f'app.ai.{game.engine}')
        rules = self.engine.Rules(**options.rules)
        self.state = state if state is not None else self.engine.new_game(rules, options.seats, random.Random(seed))
        self.started_at = started_at if started_at is not None else time.time()
        self.hand_order: list[str] = list(hand_order or [])
        # 'count' while the finished hand's count is on screen, until the human goes on
        self.pause: str | None = pause
        self.actions_applied = actions_applied
        self.log: list[dict[str, Any]] = list(log or [])                   # recent public events
        self.hand_results: list[dict[str, Any]] = list(hand_results or [])  # every hand-end event
        self.listeners: list[Callable[[list[Event]], None]] = []
        self.on_save: Callable[['TableController'], None] | None = None
        self.on_game_over: Callable[['TableController'], None] | None = None
        self._running: asyncio.Task | None = None
        self._save_pending: asyncio.TimerHandle | None = None
        self._stopped = False
        self._human_was_out = self.human_is_out()

    # the human seat's side -------------------------------------------------
    def view(self) -> Any:
        return self.state.view(HUMAN)

    def is_over(self) -> bool:
        return self.state.outcome() is not None

    def act(self, action: Any) -> None:
        """Apply the human's action. Raises IllegalAction (state untouched) when it is not allowed."""
        if self.pause is not None and not self._is_pause_action(action):
            raise IllegalAction('wait_for_count', 'finish looking at the count first')
        events = self.state.apply(HUMAN, action)
        self._after(events)

    def must_answer_during_pause(self) -> bool:
        """The human has a question to answer on the count screen (e.g. buy-back)."""
        return (self.pause is not None and self.state.current_seat == HUMAN
                and any(self._is_pause_action(action) for action in self.view().legal_actions))

    def resume_after_count(self) -> None:
        """The human has seen the count: play on."""
        if self.pause is None or self.must_answer_during_pause():
            return
        self.pause = None
        self.save()
        self._notify([])
        self.start()

    def bot_for(self, seat: int) -> Any:
        # bots are rebuilt from the seed and the move number: they keep no memory beyond the view
        return self.ai.make_bot(self.options.level, random.Random(f'{self.seed}:{seat}:{self.actions_applied}'))

    def hint(self) -> Any | None:
        """The normal computer player's choice for the human's current decision."""
        view = self.view()
        if not view.legal_actions:
            return None
        return self.ai.make_bot('normal', random.Random(f'hint:{self.seed}:{self.actions_applied}')).choose(view)

    # the computer seats ----------------------------------------------------
    def start(self) -> None:
        """Let the computer players act until the human has something to decide (or the game ends)."""
        if self._running is not None and not self._running.done() and not self._stopped:
            return
        self._stopped = False
        self._running = asyncio.create_task(self._run_bots())

    def stop(self) -> None:
        self.flush()
        self._stopped = True
        if self._running is not None:
            self._running.cancel()

    async def _run_bots(self) -> None:
        while not self._stopped:
            delay = 0.0 if self.human_is_out() else SPEEDS.get(self.options.speed, SPEEDS['normal'])
            seat = self.state.current_seat
            if seat is None or seat == HUMAN:
                return
            if self.pause is not None and not self._bot_may_act_during_pause():
                return
            # at instant speed still leave a beat, so the page shows each move before the next one
            await asyncio.sleep(delay if self.pause is None else 0)
            await asyncio.sleep(MIN_BEAT)
            if self._stopped or self.state.current_seat != seat:
                return
            self._after(self.state.apply(seat, self._bot_action(seat)))

    def _bot_action(self, seat: int) -> Any:
        """The computer's choice; should a bot ever fail or pick an illegal action, the table plays
        on with the first legal action instead of freezing (and the failure is logged)."""
        view = self.state.view(seat)
        try:
            action = self.bot_for(seat).choose(view)
        except Exception:   # any bug in a bot must not stop the game for the person at the table
            logger.exception('%s bot failed at seat %s', self.game.id, seat)
            action = None
        if action not in view.legal_actions:
            logger.error('%s bot chose %r, not a legal action', self.game.id, action)
            action = view.legal_actions[0]
        return action

    def _after(self, events: list[Event]) -> None:
        self.actions_applied += 1
        self.log = (self.log + [event.to_dict() for event in events])[-LOG_LENGTH:]
        self.hand_results += [event.to_dict() for event in events if event.kind in self.game.hand_end_events]
        out = self.human_is_out()
        # the count waits for the person, unless they were already out: then the rest plays out
        if any(event.kind in self.game.hand_end_events for event in events) and not self.is_over() \
                and not (out and self._human_was_out):
            self.pause = 'count'
        self._human_was_out = out
        self.save_soon()
        self._notify(events)
        if self.is_over():
            if self.on_game_over is not None:
                try:
                    self.on_game_over(self)
                except (SQLAlchemyError, ValueError):   # losing the record must not break the table
                    logger.exception('could not record a finished %s game', self.game.id)
            return
        self.start()

    def human_is_out(self) -> bool:
        """Eliminated (in games that eliminate): the game then finishes without waiting for them."""
        return bool(getattr(self.view(), 'eliminated', (False,))[HUMAN])

    def _is_pause_action(self, action: Any) -> bool:
        return getattr(action, 'kind', None) in self.game.pause_actions

    def _bot_may_act_during_pause(self) -> bool:
        # questions asked after a hand (e.g. buy-back) are answered on the count screen
        actions = self.state.view(self.state.current_seat).legal_actions
        return bool(actions) and all(self._is_pause_action(action) for action in actions)

    def _notify(self, events: list[Event]) -> None:
        for listener in list(self.listeners):
            listener(events)

    def save(self) -> None:
        if self._save_pending is not None:
            self._save_pending.cancel()
            self._save_pending = None
        if self.on_save is not None:
            self.on_save(self)

    def save_soon(self) -> None:
        """Save a moment later, once the move is on its way to the screen (what a click waits for).
        Moves in between are saved together; ``flush`` saves at once."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.save()
            return
        if self._save_pending is None:
            self._save_pending = loop.call_later(SAVE_DELAY, self.save)

    def flush(self) -> None:
        """Save now if a save is waiting."""
        if self._save_pending is not None:
            self.save()

    def retire(self) -> None:
        """A new table replaces this one: save what is held back, then never again."""
        self.flush()
        self.on_save = None
        self.stop()

    # persistence -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {'game': self.game.id, 'options': self.options.to_dict(), 'seed': self.seed,
                'state': self.state.to_dict(), 'started_at': self.started_at, 'hand_order': self.hand_order,
                'pause': self.pause, 'actions_applied': self.actions_applied, 'log': self.log,
                'hand_results': self.hand_results}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> 'TableController':
        game = GAMES_BY_ID[raw['game']]
        engine = importlib.import_module(f'app.engine.{game.engine}')
        return cls(game, TableOptions.from_dict(raw['options']), seed=int(raw['seed']),
                   state=engine.GameState.from_dict(raw['state']), started_at=raw.get('started_at'),
                   hand_order=raw.get('hand_order'), pause=raw.get('pause'),
                   actions_applied=int(raw.get('actions_applied', 0)), log=raw.get('log'),
                   hand_results=raw.get('hand_results'))
