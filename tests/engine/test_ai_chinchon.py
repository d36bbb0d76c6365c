"""Chinchón computer players: legal, blind to hidden cards, and sensible in known positions."""
from __future__ import annotations

import math
import random

import pytest

from app.bench.arena import play_match
from app.ai.chinchon import make_bot
from app.engine import chinchon
from app.engine.cards import cards_str, parse_spanish, spanish_deck
from app.engine.chinchon import BuyBack, Close, Discard, DrawDiscard, DrawStock, GameState, Rules

FAST_HARD = {'worlds': 3}   # few worlds: a quick search


def bot(level: str, seed: int = 0):
    return make_bot(level, random.Random(seed), **(FAST_HARD if level == 'hard' else {}))


def position(hands: list[str], first_discard: str, events: tuple = (), *, current: int = 0,
             phase: str = 'draw', scores: list[int] | None = None, taken: str | None = None,
             limit: int = 100) -> GameState:
    """A known position: the hands, the hand's public events after the deal, the rest in the stock."""
    seats = len(hands)
    pile, taken_by = [first_discard], [[] for _ in range(seats)]
    log = [{'kind': 'deal', 'seat': None, 'data': {'hand': 1, 'dealer': seats - 1, 'commitment': '',
                                                   'first_discard': first_discard, 'stock_size': 0}}]
    for kind, seat, *card in events:
        if kind == 'draw_discard':
            taken_by[seat].append(pile.pop())
        elif kind == 'discard':
            pile.append(card[0])
        log.append({'kind': kind, 'seat': seat, 'data': {'card': card[0]} if card else {}})
    used = ' '.join(hands + pile).split()
    stock = [str(card) for card in spanish_deck() if str(card) not in used]
    raw = chinchon.new_game(Rules(limit=limit), seats, random.Random(0)).to_dict()
    raw.update(hands=[hand.split() for hand in hands], discard=pile, stock=stock, phase=phase,
               current=current, taken=taken, taken_by=taken_by, events=log, hand_start=0,
               scores=scores or [0] * seats)
    return GameState.from_dict(raw)


def decide(state: GameState, level: str = 'normal', seed: int = 0):
    return bot(level, seed).choose(state.view(state.current_seat))


# -- legality and fairness ---------------------------------------------------------------------

def play(level_of_seat: list[str], seed: int, rules: Rules, max_actions: int) -> tuple[GameState, int]:
    state = chinchon.new_game(rules, len(level_of_seat), random.Random(seed))
    bots = [bot(level, seed * 10 + seat) for seat, level in enumerate(level_of_seat)]
    for count in range(max_actions):
        if state.outcome() is not None:
            return state, count
        seat = state.current_seat
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions, f'{level_of_seat[seat]} chose {action} in {view.phase}'
        if isinstance(action, DrawDiscard) and level_of_seat[seat] == 'easy':
            eight = list(view.hand) + [view.discard_top]
            assert any(view.discard_top in meld for meld in chinchon.best_arrangement(eight).melds)
        state.apply(seat, action)
    return state, max_actions


@pytest.mark.parametrize('seats', [2, 3, 4, 5, 6])
@pytest.mark.parametrize('limit', [100, 50])
def test_easy_and_normal_play_whole_games_legally(seats: int, limit: int) -> None:
    rules = Rules(limit=limit, buyback=True)
    for seed in range(2):
        levels = [('easy', 'normal')[(seat + seed) % 2] for seat in range(seats)]
        state, _ = play(levels, 1000 * seats + limit + seed, rules, 60_000)
        assert state.outcome() is not None


@pytest.mark.parametrize('seats', [2, 4, 6])
def test_hard_plays_legally(seats: int) -> None:
    levels = ['hard'] + ['normal', 'easy'] * 3
    state, actions = play(levels[:seats], 77 + seats, Rules(limit=50, buyback=True), 120)
    assert actions == 120 or state.outcome() is not None


