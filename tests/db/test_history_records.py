"""History records and abandoned tables on SQLite and PostgreSQL: an abandoned game counts as
played, never as won, and stays out of the averages, bests and timeline; each hand keeps its
points (a void hand as such); one account's unfinished tables are found and closed exactly once.
The daily deal's tries, the games against computers of one level and the games with people are
counted apart."""
import json
from datetime import UTC, datetime, timedelta

import pytest

from app.history import (SeatResult, game_detail, history_page, record_finished_game, score_timeline, totals_by_game,
                         totals_by_level, totals_with_people)
from app.tables.seats import TableOptions
from models.db import session_scope
from models.tables import (GameTable, abandon_table_if_version, create_user, insert_table, load_table,
                           unfinished_tables, utcnow)

pytestmark = pytest.mark.usefixtures('database')
ENDED = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def account(name: str) -> int:
    with session_scope() as session:
        return create_user(session=session, username=name, display_name=name, password_hash='x', language=None).id


def game(user_id: int, score: int, *, won: bool = False, abandoned: bool = False, minutes: int = 0, **more) -> int:
    return record_finished_game(
        user_id=user_id, game_id='chinchon', options={}, started_at=ENDED, ended_at=ENDED + timedelta(minutes=minutes),
        hands_played=2, abandoned=abandoned,
        seats=[SeatResult('Ana', True, score, 1, won), SeatResult('hard', False, 60, 2, not won, name='Lucía')],
        **more)


def test_an_abandoned_game_counts_as_played_but_not_in_wins_averages_or_the_timeline():
    ana = account('Ana')
    game(ana, 20, won=True)
    game(ana, 40, minutes=1)
    record = game(ana, 3, won=True, abandoned=True, minutes=2)   # "won" is ignored for an abandoned game
    [totals] = totals_by_game(user_id=ana)
    assert (totals.played, totals.wins, totals.average, totals.best) == (3, 1, 30.0, 20)
    assert [score for _, score in score_timeline(user_id=ana)['chinchon']] == [20, 40]
    detail = game_detail(user_id=ana, record_id=record)
    assert detail.record.abandoned and not detail.record.won
    assert not any(seat.is_winner for seat in detail.record.seats)


def test_only_abandoned_games_give_no_average_and_no_best():
    ana = account('Ana')
    game(ana, 3, abandoned=True)
    [totals] = totals_by_game(user_id=ana)
    assert (totals.played, totals.wins, totals.average, totals.best) == (1, 0, None, None)


def test_each_hand_keeps_its_points_a_void_hand_and_the_computers_name():
    ana = account('Ana')
    record = game(ana, 20, deal_commitments=[('c1', 's1'), ('c2', 's2'), ('c3', 's3')],
                  hand_points=[(5, 30), None])   # the third hand's points were not kept
    detail = game_detail(user_id=ana, record_id=record)
    assert [(hand.number, hand.seed, hand.points, hand.void) for hand in detail.hands] == [
        (1, 's1', (5, 30), False), (2, 's2', None, True), (3, 's3', None, False)]
    assert [seat.name for seat in detail.record.seats] == ['', 'Lucía']
    assert game_detail(user_id=account('Bea'), record_id=record) is None   # another account's


def opponents(user_id: int, score: int, won: bool, *others: SeatResult, options: dict | None = None) -> int:
    return record_finished_game(user_id=user_id, game_id='chinchon', options=options or {}, started_at=ENDED,
                                ended_at=ENDED, hands_played=5,
                                seats=[SeatResult('Ana', True, score, 1 if won else 2, won, name='Ana'), *others])


def computer(level: str, name: str = 'Lucía') -> SeatResult:
    return SeatResult(level, False, 50, 2, False, name=name)


def person(name: str) -> SeatResult:
    """Another person at the table, recorded as app.tables.records records them: under their name."""
    return SeatResult(name, False, 50, 2, False, name=name)


