"""The one way screens reach the service: its operations as typed async methods.

- Reads and writes run on separate worker threads, so a read (a menu, the rankings, the
  board) never waits behind a write that is waiting for the database's write lock.
- Logins pass the LoginGuard first.
- Every change a write commits is announced (the `announce` callback) at once, so no
  screen announces anything by hand.
- Only storage failures become StorageError ("the database ..."); a programming error is
  logged with its traceback and reaches the caller as an InternalError that says so.

The methods have the service's names and parameters (tests/test_gateway.py checks them).
"""

from __future__ import annotations

import asyncio
import copy
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from bgdoor import workers
from bgdoor.rules.game import Color, Win
from bgdoor.service import (
    Draft,
    GameLog,
    GameNotice,
    GameSummary,
    GameView,
    LastTurn,
    LoginFailed,
    OnlineRow,
    PlayerInfo,
    PlayerPage,
    Preferences,
    RankRow,
    Service,
    ServiceError,
    StorageError,
    TurnNote,
    Unread,
)
from bgdoor.service.core import BUSY_MESSAGE, STORAGE_ERRORS
from bgdoor.service.feed import Change, ChangeFeed
from bgdoor.term.wrap import sentence
from bgdoor.ui.guard import LoginGuard

log = logging.getLogger("bgdoor.gateway")

P = ParamSpec("P")
T = TypeVar("T")

NOT_ANSWERING = "The game database is not answering right now. Please try again shortly."
SHUTTING_DOWN = "the server is shutting down; nothing was changed"


# A committed change: the game, its new version (None when not known), its players.
Announce = Callable[[int, int | None, tuple[int | None, ...]], None]


Notice = Callable[[str | None], Awaitable[None]]

SAVING = "Saving..."
MARK_PATIENCE = 0.05  # seconds a read mark waits for a busy database, at most
PRESENCE_PATIENCE = 0.5  # seconds a presence write waits for a busy database, at most
SAVING_AFTER = 0.1  # seconds a write may take before the caller is told it is saving


class InternalError(ServiceError):
    """A fault in bgdoor itself, not in the database: the log has the traceback."""


def _taken(job: asyncio.Future[Any]) -> None:
    if not job.cancelled():
        job.exception()


