"""The day's deals and the tries at them, over the database and the tables' registry.

A try is a try from the moment it is started: its row is stored before its table, with a unique
constraint per account (or guest browser), game and day, so two starts at once, on any process,
make one try; the loser is shown the winner's. Leaving and coming back resumes it. When its day is
over, a try still being played is ended as it stands (``close_past_days``), and only then is the
day's seed shown.

The ranked deal is the accounts'. A guest plays the day's practice deal: the same format, dealt
from a seed that is a one-way hash of the ranked one (``practice_seed``), so a private window is
no rehearsal of the ranked try and the practice's seed, once shown, says nothing of it. Only
today's deal is made on demand: a past day is read, never made (a day nobody was dealt stays
empty, whoever asks for it).
"""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from app import metrics
from app.daily.field import Result
from app.engine.cards import commitment
from app.games import GameInfo
from app.tables.records import end_daily_try
from app.tables.registry import TableUnavailable, abandon, add_table, new_table, open_table, services
from app.tables.seats import Seat, TableOptions, computer_seats, daily_open
from models.db import session_scope
from models.tables import (DailyTry, add_daily_try, daily_days_of, daily_deal, daily_tries, daily_try_by_id,
                           daily_try_of, finish_daily_try, open_daily_tries, stored_daily_deal)

logger = logging.getLogger(__name__)


def today() -> date:
    """The UTC day by the tables' clock (a test's clock moves the day on)."""
    return datetime.fromtimestamp(services().clock.wall(), UTC).date()


def seconds_left_today() -> float:
    """Until the day's end, when its seed is shown and the next deal opens."""
    now = datetime.fromtimestamp(services().clock.wall(), UTC)
    end = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), UTC)
    return (end - now).total_seconds()


def seeds_held(day: str) -> bool:
    """Whether a daily game's hand seeds are still secret: its day ('YYYY-MM-DD', '' for a game
    that is no daily) is not over. Its table holds them back (app.tables.snapshot), and so does
    every page that shows a recorded game's seeds."""
    return daily_open(day, services().clock.wall())


@dataclass(frozen=True, slots=True)
class DayDeal:
    game: GameInfo
    day: date
    fingerprint: str          # SHA-256 of the seed, shown before anybody plays
    seed: str | None          # the seed itself, once the day is over
    practice_fingerprint: str   # the same of the practice deal's seed (the guests' deal)

    @property
    def over(self) -> bool:
        return self.seed is not None

    @property
    def practice_seed(self) -> str | None:
        return None if self.seed is None else practice_seed(self.seed)


def game_seed(seed: str) -> int:
    """The daily table's game seed (its first dealer, every hand, the computers' choices), from
    the day's seed. Not the fingerprint's digest: that one is public while the day is open."""
    return int(hashlib.sha256(f'daily game:{seed}'.encode()).hexdigest()[:15], 16)


def practice_seed(seed: str) -> str:
    """The day's practice seed, from its ranked seed: a one-way hash, so knowing it (a guest's
    table plays from it) gives nothing of the ranked deal; 32 hex digits like every hand's seed."""
    return hashlib.sha256(f'daily practice:{seed}'.encode()).hexdigest()[:32]


def day_deal(game: GameInfo, day: date) -> DayDeal | None:
    """The day's deal of a game, its seed only once the day is over: today's is made by the first
    process that asks; an earlier day's is only read (None when that day dealt nothing). Raises
    SQLAlchemyError when the database cannot answer."""
    current = today()
    if day > current:
        return None
    if day == current:
        seed = _seed_of(game, day)
    else:
        with session_scope() as session:
            row = stored_daily_deal(session=session, game_id=game.id, day=day)
            if row is None:
                return None
            seed = row.seed
    return DayDeal(game, day, commitment(seed), seed if day < current else None, commitment(practice_seed(seed)))


def _seed_of(game: GameInfo, day: date) -> str:
    with session_scope() as session:
        return daily_deal(session=session, game_id=game.id, day=day, new_seed=services().deals.hand_seed()).seed


def my_try(game: GameInfo, day: date, user_id: int | None, guest: str | None) -> DailyTry | None:
    """This account's try (or, signed out, this browser's practice) at the day's deal."""
    with session_scope() as session:
        row = daily_try_of(session=session, game_id=game.id, day=day, user_id=user_id, guest=guest)
        if row is not None:
            session.expunge(row)
        return row


