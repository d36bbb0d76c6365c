"""Seeded Continental playouts: invariants after every step, refusals, save and restore."""
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.ai.continental import make_bot
from app.engine import continental as C
from app.engine.cards import french_deck, parse_french
from app.engine.protocol import IllegalAction

DECK = Counter(french_deck())


def all_cards(state):
    """Every card in the game, from the serialised form (hands, stock, discard, table)."""
    raw = state.to_dict()
    texts = [t for hand in raw['hands'] for t in hand] + raw['stock'] + raw['discard']
    texts += [item['card'] for meld in raw['melds'] for item in meld['cards']]
    return Counter(parse_french(' '.join(texts)))


def step(state, bots, rng, wild=0.15):
    seat = state.current_seat
    view = state.view(seat)
    action = rng.choice(view.legal_actions) if rng.random() < wild else bots[seat].choose(view)
    assert action in view.legal_actions or isinstance(action, (C.GoDown, C.LayOff))
    state.apply(seat, action)
    return action


def play(seed, seats, robo=True, levels=('easy', 'normal'), check=None, limit=20000):
    rng = random.Random(seed)
    state = C.new_game(C.Rules(robo_de_contra=robo), seats, random.Random(seed))
    bots = [make_bot(levels[seat % len(levels)], random.Random(seed * 10 + seat)) for seat in range(seats)]
    for count in range(limit):
        if state.outcome() is not None:
            return state
        step(state, bots, rng)
        if check:
            check(state, count)
    raise AssertionError(f'no end after {limit} actions (seed {seed})')


@pytest.mark.parametrize('seats', [2, 3, 4, 5, 6])
def test_seeded_games_keep_108_cards_and_end(seats):
    def check(state, count):
        if count % 20 == 0 or state.events[-1].kind == 'hand_end':
            assert all_cards(state) == DECK
        view = state.view(0)
        assert sum(view.hand_sizes) + view.stock_size + view.discard_size + sum(
            len(meld.cards) for meld in view.melds) == 108
    state = play(seats * 7, seats, robo=seats % 2 == 0, check=check)
    outcome = state.outcome()
    assert len(state.view(0).hand_scores) == 7
    assert outcome.scores == tuple(sum(row[s] for row in state.view(0).hand_scores) for s in range(seats))
    assert min(outcome.scores) == outcome.scores[outcome.winners[0]]
    assert [deal.seed for deal in state.view(0).past_deals] == state.seeds


def test_events_and_views_are_json_and_hide_the_penalty_card():
    state = play(3, 4)
    for event in state.events:
        json.dumps(event.to_dict())
        if event.kind == 'take_offer':
            assert set(event.data) == {'card', 'out_of_turn', 'penalty'}
        if event.kind == 'draw_stock':
            assert event.data == {}
    json.dumps(state.view(1).to_dict())
    kinds = {event.kind for event in state.events}
    assert {'deal', 'offer', 'pass_offer', 'draw_stock', 'go_down', 'discard', 'hand_end', 'game_over'} <= kinds


def test_save_and_restore_mid_offer_continues_identically():
    rng = random.Random(8)
    state = C.new_game(C.Rules(), 4, random.Random(8))
    bots = [make_bot('normal', random.Random(seat)) for seat in range(4)]
    while not (state.view(0).phase == 'offer' and state.view(0).offer.asked != state.view(0).offer.on_turn
               and state.view(0).hand_number == 2):
        step(state, bots, rng)
    copy = C.GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert copy.to_dict() == state.to_dict()
    assert copy.view(copy.current_seat) == state.view(state.current_seat)
    for _ in range(400):
        if state.outcome() is not None:
            break
        seat = state.current_seat
        action = bots[seat].choose(state.view(seat))
        assert state.apply(seat, action) == copy.apply(seat, action)
    assert copy.to_dict() == state.to_dict()


def _actions(state):
    """A mix of plausible and absurd actions for the seat asked and for another seat."""
    view = state.view(state.current_seat)
    hand = list(view.hand) or french_deck()[:1]
    melds = st.lists(st.lists(st.sampled_from(hand + french_deck()[:13]), min_size=0, max_size=5)
                     .map(tuple), max_size=4).map(lambda ms: C.GoDown(tuple(ms)))
    return st.one_of(
        st.just(C.TakeOffer()), st.just(C.PassOffer()), st.just(C.DrawStock()),
        st.sampled_from(sorted(set(french_deck()))).map(C.Discard),
        st.builds(C.LayOff, st.sampled_from(hand + [french_deck()[-1]]), st.integers(-1, 8),
                  st.one_of(st.none(), st.integers(0, 15))),
        melds,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 40), steps=st.integers(0, 120), seats=st.integers(2, 5))
def test_illegal_actions_are_refused_and_leave_the_state_untouched(data, seed, steps, seats):
    rng = random.Random(seed)
    state = C.new_game(C.Rules(robo_de_contra=seed % 2 == 0), seats, random.Random(seed))
    bots = [make_bot('normal', random.Random(seat)) for seat in range(seats)]
    for _ in range(steps):
        if state.outcome() is not None:
            break
        step(state, bots, rng)
    if state.outcome() is not None:
        return
    seat = data.draw(st.sampled_from([state.current_seat, (state.current_seat + 1) % seats]))
    action = data.draw(_actions(state))
    before = state.to_dict()
    legal = state.legal_actions(seat)
    try:
        state.apply(seat, action)
    except IllegalAction as error:
        assert error.code and str(error)
        assert state.to_dict() == before
        assert action not in legal
    else:
        assert action in legal or isinstance(action, (C.GoDown, C.LayOff))
        assert all_cards(state) == DECK
