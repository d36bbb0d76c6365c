"""The edge of a table: one frozen snapshot out per seat, commands in through a SeatPort."""
from __future__ import annotations

import dataclasses

import pytest

from app.engine.chinchon import DrawStock
from app.engine.protocol import IllegalAction
from app.tables.port import SeatPort
from app.tables.room import SPECTATOR

from table_positions import chinchon_position

HAND = '1o 2o 3o 5c 7e 11b 12c'


def test_a_screen_is_told_of_its_own_move_once_its_command_has_returned() -> None:
    table = chinchon_position(hands={0: HAND}, stock_top='4e')
    port, told = SeatPort(table, 0), []
    table.subscribe(0, lambda snapshot: told.append(snapshot.version))
    with port.command():
        port.act(DrawStock(), table.version)
        assert told == []   # never redrawn in the middle of its own action
    assert told == [table.version]   # once, after it


def test_a_refused_command_tells_nobody_and_changes_nothing() -> None:
    table = chinchon_position(hands={0: HAND}, stock_top='4e')
    port, told = SeatPort(table, 0), []
    table.subscribe(0, lambda snapshot: told.append(snapshot))
    before = port.snapshot()
    with pytest.raises(IllegalAction) as refusal:
        port.act(DrawStock(), table.version - 1)
    assert refusal.value.code == 'stale' and told == [] and port.snapshot() == before


def test_a_snapshot_is_frozen_and_a_spectators_holds_no_card_nor_token() -> None:
    table = chinchon_position(hands={0: HAND, 1: '4c 6c 7c 10c 10e 11e 12e'}, stock_top='4e')
    table.seats[0].guest = 'the-browser-token'   # what seats a browser: never shown
    mine, watched = SeatPort(table, 0).snapshot(), SeatPort(table, SPECTATOR).snapshot()
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.version = 99
    assert [str(card) for card in mine.view.hand] == HAND.split() and list(mine.hand_order) == HAND.split()
    assert watched.view.hand == () and watched.view.legal_actions == () and watched.hand_order == ()
    assert not any(hasattr(seat, 'guest') or hasattr(seat, 'user_id') for seat in watched.seats)
    shown = repr(watched)
    assert 'the-browser-token' not in shown and not any(f'Card({code})' in shown for code in ['4e', *HAND.split(), '4c'])


def test_an_arranged_hand_keeps_only_the_cards_it_holds_and_follows_them() -> None:
    table = chinchon_position(hands={0: HAND}, stock_top='4e')
    port = SeatPort(table, 0)
    arranged = list(reversed(HAND.split()))
    port.arrange(arranged + ['x' * 5000, '9z', 7])   # a crafted order: nothing but your cards is kept
    assert table.hand_orders[0] == arranged and list(port.snapshot().hand_order) == arranged
    port.act(DrawStock(), table.version)
    assert list(port.snapshot().hand_order) == arranged + ['4e']   # the card drawn joins at the right
