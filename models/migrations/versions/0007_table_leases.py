"""Table leases: which server process holds each table while several processes share one
PostgreSQL behind nginx (`python -m app.cluster`), with the epoch that fences their saves. A single
`python main.py` (SQLite or PostgreSQL) never writes this table.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'tablelease',
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('owner', sa.String(length=64), nullable=False),
        sa.Column('address', sa.String(length=255), nullable=False),
        sa.Column('epoch', sa.Integer(), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('table_id'),
    )
    op.create_index('ix_tablelease_owner', 'tablelease', ['owner'])


def downgrade() -> None:
    op.drop_table('tablelease')
