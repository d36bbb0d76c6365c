"""A Chinchón hand in progress, built from the cards a player would describe."""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from app.engine.cards import Card, HandSeeds, commitment, new_hand_seed, parse_spanish, spanish_deck
from app.engine.protocol import Event, Outcome, rng_from_state, rng_state
from app.engine.positions import Named, cards_text, count, deal, keywords, per_seat, seat, seat_count, seat_set, text

from .state import HAND_SIZE, MAX_RESHUFFLES, GameState, Rules
from .view import HandResult, PastDeal

COUNTED = ('buyback', 'over')   # the phases after a count, when every hand has been shown


def position(state: GameState) -> str:
    """The text of ``state``'s position, the inverse of ``from_position``: every card where it lies
    (the whole stock and discard pile, bottom to top), what the hand's play depends on (the deals'
    seeds and the cards each seat took from the discard pile included) and its history (the
    generator, the events, the last hand's count, the buy-back questions still to ask, the
    outcome), so that ``from_position(position(state))`` saves exactly as ``state`` does, in every
    phase: a hand in progress, a buy-back question or a finished game."""
    seats = range(state.seats)
    counted = state.phase in COUNTED
    seeds = [past.seed for past in state.past_hands] + ([] if counted else [state.seed])
    return text(rules=dataclasses.asdict(state.rules), seats=state.seats,
                hands=[cards_text(hand) for hand in state.hands], discard=cards_text(state.discard),
                stock_top=cards_text(state.stock), current=state.current, phase=state.phase,
                taken=None if state.taken is None else str(state.taken), dealer=state.dealer,
                scores=list(state.scores), out=[s for s in seats if state.out[s]],
                bought_back=[s for s in seats if state.buyback_used[s]], hand_number=state.hand_number,
                reshuffles=state.reshuffles, deal_seeds=seeds,
                taken_from_discard=[cards_text(cards) for cards in state.taken_by],
                buyback_queue=list(state.buyback_queue) or None,
                outcome=state.result.to_dict() if state.result else None,
                last_result=state.last_result.to_dict() if state.last_result else None,
                hand_start=state.hand_start, events=[event.to_dict() for event in state.events],
                rng=rng_state(state.rng))


