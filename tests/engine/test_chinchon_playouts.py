"""Seeded random games checked after every action, refusals as a property, save and restore."""
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.cards import cards_str, spanish_deck
from app.engine.chinchon import BuyBack, Close, Discard, DrawDiscard, DrawStock, GameState, Rules, new_game
from app.engine.protocol import IllegalAction


def choose(rng: random.Random, actions: list):
    """A careless player: closes when it can (mostly), draws anything, discards at random."""
    closes = [a for a in actions if isinstance(a, Close)]
    if closes and rng.random() < 0.9:
        return rng.choice(closes)
    draws = [a for a in actions if not isinstance(a, (Discard, Close))]
    return rng.choice(draws or [a for a in actions if isinstance(a, Discard)])


def cards_on_table(raw: dict, face_down: str | None) -> Counter:
    """Every card of the game's decks, ``face_down`` being the closer's card until the next deal."""
    held = [card for hand in raw['hands'] for card in hand]
    return Counter(held + raw['stock'] + raw['discard'] + ([face_down] if face_down else []))


def play(seed: int, seats: int, rules: Rules, max_steps: int = 40000) -> tuple[GameState, Counter]:
    state = new_game(rules, seats, random.Random(seed))
    rng = random.Random(-seed)
    deck = Counter(cards_str(spanish_deck(2 if seats >= 5 else 1)).split())
    kinds = Counter()
    face_down = None
    for step in range(max_steps):
        if state.outcome() is not None:
            break
        seat = state.current_seat
        actions = state.legal_actions(seat)
        assert actions and all(not state.legal_actions(s) for s in range(seats) if s != seat)
        action = choose(rng, actions)
        events = state.apply(seat, action)
        if isinstance(action, Close):
            face_down = str(action.card)
        if any(event.kind == 'deal' for event in events):
            face_down = None
        json.dumps([event.to_dict() for event in events])
        kinds.update(event.kind for event in events)
        assert all(event.data == {} for event in events if event.kind == 'draw_stock')
        view = state.view(seat)
        if view.phase in ('draw', 'discard'):
            assert sum(view.hand_sizes) + view.stock_size + view.discard_size == sum(deck.values())
        if step % 25 == 0 or any(e.kind in ('count', 'void_hand', 'deal') for e in events):
            assert cards_on_table(state.to_dict(), face_down) == deck
    else:
        pytest.fail(f'game {seed} did not end')
    return state, kinds


GAMES = [(seed, 2 + seed % 5, Rules(limit=(50, 100)[seed % 2], buyback=seed % 3 == 0))
         for seed in range(160)]


@pytest.mark.parametrize('first', range(0, 160, 40))
def test_random_games_keep_every_card_and_end(first):
    seen = Counter()
    for seed, seats, rules in GAMES[first:first + 40]:
        state, kinds = play(seed, seats, rules)
        seen.update(kinds)
        outcome = state.outcome()
        assert outcome.winners and state.current_seat is None
        scores = state.view(0).scores
        if outcome.reason == 'last_standing':
            assert [s for s in range(seats) if not state.view(0).eliminated[s]] == list(outcome.winners)
        if outcome.reason == 'fewest_points':
            assert len({scores[s] for s in outcome.winners}) == 1
        json.dumps(state.view(seats - 1).to_dict())
    assert seen['game_over'] == 40
    assert {'count', 'buyback', 'void_hand', 'eliminated', 'reshuffle', 'draw_discard'} <= set(seen)


ALL_ACTIONS = ([DrawStock(), DrawDiscard(), BuyBack(True), BuyBack(False)]
               + [kind(card) for kind in (Discard, Close) for card in spanish_deck()])


@settings(max_examples=150, deadline=None, database=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 80), seat=st.integers(-1, 6),
       action=st.sampled_from(ALL_ACTIONS))
def test_any_action_is_applied_if_offered_else_refused_leaving_the_state_untouched(seed, steps, seat, action):
    rules = Rules(limit=50, buyback=seed % 2 == 0)
    state = new_game(rules, 2 + seed % 5, random.Random(seed))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.outcome() is not None:
            break
        state.apply(state.current_seat, choose(rng, state.legal_actions(state.current_seat)))
    before = state.to_dict()
    if 0 <= seat < state.seats and action in state.legal_actions(seat):
        state.apply(seat, action)
    else:
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, action)
        assert refused.value.code and str(refused.value)
        assert state.to_dict() == before


@pytest.mark.parametrize('seed', range(12))
def test_save_and_restore_mid_hand_continues_identically(seed):
    seats = 2 + seed % 5
    rules = Rules(limit=50, buyback=seed % 2 == 0)
    state = new_game(rules, seats, random.Random(seed))
    rng = random.Random(seed)
    for _ in range(7 + seed * 5):
        state.apply(state.current_seat, choose(rng, state.legal_actions(state.current_seat)))
    copy = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert copy.to_dict() == state.to_dict()
    assert all(copy.view(s) == state.view(s) for s in range(seats))
    twin_rng = random.Random(1000 + seed)
    rng = random.Random(1000 + seed)
    while state.outcome() is None:
        action = choose(rng, state.legal_actions(state.current_seat))
        twin = choose(twin_rng, copy.legal_actions(copy.current_seat))
        assert action == twin
        assert state.apply(state.current_seat, action) == copy.apply(copy.current_seat, twin)
    assert copy.outcome() == state.outcome() and copy.to_dict() == state.to_dict()
