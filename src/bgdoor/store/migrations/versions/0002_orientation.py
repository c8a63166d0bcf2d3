"""Players choose how the board is turned: their own side (the default) or the seed's table view.

Revision ID: 0002
Revises: 0001
Created: orientation preference
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("orientation", sa.String(8), nullable=False, server_default="own"))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("orientation")
