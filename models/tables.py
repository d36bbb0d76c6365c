"""Every SQLModel table of the site lives in this one module (see STYLE.md).

Tables are added here by the features that need them, each change with its Alembic revision in
`models/migrations/versions/` (`python -m models.migrations "what changed"` drafts one); the
migrations, not `create_all`, build the database (`models.db.init_db`).

Times are aware datetimes in UTC (SQLModel refuses naive ones); `utcnow()` gives the current one.
CRUD functions are keyword-only and take the session from the caller (`models.db.session_scope`).
"""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from collections.abc import Callable, Collection
from typing import Any, Literal

from sqlalchemy import Index, UniqueConstraint, and_, case, exists, func, literal, or_, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import aliased
from sqlmodel import Field, Session, SQLModel, col, delete, select, update


def utcnow() -> datetime:
    return datetime.now(UTC)


def username_key(username: str) -> str:
    """The case-insensitive identity of a username ('Ana', 'ANA' and 'ana' are one account; 'José'
    typed with a combining accent is 'José')."""
    return unicodedata.normalize('NFKC', unicodedata.normalize('NFKC', username.strip()).casefold())


class User(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(max_length=20)                 # as typed at sign-up
    username_key: str = Field(max_length=20, unique=True, index=True)
    display_name: str = Field(max_length=40)
    password_hash: str = Field(max_length=255)
    language: str | None = Field(default=None, max_length=5)
    created_at: datetime = Field(default_factory=utcnow)
    role: str | None = Field(default=None, max_length=16)   # 'moderator' (app.moderation), else None
    # a moderator replaced the display name: its owner chooses another at the next sign-in
    must_rename: bool = Field(default=False, sa_column_kwargs={'server_default': text('false')})


class PlayedGame(SQLModel, table=True):
    """One finished game of one account. The account's own seat is copied into `score`,
    `placement` and `won` so that the statistics are plain SQL aggregates."""
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key='user.id', ondelete='CASCADE', index=True)
    game_id: str = Field(max_length=32, index=True)
    options_json: str = Field(default='{}')
    started_at: datetime
    ended_at: datetime = Field(index=True)
    hands_played: int
    computer_level: str = Field(max_length=32)
    score: int
    placement: int
    won: bool
    # left unfinished (its player started another game of it, or 30 days went by): it counts as
    # played, never as won, and its partial score stays out of averages, bests and the timeline
    abandoned: bool = False

    @property
    def options(self) -> dict:
        return json.loads(self.options_json)


class GameSeat(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    played_game_id: int = Field(foreign_key='playedgame.id', ondelete='CASCADE', index=True)
    seat: int
    name_or_level: str = Field(max_length=40)
    name: str | None = Field(default=None, max_length=40)   # the seat's name at the table, computers' too
    is_human: bool
    final_score: int
    placement: int
    is_winner: bool


class GameDeal(SQLModel, table=True):
    """The published commitment of each hand's shuffle and the seed revealed after it."""
    id: int | None = Field(default=None, primary_key=True)
    played_game_id: int = Field(foreign_key='playedgame.id', ondelete='CASCADE', index=True)
    hand: int
    commitment: str = Field(max_length=128)
    seed: str = Field(max_length=128)
    points_json: str | None = None     # each seat's points in this hand: '[3, 41]', 'null' for a void hand


class GameReplay(SQLModel, table=True):
    """What replays a recorded game's hands exactly (app.review.replay): the seat that dealt its
    first hand and every action of each deal in order, as JSON (the seeds are the deals' own)."""
    played_game_id: int = Field(primary_key=True, foreign_key='playedgame.id', ondelete='CASCADE')
    first_dealer: int
    moves_json: str = Field(default='[]')   # per deal: [[seat, action], ...]


class HandCoach(SQLModel, table=True):
    """The coach's judgement of one hand of a recorded game, from its account's seat
    (app.review.coach): computed once, then the review and the history's accuracy read it here.
    `labelled` counts the decisions with a label (an inaccuracy or worse)."""
    played_game_id: int = Field(primary_key=True, foreign_key='playedgame.id', ondelete='CASCADE')
    hand: int = Field(primary_key=True)
    decisions: int
    labelled: int
    points_lost: float
    judgements_json: str = Field(default='[]')


class LoginThrottle(SQLModel, table=True):
    """Recent login failures per username key (existing or not, so it reveals nothing)."""
    username_key: str = Field(primary_key=True, max_length=128)
    failures: int = 0
    last_failure_at: datetime = Field(default_factory=utcnow)
    locked_until: datetime | None = None


class SignInSession(SQLModel, table=True):
    """A signed-in browser: the SHA-256 of the random token in its HttpOnly cookie (the token itself
    is never stored). A `pending` row is the one-use ticket that turns into a session when the
    browser fetches /session/start, within a minute. `last_used_at` is when the browser last showed
    it, to the hour (written at most once an hour, so that reading a session stays a read)."""
    token_hash: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(foreign_key='user.id', ondelete='CASCADE', index=True)
    pending: bool = False
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime = Field(index=True)
    last_used_at: datetime = Field(default_factory=utcnow)


class KnownDevice(SQLModel, table=True):
    """A browser that has signed in to an account (OWASP's device cookie, stored hashed): the lock
    of an account under attack does not apply to it."""
    token_hash: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(primary_key=True, foreign_key='user.id', ondelete='CASCADE', index=True)
    created_at: datetime = Field(default_factory=utcnow)


class RecoveryCode(SQLModel, table=True):
    """One unused recovery code of an account (NIST SP 800-63B's look-up secret): only its keyed
    hash is stored (`app.recovery` says why that hash), and the row goes when the code is used."""
    code_hash: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(foreign_key='user.id', ondelete='CASCADE', index=True)
    created_at: datetime = Field(default_factory=utcnow)


class GameTable(SQLModel, table=True):
    """One table in progress (or finished), the saved form of app.tables.Table."""
    id: str = Field(primary_key=True, max_length=32)          # unguessable, URL-safe
    game_id: str = Field(max_length=32, index=True)
    options_json: str = Field(default='{}')
    seats_json: str = Field(default='[]')
    state_json: str                                            # the Table's whole saved dict
    version: int = 0                                           # grows with every action
    status: str = Field(default='playing', max_length=16, index=True)   # playing | over | abandoned
    # the account at the table, if any: its unfinished tables of a game are found by it
    user_id: int | None = Field(default=None, index=True)
    person_acted: bool = False   # a person has made a move here: a guest's table is kept a while
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow, index=True)


class TableStep(SQLModel, table=True):
    """Steps of a table appended since its last whole write (`GameTable.state_json`), in order of
    `id`: each batch of actions with the few fields they changed (app.tables.saving). A whole write
    deletes them; a load plays them on the whole state."""
    id: int | None = Field(default=None, primary_key=True)
    table_id: str = Field(foreign_key='gametable.id', ondelete='CASCADE', index=True, max_length=32)
    version: int                  # the table's version once this batch was played
    steps_json: str


class TableLease(SQLModel, table=True):
    """Which server process holds a table while several share one PostgreSQL (app.tables.lease).
    A row is never deleted: its epoch only grows, so a process that held the table long ago can
    never match it again."""
    table_id: str = Field(primary_key=True, max_length=32)
    owner: str = Field(max_length=64, index=True)   # the holding process, one token per start
    address: str = Field(max_length=255)            # where that process is reached: its path prefix
    epoch: int = 1                                   # up by one at every claim: the fencing token
    expires_at: datetime                             # the database's clock; renewed while held


