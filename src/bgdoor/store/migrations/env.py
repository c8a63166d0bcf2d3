"""Alembic environment: bgdoor hands in the connection (with its transaction already begun)."""

from alembic import context

from bgdoor.store.models import Base

config = context.config
connection = config.attributes.get("connection")

if context.is_offline_mode():
    # `alembic upgrade --sql` for a sysop who wants the SQL: needs sqlalchemy.url set on the Config.
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
elif connection is None:
    raise RuntimeError("run migrations through bgdoor.store.db.migrate(), which supplies the connection")
else:
    # render_as_batch: future ALTERs on SQLite become copy-and-rename, inside the same transaction.
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
