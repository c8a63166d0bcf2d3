"""Alembic migrations, shipped in the package and run by bgdoor itself on start (store.db.migrate)."""
