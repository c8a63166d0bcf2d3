"""Wrong passwords remembered across connections: the gateway checks every login against it."""

from __future__ import annotations

import time
from dataclasses import dataclass

from bgdoor.service import tidy_handle


@dataclass(frozen=True)
class Verdict:
    """What the guard says of one login try before its password is checked."""

    refused: str = ""  # why the try is refused without checking the password; "" if it is not
    wait: float = 0.0  # seconds to wait before checking
    urgent: bool = False  # from an address with no recent wrong password: checked ahead of others


class LoginGuard:
    """Wrong passwords remembered across connections, by address and by handle.

    The session delays and hangs up within one connection; this keeps a guesser from simply
    calling again, without ever holding back the owner:

    - An address with no wrong password in the last WINDOW seconds is never delayed or refused,
      whatever other addresses did, and its check goes ahead of the others (so the owner from
      such an address gets in at once, even while a handle is being guessed at).
    - An address with recent failures waits longer each time (`delay` doubling per failure, at
      most MAX_DELAY) and is refused outright at `limit` failures, until they age out.
    - Tries at a handle from addresses with recent failures share the handle's budget: BURST at
      once, then one every 60 / PER_MINUTE seconds.  Every wrong password on the handle, from
      any address, spends from it; a try with nothing left is refused without its password
      being checked.  So a guesser gets one try per fresh address and a few a minute besides.
    """

    WINDOW = 900.0
    MAX_DELAY = 30.0
    MAX_KEYS = 10_000  # addresses and handles remembered at most
    PER_MINUTE = 3.0
    BURST = 3.0
    ADDRESS_REFUSED = "too many wrong passwords from your address; try again later"
    HANDLE_REFUSED = "too many wrong passwords for that handle lately; try again in a few minutes"

    def __init__(self, limit: int, delay: float) -> None:
        self.limit = limit
        self.delay_step = delay
        self.by_address: dict[str, list[float]] = {}
        self.budget: dict[str, tuple[float, float]] = {}  # handle key -> (tokens, when counted)
        self.checked = 0  # passwords let through to be checked
        self.refusals = 0  # tries refused unchecked

    @staticmethod
    def _key(handle: str) -> str:
        # Runs of spaces as one: `a  b` finds the player `a b`, and must not be a fresh budget.
        return tidy_handle(handle.casefold())[:64]

    def _recent(self, addr: str) -> int:
        times = self.by_address.get(addr)
        if not times:
            return 0
        cutoff = time.monotonic() - self.WINDOW
        times[:] = [t for t in times if t > cutoff]
        if not times:
            del self.by_address[addr]
        return len(times)

    def _tokens(self, key: str, now: float) -> float:
        tokens, then = self.budget.get(key, (self.BURST, now))
        return min(self.BURST, tokens + (now - then) * self.PER_MINUTE / 60.0)

    def _spend(self, key: str, now: float) -> None:
        if key not in self.budget and len(self.budget) >= self.MAX_KEYS:
            self.budget.pop(next(iter(self.budget)))  # the oldest remembered
        self.budget[key] = (max(0.0, self._tokens(key, now) - 1.0), now)

    def refused(self, addr: str) -> bool:
        return self._recent(addr) >= self.limit

    def refusal(self, addr: str, handle: str) -> str:
        """Why admit() would refuse a try now ("" if it would not), spending nothing."""
        failures = self._recent(addr)
        if failures == 0:
            return ""
        if failures >= self.limit:
            return self.ADDRESS_REFUSED
        if self._tokens(self._key(handle), time.monotonic()) < 1.0:
            return self.HANDLE_REFUSED
        return ""

    def admit(self, addr: str, handle: str) -> Verdict:
        refused = self.refusal(addr, handle)
        if refused:
            self.refusals += 1
            return Verdict(refused=refused)
        self.checked += 1
        failures = self._recent(addr)
        if failures == 0:
            return Verdict(urgent=True)
        self._spend(self._key(handle), time.monotonic())
        return Verdict(wait=min(self.MAX_DELAY, self.delay_step * 2 ** (failures - 1)))

    def failed(self, addr: str, handle: str, urgent: bool = False) -> None:
        now = time.monotonic()
        if addr not in self.by_address and len(self.by_address) >= self.MAX_KEYS:
            self.by_address.pop(next(iter(self.by_address)))  # the oldest remembered
        self.by_address.setdefault(addr, []).append(now)
        if urgent:
            self._spend(self._key(handle), now)  # a throttled try spent its token when admitted

    # A right password clears nothing: a guesser could otherwise log in to a player of their
    # own between guesses and have their address counted clean again.
