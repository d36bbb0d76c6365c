"""Fair play (issue 51): the browsers and addresses each account was seen from (`sighting`, kept
as keyed hashes), the rated games each account left (`ratedleave`, what a wait before quick
match is worked out from), and a moderator's mark on a rating change (`ratingchange.marks`).

Revision ID: 0015
Revises: 0013
Create Date: 2026-12-07
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (sqlmodel's column types)
from alembic import op

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STRING = sqlmodel.sql.sqltypes.AutoString
WHEN = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    op.create_table(
        'sighting',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('kind', STRING(length=8), nullable=False),
        sa.Column('key_hash', STRING(length=64), nullable=False),
        sa.Column('last_seen_at', WHEN(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('user_id', 'kind', 'key_hash'),
    )
    op.create_index('ix_sighting_key_hash', 'sighting', ['key_hash'])
    op.create_index('ix_sighting_last_seen_at', 'sighting', ['last_seen_at'])
    op.create_table(
        'ratedleave',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('table_id', STRING(length=32), nullable=False),
        sa.Column('game_id', STRING(length=32), nullable=False),
        sa.Column('aborted', sa.Boolean(), nullable=False),
        sa.Column('at', WHEN(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_ratedleave_user_id', 'ratedleave', ['user_id'])
    op.create_index('ix_ratedleave_at', 'ratedleave', ['at'])
    op.add_column('ratingchange', sa.Column('marks', STRING(length=32), nullable=False, server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('ratingchange') as batch:   # SQLite rebuilds the table to drop a column
        batch.drop_column('marks')
    op.drop_table('ratedleave')
    op.drop_table('sighting')
