"""Fuzzing a live server subprocess: at least 10,000 hostile payloads over a few hundred connections.

Payloads: random bytes, broken telnet option sequences (IAC SB without SE,
oversized subnegotiations, stray commands), huge lines, NULs, endless escape
sequences, invalid UTF-8 and 8-bit garbage typed where a handle belongs; half
the connections log in first, so the menus and game screens get their share.

While it runs and after, a well-behaved caller logs in and reaches the menu.
No traceback text may reach any caller, the server must log no unexpected error,
and every session must end (as many disconnects as connects, descriptors back
where they started).
"""

from __future__ import annotations

import asyncio
import os
import random
import time

import pytest
from rawtelnet import IAC, SB, SE, RawCaller, login
from serverproc import ServerProcess

from bgdoor.rules.game import Color
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(240)

PAYLOADS = int(os.environ.get("BGDOOR_FUZZ_PAYLOADS", "10000"))
PER_CONNECTION = 50
AT_ONCE = 24
PLAYERS = 12  # fuzz0..fuzz11, in pairs of games

OPTIONS = [0, 1, 3, 5, 24, 31, 32, 33, 34, 35, 36, 39, 42, 69, 70, 85, 86, 87, 200, 255]
COMMANDS = [241, 242, 243, 244, 245, 246, 247, 248, 249]  # NOP DM BRK IP AO AYT EC EL GA


