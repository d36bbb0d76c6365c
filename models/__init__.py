"""Database layer: engine and sessions (`models.db`), tables (`models.tables`)."""
from models.db import get_engine, init_db, session_scope

__all__ = ['get_engine', 'init_db', 'session_scope']