class DailyDeal(SQLModel, table=True):
    """The day's deal of one game (app.daily): its seed, secret while the day (UTC) is open and
    shown once it is over, beside the fingerprint everybody saw before playing."""
    game_id: str = Field(primary_key=True, max_length=32)
    day: date = Field(primary_key=True)
    seed: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow)


class DailyTry(SQLModel, table=True):
    """One person's try at a day's deal: one per account (or, unranked, per guest browser), per
    game and day, which the unique constraints hold across every server process. `points` is
    the person's score in the game's own terms once finished, or as it stood when the day ended."""
    __table_args__ = (UniqueConstraint('game_id', 'day', 'user_id', name='uq_dailytry_account'),
                      UniqueConstraint('game_id', 'day', 'guest', name='uq_dailytry_guest'))
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(max_length=32)
    day: date = Field(index=True)
    user_id: int | None = Field(default=None, foreign_key='user.id', ondelete='CASCADE', index=True)
    guest: str | None = Field(default=None, max_length=64)   # a guest browser's token; None for accounts
    table_id: str = Field(max_length=32, index=True)
    name: str = Field(max_length=40)
    started_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
    status: str = Field(default='playing', max_length=16)   # playing | finished | unfinished
    points: int | None = None


class DealCount(SQLModel, table=True):
    """How many tables a browser or an address dealt in its current window (app.limits), shared by
    every process on one PostgreSQL. A window starts at its key's first deal after the last one
    ended; `ends` is when, in seconds since the epoch."""
    key: str = Field(primary_key=True, max_length=160)
    window: str = Field(primary_key=True, max_length=16)
    ends: float = Field(index=True)
    count: int = 1


class PublicTable(SQLModel, table=True):
    """A public table as the lobby lists it, and where quick match meets (app.lobby). Its holding
    process keeps the row up to date; every process reads it, and the seats are taken here, in a
    transaction (`SeatClaim`), so two people on two processes never get one seat or miss each other."""
    table_id: str = Field(primary_key=True, foreign_key='gametable.id', ondelete='CASCADE', max_length=32)
    game_id: str = Field(max_length=32, index=True)
    seats: int
    rated: bool = False
    quick: bool = False            # opened by quick match: it takes the next quick-match players
    stage: str = Field(default='waiting', max_length=16, index=True)   # waiting | playing | over
    free_seats: int = 0            # people's seats nobody has claimed yet (waiting only)
    people_json: str = Field(default='[]')    # per seat: name, kind, level, shown rating (lobby.Listing)
    options_json: str = Field(default='{}')   # the rule options, as the table's
    spectators: int = 0
    fill_at: datetime | None = None           # quick match: when computers take the empty seats
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow, index=True)


class SeatClaim(SQLModel, table=True):
    """A person's seat at a public table, taken in the database by whichever process they asked
    at; the table's holding process seats them when their page arrives there. A claim lives while
    its table is open (waiting or being played) and goes when it ends, so one account, and one
    guest browser (its guest token; an account's claim carries its browser's too, but a second
    account signed in on that browser is another person), hold one claim at most: the unique
    indexes keep that however two tabs race (app.lobby.matching)."""
    __table_args__ = (Index('ix_seatclaim_guest', 'guest', unique=True, sqlite_where=text('user_id IS NULL'),
                            postgresql_where=text('user_id IS NULL')),)
    table_id: str = Field(primary_key=True, foreign_key='gametable.id', ondelete='CASCADE', max_length=32)
    seat: int = Field(primary_key=True)
    guest: str | None = Field(default=None, max_length=64)
    user_id: int | None = Field(default=None, foreign_key='user.id', ondelete='CASCADE', unique=True, index=True)
    name: str = Field(max_length=40)
    address: str | None = Field(default=None, max_length=64, index=True)   # app.limits.address_key of the asker
    created_at: datetime = Field(default_factory=utcnow)


class PlayerRating(SQLModel, table=True):
    """One account's rating in one game (app.ratings): openskill's mu and sigma and the rated games."""
    user_id: int = Field(primary_key=True, foreign_key='user.id', ondelete='CASCADE')
    game_id: str = Field(primary_key=True, max_length=32)
    mu: float
    sigma: float
    games: int = 0
    last_played_at: datetime = Field(default_factory=utcnow, index=True)


class Moderation(SQLModel, table=True):
    """The audit of moderation (app.moderation): who did what to which account, when and why, and
    when and by whom it was undone. ``moderator_id`` None: the command line (``python -m app.admin``)."""
    id: int | None = Field(default=None, primary_key=True)
    at: datetime = Field(default_factory=utcnow, index=True)
    moderator_id: int | None = Field(default=None, foreign_key='user.id', ondelete='SET NULL')
    action: str = Field(max_length=24)            # 'grant', 'revoke', 'hide_ranking', 'rename'
    target_id: int = Field(foreign_key='user.id', ondelete='CASCADE', index=True)
    reason: str = Field(default='', max_length=300)
    # what undoing needs: a rename's display name before it
    detail: str = Field(default='', max_length=40, sa_column_kwargs={'server_default': ''})
    undone_at: datetime | None = None
    undone_by: int | None = Field(default=None, foreign_key='user.id', ondelete='SET NULL')


class RatingChange(SQLModel, table=True):
    """One rated game's effect on one account's rating: the history page plots them."""
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key='user.id', ondelete='CASCADE', index=True)
    game_id: str = Field(max_length=32)
    table_id: str = Field(max_length=32)
    before: int                  # the shown numbers (Rating.display)
    after: int
    mu: float                    # the new rating itself
    sigma: float
    place: int                   # 1 the best; a leaver is placed last
    seats: int
    # for whoever moderates (app.fairplay): 'address' when another person at the table was seen
    # at this account's address in the last 30 days, 'capped' when the pair's daily cap cut it
    marks: str = Field(default='', max_length=32)
    at: datetime = Field(default_factory=utcnow, index=True)


# users

def create_user(*, session: Session, username: str, display_name: str, password_hash: str,
                language: str | None) -> User:
    user = User(username=username.strip(), username_key=username_key(username),
                display_name=display_name, password_hash=password_hash, language=language)
    session.add(user)
    session.flush()
    return user


