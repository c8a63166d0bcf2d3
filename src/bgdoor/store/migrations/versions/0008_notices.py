"""Notices: what became of a game that left no record to read (withdrawn, removed), told once.

Revision ID: 0008
Revises: 0007
Created: notices
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("other", sa.String(40), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_notices_player_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_notices"),
    )
    op.create_index("ix_notices_player_id", "notices", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_notices_player_id", table_name="notices")
    op.drop_table("notices")