def test_every_level_answers_the_buyback_offer_legally() -> None:
    state = position(['12o 12c 12e 5b 6b 7b 1c', '1o 2o 3o 4e 5e 6e 7e', '2c 3c 4c 5c 6c 7c 10c'], '3b',
                     current=0, phase='buyback', scores=[105, 60, 40])
    raw = state.to_dict()
    raw.update(out=[True, False, False], buyback_queue=[0])
    state = GameState.from_dict(raw)
    for level in ('easy', 'normal', 'hard'):
        assert decide(state, level) in (BuyBack(True), BuyBack(False))


def test_a_bot_sees_only_its_view() -> None:
    """The view holds no other hand and no stock; a world that differs only in hidden cards gives
    the same view and the same choice, and the same view and generator give the same choice."""
    state, _ = play(['normal', 'normal', 'normal'], 5, Rules(), 40)
    seat = state.current_seat
    view = state.view(seat)
    fields = view.to_dict()
    assert not {'hands', 'stock', 'face_down', 'seed', 'rng'} & set(fields)
    assert fields['hand'] == [str(card) for card in state.hands[seat]]
    raw = state.to_dict()
    held = {seat: set(map(str, view.taken_from_discard[seat])) for seat in range(3)}
    hidden = [card for other in range(3) if other != seat
              for card in raw['hands'][other] if card not in held[other]] + raw['stock']
    shuffled = list(hidden)
    random.Random(1).shuffle(shuffled)
    for other in range(3):
        if other != seat:
            raw['hands'][other] = [card if card in held[other] else shuffled.pop() for card in raw['hands'][other]]
    raw['stock'] = shuffled
    twin = GameState.from_dict(raw)
    assert twin.view(seat) == view
    assert twin.hands != state.hands or twin.stock != state.stock
    for level in ('easy', 'normal', 'hard'):
        for seed in range(3):
            assert bot(level, seed).choose(view) == bot(level, seed).choose(twin.view(seat))


# -- known positions ---------------------------------------------------------------------------

def test_easy_takes_the_discard_only_when_it_completes_a_meld() -> None:
    hands = ['1o 2o 5c 7e 10b 11c 12e', '1c 2c 3c 4b 5b 6b 7b']
    assert decide(position(hands, '3o'), 'easy') == DrawDiscard()          # 1o 2o 3o
    assert decide(position(hands, '1b'), 'easy') == DrawStock()            # only a lower card
    assert decide(position(hands, '6c'), 'easy') == DrawStock()            # a pair at best


def test_normal_closes_when_it_can() -> None:
    state = position(['1o 2o 3o 4c 4e 4b 10c 2b', '5o 6o 7e 10e 11b 12c 3c'], '7c', phase='discard')
    assert decide(state) == Close(parse_spanish('10c')[0])


def test_normal_does_not_close_into_its_own_elimination() -> None:
    state = position(['1o 2o 3o 4c 4e 4b 10c 2b', '5o 6o 7e 10e 11b 12c 3c'], '7c', phase='discard',
                     scores=[99, 20])
    assert not isinstance(decide(state), Close)


def test_normal_holds_a_live_chinchon_unless_closing_would_knock_somebody_out() -> None:
    hands = ['1o 2o 3o 4o 5o 6o 2b 12c', '5c 6c 7e 10e 11b 12e 3c']
    assert decide(position(hands, '7c', phase='discard')) == Discard(parse_spanish('12c')[0])
    threatened = position(hands, '7c', phase='discard', scores=[10, 95])
    assert isinstance(decide(threatened), Close)


def test_normal_closes_a_chinchon_at_once() -> None:
    state = position(['1o 2o 3o 4o 5o 6o 7o 12c', '5c 6c 7e 10e 11b 12e 3c'], '7c', phase='discard')
    assert decide(state) == Close(parse_spanish('12c')[0])


def test_normal_does_not_feed_the_next_seat() -> None:
    """Seat 1 took 10c and 11c from the pile: 12c would give it a run; 12e is as heavy and safe."""
    events = (('draw_discard', 1, '10c'), ('discard', 1, '5b'), ('draw_stock', 0), ('discard', 0, '11c'),
              ('draw_discard', 1, '11c'), ('discard', 1, '3e'), ('draw_stock', 0))
    state = position(['1o 2o 3o 4c 4e 4b 12c 12e', '10c 11c 5o 6o 1b 2b 7e'], '10c', events, phase='discard')
    assert cards_str(state.view(0).taken_from_discard[1]) == '10c 11c'
    assert decide(state) == Discard(parse_spanish('12e')[0])


