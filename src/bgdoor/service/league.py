"""The league across boards: member BBSes, who is online in any process, notes with a turn.

Presence: each process writes a row per connected caller and refreshes all of its rows
in one statement every few seconds; a row not refreshed within the TTL (a process killed
with SIGKILL, a machine switched off) no longer counts, and is removed by the next refresh
of any process.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TypeVar

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from bgdoor.rules import game as rules
from bgdoor.service.types import BBSSuspended, Draft, OnlineRow, TurnNote
from bgdoor.store.models import Game, GameEvent, MemberBBS, Player, Presence, ReadMark

T = TypeVar("T")

# waiting: for a player; looking: at a game over; reviewing: a finished match from M)atches; the
# rest name the menu's pages (OnlineRow.doing says each).
ACTIVITIES = ("menu", "playing", "waiting", "watching", "looking", "reviewing", "games", "matches", "news",
              "instructions", "ranks", "options", "beginning", "who", "arriving", "leaving")
# What a player does (and may leave a note with); rolls and what the rules derive are not.
ACTS = tuple(
    e.type
    for e in (rules.Move, rules.Double, rules.Take, rules.Drop, rules.Resign, rules.AcceptResign, rules.RejectResign)
)


class LeagueOps:
    """Operations the Service offers for the league; mixed into it, using its transactions."""

    clock: Callable[[], datetime]

    def transaction(self, fn: Callable[[Session], T], write: bool = True) -> T:
        raise NotImplementedError

    def _handles(self, s: Session, *ids: int | None) -> dict[int, str]:
        raise NotImplementedError

    # ------------------------------------------------------------ member BBSes

    def admit_bbs(self, tag: str) -> None:
        """A caller arrives from member BBS `tag` (remembered on its first call).

        Raises BBSSuspended when the sysop suspended that BBS.
        """
        tag = tag.upper()

        def fn(s: Session) -> None:
            now = self.clock()
            row = s.get(MemberBBS, tag)
            if row is None:
                s.add(MemberBBS(tag=tag, suspended=False, reason="", first_seen=now, last_seen=now))
                return
            if row.suspended:
                why = f": {row.reason}" if row.reason else ""
                raise BBSSuspended(f"BBS {tag} is suspended from this game server{why}")
            row.last_seen = now

        self.transaction(fn)

    # ------------------------------------------------------------ presence

    def presence_set(
        self, key: str, process: str, player_id: int, board: str, activity: str, game_id: int | None = None
    ) -> None:
        """Say what the caller `key` is doing now (one row per connected caller).

        Raises ValueError for an activity not in ACTIVITIES.
        """
        if activity not in ACTIVITIES:
            raise ValueError(f"activity is one of {ACTIVITIES}")

        def fn(s: Session) -> None:
            now = self.clock()
            row = s.get(Presence, key)
            if row is None:
                s.add(
                    Presence(
                        key=key,
                        process=process,
                        player_id=player_id,
                        board=board[:8],
                        activity=activity,
                        game_id=game_id,
                        since=now,
                        seen=now,
                    )
                )
            else:
                row.activity, row.game_id, row.seen = activity, game_id, now

        self.transaction(fn)

    def presence_drop(self, key: str) -> None:
        """The caller `key` has gone: forget their row.  Raises nothing of its own."""
        self.transaction(lambda s: s.execute(delete(Presence).where(Presence.key == key)) and None)

    def presence_beat(self, process: str, ttl: float) -> None:
        """Refresh every row of `process`, and remove rows nobody refreshed for `ttl` seconds.

        Raises nothing of its own."""

        def fn(s: Session) -> None:
            now = self.clock()
            s.execute(update(Presence).where(Presence.process == process).values(seen=now))
            s.execute(delete(Presence).where(Presence.seen < now - timedelta(seconds=ttl)))

        self.transaction(fn)

    def who_online(self, ttl: float) -> list[OnlineRow]:
        """Every caller connected now, by name; rows older than `ttl` seconds are callers gone.

        Raises nothing of its own."""

        def fn(s: Session) -> list[OnlineRow]:
            cutoff = self.clock() - timedelta(seconds=ttl)
            rows = s.execute(
                select(Presence.player_id, Presence.board, Presence.activity, Presence.game_id, Presence.since)
                .where(Presence.seen >= cutoff)
                .order_by(Presence.since, Presence.key)
            ).all()
            names = self._handles(s, *[r[0] for r in rows])
            return [
                OnlineRow(name=names.get(pid, "?"), board=board, activity=activity, game_id=game_id, since=since)
                for pid, board, activity, game_id, since in rows
            ]

        return self.transaction(fn, write=False)

    def online_players(self, ttl: float) -> frozenset[int]:
        """The players with a caller connected now, in any process (see who_online).

        Raises nothing of its own."""

        def fn(s: Session) -> frozenset[int]:
            cutoff = self.clock() - timedelta(seconds=ttl)
            return frozenset(s.scalars(select(Presence.player_id).where(Presence.seen >= cutoff).distinct()))

        return self.transaction(fn, write=False)

    # ------------------------------------------------------------ notes

    def draft(self, player_id: int, game_id: int) -> Draft | None:
        """What the player left unsent in the game (see save_draft); None if nothing.  Raises
        nothing of its own."""

        def fn(s: Session) -> Draft | None:
            mark = s.get(ReadMark, (player_id, game_id))
            if mark is None or (not mark.draft_moves and mark.draft_note is None):
                return None
            moves = tuple(
                (int(src), int(dst)) for src, _, dst in (m.partition("/") for m in mark.draft_moves.split())
            )
            return Draft(version=mark.draft_version, moves=moves, note=mark.draft_note)

        return self.transaction(fn, write=False)

    def save_draft(
        self, player_id: int, game_id: int, version: int, moves: tuple[tuple[int, int], ...], note: str | None
    ) -> None:
        """Keep the moves of a turn half played in the game at `version`, and a note not yet sent,
        for the player's next look (in this process or another, after a hang-up).  No moves and no
        note clear it.  A player not seated in the game, or an unknown game, keeps nothing.  Raises
        nothing of its own."""

        def fn(s: Session) -> None:
            g = s.get(Game, game_id)
            mark = s.get(ReadMark, (player_id, game_id))
            if g is None or mark is None or player_id not in (g.white_id, g.black_id):
                return
            mark.draft_version = version if moves else None
            mark.draft_moves = " ".join(f"{src}/{dst}" for src, dst in moves)
            mark.draft_note = (note or "")[:140] or None

        self.transaction(fn)

    def opponent_note(self, game_id: int, viewer_id: int) -> TurnNote | None:
        """The note the viewer's opponent left with what they did last (a play, a double, a take, a
        drop, a resignation or its answer), until the viewer has done something of their own since
        or the game it was left in is over, and unless the viewer turned notes off.  Raises nothing
        of its own (None for an unknown game or player)."""

        def fn(s: Session) -> TurnNote | None:
            viewer = s.get(Player, viewer_id)
            g = s.get(Game, game_id)
            if viewer is None or g is None or not viewer.notes or viewer_id not in (g.white_id, g.black_id):
                return None
            acts = select(GameEvent.seq, GameEvent.player_id, GameEvent.note, GameEvent.created).where(
                GameEvent.game_id == game_id, GameEvent.type.in_(ACTS)
            )
            last = s.execute(
                acts.where(GameEvent.player_id != viewer_id).order_by(GameEvent.seq.desc()).limit(1)
            ).first()
            if last is None or not last.note or last.player_id is None:
                return None
            answered = s.execute(
                acts.where(GameEvent.player_id == viewer_id, GameEvent.seq > last.seq).limit(1)
            ).first()
            if answered is not None:
                return None  # the viewer has answered it: it is history (news and review keep it)
            ended = s.execute(
                select(GameEvent.seq).where(
                    GameEvent.game_id == game_id, GameEvent.type == rules.GameWon.type, GameEvent.seq > last.seq
                ).limit(1)
            ).first()
            if ended is not None:
                return None  # said in a game now over (a drop's): the next game's board had kept it
            names = self._handles(s, last.player_id)
            return TurnNote(
                game_id=game_id, seq=last.seq, by=names.get(last.player_id, "?"), text=last.note, when=last.created
            )

        return self.transaction(fn, write=False)