def get_user(*, session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def get_user_by_username(*, session: Session, username: str) -> User | None:
    return session.exec(select(User).where(User.username_key == username_key(username))).first()


def set_password_hash(*, session: Session, user_id: int, password_hash: str) -> None:
    user = session.get(User, user_id)
    if user is not None:
        user.password_hash = password_hash
        session.add(user)


def set_user_language(*, session: Session, user_id: int, language: str) -> None:
    user = session.get(User, user_id)
    if user is not None:
        user.language = language
        session.add(user)


def delete_user(*, session: Session, user_id: int) -> None:
    """The account and every record of it. Deleted explicitly, child rows first, so that it does
    not depend on the database enforcing ON DELETE CASCADE."""
    game_ids = select(PlayedGame.id).where(PlayedGame.user_id == user_id)
    session.exec(delete(GameSeat).where(col(GameSeat.played_game_id).in_(game_ids)))
    session.exec(delete(GameDeal).where(col(GameDeal.played_game_id).in_(game_ids)))
    session.exec(delete(GameReplay).where(col(GameReplay.played_game_id).in_(game_ids)))
    session.exec(delete(PlayedGame).where(PlayedGame.user_id == user_id))
    session.exec(delete(SignInSession).where(SignInSession.user_id == user_id))
    session.exec(delete(KnownDevice).where(KnownDevice.user_id == user_id))
    session.exec(delete(RecoveryCode).where(RecoveryCode.user_id == user_id))
    session.exec(delete(User).where(User.id == user_id))


# played games

def record_game(*, session: Session, game: PlayedGame, seats: list[GameSeat],
                deals: list[GameDeal], replay: GameReplay | None = None) -> PlayedGame:
    session.add(game)
    session.flush()
    for row in (*seats, *deals, *([replay] if replay is not None else [])):
        row.played_game_id = game.id
        session.add(row)
    session.flush()
    return game


def _games_of(user_id: int, game_id: str | None):
    query = select(PlayedGame).where(PlayedGame.user_id == user_id)
    return query.where(PlayedGame.game_id == game_id) if game_id else query


def list_games(*, session: Session, user_id: int, game_id: str | None = None,
               offset: int = 0, limit: int = 20) -> list[PlayedGame]:
    """The account's games, newest first."""
    query = _games_of(user_id, game_id).order_by(col(PlayedGame.ended_at).desc(), col(PlayedGame.id).desc())
    return list(session.exec(query.offset(offset).limit(limit)))


def games_after(*, session: Session, user_id: int, after_id: int = 0, limit: int = 200) -> list[PlayedGame]:
    """The account's games in the order they were recorded, from the one after `after_id` on
    (paging by id, for the export: a game recorded meanwhile neither repeats nor hides another)."""
    return list(session.exec(select(PlayedGame).where(PlayedGame.user_id == user_id, col(PlayedGame.id) > after_id)
                             .order_by(col(PlayedGame.id)).limit(limit)))


def count_games(*, session: Session, user_id: int, game_id: str | None = None) -> int:
    query = select(func.count()).select_from(PlayedGame).where(PlayedGame.user_id == user_id)
    if game_id:
        query = query.where(PlayedGame.game_id == game_id)
    return session.exec(query).one()


def seats_of(*, session: Session, played_game_ids: list[int]) -> dict[int, list[GameSeat]]:
    rows = session.exec(select(GameSeat).where(col(GameSeat.played_game_id).in_(played_game_ids))
                        .order_by(col(GameSeat.seat)))
    seats: dict[int, list[GameSeat]] = {game_id: [] for game_id in played_game_ids}
    for row in rows:
        seats[row.played_game_id].append(row)
    return seats


# which of an account's games a figure counts (app.history says why each is kept apart)
GameKind = Literal['ordinary', 'daily', 'computers', 'people']


def _of_kind(kind: GameKind, levels: Sequence[str]):
    """The condition on PlayedGame of one kind of game. A daily deal's options name its day: they are
    stored as sorted JSON with the standard separators (app.history.record_finished_game), so the
    text '"daily": "' is there exactly for a daily try. Another person's seat is recorded under their
    name, both as `name_or_level` and as `name`; a computer's under its level and its character's name
    (older records have no name: a seat named other than a level was a person's)."""
    daily = col(PlayedGame.options_json).contains('"daily": "')
    if kind == 'daily':
        return daily
    if kind == 'ordinary':
        return ~daily
    people = exists().where(col(GameSeat.played_game_id) == col(PlayedGame.id), col(GameSeat.is_human).is_(False),
                            or_(col(GameSeat.name_or_level).not_in(levels),
                                col(GameSeat.name) == col(GameSeat.name_or_level)))
    return and_(~daily, people if kind == 'people' else ~people)


def totals_by(*, session: Session, user_id: int, column: Literal['game_id', 'computer_level'],
              game_id: str | None = None, kind: GameKind = 'ordinary', levels: Sequence[str] = ()) -> list[tuple]:
    """Per value of `column` ('game_id' or 'computer_level'), over the games of `kind` (`levels`: the
    computers' levels, which tell a computer's seat from a person's): (value, played, wins, average
    score, lowest score, highest score). Abandoned games count as played; the scores are of finished
    games only (None when there are none)."""
    key = getattr(PlayedGame, column)
    counted = case((col(PlayedGame.abandoned), None), else_=PlayedGame.score)   # an abandoned score is partial
    query = (select(key, func.count(), func.sum(case((col(PlayedGame.won), 1), else_=0)), func.avg(counted),
                    func.min(counted), func.max(counted))
             .where(PlayedGame.user_id == user_id, _of_kind(kind, levels)).group_by(key).order_by(key))
    if game_id:
        query = query.where(PlayedGame.game_id == game_id)
    return [tuple(row) for row in session.exec(query)]


def results_over_time(*, session: Session, user_id: int, game_id: str | None = None,
                      limit: int = 200) -> list[tuple[str, datetime, int, bool]]:
    """(game id, end time, score, won) of the latest `limit` finished (not abandoned) ordinary games
    (no daily tries), oldest first."""
    query = (select(PlayedGame.game_id, PlayedGame.ended_at, PlayedGame.score, PlayedGame.won)
             .where(PlayedGame.user_id == user_id, col(PlayedGame.abandoned).is_(False), _of_kind('ordinary', ()))
             .order_by(col(PlayedGame.ended_at).desc(), col(PlayedGame.id).desc()).limit(limit))
    if game_id:
        query = query.where(PlayedGame.game_id == game_id)
    return [tuple(row) for row in reversed(session.exec(query).all())]


def get_game(*, session: Session, user_id: int, played_game_id: int) -> PlayedGame | None:
    """One recorded game, only if it belongs to `user_id`."""
    return session.exec(select(PlayedGame).where(PlayedGame.id == played_game_id,
                                                 PlayedGame.user_id == user_id)).first()


def deals_of(*, session: Session, played_game_id: int) -> list[GameDeal]:
    return deals_of_games(session=session, played_game_ids=[played_game_id])[played_game_id]


def deals_of_games(*, session: Session, played_game_ids: list[int]) -> dict[int, list[GameDeal]]:
    rows = session.exec(select(GameDeal).where(col(GameDeal.played_game_id).in_(played_game_ids))
                        .order_by(col(GameDeal.played_game_id), col(GameDeal.hand)))
    deals: dict[int, list[GameDeal]] = {game_id: [] for game_id in played_game_ids}
    for row in rows:
        deals[row.played_game_id].append(row)
    return deals


def replay_of(*, session: Session, played_game_id: int) -> GameReplay | None:
    return session.get(GameReplay, played_game_id)


def coach_of(*, session: Session, played_game_id: int, hand: int) -> HandCoach | None:
    return session.get(HandCoach, (played_game_id, hand))


def keep_coach(*, session: Session, coach: HandCoach) -> None:
    """Keep a hand's judgement; one already kept (two screens analysed the hand at once: they
    found the same, the analysis being deterministic) stays as it is."""
    dialect = session.get_bind().dialect.name
    insert = {'postgresql': postgresql.insert, 'sqlite': sqlite.insert}[dialect]
    session.execute(insert(HandCoach.__table__).values(**coach.model_dump()).on_conflict_do_nothing())


def coach_by_game(*, session: Session, user_id: int, game_id: str | None = None) -> list[tuple[PlayedGame, int, int, float]]:
    """Per recorded game of the account with hands judged by the coach, oldest first: the game, its
    decisions judged, those labelled and the points they lost."""
    statement = (select(PlayedGame, func.sum(HandCoach.decisions), func.sum(HandCoach.labelled),
                        func.sum(HandCoach.points_lost))
                 .join(HandCoach, col(HandCoach.played_game_id) == col(PlayedGame.id))
                 .where(col(PlayedGame.user_id) == user_id)
                 .group_by(col(PlayedGame.id)).order_by(col(PlayedGame.ended_at), col(PlayedGame.id)))
    if game_id is not None:
        statement = statement.where(col(PlayedGame.game_id) == game_id)
    return [(game, int(decisions), int(labelled), float(lost)) for game, decisions, labelled, lost in session.exec(statement)]


# login throttling

def get_login_throttle(*, session: Session, key: str) -> LoginThrottle | None:
    return session.get(LoginThrottle, key)


def locked_throttles(*, session: Session, keys: list[str], now: datetime) -> list[LoginThrottle]:
    return list(session.exec(select(LoginThrottle).where(col(LoginThrottle.username_key).in_(keys),
                                                         col(LoginThrottle.locked_until) > now)))


def count_login_failure(*, session: Session, key: str, now: datetime, forget_before: datetime) -> int:
    """Add one failure to `key` in a single statement (an upsert with an increment, atomic on SQLite
    and PostgreSQL alike; the row stays locked until the caller commits) and return the new count.
    A count whose last failure is older than `forget_before` starts again at 1."""
    dialect = session.get_bind().dialect.name
    insert = {'postgresql': postgresql.insert, 'sqlite': sqlite.insert}[dialect]
    table = LoginThrottle.__table__
    statement = insert(table).values(username_key=key, failures=1, last_failure_at=now, locked_until=None)
    statement = statement.on_conflict_do_update(
        index_elements=[table.c.username_key],
        set_={'failures': case((table.c.last_failure_at < forget_before, 1), else_=table.c.failures + 1),
              'last_failure_at': now}).returning(table.c.failures)
    return session.execute(statement).scalar_one()


def lock_login_throttle(*, session: Session, key: str, until: datetime | None) -> None:
    session.exec(update(LoginThrottle).where(col(LoginThrottle.username_key) == key)
                 .values(locked_until=until).execution_options(synchronize_session=False))


def clear_login_throttles(*, session: Session, keys: list[str]) -> None:
    session.exec(delete(LoginThrottle).where(col(LoginThrottle.username_key).in_(keys)))


def forget_login_failures(*, session: Session, before: datetime) -> None:
    """Drop throttling rows whose last failure is older than `before` (keeps the table small)."""
    session.exec(delete(LoginThrottle).where(col(LoginThrottle.last_failure_at) < before))


# deal limits

def count_deal(*, session: Session, windows: list[tuple[str, str, float]], now: float) -> dict[tuple[str, str], int]:
    """One more deal in each (key, window name, window seconds), in one upsert (atomic on SQLite
    and PostgreSQL alike; the rows stay locked until the caller commits or rolls back): a window
    that has ended starts again at `now`. Returns each window's new count."""
    dialect = session.get_bind().dialect.name
    insert = {'postgresql': postgresql.insert, 'sqlite': sqlite.insert}[dialect]
    table = DealCount.__table__
    statement = insert(table).values([{'key': key, 'window': name, 'ends': now + seconds, 'count': 1}
                                      for key, name, seconds in windows])
    ended = table.c.ends <= now
    statement = statement.on_conflict_do_update(
        index_elements=[table.c.key, table.c.window],
        set_={'count': case((ended, 1), else_=table.c.count + 1),
              'ends': case((ended, statement.excluded.ends), else_=table.c.ends)},   # a new window
    ).returning(table.c.key, table.c.window, table.c.count)
    return {(key, window): count for key, window, count in session.execute(statement)}


def forget_deal_counts(*, session: Session, now: float) -> None:
    """Drop the counts of windows that have ended."""
    session.exec(delete(DealCount).where(col(DealCount.ends) <= now))


# sign-in sessions and known devices

def add_sign_in_session(*, session: Session, token_hash: str, user_id: int, expires_at: datetime,
                        pending: bool = False) -> None:
    session.add(SignInSession(token_hash=token_hash, user_id=user_id, expires_at=expires_at, pending=pending))
    session.flush()


def take_sign_in_ticket(*, session: Session, token_hash: str, now: datetime) -> int | None:
    """The account of a pending ticket, deleted in the same statement (so it serves once), or None."""
    result = session.execute(delete(SignInSession.__table__)
                             .where(SignInSession.__table__.c.token_hash == token_hash,
                                    SignInSession.__table__.c.pending.is_(True),
                                    SignInSession.__table__.c.expires_at > now)
                             .returning(SignInSession.__table__.c.user_id))
    return result.scalar_one_or_none()


def user_of_sign_in_session(*, session: Session, token_hash: str, now: datetime,
                            idle_since: datetime | None = None, touch_before: datetime | None = None,
                            touched: Callable[[int], None] | None = None) -> int | None:
    """The account of a live session: not expired at `now`, and used after `idle_since`. A session
    last marked used before `touch_before` is marked used `now` (and `touched(user_id)` is called,
    in the same transaction); a fresher one costs no write."""
    query = select(SignInSession.user_id, SignInSession.last_used_at).where(
        SignInSession.token_hash == token_hash, col(SignInSession.pending).is_(False),
        col(SignInSession.expires_at) > now)
    if idle_since is not None:
        query = query.where(col(SignInSession.last_used_at) > idle_since)
    found = session.exec(query).first()
    if found is None:
        return None
    user_id, last_used_at = found
    if touch_before is not None and _utc(last_used_at) < touch_before:
        session.exec(update(SignInSession).where(col(SignInSession.token_hash) == token_hash)
                     .values(last_used_at=now).execution_options(synchronize_session=False))
        if touched is not None:
            touched(user_id)
    return user_id


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)   # SQLite gives them back naive


