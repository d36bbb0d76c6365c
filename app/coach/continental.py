"""The coach's evaluator for Continental: the reviewed seat's decisions and what each option was worth.

Decisions (one per step where the seat had more than one legal action):

offer    take the card on offer (as the draw, or out of turn: the robo de contra) or pass.
down     go down now or not yet. Going down is the arrangement played and the solver's (the one
         the computer players lay down); "not yet" has no action of its own in the engine: the
         seat's turn goes on to a discard, so it is written as that discard. When the seat waited
         it is the card it threw (and the normal player's discard beside it, so that waiting is not
         blamed for a poor card); when it went down it is the normal player's discard from the
         whole hand.
layoff   lay a card off (the one played, and the costliest cards that fit, one option each) or
         not: "not" is again a discard, the one played or the normal player's.
discard  which card to throw: the one played, the normal player's and the cards that link least
         with the rest, five at most.

Values: a world deals the cards the seat cannot see (two decks and four jokers, less its hand, the
table, the discard pile and the cards rivals were seen to take and have not shown since) to the
rivals' hidden cards and the stock; every option is played in every world, then every seat plays
on as the normal computer player until the hand ends, or until the seat has thrown ``HORIZON``
cards (this turn's included) and the others have answered the last one; a hand cut short counts
the points it is likely to end with (``estimate``). The seat's result is the mean of the others'
points less its own (higher is better). The work is counted in rollouts and turns, never in time.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from app.ai.continental import FAR, ContinentalBot, link_score
from app.engine.cards import JOKER, Card, french_card, french_deck
from app.engine.continental import (Discard, DrawStock, GameState, GoDown, LayOff, PassOffer, TakeOffer, View,
                                    can_go_down, card_points, solve)
from app.engine.protocol import rng_state
from app.coach.core import Decision, option_index

# chosen on normal self-play at 3 seats (p95 about 210 ms a decision, the paired differences' standard
# error about 4 points); python -m app.bench.coach measures them again
ROLLOUTS = 40               # rollouts per decision, shared out among its options...
MIN_WORLDS = 8              # ...but never fewer worlds than this
HORIZON = 2                 # the seat's own discards to play (this turn's counts), then hands are estimated
MAX_DISCARDS = 5            # discard options, the one played and the normal player's among them
MAX_LAYOFFS = 3             # lay-off options besides the one played (the costliest cards first)
LEVEL = 'normal'
_DECK = Counter(french_deck())


class ContinentalEvaluator:
    game_id = 'continental'

    def __init__(self, rollouts: int = ROLLOUTS, min_worlds: int = MIN_WORLDS,
                 horizon: int = HORIZON) -> None:
        self.rollouts = rollouts
        self.min_worlds = min_worlds
        self.horizon = horizon

    def worlds(self, decision: Decision) -> int:
        """Worlds for this decision: the rollouts shared out among its options, never too few."""
        return max(self.min_worlds, self.rollouts // len(decision.options))

    def decisions(self, replay: Any, seat: int) -> list[Decision]:
        found = []
        for index in range(1, len(replay.steps)):
            step = replay.steps[index]
            if step.seat != seat:
                continue
            view = replay.steps[index - 1].views[seat]
            if len(view.legal_actions) < 2:
                continue
            kind, options = decision_options(view, step.action)
            options, chosen = option_index(options, (step.action,))
            if len(options) > 1:
                found.append(Decision(index, 1, kind, view, options, chosen))
        return found

    def values(self, decision: Decision, rng: random.Random) -> list[list[float]]:
        """The seat's result of every option (inner list) in every world (outer)."""
        view = decision.view
        known = Knowledge.of(view)
        estimates: dict = {}    # a hand cut short, as often met again in another option's rollout
        rollouts = []
        for _ in range(self.worlds(decision)):
            world = known.deal(rng)
            bots_seed = rng.getrandbits(64)
            rollouts.append([play_out(world.state(), view.seat, option, bots_seed, self.horizon, estimates)
                             for option in decision.options])
        return rollouts


EVALUATOR = ContinentalEvaluator()


# the options of a decision ---------------------------------------------------------------------
def decision_options(view: View, played: Any) -> tuple[str, list[tuple[Any, ...]]]:
    """The decision's kind and the options worth weighing (the played one is added by the caller)."""
    legal = view.legal_actions
    if view.phase == 'offer':
        return 'offer', [(TakeOffer(),), (PassOffer(),)]
    go_downs = [action for action in legal if isinstance(action, GoDown)]
    lay_offs = [action for action in legal if isinstance(action, LayOff)]
    discards = [action for action in legal if isinstance(action, Discard)]
    if not go_downs and not lay_offs:
        return 'discard', [(action,) for action in likely_discards(view, played, discards)]
    # "not yet" / "not laying off": the discard played, and the normal player's
    instead = [(played,)] if isinstance(played, Discard) else []
    instead.append((normal_discard(view, discards),))
    if go_downs:
        going = [(played,)] if isinstance(played, GoDown) else []
        return 'down', going + [(go_downs[0],)] + instead
    by_card: dict[Card, LayOff] = {}
    for action in lay_offs:
        by_card.setdefault(action.card, action)
    if isinstance(played, LayOff):
        by_card[played.card] = played
    chosen = [(played,)] if isinstance(played, LayOff) else []
    costly = sorted(by_card.values(), key=lambda action: (-card_points(action.card), action.card))
    return 'layoff', chosen + [(action,) for action in costly[:MAX_LAYOFFS]] + instead


