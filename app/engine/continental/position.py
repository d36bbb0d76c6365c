"""A Continental hand in progress, built from the cards a player would describe."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.engine.cards import HandSeeds, french_deck, new_hand_seed, parse_french
from app.engine.continental.melds import Contract, TableMeld, contract, table_meld
from app.engine.continental.state import GameState
from app.engine.continental.view import Rules
from app.engine.protocol import Event, Outcome, rng_from_state, rng_state
from app.engine.positions import Named, cards_text, count, deal, keywords, per_seat, seat, seat_count, text

PHASES = ('offer', 'draw', 'play')
OFFER_KEYS = frozenset({'discarder', 'order', 'passed'})


def position(state: GameState) -> str:
    """The text of ``state``'s position, the inverse of ``from_position``: every card where it lies
    (the whole stock and discard pile, bottom to top; each meld in its layout), what the hand's
    play depends on (the deals' seeds included) and its history (the generator, the events, the
    last hand's result, the outcome), so that ``from_position(position(state))`` saves exactly as
    ``state`` does, a finished game too."""
    offer = None
    if state.offer is not None:
        offer = {'discarder': state.offer['discarder'], 'passed': list(state.offer['passed'])}
    return text(rules=state.rules.to_dict(), hands=[cards_text(hand) for hand in state.hands],
                hand_number=state.hand_number, dealer=state.dealer, phase=state.phase, turn=state.turn,
                stock=cards_text(state.stock), discard=cards_text(state.discard),
                melds=[(meld.owner, cards_text(meld.cards)) for meld in state.melds], down=list(state.down),
                down_this_turn=state.down_this_turn, offer=offer,
                hand_scores=[list(row) for row in state.hand_scores], rebuilds=state.rebuilds,
                deal_seeds=list(state.seeds), last_result=state.last_result,
                outcome=None if state.outcome() is None else state.outcome().to_dict(),
                hand_events_from=state.hand_events_from, events=[event.to_dict() for event in state.events],
                rng=rng_state(state.rng))


def from_position(rules: Rules | str | None = None, *, hands: Mapping[int, str] | Sequence[str] | None = None,
                  seats: int | None = None, hand_number: int = 1, dealer: int | None = None,
                  phase: str = 'offer', turn: int = 0, stock: str = '', stock_size: int | None = None,
                  discard: str = '', melds: Sequence[tuple[int, str]] = (), down: Sequence[bool] | None = None,
                  down_this_turn: bool = False, offer: Mapping[str, Any] | None = None,
                  hand_scores: Sequence[Sequence[int]] | None = None, rebuilds: int = 0,
                  seed: int | str = 0, hand_seeds: HandSeeds | None = None,
                  deal_seeds: Sequence[str] | None = None, last_result: Mapping[str, Any] | None = None,
                  outcome: Mapping[str, Any] | None = None, hand_events_from: int = 0,
                  events: Sequence[Mapping[str, Any]] = (), rng: Sequence[Any] | None = None) -> GameState:
    """The hand as described; every card not named is dealt from a ``random.Random(seed)`` shuffle.

    ``hands``: every seat's hand (a list) or some of them (``{seat: text}``, with ``seats``); a
    player not down is dealt the contract's cards (one more when on turn in the play phase), a
    player down must be named. ``phase``: 'offer' (the discard top is offered), 'draw' (the offer
    round closed: ``turn`` draws from the stock) or 'play' (``turn`` has drawn). ``stock`` (its top
    cards) and ``discard`` are written bottom to top (the last card is the top); without a
    ``discard`` one dealt card starts it. The stock holds every card left, or ``stock_size`` cards
    with the discard pile holding the others under the named ones. ``melds``: (owner, cards) on
    the table, runs in their order; ``down`` (default: the owners) says who is down, each owning
    exactly the contract's melds. ``offer``: its ``discarder`` (default the player before ``turn``;
    None for the card turned up at the deal), ``order`` (checked against the rules) and who
    ``passed``. ``dealer`` defaults to the player before ``turn``; ``hand_scores``: the earlier
    hands' scores (default all 0). ``hand_seeds`` gives the next hands' seeds, as in ``new_game``;
    ``deal_seeds`` the seed of every hand so far, this one last (default: drawn from the shuffle's
    generator). The history, as ``position`` writes it (default: none): ``events`` (event dicts)
    from ``hand_events_from`` on for this hand, ``last_result``, ``rng`` (the generator's state;
    default: the shuffle's generator). Phase 'over' is the game after its last hand, with its
    ``outcome`` and every hand's scores: every card is named where the last hand left it.
    Refuses an impossible position with a ValueError saying what is wrong. ``rules``
    may instead be the text ``position`` writes, which names everything else.

    >>> from app.engine.continental import PassOffer, Rules, from_position
    >>> state = from_position(Rules(), hands=['7s 7h 9d 9h 2c 5s', '3c 4c 5c 6c 8h 8d'], discard='4c 7d',
    ...                       offer={'discarder': 1}, seed=5)
    >>> view = state.view(0)
    >>> str(view.offer.card), view.offer.order, view.stock_size, view.legal_actions
    ('7d', (0,), 94, (TakeOffer(), PassOffer()))
    >>> state.apply(0, PassOffer()) and state.view(0).phase
    'draw'
    """
    if isinstance(rules, str):
        named_values = keywords(rules)
        return from_position(Rules.from_dict(named_values.pop('rules', {})), hand_seeds=hand_seeds, **named_values)
    rules = rules or Rules()
    seats = seat_count(hands, seats, 2, 6, 'Continental')
    hand_number = count(hand_number, 'hand_number', 1, rules.hands)   # a game of fewer hands ends sooner
    wanted = contract(hand_number)
    history = _history(last_result, outcome, hand_events_from, events, rng, phase)
    if phase == 'over':
        return _with_history(_over(rules, seats, hands, hand_number, dealer, turn, stock, discard, melds, down,
                                   down_this_turn, hand_scores, rebuilds, hand_seeds, deal_seeds, history['rng']),
                             history)
    if phase not in PHASES:
        raise ValueError(f'phase must be one of {", ".join(PHASES)} (a hand in progress), not {phase!r}')
    turn = seat(turn, seats, 'turn')
    dealer = seat((turn - 1) % seats if dealer is None else dealer, seats, 'dealer')
    rebuilds = count(rebuilds, 'rebuilds', 0, rules.stock_rebuilds or None)
    if stock_size is not None:
        stock_size = count(stock_size, 'stock_size')
    scores = _hand_scores(hand_scores, hand_number, seats)

    named = Named(french_deck(), parse_french)
    table = _melds(melds, seats, named)
    down = _down(down, table, seats, wanted)
    if down_this_turn and not (phase == 'play' and down[turn]):
        raise ValueError(f'down_this_turn: seat {turn} goes down in its play phase, so it is down and the phase '
                         'is play')
    held = {s: named.cards(text, f'the hand of seat {s}') for s, text in per_seat(hands, seats, 'hands').items()}
    pile = named.cards(discard, 'the discard pile')
    top = named.cards(stock, 'the stock')
    for s in range(seats):
        if s not in held and down[s]:
            raise ValueError(f'seat {s} is down: name its hand (what is left of it is not fixed by the rules)')
        if s in held:
            _check_hand(s, len(held[s]), down[s], wanted.cards, phase == 'play' and s == turn)

    rng = random.Random(seed)
    spare = named.rest(rng)
    for s in range(seats):
        if s not in held:
            held[s] = deal(spare, wanted.cards + (phase == 'play' and s == turn))
    if stock_size is None:
        pile = pile or deal(spare, min(1, len(spare)))
    elif not len(top) <= stock_size <= len(top) + len(spare):
        raise ValueError(f'stock_size {stock_size}: the stock holds the {len(top)} cards named for it and at '
                         f'most the {len(spare)} nobody named')
    else:
        pile = deal(spare, len(spare) - (stock_size - len(top))) + pile

    state = GameState(rules, seats, history['rng'] or rng, hand_seeds)
    if deal_seeds is None:
        state.seeds = [new_hand_seed(rng) for _ in range(hand_number)]
    elif isinstance(deal_seeds, str) or len(deal_seeds) != hand_number or not all(isinstance(s, str) for s in deal_seeds):
        raise ValueError(f'deal_seeds: the seeds of the {hand_number} hands dealt so far, as texts, not {deal_seeds!r}')
    else:
        state.seeds = list(deal_seeds)
    state.hand_number, state.dealer, state.hand_scores = hand_number, dealer, scores
    state.hands = [held[s] for s in range(seats)]
    state.stock, state.discard, state.melds = spare + top, pile, table
    state.down, state.down_this_turn, state.rebuilds = down, down_this_turn, rebuilds
    state.phase, state.turn = phase, turn
    state.offer = _offer(offer, state) if phase == 'offer' else _no_offer(offer, phase)
    if phase == 'draw' and not state._can_draw(len(pile)):
        raise ValueError('the offer round has closed, but no card can be drawn (the stock is empty and the discard '
                         'pile gives none): the hand would be over')
    return _with_history(state, history)


def _history(last_result: Mapping[str, Any] | None, outcome: Mapping[str, Any] | None, hand_events_from: int,
             events: Sequence[Mapping[str, Any]], rng: Sequence[Any] | None, phase: str) -> dict[str, Any]:
    """The history keywords checked and read (``rng`` None when not given)."""
    if (outcome is not None) != (phase == 'over'):
        raise ValueError('outcome: a finished game (phase over) has one, and only it')
    if last_result is not None and not isinstance(last_result, Mapping):
        raise ValueError(f'last_result: the result of the last hand as position() writes it, not {last_result!r}')
    try:
        return {'last_result': None if last_result is None else dict(last_result),
                'outcome': None if outcome is None else Outcome.from_dict(outcome),
                'hand_events_from': count(hand_events_from, 'hand_events_from', 0, len(events)),
                'events': [Event.from_dict(event) for event in events],
                'rng': None if rng is None else rng_from_state(rng)}
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        raise ValueError(f'the history (outcome, events, rng) as position() writes it: {error!r}') from None


def _with_history(state: GameState, history: dict[str, Any]) -> GameState:
    state.last_result, state._outcome = history['last_result'], history['outcome']
    state.events, state.hand_events_from = history['events'], history['hand_events_from']
    return state


def _over(rules: Rules, seats: int, hands: Any, hand_number: int, dealer: int | None, turn: int, stock: str,
          discard: str, melds: Sequence[tuple[int, str]], down: Sequence[bool] | None, down_this_turn: bool,
          hand_scores: Sequence[Sequence[int]] | None, rebuilds: int, hand_seeds: HandSeeds | None,
          deal_seeds: Sequence[str] | None, rng: random.Random | None) -> GameState:
    """A finished game: the last hand's cards, every one named, and the scores of all its hands."""
    last = rules.hands
    if hand_number != last:
        raise ValueError(f'phase over: the game ends after hand {last}, not {hand_number}')
    named = Named(french_deck(), parse_french)
    table = _melds(melds, seats, named)
    listed = per_seat(hands, seats, 'hands')
    if len(listed) != seats:
        raise ValueError(f'hands: a finished game shows every hand, so name all {seats}')
    held = [named.cards(listed[s], f'the hand of seat {s}') for s in range(seats)]
    pile, top = named.cards(discard, 'the discard pile'), named.cards(stock, 'the stock')
    if named.rest(random.Random(0)):
        raise ValueError('phase over: every card is named, the hands, melds, discard pile and the whole stock')
    if isinstance(deal_seeds, str) or deal_seeds is None or len(deal_seeds) != last or \
            not all(isinstance(s, str) for s in deal_seeds):
        raise ValueError(f'deal_seeds: the seeds of the {last} hands, as texts, not {deal_seeds!r}')
    state = GameState(rules, seats, rng or random.Random(0), hand_seeds)
    state.seeds, state.hand_number = list(deal_seeds), hand_number
    state.dealer, state.turn = seat(0 if dealer is None else dealer, seats, 'dealer'), seat(turn, seats, 'turn')
    state.hand_scores = _hand_scores(hand_scores, last + 1, seats)
    state.hands, state.stock, state.discard, state.melds = held, top, pile, table
    state.down, state.down_this_turn = _down(down, table, seats, contract(last)), bool(down_this_turn)
    state.rebuilds = count(rebuilds, 'rebuilds', 0, rules.stock_rebuilds or None)
    state.phase, state.offer = 'over', None
    return state


def _hand_scores(rows: Sequence[Sequence[int]] | None, hand_number: int, seats: int) -> list[list[int]]:
    rows = [[0] * seats for _ in range(hand_number - 1)] if rows is None else [list(row) for row in rows]
    if len(rows) != hand_number - 1 or any(len(row) != seats for row in rows):
        raise ValueError(f'hand_scores: hand {hand_number} comes after {hand_number - 1} scored hands, one score '
                         f'for each of {seats} seats in each')
    for row in rows:
        for score in row:
            if isinstance(score, bool) or not isinstance(score, int):
                raise ValueError(f'hand_scores: {score!r} is not a score')
    return rows


def _melds(melds: Sequence[tuple[int, str]], seats: int, named: Named) -> list[TableMeld]:
    table = []
    for index, (owner, text) in enumerate(melds):
        owner = seat(owner, seats, f'the owner of meld {index}')
        meld = table_meld(index, owner, named.cards(text, f'meld {index}'))
        if meld is None:
            raise ValueError(f'meld {index} ({text}) is neither a set nor a run')
        table.append(meld)
    return table


def _down(down: Sequence[bool] | None, table: list[TableMeld], seats: int, wanted: Contract) -> list[bool]:
    owners = {meld.owner for meld in table}
    if down is None:
        down = [s in owners for s in range(seats)]
    down = [bool(flag) for flag in down]
    if len(down) != seats:
        raise ValueError(f'down: {len(down)} values listed for {seats} seats')
    for s in range(seats):
        kinds = [meld.kind for meld in table if meld.owner == s]
        if not down[s] and kinds:
            raise ValueError(f'seat {s} owns melds on the table, so it is down')
        if down[s] and (kinds.count('set'), kinds.count('run')) != (wanted.sets, wanted.runs):
            raise ValueError(f'seat {s} is down, so it laid down what hand {wanted.number} asks for, '
                             f'{wanted.sets} set(s) and {wanted.runs} run(s), not {kinds.count("set")} and '
                             f'{kinds.count("run")}')
    return down


def _check_hand(s: int, size: int, down: bool, dealt: int, drawn: bool) -> None:
    if down:
        if not size:
            raise ValueError(f'seat {s} holds no card: a player keeps one to discard, and going out ends the hand')
        return
    # off turn a player not down holds what was dealt and two more for each discard taken out of turn
    if size < dealt + drawn or (size - dealt - drawn) % 2:
        now = f'{dealt + 1} after drawing' if drawn else str(dealt)
        raise ValueError(f'seat {s} holds {size} cards, but a player not down holds {now}, and two more for each '
                         'discard taken out of turn')


def _offer(offer: Mapping[str, Any] | None, state: GameState) -> dict[str, Any]:
    offer = dict(offer or {})
    if set(offer) - OFFER_KEYS:
        raise ValueError(f'offer: unknown keys {sorted(set(offer) - OFFER_KEYS)} (it has {sorted(OFFER_KEYS)})')
    if not state.discard:
        raise ValueError('phase offer: the discard pile is empty, so no card is on offer')
    seats, turn = state.seats, state.turn
    discarder = offer.get('discarder', (turn - 1) % seats)
    if discarder is None and turn != (state.dealer + 1) % seats:
        raise ValueError(f'offer: the card turned up at the deal (no discarder) is offered first to the seat after '
                         f'the dealer, seat {(state.dealer + 1) % seats}, not to seat {turn}')
    if discarder is not None and seat(discarder, seats, 'offer discarder') != (turn - 1) % seats:
        raise ValueError(f'offer: seat {turn} is on turn, so the card on offer was discarded by seat '
                         f'{(turn - 1) % seats}, not {discarder}')
    order = [(turn + step) % seats for step in range(seats)] if state.rules.robo_de_contra else [turn]
    order = [s for s in order if s != discarder]
    if list(offer.get('order', order)) != order:
        raise ValueError(f'offer: the card is offered to {order} in turn, not {list(offer["order"])}')
    passed = list(offer.get('passed', []))
    if passed != order[:len(passed)] or len(passed) >= len(order):
        raise ValueError(f'offer: passed {passed} must be the first seats of {order} to be asked, one at least '
                         'still to answer')
    return {'card': state.discard[-1], 'discarder': discarder, 'order': order, 'passed': passed}


def _no_offer(offer: Mapping[str, Any] | None, phase: str) -> None:
    if offer is not None:
        raise ValueError(f'offer: a card is on offer only in the offer phase, not in {phase}')
    return None