def end_sign_in_sessions(*, session: Session, user_id: int | None = None, token_hash: str | None = None,
                         keep: str | None = None) -> None:
    """End one session (`token_hash`) or every session of `user_id`, except `keep`."""
    query = delete(SignInSession)
    if token_hash is not None:
        query = query.where(SignInSession.token_hash == token_hash)
    if user_id is not None:
        query = query.where(SignInSession.user_id == user_id)
    if keep is not None:
        query = query.where(SignInSession.token_hash != keep)
    session.exec(query)


def forget_expired_sign_in_sessions(*, session: Session, now: datetime, idle_since: datetime | None = None) -> None:
    """Drop the sessions expired at `now`, and those unused since `idle_since`."""
    ended = col(SignInSession.expires_at) <= now
    if idle_since is not None:
        ended = ended | (col(SignInSession.last_used_at) <= idle_since)
    session.exec(delete(SignInSession).where(ended))


def remember_device(*, session: Session, token_hash: str, user_id: int) -> None:
    if session.get(KnownDevice, (token_hash, user_id)) is None:
        session.add(KnownDevice(token_hash=token_hash, user_id=user_id))


def is_known_device(*, session: Session, token_hash: str, username: str) -> bool:
    return session.exec(select(KnownDevice.user_id).join(User, col(User.id) == col(KnownDevice.user_id))
                        .where(KnownDevice.token_hash == token_hash,
                               User.username_key == username_key(username))).first() is not None


# recovery codes

def replace_recovery_codes(*, session: Session, user_id: int, code_hashes: list[str]) -> None:
    """The account's codes become these: the old ones, used or not, are worth nothing from now."""
    session.exec(delete(RecoveryCode).where(RecoveryCode.user_id == user_id))
    session.add_all(RecoveryCode(code_hash=code_hash, user_id=user_id) for code_hash in code_hashes)
    session.flush()


def take_recovery_code(*, session: Session, user_id: int, code_hash: str) -> bool:
    """Use up one code in a single conditional DELETE: of two attempts with the same code at the
    same moment, the database lets exactly one find the row."""
    result = session.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user_id,
                                                     col(RecoveryCode.code_hash) == code_hash)
                          .execution_options(synchronize_session=False))
    return result.rowcount == 1