def likely_discards(view: View, played: Any, discards: list[Discard]) -> list[Discard]:
    """At most ``MAX_DISCARDS``: the one played, the normal player's, then the cards that link
    least with the rest of the hand (once down: the costliest), so a long hand's thirteen cards
    cost no more than five."""
    hand = list(view.hand)
    sets, runs = view.contract.sets, view.contract.runs
    if view.down[view.seat]:
        ranked = sorted(discards, key=lambda action: (-card_points(action.card), action.card))
    else:
        ranked = sorted(discards, key=lambda action: (link_score(action.card, hand, sets, runs)
                                                      - card_points(action.card) / 10, action.card))
    first = [played] if isinstance(played, Discard) else []
    return list(dict.fromkeys(first + [normal_discard(view, discards)] + ranked))[:MAX_DISCARDS]


def normal_discard(view: View, discards: list[Discard]) -> Discard:
    """The discard the normal computer player makes from this view once going down and laying off
    are set aside (it decides from the view alone; at this level it draws nothing at random)."""
    return ContinentalBot(LEVEL, random.Random(0)).choose(replace(view, legal_actions=tuple(discards)))


# what the seat knows, and the worlds that fit it -------------------------------------------------
class Knowledge:
    """The cards a view pins down: its hand, the table, the discard pile (followed through the hand's
    events; when they do not tell it all, as in a position set up by hand, only its top is known)
    and the cards each rival was seen to take from the pile and has not shown since."""

    def __init__(self, view: View, pile: list[Card] | None, held: list[Counter]) -> None:
        self.view = view
        self.pile = pile
        self.held = held
        unseen = _DECK - Counter(view.hand) - Counter(card for meld in view.melds for card in meld.cards)
        unseen -= Counter(pile if pile is not None else [view.discard_top] if view.discard_top else [])
        for cards in held:
            unseen -= cards
        self.unseen = sorted(unseen.elements())
        hidden = sum(size - sum(held[seat].values()) for seat, size in enumerate(view.hand_sizes) if seat != view.seat)
        under_top = 0 if pile is not None else max(0, view.discard_size - 1)
        if hidden + view.stock_size + under_top != len(self.unseen):
            raise ValueError(f'the view does not add up: {len(self.unseen)} cards unseen for {hidden} hidden in '
                             f'hands, {view.stock_size} in the stock and {under_top} under the pile top')

    @classmethod
    def of(cls, view: View) -> 'Knowledge':
        pile: list[Card] = []
        held = [Counter() for _ in range(view.seats)]
        for event in view.events:
            kind, seat, data = event.kind, event.seat, event.data
            if kind == 'offer' and data.get('discarder') is None and not pile:
                pile.append(french_card(data['card']))     # turned up at the deal
            elif kind == 'discard':
                card = french_card(data['card'])
                pile.append(card)
                if held[seat][card]:
                    held[seat][card] -= 1
            elif kind == 'take_offer':
                card = pile.pop() if pile else french_card(data['card'])
                if seat != view.seat:
                    held[seat][card] += 1
            elif kind == 'reshuffle':
                pile = pile[-1:]
            elif kind in ('go_down', 'lay_off'):
                shown = ([item['card'] for meld in data['melds'] for item in meld['cards']]
                         if kind == 'go_down' else [data['card']])
                for card in map(french_card, shown):
                    if held[seat][card]:
                        held[seat][card] -= 1
        held = [+cards for cards in held]
        if len(pile) != view.discard_size or (pile and pile[-1] != view.discard_top):
            pile, held = None, [Counter() for _ in range(view.seats)]
        return cls(view, pile, held)

    def deal(self, rng: random.Random) -> 'World':
        cards = list(self.unseen)
        rng.shuffle(cards)
        view = self.view
        hands = []
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                hands.append(list(view.hand))
                continue
            known = list(self.held[seat].elements())
            hands.append(known + [cards.pop() for _ in range(size - len(known))])
        pile = self.pile if self.pile is not None else (
            [cards.pop() for _ in range(view.discard_size - 1)] + [view.discard_top])
        return World(view, hands, cards, pile, f'{rng.getrandbits(128):032x}')


