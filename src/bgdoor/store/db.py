"""Engines, SQLite connection settings, schema migrations and database-error sorting."""

from __future__ import annotations

import fcntl
import gc
import logging
import os
import sqlite3
import stat
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, CursorResult, Engine, Result, create_engine, event, exc
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import Pool, StaticPool

DEFAULT_URL = "sqlite:///data/bgdoor.db"

# Alembic says "Context impl SQLiteImpl" and each step at INFO whenever the schema is looked
# at: noise in every log and on serve's output at each start.  Its warnings still pass.
logging.getLogger("alembic").setLevel(logging.WARNING)
MIGRATIONS = Path(__file__).parent / "migrations"

WRITE = "bgdoor_write"  # execution option: this transaction will write


@dataclass(frozen=True)
class Settings:
    """How this process uses the database; the configuration gives them at start-up."""

    # How long SQLite waits for another node's write lock before it reports busy; the service
    # then retries with backoff on top of this.
    busy_timeout_ms: int = 5000
    # FULL: a commit (a roll!) survives a power cut, not only a crashed process. NORMAL is faster.
    synchronous: str = "FULL"
    # A write waits this long at most for the write lock (another node's, or a backup tool's),
    # then the caller hears "busy, nothing was changed".
    write_patience: float = 3.0


DEFAULTS = Settings()

_deadline = threading.local()


@contextmanager
def patience(until: float) -> Iterator[None]:
    """Writes in this thread give up on the lock at time.monotonic() `until`."""
    before = getattr(_deadline, "until", None)
    _deadline.until = until
    try:
        yield
    finally:
        _deadline.until = before


_statements = 0
_statements_lock = threading.Lock()


def statement_count() -> int:
    """SQL statements run through every engine of this process so far (the benchmarks read it)."""
    return _statements


def _count_statement(*_args: object) -> None:
    global _statements
    with _statements_lock:
        _statements += 1


def deadline() -> float | None:
    """When this thread's writes give up on the write lock; None: no deadline set."""
    return getattr(_deadline, "until", None)


def is_memory(url: URL) -> bool:
    db = url.database or ""
    return db in ("", ":memory:") or "mode=memory" in db or url.query.get("mode") == "memory"


def _read_only(url: URL) -> bool:
    return "mode=ro" in (url.database or "") or url.query.get("mode") == "ro"


