"""Ratings as the database keeps them (app.standings), on SQLite and on PostgreSQL: a rated game
moves its people once per table, the computers never, a leaver ends last, ties share; the
ranking lists whoever played 10 rated games, the last within 30 days; two games ending at once
for one person both count."""
from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import select

from app import standings
from app.ratings import COMPUTER_RATINGS, Rating, rate_game
from app.standings import leaderboard, position_of, rating_of, rating_timeline, ratings_of, record_rated_game
from models.db import session_scope
from models.tables import PlayerRating, RatingChange, create_user

NOW = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


def account(name: str) -> int:
    with session_scope() as session:
        return create_user(session=session, username=name, display_name=name, password_hash='x', language=None).id


def stored(user_id: int, game_id: str = 'chinchon', *, mu: float = 25.0, sigma: float = 3.0, games: int = 10,
           last: datetime = NOW) -> None:
    with session_scope() as session:
        session.add(PlayerRating(user_id=user_id, game_id=game_id, mu=mu, sigma=sigma, games=games,
                                 last_played_at=last))


def changes() -> list[RatingChange]:
    with session_scope() as session:
        rows = list(session.exec(select(RatingChange).order_by(RatingChange.id)))
        session.expunge_all()   # read as they are now, not again after the commit
        return rows


def test_the_winner_goes_up_and_the_loser_down(database: str) -> None:
    ana, bea = account('Ana'), account('Bea')
    shown = record_rated_game(game_id='chinchon', table_id='t1', people={0: ana, 1: bea}, computers={},
                              placements=[2, 1], at=NOW)
    assert shown[bea][0] == shown[ana][0] == 1500
    assert shown[bea][1] > 1500 > shown[ana][1]
    assert rating_of(user_id=bea, game_id='chinchon').games == 1
    assert rating_of(user_id=ana, game_id='ronda-robada') == Rating()   # another game is untouched
    rows = {change.user_id: change for change in changes()}
    assert (rows[bea].place, rows[ana].place, rows[bea].seats) == (1, 2, 2)
    assert (rows[bea].before, rows[bea].after) == shown[bea]
    assert rows[bea].mu == pytest.approx(rating_of(user_id=bea, game_id='chinchon').mu)


def test_a_leaver_ends_last_whatever_it_scored(database: str) -> None:
    ana, bea, luis = account('Ana'), account('Bea'), account('Luis')
    shown = record_rated_game(game_id='chinchon', table_id='t1', people={0: ana, 1: bea, 2: luis}, computers={},
                              placements=[1, 2, 3], leavers={0}, at=NOW)
    assert shown[ana][1] < 1500 < shown[luis][1] < shown[bea][1]
    assert {change.user_id: change.place for change in changes()} == {ana: 3, bea: 1, luis: 2}


def test_a_computer_stays_still_and_halves_the_change(database: str) -> None:
    hard = COMPUTER_RATINGS['chinchon']['hard']
    ana, bea, luis = account('Ana'), account('Bea'), account('Luis')
    stored(luis, mu=hard.mu, sigma=hard.sigma, games=40)   # a person rated exactly as the computer
    record_rated_game(game_id='chinchon', table_id='t1', people={0: ana}, computers={1: 'hard'},
                      placements=[1, 2], at=NOW)
    record_rated_game(game_id='chinchon', table_id='t2', people={0: bea, 1: luis}, computers={},
                      placements=[1, 2], at=NOW)
    against_computer, against_person = rating_of(user_id=ana, game_id='chinchon'), rating_of(user_id=bea, game_id='chinchon')
    new = Rating()
    assert against_computer.mu - new.mu == pytest.approx((against_person.mu - new.mu) / 2)
    assert new.sigma - against_computer.sigma == pytest.approx((new.sigma - against_person.sigma) / 2)
    assert COMPUTER_RATINGS['chinchon']['hard'] == hard
    with session_scope() as session:   # nothing is kept for the computer's seat
        assert {row.user_id for row in session.exec(select(PlayerRating))} == {ana, bea, luis}


def test_a_table_is_rated_once(database: str) -> None:
    ana, bea = account('Ana'), account('Bea')
    first = record_rated_game(game_id='chinchon', table_id='t1', people={0: ana, 1: bea}, computers={},
                              placements=[1, 2], at=NOW)
    after_first = ratings_of(user_ids=[ana, bea], game_id='chinchon')
    again = record_rated_game(game_id='chinchon', table_id='t1', people={0: ana, 1: bea}, computers={},
                              placements=[2, 1], at=NOW + timedelta(minutes=1))
    assert again == first
    assert ratings_of(user_ids=[ana, bea], game_id='chinchon') == after_first
    assert len(changes()) == 2


def test_a_tie_shares_the_place_and_moves_nobody(database: str) -> None:
    ana, bea = account('Ana'), account('Bea')
    shown = record_rated_game(game_id='continental', table_id='t1', people={0: ana, 1: bea}, computers={},
                              placements=[1, 1], at=NOW)
    assert shown == {ana: (1500, 1500), bea: (1500, 1500)}
    assert [change.place for change in changes()] == [1, 1]
    both = ratings_of(user_ids=[ana, bea], game_id='continental')
    assert both[ana].sigma < Rating().sigma and both[ana] == both[bea]


