"""Ronda Robada computer players: legal, view-only, and sensible in known positions."""
import dataclasses
import random

import pytest

from app.ai.ronda_robada import make_bot, obs_from_view
from app.engine.cards import Card, parse_spanish, spanish_card
from app.engine.protocol import LEVELS, Event
from app.engine.ronda_robada import Confirm, GameState, Rules, StartRun, TakePile, new_game

FAST_HARD = {'worlds': 4}


def c(text):
    return spanish_card(text)


def bot(level, seed=0):
    return make_bot(level, random.Random(seed), **(FAST_HARD if level == 'hard' else {}))


def position(hands, loose, piles, stock='', events=()):
    return GameState(Rules(), len(hands), 'known-position', stock=parse_spanish(stock),
                     hands=[parse_spanish(hand) for hand in hands], loose=parse_spanish(loose),
                     piles=[parse_spanish(pile) for pile in piles], rng=random.Random(0), current=0,
                     events=list(events))


@pytest.mark.parametrize('levels', [('easy', 'normal'), ('hard', 'easy', 'normal'), ('normal', 'hard', 'easy', 'easy')])
def test_bots_only_choose_legal_actions_and_finish_games(levels):
    for seed in range(2):
        state = new_game(Rules(), len(levels), random.Random(seed))
        bots = [bot(level, seed) for level in levels]
        while state.current_seat is not None:
            seat = state.current_seat
            view = state.view(seat)
            action = bots[seat].choose(view)
            assert action in view.legal_actions
            state.apply(seat, action)
        assert state.outcome() is not None


def reachable_objects(value, seen=None):
    """Everything a view holds, followed through dataclass fields, tuples and dicts."""
    seen = seen if seen is not None else set()
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        children = [getattr(value, f.name) for f in dataclasses.fields(value)]
    elif isinstance(value, dict):
        children = list(value.values())
    elif isinstance(value, (list, tuple, set, frozenset)):
        children = list(value)
    else:
        children = []
    for child in children:
        yield from reachable_objects(child, seen)


def test_a_bot_is_handed_a_view_that_leads_nowhere_else():
    state = new_game(Rules(), 3, random.Random(5))
    view = state.view(0)
    objects = list(reachable_objects(view))
    assert not any(isinstance(obj, GameState) for obj in objects)
    assert {type(obj).__module__.split('.')[0] for obj in objects} <= {'app', 'builtins', 'enum'}
    others = {card for seat in (1, 2) for card in state.view(seat).hand}
    assert not others & {obj for obj in objects if isinstance(obj, Card)}


def test_bots_decide_the_same_whatever_the_hidden_cards():
    """Two games that differ only in cards the seat cannot see give equal views and equal choices."""
    common = dict(loose='5c 7b 3e', piles=['10o 6b', '11e 2c'], events=[Event('deal', None, {'loose': ['5c']})])
    one = position(['5o 4b 12e', '6c 7o 1b'], stock='2o 3o 4o', **common)
    two = position(['5o 4b 12e', '2o 3o 4o'], stock='1b 7o 6c', **common)
    assert one.view(0) == two.view(0)
    for level in LEVELS:
        assert bot(level, 3).choose(one.view(0)) == bot(level, 3).choose(two.view(0))


def played_turn(level, state, seat=0):
    chooser = bot(level)
    actions = []
    while state.current_seat == seat:
        action = chooser.choose(state.view(seat))
        actions.append(action)
        state.apply(seat, action)
    return actions


def steal_position():
    return position(['5o 1e 2e', '3b 4b 1c'], '5c 12o', ['', '11e 12b 10c 6c'])


@pytest.mark.parametrize('level', ['normal', 'hard'])
def test_better_players_steal_a_big_pile_within_reach(level):
    assert played_turn(level, steal_position()) == [StartRun(c('5o'), c('5c')), TakePile(1), Confirm()]


def test_the_easy_player_usually_sees_a_steal_too():
    steals = 0
    for seed in range(10):
        state = steal_position()
        chooser = make_bot('easy', random.Random(seed))
        while state.current_seat == 0:
            state.apply(0, chooser.choose(state.view(0)))
        steals += state.view(1).pile_sizes[1] == 0
    assert steals >= 6


@pytest.mark.parametrize('level', ['normal', 'hard'])
def test_better_players_do_not_leave_their_big_pile_open(level):
    # Taking the loose 4 would put the 4b on top of a 60-point pile with a loose 3 left for the
    # opponent, who very likely holds a 3; the 7 run leaves a top nobody can reach.
    state = position(['4b 7c 2o', '3b 3e 12c'], '4c 3o 7b', ['10o 11o 12o 10e 11e 6b', '1b'],
                     stock='3c 5o 6o 1o 2c 4o')
    assert played_turn(level, state)[0] == StartRun(c('7c'), c('7b'))


def test_views_give_the_bots_pile_points_from_the_public_events():
    state = new_game(Rules(), 2, random.Random(2))
    bots = [make_bot('normal', random.Random(seat)) for seat in range(2)]
    while state.current_seat is not None:
        seat = state.current_seat
        obs = obs_from_view(state.view(seat))
        assert obs.points == [sum(int(card[:-1]) for card in pile) for pile in state.to_dict()['piles']]
        hidden = state.to_dict()['stock'] + state.to_dict()['hands'][1 - seat]
        assert obs.unseen_total == len(hidden)
        state.apply(seat, bots[seat].choose(state.view(seat)))


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        make_bot('grandmaster', random.Random(0))
