"""Public tables and ratings (issue 40): the lobby's listing of public tables (`publictable`), the
seats people take there from any process (`seatclaim`), each account's rating per game
(`playerrating`) and every rated game's change to it (`ratingchange`).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (sqlmodel's column types)
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STRING = sqlmodel.sql.sqltypes.AutoString
WHEN = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    op.create_table(
        'publictable',
        sa.Column('table_id', STRING(length=32), nullable=False),
        sa.Column('game_id', STRING(length=32), nullable=False),
        sa.Column('seats', sa.Integer(), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('quick', sa.Boolean(), nullable=False),
        sa.Column('stage', STRING(length=16), nullable=False),
        sa.Column('free_seats', sa.Integer(), nullable=False),
        sa.Column('people_json', STRING(), nullable=False),
        sa.Column('options_json', STRING(), nullable=False),
        sa.Column('spectators', sa.Integer(), nullable=False),
        sa.Column('fill_at', WHEN(), nullable=True),
        sa.Column('created_at', WHEN(), nullable=False),
        sa.Column('updated_at', WHEN(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['gametable.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id'),
    )
    op.create_index('ix_publictable_game_id', 'publictable', ['game_id'])
    op.create_index('ix_publictable_stage', 'publictable', ['stage'])
    op.create_index('ix_publictable_updated_at', 'publictable', ['updated_at'])
    op.create_table(
        'seatclaim',
        sa.Column('table_id', STRING(length=32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('guest', STRING(length=64), nullable=True),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('name', STRING(length=40), nullable=False),
        sa.Column('created_at', WHEN(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['gametable.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id', 'seat'),
    )
    op.create_index('ix_seatclaim_guest', 'seatclaim', ['guest'])
    op.create_index('ix_seatclaim_user_id', 'seatclaim', ['user_id'])
    op.create_table(
        'playerrating',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game_id', STRING(length=32), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('last_played_at', WHEN(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('user_id', 'game_id'),
    )
    op.create_index('ix_playerrating_last_played_at', 'playerrating', ['last_played_at'])
    op.create_table(
        'ratingchange',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game_id', STRING(length=32), nullable=False),
        sa.Column('table_id', STRING(length=32), nullable=False),
        sa.Column('before', sa.Integer(), nullable=False),
        sa.Column('after', sa.Integer(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('place', sa.Integer(), nullable=False),
        sa.Column('seats', sa.Integer(), nullable=False),
        sa.Column('at', WHEN(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_ratingchange_user_id', 'ratingchange', ['user_id'])
    op.create_index('ix_ratingchange_at', 'ratingchange', ['at'])


def downgrade() -> None:
    op.drop_table('ratingchange')
    op.drop_table('playerrating')
    op.drop_table('seatclaim')
    op.drop_table('publictable')
