"""History details and abandoned games: each recorded hand keeps the points every seat scored
(`gamedeal.points_json`), a seat keeps its name at the table, computers' too (`gameseat.name`),
a record says whether its game was abandoned (`playedgame.abandoned`),
and a saved table names its account (`gametable.user_id`, filled in here from its seats) so that
starting another game of the same kind finds the one left unfinished.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('playedgame', sa.Column('abandoned', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column('gamedeal', sa.Column('points_json', sa.String(), nullable=True))
    op.add_column('gameseat', sa.Column('name', sa.String(length=40), nullable=True))
    op.add_column('gametable', sa.Column('user_id', sa.Integer(), nullable=True))
    op.create_index('ix_gametable_user_id', 'gametable', ['user_id'])
    tables = sa.table('gametable', sa.column('id', sa.String()), sa.column('seats_json', sa.String()),
                      sa.column('status', sa.String()), sa.column('user_id', sa.Integer()))
    connection = op.get_bind()
    rows = connection.execute(sa.select(tables.c.id, tables.c.seats_json).where(tables.c.status == 'playing'))
    for table_id, seats_json in rows.fetchall():
        account = _account_of(seats_json)
        if account is not None:
            connection.execute(sa.update(tables).where(tables.c.id == table_id).values(user_id=account))


def _account_of(seats_json: str) -> int | None:
    try:
        seats = json.loads(seats_json)
    except ValueError:
        return None
    accounts = [seat.get('user_id') for seat in seats if isinstance(seat, dict) and seat.get('kind') == 'person']
    return next((account for account in accounts if isinstance(account, int)), None)


def downgrade() -> None:
    # batch mode: SQLite rebuilds the table to drop a column
    with op.batch_alter_table('gametable') as batch:
        batch.drop_index('ix_gametable_user_id')
        batch.drop_column('user_id')
    with op.batch_alter_table('gamedeal') as batch:
        batch.drop_column('points_json')
    with op.batch_alter_table('gameseat') as batch:
        batch.drop_column('name')
    with op.batch_alter_table('playedgame') as batch:
        batch.drop_column('abandoned')
