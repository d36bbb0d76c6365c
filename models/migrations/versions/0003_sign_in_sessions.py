"""Sign-in sessions of our own (a hashed random token per signed-in browser, with its expiry) and
the browsers known to each account (OWASP's device cookie), so that sign-in no longer rides on
NiceGUI's storage cookie and an account under attack stays open to its owner's browsers.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'signinsession',
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('pending', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('token_hash'),
    )
    op.create_index('ix_signinsession_user_id', 'signinsession', ['user_id'])
    op.create_index('ix_signinsession_expires_at', 'signinsession', ['expires_at'])
    op.create_table(
        'knowndevice',
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('token_hash', 'user_id'),
    )
    op.create_index('ix_knowndevice_user_id', 'knowndevice', ['user_id'])


def downgrade() -> None:
    op.drop_table('knowndevice')
    op.drop_table('signinsession')
