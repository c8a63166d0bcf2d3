"""The database tables, as SQLAlchemy typed declarative models.

The schema itself is created and changed only by the Alembic migrations in
store/migrations; a test checks that these models and the migrations agree.
The events table is the record of every match; the games row caches what
the service asks often (whose turn, score, a snapshot of the state) so that
no request has to replay a whole match.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, MetaData, String, UniqueConstraint, false
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from bgdoor.rules.rating import START_RATING

# Named constraints, so later migrations can alter them on SQLite too (batch mode recreates tables by name).
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite keeps no zone, so it stores naive UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSON()}


ORIGINS = ("telnet", "door", "bbs")


class Player(Base):
    """A player: found by an identity that loses nothing, shown under a handle derived from it.

    The identity is (origin, bbs_tag, login_name): a telnet player's handle as registered
    (computer players are telnet players without a password); a door caller's alias exactly as
    the local BBS's drop file has it; a remote BBS's tag and its caller's alias.  The handle is
    what every screen shows: unique without regard to case (handle_key) and by look
    (handle_skeleton, see store.handles).
    """

    __tablename__ = "players"
    __table_args__ = (
        Index("ix_players_identity", "origin", "bbs_tag", "login_name", unique=True),
        Index("ix_players_handle_skeleton", "handle_skeleton", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    origin: Mapped[str] = mapped_column(String(8), server_default="telnet")  # one of ORIGINS
    bbs_tag: Mapped[str] = mapped_column(String(32), default="", server_default="")  # '' unless origin is 'bbs'
    login_name: Mapped[str] = mapped_column(String(255), server_default="")
    handle: Mapped[str] = mapped_column(String(16))
    # casefold()ed handle: uniqueness without regard to case, enforced by the database.
    handle_key: Mapped[str] = mapped_column(String(64), unique=True)
    handle_skeleton: Mapped[str] = mapped_column(String(64), server_default="")
    # A door player carried over from before identities were exact, not entered since: its
    # login_name is the handle the door cut or cleaned the alias to (see Service._enter).
    legacy_login: Mapped[bool] = mapped_column(default=False, server_default=false())
    password_hash: Mapped[str | None] = mapped_column(String(255))  # None: a door-only player or a bot
    is_bot: Mapped[bool] = mapped_column(default=False)
    rating: Mapped[float] = mapped_column(default=START_RATING)
    experience: Mapped[int] = mapped_column(default=0)  # sum of the lengths of rated matches
    # Counters kept as matches end, so rankings need no scan of the events.
    wins: Mapped[int] = mapped_column(default=0)
    losses: Mapped[int] = mapped_column(default=0)
    gammons: Mapped[int] = mapped_column(default=0)  # games won by gammon or backgammon
    backgammons: Mapped[int] = mapped_column(default=0)
    sound: Mapped[bool] = mapped_column(default=True)
    theme: Mapped[str] = mapped_column(String(32), default="classic")
    charset: Mapped[str | None] = mapped_column(String(16))
    # "own": home board bottom right for both colours; "table": Black sees the seed's table, home bottom left.
    orientation: Mapped[str] = mapped_column(String(8), default="own", server_default="own")
    notes: Mapped[bool] = mapped_column(default=True, server_default="1")  # notes from opponents shown
    created: Mapped[datetime]
    last_seen: Mapped[datetime | None]
    last_played: Mapped[datetime | None]


class Game(Base):
    """A match: two seats, either of which may be open until someone joins."""

    __tablename__ = "games"
    # AUTOINCREMENT: a deleted game's number is never given to another (SQLite would reuse the top one).
    __table_args__ = (Index("ix_games_status_updated", "status", "updated"), {"sqlite_autoincrement": True})

    id: Mapped[int] = mapped_column(primary_key=True)
    status: Mapped[str] = mapped_column(String(16))  # open, active, finished, abandoned
    length: Mapped[int]
    creator_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    white_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    black_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    # Whose move: the one player who must act now (None in the opening roll, when either may).
    to_act_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    phase: Mapped[str] = mapped_column(String(16))
    game_no: Mapped[int] = mapped_column(default=1)  # the game within the match
    score_white: Mapped[int] = mapped_column(default=0)
    score_black: Mapped[int] = mapped_column(default=0)
    cube: Mapped[int] = mapped_column(default=1)
    cube_owner: Mapped[str | None] = mapped_column(String(8))
    crawford: Mapped[bool] = mapped_column(default=False)  # this game is the Crawford game
    crawford_done: Mapped[bool] = mapped_column(default=False)
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    # Optimistic concurrency: every change is UPDATE ... WHERE version = the version read.
    version: Mapped[int] = mapped_column(default=1)
    event_count: Mapped[int] = mapped_column(default=0)  # the next event's seq
    # A cache of replay(events); a test checks that it always agrees.
    state: Mapped[dict[str, Any]]
    # For View Last Moves: each side's last play, {"seq": n, "before": state before it}.
    last_play_white: Mapped[dict[str, Any] | None]
    last_play_black: Mapped[dict[str, Any] | None]
    created: Mapped[datetime]
    updated: Mapped[datetime]


class GameEvent(Base):
    """The append-only record of a match: apply() of these, in seq order, is the match."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int]
    type: Mapped[str] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]]  # Event.to_dict()
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))  # who acted; None for the system
    color: Mapped[str | None] = mapped_column(String(8))  # the acting side (the winner for win/match_won)
    note: Mapped[str | None] = mapped_column(String(140))  # the mover's note to the opponent, with a turn
    created: Mapped[datetime]


