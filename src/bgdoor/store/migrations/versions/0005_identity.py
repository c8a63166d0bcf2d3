"""Identity apart from display: origin, BBS tag and login name; handles unique by look.

Every player is carried over unchanged: a player with a password or a computer player is a
telnet player, any other a door player; the login name is the handle.  A door player's
handle may be what the door cut or cleaned the alias to, so it is marked legacy_login: the
first caller whose exact alias the old door would have made into that handle takes it over.  Players whose handles
already look alike (registered before the rule) keep them; the later one's skeleton gets its
id appended, so the pair stays apart and no new look-alike of either can register.

Revision ID: 0005
Revises: 0004
Created: identity and look-alike handles
"""

import sqlalchemy as sa
from alembic import op

from bgdoor.store.handles import skeleton

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

DELETED_KEY = "\x01deleted:"  # a deleted player's handle_key (service.sysop)


def upgrade() -> None:
    # Plain ADD COLUMNs (each needs a default for the rows already there), filled in below.
    op.add_column("players", sa.Column("origin", sa.String(8), nullable=False, server_default="telnet"))
    op.add_column("players", sa.Column("bbs_tag", sa.String(32), nullable=False, server_default=""))
    op.add_column("players", sa.Column("login_name", sa.String(255), nullable=False, server_default=""))
    op.add_column("players", sa.Column("handle_skeleton", sa.String(64), nullable=False, server_default=""))
    op.add_column("players", sa.Column("legacy_login", sa.Boolean(), nullable=False, server_default=sa.false()))
    conn = op.get_bind()
    players = sa.table(
        "players",
        sa.column("id", sa.Integer()),
        sa.column("handle", sa.String()),
        sa.column("handle_key", sa.String()),
        sa.column("password_hash", sa.String()),
        sa.column("is_bot", sa.Boolean()),
        sa.column("origin", sa.String()),
        sa.column("login_name", sa.String()),
        sa.column("handle_skeleton", sa.String()),
        sa.column("legacy_login", sa.Boolean()),
    )
    rows = conn.execute(
        sa.select(
            players.c.id, players.c.handle, players.c.handle_key, players.c.password_hash, players.c.is_bot
        ).order_by(players.c.id)
    ).all()
    seen: set[str] = set()
    for pid, handle, hkey, password_hash, is_bot in rows:
        if hkey.startswith(DELETED_KEY):
            # A tombstone: no identity anyone can enter as, nothing to look like.
            origin, login, skel = "telnet", hkey, hkey
        else:
            origin = "telnet" if password_hash is not None or is_bot else "door"
            login, skel = handle, skeleton(handle)[:64]
            if skel in seen:
                skel = f"{skel[:50]}\x01{pid}"
        seen.add(skel)
        values = {"origin": origin, "login_name": login, "handle_skeleton": skel, "legacy_login": origin == "door"}
        conn.execute(sa.update(players).where(players.c.id == pid).values(**values))
    # Unique indexes, not constraints: on SQLite a constraint would mean making the players table
    # again, which the games' foreign keys to it forbid inside the migration's transaction.
    op.create_index("ix_players_handle_skeleton", "players", ["handle_skeleton"], unique=True)
    op.create_index("ix_players_identity", "players", ["origin", "bbs_tag", "login_name"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_players_identity", table_name="players")
    op.drop_index("ix_players_handle_skeleton", table_name="players")
    for name in ("legacy_login", "handle_skeleton", "login_name", "bbs_tag", "origin"):
        op.drop_column("players", name)
