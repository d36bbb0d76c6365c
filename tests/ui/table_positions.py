"""Known Chinchón positions for table stories: a real game from a seed, with chosen cards moved into
place (every card stays in the game exactly once), saved where the page looks for it."""
from __future__ import annotations

from collections import Counter
from typing import Any

from nicegui import app

from app.controllers.table import TableController, TableOptions, save_table, saved_table
from app.games import GAMES_BY_ID
from app.pages.chinchon import OPTIONS_KEY


def chinchon_position(*, seats: int = 2, hands: dict[int, str] | None = None, discard: str | None = None,
                      stock_top: str | None = None, current: int = 0, dealer: int | None = None,
                      scores: list[int] | None = None, limit: int = 100, buyback: bool = False,
                      speed: str = 'instant', seed: int = 7) -> TableController:
    options = TableOptions(seats=seats, level='easy', speed=speed, hints=True,
                           rules={'limit': limit, 'buyback': buyback})
    data = TableController(GAMES_BY_ID['chinchon'], options, seed=seed).to_dict()
    state = data['state']
    wanted = {seat: text.split() for seat, text in (hands or {}).items()}
    fixed = [card for cards in wanted.values() for card in cards] + ([discard] if discard else []) \
        + ([stock_top] if stock_top else [])
    pool = state['stock'] + state['discard'] + [card for hand in state['hands'] for card in hand]
    rest = Counter(pool)
    rest.subtract(fixed)
    assert min(rest.values(), default=0) >= 0, 'a card asked for twice'
    spare = list(rest.elements())
    for seat in range(seats):
        state['hands'][seat] = wanted.get(seat) or [spare.pop() for _ in range(7)]
    state['discard'] = [discard or spare.pop()]
    state['stock'] = spare + ([stock_top] if stock_top else [])   # the last card is the top
    state['current'], state['phase'] = current, 'draw'
    if dealer is not None:
        state['dealer'] = dealer
    if scores is not None:
        state['scores'] = list(scores)
    return TableController.from_dict(data)


def save_for_user(controller: TableController) -> None:
    """Put the table where /play/chinchon finds it (call after user.open so the storage exists)."""
    save_table(app.storage.user, controller)
    app.storage.user[OPTIONS_KEY] = {'seats': controller.options.seats, 'level': 'easy', 'speed': 'instant',
                                     'hints': True, 'limit': controller.options.rules['limit'],
                                     'buyback': controller.options.rules['buyback']}


def stored_table() -> dict[str, Any]:
    return saved_table(app.storage.user, GAMES_BY_ID['chinchon'])