def from_position(rules: Rules | str | None = None, *, hands: Mapping[int, str] | Sequence[str] | None = None,
                  seats: int | None = None, discard: str = '', stock_top: str = '',
                  stock_size: int | None = None, current: int | None = None, phase: str = 'draw',
                  taken: str | None = None, dealer: int | None = None, scores: Sequence[int] | None = None,
                  out: Collection[int] = (), bought_back: Collection[int] = (), hand_number: int = 1,
                  reshuffles: int = 0, seed: int | str = 0, hand_seeds: HandSeeds | None = None,
                  deal_seeds: Sequence[str] | None = None,
                  taken_from_discard: Mapping[int, str] | Sequence[str] | None = None,
                  buyback_queue: Sequence[int] = (), outcome: Mapping[str, Any] | None = None,
                  last_result: Mapping[str, Any] | None = None, hand_start: int = 0,
                  events: Sequence[Mapping[str, Any]] = (), rng: Sequence[Any] | None = None) -> GameState:
    """The hand as described; every card not named is dealt from a ``random.Random(seed)`` shuffle.

    ``hands``: every seat's hand (a list) or some of them (``{seat: text}``, with ``seats``); the
    others (all, without ``hands``) are dealt 7 cards. ``discard`` is the discard pile and
    ``stock_top`` the top of the stock, both written bottom to top (the last card is the top: the
    next one drawn); without a ``discard`` one dealt card starts it. ``stock_size``: how many cards
    the stock holds, the discard pile holding the others under the named ones (default: the
    discard pile is exactly what is named). ``phase`` 'draw' (everyone holds 7) or 'discard'
    (``current`` has drawn and holds 8; ``taken``: the card it took from the discard pile, if it
    did). ``dealer`` defaults to the player before ``current``. ``out``: seats eliminated (no hand,
    over the limit); ``bought_back``: seats that used their buy-back. ``hand_seeds`` gives the next
    hands' seeds, as in ``new_game``. ``deal_seeds``: the seed of every hand so far, this one last
    (default: drawn from the shuffle's generator); ``taken_from_discard``: the cards each seat took
    from the discard pile this hand (default: ``taken``). The history, as ``position`` writes it
    (default: none): ``events`` (event dicts) from ``hand_start`` on for this hand, ``last_result``
    (the last count), ``rng`` (the generator's state; default: the shuffle's generator). Phase
    'buyback' (``current`` is asked, the ``buyback_queue`` in order) and 'over' (with its
    ``outcome``) come after a count: every card is named and the hands are as they were counted,
    ``deal_seeds`` naming every hand dealt, this one last. Refuses an impossible position with a
    ValueError saying what is wrong. ``rules`` may instead be the text ``position`` writes, which
    names everything else.

    >>> from app.engine.chinchon import DrawStock, Rules, from_position
    >>> state = from_position(Rules(), hands={0: '1o 2o 3o 5c 7e 11b 12c'}, seats=2, discard='6b',
    ...                       stock_top='4e', seed=7)
    >>> view = state.view(0)
    >>> str(view.discard_top), view.stock_size, view.current_seat, view.dealer
    ('6b', 25, 0, 1)
    >>> state.apply(0, DrawStock()) and str(state.view(0).hand[-1])
    '4e'
    """
    if isinstance(rules, str):
        named_values = keywords(rules)
        return from_position(Rules(**named_values.pop('rules', {})), hand_seeds=hand_seeds, **named_values)
    rules = rules or Rules()
    seats = seat_count(hands, seats, 2, 6, 'Chinchón')
    history = _history(buyback_queue, outcome, last_result, hand_start, events, rng, seats, phase)
    if phase in COUNTED:
        state = _counted(rules, seats, hands, discard, stock_top, current, phase, taken, dealer, scores, out,
                         bought_back, hand_number, reshuffles, hand_seeds, deal_seeds, taken_from_discard,
                         history['rng'])
        return _with_history(state, history)
    if phase not in ('draw', 'discard'):
        raise ValueError(f"phase must be 'draw' or 'discard' (a hand in progress), 'buyback' or 'over', not {phase!r}")
    out = seat_set(out, seats, 'out')
    bought_back = seat_set(bought_back, seats, 'bought_back')
    players = [s for s in range(seats) if s not in out]
    if len(players) < 2:
        raise ValueError(f'seats {sorted(out)} are out: at least two players must still be in to play a hand')
    current = seat(0 if current is None else current, seats, 'current')
    if current in out:
        raise ValueError(f'seat {current} is out of the game: it cannot be on turn')
    if dealer is None:
        dealer = next(s for s in ((current - step) % seats for step in range(1, seats + 1)) if s not in out)
    dealer = seat(dealer, seats, 'dealer')
    if dealer in out:
        raise ValueError(f'seat {dealer} is out of the game: the deal passes to players still in')
    scores = _scores(scores, seats, rules, out)
    hand_number = count(hand_number, 'hand_number', 1, rules.hands or None)   # a game of fixed length ends there
    reshuffles = count(reshuffles, 'reshuffles', 0, MAX_RESHUFFLES)
    if stock_size is not None:
        stock_size = count(stock_size, 'stock_size')

    named = Named(spanish_deck(2 if seats >= 5 else 1), parse_spanish)
    held = {s: named.cards(text, f'the hand of seat {s}') for s, text in per_seat(hands, seats, 'hands').items()}
    pile = named.cards(discard, 'the discard pile')
    top = named.cards(stock_top, 'the stock')
    for s, cards in held.items():
        wanted = 0 if s in out else HAND_SIZE + (s == current and phase == 'discard')
        if len(cards) != wanted:
            raise ValueError(f'seat {s} holds {len(cards)} cards, but {_why(s, wanted, out, current)}')
    taken_card = _taken(taken, held, current, phase)

    rng = random.Random(seed)
    spare = named.rest(rng)
    for s in players:
        if s not in held:
            held[s] = deal(spare, HAND_SIZE + (s == current and phase == 'discard'))
    if stock_size is None:
        pile = pile or deal(spare, min(1, len(spare)))
    elif not len(top) <= stock_size <= len(top) + len(spare):
        raise ValueError(f'stock_size {stock_size}: the stock holds the {len(top)} cards named for it and at most '
                         f'the {len(spare)} nobody named')
    else:
        pile = deal(spare, len(spare) - (stock_size - len(top))) + pile
    if phase == 'draw' and not pile:
        raise ValueError('the discard pile is empty: before a draw it holds at least the last discard')

    state = GameState(rules, seats, history['rng'] or rng, hand_seeds)
    if deal_seeds is None:
        state.past_hands = [_past(number, rng) for number in range(1, hand_number)]
        state.seed = new_hand_seed(rng)
    else:
        *past, state.seed = _deal_seeds(deal_seeds, hand_number)
        state.past_hands = [PastDeal(number, past_seed, commitment(past_seed)) for number, past_seed in enumerate(past, 1)]
    state.hand_number, state.dealer, state.reshuffles = hand_number, dealer, reshuffles
    state.scores, state.out = scores, [s in out for s in range(seats)]
    state.buyback_used = [s in bought_back for s in range(seats)]
    state.hands = [held.get(s, []) for s in range(seats)]
    state.stock, state.discard = spare + top, pile
    state.phase, state.current, state.taken = phase, current, taken_card
    if taken_from_discard is not None:
        for s, cards in per_seat(taken_from_discard, seats, 'taken_from_discard').items():
            state.taken_by[s] = _parsed(cards, f'taken_from_discard of seat {s}')
    elif taken_card is not None:
        state.taken_by[current].append(taken_card)
    return _with_history(state, history)


