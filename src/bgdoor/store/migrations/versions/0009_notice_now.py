"""Notices name an opponent's new name: a player renamed by the sysop mid-game had been shown to
the opponent under the new name without a word.

Revision ID: 0009
Revises: 0008
Created: notice_now
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("notices") as batch:
        batch.add_column(sa.Column("now", sa.String(40), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("notices") as batch:
        batch.drop_column("now")
