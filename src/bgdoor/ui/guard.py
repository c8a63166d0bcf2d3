"""Wrong passwords remembered across connections: the gateway checks every login against it."""

from __future__ import annotations

import time


class LoginGuard:
    """Wrong passwords remembered across connections, by address and by handle.

    The session delays and hangs up within one connection; this keeps a guesser from simply
    calling again.  Each address or handle with recent failures waits `delay` seconds per
    failure before its next password is checked (at most MAX_DELAY: slow, but never locked
    out, so an attacker cannot lock the real player out), and an address with `limit` recent
    failures is refused outright until they age out of the window.
    """

    WINDOW = 900.0
    MAX_DELAY = 30.0
    MAX_KEYS = 10_000  # addresses and handles remembered at most

    def __init__(self, limit: int, delay: float) -> None:
        self.limit = limit
        self.delay_step = delay
        self.by_address: dict[str, list[float]] = {}
        self.by_handle: dict[str, list[float]] = {}

    def _recent(self, table: dict[str, list[float]], key: str) -> int:
        times = table.get(key)
        if not times:
            return 0
        cutoff = time.monotonic() - self.WINDOW
        times[:] = [t for t in times if t > cutoff]
        if not times:
            del table[key]
        return len(times)

    def refused(self, addr: str) -> bool:
        return self._recent(self.by_address, addr) >= self.limit

    def delay(self, addr: str, handle: str) -> float:
        failures = max(self._recent(self.by_address, addr), self._recent(self.by_handle, handle.casefold()))
        return min(self.MAX_DELAY, failures * self.delay_step)

    def failed(self, addr: str, handle: str) -> None:
        now = time.monotonic()
        for table, key in ((self.by_address, addr), (self.by_handle, handle.casefold()[:64])):
            if key not in table and len(table) >= self.MAX_KEYS:
                table.pop(next(iter(table)))  # the oldest remembered
            table.setdefault(key, []).append(now)

    def succeeded(self, handle: str) -> None:
        self.by_handle.pop(handle.casefold(), None)
