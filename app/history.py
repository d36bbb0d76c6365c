"""The score history of logged-in players: recording finished games and the figures of /history.

Recording
---------
Every table's controller, whatever the game, calls ONE function when a game ends::

    from app.visitor import current_user_id
    from app.history import SeatResult, record_finished_game

    record_finished_game(
        user_id=current_user_id(),          # None for a guest: nothing is recorded
        game_id='chinchon',                 # an id of app.games.GAMES
        options={'target': 100, ...},       # the table's options, any JSON-able dict
        started_at=started, ended_at=ended, # datetimes; naive ones are taken as UTC
        hands_played=7,
        seats=[SeatResult('Ana', is_human=True, final_score=42, placement=1, is_winner=True),
               SeatResult('hard', is_human=False, final_score=101, placement=2, is_winner=False)],
        deal_commitments=[('9f2c…', 'seed-1'), ...],   # per hand: (published commitment, revealed seed)
        hand_points=[(12, 40), None, ...],  # per hand, in the same order: each seat's points (None: void)
    )

A game left unfinished is recorded the same way with `abandoned=True` (app.tables.records does it
when its player starts another game of it, or after 30 days): it counts as played, never as won,
and its partial score stays out of the averages, the bests and the timeline.

Ask `current_user_id()` when the game ends, not when it starts: a guest who logs in (in any tab of
the same browser) during a game gets that game recorded. For a computer seat `name_or_level` is its
level and `name` its character's; another person's seat (a room, a public table) is recorded under
their name in both. The game's "computer level" is that level when all computer seats share it, else
'mixed'.

Figures
-------
Which result is better depends on the game (its registry entry's `better`, gathered in `BETTER`):
fewer points in Chinchón and Continental, more cards in Ronda Robada. Win rate is wins / games played.

Three kinds of game are counted apart, since their results do not compare: the daily deal's tries
(a short game of its own format, `daily=True`), games against computers only, and games against
people (anyone else at the table was a person). A game's figures per game kind are of every game
but the daily tries; the figures per computer level are of games where every opponent was a
computer of that level; the games against people have a figure of their own.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.engine.protocol import LEVELS
from app.games import GAMES, GAMES_BY_ID, Better
from models.db import session_scope
from models.tables import (GameDeal, GameReplay, GameSeat, PlayedGame, coach_by_game, count_games, deals_of,
                           deals_of_games, games_after, get_game, list_games, record_game, results_over_time, seats_of,
                           totals_by)

PER_PAGE = 20
MIXED_LEVEL = 'mixed'
BETTER: dict[str, Better] = {game.id: game.better for game in GAMES}


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat at the end of a game. `name_or_level`: the player's name, or a computer's level;
    `name`: the seat's name at the table, a computer's too ('' when not recorded)."""
    name_or_level: str
    is_human: bool
    final_score: int
    placement: int          # 1 = first; ties share a placement
    is_winner: bool
    name: str = ''

    @property
    def is_computer(self) -> bool:
        """A computer's seat: recorded under its level, and under a character's name that is no level
        (another person's seat is recorded under their name twice: even a person called 'hard')."""
        return not self.is_human and self.name_or_level in LEVELS and self.name != self.name_or_level


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    game_id: str
    ended_at: datetime
    started_at: datetime
    hands_played: int
    computer_level: str
    score: int
    placement: int
    won: bool
    seats: tuple[SeatResult, ...]
    abandoned: bool = False
    daily: str = ''   # a daily deal's try: its day, 'YYYY-MM-DD'

    @property
    def with_people(self) -> bool:
        """Someone else at the table was a person (a room, a public table)."""
        return any(not seat.is_human and not seat.is_computer for seat in self.seats)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One recorded hand: its number (1 for the first), its deal's commitment and seed (empty when
    not recorded) and each seat's points in it (None for a void hand, or when not recorded)."""
    number: int
    commitment: str
    seed: str
    points: tuple[int, ...] | None
    void: bool = False


@dataclass(frozen=True, slots=True)
class GameDetail:
    record: GameRecord
    options: dict
    hands: tuple[HandRecord, ...]


@dataclass(frozen=True, slots=True)
class Totals:
    """Figures of a group of games (one game kind, its daily tries, one computer level, or the games
    against people)."""
    key: str
    played: int
    wins: int
    average: float | None   # None: every game of the group was abandoned
    best: int | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class HistoryPage:
    games: list[GameRecord]
    total: int
    page: int
    pages: int


