"""Table steps: what a table appends to its move log between two whole writes (`tablestep`,
app.tables.saving), instead of rewriting its whole state at every step. A table saved before this
revision is a whole write with nothing appended since: it loads and plays on as it was, and its
next steps are appended to it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'tablestep',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('steps_json', sa.String(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['gametable.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_tablestep_table_id', 'tablestep', ['table_id'])


def downgrade() -> None:
    # the steps are only rebuilt into a whole state by playing them (the engines): going down with
    # some stored would lose the moves of tables in play
    if op.get_bind().execute(sa.text('SELECT count(*) FROM tablestep')).scalar():
        raise RuntimeError('tables have appended steps: play them to a whole write before going below 0010')
    op.drop_table('tablestep')
