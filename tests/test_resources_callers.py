"""Callers who hold on without playing, flood, or crowd in from one address, against a server subprocess.

- silent callers (no bytes, not even telnet negotiation) and trickling callers (a key now
  and then, never a login) are hung up on login_timeout after they connect;
- a caller whose terminal stops taking output is dropped once the server has waited
  idle_timeout for it to take any, and its socket is closed;
- a flooding caller costs bounded memory and others are still served;
- max_per_address and max_callers hold, and a freed line can be used again.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from rawtelnet import RawCaller, login
from serverproc import ServerProcess

from bgdoor.rules.game import Color
from bgdoor.service import Service
from bgdoor.transport import link, rlogin, telnet

pytestmark = pytest.mark.timeout(180)


def register(url: str, *handles: str) -> None:
    with Service(url) as svc:
        for h in handles:
            svc.register(h, f"{h}-password")


async def wait_log(srv: ServerProcess, needle: str, count: int = 1, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while srv.stderr().count(needle) < count:
        if time.monotonic() > end:
            raise AssertionError(f"{needle!r} did not appear {count} times in the server log:\n{srv.stderr()[-3000:]}")
        await asyncio.sleep(0.1)


async def test_silent_and_trickling_callers_are_hung_up_on(tmp_path):
    url = f"sqlite:///{tmp_path}/bg.db"
    register(url, "regular")
    srv = ServerProcess(tmp_path, url, server={"login_timeout": 3}).start()
    try:
        start = time.monotonic()
        bare = await RawCaller.connect(srv.port, screen=False)
        bare._answer = lambda verb, opt: None  # type: ignore[method-assign]  # a bare TCP connect: never negotiates
        silent = await RawCaller.connect(srv.port)  # negotiates, then says nothing
        trickler = await RawCaller.connect(srv.port)
        await trickler.wait_for("Handle:")

        async def trickle() -> None:
            while not trickler.closed:
                trickler.send("x\b")  # a key and its undoing: never a handle, never idle
                await asyncio.sleep(0.4)

        keys = asyncio.ensure_future(trickle())
        # A regular caller who logs in is not hung up on, whatever the clock says.
        regular = await RawCaller.connect(srv.port)
        await login(regular, "regular", "regular-password", new=False)
        closed = await asyncio.gather(*(c.wait_closed(30) for c in (bare, silent, trickler)))
        took = time.monotonic() - start
        keys.cancel()
        assert all(closed), f"still connected after {took:.1f} s: {closed}"
        print(f"\nsilent, bare and trickling callers hung up on after {took:.1f} s (login_timeout 3 s)")
        assert 2.5 < took < 30
        assert "Time to log in is up" in silent.text
        regular.send("R")  # connected longer than login_timeout, but logged in: still here
        await regular.wait_for("The top players")
        assert not regular.closed
        regular.close()
        assert srv.alive()
    finally:
        srv.kill()


async def test_a_caller_who_reads_nothing_is_dropped(tmp_path):
    url = f"sqlite:///{tmp_path}/bg.db"
    with Service(url) as svc:
        ann = svc.register("ann", "ann-password").id
        svc.register("ben", "ben-password")
        svc.begin_game(ann, 3, Color.WHITE, "ben")
    srv = ServerProcess(tmp_path, url, session={"idle_timeout": 5, "poll_interval": 0.5}).start()
    try:
        sockets = srv.socket_count()
        stuck = await RawCaller.connect(srv.port, rcvbuf=4096)
        await login(stuck, "ann", "ann-password", new=False)
        stuck.send("P")
        await stuck.wait_for("roll for who starts")
        stuck.stop_reading()  # the terminal takes nothing more
        start = time.monotonic()
        while time.monotonic() - start < 3:  # Ctrl-L: a whole board each time, ~4 KB
            stuck.send("\x0c")
            await asyncio.sleep(0.02)
        await wait_log(srv, "disconnect", timeout=60)
        # Meanwhile and after, others are served.
        ben = await RawCaller.connect(srv.port)
        await login(ben, "ben", "ben-password", new=False)
        ben.close()
        end = time.monotonic() + 30
        while srv.socket_count() > sockets and time.monotonic() < end:
            await asyncio.sleep(0.2)
        assert srv.socket_count() <= sockets, "the stuck caller's socket is still open"
        stuck.abort()
    finally:
        srv.kill()


class _StuckTransport:
    def __init__(self) -> None:
        self.aborted = False
        self._conn_lost = 0

    def abort(self) -> None:
        self.aborted = True

    def close(self) -> None:
        pass  # with unsent bytes for a reader who reads nothing, it never finishes

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 65536  # what the caller has not taken


class _StuckWriter:
    """A telnet writer whose caller has taken nothing for a long time."""

    def __init__(self) -> None:
        self.transport: _StuckTransport | None = _StuckTransport()

    async def drain(self) -> None:
        await asyncio.Event().wait()

    def is_closing(self) -> bool:
        return False

    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        transport, self.transport = self.transport, None  # a closed writer has no transport
        assert transport is not None
        transport.close()


@pytest.mark.parametrize("kind", [telnet.TelnetLink, rlogin.StreamLink])
async def test_a_stalled_write_and_an_unflushed_close_end_in_an_abort(monkeypatch, kind):
    writer = _StuckWriter()
    transport = writer.transport
    assert transport is not None
    line = kind(None, writer, 0.2)
    start = time.monotonic()
    await line.drain()  # returns, having cut the line
    assert transport.aborted and time.monotonic() - start < 5

    monkeypatch.setattr(link, "CLOSE_GRACE", 0.2)
    writer = _StuckWriter()
    transport = writer.transport
    assert transport is not None
    kind(None, writer, 600.0).close()
    assert not transport.aborted
    await asyncio.sleep(0.5)
    assert transport.aborted  # the socket does not stay open waiting for a reader who never reads


async def test_a_flood_costs_bounded_memory_and_others_are_served(tmp_path):
    url = f"sqlite:///{tmp_path}/bg.db"
    register(url, "flooder", "regular")
    srv = ServerProcess(tmp_path, url).start()
    try:
        regular = await RawCaller.connect(srv.port)
        await login(regular, "regular", "regular-password", new=False)
        await asyncio.sleep(0.5)
        rss_before = srv.rss_kb()
        flooder = await RawCaller.connect(srv.port, screen=False)
        await asyncio.sleep(0.3)
        sent = 0
        peak = rss_before
        start = time.monotonic()
        chunk = (b"8" * 500 + b"\x1b[A" * 100 + b"\r") * 16  # keys, escape sequences and Enters
        served: list[float] = []

        async def others() -> None:
            # A caller already in browses a list; new callers get their first screen.
            while time.monotonic() - start < 5:
                t = time.monotonic()
                regular.send("R")
                await regular.wait_for("Nobody has finished a match yet", 60)
                regular.send("\r")
                await regular.wait_for("Your choice", 60)
                newcomer = await RawCaller.connect(srv.port)
                await newcomer.wait_for("Handle:", 60)
                newcomer.close()
                served.append(time.monotonic() - t)
                await asyncio.sleep(0.3)

        meanwhile = asyncio.ensure_future(others())
        while time.monotonic() - start < 5:
            flooder.send_raw(chunk)
            sent += len(chunk)
            try:
                await asyncio.wait_for(flooder.drain(), timeout=0.5)
            except TimeoutError:
                pass  # the server is not reading: the flood waits in TCP
            peak = max(peak, srv.rss_kb())
        await meanwhile
        print(
            f"\nflood: {sent / 1e6:.1f} MB offered in 5 s; server RSS {rss_before / 1024:.1f} MB before, "
            f"peak {peak / 1024:.1f} MB; meanwhile {len(served)} rounds of others served, slowest {max(served):.2f} s"
        )
        assert peak - rss_before < 10 * 1024, "the flood grew the server by 10 MB or more"
        assert served and max(served) < 30
        assert srv.alive()
        flooder.abort()
    finally:
        srv.kill()


async def test_callers_per_address_and_in_all(tmp_path):
    url = f"sqlite:///{tmp_path}/bg.db"
    srv = ServerProcess(tmp_path, url, server={"max_per_address": 3, "max_callers": 5}).start()
    callers: list[RawCaller] = []
    try:
        for _ in range(3):
            c = await RawCaller.connect(srv.port, source="127.0.0.2")
            await c.wait_for("Handle:")
            callers.append(c)
        fourth = await RawCaller.connect(srv.port, source="127.0.0.2")
        await fourth.wait_for("Too many connections from your address")
        assert await fourth.wait_closed(20)
        # Another address is not held back by the first one's cap...
        for _ in range(2):
            c = await RawCaller.connect(srv.port, source="127.0.0.3")
            await c.wait_for("Handle:")
            callers.append(c)
        # ...but every line is now in use.
        sixth = await RawCaller.connect(srv.port, source="127.0.0.4")
        await sixth.wait_for("all lines are busy")
        assert await sixth.wait_closed(20)
        # A line given back can be used again.
        callers.pop(0).close()
        await wait_log(srv, "disconnect", 1)
        again = await RawCaller.connect(srv.port, source="127.0.0.2")
        await again.wait_for("Handle:")
        callers.append(again)
        assert srv.alive()
    finally:
        for c in callers:
            c.close()
        srv.kill()
