"""Alembic's environment, run by `models.db.init_db` (on the connection it hands over) and by
`python -m models.migrations` (on a URL). There is no alembic.ini: see `models.db.alembic_config`."""
from alembic import context
from sqlmodel import SQLModel

import models.tables  # noqa: F401  (registers every table on SQLModel.metadata, for autogenerate)
from models.db import make_engine


def run_migrations(connection) -> None:
    context.configure(connection=connection, target_metadata=SQLModel.metadata,
                      render_as_batch=connection.dialect.name == 'sqlite')  # SQLite alters by rebuilding
    with context.begin_transaction():
        context.run_migrations()


given = context.config.attributes.get('connection')
if given is not None:
    run_migrations(given)
else:
    engine = make_engine(context.config.get_main_option('sqlalchemy.url'))
    try:
        with engine.connect() as connection:
            run_migrations(connection)
    finally:
        engine.dispose()