def test_the_daily_tries_are_counted_apart_from_the_ordinary_games():
    ana = account('Ana')
    opponents(ana, 20, True, computer('hard'))
    opponents(ana, 40, False, computer('hard'))
    daily = TableOptions(seats=3, level='hard', hints=False, daily='2026-06-01').to_dict()   # as a daily table has them
    record = opponents(ana, 7, True, computer('hard'), computer('hard', 'Mateo'), options=daily)
    [ordinary] = totals_by_game(user_id=ana)
    assert (ordinary.played, ordinary.wins, ordinary.average, ordinary.best) == (2, 1, 30.0, 20)
    [tries] = totals_by_game(user_id=ana, daily=True)
    assert (tries.key, tries.played, tries.wins, tries.average, tries.best) == ('chinchon', 1, 1, 7.0, 7)
    assert [score for _, score in score_timeline(user_id=ana)['chinchon']] == [20, 40]
    assert [(group.key, group.played) for group in totals_by_level(user_id=ana)] == [('hard', 2)]
    assert {game.id: game.daily for game in history_page(user_id=ana).games}[record] == '2026-06-01'
    assert game_detail(user_id=ana, record_id=record).record.daily == '2026-06-01'


def test_the_level_figures_hold_games_against_computers_of_that_level_only():
    ana = account('Ana')
    opponents(ana, 10, True, computer('easy'))
    opponents(ana, 30, False, computer('hard'), computer('hard', 'Mateo'))
    public = opponents(ana, 20, True, person('Bea'), computer('hard'))    # a public table filled with a computer
    opponents(ana, 25, False, person('hard'))                            # a person who goes by a level's name
    opponents(ana, 60, False, computer('easy'), computer('hard', 'Mateo'))  # computers of two levels
    assert {group.key: (group.played, group.wins) for group in totals_by_level(user_id=ana)} == \
        {'easy': (1, 1), 'hard': (1, 0)}
    people = totals_with_people(user_id=ana)
    assert (people.played, people.wins, people.win_rate) == (2, 1, 0.5)
    assert totals_with_people(user_id=ana, game_id='continental') is None
    [everything] = totals_by_game(user_id=ana)
    assert everything.played == 5   # each of them is a game of Chinchón all the same
    seats = game_detail(user_id=ana, record_id=public).record
    assert seats.with_people and [seat.is_computer for seat in seats.seats] == [False, False, True]


def test_a_game_recorded_before_seats_had_names_tells_a_computer_by_its_level():
    ana = account('Ana')
    opponents(ana, 10, True, SeatResult('normal', False, 50, 2, False))
    opponents(ana, 10, True, SeatResult('Bea', False, 50, 2, False))
    assert [(group.key, group.played) for group in totals_by_level(user_id=ana)] == [('normal', 1)]
    assert totals_with_people(user_id=ana).played == 1


def table_row(table_id: str, user_id: int | None, game_id: str = 'chinchon', status: str = 'playing') -> None:
    with session_scope() as session:
        insert_table(session=session, table=GameTable(id=table_id, game_id=game_id, state_json='{}', status=status,
                                                      user_id=user_id, seats_json=json.dumps([])))


def test_an_accounts_unfinished_tables_are_found_and_closed_once():
    ana, bea = account('Ana'), account('Bea')
    table_row('ana-chinchon', ana)
    table_row('ana-continental', ana, game_id='continental')
    table_row('ana-over', ana, status='over')
    table_row('bea-chinchon', bea)
    table_row('guest', None)
    with session_scope() as session:
        assert unfinished_tables(session=session, user_id=ana, game_id='chinchon') == ['ana-chinchon']
        later = utcnow() + timedelta(days=31)
        assert sorted(unfinished_tables(session=session, before=later)) == \
            ['ana-chinchon', 'ana-continental', 'bea-chinchon']   # the guest's is closed in bulk
        assert not abandon_table_if_version(session=session, table_id='ana-chinchon', expected_version=5)
        assert abandon_table_if_version(session=session, table_id='ana-chinchon', expected_version=0)
        assert not abandon_table_if_version(session=session, table_id='ana-chinchon', expected_version=0)
        assert not abandon_table_if_version(session=session, table_id='ana-over', expected_version=0)
    with session_scope() as session:
        closed = load_table(session=session, table_id='ana-chinchon')
        assert (closed.status, closed.version) == ('abandoned', 1)
        assert unfinished_tables(session=session, user_id=ana, game_id='chinchon') == []
