"""The tables of fair play (app.fairplay, app.playban): which browsers and addresses each account
was seen from, and the rated games each account left. Beside models.tables, which keeps every
other table; Alembic sees both (models/__init__ imports this module).

A sighting keeps no browser id, cookie or address itself: only a keyed hash of it (app.fairplay
says which key), enough to tell that two accounts met at one, not what it was.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, func
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Field, Session, SQLModel, col, select

from models.tables import PublicTable, RatingChange, SeatClaim, utcnow


class Sighting(SQLModel, table=True):
    """An account seen from one browser or address: ``kind`` 'device' (the sign-in device cookie),
    'browser' (NiceGUI's browser id) or 'address' (the client address, an IPv6 one by its /64),
    and when last, to the hour."""
    user_id: int = Field(primary_key=True, foreign_key='user.id', ondelete='CASCADE')
    kind: str = Field(primary_key=True, max_length=8)
    key_hash: str = Field(primary_key=True, max_length=64, index=True)
    last_seen_at: datetime = Field(default_factory=utcnow, index=True)


class RatedLeave(SQLModel, table=True):
    """A rated game an account left: ``aborted`` when it left before playing twice (the game was
    then unrated for everybody), else it left later and was not back by the end."""
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key='user.id', ondelete='CASCADE', index=True)
    table_id: str = Field(max_length=32)
    game_id: str = Field(max_length=32)
    aborted: bool = False
    at: datetime = Field(default_factory=utcnow, index=True)


# sightings

def see(*, session: Session, user_id: int, kind: str, key_hash: str, at: datetime) -> None:
    """Keep that the account was seen there at ``at`` (one upsert: the first sighting or a later one)."""
    insert = {'postgresql': postgresql.insert, 'sqlite': sqlite.insert}[session.get_bind().dialect.name]
    statement = insert(Sighting.__table__).values(user_id=user_id, kind=kind, key_hash=key_hash, last_seen_at=at)
    session.execute(statement.on_conflict_do_update(index_elements=['user_id', 'kind', 'key_hash'],
                                                    set_={'last_seen_at': at}))


def sharing(*, session: Session, user_ids: list[int], kinds: tuple[str, ...], since: datetime) -> set[tuple[int, int]]:
    """The pairs (lower id first) of these accounts both seen at one key of these kinds at
    ``since`` or later."""
    mine, theirs = Sighting.__table__.alias('mine'), Sighting.__table__.alias('theirs')
    rows = session.execute(
        select(mine.c.user_id, theirs.c.user_id).select_from(mine.join(theirs, and_(
            mine.c.kind == theirs.c.kind, mine.c.key_hash == theirs.c.key_hash, mine.c.user_id < theirs.c.user_id)))
        .where(mine.c.kind.in_(kinds), mine.c.user_id.in_(user_ids), theirs.c.user_id.in_(user_ids),
               mine.c.last_seen_at >= since, theirs.c.last_seen_at >= since).distinct())
    return {(first, second) for first, second in rows}


def partners(*, session: Session, user_id: int, kinds: tuple[str, ...], since: datetime) -> list[int]:
    """The other accounts seen at one key of these kinds with this account at ``since`` or later."""
    mine, theirs = Sighting.__table__.alias('mine'), Sighting.__table__.alias('theirs')
    return list(session.scalars(
        select(theirs.c.user_id).select_from(mine.join(theirs, and_(
            mine.c.kind == theirs.c.kind, mine.c.key_hash == theirs.c.key_hash, mine.c.user_id != theirs.c.user_id)))
        .where(mine.c.user_id == user_id, mine.c.kind.in_(kinds), mine.c.last_seen_at >= since,
               theirs.c.last_seen_at >= since).distinct()))


def waiting_tables_of(*, session: Session, game_id: str, user_ids: list[int]) -> list[str]:
    """The waiting public tables of this game at which one of these accounts has claimed a seat."""
    return list(session.exec(select(SeatClaim.table_id).join(PublicTable, col(PublicTable.table_id) == col(SeatClaim.table_id))
                             .where(PublicTable.game_id == game_id, PublicTable.stage == 'waiting',
                                    col(SeatClaim.user_id).in_(user_ids)).distinct()))


# rated games left (app.playban)

def add_leave(*, session: Session, leave: RatedLeave) -> None:
    """One leave per account and table: a table that saves and ends twice does not count it twice."""
    known = session.exec(select(RatedLeave.id).where(col(RatedLeave.user_id) == leave.user_id,
                                                     col(RatedLeave.table_id) == leave.table_id)).first()
    if known is None:
        session.add(leave)
        session.flush()


def leaves_of(*, session: Session, user_id: int, since: datetime) -> list[datetime]:
    """When the account left rated games at ``since`` or later, oldest first."""
    return list(session.exec(select(RatedLeave.at).where(col(RatedLeave.user_id) == user_id,
                                                         col(RatedLeave.at) >= since).order_by(col(RatedLeave.at))))


# what pairs of accounts moved between them (app.standings' daily cap)

def shared_changes(*, session: Session, user_ids: list[int], game_id: str, since: datetime) -> list[RatingChange]:
    """These accounts' rating changes at ``since`` or later in the game, at tables where at least
    two of them were rated together."""
    shared = (select(RatingChange.table_id).where(col(RatingChange.user_id).in_(user_ids),
                                                  col(RatingChange.game_id) == game_id, col(RatingChange.at) >= since)
              .group_by(col(RatingChange.table_id)).having(func.count() > 1))
    return list(session.exec(select(RatingChange).where(col(RatingChange.user_id).in_(user_ids),
                                                        col(RatingChange.table_id).in_(shared))
                             .order_by(col(RatingChange.id))))
