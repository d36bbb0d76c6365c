"""A game of Ronda Robada in progress, built from the cards a player would describe."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.engine.cards import Card, HandSeeds, new_hand_seed, parse_spanish, spanish_deck
from app.engine.actions_json import action_to_json
from app.engine.errors import IllegalAction
from app.engine.protocol import Event, Outcome, rng_from_state, rng_state
from app.engine.positions import Named, cards_text, count, deal, keywords, per_seat, seat, seat_count, text
from app.engine.ronda_robada.model import ACTIONS, CENTRE_CARDS, HAND_CARDS, MAX_SEATS, MIN_SEATS, RANK_ORDER, Rules
from app.engine.ronda_robada.state import GameState, _Run

DECK_SIZE = 40


def position(state: GameState) -> str:
    """The text of ``state``'s position, the inverse of ``from_position``: every card where it lies
    (the whole stock, front first; the piles bottom to top; the run in progress), the deal's seed
    and the history (the generator, the events, the actions, the outcome), so that
    ``from_position(position(state))`` saves exactly as ``state`` does, a finished game too."""
    run = state.run
    outcome = state.outcome()
    return text(hands=[cards_text(hand) for hand in state.hands],
                loose=cards_text(state.loose), piles=[cards_text(pile) for pile in state.piles],
                stock=cards_text(state.stock), current=state.current_seat, dealer=state.dealer,
                last_runner=state.last_runner,
                run=None if run is None else {'played': str(run.played), 'rank': run.rank, 'closed': run.closed,
                                              'loose': cards_text(run.loose),
                                              'piles': [(owner, cards_text(cards)) for owner, cards in run.piles]},
                deal_seed=state.seed, outcome=None if outcome is None else outcome.to_dict(),
                events=[event.to_dict() for event in state.events],
                actions=[[seat_, action_to_json(action)] for seat_, action in state.actions],
                rng=rng_state(state.rng))


def from_position(rules: Rules | str | None = None, *, hands: Mapping[int, str] | Sequence[str] | None = None,
                  seats: int | None = None, loose: str = '', piles: Mapping[int, str] | Sequence[str] | None = None,
                  pile_sizes: Mapping[int, int] | Sequence[int] | None = None, stock: str = '',
                  current: int | None = None, dealer: int | None = None, last_runner: int | None = None,
                  seed: int | str = 0, hand_seeds: HandSeeds | None = None, run: Mapping[str, Any] | None = None,
                  deal_seed: str | None = None, outcome: Mapping[str, Any] | None = None,
                  events: Sequence[Mapping[str, Any]] = (), actions: Sequence[Sequence[Any]] = (),
                  rng: Sequence[Any] | None = None) -> GameState:
    """The game as described, at the start of ``current``'s turn; every card not named is dealt
    from a ``random.Random(seed)`` shuffle.

    ``hands``: every seat's hand (a list) or some of them (``{seat: text}``, with ``seats``); the
    others are dealt what the round has left them: a round goes from the seat after the ``dealer``
    (default: the player before ``current``), so those who came before ``current`` have played
    and hold one card fewer than the rest. ``loose``: the cards in the centre. ``piles``: each
    seat's won cards, bottom to top (the last is the visible top); ``pile_sizes``: how many cards
    each pile holds in all, the unnamed ones dealt under the named (default: as named). ``stock``:
    its first cards, front first (the next dealt first); it also holds every card left, so its size
    must be one the deal leaves (36 less 3 per player for each deal). ``last_runner``: who made the
    last run (needed once anybody has a pile). ``hand_seeds`` is taken for the protocol's sake: a
    game of Ronda Robada is one hand. ``run``: the run ``current`` is making, as ``position`` writes
    it (the hand card ``played``, the ``loose`` cards and the ``piles`` (owner, cards) it took, the
    ``rank`` reached and whether it ``closed``). ``deal_seed``: the deal's seed (default: drawn
    from the shuffle's generator). The history, as ``position`` writes it (default: none):
    ``events`` (event dicts), ``actions`` ([seat, action JSON] pairs), ``rng`` (the generator's
    state; default: the shuffle's generator). A finished game has its ``outcome`` and nobody on
    turn (``current`` None): every card is named where the game left it. Refuses an impossible position with a ValueError. ``rules``
    may instead be the text ``position`` writes, which names everything else.

    >>> from app.engine.ronda_robada import from_position
    >>> state = from_position(hands=['5o 7c 2b', '1e 3e 4e'], loose='5c 5e 3b', piles=['', '4b'],
    ...                       pile_sizes=[0, 19], stock='6o 6c 6e 6b 7o 7e', last_runner=1, seed=3)
    >>> view = state.view(0)
    >>> [str(card) for card in view.pile_tops if card], view.pile_sizes, view.stock_size
    (['4b'], (0, 19), 12)
    >>> [str(action.card) for action in state.legal_actions(0) if action.kind == 'start_run']
    ['5o', '5o']
    """
    if isinstance(rules, str):
        named_values = keywords(rules)
        return from_position(Rules.from_dict(named_values.pop('rules', {})), hand_seeds=hand_seeds, **named_values)
    rules = rules or Rules()
    seats = seat_count(hands, seats, MIN_SEATS, MAX_SEATS, 'Ronda Robada')
    history = _history(outcome, events, actions, rng)
    if outcome is not None:
        return _over(rules, seats, hands, loose, piles, stock, current, dealer, last_runner, run, deal_seed, history)
    current = seat(0 if current is None else current, seats, 'current')
    dealer = seat((current - 1) % seats if dealer is None else dealer, seats, 'dealer')
    if last_runner is not None:
        last_runner = seat(last_runner, seats, 'last_runner')

    named = Named(spanish_deck(), parse_spanish)
    held = {s: named.cards(text, f'the hand of seat {s}') for s, text in per_seat(hands, seats, 'hands').items()}
    centre = named.cards(loose, 'the loose cards')
    won = {s: named.cards(text, f'the pile of seat {s}') for s, text in per_seat(piles, seats, 'piles').items()}
    front = named.cards(stock, 'the stock')
    taking = None if run is None else _run(run, named, seats, current)
    sizes = _hand_sizes(held, seats, current, dealer, taking is not None)
    pile_size = {s: len(won.get(s, [])) for s in range(seats)}
    for s, size in per_seat(pile_sizes, seats, 'pile_sizes').items():
        pile_size[s] = count(size, f'the pile size of seat {s}', len(won.get(s, [])))
    _check_piles(pile_size, last_runner, taking)

    rng = random.Random(seed)
    spare = named.rest(rng)
    buried = sum(pile_size.values()) - sum(len(cards) for cards in won.values())
    unnamed_hands = sum(sizes[s] for s in range(seats) if s not in held)
    if buried + unnamed_hands > len(spare):
        raise ValueError(f'the piles and the hands not named need {buried + unnamed_hands} more cards, but only '
                         f'{len(spare)} are left: smaller pile_sizes, or fewer cards named')
    stock_size = len(front) + len(spare) - buried - unnamed_hands
    deal_size = HAND_CARDS * seats
    largest = DECK_SIZE - CENTRE_CARDS - deal_size
    if stock_size % deal_size or stock_size > largest:
        more = sorted(stock_size - size for size in range(len(front), min(stock_size, largest) + 1)
                      if not size % deal_size)
        advice = f'the piles would need {_either(more)} more cards (pile_sizes)' if more else 'name fewer for it'
        raise ValueError(f'the stock would hold {stock_size} cards (all that the hands, the loose cards and the '
                         f'piles leave), but after each deal it holds a multiple of {deal_size} ({HAND_CARDS} for '
                         f'each of {seats} players), at most {largest}: {advice}')
    hands_now = [held[s] if s in held else deal(spare, sizes[s]) for s in range(seats)]
    piles_now = [deal(spare, pile_size[s] - len(won.get(s, []))) + won.get(s, []) for s in range(seats)]
    if deal_seed is not None and (not isinstance(deal_seed, str) or not deal_seed):
        raise ValueError(f'deal_seed: the seed of the deal, a text, not {deal_seed!r}')
    seed = deal_seed or new_hand_seed(rng)
    return GameState(rules, seats, seed, stock=front + spare, hands=hands_now,
                     loose=centre, piles=piles_now, rng=history['rng'] or rng, current=current, dealer=dealer,
                     last_runner=last_runner, run=taking, events=history['events'], actions=history['actions'])


def _history(outcome: Mapping[str, Any] | None, events: Sequence[Mapping[str, Any]], actions: Sequence[Sequence[Any]],
             rng: Sequence[Any] | None) -> dict[str, Any]:
    """The history keywords checked and read (``rng`` None when not given)."""
    try:
        return {'outcome': None if outcome is None else Outcome.from_dict(outcome),
                'events': [Event.from_dict(event) for event in events],
                'actions': [(seat_, ACTIONS.from_json(action)) for seat_, action in actions],
                'rng': None if rng is None else rng_from_state(rng)}
    except (KeyError, TypeError, AttributeError, IndexError, ValueError, IllegalAction) as error:
        raise ValueError(f'the history (outcome, events, actions, rng) as position() writes it: {error!r}') from None


def _over(rules: Rules, seats: int, hands: Any, loose: str, piles: Any, stock: str, current: int | None,
          dealer: int | None, last_runner: int | None, run: Mapping[str, Any] | None, deal_seed: str | None,
          history: dict[str, Any]) -> GameState:
    """A finished game: every card named where the game left it, nobody on turn."""
    if current is not None or run is not None:
        raise ValueError('a finished game has nobody on turn (current None) and no run in progress')
    if not isinstance(deal_seed, str) or not deal_seed:
        raise ValueError(f'deal_seed: the seed of the deal, a text, not {deal_seed!r}')
    named = Named(spanish_deck(), parse_spanish)
    listed_hands, listed_piles = per_seat(hands, seats, 'hands'), per_seat(piles, seats, 'piles')
    if len(listed_hands) != seats or len(listed_piles) != seats:
        raise ValueError(f'a finished game names every hand and every pile, all {seats} of each')
    held = [named.cards(listed_hands[s], f'the hand of seat {s}') for s in range(seats)]
    won = [named.cards(listed_piles[s], f'the pile of seat {s}') for s in range(seats)]
    centre, front = named.cards(loose, 'the loose cards'), named.cards(stock, 'the stock')
    if named.rest(random.Random(0)):
        raise ValueError('a finished game names every card: the hands, the loose cards, the piles and the stock')
    return GameState(rules, seats, deal_seed, stock=front, hands=held, loose=centre, piles=won,
                     rng=history['rng'] or random.Random(0), current=None,
                     dealer=seat(0 if dealer is None else dealer, seats, 'dealer'),
                     last_runner=None if last_runner is None else seat(last_runner, seats, 'last_runner'),
                     events=history['events'], actions=history['actions'], result=history['outcome'])


def _run(run: Mapping[str, Any], named: Named, seats: int, current: int) -> _Run:
    """The run in progress; the cards it holds are named like any other."""
    keys = {'played', 'rank', 'closed', 'loose', 'piles'}
    if not isinstance(run, Mapping) or set(run) != keys:
        raise ValueError(f'run: a mapping of {sorted(keys)}, as position() writes it, not {run!r}')
    played = named.cards(run['played'], 'the card played in the run')
    if len(played) != 1:
        raise ValueError(f'run: one card played from the hand, not {run["played"]!r}')
    taken = [(seat(owner, seats, 'the owner of a pile in the run'), named.cards(cards, f'the pile of seat {owner} in the run'))
             for owner, cards in run['piles']]
    rank, closed = run['rank'], run['closed']
    if rank not in RANK_ORDER or not isinstance(closed, bool):
        raise ValueError(f'run: rank is one of {RANK_ORDER} and closed true or false, not {rank!r} and {closed!r}')
    return _Run(current, played[0], rank, closed, named.cards(run['loose'], 'the loose cards of the run'), taken)


def _hand_sizes(held: dict[int, list[Card]], seats: int, current: int, dealer: int, running: bool) -> list[int]:
    """Each seat's hand size: a round deals 3 to everyone and goes round from the dealer's left;
    those who played before ``current`` this round hold one card fewer (``current`` too while it
    is ``running``: its card is in the run)."""
    order = [(dealer + step) % seats for step in range(1, seats + 1)]
    played = set(order[:order.index(current) + running])
    dealt = {len(cards) + (s in played) for s, cards in held.items()} or {HAND_CARDS}
    each = min(dealt)
    if len(dealt) == 1 and 1 <= each <= HAND_CARDS:
        return [each - (s in played) for s in range(seats)]
    sizes = ', '.join(f'seat {s} {len(cards)}' for s, cards in sorted(held.items()))
    raise ValueError(f'hands of sizes that no round leaves ({sizes}): each round deals {HAND_CARDS} cards to '
                     f'every player and goes round from the seat after the dealer (seat {dealer}), so the players '
                     f'before seat {current}, who is on turn, hold one card fewer than the others, and seat '
                     f'{current} holds at least one')


def _either(numbers: list[int]) -> str:
    texts = [str(number) for number in numbers]
    return texts[0] if len(texts) == 1 else f'{", ".join(texts[:-1])} or {texts[-1]}'


def _check_piles(pile_size: dict[int, int], last_runner: int | None, run: _Run | None) -> None:
    for s, size in pile_size.items():
        if size == 1:
            raise ValueError(f'the pile of seat {s} holds 1 card: a run wins at least two (the card played and '
                             'the loose card it matched), so a pile holds none or two or more')
    if any(pile_size.values()) and last_runner is None:
        raise ValueError('somebody has a pile, so somebody has made a run: say who made the last one (last_runner)')
    if last_runner is not None and not pile_size[last_runner] and not (run and any(o == last_runner for o, _ in run.piles)):
        raise ValueError(f'seat {last_runner} made the last run, so nobody has taken its pile since: it cannot be '
                         'empty')
