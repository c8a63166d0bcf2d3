"""News: how far each player has read each game's record; finished matches keep their final board.

Revision ID: 0003
Revises: 0002
Created: read marks
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

from bgdoor.rules import game as rules
from bgdoor.store.snapshot import state_to_dict

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "read_marks",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_read_marks_player_id_players"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_read_marks_game_id_games"),
        sa.PrimaryKeyConstraint("player_id", "game_id", name="pk_read_marks"),
    )
    op.create_index("ix_read_marks_game_id", "read_marks", ["game_id"])
    conn = op.get_bind()
    games = sa.table(
        "games",
        sa.column("id", sa.Integer()),
        sa.column("white_id", sa.Integer()),
        sa.column("black_id", sa.Integer()),
        sa.column("event_count", sa.Integer()),
        sa.column("length", sa.Integer()),
        sa.column("phase", sa.String()),
        sa.column("state", sa.JSON()),
    )
    marks = sa.table(
        "read_marks",
        sa.column("player_id", sa.Integer()),
        sa.column("game_id", sa.Integer()),
        sa.column("seq", sa.Integer()),
    )
    # What happened before this upgrade is not news.
    rows: list[dict[str, Any]] = []
    for gid, white, black, count in conn.execute(
        sa.select(games.c.id, games.c.white_id, games.c.black_id, games.c.event_count)
    ):
        rows += [{"player_id": pid, "game_id": gid, "seq": count} for pid in {white, black} if pid is not None]
    if rows:
        conn.execute(sa.insert(marks), rows)
    _repair_final_boards(conn, games)


def _repair_final_boards(conn: sa.Connection, games: sa.TableClause) -> None:
    """A match won by bearing off kept the board from before the winning play: replay its record."""
    events = sa.table(
        "events", sa.column("game_id", sa.Integer()), sa.column("seq", sa.Integer()), sa.column("payload", sa.JSON())
    )
    over = conn.execute(sa.select(games.c.id, games.c.length).where(games.c.phase == "over")).all()
    for gid, length in over:
        payloads = conn.execute(
            sa.select(events.c.payload).where(events.c.game_id == gid).order_by(events.c.seq)
        ).scalars()
        try:
            state = rules.replay(length, [rules.event_from_dict(p) for p in payloads])
        except (rules.RuleError, KeyError, TypeError, ValueError):
            continue  # a record this version cannot replay keeps its snapshot
        conn.execute(sa.update(games).where(games.c.id == gid).values(state=state_to_dict(state)))


def downgrade() -> None:
    op.drop_index("ix_read_marks_game_id", table_name="read_marks")
    op.drop_table("read_marks")
