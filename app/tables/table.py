"""A Table: the one authority of one game in progress (after boardgame.io's master).

It holds the engine state and everything around it: the seats (people and computers), a version
that grows with every step, the computers' pacing and each seat's subscribers. Every screen that
shows the table talks to the same object (see ``app.tables.registry``). A screen sends its
person's action with the version it was looking at; ``act`` refuses a foreign seat, an illegal
action and a stale version, each with a code the page translates, and then changes nothing.
Subscribers receive their own seat's view only: the state itself never leaves this object.
"""
from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from nicegui import app, run

from app.engine.protocol import Event, IllegalAction
from app.games import GAMES_BY_ID, GameInfo
from app.tables.room import SPECTATOR, Room, RoomTable

# seconds between two visible computer actions, per play speed
SPEEDS: dict[str, float] = {'slow': 1.6, 'normal': 0.9, 'fast': 0.3, 'instant': 0.0}
BOT_NAMES = ('Lucía', 'Mateo', 'Carmen', 'Javier', 'Elena')
# more computers' names for rooms, where people may already go by some of the first ones
ROOM_BOT_NAMES = BOT_NAMES + ('Pablo', 'Sofía', 'Diego', 'Marta', 'Hugo', 'Irene')
FEMININE_NAMES = frozenset({'Lucía', 'Carmen', 'Elena', 'Sofía', 'Marta', 'Irene'})   # Spanish words about them agree
LOG_LENGTH = 80
MIN_BEAT = 0.02    # seconds; lets a move reach the screens before the next computer move is computed
# at most this many computer moves a second at one table, even at instant speed or once every person
# is out: a table's computers take turns in the process pool with every other table's
MAX_COMPUTER_MOVES_PER_SECOND = 20
WORKER_NICENESS = 10   # the computers think below the server's priority: the event loop answers first
# seconds; a step is saved once its update has surely left for the screens (a write that starts
# while the update is still on its way delays it: at 10 ms a drop took 1.6x a bare button, at
# 50 ms 1.4x). A kill in between loses at most that last step.
SAVE_DELAY = 0.05
logger = logging.getLogger(__name__)

Subscriber = Callable[[Any, list[Event]], None]   # (this seat's view, the public events of the step)


@dataclass
class TableOptions:
    """What the players chose before dealing; JSON-compatible."""

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


def fresh_hand_seed() -> str:
    """A hand's secret seed, from the operating system's randomness: the seeds revealed after the
    hands say nothing of the next ones (a Mersenne Twister's outputs would, after about 156 seeds)."""
    return secrets.token_hex(16)


def computer_choice(game_id: str, level: str, seed: str, view: Any) -> Any:
    """A computer's move from its seat's view (runs in a worker process: everything it needs
    comes as plain, picklable arguments, and the same arguments always give the same move)."""
    return GAMES_BY_ID[game_id].ai_module.make_bot(level, random.Random(seed)).choose(view)


def think_in_worker(game_id: str, level: str, seed: str, view: Any) -> Any:
    """``computer_choice`` in a worker process of the pool, which lowers its own priority below
    the server's the first time (on a busy machine the server's screens go first)."""
    lowest = os.getpriority(os.PRIO_PROCESS, os.getppid()) + WORKER_NICENESS
    if os.getpriority(os.PRIO_PROCESS, 0) < lowest:
        os.setpriority(os.PRIO_PROCESS, 0, lowest)
    return computer_choice(game_id, level, seed, view)


