"""What the test callers share: waiting on what their screen shows, and hanging up.

For the callers over telnet (harness.Caller, rawtelnet.RawCaller) and RLogin
(rloginplay.RLoginCaller): each keeps its screen as `text`, reads the line in `_pump`, sets
`changed` as bytes arrive and `closed` once the line drops.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Protocol


class _Writer(Protocol):
    def close(self) -> None: ...


class ScreenWaits:
    writer: _Writer
    closed: bool
    changed: asyncio.Event
    _pump: asyncio.Future[None]
    WAIT = 20.0  # seconds a wait gives up after, unless told

    @property
    def text(self) -> str:
        raise NotImplementedError

    async def wait_until(self, test: Callable[[str], bool], what: str, timeout: float | None = None) -> str:
        """Wait until test(screen text) holds; the screen text then."""
        deadline = time.monotonic() + (self.WAIT if timeout is None else timeout)
        while not test(self.text):
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                state = "closed" if self.closed else "timed out"
                raise AssertionError(f"never saw {what} ({state}); the screen shows:\n{self.text}")
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=min(left, 0.5))
        return self.text

    async def wait_for(self, needle: str, timeout: float | None = None) -> str:
        """Wait until `needle` is on the screen; the screen text then."""
        return await self.wait_until(lambda text: needle in text, repr(needle), timeout)

    async def wait_words(self, needle: str, timeout: float | None = None) -> str:
        """Wait until `needle` is on the screen, read as words (a message may wrap anywhere)."""
        return await self.wait_until(lambda text: needle in " ".join(text.split()), repr(needle), timeout)

    async def settle(self, quiet: float = 0.3, timeout: float = 20.0) -> None:
        """Wait until the server has written nothing for `quiet` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and not self.closed:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=quiet)
            except TimeoutError:
                return

    async def wait_closed(self, timeout: float = 20.0) -> bool:
        """True if the server closed the connection within `timeout`."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._pump), timeout)
        return self.closed

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()
        self._pump.cancel()