def count_recovery_codes(*, session: Session, user_id: int) -> int:
    return session.exec(select(func.count()).select_from(RecoveryCode).where(RecoveryCode.user_id == user_id)).one()


# game tables

def insert_table(*, session: Session, table: GameTable) -> None:
    """Add a new table; flushed at once so that a clashing id fails here (IntegrityError)."""
    session.add(table)
    session.flush()


def load_table(*, session: Session, table_id: str) -> GameTable | None:
    # populate_existing: what the database holds now, even if this session saw an older row
    return session.get(GameTable, table_id, populate_existing=True)


def save_table_if_version(*, session: Session, table_id: str, expected_version: int, version: int,
                          status: str, state_json: str | None = None, seats_json: str | None = None,
                          steps_json: str | None = None, user_id: int | None = None,
                          person_acted: bool = False, lease: tuple[str, int] | None = None) -> bool:
    """Write the table only if the stored version is still `expected_version` (compare-and-set in
    one UPDATE): of two processes saving the same version, the database lets exactly one through.
    `state_json`: the whole table, which replaces the steps appended so far; else `steps_json` is
    appended to them (a `TableStep`, in the same transaction as the version's compare-and-set).
    `seats_json`, when given, replaces the seats.
    False means someone else wrote first (or the table is gone or abandoned): reload, do not retry.
    `user_id`, once the table has an account, is written too (a guest may log in during a game).
    `lease` (owner, epoch): the write is fenced as well, it happens only while that owner still
    holds the table's lease at that epoch; the lease row is share-locked until the commit, so a
    claim waits for this write, or this write sees the claim and writes nothing."""
    if lease is not None and session.exec(
            select(TableLease.epoch)
            .where(col(TableLease.table_id) == table_id, col(TableLease.owner) == lease[0],
                   col(TableLease.epoch) == lease[1])
            .with_for_update(read=True)).first() is None:
        return False
    if (state_json is None) == (steps_json is None):
        raise ValueError('a table is written whole (state_json) or appended to (steps_json)')
    account = {} if user_id is None else {'user_id': user_id}
    whole = {} if state_json is None else {'state_json': state_json}
    seats = {} if seats_json is None else {'seats_json': seats_json}
    result = session.exec(
        update(GameTable)
        .where(col(GameTable.id) == table_id, col(GameTable.version) == expected_version)
        .values(version=version, status=status, updated_at=utcnow(), person_acted=person_acted,
                **whole, **seats, **account)
        .execution_options(synchronize_session=False))
    if result.rowcount != 1:
        return False
    if state_json is not None:
        session.exec(delete(TableStep).where(col(TableStep.table_id) == table_id)
                     .execution_options(synchronize_session=False))
    else:
        session.add(TableStep(table_id=table_id, version=version, steps_json=steps_json))
    return True


def table_steps(*, session: Session, table_id: str) -> list[str]:
    """The steps appended to a table since its last whole write, in order (JSON)."""
    return list(session.exec(select(TableStep.steps_json).where(col(TableStep.table_id) == table_id)
                             .order_by(col(TableStep.id))))


def unfinished_tables(*, session: Session, user_id: int | None = None, game_id: str | None = None,
                      before: datetime | None = None) -> list[str]:
    """Ids of the tables still being played: an account's (of one game; its daily tries are
    not among them, they end with their day), and/or those untouched since `before` that have an
    account (the guests' are closed by `abandon_idle_tables`)."""
    query = select(GameTable.id).where(col(GameTable.status) == 'playing')
    if user_id is not None:
        query = query.where(col(GameTable.user_id) == user_id, col(GameTable.id).not_in(select(DailyTry.table_id)))
    if game_id is not None:
        query = query.where(col(GameTable.game_id) == game_id)
    if before is not None:
        query = query.where(col(GameTable.updated_at) < before, col(GameTable.user_id).is_not(None))
    return list(session.exec(query.order_by(col(GameTable.updated_at))))


def abandon_table_if_version(*, session: Session, table_id: str, expected_version: int) -> bool:
    """Close one playing table as abandoned if it is still at `expected_version` (compare-and-set,
    as for saving): of two processes abandoning it, exactly one is told True."""
    result = session.exec(
        update(GameTable)
        .where(col(GameTable.id) == table_id, col(GameTable.version) == expected_version,
               col(GameTable.status) == 'playing')
        .values(status='abandoned', version=GameTable.version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False))
    if result.rowcount == 1:
        close_public_tables(session=session, table_ids=[table_id], now=utcnow())
    return result.rowcount == 1


def abandon_idle_tables(*, session: Session, before: datetime) -> int:
    """Mark 'abandoned' every playing table untouched since `before`; returns how many. The version
    grows too, so a process still holding one of them cannot save it back to life."""
    result = session.exec(
        update(GameTable)
        .where(col(GameTable.status) == 'playing', col(GameTable.updated_at) < before)
        .values(status='abandoned', version=GameTable.version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False))
    close_public_tables(session=session, table_ids=select(GameTable.id).where(col(GameTable.status) == 'abandoned'),
                        now=utcnow())
    return result.rowcount


def delete_guest_tables(*, session: Session, untouched_before: datetime, closed_before: datetime,
                        keep: list[str] = ()) -> int:
    """Delete the tables no account sits at (they feed no history) that nobody played at and no
    one touched since `untouched_before`, or that ended (finished or abandoned) and were untouched
    since `closed_before`, but those in `keep`; returns how many."""
    result = session.exec(
        delete(GameTable)
        .where(col(GameTable.user_id).is_(None), col(GameTable.id).not_in(list(keep)),
               or_(and_(col(GameTable.person_acted).is_(False), col(GameTable.updated_at) < untouched_before),
                   and_(col(GameTable.status) != 'playing', col(GameTable.updated_at) < closed_before)))
        .execution_options(synchronize_session=False))
    return result.rowcount


# public tables (app.lobby)

PUBLIC_OPEN = ('waiting', 'playing')   # the stages the lobby lists
# a claim is its person's seat at these: 'left' is a game still on that nobody is at (not listed)
PUBLIC_SEATED = ('waiting', 'playing', 'left')
STAGE_RANK = {'waiting': 0, 'playing': 1, 'left': 1}   # else 2 ('over'): a stage never goes back


def lock_quick_match(*, session: Session, key: int) -> None:
    """Quick matches of one kind (game, seats, rated) wait for each other here, on every process:
    of two people asking at once, the second sees the table the first one opened. A transaction
    lock on PostgreSQL; on SQLite (one process) the database's own write lock, taken by a write
    that changes nothing."""
    lock_keys(session=session, keys=[key])


def lock_keys(*, session: Session, keys: list[int]) -> None:
    """Transaction locks on these keys, taken in one order (two transactions that want some of the
    same keys never wait for each other in a circle); on SQLite the database's write lock."""
    if session.get_bind().dialect.name == 'postgresql':
        for key in sorted(set(keys)):
            session.exec(select(func.pg_advisory_xact_lock(key)))
    else:
        session.exec(update(PublicTable).where(literal(False)).values(stage=PublicTable.stage)
                     .execution_options(synchronize_session=False))


