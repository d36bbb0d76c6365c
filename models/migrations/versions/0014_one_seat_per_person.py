"""One seat per person at public tables (issue 51): an account, and a guest browser (its guest
token, on the claims made without an account), hold at most one claim (`seatclaim`), kept by
unique indexes, and each claim keeps the address it was made from, which bounds the waiting seats
one address holds. Claims of tables that have ended are dropped first (they are no one's seat any
more), then any second claim of one guest browser or account, the newest kept.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (sqlmodel's column types)
from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STRING = sqlmodel.sql.sqltypes.AutoString
OLDER = ('EXISTS (SELECT 1 FROM seatclaim AS newer WHERE newer.{key} = seatclaim.{key} AND '
         '(newer.created_at > seatclaim.created_at OR (newer.created_at = seatclaim.created_at AND '
         '(newer.table_id > seatclaim.table_id OR (newer.table_id = seatclaim.table_id AND newer.seat > seatclaim.seat)))))')


def upgrade() -> None:
    op.execute("DELETE FROM seatclaim WHERE table_id IN (SELECT table_id FROM publictable WHERE stage = 'over') "
               "OR table_id IN (SELECT id FROM gametable WHERE status != 'playing')")
    op.execute(f"DELETE FROM seatclaim WHERE guest IS NOT NULL AND user_id IS NULL AND "
               f"{OLDER.format(key='guest').replace('newer.guest = seatclaim.guest', 'newer.guest = seatclaim.guest AND newer.user_id IS NULL')}")
    op.execute(f'DELETE FROM seatclaim WHERE user_id IS NOT NULL AND {OLDER.format(key="user_id")}')
    op.drop_index('ix_seatclaim_guest', table_name='seatclaim')
    op.create_index('ix_seatclaim_guest', 'seatclaim', ['guest'], unique=True,
                    sqlite_where=sa.text('user_id IS NULL'), postgresql_where=sa.text('user_id IS NULL'))
    op.drop_index('ix_seatclaim_user_id', table_name='seatclaim')
    op.create_index('ix_seatclaim_user_id', 'seatclaim', ['user_id'], unique=True)
    op.add_column('seatclaim', sa.Column('address', STRING(length=64), nullable=True))
    op.create_index('ix_seatclaim_address', 'seatclaim', ['address'])


def downgrade() -> None:
    op.drop_index('ix_seatclaim_address', table_name='seatclaim')
    with op.batch_alter_table('seatclaim') as batch:
        batch.drop_column('address')
    for key in ('guest', 'user_id'):
        op.drop_index(f'ix_seatclaim_{key}', table_name='seatclaim')
        op.create_index(f'ix_seatclaim_{key}', 'seatclaim', [key])