class RatingEntry(Base):
    """One player's rating after one rated match."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    won: Mapped[bool]
    rating_before: Mapped[float]
    rating: Mapped[float]
    experience: Mapped[int]
    created: Mapped[datetime]


class ReadMark(Base):
    """How far a player has read a game's record: the events before `seq` are no longer news.

    -1: the creator of an open seat has not yet seen that somebody joined.

    The draft: a turn the player left half played (the moves, "13/10 10/9", for the game at
    `draft_version` only), and a note written and not yet sent.
    """

    __tablename__ = "read_marks"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True, index=True)
    seq: Mapped[int]
    draft_version: Mapped[int | None]
    draft_moves: Mapped[str] = mapped_column(String(64), default="", server_default="")
    draft_note: Mapped[str | None] = mapped_column(String(140))


class Notice(Base):
    """What became of a game of the player's that left no record to read: withdrawn by the other
    player before its first roll, or removed by the sysop; or that the sysop renamed the player
    (game 0, `other` the handle before), or the player's opponent in game `game_id` (`other` the
    name before, `now` the name after).  Told once, on the player's menu.  Or `handle`: a first
    visit's note of why a BBS caller's handle is not their alias, said again until they reach the
    menu (`now` the handle made; `other` and `game_id` the handle and id of the player whose name
    it would have been, "" and 0 for none)."""

    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # withdrawn, removed, renamed, opponent_renamed, handle
    game_id: Mapped[int]  # the game may be gone: no foreign key
    length: Mapped[int]
    other: Mapped[str] = mapped_column(String(40), default="")  # the other player's handle, "" for none
    # opponent_renamed: the opponent's new name
    now: Mapped[str] = mapped_column(String(40), default="", server_default="")
    created: Mapped[datetime]


class MemberBBS(Base):
    """A board whose callers come over RLogin; door.cfg names it, this row keeps its state."""

    __tablename__ = "bbses"

    tag: Mapped[str] = mapped_column(String(8), primary_key=True)
    suspended: Mapped[bool] = mapped_column(default=False)
    reason: Mapped[str] = mapped_column(String(200), default="")
    first_seen: Mapped[datetime]
    last_seen: Mapped[datetime]


class Presence(Base):
    """A caller connected now, in any process; a row not refreshed within the TTL is gone."""

    __tablename__ = "presence"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    process: Mapped[str] = mapped_column(String(80), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    board: Mapped[str] = mapped_column(String(8), default="")  # the member BBS's tag, "" for this system
    activity: Mapped[str] = mapped_column(String(16))  # menu, playing, waiting, watching, looking
    game_id: Mapped[int | None]
    since: Mapped[datetime]
    seen: Mapped[datetime] = mapped_column(index=True)


# The tables themselves, for Core statements on the hot path (metadata's view of them is typed Table).
GAMES = Base.metadata.tables[Game.__tablename__]
EVENTS = Base.metadata.tables[GameEvent.__tablename__]
