"""A BBS closing a door with SIGTERM (the sysop's 'kick node', a shutdown): the half-played turn
is kept as a hang-up keeps it, and the door ends cleanly."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import pytest
from doorharness import PtyDoor, door32
from test_door_e2e import game_waiting_for

from bgdoor.service import Service

pytestmark = pytest.mark.timeout(120)


def test_sigterm_keeps_the_turn_half_played_and_ends_the_door(tmp_path: Path) -> None:
    """SIGTERM had killed the door outright: the moves on the board went with it."""
    url = f"sqlite:///{tmp_path}/bg.db"
    game_id = game_waiting_for(url, "Termed")
    door = PtyDoor(door32(tmp_path / "door32.sys", "Termed"), url, tmp_path / "door.log")
    try:
        door.wait_for("1 game waiting")
        door.send("P")
        door.wait_for("Your turn 3-1")
        door.send("\r2" + "6" * 2 + "\r")  # the cursor starts on 13: 13 to 10
        door.wait_for("Moved 13/10")
        door.proc.send_signal(signal.SIGTERM)
        assert door.wait_exit(timeout=10) == 0
    finally:
        door.close()
    with Service(url) as svc:
        player = svc.enter_from_door("Termed").id
        draft = svc.draft(player, game_id)
    assert draft is not None and draft.moves == ((13, 10),), draft


def _after(raw: bytes, mark: bytes) -> bytes:
    """What the door wrote after the last `mark`."""
    return raw[raw.rindex(mark) + len(mark):]


def test_sigterm_at_the_menu_says_so_and_gives_the_terminal_back(tmp_path: Path) -> None:
    """The caller is still on the BBS: the door had left without a word, bright yellow on and the
    log saying 'hang-up'."""
    url = f"sqlite:///{tmp_path}/bg.db"
    door = PtyDoor(door32(tmp_path / "door32.sys", "Kicked"), url, tmp_path / "door.log")
    try:
        door.wait_for("Your choice")
        door.settle()
        before = len(door.view.raw)
        door.proc.send_signal(signal.SIGTERM)
        assert door.wait_exit(timeout=10) == 0
        door.settle()
    finally:
        door.close()
    raw = bytes(door.view.raw)
    said = " ".join(door.view.text.split())
    assert "The BBS is closing the door. Back to the BBS." in said, said
    tail = raw[before:]
    assert b"\x1b[0m" in _after(tail, b"The BBS is closing the door"), tail
    assert _after(raw, b"\x1b[?25l").endswith(b"\x1b[?25h"), raw[-200:]  # the cursor shown, last
    log = (tmp_path / "door.log").read_text()
    assert "session end Kicked@node 1: closed by the BBS" in log, log


def test_sigterm_on_the_board_says_the_game_waits(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bg.db"
    game_waiting_for(url, "Boarded")
    door = PtyDoor(door32(tmp_path / "door32.sys", "Boarded"), url, tmp_path / "door.log")
    try:
        door.wait_for("1 game waiting")
        door.send("P")
        door.wait_for("Your turn 3-1")
        door.settle()
        door.proc.send_signal(signal.SIGTERM)
        assert door.wait_exit(timeout=10) == 0
        door.settle()
    finally:
        door.close()
    raw = bytes(door.view.raw)
    said = " ".join(door.view.text.split())
    assert "The BBS is closing the door. Your games wait for you as you left them. Back to the BBS." in said, said
    assert "Your turn" not in said, said  # alone on the screen, as the time-up notice is
    assert b"\x1b[0m" in _after(raw, b"The BBS is closing the door"), raw[-200:]
    assert _after(raw, b"\x1b[?25l").endswith(b"\x1b[?25h"), raw[-200:]
    assert "closed by the BBS" in (tmp_path / "door.log").read_text()


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_signals_while_the_door_ends_do_not_kill_it(tmp_path: Path, signum: int) -> None:
    """A SIGHUP, then more as the pty closes: one arriving after the handlers were taken away had
    killed the door (status -1) after its log said it ended cleanly."""
    url = f"sqlite:///{tmp_path}/bg.db"
    for attempt in range(3):
        door = PtyDoor(door32(tmp_path / "door32.sys", "Twice"), url, tmp_path / "door.log", controlling=True)
        closed = False
        try:
            door.wait_for("Your choice")
            door.settle()
            door.proc.send_signal(signum)
            end = time.monotonic() + 10
            started = time.monotonic()
            # Signals all through the door's way out, and the master closed (the kernel's SIGHUP).
            while door.proc.poll() is None and time.monotonic() < end:
                with contextlib.suppress(ProcessLookupError):
                    door.proc.send_signal(signal.SIGHUP)
                if not closed and time.monotonic() - started > 0.1 * (attempt + 1):
                    os.close(door.master)
                    closed = True
                time.sleep(0.003)
            assert door.proc.wait(timeout=5) == 0, attempt
        finally:
            if not closed:
                door.close()
            elif door.proc.poll() is None:
                door.proc.kill()
                door.proc.wait()


def _blocked(native_id: int) -> set[int]:
    """The signals the thread blocks, from /proc/self/task/<tid>/status's SigBlk mask."""
    for line in Path(f"/proc/self/task/{native_id}/status").read_text().splitlines():
        if line.startswith("SigBlk:"):
            mask = int(line.split()[1], 16)
            return {n for n in range(1, 65) if mask >> (n - 1) & 1}
    return set()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads threads' signal masks from /proc")
