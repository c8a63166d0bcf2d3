"""Players, games, the event record and rating history.

Revision ID: 0001
Revises:
Created: first schema
"""

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def when(name: str, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("handle", sa.String(16), nullable=False),
        sa.Column("handle_key", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("gammons", sa.Integer(), nullable=False),
        sa.Column("backgammons", sa.Integer(), nullable=False),
        sa.Column("sound", sa.Boolean(), nullable=False),
        sa.Column("theme", sa.String(32), nullable=False),
        sa.Column("charset", sa.String(16), nullable=True),
        when("created"),
        when("last_seen", nullable=True),
        when("last_played", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("handle_key", name=op.f("uq_players_handle_key")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=False),
        sa.Column("white_id", sa.Integer(), nullable=True),
        sa.Column("black_id", sa.Integer(), nullable=True),
        sa.Column("to_act_id", sa.Integer(), nullable=True),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("score_white", sa.Integer(), nullable=False),
        sa.Column("score_black", sa.Integer(), nullable=False),
        sa.Column("cube", sa.Integer(), nullable=False),
        sa.Column("cube_owner", sa.String(8), nullable=True),
        sa.Column("crawford", sa.Boolean(), nullable=False),
        sa.Column("crawford_done", sa.Boolean(), nullable=False),
        sa.Column("winner_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("event_count", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("last_play_white", sa.JSON(), nullable=True),
        sa.Column("last_play_black", sa.JSON(), nullable=True),
        when("created"),
        when("updated"),
        sa.ForeignKeyConstraint(["creator_id"], ["players.id"], name=op.f("fk_games_creator_id_players")),
        sa.ForeignKeyConstraint(["white_id"], ["players.id"], name=op.f("fk_games_white_id_players")),
        sa.ForeignKeyConstraint(["black_id"], ["players.id"], name=op.f("fk_games_black_id_players")),
        sa.ForeignKeyConstraint(["to_act_id"], ["players.id"], name=op.f("fk_games_to_act_id_players")),
        sa.ForeignKeyConstraint(["winner_id"], ["players.id"], name=op.f("fk_games_winner_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_white_id"), "games", ["white_id"])
    op.create_index(op.f("ix_games_black_id"), "games", ["black_id"])
    op.create_index(op.f("ix_games_to_act_id"), "games", ["to_act_id"])
    op.create_index("ix_games_status_updated", "games", ["status", "updated"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(20), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("color", sa.String(8), nullable=True),
        when("created"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_events_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_events_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        # Also what keeps two writers from appending the same seq.
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_events_game_id_seq")),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("rating_before", sa.Double(), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        when("created"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_rating_history_player_id_players")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_rating_history_game_id_games")),
        sa.ForeignKeyConstraint(["opponent_id"], ["players.id"], name=op.f("fk_rating_history_opponent_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
    )
    op.create_index(op.f("ix_rating_history_player_id"), "rating_history", ["player_id"])


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("events")
    op.drop_index("ix_games_status_updated", table_name="games")
    op.drop_index(op.f("ix_games_to_act_id"), table_name="games")
    op.drop_index(op.f("ix_games_black_id"), table_name="games")
    op.drop_index(op.f("ix_games_white_id"), table_name="games")
    op.drop_table("games")
    op.drop_table("players")