def _history(buyback_queue: Sequence[int], outcome: Mapping[str, Any] | None, last_result: Mapping[str, Any] | None,
             hand_start: int, events: Sequence[Mapping[str, Any]], rng: Sequence[Any] | None, seats: int,
             phase: str) -> dict[str, Any]:
    """The history keywords checked and read (``rng`` None when not given)."""
    if isinstance(buyback_queue, str) or (buyback_queue and phase != 'buyback'):
        raise ValueError(f'buyback_queue: seats still to be asked, in phase buyback only, not {buyback_queue!r}')
    queue = [seat(s, seats, 'buyback_queue') for s in buyback_queue]
    if (outcome is not None) != (phase == 'over'):
        raise ValueError('outcome: a finished game (phase over) has one, and only it')
    try:
        return {'buyback_queue': queue, 'outcome': Outcome.from_dict(outcome) if outcome is not None else None,
                'last_result': HandResult.from_dict(last_result) if last_result is not None else None,
                'hand_start': count(hand_start, 'hand_start', 0, len(events)),
                'events': [Event.from_dict(event) for event in events],
                'rng': None if rng is None else rng_from_state(rng)}
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        raise ValueError(f'the history (outcome, last_result, events, rng) as position() writes it: {error!r}') \
            from None


def _with_history(state: GameState, history: dict[str, Any]) -> GameState:
    state.buyback_queue, state.result = history['buyback_queue'], history['outcome']
    state.last_result, state.hand_start, state.events = history['last_result'], history['hand_start'], history['events']
    return state


