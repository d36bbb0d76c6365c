"""Moderation (issue 52): an account's role (`user.role`: 'moderator'), whether it must choose a
new display name at its next sign-in (`user.must_rename`: a moderator replaced an offensive one),
and the audit of what moderators did and undid (`moderation`).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-08
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (sqlmodel's column types)
from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STRING = sqlmodel.sql.sqltypes.AutoString
WHEN = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    op.add_column('user', sa.Column('role', STRING(length=16), nullable=True))
    op.add_column('user', sa.Column('must_rename', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        'moderation',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('at', WHEN(), nullable=False),
        sa.Column('moderator_id', sa.Integer(), nullable=True),
        sa.Column('action', STRING(length=24), nullable=False),
        sa.Column('target_id', sa.Integer(), nullable=False),
        sa.Column('reason', STRING(length=300), nullable=False),
        sa.Column('detail', STRING(length=40), nullable=False, server_default=''),
        sa.Column('undone_at', WHEN(), nullable=True),
        sa.Column('undone_by', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['moderator_id'], ['user.id'], ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['target_id'], ['user.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['undone_by'], ['user.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_moderation_at', 'moderation', ['at'])
    op.create_index('ix_moderation_target_id', 'moderation', ['target_id'])


def downgrade() -> None:
    op.drop_table('moderation')
    with op.batch_alter_table('user') as batch:   # SQLite rebuilds the table to drop a column
        batch.drop_column('must_rename')
        batch.drop_column('role')