def payload(rng: random.Random) -> bytes:
    kind = rng.randrange(16)
    if kind == 0:
        return rng.randbytes(rng.randint(1, 64))
    if kind == 1:  # a subnegotiation that never ends
        return bytes([IAC, SB, rng.choice(OPTIONS)]) + rng.randbytes(rng.randint(0, 300))
    if kind == 2:  # an oversized terminal type or environment
        opt = rng.choice([24, 39, 36, 42])
        return (
            bytes([IAC, SB, opt, 0])
            + bytes(rng.randint(33, 126) for _ in range(rng.randint(200, 5000)))
            + bytes([IAC, SE])
        )
    if kind == 3:  # a window size that is too short, too long, or zero
        return bytes([IAC, SB, 31]) + rng.randbytes(rng.choice([0, 1, 3, 4, 9])) + bytes([IAC, SE])
    if kind == 4:  # option verbs for anything, and stray commands
        return b"".join(
            bytes([IAC, rng.choice([251, 252, 253, 254]), rng.choice(OPTIONS)]) for _ in range(rng.randint(1, 20))
        )
    if kind == 5:
        return b"".join(bytes([IAC, rng.choice(COMMANDS)]) for _ in range(rng.randint(1, 10))) + rng.choice(
            [b"", bytes([IAC])]
        )
    if kind == 6:  # a huge line
        return rng.choice([b"A", b"8", b"\xdb", "é".encode()]) * rng.randint(1000, 65536) + rng.choice([b"", b"\r"])
    if kind == 7:
        return b"\x00" * rng.randint(1, 4096)
    if kind == 8:  # endless escape sequences
        return rng.choice([b"\x1b[", b"\x1b]", b"\x1bP", b"\x1b[?"]) + rng.choice([b"9", b";", b"x"]) * rng.randint(
            10, 20000
        )
    if kind == 9:
        return b"\x1b" * rng.randint(1, 2000)
    if kind == 10:  # 8-bit garbage where a handle belongs
        return bytes(rng.randint(128, 254) for _ in range(rng.randint(1, 40))) + b"\r"
    if kind == 11:  # invalid UTF-8, C1 controls and bidi overrides
        return rng.choice(
            [b"\xc0\xaf", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xc2\x9b2J", b"\xe2\x80\xae", b"\xef\xbf\xbf"]
        ) * rng.randint(1, 50)
    if kind == 12:  # menu and game keys, fast
        return bytes(rng.choice(b"VPBSIROQGMUDTAJN0123456789\r\x1b\x08\x7f\x0c") for _ in range(rng.randint(1, 30)))
    if kind == 13:  # cursor keys and function keys, whole and broken
        return b"".join(
            rng.choice([b"\x1b[A", b"\x1b[B", b"\x1bOC", b"\x1b[5~", b"\x1b[99999~", b"\x1b[1;5D", b"\x1bO"])
            for _ in range(rng.randint(1, 40))
        )
    if kind == 14:  # Ctrl keys
        return bytes(rng.randint(0, 31) for _ in range(rng.randint(1, 40)))
    return rng.choice([b"\r\n", b"\r\x00", b"\n", b"\r"]) * rng.randint(1, 200)


async def fuzz_connection(
    port: int, rng: random.Random, handle: str | None, leaks: list[str], counts: dict[str, int]
) -> None:
    try:
        c = await RawCaller.connect(
            port, term=rng.choice(["ansi", "xterm", "dumb", "syncterm"]), screen=handle is not None
        )
    except OSError as err:
        counts["refused"] += 1
        leaks.append(f"could not connect: {err}")
        return
    try:
        if handle is not None:
            try:
                await login(c, handle, "fuzz-password", new=False, timeout=30)
                counts["logged_in"] += 1
            except AssertionError:
                counts["login_failed"] += 1
        for _ in range(PER_CONNECTION):
            if c.closed:
                break
            c.send_raw(payload(rng))
            counts["payloads"] += 1
            if rng.random() < 0.3:
                await c.drain()
            if rng.random() < 0.2:
                await asyncio.sleep(rng.uniform(0, 0.02))
        await c.drain()
        await asyncio.sleep(0.2)
        counts["closed_by_server" if c.closed else "still_open"] += 1
        found = c.leaked()
        if found is not None:
            i = c.data.find(found)
            leaks.append(f"{found!r} reached a caller: {bytes(c.data[max(0, i - 200) : i + 200])!r}")
    finally:
        if rng.random() < 0.5:
            c.close()
        else:
            c.abort()  # a dead line: no goodbye at all


async def canary(port: int, stop: asyncio.Event, times: list[float]) -> None:
    """A well-behaved caller, calling at least once and again and again until `stop`."""
    while True:
        start = time.monotonic()
        c = await RawCaller.connect(port)
        try:
            await login(c, "canary", "canary-password", new=False, timeout=60)
            times.append(time.monotonic() - start)
            c.send("Q")
            await c.wait_for("Thanks for playing", 30)
        finally:
            c.close()
        if stop.is_set():
            return
        try:
            await asyncio.wait_for(stop.wait(), timeout=1.0)
        except TimeoutError:
            pass


async def test_ten_thousand_hostile_payloads(tmp_path):
    url = f"sqlite:///{tmp_path}/fuzz.db"
    with Service(url) as svc:
        svc.register("canary", "canary-password")
        ids = [svc.register(f"fuzz{i}", "fuzz-password").id for i in range(PLAYERS)]
        for i in range(0, PLAYERS, 2):
            svc.begin_game(ids[i], 3, Color.WHITE, f"fuzz{i + 1}")
    srv = ServerProcess(tmp_path, url, server={"max_per_address": 200, "max_callers": 300, "login_timeout": 60}).start()
    rng = random.Random(20240)
    leaks: list[str] = []
    counts = {k: 0 for k in ("payloads", "logged_in", "login_failed", "closed_by_server", "still_open", "refused")}
    canary_times: list[float] = []
    try:
        # One canary login first, so the server is warm and the descriptor count settled.
        stop = asyncio.Event()
        stop.set()
        await canary(srv.port, stop, canary_times)
        during = len(canary_times)
        await asyncio.sleep(0.5)
        sockets_before = srv.socket_count()
        stop = asyncio.Event()
        watcher = asyncio.ensure_future(canary(srv.port, stop, canary_times))
        start = time.monotonic()
        connections = 0
        running: set[asyncio.Task[None]] = set()
        while counts["payloads"] < PAYLOADS and time.monotonic() - start < 150:
            while len(running) >= AT_ONCE:
                _, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            seed = rng.random()
            handle = f"fuzz{connections % PLAYERS}" if connections % 2 else None
            running.add(asyncio.ensure_future(fuzz_connection(srv.port, random.Random(seed), handle, leaks, counts)))
            connections += 1
        if running:
            await asyncio.wait(running)
        elapsed = time.monotonic() - start
        stop.set()
        await watcher
        # And once more after it all.
        await canary(srv.port, stop, canary_times)
        print(
            f"\nfuzz: {counts['payloads']} payloads over {connections} connections in {elapsed:.1f} s; {counts}; "
            f"canary logins {len(canary_times)}, slowest {max(canary_times):.2f} s"
        )
        assert counts["payloads"] >= PAYLOADS
        assert not leaks, "\n".join(leaks[:5])
        assert srv.alive()
        assert during == 1 and len(canary_times) >= 3  # before, during (at least once) and after
        log = srv.stderr()
        for bad in ("Traceback", "session error", "Task exception was never retrieved", "ERROR"):
            assert bad not in log, (
                f"the server logged {bad!r}:\n{log[max(0, log.find(bad) - 2000) : log.find(bad) + 3000]}"
            )
        # Every session has ended: as many disconnects as connects, and no socket left open.  The
        # keys a caller sent before hanging up are still acted on, so ending the fuzz's sessions
        # takes a while: about 35 s on a quiet 2-core machine, and over the 60 s this allowed
        # under a loaded CI run.  No session may be left for good.
        end = time.monotonic() + 180
        while time.monotonic() < end:
            log = srv.stderr()
            if (
                log.count("bgdoor.telnet: connect ") == log.count("bgdoor.telnet: disconnect ")
                and srv.socket_count() <= sockets_before
            ):
                break
            await asyncio.sleep(0.5)
        assert log.count("bgdoor.telnet: connect ") == log.count("bgdoor.telnet: disconnect "), "sessions left running"
        assert srv.socket_count() <= sockets_before, f"{srv.socket_count()} sockets open, {sockets_before} before"
    finally:
        srv.kill()
