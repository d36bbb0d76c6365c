"""The Table as the one authority of a game: whose actions it takes, what each screen is told, and
the tables' life in the registry (one object per id, abandoned after 30 days)."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from nicegui.testing import User

from app.engine.chinchon import Discard, DrawDiscard, DrawStock
from app.engine.protocol import IllegalAction
from app.engine.cards import spanish_card
from app.tables import registry
from app.tables.worker import computer_choice
from models.tables import utcnow

from table_positions import chinchon_position, seat_user


def snapshot(table) -> str:
    return json.dumps(table.to_dict(), sort_keys=True) + f'@{table.version}'


@pytest.mark.parametrize('seat, version, action, code', [
    (1, 0, DrawStock(), 'not_your_seat'),          # a computer's seat
    (7, 0, DrawStock(), 'not_your_seat'),          # no such seat
    (0, 3, DrawStock(), 'stale'),                  # a click from a screen of another version
    (0, 0, Discard(spanish_card('1o')), 'phase'),  # the rules refuse it: you must draw first
])
def test_refused_actions_say_why_and_change_nothing(seat, version, action, code) -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'})
    before = snapshot(table)
    with pytest.raises(IllegalAction) as refusal:
        table.act(seat, action, version)
    assert refusal.value.code == code or (code == 'phase' and refusal.value.code != 'stale')
    assert snapshot(table) == before


def test_a_click_from_an_out_of_date_screen_is_refused_after_the_table_moved() -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e')
    seen = table.version
    table.act(0, DrawStock(), seen)              # one tab draws...
    before = snapshot(table)
    with pytest.raises(IllegalAction) as refusal:
        table.act(0, DrawDiscard(), seen)        # ...the other, still showing the old table, takes the discard
    assert refusal.value.code == 'stale' and snapshot(table) == before


def test_each_subscriber_receives_its_own_seats_view() -> None:
    table = chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c', 1: '4c 6c 7c 10c 10e 11e 12e'},
                              stock_top='4e')
    received: dict[int, list] = {0: [], 1: []}
    for seat in (0, 1):
        table.subscribe(seat, lambda snapshot, seat=seat: received[seat].append(snapshot.view))
    table.act(0, DrawStock(), table.version)
    assert [str(card) for card in received[0][-1].hand] == '1o 2o 3o 5c 7e 11b 12c 4e'.split()
    assert [str(card) for card in received[1][-1].hand] == '4c 6c 7c 10c 10e 11e 12e'.split()
    assert received[0][-1].current_seat == received[1][-1].current_seat == 0


@pytest.mark.usefixtures('fresh_accounts')   # no table left by another test: the counts are this one's
async def test_a_table_left_alone_for_30_days_is_closed_as_abandoned(user: User) -> None:
    await user.open('/')
    path = seat_user(chinchon_position())
    table_id = path.rsplit('/', 1)[1]
    assert registry.abandon_idle(now=utcnow() + timedelta(days=29)) == 0
    assert registry.abandon_idle(now=utcnow() + timedelta(days=31)) >= 1
    assert registry.open_table(table_id) is None
    response = await user.http_client.get(path)
    assert response.status_code == 404
    assert 'Esta mesa no existe o se cerró por llevar 30 días sin jugarse.' in response.text


async def test_another_browser_cannot_sit_at_your_table(user: User) -> None:
    await user.open('/')
    table = chinchon_position()
    table.seats[0].guest = 'somebody-elses-browser-token'
    registry.add_table(table)
    await user.open(f'/table/{table.id}')
    await user.should_see('Esta mesa es de otros jugadores: no tienes sitio en ella.')
    await user.should_not_see(marker='hand')


@pytest.mark.parametrize('address', ['/table/nope', '/table/' + 'x' * 16, '/table/%27%3B--aaaaaaaaaaaa'])
async def test_unknown_or_malformed_table_addresses_say_so(user: User, address: str) -> None:
    response = await user.http_client.get(address)
    assert response.status_code == 404
    assert 'Esta mesa no existe o se cerró por llevar 30 días sin jugarse.' in response.text


def test_deal_commitments_are_read_from_every_games_view() -> None:
    from app.engine.cards import commitment
    from app.engine.continental import GameState
    from app.tables.records import deal_commitments

    state = GameState.from_dict({**_continental_saved(), 'hand_scores': [[0, 5], [3, 0]], 'seeds': ['s1', 's2', 's3']})
    assert deal_commitments(state.view(0)) == [(commitment('s1'), 's1'), (commitment('s2'), 's2')]
    assert [deal.hand_number for deal in state.view(0).past_deals] == [1, 2]   # hands counted from 1


def _continental_saved() -> dict:
    import random

    from app.engine import continental
    return continental.new_game(continental.Rules(), 2, random.Random(1)).to_dict()


async def test_the_finished_game_is_recorded_for_every_account_holder_seated(fresh_accounts) -> None:
    from app import accounts
    from app.history import history_page
    from app.tables.seats import Seat

    ana = accounts.register(username='ana', password='correct horse', confirmation='correct horse')
    bea = accounts.register(username='bea', password='correct horse', confirmation='correct horse')
    # Lucía (seat 1) closes at once; you (90 + 57) and Bea (95 + her loose cards) go over: game over
    table = chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b'},
                              stock_top='2c', current=1, dealer=0, scores=[90, 0, 95], seats=3)
    table.seats[0].user_id = ana.id
    table.seats[2] = Seat('person', name='Bea', user_id=bea.id, guest='bea-browser')
    registry.add_table(table)
    leave = registry.watch(table, 0, lambda snapshot: None)
    await table.settle()          # Lucía closes, and the game is over at once (no count to wait on)
    leave()
    assert table.is_over()
    for account, seat in ((ana, 0), (bea, 2)):
        page = history_page(user_id=account.id)
        assert page.total == 1
        assert page.games[0].score == table.state.outcome().scores[seat]


async def test_a_database_fault_when_dealing_says_so_and_creates_nothing(user: User, monkeypatch, caplog) -> None:
    from sqlalchemy.exc import OperationalError

    def broken(**_: object) -> None:
        raise OperationalError('INSERT', {}, Exception('disk I/O error'))

    monkeypatch.setattr(registry, 'insert_table', broken)
    await user.open('/play/chinchon')
    before = {table.id for table in registry.live_tables()}
    user.find(marker='start').click()
    await user.should_see('No hemos podido abrir la mesa ahora mismo. Inténtalo de nuevo en unos segundos.')
    assert {table.id for table in registry.live_tables()} == before
    await user.should_see('Nueva partida de Chinchón')          # still on the setup form
    assert 'could not store a new chinchon table' in caplog.text   # and the fault is logged for us
    caplog.clear()


async def test_a_database_fault_while_saving_holds_the_table_until_a_retry_works(monkeypatch, clock) -> None:
    from sqlalchemy.exc import OperationalError

    from app.engine.protocol import IllegalAction
    from app.tables.table import SAVE_DELAY, SAVE_RETRY_FIRST
    from table_positions import stored_table

    clock.autojump = False   # Lucía's reply waits for time the test never gives
    table = registry.add_table(chinchon_position(hands={0: '1o 2o 3o 5c 7e 11b 12c'}, stock_top='4e'))
    real = registry.save_table_if_version
    failing = {'left': 1}

    def flaky(**arguments):
        if failing['left']:
            failing['left'] -= 1
            raise OperationalError('UPDATE', {}, Exception('database is locked'))
        return real(**arguments)

    monkeypatch.setattr(registry, 'save_table_if_version', flaky)
    table.act(0, DrawStock(), table.version)
    await clock.advance(SAVE_DELAY)
    assert stored_table(table.id)['version'] == 0 and table.holding and not table.lost   # kept, not let go
    with pytest.raises(IllegalAction):
        table.act(0, Discard(spanish_card('12c')), table.version)
    await clock.advance(SAVE_RETRY_FIRST)   # the next try works
    assert stored_table(table.id)['version'] == 1 and not table.holding
    table.act(0, Discard(spanish_card('12c')), table.version)
    await clock.advance(SAVE_DELAY)
    saved = stored_table(table.id)
    assert saved['version'] == 2 and saved['state']['discard'][-1] == '12c'


def played_out(table) -> None:
    """Let every seat play as the normal computer would until the game is over (no event loop)."""
    while not table.is_over():
        seat = table.state.current_seat
        table.state.apply(seat, computer_choice(table.game.id, 'normal', f'{table.version}:{seat}', table.view(seat)))


def test_play_again_deals_the_next_game_at_the_same_table_with_the_dealer_one_seat_on() -> None:
    from app.games import GAMES_BY_ID
    from app.tables.seats import Seat, TableOptions, computer_seats
    options = TableOptions(seats=3, level='easy', speed='instant')
    table = registry.new_table(GAMES_BY_ID['ronda-robada'], options, computer_seats(options, [Seat('person')]), seed=5)
    first_dealer = table.dealer
    assert table.state.current_seat == (first_dealer + 1) % 3
    before = snapshot(table)
    with pytest.raises(IllegalAction) as refusal:     # not before the end
        table.next_game(0, table.version)
    assert refusal.value.code == 'game_not_over' and snapshot(table) == before
    played_out(table)
    winners = table.state.outcome().winners
    table.recorded = True
    with pytest.raises(IllegalAction):                # a computer's seat cannot ask
        table.next_game(1, table.version)
    with pytest.raises(IllegalAction):                # nor a screen of an older version
        table.next_game(0, table.version - 1)
    table.next_game(0, table.version)
    assert table.game_number == 2 and not table.is_over() and not table.recorded
    assert table.dealer == table.state.view(0).dealer == (first_dealer + 1) % 3
    assert table.state.current_seat == (first_dealer + 2) % 3
    assert table.games_won() == [int(seat in winners) for seat in range(3)]
    played_out(table)
    assert sum(table.games_won()) >= 2
    saved = registry.Table.from_saved(table.id, 'ronda-robada', options.to_dict(), [s.to_dict() for s in table.seats],
                             json.loads(json.dumps(table.to_dict())), table.version, services=registry.services())
    assert saved.game_number == 2 and saved.dealer == table.dealer and saved.games_won() == table.games_won()


async def test_a_ronda_robada_game_is_recorded_as_pile_points_higher_better_and_again_after_play_again(
        fresh_accounts) -> None:
    from app import accounts
    from app.games import GAMES_BY_ID
    from app.history import history_page
    from app.tables.records import record_table
    from app.tables.seats import Seat, TableOptions, computer_seats

    ana = accounts.register(username='ana', password='correct horse', confirmation='correct horse')
    options = TableOptions(seats=3, level='easy', speed='instant')
    table = registry.add_table(registry.new_table(GAMES_BY_ID['ronda-robada'], options,
                                                  computer_seats(options, [Seat('person', name='ana', user_id=ana.id)]),
                                                  seed=11))
    played_out(table)
    record_table(table)   # what the store hears when a step ends the game
    scores = table.state.outcome().scores
    page = history_page(user_id=ana.id)
    assert page.total == 1 and page.games[0].score == scores[0]
    # placements: the most points first
    assert page.games[0].placement == 1 + sum(score > scores[0] for score in scores)
    table.next_game(0, table.version)
    played_out(table)
    record_table(table)   # what the store hears when a step ends the game
    assert history_page(user_id=ana.id).total == 2


async def test_a_computer_whose_table_changed_while_it_thought_thinks_again(clock) -> None:
    """A note (a stand-in, a reaction) that lands while a computer thinks makes its choice stale:
    it thinks again from the new position instead of leaving the table standing still."""
    from app.tables.services import InlineThinker

    class Interrupted(InlineThinker):
        def __init__(self) -> None:
            self.calls = 0

        async def think(self, game_id, level, seed, view):
            self.calls += 1
            if self.calls == 1:   # the table moves on under this thought, and asks its computers to go on
                table.changed(notes=[{'kind': 'note'}])
                table.computers.start()
            return await super().think(game_id, level, seed, view)

    thinker = Interrupted()
    old = registry.configure(thinker=thinker)
    try:
        table = registry.add_table(chinchon_position(current=1))   # the computer is to play
    finally:
        registry.configure(**vars(old))
    table.subscribe(0, lambda snapshot: None)
    await table.settle()
    assert thinker.calls >= 2 and table.state.current_seat == 0   # it thought again, and played