def make_engine(url: str | URL, settings: Settings = DEFAULTS) -> Engine:
    """An engine for `url`; SQLite gets WAL, a busy timeout and BEGIN IMMEDIATE for writes."""
    busy_timeout_ms = settings.busy_timeout_ms
    u = make_url(url)
    if u.get_backend_name() != "sqlite":
        pg = create_engine(u, pool_pre_ping=True)
        event.listen(pg, "before_cursor_execute", _count_statement)
        return pg
    memory = is_memory(u)
    kwargs: dict[str, Any] = {"connect_args": {"timeout": busy_timeout_ms / 1000}}
    if memory:
        # One connection shared by all sessions: a second one would see another, empty database.
        kwargs["poolclass"] = StaticPool
        kwargs["connect_args"]["check_same_thread"] = False
    elif not _read_only(u):
        path = sqlite_path(u)
        assert path is not None
        path.parent.mkdir(parents=True, exist_ok=True)  # the default data/ folder, for one
    engine = create_engine(u, **kwargs)
    event.listen(engine, "before_cursor_execute", _count_statement)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
        # Let SQLAlchemy's begin event emit BEGIN itself, so writes can BEGIN IMMEDIATE.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        try:
            cur.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
            cur.execute("PRAGMA foreign_keys = ON")
            if not memory:
                (mode,) = cur.execute("PRAGMA journal_mode").fetchone()
                if mode.lower() != "wal":
                    try:
                        cur.execute("PRAGMA journal_mode = WAL")
                    except sqlite3.OperationalError as err:
                        if "readonly" not in str(err) and "read-only" not in str(err):
                            raise
                cur.execute(f"PRAGMA synchronous = {settings.synchronous}")
        finally:
            cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # IMMEDIATE takes the write lock up front: a deferred transaction that reads and then
        # writes can fail at once with "database is locked", busy timeout or not.
        write = bool(conn.get_execution_options().get(WRITE))
        # SQLite's own wait for the lock ends at the caller's deadline, not busy_timeout_ms later.
        until = deadline() if write else None
        wait = (
            busy_timeout_ms if until is None else max(0, min(busy_timeout_ms, int((until - time.monotonic()) * 1000)))
        )
        if conn.info.get("busy_timeout", busy_timeout_ms) != wait:
            conn.exec_driver_sql(f"PRAGMA busy_timeout = {wait}")
            conn.info["busy_timeout"] = wait
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def sqlite_path(url: str | URL, writable: bool = False) -> Path | None:
    """The file of a SQLite URL; None for other databases and in-memory ones (and read-only ones if `writable`)."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or is_memory(u) or (writable and _read_only(u)):
        return None
    path = u.database or ""
    return Path(path[5:].split("?", 1)[0] if path.startswith("file:") else path)


def describe(url: str | URL) -> str:
    """The database as the sysop's log names it: a SQLite file by its absolute path
    ('sqlite:///tmp/x.db' is tmp/x.db under the folder started in, which had opened an old
    database unawares), with no '..' in it (a door.cfg's 'sqlite:///../../x.db' had been logged
    as '/bbs/bgdoor cfg/../../x.db'), anything else by its URL without the password."""
    path = sqlite_path(url)
    if path is not None:
        return f"SQLite file {os.path.normpath(path.absolute())}"
    return make_url(url).render_as_string(hide_password=True)


def write_problem(url: str | URL) -> str | None:
    """Why this process cannot write the SQLite file at `url`, in words for the sysop; None if
    it can, or if `url` is no file (another database, memory, mode=ro on purpose)."""
    path = sqlite_path(url, writable=True)
    if path is None:
        return None
    path = path.absolute()
    if path.exists() and not os.access(path, os.W_OK):
        return f"the database file {path} is read-only for this process"
    if not os.access(path.parent, os.W_OK | os.X_OK):
        # WAL mode: SQLite makes the -wal and -shm files beside the database.
        return (
            f"the folder {path.parent} is not writable by this process "
            f"(SQLite makes {path.name}-wal and {path.name}-shm there)"
        )
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists() and not os.access(side, os.W_OK):
            return f"{side} is read-only for this process"
    return None


_reopens: weakref.WeakKeyDictionary[Engine, int] = weakref.WeakKeyDictionary()


_old_pools: weakref.WeakKeyDictionary[Engine, list[Pool]] = weakref.WeakKeyDictionary()


def reopen(engine: Engine) -> None:
    """Drop the engine's pooled connections, and tell whoever holds one of their own (the change
    feed) to open it again: SQLite keeps a file it opened read-only read-only, for the whole
    process, while any connection to it is open (the -shm file above all: a connection that
    made it while the database was read-only made it read-only, and every later connection
    shares it)."""
    old = engine.pool
    engine.dispose()
    _reopens[engine] = _reopens.get(engine, 0) + 1
    pools = _old_pools.setdefault(engine, [])
    pools.append(old)
    del pools[:-8]
    close_old_connections(engine)


def close_old_connections(engine: Engine) -> None:
    """Close the connections given back, since, to pools that reopen() replaced: a thread that
    had one out at the time returns it to its old pool, where it would stay open until the
    garbage collector found the pool."""
    for pool in _old_pools.get(engine, []):
        pool.dispose()
    gc.collect()


def reopens(engine: Engine) -> int:
    return _reopens.get(engine, 0)


def match_sidecars(path: Path) -> list[Path]:
    """Give the -wal and -shm files beside a SQLite file the file's own permissions, where we may.

    SQLite makes them with the database file's mode: a server that ran while the sysop had made
    the file read-only left read-only ones behind, and would stay read-only after the file was
    made writable again.  Returns the files changed.
    """
    changed: list[Path] = []
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return changed
    if not os.access(path, os.W_OK):
        return changed
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        try:
            if side.stat().st_uid == os.geteuid() and not os.access(side, os.W_OK):
                side.chmod(mode)
                changed.append(side)
        except OSError:
            continue
    return changed


class WriterQueue:
    """Writers to one SQLite file take turns through a lock file beside it.

    SQLite's busy handler sleeps longer and longer (up to 100 ms a time) while it
    waits, so with several nodes writing the lock often lies idle while all of them
    sleep.  Polling a lock file every millisecond hands it on almost at once.  After
    `timeout` a writer goes ahead anyway and leaves the rest to SQLite's own locking,
    so a node that hangs holding the file slows the others but cannot stop them.
    """

    POLL = 0.001

    def __init__(self, db_file: Path) -> None:
        self.path = Path(f"{db_file}-writers")
        self._fd: int | None = None
        self._threads = threading.Lock()  # flock is per open file: threads of one process queue here

    def _open(self) -> int | None:
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            except OSError:
                return None  # a read-only folder: nobody can write anyway
        return self._fd

    @contextmanager
    def turn(self, timeout: float) -> Iterator[None]:
        deadline = time.monotonic() + timeout
        mine = self._threads.acquire(timeout=timeout)
        locked = False
        try:
            fd = self._open() if mine else None
            while fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    locked = True
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(self.POLL)
            yield
        finally:
            if locked and self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            if mine:
                self._threads.release()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


# ---------------------------------------------------------------- migrations


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic configured in code: the migrations ship inside the package, no alembic.ini."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


class SchemaTooNew(RuntimeError):
    """The database was upgraded by a newer bgdoor than this one."""


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def migrate(engine: Engine) -> bool:
    """Create or upgrade the schema to the newest revision; True if anything was done.

    All migrations run in one transaction holding the write lock (an advisory lock on
    PostgreSQL), so nodes starting together take turns, and a run that is interrupted
    leaves the database as it was before it.
    """
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head()
    current = current_revision(engine)
    if current == head:
        return False
    if current is not None and current not in {s.revision for s in script.walk_revisions()}:
        raise SchemaTooNew(f"the database is at schema {current}, newer than this bgdoor knows")
    with engine.connect() as conn:
        conn.execution_options(**{WRITE: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7172023)")
            command.upgrade(alembic_config(conn), "head")
    return True


# -------------------------------------------------------------------- errors

BUSY = "busy"
READ_ONLY = "read-only"
FULL = "full"
CONFLICT = "conflict"
OTHER = "other"

_PG_STATES = {
    "40001": BUSY,  # serialization failure
    "40P01": BUSY,  # deadlock detected
    "55P03": BUSY,  # lock not available
    "57P03": BUSY,  # cannot connect now (starting up)
    "53100": FULL,  # disk full
    "25006": READ_ONLY,  # read-only transaction
    "23505": CONFLICT,  # unique violation
}


def classify(error: BaseException) -> str:
    """Sort a database error: BUSY and CONFLICT are worth retrying, the rest are not."""
    orig = getattr(error, "orig", None) or error
    state = getattr(orig, "sqlstate", None)
    if state in _PG_STATES:
        return _PG_STATES[state]
    if state and state.startswith("08"):
        return BUSY  # connection lost: the transaction did not commit
    if isinstance(error, exc.IntegrityError):
        # A unique key taken by a concurrent writer: a retry sees it and answers properly.
        return CONFLICT if "unique" in str(orig).lower() else OTHER
    if isinstance(error, exc.TimeoutError):
        return BUSY  # no pooled connection free in time
    text = str(orig).lower()
    if "locked" in text or "busy" in text:
        return BUSY
    if "readonly" in text or "read-only" in text or "read only" in text:
        return READ_ONLY
    if "disk is full" in text or "no space" in text:
        return FULL
    return OTHER


def rowcount(result: Result[Any]) -> int:
    """The rows an UPDATE or DELETE matched (Session.execute's result type does not show them)."""
    assert isinstance(result, CursorResult)
    return result.rowcount