def ranked_try_ended(game: GameInfo, day: date, user_id: int | None) -> bool:
    """Whether this account's ranked try of the day is over (finished, or ended with the day): a
    guest has none, so a practice finished opens nothing of the ranked deal."""
    if user_id is None:
        return False
    own = my_try(game, day, user_id, None)
    return own is not None and own.status != 'playing'


def try_by_id(try_id: int) -> DailyTry | None:
    with session_scope() as session:
        row = daily_try_by_id(session=session, try_id=try_id)
        if row is not None:
            session.expunge(row)
        return row


def daily_options(game: GameInfo, day: date, *, practice: bool = False) -> TableOptions:
    fmt = game.daily
    return TableOptions(seats=fmt.seats, level=fmt.level, speed=fmt.speed, hints=False, daily=day.isoformat(),
                        practice=practice)


def start_try(game: GameInfo, person: Seat) -> tuple[DailyTry, bool]:
    """Today's try of this person: an account's at the ranked deal, a guest browser's at the
    practice deal; the one already started, or a new one at a new table. Returns the try and
    whether it is new. Raises TableUnavailable when the database cannot store it."""
    day = today()
    guest = None if person.user_id is not None else person.guest
    existing = my_try(game, day, person.user_id, guest)
    if existing is not None:
        return existing, False
    try:
        seed = _seed_of(game, day)
        options = daily_options(game, day, practice=guest is not None)
        table = new_table(game, options, computer_seats(options, [person]),
                          seed=game_seed(practice_seed(seed) if options.practice else seed))
        attempt = DailyTry(game_id=game.id, day=day, user_id=person.user_id, guest=guest, table_id=table.id,
                           name=person.name, started_at=datetime.fromtimestamp(table.clock.wall(), UTC))
        with session_scope() as session:
            add_daily_try(session=session, attempt=attempt)
            session.expunge(attempt)
    except IntegrityError:   # another start of the same person got there first: theirs is the try
        existing = my_try(game, day, person.user_id, guest)
        if existing is None:
            raise TableUnavailable('the try vanished') from None
        return existing, False
    except SQLAlchemyError as error:
        logger.exception('could not start a daily %s try', game.id)
        raise TableUnavailable(str(error)) from error
    try:
        add_table(table)
    except TableUnavailable:   # no table, so no try: it can be started again
        with session_scope() as session:
            session.delete(session.get(DailyTry, attempt.id))
        raise
    metrics.DAILY_TRIES.labels(game.id, 'practice' if options.practice else 'ranked').inc()
    return attempt, True


def close_past_days() -> int:
    """End every try still being played whose day is over: scored as it stands, its table closed
    (its account's history records it as abandoned). Returns how many were ended."""
    with session_scope() as session:
        table_ids = [row.table_id for row in open_daily_tries(session=session, before=today())]
    for table_id in table_ids:
        table = open_table(table_id)
        if table is None:   # its table is gone (closed elsewhere, unreadable): nothing was scored
            with session_scope() as session:
                finish_daily_try(session=session, table_id=table_id, points=0, status='unfinished',
                                 at=datetime.fromtimestamp(services().clock.wall(), UTC))
        elif table.is_over():   # finished, but its end was not written (the database was down)
            end_daily_try(table, table.state.outcome().scores, 'finished')
        else:
            end_daily_try(table, tuple(table.view(table.person_seats()[0]).scores), 'unfinished')
            abandon(table)
    return len(table_ids)


def result_of(row: DailyTry) -> Result:
    seconds = None if row.finished_at is None or row.status != 'finished' else \
        (_aware(row.finished_at) - _aware(row.started_at)).total_seconds()
    return Result(key=row.id, name=row.name, points=row.points or 0, finished=row.status == 'finished',
                  seconds=seconds, user_id=row.user_id)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def field_of(game: GameInfo, first: date, last: date | None = None) -> dict[date, list[DailyTry]]:
    """The ranked tries (accounts only) that ended, per day, between two days."""
    with session_scope() as session:
        rows = daily_tries(session=session, game_id=game.id, first_day=first, last_day=last or first)
        for row in rows:
            session.expunge(row)
    days: dict[date, list[DailyTry]] = {}
    for row in rows:
        if row.status != 'playing':
            days.setdefault(row.day, []).append(row)
    return days


def days_played(user_id: int) -> list[date]:
    with session_scope() as session:
        return daily_days_of(session=session, user_id=user_id)
