"""Continental: seven hands with contracts, two French decks and four jokers (108 cards).

Public API (see RULES.md "Continental"): ``is_set``, ``is_run``, ``card_points``,
``meets_contract``, the ``CONTRACTS`` table, the ``solve`` contract solver and the game protocol
(``GAME_ID``, ``Rules``, ``new_game``, ``GameState``, the actions and ``View``), and
``from_position``: a hand in progress built from card text.
"""
from app.engine.continental.actions import (ACTIONS, Action, Discard, DrawStock, GoDown, LayOff, PassOffer,
                                            TakeOffer, go_down)
from app.engine.continental.melds import (CONTRACTS, HANDS, Contract, TableMeld, arrange_run, card_points,
                                          contract, is_run, is_set, meets_contract, meld_kind, run_start)
from app.engine.continental.position import from_position, position
from app.engine.continental.solver import Arrangement, can_go_down, go_down_options, solve
from app.engine.continental.state import GAME_ID, GameState, new_game
from app.engine.continental.view import OfferView, Rules, View

__all__ = [
    'ACTIONS', 'Action', 'Arrangement', 'CONTRACTS', 'Contract', 'Discard', 'DrawStock', 'GAME_ID', 'GameState',
    'GoDown', 'HANDS', 'LayOff', 'OfferView', 'PassOffer', 'Rules', 'TableMeld', 'TakeOffer', 'View',
    'arrange_run', 'can_go_down', 'card_points', 'contract', 'from_position', 'go_down', 'position',
    'go_down_options', 'is_run',
    'is_set', 'meets_contract', 'meld_kind', 'new_game', 'run_start', 'solve',
]
