"""Chinchón: the rules engine and its exact solver.

Public API: ``GAME_ID``, ``Rules``, ``new_game``, ``from_position`` (a hand in progress built from
card text), ``GameState`` (the protocol of ``app.engine.protocol``), the actions ``DrawStock``,
``DrawDiscard``, ``Discard``, ``Close``, ``BuyBack`` (``ACTIONS`` reads and writes their JSON form),
the view ``ChinchonView`` with the finished hand's ``HandResult``, and the scoring functions of
RULES.md.

Fair deal. Each hand has its own seed, ``cards.new_hand_seed(rng)`` drawn from the game's
generator; views carry ``cards.commitment(seed)`` from the deal on and the seed in
``past_deals`` once the hand is over. To recreate a deal::

    from app.engine.cards import shuffled, spanish_deck
    deck = shuffled(spanish_deck(2 if seats >= 5 else 1), seed)   # decks fixed by the table size
    players = [seats still in, starting with the one after the dealer, going round]
    hands = {p: deck[i::len(players)][:7] for i, p in enumerate(players)}   # one card at a time
    first_discard = deck[7 * len(players)]
    stock = deck[7 * len(players) + 1:]                                     # stock[0] is the top

After a reshuffle (the discard pile but its top, shuffled with the game's generator) the new
stock's order is private to the engine. Reshuffles happen when a player draws from an empty stock;
the third time in a hand the hand is void and the same dealer deals again.
"""
from .actions import ACTIONS, Action, BuyBack, Close, Discard, DrawDiscard, DrawStock
from .count import Count, closer_arrangements, closer_choice, count_against, count_with_layoffs
from .melds import (Arrangement, best_arrangement, best_close, best_count, best_discard, can_close,
                    card_value, close_score, closing_cards, is_chinchon, is_meld)
from .position import from_position, position
from .state import GAME_ID, GameState, Rules, new_game
from .view import ChinchonView, HandResult, PastDeal, SeatCount

__all__ = [
    'GAME_ID', 'Rules', 'GameState', 'new_game', 'from_position', 'position', 'Action', 'DrawStock', 'DrawDiscard',
    'Discard', 'Close', 'BuyBack', 'ACTIONS', 'ChinchonView', 'HandResult', 'SeatCount', 'PastDeal',
    'card_value', 'best_count', 'count_against', 'can_close', 'close_score', 'is_chinchon',
    'is_meld', 'Arrangement', 'best_arrangement', 'best_discard', 'best_close', 'closing_cards',
    'Count', 'count_with_layoffs', 'closer_arrangements', 'closer_choice',
]
