"""Every commit to a game by any process, as a list of changes: the change feed's database side.

One ChangeFeed per process; its `next()` blocks a thread of its own for up to an interval and
returns what changed since the last call.

- SQLite: a connection of its own reads `PRAGMA data_version` (which moves when another
  connection commits) every interval; only when it moved does it read the unfinished games'
  versions and compare them with the ones it knows.  Idle, that is one cheap statement per
  interval, however many callers there are.
- PostgreSQL: every write to a game sends NOTIFY (service.core, in the committing
  transaction), and the feed LISTENs; the version comparison runs as a fallback every
  FALLBACK seconds, and every interval while the listening connection is down.

A player's news read on a screen of one process is news to their menus in every process (a menu
had gone on listing what a board on the player's other node had shown): on SQLite the comparison
looks at the read marks of the players whose reads are followed (follow_reads); on PostgreSQL
marking sends NOTIFY too.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, select

from bgdoor.store import db
from bgdoor.store.models import Game, ReadMark

log = logging.getLogger("bgdoor.feed")

CHANNEL = "bgdoor_"  # and the schema's name
INTERVAL = 0.1  # seconds between looks at SQLite's data_version
FALLBACK = 2.0  # seconds between version comparisons while LISTEN works

_OPEN = ("open", "active")


@dataclass(frozen=True)
class Change:
    game_id: int
    version: int | None  # None: the game is gone (withdrawn or deleted)
    players: tuple[int | None, ...]
    read: bool = False  # no move: players[0] read news of theirs (game_id 0: of some game)


def notify_payload(game_id: int, version: int, white_id: int | None, black_id: int | None) -> str:
    return f"{game_id} {version} {white_id or 0} {black_id or 0}"


def read_payload(player_id: int) -> str:
    return f"read {player_id}"


def _parse(payload: str) -> Change | None:
    try:
        if payload.startswith("read "):
            return Change(0, None, (int(payload[5:]),), read=True)
        gid, version, white, black = (int(x) for x in payload.split())
    except ValueError:
        return None
    return Change(gid, version if version > 0 else None, (white or None, black or None))


class ChangeFeed:
    def __init__(self, engine: Engine, interval: float = INTERVAL) -> None:
        self.engine = engine
        self.interval = interval
        self.postgres = engine.dialect.name == "postgresql"
        self.usable = not (engine.dialect.name == "sqlite" and db.is_memory(engine.url))  # one process only
        self._raw: Any = None  # the feed's own DBAPI connection
        self._reopens = db.reopens(engine)
        self._data_version: int | None = None
        self._known: dict[int, tuple[int, int | None, int | None]] = {}  # game -> version, white, black
        self._primed = False
        self._compared_at = 0.0
        self.queries = 0  # statements run on its own connection (the rest count in db.statement_count())
        # Looks that found the database changed, by any commit (SQLite), or compared versions
        # (PostgreSQL's fallback): a caller come or gone in another process is one such commit.
        self.commits = 0
        self._lock = threading.Lock()  # note() comes from the event loop's thread
        self._readers: dict[int, int] = {}  # players whose reads are followed: by how many screens
        # Per reader: their read marks' count and sum at the last look.  Kept while a menu is not
        # watching (it stops between keys): a read in that gap is still told when it watches again.
        self._marks: dict[int, tuple[int, int]] = {}
        self._followed: set[int] = set()  # every reader followed so far (PostgreSQL tells their reads)
        self._unprimed = False  # a reader come back: look at the marks, even with no commit since

    def close(self) -> None:
        if self._raw is not None:
            try:
                self._raw.close()
            except Exception:
                log.debug("closing the change feed's connection", exc_info=True)
            self._raw = None

    # ---------------------------------------------------------------- the loop

    def next(self) -> list[Change]:
        """What changed since the last call; blocks about one interval."""
        if not self.usable:
            time.sleep(self.interval)
            return []
        if self.postgres:
            return self._next_postgres()
        return self._next_sqlite()

    def _connection(self) -> Any:
        if self._raw is not None and self._reopens != db.reopens(self.engine):
            # The service found the file read-only: open it afresh.  Invalidated, not given
            # back: given back, it would stay open in the replaced pool, and with it the
            # read-only -shm file every new connection shares.
            try:
                self._raw.invalidate()
            except Exception:
                log.debug("closing the change feed's connection", exc_info=True)
            self._raw = None
        if self._raw is None:
            self._reopens = db.reopens(self.engine)
            raw = self.engine.raw_connection()  # held for good: no other thread shares it
            if self.postgres:
                from psycopg import sql as psycopg_sql  # noqa: PLC0415 - PostgreSQL support is optional

                conn = raw.driver_connection
                assert conn is not None
                conn.autocommit = True
                row = conn.execute("SELECT current_schema()").fetchone()
                channel = CHANNEL + str(row[0] if row else "")
                conn.execute(psycopg_sql.SQL("LISTEN {}").format(psycopg_sql.Identifier(channel)))
                self.queries += 2
            self._raw = raw
        return self._raw

    def _next_sqlite(self) -> list[Change]:
        time.sleep(self.interval)
        try:
            raw = self._connection()
            cur = raw.cursor()
            try:
                (version,) = cur.execute("PRAGMA data_version").fetchone()
            finally:
                cur.close()
            self.queries += 1
        except Exception:
            log.exception("the change feed cannot read the database; trying again")
            self.close()
            time.sleep(1.0)
            return []
        with self._lock:
            unprimed, self._unprimed = self._unprimed, False
        if version == self._data_version and self._primed and not unprimed:
            return []
        self._data_version = version
        self.commits += 1
        return self._compare()

    def _next_postgres(self) -> list[Change]:
        payloads: list[str] = []
        try:
            conn = self._connection().driver_connection
            # The first notice, then whatever came with it.
            payloads += [n.payload for n in conn.notifies(timeout=self.interval * 10, stop_after=1)]
            if payloads:
                payloads += [n.payload for n in conn.notifies(timeout=0.0)]
        except Exception:
            log.exception("the change feed lost its LISTEN connection; comparing versions until it is back")
            self.close()
            time.sleep(self.interval)
            return self._compare(reads=True)
        found = [c for c in (_parse(p) for p in payloads) if c is not None]
        with self._lock:
            followed = set(self._followed)
        # A read by a player followed so far (not only now: a menu stops watching between keys,
        # and the runtime counts a read told then).
        fresh = [c for c in found if (c.players[0] in followed if c.read else self._remember(c))]
        if time.monotonic() - self._compared_at >= FALLBACK or not self._primed:
            self.commits += 1
            fresh += self._compare(reads=False)  # a read is NOTIFYed: told once, not again here
        return fresh

    # ---------------------------------------------------------------- comparing

    def note(self, game_id: int, version: int | None, players: tuple[int | None, ...]) -> None:
        """A change this process made and announced itself: not news when the feed sees it."""
        self._remember(Change(game_id, version, players))

    def follow(self, game_id: int) -> None:
        """A game a screen here has read: known to the feed from now on, so that its end is told
        even where it leaves the unfinished games before the feed's next look (a sysop's forfeit
        just after a board opened had never reached it: the first look knows only the games
        unfinished then).  Told once, at its version, where the feed had not known it."""
        with self._lock:
            self._known.setdefault(game_id, (0, None, None))

    def follow_reads(self, player_id: int) -> None:
        """A screen here counts the player's news (a menu): their reads in other processes are told."""
        with self._lock:
            self._readers[player_id] = self._readers.get(player_id, 0) + 1
            self._followed.add(player_id)
            # Looked at next time, commit or not: a read while nobody here followed (a menu
            # between keys) is told now, and a new reader's marks are known before a read comes
            # (else the read itself had been taken for how things stood).
            self._unprimed = True

    def unfollow_reads(self, player_id: int) -> None:
        with self._lock:
            left = self._readers.get(player_id, 0) - 1
            if left > 0:
                self._readers[player_id] = left
            else:
                self._readers.pop(player_id, None)

    def _remember(self, change: Change) -> bool:
        """Note a change; False when it is one already known."""
        with self._lock:
            if change.version is None:
                self._known.pop(change.game_id, None)
                return True
            known = self._known.get(change.game_id)
            if known is not None and known[0] >= change.version:
                return False
            white, black = (tuple(change.players) + (None, None))[:2]
            self._known[change.game_id] = (change.version, white, black)
            return True

    def _compare(self, reads: bool = True) -> list[Change]:
        """The unfinished games' versions against the ones known, and (`reads`) the followed
        readers' read marks against theirs; the differences."""
        self._compared_at = time.monotonic()
        columns = (Game.id, Game.version, Game.white_id, Game.black_id, Game.status)
        marks: dict[int, tuple[int, int]] | None = None
        try:
            with self.engine.connect() as conn:
                rows = {r[0]: r for r in conn.execute(select(*columns).where(Game.status.in_(_OPEN)))}
                with self._lock:
                    gone = [gid for gid in self._known if gid not in rows]
                    readers = list(self._readers) if reads else []
                if gone:
                    # Finished since (or withdrawn): their last version, once.
                    rows.update({r[0]: r for r in conn.execute(select(*columns).where(Game.id.in_(gone)))})
                if readers:
                    # Marks only rise (or go with their game): a count and a sum that moved is a read.
                    query = (select(ReadMark.player_id, func.count(), func.coalesce(func.sum(ReadMark.seq), 0))
                             .where(ReadMark.player_id.in_(readers)).group_by(ReadMark.player_id))
                    marks = {pid: (int(n), int(total)) for pid, n, total in conn.execute(query)}
                    marks.update({pid: (0, 0) for pid in readers if pid not in marks})
        except Exception:
            log.exception("the change feed cannot compare versions; trying again")
            return []
        changes: list[Change] = []
        with self._lock:
            changes = self._differences(rows)
            for pid, now in (marks or {}).items():
                was = self._marks.get(pid)
                self._marks[pid] = now
                if was is not None and was != now:
                    changes.append(Change(0, None, (pid,), read=True))
        # The first look reports every unfinished game: a screen may have read its game just
        # before a commit this feed had not yet looked for (the runtime drops what is no news).
        self._primed = True
        return changes

    def _differences(self, rows: dict[int, Any]) -> list[Change]:
        changes: list[Change] = []
        for gid, version, white, black, status in rows.values():
            known = self._known.get(gid)
            if known is not None and known[0] > version:
                continue  # read just before a commit this process has announced already
            if known is None or known[0] < version:
                changes.append(Change(gid, version, (white, black)))
            if status in _OPEN:
                self._known[gid] = (version, white, black)
            else:
                self._known.pop(gid, None)
        for gid in [g for g in self._known if g not in rows]:
            _, white, black = self._known.pop(gid)
            changes.append(Change(gid, None, (white, black)))
        return changes
