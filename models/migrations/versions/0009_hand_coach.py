"""The coach's judgement of each analysed hand of a recorded game (`handcoach`): its decisions,
those labelled, the points they lost and every judgement as JSON, so that a review shows it again
at once and the history plots accuracy.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'handcoach',
        sa.Column('played_game_id', sa.Integer(), nullable=False),
        sa.Column('hand', sa.Integer(), nullable=False),
        sa.Column('decisions', sa.Integer(), nullable=False),
        sa.Column('labelled', sa.Integer(), nullable=False),
        sa.Column('points_lost', sa.Float(), nullable=False),
        sa.Column('judgements_json', sa.String(), nullable=False),
        sa.ForeignKeyConstraint(['played_game_id'], ['playedgame.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('played_game_id', 'hand'),
    )


def downgrade() -> None:
    op.drop_table('handcoach')
