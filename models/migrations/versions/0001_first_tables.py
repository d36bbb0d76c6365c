"""The tables of the release before migrations (accounts, played games, login throttling),
exactly as its `SQLModel.metadata.create_all` made them. A database made by that release is
stamped with this revision instead of running it.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'loginthrottle',
        sa.Column('username_key', sa.String(length=128), nullable=False),
        sa.Column('failures', sa.Integer(), nullable=False),
        sa.Column('last_failure_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('username_key'),
    )
    op.create_table(
        'user',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('username', sa.String(length=20), nullable=False),
        sa.Column('username_key', sa.String(length=20), nullable=False),
        sa.Column('display_name', sa.String(length=40), nullable=False),
        sa.Column('password_hash', sa.String(length=255), nullable=False),
        sa.Column('language', sa.String(length=5), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_user_username_key', 'user', ['username_key'], unique=True)
    op.create_table(
        'playedgame',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('options_json', sa.String(), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('hands_played', sa.Integer(), nullable=False),
        sa.Column('computer_level', sa.String(length=32), nullable=False),
        sa.Column('score', sa.Integer(), nullable=False),
        sa.Column('placement', sa.Integer(), nullable=False),
        sa.Column('won', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_playedgame_ended_at', 'playedgame', ['ended_at'])
    op.create_index('ix_playedgame_game_id', 'playedgame', ['game_id'])
    op.create_index('ix_playedgame_user_id', 'playedgame', ['user_id'])
    op.create_table(
        'gamedeal',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('played_game_id', sa.Integer(), nullable=False),
        sa.Column('hand', sa.Integer(), nullable=False),
        sa.Column('commitment', sa.String(length=128), nullable=False),
        sa.Column('seed', sa.String(length=128), nullable=False),
        sa.ForeignKeyConstraint(['played_game_id'], ['playedgame.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_gamedeal_played_game_id', 'gamedeal', ['played_game_id'])
    op.create_table(
        'gameseat',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('played_game_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('name_or_level', sa.String(length=40), nullable=False),
        sa.Column('is_human', sa.Boolean(), nullable=False),
        sa.Column('final_score', sa.Integer(), nullable=False),
        sa.Column('placement', sa.Integer(), nullable=False),
        sa.Column('is_winner', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['played_game_id'], ['playedgame.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_gameseat_played_game_id', 'gameseat', ['played_game_id'])


def downgrade() -> None:
    for table in ('gameseat', 'gamedeal', 'playedgame', 'user', 'loginthrottle'):
        op.drop_table(table)  # its indexes go with it
