"""Ronda Robada invariants over seeded random games: conservation, termination, refusals,
saving mid-run, and views that never show a hidden card."""
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.cards import spanish_deck
from app.engine.protocol import IllegalAction
from app.engine.ronda_robada import (Confirm, Drop, GameState, Rules, StartRun, TakeLoose, TakePile,
                                     new_game)

DECK = Counter(str(card) for card in spanish_deck())
MAX_ACTIONS = 40 * 12     # every card is played once; a run has at most 11 steps


def cards_in(data):
    """Every card of a saved state, wherever it lies (a run in progress included)."""
    found = data['stock'] + data['loose'] + [card for hand in data['hands'] for card in hand]
    found += [card for pile in data['piles'] for card in pile]
    run = data['run']
    if run is not None:
        found += [run['played']] + run['loose'] + [card for _, cards in run['piles'] for card in cards]
    return Counter(found)


def advance(state, rng, steps=None):
    """Random legal actions until the end (or ``steps`` of them); yields after each one."""
    count = 0
    while state.current_seat is not None and (steps is None or count < steps):
        seat = state.current_seat
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        count += 1
        assert count <= MAX_ACTIONS
        yield seat


@pytest.mark.parametrize('seats', [2, 3, 4])
@pytest.mark.parametrize('seed', range(8))
def test_random_games_keep_all_forty_cards_and_end(seats, seed):
    state = new_game(Rules(), seats, random.Random(seed))
    for _ in advance(state, random.Random(seed)):
        assert cards_in(state.to_dict()) == DECK
    outcome = state.outcome()
    assert outcome is not None and sum(outcome.scores) + sum(int(c[:-1]) for c in state.to_dict()['loose']) == 244
    assert state.events[-1].kind == 'game_over' and state.events[-1].data['seed'] == state.seed
    assert state.view(0).seed == state.seed and state.view(0).scores == outcome.scores


def any_action(deck_cards):
    card = st.sampled_from(deck_cards)
    return st.one_of(st.builds(StartRun, card, card), st.builds(TakeLoose, card),
                     st.builds(TakePile, st.integers(-1, 4)), st.just(Confirm()), st.builds(Drop, card))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 4), steps=st.integers(0, 120),
       seat=st.integers(0, 3), action=any_action(spanish_deck()))
def test_an_illegal_action_is_refused_and_changes_nothing(seed, seats, steps, seat, action):
    state = new_game(Rules(), seats, random.Random(seed))
    for _ in advance(state, random.Random(seed), steps):
        pass
    if seat < seats and action in state.legal_actions(seat):
        return
    before = state.to_dict()
    with pytest.raises(IllegalAction) as error:
        state.apply(seat, action)
    assert error.value.code and str(error.value)
    assert state.to_dict() == before


@pytest.mark.parametrize('seats', [2, 3, 4])
def test_saving_in_the_middle_of_a_run_gives_the_same_continuation(seats):
    for seed in range(40):
        state = new_game(Rules(), seats, random.Random(seed))
        rng = random.Random(seed)
        for _ in advance(state, rng):
            if state.view(0).run is not None and state.view(0).run.piles:
                break
        else:
            continue
        restored = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert restored.to_dict() == state.to_dict()
        assert restored.view(1) == state.view(1)
        twin = random.Random()
        twin.setstate(rng.getstate())
        for _ in advance(state, rng):
            pass
        for _ in advance(restored, twin):
            pass
        assert restored.to_dict() == state.to_dict()
        return
    pytest.fail('no run took a pile in 40 games')


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def hidden_from(data, seat):
    """Cards this seat cannot see now: other hands and the stock (never shown to it), and the
    buried cards of every pile, a pile taken by the run in progress included (shown once, then covered)."""
    never = set(data['stock']) | {card for other, hand in enumerate(data['hands']) if other != seat for card in hand}
    buried = {card for pile in data['piles'] for card in pile[:-1]}
    if data['run'] is not None:
        buried |= {card for _, cards in data['run']['piles'] for card in cards[:-1]}
    return never, buried


@pytest.mark.parametrize('seats', [2, 4])
def test_views_never_show_a_hidden_card(seats):
    for seed in range(4):
        state = new_game(Rules(), seats, random.Random(100 + seed))
        for _ in advance(state, random.Random(seed)):
            data = state.to_dict()
            for seat in range(seats):
                view = state.view(seat).to_dict()
                json.dumps(view)
                never, buried = hidden_from(data, seat)
                assert not never & set(strings_in(view))
                table = {key: value for key, value in view.items() if key != 'events'}
                assert not buried & set(strings_in(table))
                for event in state.events:
                    assert not never & set(strings_in(event.to_dict()))