def record_finished_game(*, user_id: int | None, game_id: str, options: dict,
                         started_at: datetime, ended_at: datetime, hands_played: int,
                         seats: Sequence[SeatResult],
                         deal_commitments: Iterable[tuple[str, str]] = (),
                         hand_points: Iterable[Sequence[int] | None] = (),
                         abandoned: bool = False, replay: tuple[int, list] | None = None) -> int | None:
    """Save a finished (or abandoned) game to the account `user_id` and return the record's id; a
    guest's game (`user_id` None) is not saved and gives None. Exactly one seat must be the human's.
    An abandoned game is never won, whatever the seats say. ``replay``: (the seat that dealt the
    first hand, every action of each deal) for app.review to replay its hands.
    Raises ValueError for an unknown game or a seat list without exactly one human."""
    if user_id is None:
        return None
    rows = finished_game_rows(user_id=user_id, game_id=game_id, options=options, started_at=started_at,
                              ended_at=ended_at, hands_played=hands_played, seats=seats,
                              deal_commitments=deal_commitments, hand_points=hand_points, abandoned=abandoned,
                              replay=replay)
    with session_scope() as session:
        return record_game(session=session, **rows).id


def finished_game_rows(*, user_id: int, game_id: str, options: dict, started_at: datetime, ended_at: datetime,
                       hands_played: int, seats: Sequence[SeatResult],
                       deal_commitments: Iterable[tuple[str, str]] = (),
                       hand_points: Iterable[Sequence[int] | None] = (),
                       abandoned: bool = False, replay: tuple[int, list] | None = None) -> dict[str, Any]:
    """The rows of one finished game, as ``record_game`` takes them (``record_finished_game``)."""
    if game_id not in GAMES_BY_ID:
        raise ValueError(f'unknown game: {game_id!r}')
    humans = [seat for seat in seats if seat.is_human]
    if len(humans) != 1:
        raise ValueError(f'a recorded game needs exactly one human seat, got {len(humans)}')
    human = humans[0]
    levels = {seat.name_or_level for seat in seats if not seat.is_human}
    game = PlayedGame(
        user_id=user_id, game_id=game_id, options_json=json.dumps(options, sort_keys=True, default=str),
        started_at=_utc(started_at), ended_at=_utc(ended_at), hands_played=hands_played,
        computer_level=(levels.pop() if len(levels) == 1 else MIXED_LEVEL)[:32],
        score=human.final_score, placement=human.placement, won=human.is_winner and not abandoned,
        abandoned=abandoned)
    seat_rows = [GameSeat(played_game_id=0, seat=index, name_or_level=seat.name_or_level[:40],
                          name=seat.name[:40] or None, is_human=seat.is_human, final_score=seat.final_score,
                          placement=seat.placement, is_winner=seat.is_winner and not abandoned)
                 for index, seat in enumerate(seats)]
    deals, points = list(deal_commitments), list(hand_points)
    deal_rows = [GameDeal(played_game_id=0, hand=index, commitment=deals[index][0] if index < len(deals) else '',
                          seed=str(deals[index][1]) if index < len(deals) else '',
                          points_json=_points_json(points[index]) if index < len(points) else None)
                 for index in range(max(len(deals), len(points)))]
    replay_row = None if replay is None else GameReplay(played_game_id=0, first_dealer=replay[0],
                                                        moves_json=json.dumps(replay[1]))
    return {'game': game, 'seats': seat_rows, 'deals': deal_rows, 'replay': replay_row}


def _points_json(points: Sequence[int] | None) -> str:
    """A hand's points as stored: a list, or JSON null for a void hand (SQL NULL: not recorded)."""
    return json.dumps(None if points is None else [int(point) for point in points])


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def history_page(*, user_id: int, game_id: str | None = None, page: int = 1,
                 per_page: int = PER_PAGE) -> HistoryPage:
    """One page of the account's games, newest first; `page` is clamped to the pages there are."""
    with session_scope() as session:
        total = count_games(session=session, user_id=user_id, game_id=game_id)
        pages = max(1, math.ceil(total / per_page))
        page = min(max(1, page), pages)
        rows = list_games(session=session, user_id=user_id, game_id=game_id,
                          offset=(page - 1) * per_page, limit=per_page)
        seats = seats_of(session=session, played_game_ids=[row.id for row in rows])
        games = [_game_record(row, seats[row.id], _options(row.options_json)) for row in rows]
    return HistoryPage(games, total, page, pages)


def _game_record(row: PlayedGame, seats: list[GameSeat], options: dict) -> GameRecord:
    daily = options.get('daily')
    return GameRecord(row.id, row.game_id, row.ended_at, row.started_at, row.hands_played, row.computer_level,
                      row.score, row.placement, row.won,
                      tuple(SeatResult(s.name_or_level, s.is_human, s.final_score, s.placement, s.is_winner,
                                       s.name or '') for s in seats), row.abandoned,
                      daily if isinstance(daily, str) else '')


