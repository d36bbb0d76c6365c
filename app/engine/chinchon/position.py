"""A Chinchón hand in progress, built from the cards a player would describe."""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Mapping, Sequence

from app.engine.cards import Card, HandSeeds, commitment, new_hand_seed, parse_spanish, spanish_deck
from app.engine.positions import Named, cards_text, count, deal, keywords, per_seat, seat, seat_count, seat_set, text

from .state import HAND_SIZE, MAX_RESHUFFLES, GameState, Rules
from .view import PastDeal


def position(state: GameState) -> str:
    """The text of ``state``'s position, the inverse of ``from_position``: every card where it lies
    (the whole stock and discard pile, bottom to top), and what the hand's play depends on, the
    deals' seeds and the cards each seat took from the discard pile included. It names no history:
    the events, the last hand's count and the generator (so the seeds of hands to come) are not in
    it. Only a hand in progress has a position (phase 'draw' or 'discard')."""
    if state.phase not in ('draw', 'discard'):
        raise ValueError(f'a position is a hand in progress (phase draw or discard), not phase {state.phase!r}')
    seats = range(state.seats)
    return text(rules=dataclasses.asdict(state.rules), seats=state.seats,
                hands=[cards_text(hand) for hand in state.hands], discard=cards_text(state.discard),
                stock_top=cards_text(state.stock), current=state.current, phase=state.phase,
                taken=None if state.taken is None else str(state.taken), dealer=state.dealer,
                scores=list(state.scores), out=[s for s in seats if state.out[s]],
                bought_back=[s for s in seats if state.buyback_used[s]], hand_number=state.hand_number,
                reshuffles=state.reshuffles, deal_seeds=[past.seed for past in state.past_hands] + [state.seed],
                taken_from_discard=[cards_text(cards) for cards in state.taken_by])


def from_position(rules: Rules | str | None = None, *, hands: Mapping[int, str] | Sequence[str] | None = None,
                  seats: int | None = None, discard: str = '', stock_top: str = '',
                  stock_size: int | None = None, current: int = 0, phase: str = 'draw',
                  taken: str | None = None, dealer: int | None = None, scores: Sequence[int] | None = None,
                  out: Collection[int] = (), bought_back: Collection[int] = (), hand_number: int = 1,
                  reshuffles: int = 0, seed: int | str = 0, hand_seeds: HandSeeds | None = None,
                  deal_seeds: Sequence[str] | None = None,
                  taken_from_discard: Mapping[int, str] | Sequence[str] | None = None) -> GameState:
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
    from the discard pile this hand (default: ``taken``). Refuses an impossible position with a
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
    if phase not in ('draw', 'discard'):
        raise ValueError(f"phase must be 'draw' or 'discard' (a hand in progress), not {phase!r}")
    out = seat_set(out, seats, 'out')
    bought_back = seat_set(bought_back, seats, 'bought_back')
    players = [s for s in range(seats) if s not in out]
    if len(players) < 2:
        raise ValueError(f'seats {sorted(out)} are out: at least two players must still be in to play a hand')
    current = seat(current, seats, 'current')
    if current in out:
        raise ValueError(f'seat {current} is out of the game: it cannot be on turn')
    if dealer is None:
        dealer = next(s for s in ((current - step) % seats for step in range(1, seats + 1)) if s not in out)
    dealer = seat(dealer, seats, 'dealer')
    if dealer in out:
        raise ValueError(f'seat {dealer} is out of the game: the deal passes to players still in')
    scores = _scores(scores, seats, rules, out)
    hand_number = count(hand_number, 'hand_number', 1)
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

    state = GameState(rules, seats, rng, hand_seeds)
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