def test_every_thread_the_door_starts_leaves_signals_to_the_main_thread(tmp_path: Path) -> None:
    """The door, on its way out, has SIGHUP's default action back for a moment with it blocked on
    the main thread: a worker thread that took it then killed the door (status -1).  So no
    thread the application starts takes SIGHUP or SIGTERM."""
    import asyncio  # noqa: PLC0415
    import threading  # noqa: PLC0415

    from bgdoor.app import running  # noqa: PLC0415
    from bgdoor.config import Config  # noqa: PLC0415

    before = {t.ident for t in threading.enumerate()}

    async def session() -> dict[str, set[int]]:
        config = Config(database_url=f"sqlite:///{tmp_path}/bg.db")
        with Service(config.database_url) as service:
            async with running(config, service) as runtime:
                await runtime.service.register("Ada", "secret words")  # the scrypt and account threads
                await runtime.service.rankings()  # a read
                await asyncio.to_thread(lambda: None)  # the loop's default workers
                await asyncio.sleep(0.2)  # the feed's thread looks
                return {t.name: _blocked(t.native_id or 0) for t in threading.enumerate()
                        if t.ident not in before or t.name == "scrypt"}

    threads = asyncio.run(session())
    assert {"scrypt", "asyncio_0"} <= set(threads) and any(n.startswith("db-read") for n in threads), threads
    assert any(n.startswith("db-feed") for n in threads) and any(n.startswith("db-account") for n in threads), threads
    for name, blocked in threads.items():
        assert {signal.SIGHUP, signal.SIGTERM} <= blocked, (name, sorted(blocked))


def test_a_sigterm_right_after_a_hang_up_leaves_it_a_hang_up(tmp_path: Path) -> None:
    """A BBS that sends SIGHUP and SIGTERM together as the carrier drops: the log had said 'closed
    by the BBS' of a caller who hung up."""
    url = f"sqlite:///{tmp_path}/bg.db"
    door = PtyDoor(door32(tmp_path / "door32.sys", "Dropped"), url, tmp_path / "door.log")
    try:
        door.wait_for("Your choice")
        door.settle()
        door.proc.send_signal(signal.SIGHUP)
        door.proc.send_signal(signal.SIGTERM)
        assert door.wait_exit(timeout=10) == 0
    finally:
        door.close()
    log = (tmp_path / "door.log").read_text()
    assert "session end Dropped@node 1: hang-up" in log, log
