"""Ronda Robada: runs built from the loose cards, stealing whole piles on the way.

Fair deal, rebuilt by anyone from the seed revealed at the end (its sha256 is shown from the deal on):

    from app.engine.cards import shuffled, spanish_deck
    deck = shuffled(spanish_deck(), seed)
    # deck[0:4]  the loose cards in the centre, in that order
    # deck[4:]   the stock, dealt from its front one card at a time round the table, three
    #            rounds, starting with the player after the dealer (with 3 seats and seat 2
    #            dealing: deck[4] to seat 0, deck[5] to seat 1, deck[6] to seat 2, deck[7] to
    #            seat 0 ...); every redeal (all hands empty, stock not) continues the same way.

The player after the dealer plays first and the turn passes to the next seat. A turn is a ``Drop`` or a ``StartRun``
followed by any number of ``TakeLoose``/``TakePile`` steps and a ``Confirm``. A run's ranks follow
``RANK_ORDER`` and may close with one more 1 after the 12; nothing follows that closing 1.
``from_position`` builds a game in progress from card text.
"""
from app.engine.ronda_robada.model import (ACTIONS, GAME_ID, RANK_ORDER, Action, Confirm, Drop, Rules, RunView,
                                           StartRun, TakeLoose, TakePile, TakenPile, View, card_points,
                                           next_rank, step_options)
from app.engine.ronda_robada.position import from_position, position
from app.engine.ronda_robada.state import GameState, new_game

__all__ = ['GAME_ID', 'RANK_ORDER', 'Rules', 'card_points', 'next_rank', 'step_options', 'StartRun',
           'TakeLoose', 'TakePile', 'Confirm', 'Drop', 'Action', 'ACTIONS', 'TakenPile', 'RunView',
           'View', 'GameState', 'new_game', 'from_position', 'position']
