"""Ratings kept per account and game: recording a rated game's effect, the rankings, and each
account's own place and rating history. The maths is app.ratings'; this module reads and writes
what it needs (models.tables' ``# ratings`` block) and nothing else.

Recording
---------
The end of a rated table calls ONE function, with what the table knows::

    from app.standings import record_rated_game

    shown = record_rated_game(
        game_id='chinchon', table_id=table.id,
        people={0: ana_id, 2: luis_id},      # seat -> account id, every person's seat
        computers={1: 'hard'},               # seat -> computer level, every computer's seat
        placements=[1, 3, 2],                # per seat, 1 the best, ties equal (app.tables.records.placements)
        leavers={2},                         # people's seats that left and did not come back
        marked={luis_id},                    # accounts seen at another's address (app.fairplay)
        at=ended_at)                         # an aware datetime
    # shown == {ana_id: (1500, 1512), luis_id: (1500, 1488)}: the numbers before and after

It is safe to call again (a table that saves and ends twice, two processes): a table rated once
is never rated again, and the second call answers what the first recorded. A database failure is
logged and answers {}: a table never breaks because its ratings could not be kept. One account's
rating moves at most app.fairplay.pairs.DAILY_CAP through games with one other in 24 hours: a
change cut by it is marked 'capped' for whoever moderates, as ``marked`` accounts are 'address'.
"""
from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.exc import SQLAlchemyError

from app import config
from app.fairplay import pairs
from app.ratings import COMPUTER_RATINGS, Rating, rate_game, within
from models.db import session_scope
from models.fairplay import shared_changes
from models.tables import (PlayerRating, RatingChange, add_rating_changes, count_rated_players, hidden_from_rankings,
                           lock_player_ratings, player_ratings, rank_of, rated_players, rating_changes_of,
                           rating_changes_of_table)

log = logging.getLogger(__name__)

ACTIVE_DAYS = 30   # the ranking lists those whose last rated game is this recent
SHOWN = 50         # rows of a ranking


@dataclass(frozen=True, slots=True)
class RankingRow:
    position: int
    user_id: int
    name: str
    rating: Rating

    @property
    def shown(self) -> int:
        return self.rating.display()


@dataclass(frozen=True, slots=True)
class MyStanding:
    """An account's rating in a game and its place in that game's ranking: ``rank`` None while the
    ranking does not list it (``games_needed`` more rated games, or no rated game for 30 days)."""
    rating: Rating
    rank: int | None
    ranked: int            # how many accounts the ranking lists
    games_needed: int      # rated games still to play to be listed (0: enough)
    last_played_at: datetime


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _rating(row: PlayerRating) -> Rating:
    return Rating(mu=row.mu, sigma=row.sigma, games=row.games)


def _since(now: datetime) -> datetime:
    return _utc(now) - timedelta(days=ACTIVE_DAYS)


def rating_of(*, user_id: int, game_id: str) -> Rating:
    """An account's rating in a game; a new player's when it has played no rated game of it."""
    return ratings_of(user_ids=[user_id], game_id=game_id)[user_id]


def ratings_of(*, user_ids: Iterable[int], game_id: str) -> dict[int, Rating]:
    """Several accounts' ratings in a game (for a lobby's listing or a table's seats)."""
    wanted = list(dict.fromkeys(user_ids))
    with session_scope() as session:
        rows = player_ratings(session=session, user_ids=wanted, game_id=game_id)
        return {user_id: _rating(rows[user_id]) if user_id in rows else Rating() for user_id in wanted}


