"""Draft the next revision from the difference between the models and the database at
DATABASE_URL (migrated to head first): `python -m models.migrations "what changed"`.
Read the draft in models/migrations/versions/ before committing it."""
import sys

from alembic import command

from app import config
from models.db import alembic_config, head_revisions, init_db

if len(sys.argv) != 2:
    sys.exit(__doc__)
init_db()
next_id = f'{max(int(revision) for revision in head_revisions()) + 1:04d}'  # 0001, 0002, ... in order
command.revision(alembic_config(url=config.database_url()), message=sys.argv[1], autogenerate=True,
                 rev_id=next_id)