def waiting_quick_table(*, session: Session, game_id: str, seats: int, rated: bool, fills_after: datetime,
                        excluded: Collection[str] = ()) -> PublicTable | None:
    """The oldest quick-match table of this kind still waiting with a seat free, not about to fill
    (and not one of ``excluded``)."""
    query = select(PublicTable).where(
        PublicTable.game_id == game_id, PublicTable.seats == seats, PublicTable.rated == rated,
        col(PublicTable.quick).is_(True), PublicTable.stage == 'waiting', col(PublicTable.free_seats) > 0,
        col(PublicTable.fill_at) > fills_after)
    if excluded:
        query = query.where(col(PublicTable.table_id).not_in(list(excluded)))
    return session.exec(query.order_by(col(PublicTable.created_at)).limit(1).with_for_update()).first()


def public_table(*, session: Session, table_id: str, lock: bool = False) -> PublicTable | None:
    query = select(PublicTable).where(PublicTable.table_id == table_id)
    return session.exec(query.with_for_update() if lock else query).first()


def claims_of(*, session: Session, table_id: str) -> list[SeatClaim]:
    return list(session.exec(select(SeatClaim).where(SeatClaim.table_id == table_id).order_by(col(SeatClaim.seat))))


def _claimed_by(guest: str | None, user_id: int | None):
    """The claims of this browser or this account (a condition that holds for none when neither)."""
    mine = [col(SeatClaim.guest) == guest] if guest is not None else []
    mine += [col(SeatClaim.user_id) == user_id] if user_id is not None else []
    return or_(*mine) if mine else literal(False)


def claim_of(*, session: Session, table_id: str, guest: str | None, user_id: int | None) -> SeatClaim | None:
    """This browser's or account's seat at the table, if it has taken one."""
    return session.exec(select(SeatClaim).where(SeatClaim.table_id == table_id, _claimed_by(guest, user_id))).first()


def seat_of_person(*, session: Session, guest: str | None, user_id: int | None) -> tuple[str, str] | None:
    """(table id, game id) of the open public table where this account (signed in) or this guest
    browser holds a seat, or None. A claim left behind at a table that has ended (its end could not
    be written to the listing) is dropped first: it must not keep its person from playing, nor
    trip the unique index."""
    mine = col(SeatClaim.user_id) == user_id if user_id is not None \
        else and_(col(SeatClaim.guest) == guest, col(SeatClaim.user_id).is_(None)) if guest is not None else literal(False)
    ended = select(GameTable.id).where(col(GameTable.status) != 'playing')
    over = select(PublicTable.table_id).where(col(PublicTable.stage).not_in(PUBLIC_SEATED))
    session.exec(delete(SeatClaim).where(mine,
                                         or_(col(SeatClaim.table_id).in_(ended), col(SeatClaim.table_id).in_(over)))
                 .execution_options(synchronize_session=False))
    found = session.exec(select(SeatClaim.table_id, PublicTable.game_id)
                         .join(PublicTable, col(PublicTable.table_id) == col(SeatClaim.table_id))
                         .where(mine)).first()
    return None if found is None else (found[0], found[1])


def waiting_seats_at(*, session: Session, address: str) -> int:
    """How many seats at waiting public tables were claimed from this address (app.limits' key)."""
    return session.exec(select(func.count()).select_from(SeatClaim)
                        .join(PublicTable, col(PublicTable.table_id) == col(SeatClaim.table_id))
                        .where(col(SeatClaim.address) == address, PublicTable.stage == 'waiting')).one()


def free_unseen_claims(*, session: Session, table_id: str, before: datetime, seen: list[int], now: datetime) -> int:
    """Free the seats claimed at a waiting table before ``before`` whose page never came (their
    seat is not among ``seen``, the seats its holding process has seated); returns how many."""
    row = public_table(session=session, table_id=table_id, lock=True)
    if row is None or row.stage != 'waiting':
        return 0
    gone = session.exec(delete(SeatClaim).where(col(SeatClaim.table_id) == table_id, col(SeatClaim.created_at) < before,
                                                col(SeatClaim.seat).not_in(list(seen)))
                        .execution_options(synchronize_session=False))
    if gone.rowcount:
        session.exec(update(PublicTable).where(col(PublicTable.table_id) == table_id)
                     .values(free_seats=col(PublicTable.free_seats) + gone.rowcount, updated_at=now)
                     .execution_options(synchronize_session=False))
    return gone.rowcount


def stale_public_tables(*, session: Session, before: datetime) -> list[str]:
    """Public games in play (listed or left) whose table has not been saved since ``before``: a
    game played saves at every step, so nobody is at these any more (a restart lost them, say)."""
    return list(session.exec(select(PublicTable.table_id)
                             .join(GameTable, col(GameTable.id) == col(PublicTable.table_id))
                             .where(col(PublicTable.stage).in_(('playing', 'left')),
                                    col(GameTable.status) == 'playing', col(GameTable.updated_at) < before)))


def close_public_tables(*, session: Session, table_ids: Any, now: datetime) -> None:
    """These public tables have ended (``table_ids``: a list or a query of ids): out of the lobby,
    and their claims go, so that their people are free to sit elsewhere."""
    session.exec(update(PublicTable).where(col(PublicTable.table_id).in_(table_ids), PublicTable.stage != 'over')
                 .values(stage='over', free_seats=0, updated_at=now).execution_options(synchronize_session=False))
    session.exec(delete(SeatClaim).where(col(SeatClaim.table_id).in_(table_ids))
                 .execution_options(synchronize_session=False))


def add_claim(*, session: Session, claim: SeatClaim, now: datetime) -> None:
    """A seat taken, and one free seat fewer in the listing (the caller holds the listing's row)."""
    session.add(claim)
    session.exec(update(PublicTable).where(col(PublicTable.table_id) == claim.table_id)
                 .values(free_seats=col(PublicTable.free_seats) - 1, updated_at=now)
                 .execution_options(synchronize_session=False))
    session.flush()


def release_public_seat(*, session: Session, table_id: str, seat: int, now: datetime) -> bool:
    """A seat given up before the start is free again (False once the table has started)."""
    row = public_table(session=session, table_id=table_id, lock=True)
    if row is None or row.stage != 'waiting':
        return False
    gone = session.exec(delete(SeatClaim).where(col(SeatClaim.table_id) == table_id, col(SeatClaim.seat) == seat)
                        .execution_options(synchronize_session=False))
    if gone.rowcount:
        session.exec(update(PublicTable).where(col(PublicTable.table_id) == table_id)
                     .values(free_seats=col(PublicTable.free_seats) + 1, updated_at=now)
                     .execution_options(synchronize_session=False))
    return True


def update_public_table(*, session: Session, table_id: str, stage: str, people_json: str, spectators: int,
                        now: datetime) -> None:
    """What the holding process knows: who sits there, how many watch, and how far the game is. A
    stage only moves on (a late write of 'waiting' never reopens a table that started)."""
    order = case(*[(col(PublicTable.stage) == name, rank) for name, rank in STAGE_RANK.items()], else_=2)
    rank = STAGE_RANK.get(stage, 2)
    session.exec(update(PublicTable).where(col(PublicTable.table_id) == table_id)
                 .values(people_json=people_json, spectators=spectators, updated_at=now,
                         stage=case((order <= rank, stage), else_=col(PublicTable.stage)))
                 .execution_options(synchronize_session=False))
    if rank == 2:   # it ended: its people are free to sit elsewhere
        close_public_tables(session=session, table_ids=[table_id], now=now)


