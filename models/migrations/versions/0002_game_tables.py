"""Tables in progress saved in the database (`GameTable`), so that any server process can load
one and the version column lets only one of them write it at a time.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'gametable',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('options_json', sa.String(), nullable=False),
        sa.Column('seats_json', sa.String(), nullable=False),
        sa.Column('state_json', sa.String(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_gametable_game_id', 'gametable', ['game_id'])
    op.create_index('ix_gametable_status', 'gametable', ['status'])
    op.create_index('ix_gametable_updated_at', 'gametable', ['updated_at'])


def downgrade() -> None:
    op.drop_table('gametable')