def test_normal_takes_a_discard_that_closes() -> None:
    state = position(['1o 2o 3o 4c 4e 4b 10c', '5o 6o 7e 10e 11b 12c 3c'], '2b')
    assert decide(state) == DrawDiscard()


@pytest.mark.parametrize('level, accept_on_60, accept_on_95', [
    ('easy', True, False), ('normal', True, False), ('hard', True, True)])
def test_buyback_policy(level: str, accept_on_60: bool, accept_on_95: bool) -> None:
    """Limit 100: easy wants a quarter of the limit to play with, normal a tenth, hard always comes back."""
    for highest, expected in ((60, accept_on_60), (95, accept_on_95)):
        state = position(['12o 12c 12e 5b 6b 7b 1c', '1o 2o 3o 4e 5e 6e 7e', '2c 3c 4c 5c 6c 7c 10c'], '3b',
                         phase='buyback', scores=[105, highest, 40])
        raw = state.to_dict()
        raw.update(out=[True, False, False], buyback_queue=[0])
        view = GameState.from_dict(raw).view(0)
        assert view.buyback_score == highest
        assert bot(level).choose(view) == BuyBack(expected)


def test_arena_smoke() -> None:
    result = play_match('chinchon', ['normal', 'easy'], 4, seed=3)
    assert result.games == 4 and sum(slot.wins for slot in result.slots) == pytest.approx(4)
    assert 'normal' in result.report()
    hard = play_match('chinchon', ['hard', 'normal'], 2, seed=4, rules={'limit': '50'},
                      bot_options={'hard': FAST_HARD})
    assert hard.games == 2


# -- the hard player's search --------------------------------------------------------------------

def test_hard_rollout_solver_agrees_with_the_engine() -> None:
    """The search's memoised solver on indices gives the engine's best discard value and best close."""
    from app.ai.chinchon.search import CHINCHON_SCORE, Solver
    from app.engine.chinchon.melds import card_index

    rng = random.Random(8)
    deck = spanish_deck()
    solver = Solver()
    hands = [rng.sample(deck, 8) for _ in range(400)]
    hands += [parse_spanish('1o 2o 3o 4o 5o 6o 7o 12c'), parse_spanish('1o 2o 3o 4c 4e 4b 10c 2b')]
    for eight in hands:
        taken = eight[-1] if rng.random() < 0.5 else None
        forbidden = card_index(taken) if taken is not None else -1
        _, loose, close, score = solver.turn([card_index(card) for card in eight], forbidden)
        assert loose == chinchon.best_discard(eight, taken)[1]
        found = chinchon.best_close(eight, taken)
        if found is None:
            assert close == -1
        elif chinchon.is_chinchon([card for card in eight if card != found[0]]):
            assert score == CHINCHON_SCORE
        else:
            assert score == found[1]


def test_hard_search_takes_a_clearly_better_alternative() -> None:
    """Handed a weak first choice (throw a melded card and play on) against closing for -10 at once,
    the search overrules it; handed the close first, it keeps it."""
    state = position(['1o 2o 3o 4o 4c 4e 4b 12e', '5o 6o 7e 10e 11b 12c 3c'], '7b', phase='discard')
    view = state.view(0)
    from app.ai.chinchon.knowledge import read_view
    kn = read_view(view)
    close, weak = Close(parse_spanish('12e')[0]), Discard(parse_spanish('4b')[0])
    assert close in view.legal_actions and weak in view.legal_actions
    assert bot('hard').search(kn, [weak, close]) == close
    assert bot('hard').search(kn, [close, weak]) == close


def test_hard_search_is_deterministic_for_a_fixed_generator() -> None:
    state, _ = play(['normal', 'normal'], 12, Rules(), 30)
    view = state.view(state.current_seat)
    from app.ai.chinchon.knowledge import read_view
    kn = read_view(view)
    options = [action for action in view.legal_actions][:4]
    hard = {'worlds': 24}
    first = make_bot('hard', random.Random(3), **hard).search(kn, options)
    assert first in view.legal_actions
    assert all(make_bot('hard', random.Random(3), **hard).search(kn, options) == first for _ in range(2))