def _counted(rules: Rules, seats: int, hands: object, discard: str, stock_top: str, current: int | None, phase: str,
             taken: str | None, dealer: int | None, scores: Sequence[int] | None, out: Collection[int],
             bought_back: Collection[int], hand_number: int, reshuffles: int, hand_seeds: HandSeeds | None,
             deal_seeds: Sequence[str] | None, taken_from_discard: Mapping[int, str] | Sequence[str] | None,
             rng: random.Random | None) -> GameState:
    """A buy-back question or a finished game: after a count, so every card is named where it lies."""
    if taken is not None:
        raise ValueError(f'taken: after a count no card is being taken, not {taken!r}')
    if phase == 'over' and current is not None:
        raise ValueError(f'current: nobody is on turn in a finished game, not seat {current!r}')
    if phase == 'buyback':
        current = seat(current, seats, 'current')
    named = Named(spanish_deck(2 if seats >= 5 else 1), parse_spanish)
    listed = per_seat(hands, seats, 'hands')
    if len(listed) != seats:
        raise ValueError(f'hands: after a count every hand is shown, so name all {seats}')
    held = [named.cards(listed[s], f'the hand of seat {s}') for s in range(seats)]
    pile, stock = named.cards(discard, 'the discard pile'), named.cards(stock_top, 'the stock')
    if len(named.rest(random.Random(0))) > 1:   # the closer's card lies face down, in no list
        raise ValueError('after a count every card is named but the one the closer put face down: the hands, '
                         'the discard pile and the whole stock')
    if isinstance(scores, str) or scores is None or len(scores) != seats or \
            any(isinstance(score, bool) or not isinstance(score, int) for score in scores):
        raise ValueError(f'scores: one whole number for each of {seats} seats, not {scores!r}')
    hand_number = count(hand_number, 'hand_number', 1, rules.hands or None)
    if phase == 'buyback' and hand_number == rules.hands:
        raise ValueError(f'phase buyback: no buy-back is offered after the last hand, and hand {hand_number} is the '
                         f'last of {rules.hands}')
    state = GameState(rules, seats, rng or random.Random(0), hand_seeds)
    past = _deal_seeds(deal_seeds, hand_number) if deal_seeds is not None else []
    if len(past) != hand_number:
        raise ValueError(f'deal_seeds: after a count, the seeds of the {hand_number} hands dealt, this one last')
    state.past_hands = [PastDeal(number, past_seed, commitment(past_seed)) for number, past_seed in enumerate(past, 1)]
    state.seed, state.hand_number = past[-1], hand_number
    state.dealer = seat(0 if dealer is None else dealer, seats, 'dealer')
    state.reshuffles = count(reshuffles, 'reshuffles', 0, MAX_RESHUFFLES)
    out, bought_back = seat_set(out, seats, 'out'), seat_set(bought_back, seats, 'bought_back')
    state.scores, state.out = list(scores), [s in out for s in range(seats)]
    state.buyback_used = [s in bought_back for s in range(seats)]
    state.hands, state.stock, state.discard = held, stock, pile
    state.phase, state.current = phase, current
    for s, cards in per_seat(taken_from_discard, seats, 'taken_from_discard').items():
        state.taken_by[s] = _parsed(cards, f'taken_from_discard of seat {s}')
    return state


def _deal_seeds(seeds: Sequence[str], hand_number: int) -> list[str]:
    if isinstance(seeds, str) or len(seeds) != hand_number or not all(isinstance(s, str) and s for s in seeds):
        raise ValueError(f'deal_seeds: the seeds of the {hand_number} hands dealt so far, as texts, not {seeds!r}')
    return list(seeds)


def _parsed(text: str, where: str) -> list[Card]:
    try:
        return parse_spanish(text)
    except (ValueError, AttributeError) as error:
        raise ValueError(f'{where}: {error}') from None


def _scores(scores: Sequence[int] | None, seats: int, rules: Rules, out: set[int]) -> list[int]:
    scores = [0] * seats if scores is None else list(scores)
    if len(scores) != seats:
        raise ValueError(f'scores: {len(scores)} scores listed for {seats} seats')
    for s, score in enumerate(scores):
        if isinstance(score, bool) or not isinstance(score, int):   # below 0 too: closing with no loose card is -10
            raise ValueError(f'the score of seat {s} must be a whole number, not {score!r}')
        if (score > rules.limit) != (s in out):
            state = 'is out, so its score is over' if s in out else 'is still in, so its score is at most'
            raise ValueError(f'seat {s} {state} the limit of {rules.limit}, not {score}')
    return scores


def _why(s: int, wanted: int, out: set[int], current: int) -> str:
    if s in out:
        return 'it is out of the game and holds none'
    if wanted > HAND_SIZE:
        return f'it is on turn and has drawn, so it holds {wanted}'
    return f'every player holds {HAND_SIZE}' + (' before drawing' if s == current else ' off turn')


def _taken(taken: str | None, held: dict[int, list[Card]], current: int, phase: str) -> Card | None:
    if taken is None:
        return None
    if phase != 'discard':
        raise ValueError('taken: a card is taken from the discard pile by drawing it, so the phase is discard')
    try:
        cards = parse_spanish(taken)
    except ValueError as error:
        raise ValueError(f'taken: {error}') from None
    if len(cards) != 1:
        raise ValueError(f'taken: the one card taken from the discard pile, not {taken!r}')
    card = cards[0]
    if current not in held or card not in held[current]:
        raise ValueError(f'taken: seat {current} took {taken} from the discard pile, so its hand names it')
    return card


def _past(number: int, rng: random.Random) -> PastDeal:
    seed = new_hand_seed(rng)
    return PastDeal(number, seed, commitment(seed))