def start_public_table(*, session: Session, table_id: str, now: datetime, keep: list[int] | None = None) \
        -> list[SeatClaim]:
    """The table starts: no seat can be taken from now on (a claim waits for this row's lock, then
    finds it started); the claims of seats not in ``keep`` (people not there) go; returns the rest."""
    session.exec(update(PublicTable).where(col(PublicTable.table_id) == table_id, col(PublicTable.stage) == 'waiting')
                 .values(stage='playing', free_seats=0, updated_at=now).execution_options(synchronize_session=False))
    if keep is not None:
        session.exec(delete(SeatClaim).where(col(SeatClaim.table_id) == table_id, col(SeatClaim.seat).not_in(keep))
                     .execution_options(synchronize_session=False))
    return claims_of(session=session, table_id=table_id)


def list_public_tables(*, session: Session, game_id: str | None, offset: int, limit: int) \
        -> tuple[list[PublicTable], int]:
    """The lobby's page of open public tables: waiting ones first (the oldest first), then those
    being played (the newest first); and how many there are in all."""
    where = [col(PublicTable.stage).in_(PUBLIC_OPEN)]
    if game_id is not None:
        where.append(PublicTable.game_id == game_id)
    total = session.exec(select(func.count()).select_from(PublicTable).where(*where)).one()
    waiting_first = case((col(PublicTable.stage) == 'waiting', 0), else_=1)
    rows = session.exec(select(PublicTable).where(*where)
                        .order_by(waiting_first, case((col(PublicTable.stage) == 'waiting', col(PublicTable.created_at)),
                                                      else_=None), col(PublicTable.created_at).desc())
                        .offset(offset).limit(limit))
    return list(rows), total


def public_tables_changed_since(*, session: Session, since: datetime | None) -> datetime | None:
    """The latest change to any public table after ``since`` (ever, for None); None: no change."""
    query = select(func.max(PublicTable.updated_at))
    return session.exec(query if since is None else query.where(col(PublicTable.updated_at) > since)).one()


# table leases (several server processes on one PostgreSQL; see app.tables.lease)

@dataclass(frozen=True, slots=True)
class Lease:
    owner: str
    address: str
    epoch: int
    seconds_left: float   # by the database's clock; 0 or less: expired


def claim_lease(*, session: Session, table_id: str, owner: str, address: str, seconds: float,
                unreachable: str | None = None) -> Lease | None:
    """Take a stored table's lease for `owner` if nobody holds it, if its holder's lease ran out,
    if its holder was an earlier start of the process at `address`, or if its holder is at the
    address `unreachable` (which nginx could not reach: its lease is not waited out). It is a
    compare-and-set in one statement: of two processes claiming at once, one wins. Every claim
    raises the epoch, which fences the old holder's writes out. Returns the lease as it now
    stands, whoever holds it; None for a table that is not stored."""
    now = func.now()
    until = now + timedelta(seconds=seconds)
    takeable = (col(TableLease.expires_at) <= now) | ((col(TableLease.address) == address)
                                                      & (col(TableLease.owner) != owner))
    if unreachable is not None:
        takeable |= col(TableLease.address) == unreachable
    claim = postgresql.insert(TableLease).from_select(
        ['table_id', 'owner', 'address', 'epoch', 'expires_at'],
        select(GameTable.id, literal(owner), literal(address), literal(1), until).where(col(GameTable.id) == table_id))
    claim = claim.on_conflict_do_update(
        index_elements=['table_id'],
        set_={'owner': owner, 'address': address, 'epoch': TableLease.epoch + 1, 'expires_at': until},
        where=takeable)
    session.exec(claim)
    return lease_of(session=session, table_id=table_id)


def lease_of(*, session: Session, table_id: str) -> Lease | None:
    row = session.exec(select(TableLease.owner, TableLease.address, TableLease.epoch,
                              func.extract('epoch', col(TableLease.expires_at) - func.now()))
                       .where(col(TableLease.table_id) == table_id)).first()
    return None if row is None else Lease(row[0], row[1], row[2], float(row[3]))


def renew_leases(*, session: Session, owner: str, seconds: float) -> dict[str, int]:
    """Extend every lease `owner` still holds, in one statement; returns them (table id -> epoch).
    A lease missing from the answer was claimed by another process."""
    rows = session.exec(update(TableLease).where(col(TableLease.owner) == owner)
                        .values(expires_at=func.now() + timedelta(seconds=seconds))
                        .returning(TableLease.table_id, TableLease.epoch))
    return {table_id: epoch for table_id, epoch in rows}


def release_leases(*, session: Session, owner: str, table_id: str | None = None) -> int:
    """End `owner`'s leases now (of one table, or all): any process may claim them at once. The
    rows stay, with their epochs."""
    query = update(TableLease).where(col(TableLease.owner) == owner, col(TableLease.expires_at) > func.now())
    if table_id is not None:
        query = query.where(col(TableLease.table_id) == table_id)
    return session.exec(query.values(expires_at=func.now()).execution_options(synchronize_session=False)).rowcount


# the daily deal (app.daily)

def daily_deal(*, session: Session, game_id: str, day: date, new_seed: str) -> DailyDeal:
    """The day's deal of a game, made with `new_seed` by whichever process asks first (an insert
    that does nothing on a conflict, then a read: every process gets the same seed)."""
    dialect = session.get_bind().dialect.name
    insert = {'postgresql': postgresql.insert, 'sqlite': sqlite.insert}[dialect]
    session.execute(insert(DailyDeal.__table__).values(game_id=game_id, day=day, seed=new_seed, created_at=utcnow())
                    .on_conflict_do_nothing(index_elements=['game_id', 'day']))
    return session.exec(select(DailyDeal).where(col(DailyDeal.game_id) == game_id, col(DailyDeal.day) == day)).one()


def stored_daily_deal(*, session: Session, game_id: str, day: date) -> DailyDeal | None:
    """A day's deal as stored, or None: a read that never makes one (a past day's page)."""
    return session.get(DailyDeal, (game_id, day))


def add_daily_try(*, session: Session, attempt: DailyTry) -> DailyTry:
    """Store a new try; an IntegrityError when this account (or guest) already has one that day."""
    session.add(attempt)
    session.flush()
    return attempt


def daily_try_of(*, session: Session, game_id: str, day: date, user_id: int | None = None,
                 guest: str | None = None) -> DailyTry | None:
    """An account's try at a day's deal or, with no account, a guest's."""
    query = select(DailyTry).where(col(DailyTry.game_id) == game_id, col(DailyTry.day) == day)
    query = query.where(col(DailyTry.user_id) == user_id) if user_id is not None \
        else query.where(col(DailyTry.guest) == guest, col(DailyTry.user_id).is_(None))
    return session.exec(query).first()


def daily_try_by_id(*, session: Session, try_id: int) -> DailyTry | None:
    return session.get(DailyTry, try_id)


def finish_daily_try(*, session: Session, table_id: str, points: int, at: datetime,
                     status: str = 'finished') -> bool:
    """A try's end: its points, once (a try already ended keeps its first result)."""
    result = session.exec(update(DailyTry).where(col(DailyTry.table_id) == table_id,
                                                 col(DailyTry.status) == 'playing')
                          .values(points=points, finished_at=at, status=status)
                          .execution_options(synchronize_session=False))
    return result.rowcount == 1


def daily_tries(*, session: Session, game_id: str, first_day: date, last_day: date,
                ranked: bool = True) -> list[DailyTry]:
    """A game's tries between two days (both included), the accounts' only when `ranked`."""
    query = select(DailyTry).where(col(DailyTry.game_id) == game_id, col(DailyTry.day) >= first_day,
                                   col(DailyTry.day) <= last_day)
    if ranked:
        query = query.where(col(DailyTry.user_id).is_not(None))
    return list(session.exec(query.order_by(col(DailyTry.day), col(DailyTry.id))))