def test_take_discard_is_the_sign_of_take_edge() -> None:
    from app.ai.chinchon import policy
    from app.ai.chinchon.knowledge import read_view

    for seed in range(6):
        state, _ = play(['normal', 'normal', 'normal'], 40 + seed, Rules(), 25 + seed)
        if state.outcome() is None and state.view(state.current_seat).phase == 'draw':
            kn = read_view(state.view(state.current_seat))
            assert policy.take_discard(kn) == (policy.take_edge(kn) > 0)


def test_hard_worlds_avoid_hands_that_would_have_kept_what_the_seat_let_go() -> None:
    """Seat 1 threw the 5 of cups and passed the 5 of swords: sampled hands for it rarely hold two
    cards that meld with either, far more rarely than hands dealt blind."""
    from app.ai.chinchon.knowledge import read_view
    from app.ai.chinchon.search import _melds_with, sample_world
    from app.engine.chinchon.melds import card_index

    state = position(['1o 2o 3o 7c 10e 11b 12b', '4c 6c 7o 10o 11c 12o 1e'], '3b',
                     (('draw_stock', 0), ('discard', 0, '12c'), ('draw_stock', 1), ('discard', 1, '5c'),
                      ('draw_stock', 0), ('discard', 0, '5e'), ('draw_stock', 1), ('discard', 1, '11e')))
    kn = read_view(state.view(0))
    assert card_index(parse_spanish('5c')[0]) in kn.discarded[1]
    assert card_index(parse_spanish('5e')[0]) in kn.passed[1]
    let_go = [card_index(card) for card in parse_spanish('5c 5e')]

    def melding_share(tries: int) -> float:
        rng = random.Random(5)
        worlds = [sample_world(kn, rng, tries) for _ in range(400)]
        return sum(any(_melds_with(w.hands[1], t) for t in let_go) for w in worlds) / len(worlds)

    blind, informed = melding_share(1), melding_share(8)
    assert blind > 0.2
    assert informed < blind / 4


@pytest.mark.parametrize('discard, stock_size', [('5c', None), ('4e 5c', 20), ('', 25)])
def test_hard_plays_a_position_set_up_without_its_history(discard: str, stock_size: int | None) -> None:
    """A hand from ``from_position`` has no deal event: the view's discard top is the only card of the
    pile anybody can name. The hard player's worlds still hold every card once, the pile's top
    where the view shows it (its search took a card off an empty pile before), and it moves legally
    whether the pile holds one card, many, or none (its top just taken)."""
    from app.ai.chinchon.knowledge import read_view
    from app.ai.chinchon.search import sample_world
    from app.engine.chinchon.melds import card_index

    phase, taken = ('discard', '5c') if not discard else ('draw', None)
    hand = '1o 2o 3o 7c 10e 11b 12b' + (' 5c' if taken else '')
    for seed in range(4):
        state = chinchon.from_position(Rules(), hands={0: hand}, seats=2, discard=discard, stock_size=stock_size,
                                       phase=phase, taken=taken, seed=seed)
        view = state.view(0)
        assert not view.events
        assert make_bot('hard', random.Random(seed)).choose(view) in view.legal_actions
        world = sample_world(read_view(view), random.Random(seed))
        assert len(world.pile) == view.discard_size and len(world.stock) == view.stock_size
        assert world.pile[-1:] == [card_index(card) for card in parse_spanish(discard)][-1:]
        every = world.stock + world.pile + [i for cards in world.hands.values() for i in cards]
        assert sorted(every) == list(range(40))