class World:
    """One deal of the unseen cards, as many fresh game states as the options need."""

    def __init__(self, view: View, hands: list[list[Card]], stock: list[Card], pile: list[Card], seed: str) -> None:
        offer = None
        if view.offer is not None:
            offer = {'card': str(view.offer.card), 'discarder': view.offer.discarder,
                     'order': list(view.offer.order), 'passed': list(view.offer.passed)}
        self.raw = {
            'game': 'continental', 'rules': view.rules.to_dict(), 'seats': view.seats,
            'rng': rng_state(random.Random(seed)), 'hand_number': view.hand_number, 'dealer': view.dealer,
            'seeds': [seed] * view.hand_number, 'hands': [[str(card) for card in hand] for hand in hands],
            'stock': [str(card) for card in stock], 'discard': [str(card) for card in pile],
            'melds': [meld.to_dict() for meld in view.melds], 'down': list(view.down),
            'down_this_turn': _down_this_turn(view), 'rebuilds': view.stock_rebuilds, 'phase': view.phase,
            'turn': view.on_turn, 'offer': offer, 'hand_scores': [list(row) for row in view.hand_scores],
            'last_result': view.last_result, 'events': [event.to_dict() for event in view.events],
            'hand_events_from': 0, 'outcome': None,
        }
        self.seed = seed

    def state(self) -> GameState:
        return GameState.from_dict(self.raw, hand_seeds=lambda: self.seed)


def _down_this_turn(view: View) -> bool:
    """The seat on turn went down in this turn (so going out now scores -20): a go-down after the
    offer that opened the turn."""
    if view.phase != 'play':
        return False
    for event in reversed(view.events):
        if event.kind == 'offer':
            return False
        if event.kind == 'go_down' and event.seat == view.on_turn:
            return True
    return False


# playing a world out ---------------------------------------------------------------------------
def play_out(state: GameState, seat: int, option: tuple[Any, ...], bots_seed: int, horizon: int,
             estimates: dict) -> float:
    """The seat's result after ``option``, every seat then playing as the normal computer player
    until the hand ends (its points), or until the seat has thrown ``horizon`` cards and the
    others have answered the last (the points each hand is likely to end with: ``estimate``)."""
    thrown = 0
    for action in option:
        points = _hand_end(state.apply(seat, action))
        if points is not None:
            return _result(points, seat)
        thrown += isinstance(action, Discard)
    bots = [ContinentalBot(LEVEL, random.Random(bots_seed + other)) for other in range(state.seats)]
    hand_number = state.hand_number
    while thrown < horizon or state.phase == 'offer':
        actor = state.current_seat
        # the draw from the stock is the only action then: no view to build for it
        action = DrawStock() if state.phase == 'draw' else bots[actor].choose(state.view(actor))
        points = _hand_end(state.apply(actor, action))
        if points is not None:
            return _result(points, seat)
        thrown += actor == seat and isinstance(action, Discard)
    points = []
    for other, hand in enumerate(state.hands):
        key = (state.down[other], frozenset(Counter(hand).items()))
        if key not in estimates:
            estimates[key] = estimate(hand, state.down[other], hand_number)
        points.append(estimates[key])
    return _result(points, seat)


# A hand cut short is counted by what such hands end with (a least-squares fit of the final points
# to 5,000 hands seen mid-way in 14 games of normal self-play; "as they stand" was 49 points too
# high on average and made throwing a joker look like a gift): a player down ends with about its
# cards' points; one not down with the points its best arrangement leaves out (the wild cards it
# still lacks standing in), 0.4 of the naturals that arrangement uses (it may never get down) and
# 9 points more per card lacking, its jokers counting nothing (they will be melded).
MELDED_SHARE = 0.4
PER_CARD_LACKING = 9
OFFSET = -10
FAR_SHARE = 0.7     # a hand too far from its contract to measure: this share of its points


def estimate(hand: list[Card], down: bool, hand_number: int) -> float:
    points = sum(card_points(card) for card in hand)
    if down:
        return points
    lacking = _lacking(hand, hand_number)
    if lacking >= FAR:
        return FAR_SHARE * points
    arrangement = solve(hand + [JOKER] * lacking, hand_number, keep=0)
    if arrangement is None:
        return FAR_SHARE * points
    left = sum(card_points(card) for card in arrangement.left if not card.is_joker)
    melded = sum(card_points(card) for meld in arrangement.melds for card in meld if not card.is_joker)
    # the wild cards it lacks stand in the melds as jokers: they are no natural of its own
    return max(0.0, left + MELDED_SHARE * melded + PER_CARD_LACKING * lacking + OFFSET)


def _lacking(hand: list[Card], hand_number: int) -> int:
    """The fewest wild cards that complete the contract (FAR when more), by bisection: with one
    more wild card a hand that could go down still can."""
    low, high = 0, FAR       # the answer is in [low, high]
    while low < high:
        middle = (low + high) // 2
        if can_go_down(hand + [JOKER] * middle, hand_number, keep=0):
            high = middle
        else:
            low = middle + 1
    return low


def _hand_end(events: list) -> list[int] | None:
    for event in events:
        if event.kind == 'hand_end':
            return list(event.data['points'])
    return None


def _result(points: list[float], seat: int) -> float:
    others = [value for other, value in enumerate(points) if other != seat]
    return sum(others) / len(others) - points[seat]
