"""Giving memory back after a crowd of callers has gone.

The C allocator keeps the memory that freed sessions leave behind for the next ones: after
2,000 callers came and went the server's resident size stayed 50% above where it started.
After a burst of closed sessions (and a moment's quiet), the collector runs and glibc's
malloc_trim hands the free pages back to the system.  Elsewhere (not glibc) it only collects.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import sys
from collections.abc import Callable

log = logging.getLogger("bgdoor.memory")

BURST = 50  # sessions closed since the last trim that make one worth doing
QUIET = 2.0  # seconds from the burst to the trim (a trim takes some milliseconds; once serves many)


def _load_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_malloc_trim = _load_trim()


AWAIT_FREELIST = 255  # the await iterators asyncio's C Future keeps for reuse, at most


def _renew_await_iterators() -> None:
    """asyncio's C Future keeps the iterators of its last awaits (up to AWAIT_FREELIST) for
    reuse: after a burst they are ones made in its midst, each holding a whole allocator arena
    of it in memory.  Swap them for ones made now, and free the old."""
    try:
        future = asyncio.get_running_loop().create_future()
    except RuntimeError:  # no loop running here
        return
    old = [future.__await__() for _ in range(AWAIT_FREELIST)]  # the kept ones, and new ones past them
    new = [future.__await__() for _ in range(AWAIT_FREELIST)]
    del new  # these fill the freelist again ...
    del old  # ... so these are freed for good
    future.cancel()


def give_back() -> bool:
    """Collect garbage and return free heap pages to the system; False where that cannot be done."""
    gc.unfreeze()  # what Collector set aside is looked at too: a crowd's sessions went with it
    gc.collect()
    # CPython's attribute cache keeps the name of each of its last 4,096 lookups alive, keyed
    # by the name's address: a name made afresh per caller (telnetlib3 looks up its option
    # handlers as f"handle_{key}") stays in it, and each such string holds a whole allocator
    # arena of the burst in memory.  Emptied, they go with their arenas; it refills at once.
    sys._clear_type_cache()
    _renew_await_iterators()
    if _malloc_trim is None:
        return False
    _malloc_trim(0)
    return True


class Trimmer:
    """Counts closed sessions and gives memory back a moment after a burst of them."""

    def __init__(self, burst: int = BURST, quiet: float = QUIET) -> None:
        self.burst = burst
        self.quiet = quiet
        self.closed_since = 0
        self.trims = 0
        self._timer: asyncio.TimerHandle | None = None

    def session_closed(self, still_on: int) -> None:
        """One session ended; `still_on` sessions remain.  The last one of a crowd to leave
        brings a trim too, for what the crowd's stragglers freed after the last one."""
        self.closed_since += 1
        if self._timer is not None or (self.closed_since < self.burst and (still_on or self.trims == 0)):
            return
        # Not at once: the rest of a burst is usually closing too, and one trim serves them all.
        self._timer = asyncio.get_running_loop().call_later(self.quiet, self._trim)

    def _trim(self) -> None:
        self._timer = None
        closed, self.closed_since = self.closed_since, 0
        if give_back():
            self.trims += 1
            log.debug("gave memory back after %d sessions closed", closed)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


TICK = 0.25  # seconds between the collector's passes over what is new
LOOK_TICKS = 16  # passes at most between looks at what is new, while looks find nothing (4 s)
SWEEP_TICKS = 2400  # passes between looking at everything again (10 min), in case no trim did
CROWD = 20  # connections still negotiating that make a crowd dialling in


class Collector:
    """Runs the garbage collector on a clock rather than on allocation counts.

    Each key redraws a screen, making objects that replace the last key's: the collector's
    allocation count hardly grows, yet its youngest generation fills with them, and the pass
    that finally came took 20-50 ms with 1,000 callers on (and an older one 60-270 ms), holding
    every caller up.  Instead, each pass (every quarter second) sets what is new aside
    (gc.freeze), which costs nothing; a trim after callers leave, or a sweep every ten minutes,
    looks at everything and frees the cycles set aside with them.

    Some passes look at what is new first, and free its cycles.  Such a look is not free either:
    with 1,000 callers pressing keys it takes 2-7 ms (about 5,000 new objects, whose 30,000
    references into the older heap are cache misses), and it found nothing to free in 30 s
    of keys (bench/load.py).  So while looks find nothing they come ever less often, down to
    one pass in LOOK_TICKS; a look that finds garbage makes every pass look again.

    While a crowd dials in (many connections still negotiating), nothing is collected: each pass
    sets everything aside.  What a caller's connection makes lives as long as the call, so
    looking at it finds nothing to free, yet for 1,000 callers dialling at once it took
    130-250 ms of the second before the last of them saw a screen (bench/load.py).
    """

    def __init__(self, tick: float = TICK, crowd: int = CROWD) -> None:
        self.tick = tick
        self.crowd = crowd
        self.ticks = 0
        self.looks = 0
        self.negotiating = 0  # connections that have not yet begun their sessions
        self.crowded = False  # automatic collection is off until a pass finds the crowd gone
        self._next_sweep = SWEEP_TICKS
        self._gap = 1  # passes from one look to the next
        self._next_look = 1
        self._timer: asyncio.TimerHandle | None = None

    @property
    def next_look(self) -> int:
        """The pass (counted in `ticks`) that looks at what is new next."""
        return self._next_look

    def start(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(self.tick, self._tick)

    def connected(self) -> None:
        """A caller's connection came in; settled() follows when its session begins or it ends."""
        self.negotiating += 1
        if self.negotiating >= self.crowd and not self.crowded:
            self.crowded = True
            gc.disable()

    def settled(self) -> None:
        self.negotiating -= 1

    def _tick(self) -> None:
        self.collect()
        self._timer = asyncio.get_running_loop().call_later(self.tick, self._tick)

    def collect(self) -> None:
        """One pass (the clock makes one every `tick` seconds)."""
        self.ticks += 1
        if self.crowded:
            gc.freeze()
            if self.negotiating < self.crowd:
                self.crowded = False
                gc.enable()
        elif self.ticks >= self._next_sweep:
            self._next_sweep = self.ticks + SWEEP_TICKS
            gc.unfreeze()
            gc.collect()
            gc.freeze()
        else:
            if self.ticks >= self._next_look:
                self.looks += 1
                found = gc.collect(1)
                self._gap = 1 if found else min(2 * self._gap, LOOK_TICKS)
                self._next_look = self.ticks + self._gap
            gc.freeze()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.crowded:
            self.crowded = False
            gc.enable()
        gc.unfreeze()