def record_rated_game(*, game_id: str, table_id: str, people: Mapping[int, int], computers: Mapping[int, str],
                      placements: Sequence[int], leavers: Collection[int] = frozenset(),
                      marked: Collection[int] = frozenset(), at: datetime) -> dict[int, tuple[int, int]]:
    """Rate a finished game once: every person's new rating and one RatingChange each, in one
    transaction. Returns account id -> (shown rating before, after); {} when the database failed.

    ``people``: seat -> account id; ``computers``: seat -> level (its fixed rating in
    COMPUTER_RATINGS, never changed); ``placements``: per seat, 1 the best; ``leavers``: people's
    seats placed last whatever they scored (app.ratings.rate_game; ``final_places`` is the place
    each RatingChange keeps); ``marked``: accounts whose change is marked 'address' (app.fairplay).
    Each change is cut to the pair's daily cap (app.fairplay.pairs) and then marked 'capped'. A
    second call for the same
    table changes nothing and answers what the first recorded. Seats that do not add up (a seat
    twice, one missing, one account at two seats) are the caller's mistake: ValueError."""
    if len(set(people.values())) != len(people):
        raise ValueError(f'one account at two seats: {dict(people)}')
    fixed = {seat: COMPUTER_RATINGS[game_id][level] for seat, level in computers.items()}
    at = _utc(at)
    new = Rating()
    try:
        with session_scope() as session:
            # locked first, then the check: a second end of the same table waits here for the first
            rows = lock_player_ratings(session=session, user_ids=list(people.values()), game_id=game_id,
                                       mu=new.mu, sigma=new.sigma, at=at)
            done = rating_changes_of_table(session=session, table_id=table_id)
            if done:
                return {change.user_id: (change.before, change.after) for change in done}
            before = {seat: _rating(rows[user_id]) for seat, user_id in people.items()}
            after = rate_game(before, placements, leavers=leavers, computers=fixed)
            earlier = shared_changes(session=session, user_ids=list(people.values()), game_id=game_id,
                                     since=at - pairs.WINDOW)
            allowed = pairs.bounds(earlier, list(people.values()))
            places = final_places(placements, leavers)
            changes = []
            for seat, user_id in people.items():
                rated = within(before[seat], after[seat], *allowed[user_id])
                marks = ['address'] * (user_id in marked) + ['capped'] * (rated != after[seat])
                after[seat] = rated
                row = rows[user_id]
                row.mu, row.sigma, row.games, row.last_played_at = after[seat].mu, after[seat].sigma, after[seat].games, at
                session.add(row)
                changes.append(RatingChange(user_id=user_id, game_id=game_id, table_id=table_id,
                                            before=before[seat].display(), after=after[seat].display(),
                                            mu=after[seat].mu, sigma=after[seat].sigma,
                                            place=places[seat], seats=len(placements),
                                            marks=' '.join(marks), at=at))
            add_rating_changes(session=session, changes=changes)
            return {change.user_id: (change.before, change.after) for change in changes}
    except SQLAlchemyError as error:
        log.error('standings: table %s was not rated, the database failed: %s', table_id,
                  error.__class__.__name__, exc_info=error)
        return {}


def final_places(placements: Sequence[int], leavers: Collection[int]) -> list[int]:
    """Each seat's place as it was rated: the leavers below everyone (tied among themselves), and
    every place counted from the seats ahead of it, so it stays within 1..seats (of [1, 2, 3], the
    first leaving makes [3, 1, 2])."""
    last = max(placements) + 1
    ranks = [last if seat in leavers else place for seat, place in enumerate(placements)]
    return [1 + sum(other < rank for other in ranks) for rank in ranks]


def leaderboard(*, game_id: str, now: datetime, limit: int = SHOWN, min_games: int | None = None) -> list[RankingRow]:
    """A game's ranking, best first: accounts with at least ``min_games`` rated games (the
    HOD_RANKING_MIN_GAMES setting by default) whose last one is at most 30 days old."""
    needed = config.ranking_min_games() if min_games is None else min_games
    with session_scope() as session:
        found = rated_players(session=session, game_id=game_id, min_games=needed, since=_since(now), limit=limit)
        return [RankingRow(position, row.user_id, name, _rating(row))
                for position, (row, name) in enumerate(found, start=1)]


def position_of(*, user_id: int, game_id: str, now: datetime, min_games: int | None = None) -> MyStanding | None:
    """An account's rating and place in a game's ranking; None before its first rated game of it."""
    needed = config.ranking_min_games() if min_games is None else min_games
    since = _since(now)
    with session_scope() as session:
        row = player_ratings(session=session, user_ids=[user_id], game_id=game_id).get(user_id)
        if row is None or row.games == 0:
            return None
        last = _utc(row.last_played_at)
        listed = (row.games >= needed and last >= since
                  and hidden_from_rankings(session=session, user_id=user_id) is None)
        return MyStanding(rating=_rating(row),
                          rank=rank_of(session=session, rating=row, min_games=needed, since=since) if listed else None,
                          ranked=count_rated_players(session=session, game_id=game_id, min_games=needed, since=since),
                          games_needed=max(0, needed - row.games), last_played_at=last)


def rating_timeline(*, user_id: int, game_id: str | None = None) -> dict[str, list[tuple[datetime, int]]]:
    """Per game (only those with rated games): the shown rating after each rated game, oldest first."""
    timeline: dict[str, list[tuple[datetime, int]]] = {}
    with session_scope() as session:
        for change in rating_changes_of(session=session, user_id=user_id, game_id=game_id):
            timeline.setdefault(change.game_id, []).append((_utc(change.at), change.after))
    return timeline
