"""W)ho's online across processes: a door process and a `serve` process on one database each
see the other's caller, and a caller whose process is killed with SIGKILL goes when their
presence expires."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from doorharness import PtyDoor, door32
from rawtelnet import RawCaller, login
from serverproc import ServerProcess, write_config

pytestmark = pytest.mark.timeout(180)

TTL = 3.0  # presence_ttl for these processes: rows are refreshed every TTL/3 seconds


async def until_who_shows(caller: RawCaller, test, what: str, timeout: float = 15.0) -> float:
    """Press Enter on the W)ho screen until `test(screen)`; the seconds it took."""
    start = time.monotonic()
    while True:
        if test(caller.text):
            return time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise AssertionError(f"W)ho never showed {what}:\n{caller.text}")
        await asyncio.sleep(0.25)
        caller.send("\r")
        await caller.settle(0.15)


def door_until(door: PtyDoor, needle: str, present: bool, timeout: float = 15.0) -> float:
    start = time.monotonic()
    while (needle in door.view.text) != present:
        if time.monotonic() - start > timeout:
            raise AssertionError(
                f"the door's W)ho never {'showed' if present else 'dropped'} {needle!r}:\n{door.view.text}"
            )
        door.send("\r")
        door.settle(0.25)
    return time.monotonic() - start


async def test_door_and_serve_see_each_other_and_a_killed_door_expires(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bg.db'}"
    srv = ServerProcess(tmp_path, url, session={"poll_interval": 0.5, "presence_ttl": TTL}).start()
    cfg = write_config(tmp_path / "door-node.cfg", session={"poll_interval": 0.5, "presence_ttl": TTL})
    door = PtyDoor(door32(tmp_path / "door32.sys", "DoorDan"), url, tmp_path / "door.log", "--config", str(cfg))
    zed: RawCaller | None = None
    try:
        await asyncio.to_thread(door.wait_for, "Your choice", 60)
        door.send("W")
        await asyncio.to_thread(door.wait_for, "Who's online", 15)
        assert "DoorDan" in door.view.text and "zed" not in door.view.text

        # A telnet caller of the serve process arrives; the door's W)ho shows them.
        zed = await RawCaller.connect(srv.port, term="xterm")
        await login(zed, "zed", "zed-secret", new=True)
        door_saw = await asyncio.to_thread(door_until, door, "zed", True)
        # And the serve caller's W)ho shows the door's caller, with where each is.
        zed.send("W")
        await zed.wait_for("Who's online")
        serve_saw = await until_who_shows(zed, lambda t: "DoorDan" in t and "zed" in t, "both callers")
        text = zed.text
        assert "at the menu" in text
        print(
            f"\nthe door's W)ho showed the telnet caller after {door_saw:.2f} s; "
            f"serve's W)ho showed the door caller after {serve_saw:.2f} s"
        )
        assert door_saw < 5 and serve_saw < 5

        # kill -9 the door: nothing of it runs to remove its row; the row expires.
        killed = time.monotonic()
        door.proc.kill()
        door.proc.wait(10)
        zed.send("\r")
        await zed.settle(0.2)
        still = "DoorDan" in zed.text
        gone = await until_who_shows(
            zed, lambda t: "DoorDan" not in t and "zed" in t, "the killed caller gone", timeout=TTL * 5
        )
        took = time.monotonic() - killed
        print(
            f"the killed door's caller left W)ho {took:.2f} s after the kill "
            f"(TTL {TTL:.0f} s; shown just after the kill: {still})"
        )
        assert gone >= 0 and took <= TTL + 3
    finally:
        if zed is not None:
            zed.close()
        door.close()
        srv.stop()
