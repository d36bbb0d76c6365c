"""Deal counts: how many tables a browser or an address dealt in its current window
(`dealcount`, app.limits), counted in the database that every process shares, so that the deal
limits hold when several processes serve one site (counted per process before, one address
alternating two processes dealt twice the limit).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'dealcount',
        sa.Column('key', sa.String(length=160), nullable=False),
        sa.Column('window', sa.String(length=16), nullable=False),
        sa.Column('ends', sa.Float(), nullable=False),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('key', 'window'),
    )
    op.create_index('ix_dealcount_ends', 'dealcount', ['ends'])


def downgrade() -> None:
    op.drop_index('ix_dealcount_ends', table_name='dealcount')
    op.drop_table('dealcount')