def open_daily_tries(*, session: Session, before: date) -> list[DailyTry]:
    """The tries still being played whose day ended before `before`."""
    return list(session.exec(select(DailyTry).where(col(DailyTry.status) == 'playing', col(DailyTry.day) < before)))


def daily_days_of(*, session: Session, user_id: int) -> list[date]:
    """The days on which an account finished a daily deal, any game, newest first."""
    return list(session.exec(select(DailyTry.day).where(col(DailyTry.user_id) == user_id,
                                                        col(DailyTry.status) == 'finished')
                             .distinct().order_by(col(DailyTry.day).desc())))


def is_daily_table(*, session: Session, table_id: str) -> bool:
    return session.exec(select(DailyTry.id).where(col(DailyTry.table_id) == table_id)).first() is not None


# ratings (app.standings)

def lock_player_ratings(*, session: Session, user_ids: list[int], game_id: str, mu: float,
                        sigma: float, at: datetime) -> dict[int, PlayerRating]:
    """Each account's rating in a game, locked until the transaction ends (FOR UPDATE: on
    PostgreSQL two games ending at once for the same person take turns; SQLite locks the whole
    file at the first write anyway). An account with none gets a row with ``mu``/``sigma`` and no
    games first (an insert that does nothing on a conflict), so that a new player's row is locked
    like anyone's instead of being inserted twice by two games at once."""
    dialect = session.get_bind().dialect.name
    insert = {'postgresql': postgresql.insert, 'sqlite': sqlite.insert}[dialect]
    for user_id in sorted(user_ids):   # always the same order: two transactions never wait on each other
        session.execute(insert(PlayerRating.__table__)
                        .values(user_id=user_id, game_id=game_id, mu=mu, sigma=sigma, games=0, last_played_at=at)
                        .on_conflict_do_nothing(index_elements=['user_id', 'game_id']))
    rows = session.exec(select(PlayerRating).where(col(PlayerRating.game_id) == game_id,
                                                   col(PlayerRating.user_id).in_(user_ids))
                        .order_by(col(PlayerRating.user_id)).with_for_update())
    return {row.user_id: row for row in rows}


def player_ratings(*, session: Session, user_ids: list[int], game_id: str) -> dict[int, PlayerRating]:
    rows = session.exec(select(PlayerRating).where(col(PlayerRating.game_id) == game_id,
                                                   col(PlayerRating.user_id).in_(user_ids)))
    return {row.user_id: row for row in rows}


def rating_changes_of_table(*, session: Session, table_id: str) -> list[RatingChange]:
    return list(session.exec(select(RatingChange).where(col(RatingChange.table_id) == table_id)
                             .order_by(col(RatingChange.id))))


def add_rating_changes(*, session: Session, changes: list[RatingChange]) -> None:
    session.add_all(changes)
    session.flush()


def rated_players(*, session: Session, game_id: str, min_games: int, since: datetime,
                  limit: int) -> list[tuple[PlayerRating, str]]:
    """The accounts a game's ranking lists, best first, with their display names: at least
    ``min_games`` rated games, the last one at ``since`` or later. Equal ratings keep the older
    account first, as ``rank_of`` counts them."""
    return [(rating, name) for rating, name in session.exec(
        select(PlayerRating, User.display_name).join(User, col(User.id) == col(PlayerRating.user_id))
        .where(*_ranked(game_id, min_games, since))
        .order_by(col(PlayerRating.mu).desc(), col(PlayerRating.user_id)).limit(limit))]


def rank_of(*, session: Session, rating: PlayerRating, min_games: int, since: datetime) -> int:
    """Where an account the ranking lists stands in it (1 the best), by the order of ``rated_players``."""
    ahead = session.exec(select(func.count()).select_from(PlayerRating).where(
        *_ranked(rating.game_id, min_games, since),
        or_(col(PlayerRating.mu) > rating.mu,
            and_(col(PlayerRating.mu) == rating.mu, col(PlayerRating.user_id) < rating.user_id)))).one()
    return ahead + 1


def count_rated_players(*, session: Session, game_id: str, min_games: int, since: datetime) -> int:
    return session.exec(select(func.count()).select_from(PlayerRating)
                        .where(*_ranked(game_id, min_games, since))).one()


def _ranked(game_id: str, min_games: int, since: datetime) -> tuple:
    return (col(PlayerRating.game_id) == game_id, col(PlayerRating.games) >= min_games,
            col(PlayerRating.last_played_at) >= since, ~_hidden(col(PlayerRating.user_id)))


def _hidden(user_id: Any) -> Any:
    """A moderator hid this account from the rankings, and nobody has undone it."""
    return exists().where(*_standing(user_id, 'hide_ranking'))


def _standing(user_id: Any, action: str) -> tuple:
    """A moderator's act of this kind on this account, not undone."""
    return (col(Moderation.target_id) == user_id, col(Moderation.action) == action,
            col(Moderation.undone_at).is_(None))


def standing_reason(*, session: Session, user_id: int, action: str) -> str | None:
    """Why a moderator did this to the account, the latest time, if it still stands; else None."""
    return session.exec(select(Moderation.reason).where(*_standing(user_id, action))
                        .order_by(col(Moderation.at).desc(), col(Moderation.id).desc())).first()


def hidden_from_rankings(*, session: Session, user_id: int) -> str | None:
    """Why a moderator hid this account from the rankings; None when it is not hidden."""
    return standing_reason(session=session, user_id=user_id, action='hide_ranking')


def add_moderation(*, session: Session, entry: Moderation) -> Moderation:
    session.add(entry)
    session.flush()
    return entry


def moderation_log(*, session: Session, limit: int = 100) -> list[tuple[Moderation, str, str | None]]:
    """The latest moderation, newest first, with its target's and its moderator's names."""
    moderator = aliased(User)
    return [(entry, target, by) for entry, target, by in session.exec(
        select(Moderation, User.username, moderator.username)
        .join(User, col(User.id) == col(Moderation.target_id))
        .join(moderator, col(moderator.id) == col(Moderation.moderator_id), isouter=True)
        .order_by(col(Moderation.at).desc(), col(Moderation.id).desc()).limit(limit))]


def set_role(*, session: Session, user_id: int, role: str | None) -> None:
    session.exec(update(User).where(col(User.id) == user_id).values(role=role))


def set_display_name(*, session: Session, user_id: int, display_name: str, must_rename: bool) -> None:
    session.exec(update(User).where(col(User.id) == user_id)
                 .values(display_name=display_name, must_rename=must_rename))


def marked_rated_games(*, session: Session, limit: int = 50) -> list[tuple[RatingChange, str]]:
    """The latest rated games' changes that fair play marked (two accounts seen at one address,
    a pair's daily cap), newest first, with each account's name: what a moderator looks at."""
    return list(session.exec(
        select(RatingChange, User.username).join(User, col(User.id) == col(RatingChange.user_id))
        .where(col(RatingChange.marks) != '').order_by(col(RatingChange.at).desc(), col(RatingChange.id))
        .limit(limit)))


def rating_changes_of(*, session: Session, user_id: int, game_id: str | None = None) -> list[RatingChange]:
    """An account's rating changes, oldest first (of one game, or of all)."""
    query = select(RatingChange).where(col(RatingChange.user_id) == user_id)
    if game_id is not None:
        query = query.where(col(RatingChange.game_id) == game_id)
    return list(session.exec(query.order_by(col(RatingChange.at), col(RatingChange.id))))
