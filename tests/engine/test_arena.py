"""The self-play arena, on Ronda Robada and on a toy game plugged in from outside."""
import types
from dataclasses import dataclass

import pytest

from app.bench import arena
from app.engine.protocol import Outcome
from app.games import GAMES_BY_ID, Better, GameInfo


def test_a_short_paired_match_of_ronda_robada():
    result = arena.play_match('ronda-robada', ['normal', 'easy'], 4, seed=3)
    assert result.games == 4 and result.hands == 4
    assert [slot.games for slot in result.slots] == [4, 4]
    assert sum(slot.wins for slot in result.slots) == pytest.approx(4)
    assert sum(slot.points for slot in result.slots) <= 4 * 244
    assert all(slot.decision_times for slot in result.slots)
    again = arena.play_match('ronda-robada', ['normal', 'easy'], 4, seed=3)
    assert [(s.wins, s.points) for s in again.slots] == [(s.wins, s.points) for s in result.slots]


def test_worker_processes_give_the_same_figures_as_one_process():
    alone = arena.play_match('ronda-robada', ['normal', 'easy'], 6, seed=4)
    shared = arena.play_match('ronda-robada', ['normal', 'easy'], 6, seed=4, jobs=2)
    assert shared.games == alone.games == 6 and shared.hands == alone.hands
    assert [(s.wins, s.points, len(s.decision_times)) for s in shared.slots] == \
        [(s.wins, s.points, len(s.decision_times)) for s in alone.slots]
    assert alone.cpu_seconds > 0 and shared.cpu_seconds > 0   # the workers' time is counted too


def test_games_round_up_to_whole_rotations_of_the_seats():
    result = arena.play_match('ronda-robada', ['easy', 'easy', 'normal'], 4, seed=1)
    assert result.games == 6 and [slot.games for slot in result.slots] == [6, 6, 6]


def test_the_command_line_prints_the_report(capsys):
    assert arena.main(['ronda-robada', '--seats', 'normal,easy', '--games', '2', '--seed', '5', '--quiet']) == 0
    out = capsys.readouterr().out
    for text in ('normal', 'easy', '95% interval', 'avg points', 'p95', 'hands/s', 'games/s', 'CPU-s per game'):
        assert text in out


def test_the_command_line_refuses_unknown_games_and_rule_options(capsys):
    with pytest.raises(SystemExit):
        arena.main(['no-such-game', '--seats', 'easy,easy', '--quiet'])
    with pytest.raises(SystemExit):
        arena.main(['ronda-robada', '--seats', 'easy,easy', '--rules', 'wild=1', '--quiet'])


def test_wilson_interval():
    low, high = arena.wilson(50, 100)
    assert low == pytest.approx(0.404, abs=0.001) and high == pytest.approx(0.596, abs=0.001)
    assert arena.wilson(0, 10)[0] == 0.0 and arena.wilson(10, 10)[1] == 1.0


# A toy game where the lowest number wins and ties are common: the arena needs no special case.

@dataclass(frozen=True)
class ToyRules:
    limit: int = 3
    strict: bool = False


class ToyState:
    def __init__(self, seats):
        self.picks = [None] * seats
        self.events = []

    @property
    def current_seat(self):
        return None if None not in self.picks else self.picks.index(None)

    def legal_actions(self, seat):
        return [1, 2] if seat == self.current_seat else []

    def apply(self, seat, action):
        self.picks[seat] = action
        return []

    def view(self, seat):
        return {'seat': seat, 'legal_actions': self.legal_actions(seat)}

    def outcome(self):
        if self.current_seat is not None:
            return None
        low = min(self.picks)
        return Outcome(tuple(self.picks), tuple(s for s, pick in enumerate(self.picks) if pick == low))


class ToyBot:
    def __init__(self, pick):
        self.pick = pick

    def choose(self, view):
        return self.pick


@pytest.fixture
def toy_game(monkeypatch):
    engine = types.ModuleType('toy_game')
    engine.GAME_ID, engine.Rules, engine.GameState = 'toy-game', ToyRules, ToyState
    engine.new_game = lambda rules, seats, rng: ToyState(seats)
    ai = types.ModuleType('toy_game_bots')
    ai.make_bot = lambda level, rng: ToyBot({'easy': 2, 'normal': 1, 'hard': 1}[level])
    monkeypatch.setitem(GAMES_BY_ID, 'toy-game', GameInfo('toy-game', engine, ai, Better.LOWER, 2, 6, 'toy', ()))


def test_any_game_module_plugs_in_and_its_outcome_decides(toy_game):
    result = arena.play_match('toy-game', ['normal', 'easy', 'hard'], 6, seed=0, rules={'limit': '5', 'strict': 'yes'})
    normal, easy, hard = result.slots
    assert normal.wins == pytest.approx(3) and hard.wins == pytest.approx(3) and easy.wins == 0
    assert normal.win_rate == pytest.approx(0.5) and result.hands == 6
