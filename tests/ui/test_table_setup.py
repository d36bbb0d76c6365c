"""The setup form is built from each game's registry entry, and whatever a browser sends or
kept is checked again: anything unknown or tampered falls back to the default."""
from __future__ import annotations

import pytest
from nicegui.testing import User

from app.games import GAMES, GAMES_BY_ID
from components.table.setup import clean_options, defaults, to_table_options


@pytest.mark.parametrize('game', GAMES, ids=lambda game: game.id)
def test_every_games_defaults_make_valid_rules(game) -> None:
    choice = clean_options(game, None)
    assert choice == defaults(game)
    rules = game.make_rules(to_table_options(game, choice).rules)
    for option in game.options:
        assert getattr(rules, option.name) == option.default


@pytest.mark.parametrize('tampered', [
    {'seats': 9}, {'seats': 1}, {'seats': '3'}, {'seats': True}, {'level': 'god'}, {'speed': 'warp'},
    {'hints': 'yes'}, {'limit': 77}, {'limit': True}, {'buyback': 1}, {'unknown': 5},
])
def test_tampered_choices_fall_back_to_the_defaults(tampered) -> None:
    game = GAMES_BY_ID['chinchon']
    assert clean_options(game, tampered) == defaults(game)


def test_valid_choices_are_kept() -> None:
    game = GAMES_BY_ID['chinchon']
    choice = {'seats': 6, 'level': 'hard', 'speed': 'fast', 'hints': False, 'limit': 50, 'buyback': True}
    assert clean_options(game, choice) == choice
    assert to_table_options(game, choice).rules == {'limit': 50, 'buyback': True}


async def test_the_form_offers_the_games_rule_options(user: User) -> None:
    await user.open('/play/chinchon')
    await user.should_see('Tope de puntos')
    await user.should_see('50 (partida corta)')
    await user.should_see('Reenganche')
    await user.should_see('Con 5 o 6 jugadores se juega con dos barajas.')