def game_detail(*, user_id: int, record_id: int) -> GameDetail | None:
    """One game of the account `user_id` with its options and hands; None for a record that does
    not exist or belongs to another account."""
    with session_scope() as session:
        row = get_game(session=session, user_id=user_id, played_game_id=record_id)
        if row is None:
            return None
        seats = seats_of(session=session, played_game_ids=[record_id])[record_id]
        return _detail(row, seats, deals_of(session=session, played_game_id=record_id))


def every_game(*, user_id: int, batch: int = 200) -> Iterator[GameDetail]:
    """Every game of the account with its options and hands, in the order they were recorded (the
    export): read `batch` games at a time, so a long history never sits in memory whole."""
    after = 0
    while True:
        with session_scope() as session:
            rows = games_after(session=session, user_id=user_id, after_id=after, limit=batch)
            ids = [row.id for row in rows]
            seats, deals = seats_of(session=session, played_game_ids=ids), deals_of_games(session=session,
                                                                                         played_game_ids=ids)
            details = [_detail(row, seats[row.id], deals[row.id]) for row in rows]
        yield from details
        if len(rows) < batch:
            return
        after = ids[-1]


def _detail(row: PlayedGame, seats: list[GameSeat], deals: list[GameDeal]) -> GameDetail:
    hands = tuple(HandRecord(index + 1, deal.commitment, deal.seed, *_points(deal.points_json))
                  for index, deal in enumerate(deals))
    options = _options(row.options_json)
    return GameDetail(_game_record(row, seats, options), options, hands)


def _points(raw: str | None) -> tuple[tuple[int, ...] | None, bool]:
    """(points, void) of a stored hand; (None, False) when its points were not recorded."""
    try:
        points = json.loads(raw) if raw else ...
    except ValueError:
        return None, False
    if isinstance(points, list) and all(type(point) is int for point in points):
        return tuple(points), False
    return None, points is None


def _options(raw: str) -> dict:
    try:
        options = json.loads(raw)
    except ValueError:
        return {}
    return options if isinstance(options, dict) else {}


def totals_by_game(*, user_id: int, game_id: str | None = None, daily: bool = False) -> list[Totals]:
    """Per game kind: its games but the daily tries, or (`daily`) its daily tries only."""
    with session_scope() as session:
        rows = totals_by(session=session, user_id=user_id, column='game_id', game_id=game_id,
                         kind='daily' if daily else 'ordinary')
    return [Totals(key, played, wins or 0, _average(average),
                   None if lowest is None else BETTER[key].best(lowest, highest))
            for key, played, wins, average, lowest, highest in rows if key in BETTER]


def totals_by_level(*, user_id: int, game_id: str | None = None) -> list[Totals]:
    """Per computer level, the games where every opponent was a computer of that level (neither a
    daily try, nor a game with people or with computers of several levels); `best` is left out,
    since scores of different games do not compare."""
    with session_scope() as session:
        rows = totals_by(session=session, user_id=user_id, column='computer_level', game_id=game_id,
                         kind='computers', levels=LEVELS)
    return [Totals(key, played, wins or 0, _average(average), None)
            for key, played, wins, average, _, _ in rows if key in LEVELS]


def totals_with_people(*, user_id: int, game_id: str | None = None) -> Totals | None:
    """The games where anyone else at the table was a person, every game kind together (so neither
    an average nor a best: their scores do not compare); None when there are none."""
    with session_scope() as session:
        rows = totals_by(session=session, user_id=user_id, column='game_id', game_id=game_id,
                         kind='people', levels=LEVELS)
    played, wins = sum(row[1] for row in rows), sum(row[2] or 0 for row in rows)
    return Totals('people', played, wins, None, None) if played else None


def _average(value: object) -> float | None:
    return None if value is None else float(value)


def score_timeline(*, user_id: int, game_id: str | None = None) -> dict[str, list[tuple[datetime, int]]]:
    """Per game id, (end time, score) of the latest games but the daily tries, oldest first: the
    'results over time' plot."""
    with session_scope() as session:
        rows = results_over_time(session=session, user_id=user_id, game_id=game_id)
    timeline: dict[str, list[tuple[datetime, int]]] = {}
    for key, ended_at, score, _ in rows:
        timeline.setdefault(key, []).append((ended_at, score))
    return timeline


def accuracy_timeline(*, user_id: int, game_id: str | None = None) -> dict[str, list[tuple[datetime, float, int]]]:
    """Per game id, (end time, accuracy in percent, decisions judged) of the games the coach has
    analysed hands of, oldest first: the 'accuracy over time' plot."""
    timeline: dict[str, list[tuple[datetime, float, int]]] = {}
    with session_scope() as session:
        for game, decisions, labelled, _ in coach_by_game(session=session, user_id=user_id, game_id=game_id):
            if decisions:
                timeline.setdefault(game.game_id, []).append(
                    (game.ended_at, 100.0 * (decisions - labelled) / decisions, decisions))
    return timeline
