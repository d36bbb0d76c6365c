"""Recovery codes: each account's unused look-up secrets (NIST SP 800-63B), stored as keyed hashes,
one row per code, deleted when it is used. And a sign-in session's last use
(`signinsession.last_used_at`, kept to the hour), so that a session unused for 7 days ends; the
sessions already open count as used when they began.

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
    op.add_column('signinsession', sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True))
    sessions = sa.table('signinsession', sa.column('created_at'), sa.column('last_used_at'))
    op.execute(sessions.update().values(last_used_at=sessions.c.created_at))
    with op.batch_alter_table('signinsession') as batch:   # batch mode: SQLite rebuilds the table for NOT NULL
        batch.alter_column('last_used_at', existing_type=sa.DateTime(timezone=True), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('signinsession') as batch:
        batch.drop_column('last_used_at')
    op.drop_table('recoverycode')
