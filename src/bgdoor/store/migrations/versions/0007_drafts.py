"""A turn half played is kept: the moves made so far, and a note not yet sent, per player and game.

Revision ID: 0007
Revises: 0006
Created: drafts
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("read_marks") as batch:
        batch.add_column(sa.Column("draft_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("draft_moves", sa.String(64), nullable=False, server_default=""))
        batch.add_column(sa.Column("draft_note", sa.String(140), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("read_marks") as batch:
        batch.drop_column("draft_note")
        batch.drop_column("draft_moves")
        batch.drop_column("draft_version")
