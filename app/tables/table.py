"""A Table: the one authority of one game in progress (after boardgame.io's master).

It holds the engine state and everything around it: the seats (people and computers), a version
that grows with every step, and each seat's subscribers. Every screen that shows the table talks
to the same object (see ``app.tables.registry``) through a ``SeatPort`` (``app.tables.port``): a
screen sends its person's action with the version it was looking at; ``act`` refuses a foreign
seat, an illegal action and a stale version, each with a code the page translates, and then
changes nothing. Subscribers receive their own seat's ``Snapshot`` only (``app.tables.snapshot``):
the state itself never leaves this object.

The table is handed its collaborators (``TableServices``): where it saves, who thinks for its
computers, its clock and its deals. It owns its saving (``saving``), its computers' turns
(``pacing``) and a room's seating, turn clock, presence and reactions (``room``), each handed
narrow callbacks or a Protocol of what it reads, never this class.
"""
from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from app import logs, metrics
from app.engine.protocol import Event, IllegalAction
from app.games import GAMES_BY_ID, GameInfo
from app.tables import moves as move_log
from app.tables.aborts import Aborts
from app.tables.pacing import ComputerTurns, beat, choose
from app.tables.public import PublicSeats
from app.tables.room import SPECTATOR, Presence, Reactions, Room, Seating, TurnClock
from app.tables.saving import SAVE_DELAY, SAVE_RETRY_FIRST, SAVE_RETRY_MOST, Saving, rebuilt  # noqa: F401
from app.tables.seats import Seat, TableOptions
from app.tables.services import TableServices
from app.tables.snapshot import RoomLine, SeatLine, Snapshot, ordered_hand, seeds_withheld, visible_log

LOG_LENGTH = 80
logger = logging.getLogger(__name__)

Subscriber = Callable[[Snapshot], None]   # what one screen may know, after every step


def hand_seeds(options: TableOptions, deals: Any) -> Callable[[], str] | None:
    """Where a table's hands come from: its deals' secret seeds; for a daily deal, None, so the
    engine draws them from the game's own generator, seeded by the day's seed (app.daily): the
    same cards for everyone who plays that day."""
    return None if options.daily else deals.hand_seed


