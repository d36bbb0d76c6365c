"""Alembic migrations of the database; `models.db.init_db` applies them at start."""
