"""Database layer: engine and sessions (`models.db`), tables (`models.tables`, `models.fairplay`)."""
import models.fairplay  # noqa: F401  (registers its tables on SQLModel.metadata with the others)
from models.db import get_engine, init_db, session_scope

__all__ = ['get_engine', 'init_db', 'session_scope']
