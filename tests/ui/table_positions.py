"""Known positions for table stories, built by each game's ``from_position``: the cards a test
names where it names them and every other card of the deck dealt from the test's seed, so the
position is one the rules can reach and replays exactly (and every computer's move from it). The
table is seated for the test's browser and stored where /table/<id> finds it."""
from __future__ import annotations

import json
from typing import Any

from nicegui import app

from app.engine import chinchon, continental, ronda_robada
from app.games import GAMES_BY_ID
from app.pages.tables import options_key, table_path
from app.tables.registry import add_table, new_table, services
from app.tables.seats import Seat, TableOptions, computer_seats
from app.tables.saving import rebuilt
from app.tables.table import LOG_LENGTH, Table
from app.visitor import TABLES_KEY, guest_token
from models.db import session_scope
from models.tables import load_table, table_steps

CHINCHON = GAMES_BY_ID['chinchon']


def chinchon_position(*, seats: int = 2, hands: dict[int, str] | None = None, discard: str | None = None,
                      stock_top: str | None = None, current: int = 0, dealer: int | None = None,
                      scores: list[int] | None = None, limit: int = 100, buyback: bool = False,
                      speed: str = 'instant', stock_size: int | None = None, reshuffles: int = 0,
                      seed: int = 7) -> Table:
    """A table (not stored yet) with a person at seat 0 and easy computers in the rest, at the start
    of ``current``'s turn (``chinchon.from_position``: ``discard`` is the whole discard pile, one
    dealt card without it; ``dealer`` defaults to the player before ``current``)."""
    options = TableOptions(seats=seats, level='easy', speed=speed, hints=True,
                           rules={'limit': limit, 'buyback': buyback})
    state = chinchon.from_position(CHINCHON.make_rules(options.rules), hands=hands, seats=seats,
                                   discard=discard or '', stock_top=stock_top or '', current=current,
                                   dealer=dealer, scores=scores, stock_size=stock_size, reshuffles=reshuffles,
                                   seed=seed, hand_seeds=services().deals.hand_seed)
    return new_table(CHINCHON, options, computer_seats(options, [Seat('person')]), state=state, seed=seed)


def seat_user(table: Table) -> str:
    """Seat the test's browser at seat 0, store the table and remember it in the browser (call
    after user.open, so that the browser's storage exists). Returns the table's address."""
    table.seats[0].guest = guest_token()
    add_table(table)
    app.storage.user[TABLES_KEY] = {table.game.id: table.id}
    options = table.options
    app.storage.user[options_key(table.game)] = {'seats': options.seats, 'level': options.level,
                                                 'speed': options.speed, 'hints': options.hints, **options.rules}
    return table_path(table.id)


def ronda_position(*, hands: list[str], loose: str, piles: list[str] | None = None,
                   pile_sizes: list[int] | None = None, stock: str = '', current: int = 0,
                   dealer: int | None = None, hints: bool = True, speed: str = 'instant',
                   last_runner: int | None = None, seed: int = 3) -> Table:
    """A Ronda Robada table (not stored yet) with a person at seat 0 and easy computers in the
    rest, at this position (``ronda_robada.from_position``): piles are written bottom to top, the
    cards ``pile_sizes`` adds to them dealt under the named ones; the stock, front first, holds
    every card left, so the position must leave it a size a deal leaves."""
    game = GAMES_BY_ID['ronda-robada']
    options = TableOptions(seats=len(hands), level='easy', speed=speed, hints=hints)
    state = ronda_robada.from_position(game.make_rules(options.rules), hands=hands, loose=loose, piles=piles,
                                       pile_sizes=pile_sizes, stock=stock, current=current, dealer=dealer,
                                       last_runner=last_runner, seed=seed)
    return new_table(game, options, computer_seats(options, [Seat('person')]), state=state, seed=seed)


def my_table_path() -> str:
    """The address of the browser's latest Chinchón table."""
    return table_path(app.storage.user[TABLES_KEY]['chinchon'])


def stored_table(table_id: str | None = None) -> dict[str, Any]:
    """What the database holds of a table (default: the browser's latest Chinchón table), as a load
    rebuilds it: its last whole write with the steps appended since."""
    table_id = table_id or app.storage.user[TABLES_KEY]['chinchon']
    with session_scope() as session:
        row = load_table(session=session, table_id=table_id)
        steps = [json.loads(step) for step in table_steps(session=session, table_id=table_id)]
        whole = rebuilt(GAMES_BY_ID[row.game_id], json.loads(row.state_json), steps, log_length=LOG_LENGTH)
        return {**whole, 'version': row.version, 'status': row.status}


def continental_position(*, hands: list[str], hand_number: int = 1, phase: str = 'play', turn: int = 0,
                         stock: str = '', stock_size: int | None = None, discard: str = '4c',
                         melds: list[tuple[int, str]] | None = None, down: list[bool] | None = None,
                         offer: dict[str, Any] | None = None, robo_de_contra: bool = True,
                         speed: str = 'slow', seed: int = 3, contracts: int = 7) -> Table:
    """A Continental table (not stored yet) with a person at seat 0 and easy computers in the rest,
    at this position (``continental.from_position``). ``stock`` (its top cards) and ``discard``
    are written bottom to top (the last card is the top); the stock holds every card left, or
    ``stock_size`` cards and the discard pile the others. ``melds`` are (owner, cards) on the
    table, each player down owning the contract's; ``offer``: discarder, order, passed.
    ``contracts``: how many hands the game plays (fewer than 7 only in the daily deal's format)."""
    game = GAMES_BY_ID['continental']
    options = TableOptions(seats=len(hands), level='easy', speed=speed, hints=True,
                           rules={'robo_de_contra': robo_de_contra})
    rules = game.make_rules(options.rules, fixed={'hands': contracts})
    state = continental.from_position(rules, hands=hands, hand_number=hand_number,
                                      phase=phase, turn=turn, stock=stock, stock_size=stock_size, discard=discard,
                                      melds=melds or (), down=down, offer=offer, seed=seed,
                                      hand_seeds=services().deals.hand_seed)
    return new_table(game, options, computer_seats(options, [Seat('person')]), state=state, seed=seed)
