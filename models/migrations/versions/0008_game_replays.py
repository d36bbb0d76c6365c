"""Replays of recorded games: the first dealer and every action of each deal
(`gamereplay`), so that a finished hand of an account's history replays exactly. Games recorded
before this revision have none: their hands show their seeds and points only.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'gamereplay',
        sa.Column('played_game_id', sa.Integer(), nullable=False),
        sa.Column('first_dealer', sa.Integer(), nullable=False),
        sa.Column('moves_json', sa.String(), nullable=False),
        sa.ForeignKeyConstraint(['played_game_id'], ['playedgame.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('played_game_id'),
    )


def downgrade() -> None:
    op.drop_table('gamereplay')
