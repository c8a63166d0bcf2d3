"""This process's callers in the presence table, kept fresh so every process's W)ho sees them.

Each caller's row says what they are doing.  One task per process does every presence
write, in order, off the callers' own paths: a screen never waits for presence, and a
busy database only makes a caller's activity a moment late in W)ho.  The same task
refreshes all of this process's rows in one statement every TTL/3 seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import Protocol

from bgdoor.service import ServiceError

log = logging.getLogger("bgdoor.presence")

# What a caller is doing: (player_id, board, activity, game_id); None: the caller left.
State = tuple[int, str, str, int | None] | None


class PresenceService(Protocol):
    async def presence_set(
        self, key: str, process: str, player_id: int, board: str, activity: str, game_id: int | None = None
    ) -> None: ...

    async def presence_drop(self, key: str) -> None: ...

    async def presence_beat(self, process: str, ttl: float) -> None: ...


class PresenceKeeper:
    def __init__(self, service: PresenceService, ttl: float) -> None:
        self.service = service
        self.ttl = ttl
        self.process = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self._numbers = itertools.count(1)
        self._live: set[str] = set()
        self._want: dict[str, State] = {}  # changes not yet written, the latest per caller
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._busy = False  # changes taken from _want are being written
        self._failing = False  # the last round failed (a busy database): the next waits
        self._closing = asyncio.Event()  # close() was called: write what is pending now
        # Whose each live key is, and how many keys each player has here: a player's first key
        # (they came on) and last (they went) are told to `moved` once written, so a board here
        # says so at once rather than at the next look at who is on.
        self._whose: dict[str, int] = {}
        self._keys: dict[int, int] = {}
        self._moved: set[int] = set()
        self.moved: Callable[[set[int]], None] | None = None

    def new_key(self) -> str:
        return f"{self.process[-20:]}:{next(self._numbers)}"[-40:]

    def set(self, key: str, player_id: int, board: str, activity: str, game_id: int | None = None) -> None:
        self._live.add(key)
        if self._whose.get(key) != player_id:
            self._let_go(key)
            self._whose[key] = player_id
            self._keys[player_id] = self._keys.get(player_id, 0) + 1
            if self._keys[player_id] == 1:
                self._moved.add(player_id)
        self._want[key] = (player_id, board, activity, game_id)
        self._kick()

    def drop(self, key: str) -> None:
        if key in self._live:
            self._live.discard(key)
            self._let_go(key)
            self._want[key] = None
            self._kick()

    def forget(self, key: str) -> None:
        """Stop refreshing a caller's row without removing it: it expires (a process shutting down)."""
        self._live.discard(key)
        self._want.pop(key, None)
        self._let_go(key, told=False)

    def _let_go(self, key: str, told: bool = True) -> None:
        pid = self._whose.pop(key, None)
        if pid is None:
            return
        self._keys[pid] -= 1
        if not self._keys[pid]:
            del self._keys[pid]
            if told:
                self._moved.add(pid)

    def _kick(self) -> None:
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._writing())

    async def _writing(self) -> None:
        loop = asyncio.get_running_loop()
        beaten = loop.time()
        rest_until = 0.0  # after a failed round: no new round before this (a busy database)
        while self._live or self._want:
            if rest_until > loop.time() and not self._closing.is_set():
                # Changes wait for the next round; only close() cuts the rest short.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(rest_until - loop.time()):
                        await self._closing.wait()
            else:
                # asyncio.timeout, not wait_for (see BotRunner._loop): a cancel must not be lost.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, beaten + self.ttl / 3 - loop.time())):
                        await self._wake.wait()
            self._wake.clear()
            changes, self._want = self._want, {}
            moved, self._moved = self._moved, set()
            self._busy = True
            try:
                for key, state in list(changes.items()):
                    if state is None:
                        await self.service.presence_drop(key)
                    else:
                        await self.service.presence_set(key, self.process, *state)
                    del changes[key]
                if self._live and loop.time() - beaten >= self.ttl / 3:
                    await self.service.presence_beat(self.process, self.ttl)
                    beaten = loop.time()
                if self._failing:
                    log.info("presence written again")
                    self._failing = False
                if moved and self.moved is not None:
                    self.moved(moved)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # Give up the round: what was not written waits (newer changes win) for the next
                # round, a third of the TTL from now, so a write-locked database is not hammered.
                for key, state in changes.items():
                    self._want.setdefault(key, state)
                self._moved |= moved
                rest_until = loop.time() + self.ttl / 3
                beaten = rest_until - self.ttl / 3  # the beat is due with the next round
                if not isinstance(exc, ServiceError):  # not the database: a fault of ours
                    log.warning("presence not written; trying again in %.0f s", self.ttl / 3, exc_info=True)
                elif not self._failing:
                    log.info("presence not written (%s); W)ho is behind, trying again in %.0f s", exc, self.ttl / 3)
                self._failing = True
            finally:
                self._busy = False

    async def flush(self, wait: float = 2.0) -> None:
        """Wait (at most `wait` seconds) until every change so far is written: W)ho shows the caller
        looking at it as they are now."""
        end = asyncio.get_running_loop().time() + wait
        while not self._failing and (self._want or self._busy) and self._task is not None and not self._task.done():
            if asyncio.get_running_loop().time() > end:
                return
            await asyncio.sleep(0.01)

    async def close(self, wait: float = 2.0) -> None:
        """Write what is pending (a caller who just left), for at most `wait` seconds, then stop."""
        self._live.clear()
        self._closing.set()
        if self._task is not None and not self._task.done():
            self._wake.set()
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(self._task), wait)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