def test_the_stored_ratings_are_openskills(database: str) -> None:
    ana, bea = account('Ana'), account('Bea')
    stored(ana, mu=27.0, sigma=4.0, games=12)
    record_rated_game(game_id='chinchon', table_id='t1', people={1: ana, 0: bea}, computers={2: 'easy'},
                      placements=[1, 3, 2], at=NOW)
    expected = rate_game({1: Rating(27.0, 4.0, 12), 0: Rating()}, [1, 3, 2],
                         computers={2: COMPUTER_RATINGS['chinchon']['easy']})
    assert ratings_of(user_ids=[ana, bea], game_id='chinchon') == {ana: expected[1], bea: expected[0]}


def test_a_database_failure_rates_nothing_and_breaks_nothing(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bea = account('Ana'), account('Bea')

    def failing(**_):
        raise OperationalError('SELECT', {}, Exception('the disk is gone'))

    monkeypatch.setattr(standings, 'lock_player_ratings', failing)
    assert record_rated_game(game_id='chinchon', table_id='t1', people={0: ana, 1: bea}, computers={},
                             placements=[1, 2], at=NOW) == {}
    monkeypatch.undo()
    assert changes() == [] and rating_of(user_id=ana, game_id='chinchon') == Rating()


def test_two_games_ending_at_once_both_count(database: str) -> None:
    ana, bea, luis = account('Ana'), account('Bea'), account('Luis')
    stored(ana, mu=25.0, sigma=Rating().sigma, games=5)   # a row to lock (a new one's insert waits by itself)
    start = threading.Barrier(2)
    results: list[dict] = []

    def end(table_id: str, other: int) -> None:
        start.wait()
        results.append(record_rated_game(game_id='chinchon', table_id=table_id, people={0: ana, 1: other},
                                         computers={}, placements=[1, 2], at=NOW))

    threads = [threading.Thread(target=end, args=('t1', bea)), threading.Thread(target=end, args=('t2', luis))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert all(results) and len(results) == 2
    assert rating_of(user_id=ana, game_id='chinchon').games == 7
    after_of = {result[ana][0]: result[ana][1] for result in results}   # Ana's shown rating: before -> after
    assert after_of[1500] in after_of   # one game started from what the other left


def test_the_ranking_lists_ten_rated_games_within_thirty_days(database: str) -> None:
    ana, bea, luis, eva = account('Ana'), account('Bea'), account('Luis'), account('Eva')
    stored(ana, mu=30.0, games=10)
    stored(bea, mu=35.0, games=9)                                   # one game short
    stored(luis, mu=40.0, games=50, last=NOW - timedelta(days=31))  # away too long
    stored(eva, mu=28.0, games=10, last=NOW - timedelta(days=29))
    stored(eva, 'ronda-robada', mu=45.0, games=10)                  # another game's ranking
    rows = leaderboard(game_id='chinchon', now=NOW)
    assert [(row.position, row.name, row.rating.games) for row in rows] == [(1, 'Ana', 10), (2, 'Eva', 10)]
    assert rows[0].shown == Rating(30.0, 3.0).display()

    mine = position_of(user_id=eva, game_id='chinchon', now=NOW)
    assert (mine.rank, mine.ranked, mine.games_needed) == (2, 2, 0)
    short = position_of(user_id=bea, game_id='chinchon', now=NOW)
    assert (short.rank, short.games_needed, short.rating.display()) == (None, 1, Rating(35.0, 3.0).display())
    assert position_of(user_id=luis, game_id='chinchon', now=NOW).rank is None
    assert position_of(user_id=ana, game_id='continental', now=NOW) is None


def test_the_number_of_games_is_a_setting(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ana = account('Ana')
    stored(ana, games=3)
    assert leaderboard(game_id='chinchon', now=NOW) == []
    monkeypatch.setenv('HOD_RANKING_MIN_GAMES', '3')
    assert [row.user_id for row in leaderboard(game_id='chinchon', now=NOW)] == [ana]
    assert position_of(user_id=ana, game_id='chinchon', now=NOW).rank == 1


def test_the_history_of_a_rating(database: str) -> None:
    ana, bea = account('Ana'), account('Bea')
    for minute, places in enumerate(([1, 2], [1, 2], [2, 1])):
        record_rated_game(game_id='chinchon', table_id=f't{minute}', people={0: ana, 1: bea}, computers={},
                          placements=places, at=NOW + timedelta(minutes=minute))
    timeline = rating_timeline(user_id=ana)
    assert list(timeline) == ['chinchon']
    assert [moment for moment, _ in timeline['chinchon']] == [NOW + timedelta(minutes=m) for m in range(3)]
    shown = [value for _, value in timeline['chinchon']]
    assert 1500 < shown[0] < shown[1] and shown[2] < shown[1]
    assert shown[-1] == rating_of(user_id=ana, game_id='chinchon').display()
    assert rating_timeline(user_id=ana, game_id='continental') == {}
