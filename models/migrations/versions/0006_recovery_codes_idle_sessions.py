"""Recovery codes: each account's unused look-up secrets (NIST SP 800-63B), stored as keyed hashes,
one row per code, deleted when it is used.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'recoverycode',
        sa.Column('code_hash', sa.String(length=64), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('code_hash'),
    )
    op.create_index('ix_recoverycode_user_id', 'recoverycode', ['user_id'])


def downgrade() -> None:
    op.drop_table('recoverycode')