class Table:
    def __init__(self, table_id: str, game: GameInfo, options: TableOptions, seats: list[Seat], *,
                 services: TableServices, seed: int, state: Any | None = None, version: int = 0,
                 started_at: float | None = None, pause: str | None = None, log: list[dict[str, Any]] | None = None,
                 hand_results: list[dict[str, Any]] | None = None,
                 hand_orders: dict[int, list[str]] | None = None, recorded: bool = False,
                 dealer: int | None = None, past_games: list[dict[str, Any]] | None = None,
                 room: Room | None = None, person_acted: bool = False,
                 moves: list[list[list[Any]]] | None = None) -> None:
        self.id, self.game, self.options, self.seats, self.seed = table_id, game, options, seats, seed
        self.store, self.thinker, self.clock, self.deals = services.store, services.thinker, services.clock, services.deals
        self.writer = services.writer
        # the registry checks every rule option: a tampered one raises ValueError here
        self.rules = game.make_rules(options.rules, fixed=dict(game.daily.rules) if options.daily else None)
        # the game's generator draws the first dealer; every hand's seed comes from the deals
        self.state = state if state is not None else self._new_game(dealer=None)
        # every action of this game per deal, what replays its finished hands; None: a game not
        # dealt here from its start (a known position, or one saved before moves were kept)
        self.moves: list[list[list[Any]]] | None = [] if state is None else moves
        self.coach: dict[tuple[int, str], Any] = {}   # (seat, hand seed) -> the coach's analysis (app.review.analyses)
        # who dealt this game first: the next game at this table is dealt by the seat after it
        self.dealer: int = dealer if dealer is not None else self.state.view(0).dealer
        self.past_games: list[dict[str, Any]] = list(past_games or [])   # earlier games here: scores, winners
        self.version = version
        self.saving = Saving(self, services, version=version, log_length=LOG_LENGTH)   # when and what it writes
        self.lost = False                # another process wrote this table: this copy stopped for good
        self.started_at = started_at if started_at is not None else self.clock.wall()
        # 'count' while a finished hand's count is on the screens, until a person goes on
        self.pause: str | None = pause
        self.log: list[dict[str, Any]] = list(log or [])                   # recent public events
        self.hand_results: list[dict[str, Any]] = list(hand_results or [])  # every hand-end event
        self.hand_orders: dict[int, list[str]] = dict(hand_orders or {})    # how each person arranged the hand
        self.recorded = recorded          # the finished game went to the history of its account holders
        self.person_acted = person_acted  # a person has played here (a guest table nobody played at is pruned)
        self.subscribers: dict[int, list[Subscriber]] = {}
        self._commands = 0         # screens' commands under way: their steps are told after them
        self._untold = False       # ... and a step came meanwhile
        self.movers: list[Callable[[], None]] = []   # each screen's way to the table's address, once lost
        self.room = room
        self.computers = ComputerTurns(self.clock, on_turn=self.computer_on_turn, pause=self._computer_pause,
                                       version=lambda: self.version, think=self._computer_choice,
                                       move=self.computer_moved)
        self.seating, self.presence = Seating(self), Presence(self)
        self.aborts = Aborts(self, left=self._left_rated)
        self.turn_clock = TurnClock(self)
        self.reactions = Reactions(self.clock, tell=self.notify, may=lambda seat: self.room is not None
                                   and 0 <= seat < len(self.seats) and self.seats[seat].is_person)
        self._people_were_out = self.people_are_out()
        # a public table's seats taken in the database, its start and its line in the lobby
        self.public = PublicSeats(self, start_claims=lambda here: self.store.start_public(self.id, here),
                                  release_claim=lambda seat: self.store.release_claim(self.id, seat),
                                  publish=lambda listing: self.writer.run(lambda: self.store.publish(listing),
                                                                          lambda _: None),
                                  free_unseen=lambda before, seen: self.writer.run(
                                      lambda: self.store.free_unseen_claims(self.id, before, seen), lambda _: None),
                                  end_deserted=lambda: self.store.end_deserted(self))

    def _left_rated(self, seat: int) -> None:
        """A person left this rated game before playing twice (app.tables.aborts): the store keeps
        it for them, off the event loop."""
        user_id, wall = self.seats[seat].user_id, self.clock.wall()
        self.writer.run(lambda: self.store.left_rated(self.id, self.game.id, user_id, wall), lambda _: None)

    def _new_game(self, dealer: int | None) -> Any:
        return self.game.engine_module.new_game(self.rules, len(self.seats), random.Random(self.seed),
                                                dealer=dealer, hand_seeds=hand_seeds(self.options, self.deals))

    # what a seat may know ------------------------------------------------------
    def view(self, seat: int) -> Any:
        """A seat's view; a spectator's (SPECTATOR, or any seat number below 0) is the public one."""
        return self.public_view() if seat < 0 else self.state.view(seat)

    def public_view(self) -> Any:
        """What anybody may know, for spectators: the engine's public view (no hand, no choices)."""
        return self.state.public_view()

    def snapshot(self, seat: int) -> Snapshot:
        """All that one screen of this seat (or a spectator's, seat < 0) may know, now. A daily
        table's finished hands keep their seeds while the day is open: every try of the day is
        dealt the same hands, so one hand's seed is its whole deck for whoever has not played it."""
        view = self.view(seat)
        if self.options.daily_open(self.clock.wall()):
            view = seeds_withheld(view)
        over = self.is_over()
        phase = 'waiting' if self.waiting else 'over' if over else 'count' if self.pause is not None else 'playing'
        person = 0 <= seat < len(self.seats) and self.seats[seat].is_person
        order = ordered_hand(self.hand_orders.get(seat, ()), view.hand) if person else []
        return Snapshot(
            table_id=self.id, game=self.game, options=self.options, seat=seat, version=self.version,
            saved_version=self.saved_version, view=view, phase=phase,
            seats=tuple(SeatLine(name=s.name, is_person=s.is_person, is_empty=s.is_empty, level=s.level)
                        for s in self.seats),
            hand_order=tuple(order), log=visible_log(self.log, self.pause is not None, self.game.hand_end_events),
            hand_results=tuple(self.hand_results), past_games=tuple(self.past_games),
            games_won=tuple(self.games_won()), game_number=self.game_number, reviewable=self.moves is not None,
            must_answer=person and self.must_answer_during_pause(seat), ready=frozenset(self.presence.ready),
            holding=self.holding,
            room=self._room_line())

    def _room_line(self) -> RoomLine | None:
        if self.room is None:
            return None
        clock_seat = self.turn_clock.seat() if self.turn_clock.deadline is not None else None
        left = 0 if clock_seat is None else max(0, int((self.turn_clock.deadline - self.clock.wall()) * 1000))
        return RoomLine(creator=self.room.creator, clock=self.room.clock, started=self.room.started,
                        free_seats=tuple(self.seating.free_seats()), stand_ins=tuple(sorted(self.presence.stand_ins)),
                        count_waits_for=tuple(self.presence.waiting_to_go_on()) if self.pause is not None else (),
                        clock_seat=clock_seat, clock_left_ms=left,
                        reactions=tuple((seat, key, at) for seat, (key, at) in sorted(self.reactions.recent().items())),
                        public=self.room.public, rated=self.room.rated and self.room.unrated is None,
                        quick=self.room.quick,
                        fill_left_ms=None if self.room.fill_at is None or self.room.started
                        else max(0, int((self.room.fill_at - self.clock.wall()) * 1000)),
                        away=tuple(seat for seat in self.person_seats() if self.room.started
                                   and not self.seats[seat].is_empty and not self.watching(seat)),
                        spectators=len(self.subscribers.get(SPECTATOR, ())),
                        ratings=tuple(self.room.ratings.get(seat) for seat in range(len(self.seats))),
                        rating_changes=tuple(self.room.rating_changes.get(seat) for seat in range(len(self.seats))))

    def is_over(self) -> bool:
        return self.state.outcome() is not None

    @property
    def status(self) -> str:
        return 'over' if self.is_over() else 'playing'

    @property
    def holding(self) -> bool:
        """The store cannot write this table: no move is taken until a save works again, so
        nothing that was played can be lost to a restart meanwhile."""
        return self.saving.failures > 0

    @property
    def waiting(self) -> bool:
        """A room whose creator has not started it: no card is played yet."""
        return self.room is not None and not self.room.started

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
        with metrics.CLICK_SECONDS.labels(self.game.id).time(), logs.table_scope(self.id):
            try:
                self._check(seat, version)
                if self.pause is not None and not self._is_pause_action(action):
                    raise IllegalAction('wait_for_count', 'finish looking at the count first')
                events = self._apply(seat, action)
            except IllegalAction:
                metrics.CLICKS.labels(self.game.id, 'refused').inc()
                raise
            self.presence.acted(seat)
            self.person_acted = True
            self._step(events)
        metrics.CLICKS.labels(self.game.id, 'done').inc()

    def resume_after_count(self, seat: int, version: int) -> None:
        """A person has seen the count: play on (the count's question, if any, must be answered)."""
        self._check(seat, version)
        if self.pause is None or self.must_answer_during_pause(seat):
            return
        self.presence.ready.add(seat)
        if self.presence.waiting_to_go_on():   # at a room, the others present are still reading it
            self.notify()
            return
        self.go_on_from_count()

    def go_on_from_count(self) -> None:
        self.pause = None
        self.presence.ready.clear()
        self.changed()
        self.computers.start()

    def next_game(self, seat: int, version: int) -> None:
        """A person asks for another game once this one is over: the same seats and options deal
        again at this table, the dealer one seat on, and the tally of games won goes on."""
        self._check(seat, version)
        outcome = self.state.outcome()
        if outcome is None:
            raise IllegalAction('game_not_over', 'this game is still being played')
        if self.options.daily:
            raise IllegalAction('daily_once', 'a daily deal is played once')
        if self.room is not None and self.room.public:   # strangers do not owe each other another game
            raise IllegalAction('public_once', 'a public table plays one game')
        self.past_games.append({'scores': list(outcome.scores), 'winners': list(outcome.winners)})
        self.seed = self.deals.game_seed()
        self.dealer = (self.dealer + 1) % len(self.seats)
        self.state = self._new_game(dealer=self.dealer)
        self.started_at, self.pause, self.recorded = self.clock.wall(), None, False
        self.log, self.hand_results, self.hand_orders, self.moves = [], [], {}, []
        self.presence.ready.clear()
        self._people_were_out = self.people_are_out()
        self.changed()
        self.computers.start()

    def _check(self, seat: int, version: int) -> None:
        if not (0 <= seat < len(self.seats)) or not self.seats[seat].is_person:
            raise IllegalAction('not_your_seat', 'that seat is not yours')
        if self.waiting:
            raise IllegalAction('room_waiting', 'the game has not started yet')
        if self.holding:
            raise IllegalAction('saving_held', 'the table waits for the database to save it')
        if version != self.version:
            raise IllegalAction('stale', 'the table has moved on since this screen was drawn')

    def must_answer_during_pause(self, seat: int) -> bool:
        """This person has a question to answer on the count screen (e.g. buy-back)."""
        return (self.pause is not None and self.state.current_seat == seat
                and any(self._is_pause_action(action) for action in self.view(seat).legal_actions))

    async def hint(self, seat: int) -> Any | None:
        """The normal computer player's choice for this person's current decision, thought out by
        the table's thinker like a computer's move. None when this table plays without hints (its
        button is hidden, but a crafted click still arrives here), when the table moved on while
        it was thought out, or when the server is stopping."""
        if not self.options.hints:
            return None
        view = self.view(seat)
        if not view.legal_actions:
            return None
        version = self.version
        try:
            action = await self.thinker.think(self.game.id, 'normal', f'hint:{self.seed}:{seat}:{version}', view)
        except Exception:   # no hint is better than a broken screen
            logger.exception('%s hint failed at seat %s', self.game.id, seat)
            return None
        return action if self.version == version and action in view.legal_actions else None

    def arrange(self, seat: int, order: list[str]) -> None:
        """How a person arranged their hand (every screen of theirs shows the same order). Codes
        of cards not in the hand are dropped, so a crafted order stores nothing else."""
        if not (0 <= seat < len(self.seats)) or not self.seats[seat].is_person or not isinstance(order, list):
            return
        self.hand_orders[seat] = ordered_hand([code for code in order if isinstance(code, str)],
                                              self.state.view(seat).hand)
        self.save_soon()
        self.notify()

    def _keep_hand_orders(self) -> None:
        """After a step, each arranged hand's order follows the cards it holds now: the cards that
        left it go, the new ones join at the right in the order they came."""
        for seat, order in self.hand_orders.items():
            self.hand_orders[seat] = ordered_hand(order, self.state.view(seat).hand)

    # subscribers -------------------------------------------------------------------
    def subscribe(self, seat: int, subscriber: Subscriber) -> Callable[[], None]:
        """`subscriber(view, events)` after every step, with this seat's view only. Computers
        play while somebody watches; returns the call that ends the subscription."""
        listeners = self.subscribers.setdefault(seat, [])
        listeners.append(subscriber)
        if seat != SPECTATOR:
            self.presence.arrived(seat)
            self.public.arrived()
            self.public.people_here()
        self._tell_who_is_here(seat, len(listeners) == 1)
        self.computers.start()

        def unsubscribe() -> None:
            listeners = self.subscribers.get(seat, [])
            if subscriber in listeners:
                listeners.remove(subscriber)
                if not listeners and seat != SPECTATOR:
                    self.presence.left(seat)
                    self.public.release(seat)   # gone from a public table that had not started: seat freed
                    self.public.people_here()
                self._tell_who_is_here(seat, not listeners)
            if not self.watched():
                self.stop()
        return unsubscribe

    def _tell_who_is_here(self, seat: int, first_or_last: bool) -> None:
        """At a room, the others see who is away (a person's first screen opened or last one
        closed) and, at a public table, how many watch: no step, only the screens are told."""
        if self.room is None or not self.watched():
            return
        if (seat == SPECTATOR and self.room.public) or (seat != SPECTATOR and first_or_last and self.room.started):
            self.notify()
            self.public.changed()

    def on_saved(self, listener: Callable[[int], None]) -> Callable[[], None]:
        """`listener(version)` each time a save of this table has been written (committed, for a
        database); returns the call that stops it. A failed save tells nobody here: the table
        holds, and its subscribers hear of that."""
        return self.saving.on_saved(listener)

    def watched(self) -> bool:
        return any(self.subscribers.values())

    def watching(self, seat: int) -> bool:
        """A screen of this seat is open."""
        return bool(self.subscribers.get(seat))

    def turn(self) -> int | None:
        """The seat that must decide now; None once the game is over."""
        return self.state.current_seat

    def start_computers(self) -> None:
        with logs.table_scope(self.id):   # what the computers' task logs is about this table
            self.computers.start()

    def stop_computers(self) -> None:
        self.computers.stop()

    def notify(self) -> None:
        """Tell every subscriber of the step, each with its own seat's snapshot: at once, or, for a
        step made inside a screen's command (``telling_later``), once that command has returned,
        so that no screen is redrawn in the middle of its own action. Steps made meanwhile are
        told together."""
        self.turn_clock.arm()
        if self._commands:
            self._untold = True
            return
        self.publish()

    def publish(self) -> None:
        """Every subscriber receives its seat's snapshot now."""
        self._untold = False
        for seat, listeners in list(self.subscribers.items()):
            if not listeners:
                continue
            snapshot = self.snapshot(seat)
            for listener in list(listeners):
                try:
                    listener(snapshot)
                except Exception:   # one broken screen must not stop the table for the others
                    logger.exception('a subscriber of table %s failed', self.id)

    @contextmanager
    def telling_later(self) -> Iterator[None]:
        """A screen's command runs inside: its steps are told when the outermost one returns."""
        self._commands += 1
        try:
            yield
        finally:
            self._commands -= 1
            if not self._commands and self._untold:
                self.publish()

    def changed(self, events: Iterable[Event] = (), *, notes: Iterable[dict[str, Any]] = ()) -> None:
        """A step: the version goes up, the events (and the room's notes) go to the log, the step
        is saved a moment later and every screen is told."""
        events = list(events)
        self.version += 1
        self.log = (self.log + [event.to_dict() for event in events] + list(notes))[-LOG_LENGTH:]
        self.save_soon()
        self.notify()
        self.public.changed()

    # the computer seats --------------------------------------------------------------
    async def settle(self) -> None:
        """Return once the computers have nothing left to do at the current time."""
        await self.computers.settle()

    def stop(self) -> None:
        self.flush()
        self.computers.stop()

    def computer_on_turn(self) -> int | None:
        """The computer seat that is to act now (a person's seat while a computer stands in)."""
        seat = self.state.current_seat
        if seat is None or self.waiting or self.holding:
            return None
        if self.seats[seat].is_person and not self.presence.stands_in(seat):
            return None
        if self.pause is not None and not self.bot_may_act_during_pause():
            return None
        return seat

    def _computer_pause(self) -> float:
        return beat(self.options.speed, self.people_are_out(), self.pause is not None)

    def _computer_choice(self, seat: int) -> Awaitable[Any]:
        level = self.seats[seat].level or 'normal'
        return choose(self.thinker, self.game.id, level, self._choice_seed(seat), self.view(seat))

    def _choice_seed(self, seat: int) -> str:
        """What a computer's choice is drawn from. A daily deal's counts the moves made rather than
        the version, which other steps move too (a stand-in's note, a count read): the same moves
        draw the same replies for everyone who plays that day, whatever else went on at the table."""
        if self.options.daily and self.moves is not None:
            return f'{self.seed}:{seat}:move {sum(map(len, self.moves))}'
        return f'{self.seed}:{seat}:{self.version}'


    def computer_moved(self, seat: int, action: Any) -> None:
        self._step(self._apply(seat, action), start=False)

    def _apply(self, seat: int, action: Any) -> list[Event]:
        """Play an action (IllegalAction changes nothing) and keep it for the hand's replay."""
        hand = move_log.deal_number(self.state)
        events = self.state.apply(seat, action)
        if self.moves is not None:
            move_log.record(self.moves, hand, seat, action)
        return events

    def _step(self, events: list[Event], *, start: bool = True) -> None:
        ended = [event.to_dict() for event in events if event.kind in self.game.hand_end_events]
        self.hand_results += ended
        self._keep_hand_orders()
        out = self.people_are_out()
        # the count waits for the people, unless they were all out already: then the rest plays out
        if ended and not self.is_over() and not (out and self._people_were_out):
            self.pause = 'count'
        self._people_were_out = out
        self.changed(events)
        if self.is_over():
            if not self.recorded:
                self.store.game_over(self)
                if self.room is not None and self.room.rating_changes:
                    self.notify()   # the screens were told of the last move before its ratings were in
        elif start:
            self.computers.start()

    def people_are_out(self) -> bool:
        """Every person eliminated (in games that eliminate): the game then ends without waiting."""
        eliminated = self.state.public_view().eliminated
        people = self.person_seats()
        return bool(people) and all(eliminated[seat] for seat in people)

    def _is_pause_action(self, action: Any) -> bool:
        return getattr(action, 'kind', None) in self.game.pause_actions

    def bot_may_act_during_pause(self) -> bool:
        # questions asked after a hand (e.g. buy-back) are answered on the count screen
        actions = self.view(self.state.current_seat).legal_actions
        return bool(actions) and all(self._is_pause_action(action) for action in actions)

    # saving (app.tables.saving) ----------------------------------------------------------
    @property
    def saved_version(self) -> int:
        """What the store holds (the compare-and-set's expectation)."""
        return self.saving.version

    def save(self) -> None:
        """Save the current step now (after the one under way, if any)."""
        self.saving.save()

    def lose(self) -> None:
        """Another process has the table: this copy stops for good, never writes again, and its
        screens go to the table's address, where whoever holds it now serves them."""
        self.lost = True
        self.stop()
        for moved in list(self.movers):
            moved()

    def save_soon(self) -> None:
        """Save a moment later, once the step is on its way to the screens; ``flush`` saves at once."""
        self.saving.soon()

    def flush(self) -> None:
        """Save now if a save is waiting, and return once it is written (or has failed)."""
        self.saving.flush()

    def to_dict(self) -> dict[str, Any]:
        """Everything but the id, options and seats (saved beside it)."""
        return {'seed': self.seed, 'state': self.state.to_dict(), 'started_at': self.started_at,
                'pause': self.pause, 'log': self.log, 'hand_results': self.hand_results,
                'hand_orders': {str(seat): order for seat, order in self.hand_orders.items()},
                'recorded': self.recorded, 'dealer': self.dealer, 'past_games': self.past_games,
                'room': self.room.to_dict() if self.room is not None else None, 'person_acted': self.person_acted,
                'moves': self.moves}

    @classmethod
    def from_saved(cls, table_id: str, game_id: str, options: dict[str, Any], seats: list[dict[str, Any]],
                   raw: dict[str, Any], version: int, *, services: TableServices,
                   appended: list[dict[str, Any]] = ()) -> 'Table':
        """A saved table: its last whole write, with the steps ``appended`` since played on it."""
        game, chosen = GAMES_BY_ID[game_id], TableOptions.from_dict(options)
        raw = rebuilt(game, raw, list(appended), log_length=LOG_LENGTH)
        return cls(table_id, game, chosen, [Seat.from_dict(seat) for seat in seats],
                   services=services, seed=int(raw['seed']),
                   state=game.engine_module.GameState.from_dict(raw['state'], hand_seeds(chosen, services.deals)),
                   version=version, started_at=raw.get('started_at'), pause=raw.get('pause'), log=raw.get('log'),
                   hand_results=raw.get('hand_results'),
                   hand_orders={int(seat): list(order) for seat, order in (raw.get('hand_orders') or {}).items()},
                   recorded=bool(raw.get('recorded')), dealer=raw.get('dealer'), past_games=raw.get('past_games'),
                   room=Room.from_dict(raw['room']) if raw.get('room') else None,
                   person_acted=bool(raw.get('person_acted', True)),   # saved before it was kept: played at
                   moves=raw.get('moves'))