class Table(RoomTable):
    log_length = LOG_LENGTH

    def __init__(self, table_id: str, game: GameInfo, options: TableOptions, seats: list[Seat], *, seed: int,
                 state: Any | None = None, version: int = 0, started_at: float | None = None,
                 pause: str | None = None, log: list[dict[str, Any]] | None = None,
                 hand_results: list[dict[str, Any]] | None = None,
                 hand_orders: dict[int, list[str]] | None = None, recorded: bool = False,
                 dealer: int | None = None, past_games: list[dict[str, Any]] | None = None,
                 room: Room | None = None) -> None:
        self.id = table_id
        self.game = game
        self.options = options
        self.seats = seats
        self.seed = seed
        self.ai = game.ai_module
        # the registry checks every rule option: a tampered one raises ValueError here
        self.rules = game.make_rules(options.rules)
        # the game's generator draws the first dealer; every hand's seed comes from secrets
        self.state = state if state is not None else game.engine_module.new_game(
            self.rules, len(seats), random.Random(seed), hand_seeds=fresh_hand_seed)
        # who dealt this game first: the next game at this table is dealt by the seat after it
        self.dealer: int = dealer if dealer is not None else self.state.view(0).dealer
        self.past_games: list[dict[str, Any]] = list(past_games or [])   # earlier games here: scores, winners
        self.version = version
        self.saved_version = version     # what the database holds (the compare-and-set's expectation)
        self.started_at = started_at if started_at is not None else time.time()
        # 'count' while a finished hand's count is on the screens, until a person goes on
        self.pause: str | None = pause
        self.log: list[dict[str, Any]] = list(log or [])                   # recent public events
        self.hand_results: list[dict[str, Any]] = list(hand_results or [])  # every hand-end event
        self.hand_orders: dict[int, list[str]] = dict(hand_orders or {})    # how each person arranged the hand
        self.recorded = recorded          # the finished game went to the history of its account holders
        self.subscribers: dict[int, list[Subscriber]] = {}
        self.on_save: Callable[['Table'], None] | None = None
        self.on_game_over: Callable[['Table'], None] | None = None
        self._running: asyncio.Task | None = None
        self._last_computer_move = float('-inf')   # time.monotonic() of this table's latest computer move
        self._save_pending: asyncio.TimerHandle | None = None
        self._people_were_out = self.people_are_out()
        self._room_init(room)

    # what a seat may know ------------------------------------------------------
    def view(self, seat: int) -> Any:
        """A seat's view; a spectator's (SPECTATOR, or any seat number below 0) is the public one."""
        return self.public_view() if seat < 0 else self.state.view(seat)

    def public_view(self) -> Any:
        """What anybody may know, for spectators: a seat's view without its hand or its choices."""
        return replace(self.state.view(0), hand=(), legal_actions=())

    def is_over(self) -> bool:
        return self.state.outcome() is not None

    @property
    def status(self) -> str:
        return 'over' if self.is_over() else 'playing'

    @property
    def game_number(self) -> int:
        """1 for the first game at this table, 2 after "play again"..."""
        return len(self.past_games) + 1

    def games_won(self) -> list[int]:
        """The running tally: games won per seat at this table (a shared win counts for each)."""
        outcomes = [game['winners'] for game in self.past_games]
        if self.is_over():
            outcomes.append(self.state.outcome().winners)
        return [sum(seat in winners for winners in outcomes) for seat in range(len(self.seats))]

    def person_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.is_person]

    def seat_of(self, guest: str | None, user_id: int | None) -> int | None:
        """The seat this browser or account sits at, or None."""
        return next((index for index, seat in enumerate(self.seats) if seat.belongs_to(guest, user_id)), None)

    def claim(self, seat: int, user_id: int | None, name: str | None) -> None:
        """A person who is (now) logged in: their finished game goes to their history."""
        person = self.seats[seat]
        if user_id is not None and person.user_id != user_id:
            person.user_id, person.name = user_id, name or person.name
            self.save_soon()

    # a person's actions ----------------------------------------------------------
    def act(self, seat: int, action: Any, version: int) -> None:
        """Apply a person's action seen on the screen of `version`. Raises IllegalAction, with
        the state untouched, for a computer's seat, a stale screen or an action the rules refuse."""
        self._check(seat, version)
        if self.pause is not None and not self._is_pause_action(action):
            raise IllegalAction('wait_for_count', 'finish looking at the count first')
        events = self.state.apply(seat, action)
        self._person_acted(seat)
        self._step(events)

    def resume_after_count(self, seat: int, version: int) -> None:
        """A person has seen the count: play on (the count's question, if any, must be answered)."""
        self._check(seat, version)
        if self.pause is None or self.must_answer_during_pause(seat):
            return
        self.ready.add(seat)
        if self.waiting_to_go_on():   # at a room, the others present are still reading it
            self._notify([])
            return
        self._go_on_from_count()

    def _go_on_from_count(self) -> None:
        self.pause = None
        self.ready.clear()
        self.version += 1
        self.save_soon()
        self._notify([])
        self.start()

    def next_game(self, seat: int, version: int, seed: int) -> None:
        """A person asks for another game once this one is over: the same seats and options deal
        again at this table, the dealer one seat on, and the tally of games won goes on."""
        self._check(seat, version)
        outcome = self.state.outcome()
        if outcome is None:
            raise IllegalAction('game_not_over', 'this game is still being played')
        self.past_games.append({'scores': list(outcome.scores), 'winners': list(outcome.winners)})
        self.seed = seed
        self.dealer = (self.dealer + 1) % len(self.seats)
        self.state = self.game.engine_module.new_game(self.rules, len(self.seats), random.Random(seed),
                                                      dealer=self.dealer, hand_seeds=fresh_hand_seed)
        self.started_at, self.pause, self.recorded = time.time(), None, False
        self.log, self.hand_results, self.hand_orders = [], [], {}
        self.ready.clear()
        self._people_were_out = self.people_are_out()
        self.version += 1
        self.save_soon()
        self._notify([])
        self.start()

    def _check(self, seat: int, version: int) -> None:
        if not (0 <= seat < len(self.seats)) or not self.seats[seat].is_person:
            raise IllegalAction('not_your_seat', 'that seat is not yours')
        if self.waiting:
            raise IllegalAction('room_waiting', 'the game has not started yet')
        if version != self.version:
            raise IllegalAction('stale', 'the table has moved on since this screen was drawn')

    def must_answer_during_pause(self, seat: int) -> bool:
        """This person has a question to answer on the count screen (e.g. buy-back)."""
        return (self.pause is not None and self.state.current_seat == seat
                and any(self._is_pause_action(action) for action in self.view(seat).legal_actions))

    async def hint(self, seat: int) -> Any | None:
        """The normal computer player's choice for this person's current decision, thought out in
        the process pool like a computer's move. None when this table plays without hints (its
        button is hidden, but a crafted click still arrives here), when the table moved on while
        it was thought out, or when the server is stopping."""
        if not self.options.hints:
            return None
        view = self.view(seat)
        if not view.legal_actions:
            return None
        version = self.version
        try:
            action = await self._think('normal', f'hint:{self.seed}:{seat}:{version}', view)
        except Exception:   # no hint is better than a broken screen
            logger.exception('%s hint failed at seat %s', self.game.id, seat)
            return None
        return action if self.version == version and action in view.legal_actions else None

    def arrange(self, seat: int, order: list[str]) -> None:
        """How a person arranged their hand (every screen of theirs shows the same order)."""
        if not (0 <= seat < len(self.seats)) or not self.seats[seat].is_person:
            return
        self.hand_orders[seat] = list(order)
        self.save_soon()

    # subscribers -------------------------------------------------------------------
    def subscribe(self, seat: int, subscriber: Subscriber) -> Callable[[], None]:
        """`subscriber(view, events)` after every step, with this seat's view only. Computers
        play while somebody watches; returns the call that ends the subscription."""
        self.subscribers.setdefault(seat, []).append(subscriber)
        if seat != SPECTATOR:
            self._arrived(seat)
        self.start()

        def unsubscribe() -> None:
            listeners = self.subscribers.get(seat, [])
            if subscriber in listeners:
                listeners.remove(subscriber)
                if not listeners and seat != SPECTATOR:
                    self._left(seat)
            if not self.watched():
                self.stop()
        return unsubscribe

    def watched(self) -> bool:
        return any(self.subscribers.values())

    def _notify(self, events: list[Event]) -> None:
        self._arm_clock()
        for seat, listeners in list(self.subscribers.items()):
            if not listeners:
                continue
            view = self.public_view() if seat == SPECTATOR else self.view(seat)
            for listener in list(listeners):
                try:
                    listener(view, events)
                except Exception:   # one broken screen must not stop the table for the others
                    logger.exception('a subscriber of table %s failed', self.id)

    # the computer seats --------------------------------------------------------------
    def start(self) -> None:
        """Let the computers act until a person has something to decide (or the game ends)."""
        if self._running is not None and not self._running.done():
            return
        try:
            self._running = asyncio.get_running_loop().create_task(self._run_bots())
        except RuntimeError:   # no event loop (pure tests): computers move when asked to
            self._running = None

    def stop(self) -> None:
        self.flush()
        if self._running is not None:
            self._running.cancel()
            self._running = None

    def _computer_on_turn(self) -> int | None:
        seat = self.state.current_seat
        if seat is None or self.waiting or (self.seats[seat].is_person and not self.stands_in(seat)):
            return None
        if self.pause is not None and not self._bot_may_act_during_pause():
            return None
        return seat

    async def _run_bots(self) -> None:
        while (seat := self._computer_on_turn()) is not None:
            delay = 0.0 if self.people_are_out() else SPEEDS.get(self.options.speed, SPEEDS['normal'])
            # at instant speed still leave a beat, so the screens show each move before the next one
            await asyncio.sleep(delay if self.pause is None else 0)
            await asyncio.sleep(MIN_BEAT)
            if self._computer_on_turn() != seat:
                return
            version = self.version
            action = await self._bot_action(seat)
            if action is None:   # the server is stopping
                return
            await asyncio.sleep(self._last_computer_move + 1 / MAX_COMPUTER_MOVES_PER_SECOND - time.monotonic())
            if self.version != version or self._computer_on_turn() != seat:
                return
            self._last_computer_move = time.monotonic()
            self._step(self.state.apply(seat, action), start=False)

    async def _bot_action(self, seat: int) -> Any:
        """The computer's choice, thought out in NiceGUI's process pool (one worker per core) so
        that the server's event loop keeps answering every screen meanwhile. Should a bot ever
        fail or pick an illegal action, the table plays on with the first legal action instead of
        freezing (and the failure is logged). None when the server is stopping."""
        view = self.view(seat)
        level, seed = self.seats[seat].level or 'normal', f'{self.seed}:{seat}:{self.version}'
        try:
            action = await self._think(level, seed, view)
            if action is None:
                return None
        except Exception:   # any bug in a bot must not stop the game for the people at the table
            logger.exception('%s bot failed at seat %s', self.game.id, seat)
            action = None
        if action not in view.legal_actions:
            logger.error('%s bot chose %r, not a legal action', self.game.id, action)
            action = view.legal_actions[0]
        return action

    async def _think(self, level: str, seed: str, view: Any) -> Any:
        """A bot's choice thought out in NiceGUI's process pool (one worker per core), so that the
        server's event loop keeps answering every screen meanwhile. None when the server is stopping."""
        try:
            return await run.cpu_bound(think_in_worker, self.game.id, level, seed, view)
        except BrokenProcessPool:   # the workers were killed: the server is stopping (or one crashed)
            if app.is_stopping or app.is_stopped:
                return None
            raise
        except RuntimeError as error:   # no process pool: a table driven without the server
            if 'not set up' not in str(error):
                raise
            return computer_choice(self.game.id, level, seed, view)

    def _step(self, events: list[Event], *, start: bool = True) -> None:
        self.version += 1
        self.log = (self.log + [event.to_dict() for event in events])[-LOG_LENGTH:]
        ended = [event.to_dict() for event in events if event.kind in self.game.hand_end_events]
        self.hand_results += ended
        out = self.people_are_out()
        # the count waits for the people, unless they were all out already: then the rest plays out
        if ended and not self.is_over() and not (out and self._people_were_out):
            self.pause = 'count'
        self._people_were_out = out
        self.save_soon()
        self._notify(events)
        if self.is_over():
            self._game_over()
        elif start:
            self.start()

    def _game_over(self) -> None:
        if self.on_game_over is not None and not self.recorded:
            self.on_game_over(self)

    def people_are_out(self) -> bool:
        """Every person eliminated (in games that eliminate): the game then ends without waiting."""
        eliminated = getattr(self.state.view(0), 'eliminated', None)
        people = self.person_seats()
        return bool(eliminated) and bool(people) and all(eliminated[seat] for seat in people)

    def _is_pause_action(self, action: Any) -> bool:
        return getattr(action, 'kind', None) in self.game.pause_actions

    def _bot_may_act_during_pause(self) -> bool:
        # questions asked after a hand (e.g. buy-back) are answered on the count screen
        actions = self.view(self.state.current_seat).legal_actions
        return bool(actions) and all(self._is_pause_action(action) for action in actions)

    # saving ------------------------------------------------------------------------------
    def save(self) -> None:
        if self._save_pending is not None:
            self._save_pending.cancel()
            self._save_pending = None
        if self.on_save is not None:
            self.on_save(self)

    def save_soon(self) -> None:
        """Save a moment later, once the step is on its way to the screens (what a click waits
        for). Steps in between are saved together; ``flush`` saves at once."""
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

    def to_dict(self) -> dict[str, Any]:
        """Everything but the id, options and seats (saved beside it)."""
        return {'seed': self.seed, 'state': self.state.to_dict(), 'started_at': self.started_at,
                'pause': self.pause, 'log': self.log, 'hand_results': self.hand_results,
                'hand_orders': {str(seat): order for seat, order in self.hand_orders.items()},
                'recorded': self.recorded, 'dealer': self.dealer, 'past_games': self.past_games,
                'room': self.room.to_dict() if self.room is not None else None}

    @classmethod
    def from_saved(cls, table_id: str, game_id: str, options: dict[str, Any], seats: list[dict[str, Any]],
                   raw: dict[str, Any], version: int) -> 'Table':
        game = GAMES_BY_ID[game_id]
        return cls(table_id, game, TableOptions.from_dict(options), [Seat.from_dict(seat) for seat in seats],
                   seed=int(raw['seed']), state=game.engine_module.GameState.from_dict(raw['state'], fresh_hand_seed),
                   version=version,
                   started_at=raw.get('started_at'), pause=raw.get('pause'), log=raw.get('log'),
                   hand_results=raw.get('hand_results'),
                   hand_orders={int(seat): list(order) for seat, order in (raw.get('hand_orders') or {}).items()},
                   recorded=bool(raw.get('recorded')), dealer=raw.get('dealer'), past_games=raw.get('past_games'),
                   room=Room.from_dict(raw['room']) if raw.get('room') else None)
