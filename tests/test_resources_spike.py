"""A spike of callers does not leave the server's memory up: 2,000 callers come and go, and the
resident size returns to within 25% of what it was before them.

Each caller gets as far as the login screen (a whole session: console, screen grid, telnet
state), 500 on the line at once, four waves; then everyone hangs up.  Without giving memory
back, the C allocator kept what the sessions had used (124 -> 185 MB after 2,000 callers).

What stays after the give-back is allocator chance, not objects kept: CPython's small-object
allocator frees a 1 MB arena only when every block in it is free, and a few dozen small
objects allocated in the burst's arenas (or later, in their part-empty pools) keep 15-20 of
them.  Measured after the give-back: 26 more pools in use than before (0.4 MB), 17 more
arenas (17 MB).  Over 39 runs on one machine that came to +9% to +20% (one CI run +20.3%),
so the bound is 25%: without the give-back it is +50% and more.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from rawtelnet import RawCaller
from serverproc import ServerProcess
from test_resources_cycles import settled

pytestmark = pytest.mark.timeout(300)

CALLERS = 2000
AT_ONCE = 500


async def wave(port: int, n: int, wave_no: int) -> None:
    callers: list[RawCaller] = []
    try:
        for i in range(n):
            source = f"127.0.{10 + wave_no}.{1 + i % 250}"
            callers.append(await RawCaller.connect(port, screen=False, source=source, timeout=60))
        deadline = time.monotonic() + 120
        for c in callers:  # everyone on the line at once, each with the login screen drawn
            while b"Handle:" not in c.data and not c.closed and time.monotonic() < deadline:
                c.changed.clear()
                try:
                    await asyncio.wait_for(c.changed.wait(), 1.0)
                except TimeoutError:
                    pass
            assert b"Handle:" in c.data, "a caller never got the login screen"
    finally:
        for c in callers:
            c.close()


async def test_rss_returns_after_2000_callers(tmp_path):
    url = f"sqlite:///{tmp_path}/bg.db"
    srv = ServerProcess(
        tmp_path, url, server={"max_per_address": 8, "max_callers": AT_ONCE + 10, "negotiation_wait": 0.3}
    ).start()
    try:
        listening = srv.socket_count()
        await wave(srv.port, 20, 0)  # a few calls first: imports and caches a first caller brings in
        await settled(srv, listening)
        await asyncio.sleep(3)
        before = srv.rss_kb()
        peak = before
        start = time.monotonic()
        for w in range(CALLERS // AT_ONCE):
            await wave(srv.port, AT_ONCE, 1 + w)
            peak = max(peak, srv.rss_kb())
        took = time.monotonic() - start
        await settled(srv, listening, timeout=120)
        await asyncio.sleep(4)  # the trim comes a moment after the burst
        after = srv.rss_kb()
        print(
            f"\n{CALLERS} callers ({AT_ONCE} at once) in {took:.0f} s: RSS {before / 1024:.1f} MB before, "
            f"{peak / 1024:.1f} MB at the peak, {after / 1024:.1f} MB after ({100 * (after - before) / before:+.0f}%)"
        )
        assert after <= before * 1.25
        assert srv.alive()
    finally:
        srv.kill()
