"""A computer player's budget is counted in work, never in seconds: the same view and seed give the
same move even when every clock jumps a thousand seconds on each reading, as on a machine so loaded
that any deadline would pass at once."""
from __future__ import annotations

import importlib
import itertools
import pkgutil
import random
import time

import pytest

import app.ai
from app.engine.protocol import LEVELS
from app.games import GAMES_BY_ID

CLOCKS = ('perf_counter', 'monotonic', 'time', 'process_time')
JUMP = 1000.0      # seconds between two readings of any clock
DEALS = (3, 8)     # seeds of the games the positions come from
EVERY = 3          # one position in this many decisions of those games
POSITIONS = 8      # ... and this many from each game


@pytest.fixture(scope='module', params=list(GAMES_BY_ID))
def positions(request) -> tuple[str, list]:
    """Mid-hand views of seeded games between normal players: the decisions with a real choice."""
    game = GAMES_BY_ID[request.param]
    views = []
    for seed in DEALS:
        state = game.engine_module.new_game(game.engine_module.Rules(), 3, random.Random(seed))
        bots = [game.ai_module.make_bot('normal', random.Random(seed * 10 + seat)) for seat in range(3)]
        found, decisions = [], 0
        while state.outcome() is None and len(found) < POSITIONS:
            seat = state.current_seat
            view = state.view(seat)
            if len(view.legal_actions) > 1:
                decisions += 1
                if decisions % EVERY == 0:
                    found.append(view)
            state.apply(seat, bots[seat].choose(view))
        views += found
    return game.id, views


def moves(game_id: str, level: str, views: list) -> list:
    """Each view answered by a fresh player seeded by its place in the list."""
    ai = GAMES_BY_ID[game_id].ai_module
    return [ai.make_bot(level, random.Random(index)).choose(view) for index, view in enumerate(views)]


def jump_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every clock, in the time module and wherever a computer player's module imported one by
    name, reads ``JUMP`` seconds later than at its previous reading."""
    readings = itertools.count(JUMP, JUMP)

    def seconds() -> float:
        return next(readings)

    def nanoseconds() -> int:
        return int(next(readings) * 1e9)

    jumping = {id(getattr(time, name)): seconds for name in CLOCKS}
    jumping.update({id(getattr(time, f'{name}_ns')): nanoseconds for name in CLOCKS})
    modules = [importlib.import_module(found.name) for found in pkgutil.walk_packages(app.ai.__path__, 'app.ai.')]
    for module in [*modules, time]:
        for name, value in list(vars(module).items()):
            if id(value) in jumping:
                monkeypatch.setattr(module, name, jumping[id(value)])


@pytest.mark.parametrize('level', LEVELS)
def test_the_same_view_and_seed_give_the_same_move_however_the_clock_runs(positions, level, monkeypatch) -> None:
    game_id, views = positions
    assert len(views) == POSITIONS * len(DEALS)
    steady = moves(game_id, level, views)
    jump_clocks(monkeypatch)
    before = time.perf_counter()
    assert time.perf_counter() - before == JUMP
    assert moves(game_id, level, views) == steady
