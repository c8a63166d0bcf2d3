"""Persistence: SQLAlchemy models, the engine and its SQLite settings, Alembic migrations."""

from bgdoor.store.db import DEFAULT_URL, make_engine, migrate
from bgdoor.store.models import Base, Game, GameEvent, Player, RatingEntry

__all__ = ["DEFAULT_URL", "Base", "Game", "GameEvent", "Player", "RatingEntry", "make_engine", "migrate"]
