"""The daily deal (app.daily): each game's deal of the day with its seed (`dailydeal`), and each
person's one try at it (`dailytry`), unique per account, or per guest browser, game and day.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (sqlmodel's column types)
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'dailydeal',
        sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('day', sa.Date(), nullable=False),
        sa.Column('seed', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('game_id', 'day'),
    )
    op.create_table(
        'dailytry',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('day', sa.Date(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('guest', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column('table_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column('started_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('finished_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('points', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'day', 'guest', name='uq_dailytry_guest'),
        sa.UniqueConstraint('game_id', 'day', 'user_id', name='uq_dailytry_account'),
    )
    op.create_index('ix_dailytry_day', 'dailytry', ['day'])
    op.create_index('ix_dailytry_table_id', 'dailytry', ['table_id'])
    op.create_index('ix_dailytry_user_id', 'dailytry', ['user_id'])


def downgrade() -> None:
    op.drop_table('dailytry')
    op.drop_table('dailydeal')
