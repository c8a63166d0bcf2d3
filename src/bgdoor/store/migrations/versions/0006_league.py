"""One league across boards: member BBSes, who is online, and notes with a turn.

Revision ID: 0006
Revises: 0005
Created: member BBSes, presence, notes
"""

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def when(name: str, nullable: bool = False) -> "sa.Column[datetime]":
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "bbses",
        sa.Column("tag", sa.String(8), nullable=False),
        sa.Column("suspended", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        when("first_seen"),
        when("last_seen"),
        sa.PrimaryKeyConstraint("tag", name=op.f("pk_bbses")),
    )
    op.create_table(
        "presence",
        sa.Column("key", sa.String(40), nullable=False),
        sa.Column("process", sa.String(80), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.String(8), nullable=False),
        sa.Column("activity", sa.String(16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        when("since"),
        when("seen"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_presence_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_presence")),
    )
    op.create_index(op.f("ix_presence_process"), "presence", ["process"])
    op.create_index(op.f("ix_presence_seen"), "presence", ["seen"])
    # Plain ALTER TABLE ADD COLUMN, not batch mode: on SQLite batch mode would copy the players
    # table and drop the old one, which foreign keys from games forbid once there are games.
    # '1' is true to SQLite and to PostgreSQL alike.
    op.add_column("events", sa.Column("note", sa.String(140), nullable=True))
    op.add_column("players", sa.Column("notes", sa.Boolean(), nullable=False, server_default="1"))


def downgrade() -> None:
    # Not batch mode: on SQLite that recreates the table, and dropping the old players table
    # fails while games refer to it (foreign keys are on).  SQLite 3.35+ drops a column itself.
    op.drop_column("players", "notes")
    op.drop_column("events", "note")
    op.drop_index(op.f("ix_presence_seen"), "presence")
    op.drop_index(op.f("ix_presence_process"), "presence")
    op.drop_table("presence")
    op.drop_table("bbses")
