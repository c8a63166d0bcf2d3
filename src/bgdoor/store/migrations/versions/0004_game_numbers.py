"""Game numbers are never handed out twice: SQLite's games table gets AUTOINCREMENT.

Without it SQLite gives a new row the highest id plus one, so deleting the newest game (`bgdoor
sysop delete-game`) let the next game take its number, and a player's notes or a bulletin would
then point at the wrong match.  PostgreSQL's sequences never go back, so only SQLite changes.

Revision ID: 0004
Revises: 0003
Created: game numbers
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _rebuild(autoincrement: bool) -> None:
    """The games table made again, its rows and indexes kept.

    Foreign keys stay on (a transaction cannot turn them off), so the rows pointing at games are
    checked at commit: the old table is dropped first and its rows put back into the new one
    after, which is what lets that check pass.  (A copy-and-rename would leave it failing.)
    """
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    meta = sa.MetaData()
    meta.reflect(bind, only=["games", "players"])
    games = meta.tables["games"]
    games.dialect_kwargs["sqlite_autoincrement"] = autoincrement
    names = ", ".join(f'"{c.name}"' for c in games.columns)
    op.execute("PRAGMA defer_foreign_keys = ON")
    op.execute("CREATE TEMP TABLE _games_rows AS SELECT * FROM games")
    op.execute("DROP TABLE games")
    games.create(bind)  # with its indexes
    op.execute(f"INSERT INTO games ({names}) SELECT {names} FROM _games_rows")
    op.execute("DROP TABLE _games_rows")


def upgrade() -> None:
    _rebuild(True)


def downgrade() -> None:
    _rebuild(False)
