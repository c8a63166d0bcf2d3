"""What the telnet and RLogin servers share: the writing half of a caller's line, and the
server's sessions, consoles and way down.

Writes go out while the line is open; a drain that the caller never lets finish (their
terminal reads nothing) cuts the line after `stall_timeout`; a close gives the last screen
CLOSE_GRACE seconds to leave, then cuts the socket rather than keep it open for good.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from bgdoor.transport import telnet_internals as internals
from bgdoor.ui.console import Console
from bgdoor.ui.runtime import Runtime

log = logging.getLogger("bgdoor.link")

CLOSE_GRACE = 10.0  # seconds a closed line may take to send its last screen before it is cut
SHUTDOWN_NOTICE = "The server is going down now. Your games are saved; please call again later."


class WriterLink:
    """Writes to an asyncio-style writer (a StreamWriter, or telnetlib3's)."""

    def __init__(self, writer: Any, stall_timeout: float) -> None:
        self.writer = writer
        # A caller whose terminal takes nothing for this long is as gone as a silent one.
        self.stall_timeout = stall_timeout

    @property
    def gone(self) -> bool:
        """The line is closed (by the caller, or by us); what it sent before is of no more use."""
        return bool(self.writer.is_closing())

    def write(self, data: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(data)

    async def drain(self) -> None:
        transport = self.writer.transport
        if transport is not None and not transport.is_closing() and not transport.get_write_buffer_size():
            return  # all sent already: nothing to wait for (and no task and timer for every screen)
        try:
            await asyncio.wait_for(self.writer.drain(), timeout=self.stall_timeout)
        except TimeoutError:
            log.info("dropping a caller who has read nothing for %.0f s", self.stall_timeout)
            self.abort()
        except (ConnectionError, OSError):
            pass

    def abort(self) -> None:
        transport = self.writer.transport
        if transport is not None:
            transport.abort()

    def close(self) -> None:
        transport = self.writer.transport  # close() forgets it
        try:
            self.writer.close()
        except Exception:  # noqa: BLE001 - already gone
            pass
        if transport is not None and not internals.connection_lost(transport):
            # close() waits for the last bytes to go; from a caller who reads nothing they never
            # go, and the socket would stay open for good.
            asyncio.get_running_loop().call_later(CLOSE_GRACE, transport.abort)


def callers(n: int) -> str:
    """'1 caller', '2 callers': the log's counts ('(1 callers)')."""
    return f"{n} caller{'' if n == 1 else 's'}"


class CallerServer:
    """A listening server's callers: each one's session task and console, for the way down."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.config = runtime.config
        self.server: asyncio.Server | None = None
        self.sessions: set[asyncio.Task[Any]] = set()
        self.consoles: set[Console] = set()

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def tracked(self, serve: Awaitable[None]) -> None:
        """Serve one caller as a session the way down will find."""
        task = asyncio.current_task()
        if task is not None:
            self.sessions.add(task)
        try:
            await serve
        finally:
            if task is not None:
                self.sessions.discard(task)

    async def shutdown(self, notice: str = SHUTDOWN_NOTICE, grace: float = 5.0) -> None:
        """SIGTERM or SIGINT: take no more calls, tell every caller why they are cut off, end
        their sessions, and let the writes already under way finish before the process ends."""
        if self.server is not None:
            self.server.close()
        consoles = list(self.consoles)
        for console in consoles:
            console.last_words(notice)  # not over the screen it ends, whose keys do nothing now
            console.bell("error")
        await asyncio.gather(*(asyncio.wait_for(c.show(), timeout=2.0) for c in consoles), return_exceptions=True)
        log.info("told %s the server is going down", callers(len(consoles)))
        sessions = list(self.sessions)
        for task in sessions:
            task.cancel()
        if sessions:
            # Each session's own way out: colours reset, cursor shown, line closed.
            await asyncio.wait(sessions, timeout=grace)
        await asyncio.get_running_loop().run_in_executor(None, self.runtime.service.finish_writes)
        if self.server is not None:
            await self.server.wait_closed()
