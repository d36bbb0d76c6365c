"""The Chinchón game: deal, turns, closing, the count, eliminations, buy-backs, game end.

Phases: ``draw`` and ``discard`` (the current seat's turn), ``buyback`` (the current seat went
over the limit and is asked), ``over``. After a close the engine goes on by itself: the count,
then the buy-back questions, then the next deal (or the end). Buy-back offers are fixed when the
count ends: every seat that went over and has not bought back yet, asked in turn order from the
dealer's left, provided at least two players did not go over; the score to come back on is the
highest among the players still in when the seat answers. The number of decks follows the
table size at the start (two for 5-6 seats) and does not change when players drop out.

A game of a fixed number of hands (``Rules.hands``, the daily deal's short format) ends after that
hand's count with the fewest points among the players still in (see ``Rules``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from collections.abc import Callable
from typing import Any, ClassVar

from app.engine import protocol
from app.engine.cards import (Card, HandSeeds, commitment, rebuilt_stock, seeds_from, shuffled, spanish_card,
                              spanish_deck)
from app.engine.protocol import Event, IllegalAction, Outcome, rng_from_state, rng_state

from .actions import ACTION_TYPES, Action, BuyBack, Close, Discard, DrawDiscard, DrawStock
from .count import closer_choice
from .melds import best_arrangement, close_score, closing_cards, is_chinchon
from .view import ChinchonView, HandResult, PastDeal, SeatCount, jsonable

GAME_ID = 'chinchon'
HAND_SIZE = 7
MAX_RESHUFFLES = 2
MAX_HANDS = 20     # the longest fixed-length game: the daily deal's formats are far shorter
_PHASE_ACTIONS = {'draw': (DrawStock, DrawDiscard), 'discard': (Discard, Close), 'buyback': (BuyBack,)}


@dataclass(frozen=True)
class Rules:
    """``limit`` and ``buyback`` are room options (RULES.md). ``hands`` is no room option: code
    sets it (the daily deal) to play a fixed number of hands, 0 meaning no such limit, the normal
    game. Then the game also ends once hand number ``hands`` is over, won by the fewest points
    among the players still in (equal fewest share; reason ``'hands_played'``). Everything else
    holds as in the normal game: a chinchón wins at once, going over the limit eliminates, and
    one player left, or nobody, ends it as RULES.md says, earlier or in that last hand.

    Every hand dealt counts, a void one too (the stock ran out a third time): ``hand_number``
    numbers the deals, void ones included, so the last hand is the one a view calls number
    ``hands``, the number of deals (and deal seeds) is fixed, and a game cannot go on for ever on
    void hands. A void last hand ends the game on the scores as they stand. No buy-back is offered
    after the last hand: a buy-back lets a player come back to play on, and nothing is left to
    play; it would only bring a player back on the highest score still in, which never beats
    the fewest."""

    limit: int = 100
    buyback: bool = False
    hands: int = 0

    def __post_init__(self) -> None:
        if self.limit not in (100, 50):
            raise ValueError(f'limit must be 100 or 50, not {self.limit!r}')
        # type() and not isinstance(): True must not pass for 1
        if type(self.hands) is not int or not 0 <= self.hands <= MAX_HANDS:
            raise ValueError(f'hands must be a whole number, 0 (no limit) to {MAX_HANDS}, not {self.hands!r}')


def new_game(rules: Rules, seats: int, rng: random.Random, dealer: int | None = None,
             hand_seeds: HandSeeds | None = None) -> 'GameState':
    """``dealer`` deals the first hand (a table moves it one seat at each new game); without it
    the first dealer is drawn with ``rng``. ``hand_seeds`` gives each hand's seed (a table's come
    from ``secrets``); without it they are drawn with ``rng``."""
    if not 2 <= seats <= 6:
        raise ValueError(f'Chinchón is for 2 to 6 players, not {seats}')
    if dealer is not None and not 0 <= dealer < seats:
        raise ValueError(f'no seat {dealer} to deal at a table of {seats}')
    state = GameState(rules, seats, rng, hand_seeds)
    state.dealer = rng.randrange(seats) if dealer is None else dealer
    state._deal()
    return state


def _cards(raw: list[str]) -> list[Card]:
    return [spanish_card(token) for token in raw]


class GameState(protocol.GameState):
    """A game in progress. Hands hold cards in the order received (drawn cards go last); the
    stock and discard pile are lists whose last element is the top."""

    def __init__(self, rules: Rules, seats: int, rng: random.Random, hand_seeds: HandSeeds | None = None) -> None:
        self.rules, self.seats, self.rng = rules, seats, rng
        self.hand_seeds = hand_seeds or seeds_from(rng)
        self.scores = [0] * seats
        self.out = [False] * seats
        self.buyback_used = [False] * seats
        self.dealer = 0
        self.hand_number = 0
        self.seed = ''
        self.past_hands: list[PastDeal] = []
        self.hands: list[list[Card]] = [[] for _ in range(seats)]
        self.stock: list[Card] = []
        self.discard: list[Card] = []
        self.phase = 'draw'
        self.current: int | None = None
        self.taken: Card | None = None
        self.taken_by: list[list[Card]] = [[] for _ in range(seats)]
        self.reshuffles = 0
        self.events: list[Event] = []
        self.hand_start = 0
        self.last_result: HandResult | None = None
        self.buyback_queue: list[int] = []
        self.result: Outcome | None = None

    # protocol ---------------------------------------------------------------

    @property
    def current_seat(self) -> int | None:
        return self.current

    @property
    def copies(self) -> int:
        return 2 if self.seats >= 5 else 1

    def outcome(self) -> Outcome | None:
        return self.result

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.current or self.phase == 'over':
            return []
        if self.phase == 'buyback':
            return [BuyBack(True), BuyBack(False)]
        if self.phase == 'draw':
            return [DrawStock()] + ([DrawDiscard()] if self.discard else [])
        hand = self.hands[seat]
        discards = [Discard(card) for card in dict.fromkeys(hand) if self._may_leave(hand, card)]
        closes = [Close(card) for card in closing_cards(hand, self.taken)]
        return discards + closes

    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check(seat, action)
        first = len(self.events)
        self._APPLY[type(action)](self, seat, action)
        return self.events[first:]

    def view(self, seat: int) -> ChinchonView:
        return self._view(seat, public=False)

    def public_view(self) -> ChinchonView:
        return self._view(0, public=True)

    def _view(self, seat: int, public: bool) -> ChinchonView:
        """``seat``'s view; the public one (``public``) keeps only what the whole table knows."""
        deciding = seat == self.current and not public
        return ChinchonView(
            seat=seat, seats=self.seats, dealer=self.dealer, current_seat=self.current,
            phase=self.phase, hand=() if public else tuple(self.hands[seat]),
            hand_sizes=tuple(len(hand) for hand in self.hands), scores=tuple(self.scores),
            eliminated=tuple(self.out), buyback_used=tuple(self.buyback_used),
            discard_top=self.discard[-1] if self.discard else None,
            discard_size=len(self.discard), stock_size=len(self.stock),
            taken_from_discard=tuple(tuple(cards) for cards in self.taken_by),
            taken_this_turn=self.taken if deciding else None,
            rules=self.rules, hand_number=self.hand_number, reshuffles=self.reshuffles,
            commitment=commitment(self.seed), past_deals=tuple(self.past_hands),
            events=tuple(self.events[self.hand_start:]), last_result=self.last_result,
            legal_actions=() if public else tuple(self.legal_actions(seat)),
            buyback_score=self._buyback_score() if deciding and self.phase == 'buyback' else None,
            outcome=self.result)

    # refusing ---------------------------------------------------------------

    def _check(self, seat: int, action: Any) -> None:
        """Raise IllegalAction unless ``action`` is legal now; never changes the state."""
        if self.phase == 'over':
            raise IllegalAction('game_over', 'The game is over.')
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalAction('no_such_seat', f'There is no seat {seat!r} at this table.', seat=seat)
        if type(action) not in ACTION_TYPES:
            raise IllegalAction('unknown_action', f'{action!r} is not a Chinchón action.')
        if seat != self.current:
            raise IllegalAction('not_your_turn', f'It is not seat {seat}\'s turn.', seat=seat)
        if type(action) not in _PHASE_ACTIONS[self.phase]:
            code = 'no_buyback_offer' if isinstance(action, BuyBack) else _NOT_NOW[self.phase]
            raise IllegalAction(code, _MESSAGES[code])
        if isinstance(action, DrawDiscard) and not self.discard:
            raise IllegalAction('discard_pile_empty', 'The discard pile is empty.')
        if isinstance(action, (Discard, Close)):
            hand, card = self.hands[seat], action.card
            if card not in hand:
                raise IllegalAction('card_not_in_hand', f'You do not hold {card}.', card=str(card))
            if not self._may_leave(hand, card):
                raise IllegalAction(f'taken_card_{action.kind}', _TAKEN[action.kind].format(card=card),
                                    card=str(card))
            if isinstance(action, Close) and card not in closing_cards(hand, self.taken):
                raise IllegalAction('cannot_close', f'Without {card}, your seven cards cannot close: '
                                    'at most one loose card, worth 5 or less.', card=str(card))

    def _may_leave(self, hand: list[Card], card: Card) -> bool:
        """The card taken from the discard pile this turn stays (unless a twin is also held)."""
        return card != self.taken or hand.count(card) > 1

    # playing ----------------------------------------------------------------

    def _log(self, kind: str, seat: int | None = None, **data: Any) -> None:
        self.events.append(Event(kind, seat, data))

    def _in(self) -> list[int]:
        return [s for s in range(self.seats) if not self.out[s]]

    def _next_in(self, seat: int) -> int:
        for step in range(1, self.seats + 1):
            if not self.out[(seat + step) % self.seats]:
                return (seat + step) % self.seats
        raise AssertionError('nobody is still in')

    def _deal(self) -> None:
        self.hand_number += 1
        self.seed = self.hand_seeds()
        deck = shuffled(spanish_deck(self.copies), self.seed)
        order, players = [], self._in()
        seat = self.dealer
        while len(order) < len(players):
            seat = self._next_in(seat)
            order.append(seat)
        self.hands = [[] for _ in range(self.seats)]
        for k in range(HAND_SIZE * len(order)):
            self.hands[order[k % len(order)]].append(deck[k])
        dealt = HAND_SIZE * len(order)
        self.discard = [deck[dealt]]
        self.stock = deck[dealt + 1:][::-1]   # deck[dealt + 1] is the top
        self.taken, self.reshuffles = None, 0
        self.taken_by = [[] for _ in range(self.seats)]
        self.hand_start = len(self.events)
        self.phase, self.current = 'draw', order[0]
        self._log('deal', None, hand=self.hand_number, dealer=self.dealer,
                  commitment=commitment(self.seed), first_discard=str(self.discard[-1]),
                  stock_size=len(self.stock))

    def _on_draw_stock(self, seat: int, _: DrawStock) -> None:
        if not self.stock:
            if self.reshuffles == MAX_RESHUFFLES or len(self.discard) < 2:
                self._void_hand()
                return
            self.reshuffles += 1
            self.stock = rebuilt_stock(self.discard[:-1], self.seed, self.reshuffles)
            self.discard = self.discard[-1:]
            self._log('reshuffle', None, number=self.reshuffles, stock_size=len(self.stock))
        self.hands[seat].append(self.stock.pop())
        self.phase = 'discard'
        self._log('draw_stock', seat)

    def _on_draw_discard(self, seat: int, _: DrawDiscard) -> None:
        card = self.discard.pop()
        self.hands[seat].append(card)
        self.taken = card
        self.taken_by[seat].append(card)
        self.phase = 'discard'
        self._log('draw_discard', seat, card=str(card))

    def _on_discard(self, seat: int, action: Discard) -> None:
        self.hands[seat].remove(action.card)
        self.discard.append(action.card)
        self.taken = None
        self._log('discard', seat, card=str(action.card))
        self.phase, self.current = 'draw', self._next_in(seat)

    def _end_hand(self, **result: Any) -> HandResult:
        self.past_hands.append(PastDeal(self.hand_number, self.seed, commitment(self.seed)))
        return HandResult(hand_number=self.hand_number, dealer=self.dealer, seed=self.seed,
                          commitment=commitment(self.seed), **result)

    def _void_hand(self) -> None:
        # nobody scores, but every hand is shown, each as its best arrangement (what it would have
        # counted): the cards of a finished hand are public
        shown = tuple(SeatCount(seat, arrangement.melds, (), arrangement.loose, arrangement.loose_value)
                      for seat in self._in() for arrangement in (best_arrangement(self.hands[seat]),))
        self.last_result = self._end_hand(
            closer=None, chinchon=False, void=True, closer_melds=(), seats=shown,
            added=(0,) * self.seats, totals=tuple(self.scores), eliminated=(), bought_back=())
        self._log('void_hand', None, hand=self.hand_number, seed=self.seed)
        if self._last_hand():   # a void hand counts as played (see Rules)
            self._hands_played()
        else:
            self._deal()   # the same dealer deals again

    def _on_close(self, seat: int, action: Close) -> None:
        hand, card = self.hands[seat], action.card
        hand.remove(card)
        self.taken = None
        chinchon = is_chinchon(hand)
        players = self._in()
        others = [s for s in players if s != seat]
        shown, counts = closer_choice(hand, [self.hands[s] for s in others])
        closer = SeatCount(seat, shown.melds, (), shown.loose, close_score(hand))
        seat_counts = sorted([closer] + [SeatCount(s, c.melds, c.layoffs, c.loose, c.points)
                                         for s, c in zip(others, counts)], key=lambda sc: sc.seat)
        added = [0] * self.seats
        if not chinchon:
            for sc in seat_counts:
                added[sc.seat] = sc.points
                self.scores[sc.seat] += sc.points
        over = [s for s in players if self.scores[s] > self.rules.limit] if not chinchon else []
        self.last_result = self._end_hand(
            closer=seat, chinchon=chinchon, void=False, closer_melds=shown.melds,
            seats=tuple(seat_counts), added=tuple(added), totals=tuple(self.scores),
            eliminated=tuple(over), bought_back=())
        self._log('close', seat, chinchon=chinchon, melds=jsonable(shown.melds),
                  loose=jsonable(shown.loose), score=closer.points)
        self._log('count', None, result=self.last_result.to_dict())
        if chinchon:
            self._game_over((seat,), 'chinchon')
            return
        for s in over:
            self.out[s] = True
        if over:
            self._log('eliminated', None, seats=over)
        if self.rules.buyback and len(players) - len(over) >= 2 and not self._last_hand():
            self.buyback_queue = [s for s in self._seats_after(self.dealer)
                                  if s in over and not self.buyback_used[s]]
        self._continue(players)

    def _seats_after(self, seat: int) -> list[int]:
        return [(seat + step) % self.seats for step in range(1, self.seats + 1)]

    def _buyback_score(self) -> int:
        return max(self.scores[s] for s in self._in())

    def _on_buyback(self, seat: int, action: BuyBack) -> None:
        accept = action.accept
        self.buyback_queue.pop(0)
        if accept:
            self.scores[seat] = self._buyback_score()
            self.out[seat] = False
            self.buyback_used[seat] = True
            self.last_result = replace(self.last_result, bought_back=self.last_result.bought_back + (seat,),
                                       totals=tuple(self.scores))
        self._log('buyback', seat, accept=accept, score=self.scores[seat])
        self._continue([sc.seat for sc in self.last_result.seats])

    def _continue(self, players: list[int]) -> None:
        """After a counted hand: ask the next buy-back question, end the game, or deal."""
        if self.buyback_queue:
            self.phase, self.current = 'buyback', self.buyback_queue[0]
            return
        still_in = self._in()
        if len(still_in) == 1:
            self._game_over(tuple(still_in), 'last_standing')
        elif not still_in:
            fewest = min(self.scores[s] for s in players)
            self._game_over(tuple(s for s in players if self.scores[s] == fewest), 'fewest_points')
        elif self._last_hand():
            self._hands_played()
        else:
            self.dealer = self._next_in(self.dealer)
            self._deal()

    def _last_hand(self) -> bool:
        """The hand being played (or just counted) is the last of a game of fixed length."""
        return 0 < self.rules.hands <= self.hand_number

    def _hands_played(self) -> None:
        still_in = self._in()
        fewest = min(self.scores[s] for s in still_in)
        self._game_over(tuple(s for s in still_in if self.scores[s] == fewest), 'hands_played')

    def _game_over(self, winners: tuple[int, ...], reason: str) -> None:
        self.phase, self.current = 'over', None
        self.result = Outcome(tuple(self.scores), winners, reason)
        self._log('game_over', None, winners=list(winners), scores=list(self.scores), reason=reason)

    # one handler per kind of action (``apply`` has checked it first)
    _APPLY: ClassVar[dict[type, Callable[['GameState', int, Any], None]]] = {
        DrawStock: _on_draw_stock, DrawDiscard: _on_draw_discard, Discard: _on_discard, Close: _on_close,
        BuyBack: _on_buyback,
    }

    # saving -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            'game': GAME_ID, 'rules': jsonable(self.rules), 'seats': self.seats,
            'rng': rng_state(self.rng), 'scores': list(self.scores), 'out': list(self.out),
            'buyback_used': list(self.buyback_used), 'dealer': self.dealer,
            'hand_number': self.hand_number, 'seed': self.seed,
            'past_hands': jsonable(self.past_hands), 'hands': jsonable(self.hands),
            'stock': jsonable(self.stock), 'discard': jsonable(self.discard),
            'phase': self.phase, 'current': self.current,
            'taken': jsonable(self.taken), 'taken_by': jsonable(self.taken_by),
            'reshuffles': self.reshuffles, 'events': [event.to_dict() for event in self.events],
            'hand_start': self.hand_start,
            'last_result': self.last_result.to_dict() if self.last_result else None,
            'buyback_queue': list(self.buyback_queue),
            'outcome': self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any], hand_seeds: HandSeeds | None = None) -> 'GameState':
        if raw.get('game') != GAME_ID:
            raise ValueError(f'not a Chinchón game: {raw.get("game")!r}')
        state = cls(Rules(**raw['rules']), raw['seats'], rng_from_state(raw['rng']), hand_seeds)
        state.scores, state.out = list(raw['scores']), list(raw['out'])
        state.buyback_used, state.dealer = list(raw['buyback_used']), raw['dealer']
        state.hand_number, state.seed = raw['hand_number'], raw['seed']
        state.past_hands = [PastDeal(**past) for past in raw['past_hands']]
        state.hands = [_cards(hand) for hand in raw['hands']]
        state.stock, state.discard = _cards(raw['stock']), _cards(raw['discard'])
        state.phase, state.current = raw['phase'], raw['current']
        state.taken = spanish_card(raw['taken']) if raw['taken'] else None
        state.taken_by = [_cards(cards) for cards in raw['taken_by']]
        state.reshuffles = raw['reshuffles']
        state.events = [Event.from_dict(event) for event in raw['events']]
        state.hand_start = raw['hand_start']
        state.last_result = HandResult.from_dict(raw['last_result']) if raw['last_result'] else None
        state.buyback_queue = list(raw['buyback_queue'])
        state.result = Outcome.from_dict(raw['outcome']) if raw['outcome'] else None
        return state


_NOT_NOW = {'draw': 'draw_first', 'discard': 'already_drawn', 'buyback': 'answer_buyback'}
_MESSAGES = {
    'draw_first': 'Draw a card first, from the stock or the discard pile.',
    'already_drawn': 'You have already drawn: discard a card or close.',
    'answer_buyback': 'Answer the buy-back offer first.',
    'no_buyback_offer': 'There is no buy-back offer to answer.',
}
_TAKEN = {
    'discard': 'You took {card} from the discard pile this turn: you cannot discard it.',
    'close': 'You took {card} from the discard pile this turn: you cannot put it face down.',
}