class Gateway:
    def __init__(
        self,
        service: Service,
        guard: LoginGuard,
        announce: Announce,
        *,
        read: Callable[[int], None] | None = None,
        readers: int = 4,
        writers: int = 2,
        addr: str = "-",
    ) -> None:
        self.service = service
        self.guard = guard
        self.announce = announce
        self.read = read  # a player's news read on one screen: their others' counts change
        self.addr = addr  # the caller's address, for the LoginGuard
        self.notice: Notice | None = None
        self._reads = workers.pool(readers, "db-read")
        self._writes = workers.pool(writers, "db-write")
        # Registering hashes a password first (a fraction of a second, on one scrypt thread): it has
        # workers of its own, so a burst of new players holds up no move, and its wait for the
        # database starts when its transaction does.
        self._accounts = workers.pool(2, "db-account")
        self._marks = workers.pool(1, "db-mark")
        # Who's online is bookkeeping too: its writes never take a worker a caller's move needs.
        self._presence = workers.pool(1, "db-presence")
        self._feed = ChangeFeed(service.engine)
        self._follow = workers.pool(1, "db-feed")

    def caller(self, addr: str, notice: Notice | None = None) -> Gateway:
        """This gateway as one caller sees it: the same workers, logins guarded by `addr`, and
        `notice` told "Saving..." while a write is slow (and None when it is over)."""
        mine = copy.copy(self)
        mine.addr = addr
        mine.notice = notice
        return mine

    def finish_writes(self) -> None:
        """Wait for the writes under way and take no more (shutting down): a play a caller sent
        is stored, not cut off.  Blocks; run it off the event loop."""
        self._writes.shutdown(wait=True)
        self._accounts.shutdown(wait=True)

    def close(self) -> None:
        self._reads.shutdown(wait=False, cancel_futures=True)
        self._writes.shutdown(wait=False, cancel_futures=True)
        self._accounts.shutdown(wait=False, cancel_futures=True)
        self._marks.shutdown(wait=False, cancel_futures=True)
        self._presence.shutdown(wait=False, cancel_futures=True)
        self._follow.submit(self._feed.close)  # on its own thread, once the current look ends
        self._follow.shutdown(wait=False, cancel_futures=False)

    # ---------------------------------------------------------------- the change feed

    async def changes(self) -> list[Change]:
        """Commits by any process since the last call (about 0.1 s): one caller per process."""
        return await asyncio.get_running_loop().run_in_executor(self._follow, self._feed.next)

    @property
    def commits(self) -> int:
        """How many looks of the change feed found the database changed (see ChangeFeed.commits)."""
        return self._feed.commits

    def follow(self, game_id: int) -> None:
        """A game a screen watches: the feed tells its changes from what it is now (see ChangeFeed.follow)."""
        self._feed.follow(game_id)

    def follow_reads(self, player_id: int) -> None:
        """A screen counts the player's news: their reads in other processes are told (see
        ChangeFeed.follow_reads)."""
        self._feed.follow_reads(player_id)

    def unfollow_reads(self, player_id: int) -> None:
        self._feed.unfollow_reads(player_id)

    def note(self, game_id: int, version: int | None, players: tuple[int | None, ...]) -> None:
        """A change this process announces itself: the feed will not bring it again."""
        self._feed.note(game_id, version, players)

    @property
    def statements(self) -> int:
        """SQL statements this process has run so far, the change feed's included (for the benchmarks)."""
        return self.service.statement_count() + self._feed.queries

    async def _run(self, pool: ThreadPoolExecutor, name: str, call: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            running = loop.run_in_executor(pool, call)
        except RuntimeError as exc:
            # The workers have stopped: the server is going down (a session leaving after the
            # shutdown's grace saves its draft).  Not 'bgdoor itself failed' with a traceback.
            log.info("%s: not run, the server is shutting down", name)
            raise StorageError(SHUTTING_DOWN) from exc
        try:
            return await running
        except ServiceError:
            raise
        except STORAGE_ERRORS as exc:  # a storage failure the service did not sort
            log.exception("%s: the database failed", name)
            raise StorageError(NOT_ANSWERING) from exc
        except Exception as exc:
            log.exception("%s: internal error", name)
            raise InternalError(
                f"bgdoor itself failed ({type(exc).__name__} in {name}); the sysop's log has the details"
            ) from exc

    async def _read(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._run(self._reads, fn.__name__, functools.partial(fn, *args, **kwargs))

    async def _write(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """A write, given up write_patience after it was asked for: waiting for a worker counts too."""
        until = time.monotonic() + self.service.write_patience
        call = functools.partial(self._within, until, functools.partial(fn, *args, **kwargs))
        job = asyncio.ensure_future(self._run(self._writes, fn.__name__, call))
        # Its outcome is taken even when whoever waits for it is cancelled (a session ended as
        # the server goes down): else asyncio logs 'Task exception was never retrieved'.
        job.add_done_callback(_taken)
        if self.notice is None:
            return await job
        done, _ = await asyncio.wait({job}, timeout=SAVING_AFTER)
        if done:
            return job.result()
        await self.notice(SAVING)
        try:
            return await job
        finally:
            await self.notice(None)

    def _within(self, until: float, call: Callable[[], T]) -> T:
        if time.monotonic() >= until:
            raise StorageError(BUSY_MESSAGE)  # waited out behind other writes: do not start now
        with self.service.patience(until):
            return call()

    async def _change(self, fn: Callable[P, GameView], *args: P.args, **kwargs: P.kwargs) -> GameView:
        view = await self._write(fn, *args, **kwargs)
        players = (view.white_id, view.black_id)
        self.note(view.id, view.version, players)
        self.announce(view.id, view.version, players)
        return view

    # ---------------------------------------------------------------- players

    async def register(self, handle: str, password: str) -> PlayerInfo:
        call = functools.partial(self.service.register, handle, password)
        return await self._run(self._accounts, "register", call)

    async def login(self, handle: str, password: str) -> PlayerInfo:
        guard, addr = self.guard, self.addr
        verdict = guard.admit(addr, str(handle))
        if verdict.refused:
            log.info("login refused from %s: %s", addr, verdict.refused)
            raise LoginFailed(verdict.refused)
        if verdict.wait:
            # Said, or the line would look dead for up to half a minute.
            notice = self.notice if verdict.wait >= 1 else None
            if notice is not None:
                await notice(f"Checking... held {verdict.wait:.0f} s after wrong passwords from your address.")
            await asyncio.sleep(verdict.wait)
            if notice is not None:
                await notice(None)
        try:
            # The password is checked on the hashing thread, not a database worker: a crowd of
            # guesses waiting for it holds up no one's screen.
            pending = await self._read(self.service.start_login, handle, password, verdict.urgent)
            await asyncio.wrap_future(pending.checked)
            return await self._read(self.service.finish_login, pending)
        except LoginFailed:
            guard.failed(addr, str(handle), verdict.urgent)
            raise

    async def handle_exists(self, handle: str) -> bool:
        return await self._read(self.service.handle_exists, handle)

    def login_refusal(self, handle: str) -> str:
        """Why a login at `handle` from this caller's address would be refused now whatever the
        password (too many wrong ones lately), as a sentence; "" if it would not.  Asked before
        the password is typed, so none is typed in vain."""
        refused = self.guard.refusal(self.addr, str(handle))
        return sentence(refused) if refused else ""

    async def login_problem(self, handle: str) -> str | None:
        return await self._read(self.service.login_problem, handle)

    async def new_handle_problem(self, handle: str) -> str | None:
        return await self._read(self.service.new_handle_problem, handle)

    async def enter_from_door(self, alias: str) -> PlayerInfo:
        return await self._write(self.service.enter_from_door, alias)

    async def enter_from_bbs(self, tag: str, alias: str) -> PlayerInfo:
        return await self._write(self.service.enter_from_bbs, tag, alias)

    async def ensure_bot_player(self, handle: str) -> PlayerInfo:
        return await self._write(self.service.ensure_bot_player, handle)

    async def player(self, player_id: int) -> PlayerInfo:
        return await self._read(self.service.player, player_id)

    async def set_preferences(self, player_id: int, prefs: Preferences) -> PlayerInfo:
        return await self._write(self.service.set_preferences, player_id, prefs)

    # ------------------------------------------------------------------ views

    async def game(self, game_id: int, viewer_id: int | None = None) -> GameView:
        return await self._read(self.service.game, game_id, viewer_id)

    async def game_version(self, game_id: int) -> int:
        return await self._read(self.service.game_version, game_id)

    async def games_in_progress(self, limit: int = 50) -> list[GameSummary]:
        return await self._read(self.service.games_in_progress, limit)

    async def open_games(self, player_id: int | None = None) -> list[GameSummary]:
        return await self._read(self.service.open_games, player_id)

    async def my_turn_games(self, player_id: int) -> list[GameSummary]:
        return await self._read(self.service.my_turn_games, player_id)

    async def my_games(self, player_id: int) -> list[GameSummary]:
        return await self._read(self.service.my_games, player_id)

    async def last_turn(self, game_id: int, viewer_id: int | None = None) -> LastTurn | None:
        return await self._read(self.service.last_turn, game_id, viewer_id)

    async def rankings(
        self, limit: int | None = 20, include_unrated: bool = False, board: str | None = None
    ) -> list[RankRow]:
        return await self._read(self.service.rankings, limit, include_unrated, board)

    async def player_page(self, handle: str) -> PlayerPage:
        return await self._read(self.service.player_page, handle)

    async def game_log(self, game_id: int, viewer_id: int | None = None) -> GameLog:
        return await self._read(self.service.game_log, game_id, viewer_id)

    async def unread(self, player_id: int) -> list[Unread]:
        return await self._read(self.service.unread, player_id)

    async def finished_games(self, player_id: int, limit: int = 100) -> list[GameSummary]:
        return await self._read(self.service.finished_games, player_id, limit)

    async def who_online(self, ttl: float) -> list[OnlineRow]:
        return await self._read(self.service.who_online, ttl)

    async def online_players(self, ttl: float) -> frozenset[int]:
        return await self._read(self.service.online_players, ttl)

    async def draft(self, player_id: int, game_id: int) -> Draft | None:
        return await self._read(self.service.draft, player_id, game_id)

    async def save_draft(
        self, player_id: int, game_id: int, version: int, moves: tuple[tuple[int, int], ...], note: str | None
    ) -> None:
        # Private to the player: nobody else's screen changes, so nothing is announced.
        await self._write(self.service.save_draft, player_id, game_id, version, moves, note)

    async def opponent_note(self, game_id: int, viewer_id: int) -> TurnNote | None:
        return await self._read(self.service.opponent_note, game_id, viewer_id)

    # ----------------------------------------------------------------- writes

    async def begin_game(
        self, player_id: int, length: int, color: Color | None = None, opponent: str | None = None
    ) -> GameView:
        return await self._change(self.service.begin_game, player_id, length, color, opponent)

    async def join_game(self, player_id: int, game_id: int) -> GameView:
        return await self._change(self.service.join_game, player_id, game_id)

    async def roll(self, player_id: int, game_id: int, version: int) -> GameView:
        return await self._change(self.service.roll, player_id, game_id, version)

    async def submit_turn(
        self,
        player_id: int,
        game_id: int,
        version: int,
        play: str,
        note: str | None = None,
        path: Sequence[tuple[int, int]] = (),
    ) -> GameView:
        return await self._change(self.service.submit_turn, player_id, game_id, version, play, note, path)

    async def double(self, player_id: int, game_id: int, version: int, note: str | None = None) -> GameView:
        return await self._change(self.service.double, player_id, game_id, version, note)

    async def take(self, player_id: int, game_id: int, version: int, note: str | None = None) -> GameView:
        return await self._change(self.service.take, player_id, game_id, version, note)

    async def drop(self, player_id: int, game_id: int, version: int, note: str | None = None) -> GameView:
        return await self._change(self.service.drop, player_id, game_id, version, note)

    async def resign(
        self, player_id: int, game_id: int, version: int, win: Win = Win.SINGLE, note: str | None = None
    ) -> GameView:
        return await self._change(self.service.resign, player_id, game_id, version, win, note)

    async def answer_resign(
        self, player_id: int, game_id: int, version: int, accept: bool, note: str | None = None
    ) -> GameView:
        return await self._change(self.service.answer_resign, player_id, game_id, version, accept, note)

    async def withdraw_game(self, player_id: int, game_id: int, version: int | None = None) -> tuple[int, ...]:
        seats = await self._write(self.service.withdraw_game, player_id, game_id, version)
        # The other player too: their menu counts the game no more, and has a notice of it.
        players = (player_id, *(p for p in seats if p != player_id))
        self.note(game_id, None, players)
        self.announce(game_id, None, players)
        return seats

    async def notices(self, player_id: int) -> list[GameNotice]:
        return await self._read(self.service.notices, player_id)

    async def clear_notices(self, player_id: int, upto: int) -> None:
        await self._write(self.service.clear_notices, player_id, upto)

    async def mark_read(self, player_id: int, game_id: int, upto: int) -> None:
        # Bookkeeping, not a move: it waits MARK_PATIENCE at most (on a worker of its own, so it
        # queues behind no other write) and a busy database only means the news shows again.
        until = time.monotonic() + MARK_PATIENCE
        mark = functools.partial(self.service.mark_read, player_id, game_id, upto)
        call = functools.partial(self._within, until, mark)
        try:
            await self._run(self._marks, "mark_read", call)
        except StorageError as exc:
            log.info("read mark for game %s not saved (%s): its news will show again", game_id, exc)
            return
        if self.read is not None:
            self.read(player_id)

    async def admit_bbs(self, tag: str) -> None:
        await self._write(self.service.admit_bbs, tag)

    async def presence_set(
        self, key: str, process: str, player_id: int, board: str, activity: str, game_id: int | None = None
    ) -> None:
        await self._bookkeeping(self.service.presence_set, key, process, player_id, board, activity, game_id)

    async def presence_drop(self, key: str) -> None:
        await self._bookkeeping(self.service.presence_drop, key)

    async def presence_beat(self, process: str, ttl: float) -> None:
        await self._bookkeeping(self.service.presence_beat, process, ttl)

    async def _bookkeeping(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """A presence write: on a worker of its own, given up PRESENCE_PATIENCE after it was asked
        for (StorageError), so a write lock held elsewhere holds up no caller's write."""
        until = time.monotonic() + PRESENCE_PATIENCE
        call = functools.partial(self._within, until, functools.partial(fn, *args, **kwargs))
        return await self._run(self._presence, fn.__name__, call)

    async def forfeit_stale(self, days: float, reason: str = "time") -> list[int]:
        # The games' new versions are not returned: the change feed announces them.
        return await self._write(self.service.forfeit_stale, days, reason)
