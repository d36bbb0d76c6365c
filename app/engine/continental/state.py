"""The Continental state machine: seven hands (or the first ``Rules.hands``), the discard offer
round, going down, lay-offs.

Deal order (fair deal): hand ``h`` is shuffled from its own seed,
``deck = cards.shuffled(cards.french_deck(), seed)``. Cards go one at a time round the table,
starting with the seat after the dealer, until everyone has the contract's count; the next card
is turned up to start the discard pile; the rest is the stock and ``deck[k+1]`` (the card after
the turned-up one) is the first card drawn from it. The first dealer is drawn with the game
generator; the deal then passes to the next seat each hand. A stock rebuilt from the discard pile
is shuffled from the hand's seed too (``cards.rebuilt_stock``), so the seed accounts for every card.

Offer round: the discard top is offered to ``order`` = the seat on turn, then the others in seat
order, never its discarder (the first turned-up card has none, so the dealer is asked last).
``current_seat`` is the seat being asked. Nobody draws from the stock until the round closes.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from app.engine import protocol
from app.engine.cards import (Card, HandSeeds, commitment, french_card, french_deck, rebuilt_stock, seeds_from,
                              shuffled)
from app.engine.continental.actions import (Action, Discard, DrawStock, GoDown, LayOff, PassOffer,
                                            TakeOffer)
from app.engine.continental.melds import TableMeld, card_points, contract, table_meld
from app.engine.continental.solver import go_down_options
from app.engine.continental.view import OfferView, Rules, View
from app.engine.protocol import Event, IllegalAction, Outcome, PastDeal, rng_from_state, rng_state

GAME_ID = 'continental'
GO_DOWN_OPTIONS = 8


def _cards(text: list[str]) -> list[Card]:
    return [french_card(token) for token in text]


def _text(cards) -> list[str]:
    return [str(card) for card in cards]


class GameState(protocol.GameState):
    """Build with :func:`new_game`; speak the protocol (see ``app.engine.protocol``).

    ``legal_actions`` lists, for going down, the solver's best arrangement and up to
    ``GO_DOWN_OPTIONS - 1`` alternatives that keep one more card in hand; ``apply`` accepts any
    valid ``GoDown`` even when it is not listed (people build melds freely), and a ``LayOff``
    without a position (the engine picks the first place that fits).
    """

    open_kinds: ClassVar[frozenset[str]] = frozenset({'go_down', 'lay_off'})

    def __init__(self, rules: Rules, seats: int, rng: random.Random, hand_seeds: HandSeeds | None = None) -> None:
        if not 2 <= seats <= 6:
            raise ValueError(f'Continental is for 2 to 6 seats, got {seats}')
        self.rules = rules
        self.seats = seats
        self.rng = rng
        self.hand_seeds = hand_seeds or seeds_from(rng)
        self.hand_number = 0
        self.dealer = 0
        self.seeds: list[str] = []
        self.hands: list[list[Card]] = [[] for _ in range(seats)]
        self.stock: list[Card] = []          # top is the last item
        self.discard: list[Card] = []        # top is the last item
        self.melds: list[TableMeld] = []     # laid on the table this hand
        self.down = [False] * seats
        self.down_this_turn = False
        self.rebuilds = 0                    # stock rebuilds in this hand
        self.phase = 'deal'
        self.turn = 0
        self.offer: dict[str, Any] | None = None
        self.hand_scores: list[list[int]] = []
        self.last_result: dict[str, Any] | None = None
        self.events: list[Event] = []
        self.hand_events_from = 0
        self._outcome: Outcome | None = None

    # protocol ------------------------------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        if self.phase == 'over':
            return None
        if self.phase == 'offer':
            return self.offer['order'][len(self.offer['passed'])]
        return self.turn

    def outcome(self) -> Outcome | None:
        return self._outcome

    def totals(self) -> list[int]:
        return [sum(row[seat] for row in self.hand_scores) for seat in range(self.seats)]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.current_seat:
            return []
        if self.phase == 'offer':
            can_take = seat == self.turn or self._penalty_available()
            return ([TakeOffer()] if can_take else []) + [PassOffer()]
        if self.phase == 'draw':
            return [DrawStock()]
        hand = self.hands[seat]
        distinct = sorted(set(hand))
        actions: list[Action] = []
        if not self.down[seat]:
            actions.extend(GoDown(melds) for melds in go_down_options(hand, self.hand_number, GO_DOWN_OPTIONS))
        elif len(hand) > 1:
            for card in distinct:
                for meld in self.melds:
                    actions.extend(LayOff(card, meld.id, position) for position in meld.lay_off_positions(card))
        actions.extend(Discard(card) for card in distinct)
        return actions

    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check(seat, action)
        first = len(self.events)
        self._APPLY[type(action)](self, seat, action)
        return self.events[first:]

    # validation (never mutates) -----------------------------------------------------------
    def _check(self, seat: int, action: Action) -> None:
        if self.phase == 'over':
            raise IllegalAction('game_over', 'The game is over.')
        if type(action) not in self._APPLY:
            raise IllegalAction('unknown_action', f'{action!r} is not a Continental action.')
        if seat != self.current_seat:
            raise IllegalAction('not_your_turn', f'It is not seat {seat}\'s turn to act.', seat=seat)
        offer_action = isinstance(action, (TakeOffer, PassOffer))
        if self.phase == 'offer' and not offer_action:
            raise IllegalAction('offer_open', 'Take or pass the offered card first.')
        if self.phase != 'offer' and offer_action:
            raise IllegalAction('no_offer', 'No card is on offer now.')
        if self.phase == 'draw' and not isinstance(action, DrawStock):
            raise IllegalAction('must_draw', 'Draw a card from the stock first.')
        if self.phase == 'play' and isinstance(action, DrawStock):
            raise IllegalAction('already_drawn', 'You have already drawn this turn.')
        if isinstance(action, TakeOffer) and seat != self.turn and not self._penalty_available():
            raise IllegalAction('no_penalty_card', 'No penalty card is left to take it out of turn.')
        if isinstance(action, (GoDown, LayOff, Discard)):
            self._check_play(seat, action)

    def _check_play(self, seat: int, action: Action) -> None:
        hand = self.hands[seat]
        if isinstance(action, Discard):
            self._check_owned(hand, [action.card])
            return
        if isinstance(action, GoDown):
            if self.down[seat]:
                raise IllegalAction('already_down', 'You have already gone down this hand.')
            self._go_down_melds(seat, action)
            return
        if not self.down[seat]:
            raise IllegalAction('not_down', 'Go down before laying off cards.')
        self._check_owned(hand, [action.card])
        self._laid_off(action)
        if len(hand) == 1:
            raise IllegalAction('keep_a_card', 'You must keep a card to discard.')

    @staticmethod
    def _check_owned(hand: list[Card], cards: list[Card]) -> None:
        missing = Counter(cards) - Counter(hand)
        if missing:
            card = next(iter(missing))
            raise IllegalAction('card_not_in_hand', f'{card} is not in your hand.', card=str(card))

    def _go_down_melds(self, seat: int, action: GoDown) -> list[TableMeld]:
        wanted = contract(self.hand_number)
        melds = []
        for i, cards in enumerate(action.melds):
            meld = table_meld(len(self.melds) + i, seat, tuple(cards))
            if meld is None:
                text = ' '.join(_text(cards))
                raise IllegalAction('invalid_meld', f'{text} is neither a set nor a run.', cards=text)
            melds.append(meld)
        kinds = [meld.kind for meld in melds]
        if kinds.count('set') != wanted.sets or kinds.count('run') != wanted.runs:
            raise IllegalAction('wrong_contract',
                                f'Hand {wanted.number} asks for exactly {wanted.sets} set(s) and {wanted.runs} run(s).',
                                hand=wanted.number, sets=wanted.sets, runs=wanted.runs)
        used = [card for cards in action.melds for card in cards]
        self._check_owned(self.hands[seat], used)
        if len(used) >= len(self.hands[seat]):
            raise IllegalAction('keep_a_card', 'You must keep a card to discard.')
        return melds

    def _laid_off(self, action: LayOff) -> tuple[TableMeld, int | None]:
        meld = next((meld for meld in self.melds if meld.id == action.meld_id), None)
        if meld is None:
            raise IllegalAction('no_such_meld', f'There is no meld {action.meld_id} on the table.',
                                meld_id=action.meld_id)
        options = meld.lay_off_positions(action.card)
        if not options:
            raise IllegalAction('does_not_fit', f'{action.card} does not fit on that meld.', card=str(action.card))
        position = options[0] if action.position is None else action.position
        if position not in options:
            raise IllegalAction('bad_position', f'{action.card} cannot stand at position {action.position}.',
                                card=str(action.card), position=action.position)
        return meld.with_card(action.card, position), position

    def _penalty_available(self) -> bool:
        # the offered card leaves the pile first
        return self._can_draw(len(self.discard) - 1)

    def _can_draw(self, pile: int) -> bool:
        """A stock card can be drawn: the stock has one, or a rebuild (which keeps the pile's top)
        yields one and the room's rebuild limit is not reached."""
        limit = self.rules.stock_rebuilds
        return bool(self.stock) or (pile >= 2 and (limit == 0 or self.rebuilds < limit))

    # transitions ---------------------------------------------------------------------------
    def _log(self, kind: str, seat: int | None = None, **data: Any) -> None:
        self.events.append(Event(kind, seat, data))

    def _deal(self) -> None:
        self.hand_number += 1
        if self.hand_number > 1:
            self.dealer = (self.dealer + 1) % self.seats
        seed = self.hand_seeds()
        self.seeds.append(seed)
        deck = shuffled(french_deck(), seed)
        size = contract(self.hand_number).cards
        self.hands = [[] for _ in range(self.seats)]
        for i in range(size * self.seats):
            self.hands[(self.dealer + 1 + i) % self.seats].append(deck[i])
        self.discard = [deck[size * self.seats]]
        self.stock = deck[size * self.seats + 1:][::-1]
        self.melds = []
        self.down = [False] * self.seats
        self.down_this_turn = False
        self.rebuilds = 0
        self.hand_events_from = len(self.events)
        self._log('deal', self.dealer, hand=self.hand_number, dealer=self.dealer,
                  contract=contract(self.hand_number).to_dict(), cards_each=size,
                  commitment=commitment(seed), stock_size=len(self.stock))
        self._open_offer(on_turn=(self.dealer + 1) % self.seats, discarder=None)

    def _open_offer(self, on_turn: int, discarder: int | None) -> None:
        self.turn = on_turn
        self.down_this_turn = False
        if self.rules.robo_de_contra:
            order = [(on_turn + i) % self.seats for i in range(self.seats)]
            order = [seat for seat in order if seat != discarder]
        else:
            order = [on_turn]
        self.phase = 'offer'
        self.offer = {'card': self.discard[-1], 'discarder': discarder, 'order': order, 'passed': []}
        self._log('offer', on_turn, card=str(self.discard[-1]), on_turn=on_turn, discarder=discarder, order=order)

    def _close_offer(self) -> None:
        self.offer = None
        self.phase = 'draw'
        if not self._can_draw(len(self.discard)):
            self._end_hand(None)

    def _pop_stock(self) -> Card:
        if not self.stock:
            self.rebuilds += 1
            self.stock = rebuilt_stock(self.discard[:-1], self.seeds[-1], self.rebuilds)
            self.discard = self.discard[-1:]
            self._log('reshuffle', None, stock_size=len(self.stock), rebuild=self.rebuilds)
        return self.stock.pop()

    def _take(self, seat: int, action: TakeOffer) -> None:
        card = self.discard.pop()
        self.hands[seat].append(card)
        if seat == self.turn:
            self._log('take_offer', seat, card=str(card), out_of_turn=False, penalty=False)
            self.offer = None
            self.phase = 'play'
            return
        self.hands[seat].append(self._pop_stock())
        self._log('take_offer', seat, card=str(card), out_of_turn=True, penalty=True)
        self._close_offer()

    def _pass(self, seat: int, action: PassOffer) -> None:
        self.offer['passed'].append(seat)
        self._log('pass_offer', seat, card=str(self.offer['card']))
        if len(self.offer['passed']) == len(self.offer['order']):
            self._close_offer()

    def _draw(self, seat: int, action: DrawStock) -> None:
        self.hands[seat].append(self._pop_stock())
        self._log('draw_stock', seat)
        self.phase = 'play'

    def _go_down(self, seat: int, action: GoDown) -> None:
        melds = self._go_down_melds(seat, action)
        for meld in melds:
            for card in meld.cards:
                self.hands[seat].remove(card)
        self.melds.extend(melds)
        self.down[seat] = True
        self.down_this_turn = True
        self._log('go_down', seat, melds=[meld.to_dict() for meld in melds])

    def _lay_off(self, seat: int, action: LayOff) -> None:
        grown, position = self._laid_off(action)
        self.hands[seat].remove(action.card)
        self.melds = [grown if meld.id == grown.id else meld for meld in self.melds]
        self._log('lay_off', seat, card=str(action.card), meld_id=grown.id, position=position,
                  meld=grown.to_dict())

    def _discard(self, seat: int, action: Discard) -> None:
        self.hands[seat].remove(action.card)
        self.discard.append(action.card)
        self._log('discard', seat, card=str(action.card))
        if not self.hands[seat]:
            self._end_hand(seat)
        else:
            self._open_offer(on_turn=(seat + 1) % self.seats, discarder=seat)

    def _end_hand(self, out_seat: int | None) -> None:
        points = [sum(card_points(card) for card in hand) for hand in self.hands]
        if out_seat is not None:
            points[out_seat] = -20 if self.down_this_turn else 0
        self.hand_scores.append(points)
        self.last_result = {
            'hand': self.hand_number, 'reason': 'no_draw' if out_seat is None else 'out',
            'out_seat': out_seat, 'points': points, 'totals': self.totals(),
            'hands': [_text(sorted(hand)) for hand in self.hands], 'seed': self.seeds[-1],
        }
        self.offer = None
        self._log('hand_end', None, **self.last_result)
        if self.hand_number == self.rules.hands:
            self.phase = 'over'
            totals = self.totals()
            low = min(totals)
            winners = tuple(seat for seat, total in enumerate(totals) if total == low)
            hands = self.rules.hands
            self._outcome = Outcome(tuple(totals), winners, f'lowest total after {hands} hand{"s" * (hands > 1)}')
            self._log('game_over', None, **self._outcome.to_dict())
        else:
            self._deal()

    # one handler per kind of action (``apply`` has checked it first)
    _APPLY: ClassVar[dict[type, Callable[['GameState', int, Any], None]]] = {
        TakeOffer: _take, PassOffer: _pass, DrawStock: _draw, GoDown: _go_down, LayOff: _lay_off,
        Discard: _discard,
    }

    # views ---------------------------------------------------------------------------------
    def view(self, seat: int) -> View:
        return self._view(seat, public=False)

    def public_view(self) -> View:
        return self._view(0, public=True)

    def _view(self, seat: int, public: bool) -> View:
        """``seat``'s view; the public one (``public``) keeps only what the whole table knows."""
        offer = None
        if self.phase == 'offer':
            offer = OfferView(self.offer['card'], self.turn, self.offer['discarder'], self.current_seat,
                              tuple(self.offer['order']), tuple(self.offer['passed']))
        finished = self.seeds[:len(self.hand_scores)]
        return View(
            seat=seat, seats=self.seats, rules=self.rules, hand_number=self.hand_number,
            contract=contract(self.hand_number), dealer=self.dealer, phase=self.phase,
            current_seat=self.current_seat, on_turn=None if self.phase == 'over' else self.turn,
            hand=() if public else tuple(sorted(self.hands[seat])),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            melds=tuple(self.melds), down=tuple(self.down), eliminated=(False,) * self.seats,
            discard_top=self.discard[-1] if self.discard else None, discard_size=len(self.discard),
            stock_size=len(self.stock), stock_rebuilds=self.rebuilds, offer=offer,
            hand_scores=tuple(tuple(row) for row in self.hand_scores), scores=tuple(self.totals()),
            commitment=commitment(self.seeds[-1]),
            past_deals=tuple(PastDeal(number, seed, commitment(seed)) for number, seed in enumerate(finished, 1)),
            events=tuple(self.events[self.hand_events_from:]), last_result=self.last_result,
            legal_actions=() if public else tuple(self.legal_actions(seat)), outcome=self._outcome,
        )

    # serialisation ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        offer = None
        if self.offer is not None:
            offer = dict(self.offer, card=str(self.offer['card']), order=list(self.offer['order']),
                         passed=list(self.offer['passed']))
        return {
            'game': GAME_ID, 'rules': self.rules.to_dict(), 'seats': self.seats, 'rng': rng_state(self.rng),
            'hand_number': self.hand_number, 'dealer': self.dealer, 'seeds': list(self.seeds),
            'hands': [_text(hand) for hand in self.hands], 'stock': _text(self.stock),
            'discard': _text(self.discard), 'melds': [meld.to_dict() for meld in self.melds],
            'down': list(self.down), 'down_this_turn': self.down_this_turn, 'rebuilds': self.rebuilds,
            'phase': self.phase,
            'turn': self.turn, 'offer': offer, 'hand_scores': [list(row) for row in self.hand_scores],
            'last_result': self.last_result, 'events': [event.to_dict() for event in self.events],
            'hand_events_from': self.hand_events_from,
            'outcome': None if self._outcome is None else self._outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any], hand_seeds: HandSeeds | None = None) -> 'GameState':
        state = cls(Rules.from_dict(raw['rules']), raw['seats'], rng_from_state(raw['rng']), hand_seeds)
        state.hand_number = raw['hand_number']
        state.dealer = raw['dealer']
        state.seeds = list(raw['seeds'])
        state.hands = [_cards(hand) for hand in raw['hands']]
        state.stock = _cards(raw['stock'])
        state.discard = _cards(raw['discard'])
        # saved before the melds had their own name, under 'table'
        state.melds = [TableMeld.from_dict(meld) for meld in raw['melds' if 'melds' in raw else 'table']]
        state.down = list(raw['down'])
        state.down_this_turn = raw['down_this_turn']
        state.rebuilds = raw['rebuilds']
        state.phase = raw['phase']
        state.turn = raw['turn']
        offer = raw['offer']
        if offer is not None:
            offer = dict(offer, card=french_card(offer['card']), order=list(offer['order']),
                         passed=list(offer['passed']))
        state.offer = offer
        state.hand_scores = [list(row) for row in raw['hand_scores']]
        state.last_result = raw['last_result']
        state.events = [Event.from_dict(event) for event in raw['events']]
        state.hand_events_from = raw['hand_events_from']
        state._outcome = None if raw['outcome'] is None else Outcome.from_dict(raw['outcome'])
        return state


def new_game(rules: Rules | None = None, seats: int = 2, rng: random.Random | None = None,
             dealer: int | None = None, hand_seeds: HandSeeds | None = None) -> GameState:
    """A game ready for the first offer of hand 1. ``dealer`` deals it (a table moves it one seat
    at each new game); without it the first dealer is drawn with ``rng``. ``hand_seeds`` gives
    each hand's seed (a table's come from ``secrets``); without it they are drawn with ``rng``."""
    rng = rng if rng is not None else random.Random()
    if dealer is not None and not 0 <= dealer < seats:
        raise ValueError(f'no seat {dealer} to deal at a table of {seats}')
    state = GameState(rules or Rules(), seats, rng, hand_seeds)
    state.dealer = rng.randrange(seats) if dealer is None else dealer
    state._deal()
    return state
