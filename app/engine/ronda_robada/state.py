"""The state of one game of Ronda Robada and the rules that move it."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from app.engine import protocol
from app.engine.actions_json import action_to_json
from app.engine.cards import Card, HandSeeds, commitment, new_hand_seed, shuffled, spanish_card, spanish_deck
from app.engine.protocol import Event, IllegalAction, Outcome, PastDeal, rng_from_state, rng_state
from app.engine.ronda_robada.model import (ACTIONS, CENTRE_CARDS, GAME_ID, HAND_CARDS, MAX_SEATS, MIN_SEATS,
                                           Action, Confirm, Drop, Rules, RunView, StartRun, TakeLoose, TakePile,
                                           TakenPile, View, card_points, next_rank, step_options)


@dataclass(slots=True)
class _Run:
    seat: int
    played: Card
    rank: int
    closed: bool = False
    loose: list[Card] = field(default_factory=list)
    piles: list[tuple[int, list[Card]]] = field(default_factory=list)

    def cards(self) -> list[Card]:
        """Everything collected, bottom to top, the hand card last (it ends on top, visible)."""
        collected = list(self.loose)
        for _, cards in self.piles:
            collected.extend(cards)
        collected.append(self.played)
        return collected

    def view(self) -> RunView:
        return RunView(self.seat, self.played, self.rank, self.closed, tuple(self.loose),
                       tuple(TakenPile(owner, cards[-1], len(cards)) for owner, cards in self.piles))

    def to_dict(self) -> dict[str, Any]:
        return {'seat': self.seat, 'played': str(self.played), 'rank': self.rank, 'closed': self.closed,
                'loose': _strs(self.loose), 'piles': [[owner, _strs(cards)] for owner, cards in self.piles]}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> '_Run':
        return cls(raw['seat'], spanish_card(raw['played']), raw['rank'], raw['closed'], _cards(raw['loose']),
                   [(owner, _cards(cards)) for owner, cards in raw['piles']])


def _strs(cards: list[Card]) -> list[str]:
    return [str(card) for card in cards]


def _cards(texts: list[str]) -> list[Card]:
    return [spanish_card(text) for text in texts]


def new_game(rules: Rules | None = None, seats: int = 2, rng: random.Random | None = None,
             dealer: int | None = None, hand_seeds: HandSeeds | None = None) -> 'GameState':
    """Shuffle from a fresh seed and deal (order in the package docstring): the seed comes from
    ``hand_seeds`` (a table's from ``secrets``), else it is drawn from ``rng``. ``dealer`` is the
    seat that deals (a table moves it one seat at each new game); without it the dealer is drawn
    with ``rng``. The player after the dealer starts."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f'Ronda Robada is for {MIN_SEATS} to {MAX_SEATS} players, not {seats}')
    if dealer is not None and not 0 <= dealer < seats:
        raise ValueError(f'no seat {dealer} to deal at a table of {seats}')
    rng = rng if rng is not None else random.Random()
    seed = hand_seeds() if hand_seeds is not None else new_hand_seed(rng)
    dealer = rng.randrange(seats) if dealer is None else dealer
    deck = shuffled(spanish_deck(), seed)
    state = GameState(rules or Rules(), seats, seed, stock=deck[CENTRE_CARDS:], hands=[[] for _ in range(seats)],
                      loose=deck[:CENTRE_CARDS], piles=[[] for _ in range(seats)], rng=rng,
                      current=(dealer + 1) % seats, dealer=dealer)
    state._deal_hands()
    state._log('deal', dealer, loose=_strs(state.loose), hand_sizes=[len(h) for h in state.hands],
               stock=len(state.stock), commitment=commitment(seed))
    return state


class GameState(protocol.GameState):
    """Follows ``app.engine.protocol``: only ``apply`` changes it, and a refused action changes nothing."""

    def __init__(self, rules: Rules, seats: int, seed: str, *, stock: list[Card], hands: list[list[Card]],
                 loose: list[Card], piles: list[list[Card]], rng: random.Random, current: int | None = 0,
                 dealer: int | None = None, run: _Run | None = None, last_runner: int | None = None, events: list[Event] | None = None,
                 actions: list[tuple[int, Action]] | None = None, result: Outcome | None = None) -> None:
        self.rules, self.seats, self.seed = rules, seats, seed
        self.stock, self.hands, self.loose, self.piles = stock, hands, loose, piles
        self.rng, self._current, self.run, self.last_runner = rng, current, run, last_runner
        # the seat that dealt: deals (and redeals) start with the player after it, who also starts
        self.dealer = dealer if dealer is not None else ((current or 0) - 1) % seats
        self.events: list[Event] = events if events is not None else []
        self.actions: list[tuple[int, Action]] = actions if actions is not None else []
        self._result = result

    @property
    def current_seat(self) -> int | None:
        return self._current

    def outcome(self) -> Outcome | None:
        return self._result

    def pile_tops(self) -> list[Card | None]:
        return [pile[-1] if pile else None for pile in self.piles]

    def legal_actions(self, seat: int) -> list[Action]:
        if self._result is not None or seat != self._current:
            return []
        hand = self.hands[seat]
        if self.run is None:
            starts: list[Action] = [StartRun(card, loose) for card in hand for loose in self.loose
                                    if loose.rank == card.rank]
            return starts + [Drop(card) for card in hand]
        cards, owners = step_options(self.run.rank, self.run.closed, self.loose, self.pile_tops())
        return [TakeLoose(card) for card in cards] + [TakePile(owner) for owner in owners] + [Confirm()]

    def apply(self, seat: int, action: Action) -> list[Event]:
        if action not in self.legal_actions(seat):
            raise self._refusal(seat, action)
        self.actions.append((seat, action))
        first = len(self.events)
        self._APPLY[type(action)](self, seat, action)
        return self.events[first:]

    # -- the five steps ------------------------------------------------------------------

    def _start_run(self, seat: int, action: StartRun) -> None:
        self.hands[seat].remove(action.card)
        self.loose.remove(action.loose)
        self.run = _Run(seat, action.card, action.card.rank, loose=[action.loose])
        self._log('start_run', seat, card=str(action.card), loose=str(action.loose), rank=action.card.rank)

    def _take_loose(self, seat: int, action: TakeLoose) -> None:
        run = self.run
        self.loose.remove(action.card)
        run.loose.append(action.card)
        self._advance(run, action.card.rank)
        self._log('take_loose', seat, card=str(action.card), rank=run.rank)

    def _take_pile(self, seat: int, action: TakePile) -> None:
        run, pile = self.run, self.piles[action.owner]
        self.piles[action.owner] = []
        run.piles.append((action.owner, pile))
        self._advance(run, pile[-1].rank)
        self._log('take_pile', seat, owner=action.owner, top=str(pile[-1]), size=len(pile), rank=run.rank)

    def _confirm(self, seat: int, action: Confirm) -> None:
        collected = self.run.cards()
        self.piles[seat].extend(collected)
        self.run, self.last_runner = None, seat
        self._log('confirm', seat, top=str(collected[-1]), cards=len(collected), pile_size=len(self.piles[seat]))
        self._end_turn(seat)

    def _drop(self, seat: int, action: Drop) -> None:
        self.hands[seat].remove(action.card)
        self.loose.append(action.card)
        self._log('drop', seat, card=str(action.card))
        self._end_turn(seat)

    @staticmethod
    def _advance(run: _Run, rank: int) -> None:
        run.closed = rank < run.rank    # only the 1 after the 12 goes down, and it ends the run
        run.rank = rank

    def _end_turn(self, seat: int) -> None:
        self._current = (seat + 1) % self.seats
        if any(self.hands):
            return
        if self.stock:
            self._deal_hands()
            self._log('redeal', None, hand_sizes=[len(h) for h in self.hands], stock=len(self.stock))
            return
        self._finish()

    def _deal_hands(self) -> None:
        for _ in range(HAND_CARDS):
            for step in range(1, self.seats + 1):
                self.hands[(self.dealer + step) % self.seats].append(self.stock.pop(0))

    def _finish(self) -> None:
        if self.loose:
            swept = _strs(self.loose)
            if self.last_runner is not None:
                # under the pile, so the top card everybody saw stays on top
                self.piles[self.last_runner][:0] = self.loose
                self.loose = []
            self._log('sweep', self.last_runner, cards=swept, to=self.last_runner)
        scores = tuple(sum(card_points(card) for card in pile) for pile in self.piles)
        best = max(scores)
        self._result = Outcome(scores, tuple(s for s, score in enumerate(scores) if score == best), 'stock_empty')
        self._current = None
        self._log('game_over', None, scores=list(scores), winners=list(self._result.winners), seed=self.seed)

    def _log(self, kind: str, seat: int | None, **data: Any) -> None:
        self.events.append(Event(kind, seat, data))

    # -- refusals: why an action is not among the legal ones ------------------------------

    def _refusal(self, seat: int, action: Any) -> IllegalAction:
        if self._result is not None:
            return IllegalAction('game_over', 'The game is over.')
        if seat != self._current:
            return IllegalAction('not_your_turn', f'It is not seat {seat}\'s turn.', seat=seat,
                                 current=self._current)
        check = self._REFUSALS.get(type(action))
        if check is None:
            return IllegalAction('unknown_action', f'Not a Ronda Robada action: {action!r}.', action=repr(action))
        return check(self, seat, action)

    def _refuse_start(self, seat: int, action: StartRun) -> IllegalAction:
        if self.run is not None:
            return IllegalAction('run_started', 'A run is already in progress: take the next card or confirm.')
        if action.card not in self.hands[seat]:
            return IllegalAction('not_in_hand', f'{action.card} is not in your hand.', card=str(action.card))
        if action.loose not in self.loose:
            return IllegalAction('not_loose', f'{action.loose} is not a loose card on the table.',
                                 card=str(action.loose))
        return IllegalAction('rank_mismatch', f'{action.card} and {action.loose} are not the same rank.',
                             card=str(action.card), loose=str(action.loose))

    def _refuse_step(self, seat: int, action: TakeLoose | TakePile) -> IllegalAction:
        run = self.run
        if run is None:
            return IllegalAction('no_run', 'Start a run first: only a run can take cards.')
        wanted = next_rank(run.rank, run.closed)
        if wanted is None:
            return IllegalAction('run_closed', 'The run closed with the 1 after the 12: nothing follows it.')
        if type(action) is TakeLoose:
            if action.card not in self.loose:
                return IllegalAction('not_loose', f'{action.card} is not a loose card on the table.',
                                     card=str(action.card))
            return IllegalAction('wrong_rank', f'The run needs a {wanted} now, not {action.card}.',
                                 rank=wanted, card=str(action.card))
        if not 0 <= action.owner < self.seats or not self.piles[action.owner]:
            return IllegalAction('no_pile', f'Seat {action.owner} has no pile to take.', owner=action.owner)
        if any(card.rank == wanted for card in self.loose):
            return IllegalAction('loose_first', f'A loose {wanted} is on the table: take it before any pile.',
                                 rank=wanted)
        top = self.piles[action.owner][-1]
        return IllegalAction('wrong_rank', f'The run needs a {wanted} now, not {top}.', rank=wanted, card=str(top))

    def _refuse_confirm(self, seat: int, action: Confirm) -> IllegalAction:
        return IllegalAction('nothing_to_confirm', 'There is no run to confirm.')

    def _refuse_drop(self, seat: int, action: Drop) -> IllegalAction:
        if self.run is not None:
            return IllegalAction('no_drop_after_start', 'You started a run this turn: you can no longer drop.')
        return IllegalAction('not_in_hand', f'{action.card} is not in your hand.', card=str(action.card))

    # one handler per kind of action, and one reason for refusing each (after every method they name)
    _APPLY: ClassVar[dict[type, Callable[['GameState', int, Any], None]]] = {
        StartRun: _start_run, TakeLoose: _take_loose, TakePile: _take_pile, Confirm: _confirm, Drop: _drop,
    }
    _REFUSALS: ClassVar[dict[type, Callable[['GameState', int, Any], IllegalAction]]] = {
        StartRun: _refuse_start, TakeLoose: _refuse_step, TakePile: _refuse_step, Confirm: _refuse_confirm,
        Drop: _refuse_drop,
    }

    # -- what a seat may see, and saving -------------------------------------------------

    def view(self, seat: int) -> View:
        return self._view(seat, public=False)

    def public_view(self) -> View:
        return self._view(0, public=True)

    def _view(self, seat: int, public: bool) -> View:
        """``seat``'s view; the public one (``public``) keeps only what the whole table knows."""
        over = self._result is not None
        return View(
            seat=seat, seats=self.seats, current_seat=self._current, dealer=self.dealer, hand_number=1,
            phase='over' if over else 'start' if self.run is None else 'run',
            hand=() if public else tuple(self.hands[seat]),
            hand_sizes=tuple(len(hand) for hand in self.hands), loose=tuple(self.loose),
            pile_tops=tuple(self.pile_tops()), pile_sizes=tuple(len(pile) for pile in self.piles),
            run=None if self.run is None else self.run.view(), stock_size=len(self.stock),
            last_runner=self.last_runner, scores=self._result.scores if over else (0,) * self.seats,
            eliminated=(False,) * self.seats, commitment=commitment(self.seed), seed=self.seed if over else None,
            past_deals=(PastDeal(1, self.seed, commitment(self.seed)),) if over else (),
            events=tuple(self.events),
            legal_actions=() if public else tuple(self.legal_actions(seat)), outcome=self._result)

    def to_dict(self) -> dict[str, Any]:
        return {
            'game': GAME_ID, 'rules': self.rules.to_dict(), 'seats': self.seats, 'seed': self.seed,
            'stock': _strs(self.stock), 'hands': [_strs(h) for h in self.hands], 'loose': _strs(self.loose),
            'piles': [_strs(p) for p in self.piles], 'current': self._current, 'dealer': self.dealer,
            'run': None if self.run is None else self.run.to_dict(), 'last_runner': self.last_runner,
            'events': [event.to_dict() for event in self.events],
            'actions': [[seat, action_to_json(action)] for seat, action in self.actions],
            'rng': rng_state(self.rng), 'outcome': None if self._result is None else self._result.to_dict(),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any], hand_seeds: HandSeeds | None = None) -> 'GameState':
        """``hand_seeds`` is there for the protocol's sake: a game of Ronda Robada is one hand."""
        return cls(Rules.from_dict(raw['rules']), raw['seats'], raw['seed'], stock=_cards(raw['stock']),
                   hands=[_cards(h) for h in raw['hands']], loose=_cards(raw['loose']),
                   piles=[_cards(p) for p in raw['piles']], rng=rng_from_state(raw['rng']),
                   current=raw['current'], dealer=raw.get('dealer'), run=None if raw['run'] is None else _Run.from_dict(raw['run']),
                   last_runner=raw['last_runner'], events=[Event.from_dict(e) for e in raw['events']],
                   actions=[(seat, ACTIONS.from_json(a)) for seat, a in raw['actions']],
                   result=None if raw['outcome'] is None else Outcome.from_dict(raw['outcome']))

