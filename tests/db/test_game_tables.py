"""Saved tables on SQLite and PostgreSQL: insert and load, the compare-and-set that lets only one
writer through per version, and idle tables abandoned."""
import json
import threading
from datetime import timedelta

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from models.db import get_engine, session_scope
from models.tables import (GameTable, abandon_idle_tables, insert_table, load_table, save_table_if_version,
                           table_steps, utcnow)

pytestmark = pytest.mark.usefixtures('database')

SEATS = json.dumps([{'kind': 'human', 'name': 'Ana'}, {'kind': 'computer', 'level': 'hard'}])


def new_table(table_id='t1', **fields) -> GameTable:
    with session_scope() as session:
        insert_table(session=session, table=GameTable(id=table_id, game_id='chinchon', options_json='{"target": 100}',
                                                      seats_json=SEATS, state_json='{"hand": 1}', **fields))
    return load(table_id)


def load(table_id='t1') -> GameTable | None:
    """The row as stored now, readable after its session is gone."""
    with session_scope() as session:
        table = load_table(session=session, table_id=table_id)
        if table is not None:
            session.expunge(table)
        return table


def save(expected_version, version, state='{"hand": 2}', status='playing', table_id='t1') -> bool:
    with session_scope() as session:
        return save_table_if_version(session=session, table_id=table_id, expected_version=expected_version,
                                     version=version, state_json=state, seats_json=SEATS, status=status)


def test_a_new_table_is_saved_and_found_by_its_id():
    before = utcnow()
    table = new_table()
    assert (table.game_id, table.version, table.status, table.state_json) == ('chinchon', 0, 'playing', '{"hand": 1}')
    assert json.loads(table.seats_json)[1] == {'kind': 'computer', 'level': 'hard'}
    assert before <= table.created_at <= table.updated_at <= utcnow()
    assert load('no-such-table') is None


def test_an_id_is_taken_only_once():
    new_table('t1')
    with pytest.raises(IntegrityError):
        new_table('t1')
    assert load('t1').state_json == '{"hand": 1}'


def test_a_save_from_the_current_version_is_written():
    created = new_table()
    assert save(expected_version=0, version=1, state='{"hand": 1, "discarded": "1O"}', status='over')
    saved = load()
    assert (saved.version, saved.state_json, saved.status) == (1, '{"hand": 1, "discarded": "1O"}', 'over')
    assert saved.updated_at >= created.updated_at


def test_a_save_from_a_stale_version_writes_nothing():
    new_table()
    assert save(expected_version=0, version=1, state='{"first": true}')
    assert not save(expected_version=0, version=1, state='{"second": true}')
    assert not save(expected_version=7, version=8, state='{"from the future": true}')
    assert not save(expected_version=0, version=1, table_id='no-such-table')
    assert (load().version, load().state_json) == (1, '{"first": true}')


def append(expected_version, version, steps, table_id='t1') -> bool:
    with session_scope() as session:
        return save_table_if_version(session=session, table_id=table_id, expected_version=expected_version,
                                     version=version, steps_json=steps, status='playing')


def steps(table_id='t1') -> list[str]:
    with session_scope() as session:
        return table_steps(session=session, table_id=table_id)


def test_steps_are_appended_in_order_until_a_whole_write_replaces_them():
    new_table()
    assert append(0, 1, '{"moves": [1]}') and append(1, 3, '{"moves": [2, 3]}')
    assert append(3, 3, '{"extras": {}}')   # a change between steps (a hand arranged): same version
    assert steps() == ['{"moves": [1]}', '{"moves": [2, 3]}', '{"extras": {}}']
    assert (load().version, load().state_json) == (3, '{"hand": 1}')   # the whole state stays as it was
    assert save(expected_version=3, version=4, state='{"hand": 2}')
    assert steps() == [] and load().version == 4


def test_a_stale_append_writes_nothing():
    new_table()
    assert append(0, 1, '{"moves": [1]}')
    assert not append(0, 1, '{"moves": ["again"]}')
    assert not append(0, 1, '{"moves": [1]}', table_id='no-such-table')
    assert steps() == ['{"moves": [1]}'] and load().version == 1


def test_the_steps_go_with_their_table():
    new_table()
    append(0, 1, '{"moves": [1]}')
    with session_scope() as session:
        session.delete(load_table(session=session, table_id='t1'))
    assert steps() == []


def test_of_two_writers_holding_the_same_version_exactly_one_wins():
    """The first writer's transaction is still open when the second one saves: the second waits
    for the row, then finds the version moved on. Whatever the timing, one True and one False."""
    new_table()
    results = {}
    with Session(get_engine()) as first:
        results['first'] = save_table_if_version(session=first, table_id='t1', expected_version=0, version=1,
                                                 state_json='{"by": "first"}', seats_json=SEATS, status='playing')
        second = threading.Thread(target=lambda: results.setdefault('second', save(0, 1, state='{"by": "second"}')))
        second.start()
        first.commit()
    second.join(timeout=30)
    assert not second.is_alive()
    assert results == {'first': True, 'second': False}
    assert (load().version, load().state_json) == (1, '{"by": "first"}')


def test_many_writers_at_once_on_one_version_let_one_through():
    new_table()
    writers = 6
    start = threading.Barrier(writers)
    wins = []

    def write(number):
        start.wait()
        if save(0, 1, state=json.dumps({'by': number})):
            wins.append(number)

    threads = [threading.Thread(target=write, args=(number,)) for number in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(wins) == 1
    assert json.loads(load().state_json) == {'by': wins[0]} and load().version == 1


def test_idle_playing_tables_are_abandoned_and_the_others_kept():
    now = utcnow()
    new_table('idle', updated_at=now - timedelta(hours=3))
    new_table('finished long ago', status='over', updated_at=now - timedelta(days=2))
    new_table('busy', updated_at=now - timedelta(minutes=5))
    with session_scope() as session:
        assert abandon_idle_tables(session=session, before=now - timedelta(hours=1)) == 1
    assert [load(name).status for name in ('idle', 'finished long ago', 'busy')] == ['abandoned', 'over', 'playing']
    with session_scope() as session:
        assert abandon_idle_tables(session=session, before=now - timedelta(hours=1)) == 0


def test_a_process_still_holding_an_abandoned_table_cannot_save_it_back_to_life():
    new_table(updated_at=utcnow() - timedelta(hours=3))
    with session_scope() as session:
        abandon_idle_tables(session=session, before=utcnow() - timedelta(hours=1))
    assert not save(expected_version=0, version=1, status='playing')
    assert load().status == 'abandoned'
