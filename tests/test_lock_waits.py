"""Another process holds SQLite's write lock for 30 s under a live `bgdoor serve`.

Meanwhile the read screens (rankings, the menu, the board, login) answer at once, since reads
have workers of their own and WAL lets them read past the lock; a roll says "Saving..." at
once and "busy, nothing was changed" within about 3 s; and after the release the same roll
succeeds.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import time
from pathlib import Path

import pytest
from rawtelnet import RawCaller, login
from serverproc import ServerProcess

from bgdoor.rules.game import Color, Phase
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(240)

HOLD = 30.0  # seconds the other process holds the write lock
READ_LIMIT = 0.1  # a read screen answers within this
WRITE_LIMIT = 3.0  # a write answers within this (the gateway's patience)
BUSY = "database is busy; nothing was changed"  # a sentence on the board: "The database ..."


async def timed(caller: RawCaller, keys: str, needle: str, timeout: float = 20.0) -> float:
    start = time.monotonic()
    caller.send(keys)
    await caller.wait_for(needle, timeout)
    return time.monotonic() - start


async def test_a_held_write_lock_freezes_no_screen(tmp_path: Path) -> None:
    db_file = tmp_path / "bg.db"
    url = f"sqlite:///{db_file}"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw")
        svc.register("bob", "bob-pw-1")
        svc.register("carol", "carol-pw")
        game = svc.begin_game(alice.id, 1, Color.WHITE, "bob")
    srv = ServerProcess(tmp_path, url).start()
    callers: list[RawCaller] = []
    reads: dict[str, list[float]] = {
        "rankings": [],
        "menu": [],
        "board": [],
        "login handle": [],
        "rankings beside a stuck write": [],
    }
    logins: list[float] = []
    saving: list[float] = []
    busy: list[float] = []
    try:
        a = await RawCaller.connect(srv.port)
        b = await RawCaller.connect(srv.port)
        callers += [a, b]
        await login(a, "alice", "alice-pw", new=False)
        await login(b, "bob", "bob-pw-1", new=False)

        hog = sqlite3.connect(str(db_file), isolation_level=None, check_same_thread=False)
        hog.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        held_at = time.monotonic()
        try:
            rounds = 0
            while time.monotonic() - held_at < HOLD - 10 or rounds < 3:
                rounds += 1
                reads["rankings"].append(await timed(a, "R", "The top players"))
                reads["menu"].append(await timed(a, "\r", "Your choice"))
                reads["board"].append(await timed(a, "P", "roll for who starts"))
                # The roll: a write, waiting on the lock, while bob reads the rankings beside it.
                start = time.monotonic()
                a.send("P")
                await a.wait_for("Saving", 10)
                saving.append(time.monotonic() - start)
                reads["rankings beside a stuck write"].append(await timed(b, "R", "The top players"))
                await a.wait_for(BUSY, 10)
                busy.append(time.monotonic() - start)
                await b.settle(0.05)
                await timed(b, "\r", "Your choice")
                await timed(a, "Q", "Your choice")
                # A caller logging in: the handle is looked up, the password checked, the menu drawn.
                c = await RawCaller.connect(srv.port)
                callers.append(c)
                await c.wait_for("Handle:")
                reads["login handle"].append(await timed(c, "carol\r", "Password:"))
                logins.append(await timed(c, "carol-pw\r", "Your choice"))
                c.close()
            assert time.monotonic() - held_at < HOLD, "the checks took longer than the lock was held"
            with Service(url) as svc:
                assert svc.game(game.id).state.phase is Phase.OPENING  # nothing was changed
            await asyncio.sleep(max(0.0, HOLD - (time.monotonic() - held_at)))
        finally:
            hog.execute("ROLLBACK")
            hog.close()
        held = time.monotonic() - held_at

        # Released: the same roll, from the same screen, succeeds.
        await a.wait_for("Your choice")
        await timed(a, "P", "roll for who starts")
        after = time.monotonic()
        a.send("P")
        with Service(url) as svc:
            while svc.game(game.id).state.phase is Phase.OPENING:
                assert time.monotonic() - after < WRITE_LIMIT, "the roll did not go through after the release"
                await asyncio.sleep(0.02)
        rolled = time.monotonic() - after
        assert srv.alive()

        def ms(values: list[float]) -> str:
            return " ".join(f"{v * 1000:.0f}" for v in values) + " ms"

        print(f"\nwrite lock held {held:.1f} s by another process:")
        for name, values in reads.items():
            print(f"  {name}: {ms(values)}")
        print(f"  login, password to menu (includes the scrypt check): {ms(logins)}")
        print(f"  roll: 'Saving...' after {ms(saving)}; busy after {ms(busy)}")
        print(f"  after the release the roll went through in {rolled * 1000:.0f} ms")
        for name, values in reads.items():
            # The machine these run on is shared: the best of the rounds must meet the limit,
            # and none may come near the write's wait, which is what a queued read would show.
            assert min(values) <= READ_LIMIT, f"{name}: {ms(values)}"
            assert statistics.median(values) <= 2 * READ_LIMIT and max(values) < 1.0, f"{name}: {ms(values)}"
        assert max(logins) < 1.0, ms(logins)
        assert max(saving) < 0.5, ms(saving)
        assert max(busy) <= WRITE_LIMIT + 0.5, ms(busy)
        assert min(busy) >= WRITE_LIMIT - 0.5, ms(busy)  # it did wait for the lock, not give up at once
    finally:
        for c in callers:
            c.close()
        srv.kill()
