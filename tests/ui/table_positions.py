"""Known Chinchón positions for table stories: a real game from a seed, with chosen cards moved into
place (every card stays in the game exactly once), seated for the test's browser and stored where
/table/<id> finds it."""
from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from nicegui import app

from app.games import GAMES_BY_ID
from app.pages.tables import TABLES_KEY, guest_token, options_key, table_path
from app.tables.registry import add_table, new_table, new_table_id, services
from app.engine import continental, ronda_robada
from app.engine.cards import parse_french, parse_spanish
from app.engine.continental.melds import table_meld
from app.tables.seats import Seat, TableOptions, computer_seats
from app.tables.table import Table
from models.db import session_scope
from models.tables import load_table

CHINCHON = GAMES_BY_ID['chinchon']


def chinchon_position(*, seats: int = 2, hands: dict[int, str] | None = None, discard: str | None = None,
                      stock_top: str | None = None, current: int = 0, dealer: int | None = None,
                      scores: list[int] | None = None, limit: int = 100, buyback: bool = False,
                      speed: str = 'instant', seed: int = 7) -> Table:
    """A table (not stored yet) with a person at seat 0 and easy computers in the rest."""
    options = TableOptions(seats=seats, level='easy', speed=speed, hints=True,
                           rules={'limit': limit, 'buyback': buyback})
    table = new_table(CHINCHON, options, computer_seats(options, [Seat('person')]), seed=seed)
    data = table.to_dict()
    state = data['state']
    wanted = {seat: text.split() for seat, text in (hands or {}).items()}
    fixed = [card for cards in wanted.values() for card in cards] + ([discard] if discard else []) \
        + ([stock_top] if stock_top else [])
    pool = state['stock'] + state['discard'] + [card for hand in state['hands'] for card in hand]
    rest = Counter(pool)
    rest.subtract(fixed)
    assert min(rest.values(), default=0) >= 0, 'a card asked for twice'
    # the deal itself came from a secret hand seed: the cards not asked for are dealt again from
    # the test's seed, so the position (and every computer's move from it) replays exactly
    spare = sorted(rest.elements())
    random.Random(seed).shuffle(spare)
    for seat in range(seats):
        state['hands'][seat] = wanted.get(seat) or [spare.pop() for _ in range(7)]
    state['discard'] = [discard or spare.pop()]
    state['stock'] = spare + ([stock_top] if stock_top else [])   # the last card is the top
    state['current'], state['phase'] = current, 'draw'
    if dealer is not None:
        state['dealer'] = dealer
    data['dealer'] = state['dealer']   # this game's first dealer, as far as the table knows
    if scores is not None:
        state['scores'] = list(scores)
    return Table.from_saved(table.id, CHINCHON.id, options.to_dict(), [seat.to_dict() for seat in table.seats],
                            data, 0, services=services())


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


def ronda_position(*, hands: list[str], loose: str, piles: list[str] | None = None, stock: str = '',
                   current: int = 0, dealer: int | None = None, hints: bool = True, speed: str = 'instant',
                   last_runner: int | None = None) -> Table:
    """A Ronda Robada table (not stored yet) with a person at seat 0 and easy computers in the
    rest, at this position; piles are written bottom to top, the stock front first."""
    game = GAMES_BY_ID['ronda-robada']
    seats = len(hands)
    options = TableOptions(seats=seats, level='easy', speed=speed, hints=hints)
    dealer = (current - 1) % seats if dealer is None else dealer
    state = ronda_robada.GameState(ronda_robada.Rules(), seats, 'a-known-seed', stock=parse_spanish(stock),
                                   hands=[parse_spanish(hand) for hand in hands], loose=parse_spanish(loose),
                                   piles=[parse_spanish(pile) for pile in (piles or [''] * seats)],
                                   rng=random.Random(1), current=current, dealer=dealer, last_runner=last_runner)
    return Table(new_table_id(), game, options, computer_seats(options, [Seat('person')]), services=services(),
                 seed=3, state=state)


def my_table_path() -> str:
    """The address of the browser's latest Chinchón table."""
    return table_path(app.storage.user[TABLES_KEY]['chinchon'])


def stored_table(table_id: str | None = None) -> dict[str, Any]:
    """What the database holds of a table (default: the browser's latest Chinchón table)."""
    table_id = table_id or app.storage.user[TABLES_KEY]['chinchon']
    with session_scope() as session:
        row = load_table(session=session, table_id=table_id)
        return {**json.loads(row.state_json), 'version': row.version, 'status': row.status}


def continental_position(*, hands: list[str], hand_number: int = 1, phase: str = 'play', turn: int = 0,
                         stock: str = '', discard: str = '4c', melds: list[tuple[int, str]] | None = None,
                         down: list[bool] | None = None, offer: dict[str, Any] | None = None,
                         robo_de_contra: bool = True, speed: str = 'slow') -> Table:
    """A Continental table (not stored yet) with a person at seat 0 and easy computers in the rest,
    at this position. ``stock`` and ``discard`` are written bottom to top (the last card is the
    top); ``melds`` are (owner, cards) on the table; ``offer``: discarder, order, passed."""
    game = GAMES_BY_ID['continental']
    seats = len(hands)
    options = TableOptions(seats=seats, level='easy', speed=speed, hints=True,
                           rules={'robo_de_contra': robo_de_contra})
    state = continental.new_game(continental.Rules(robo_de_contra=robo_de_contra), seats, random.Random(1), dealer=seats - 1)
    state.hand_number = hand_number
    state.seeds = [f'seed-{n}' for n in range(1, hand_number + 1)]
    state.hand_scores = [[0] * seats for _ in range(hand_number - 1)]
    state.hands = [parse_french(hand) for hand in hands]
    state.stock, state.discard = parse_french(stock), parse_french(discard)
    state.table = [table_meld(index, owner, parse_french(cards)) for index, (owner, cards) in enumerate(melds or [])]
    state.down = list(down or [False] * seats)
    state.phase, state.turn = phase, turn
    state.offer = None if offer is None else {'card': state.discard[-1], 'discarder': offer['discarder'],
                                              'order': offer['order'], 'passed': offer.get('passed', [])}
    return Table(new_table_id(), game, options, computer_seats(options, [Seat('person')]), services=services(),
                 seed=3, state=state)