def test_hard_chances_share_room_and_value_a_lead_above_its_share() -> None:
    from app.ai.chinchon.knowledge import read_view
    from app.ai.chinchon.search import POWER, _chances

    state = position(['1o 2o 3o 7c 10e 11b 12b', '4c 6c 7o 10o 11c 12o 1e', '2c 3c 4e 5e 6b 7b 10b'],
                     '3b', scores=[10, 40, 90])
    kn = read_view(state.view(0))
    added = {0: 0, 1: 10, 2: 0}
    assert _chances(kn, added, 1.0) == pytest.approx(100 * 91 / (91 + 51 + 11))
    shares = [_chances(read_view(state.view(seat)), added, POWER) for seat in range(3)]
    assert sum(shares) == pytest.approx(100)
    assert shares[0] > 100 * 91 / (91 + 51 + 11)          # the leader is worth more than its share
    assert _chances(kn, {0: 0, 1: 10, 2: 20}, POWER) > _chances(kn, {0: 0, 1: 10, 2: 0}, POWER)
    assert _chances(kn, {0: 100, 1: 10, 2: 0}, POWER) == 0.0   # over the limit: out


def test_calibration_prefers_a_steeper_exponent_when_leaders_always_win() -> None:
    from app.bench.chinchon_calibrate import EXPONENTS, log_likelihood

    leader_wins = [((0, 50), (0,)), ((30, 60), (0,)), ((80, 20), (1,)), ((10, 90), (0,))] * 5
    coin = [((0, 50), (1,)), ((0, 50), (0,)), ((60, 30), (0,)), ((60, 30), (1,))] * 5
    best = lambda data: max(EXPONENTS, key=lambda k: log_likelihood(data, k, 100))   # noqa: E731
    assert best(leader_wins) == max(EXPONENTS)
    assert best(coin) == min(EXPONENTS)
    assert log_likelihood([((0, 50, None), (0,))], 1.0, 100) == pytest.approx(math.log(101 / 152))
    assert log_likelihood([((-10, 50), (0,))], 1.0, 100) == pytest.approx(math.log(111 / 162))


def test_hard_weighs_the_potential_of_its_hand_less_than_normal(monkeypatch) -> None:
    """The patience of a level reaches the potential weight its discards and draws are judged with."""
    from app.ai.chinchon import policy

    seen = {}
    original = policy.lookahead

    def spy(kn):
        seen.setdefault(kn.patience, original(kn))
        return original(kn)

    monkeypatch.setattr(policy, 'lookahead', spy)
    state = position(['1o 2o 5c 6c 10e 11b 12b', '4c 6o 7o 10o 11c 12o 1e'], '3b', phase='draw')
    for level in ('normal', 'hard'):
        decide(state, level)
    assert set(seen) == {1.0, 0.7}
    assert seen[0.7] == pytest.approx(0.7 * seen[1.0])


def test_rollout_take_rule_takes_what_saves_enough() -> None:
    """The rollouts take a top that melds and saves at least the threshold, never a stranger."""
    from app.ai.chinchon.search import Solver, greedy_takes
    from app.engine.chinchon.melds import card_index
    hand = [card_index(c) for c in parse_spanish('1o 2o 5c 6c 7e 10b 12b')]
    solver = Solver()
    # 3o makes 1o 2o 3o and a 10-point figure goes: 1+2+5+6+7+10+10 = 41 -> 5+6+7+10 = 28, saves 13
    three = card_index(parse_spanish('3o')[0])
    assert greedy_takes(hand, three, solver, 13)
    assert not greedy_takes(hand, three, solver, 14)
    assert not greedy_takes(hand, card_index(parse_spanish('4e')[0]), solver, 0)   # melds with nothing
    assert len(hand) == 7                                                             # hand untouched


def test_fidelity_tallies_the_rollout_take_rule_against_real_takes() -> None:
    from app.bench.chinchon_fidelity import measure
    report = measure(seats=3, games=1, seed=3, samples=4, savings=[0, 99])
    n = report.cases
    assert n > 50 and 0 < report.real_takes < n
    never = report.rules['saving >= 99, true hand']           # a threshold nothing reaches never takes
    assert never.cases == n and never.takes == 0
    assert never.brier == pytest.approx(report.real_takes) and never.agree == n - report.real_takes
    keen = report.rules['saving >= 0, sampled']               # taking whatever melds takes more than normal
    assert keen.takes > report.real_takes
    assert 0 < report.same_discard < report.discards
    assert report.positions > 10 and set(report.deadwood) == {'true hand', 'sampled', 'plain deals'}
    assert report.deadwood['true hand'] < report.deadwood['plain deals']   # real hands have improved
