"""Guest tables nobody played at can be deleted: a saved table says whether a person ever acted at
it (`gametable.person_acted`). Tables saved before this revision count as acted on, so none of
them is taken for a table nobody played at.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('gametable', sa.Column('person_acted', sa.Boolean(), nullable=False, server_default=sa.true()))
    # from now on a new row says it itself (the model's default is False)
    with op.batch_alter_table('gametable') as batch:
        batch.alter_column('person_acted', server_default=sa.false())


def downgrade() -> None:
    with op.batch_alter_table('gametable') as batch:
        batch.drop_column('person_acted')
