"""Leaving cleanly: the terminal as it was found, the goodbye readable, the reason logged,
nothing written to the BBS's current directory, and a server that says it is going down."""

from __future__ import annotations

import asyncio
import re
import signal
import time
from pathlib import Path

import menus
from doorharness import PtyDoor, door32
from harness import running_server
from rawtelnet import RawCaller, login
from serverproc import ServerProcess

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service
from bgdoor.transport.door import _process_age, door_deadline

CSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def last_control(data: bytes) -> bytes:
    found = CSI.findall(bytes(data))
    return found[-1] if found else b""


def test_a_door_quits_with_the_cursor_shown_and_writes_nothing_where_it_was_started(tmp_path: Path) -> None:
    bbs = tmp_path / "bbs"  # where the BBS starts the door: must stay empty
    bbs.mkdir()
    home = tmp_path / "bgdoor"
    home.mkdir()
    cfg = home / "door.cfg"
    cfg.write_text("[database]\nurl = sqlite:///bg.db\n[door]\ngoodbye_wait = 1.5\n")  # relative: beside door.cfg
    door = PtyDoor(door32(tmp_path / "door32.sys", "Leaver"), None, None, "--config", str(cfg), cwd=bbs)
    try:
        door.wait_for("Your choice")
        door.send("Q")
        door.wait_for("Thanks for playing")
        shown = time.monotonic()
        assert door.wait_exit(timeout=15) == 0
        assert time.monotonic() - shown >= 1.0  # the goodbye stayed up before the BBS came back
        door.pump(0.2)
        assert "Returning you to the BBS" in door.view.text
    finally:
        door.close()
    assert last_control(door.view.raw) == b"\x1b[?25h"
    assert b"\x1b[?25l" in door.view.raw  # it was hidden, and shown again last
    assert list(bbs.iterdir()) == []
    assert (home / "bg.db").exists()
    log = (home / "door.log").read_text()
    assert "session end Leaver@node 1: quit" in log
    assert "alembic" not in log.lower()


def test_a_plain_ascii_door_leaves_the_cursor_under_its_goodbye(tmp_path: Path) -> None:
    """With plain ASCII (emulation 0) the goodbye left the cursor where the menu's prompt had
    been, rows below it, for the BBS to write its next line over the old screen."""
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[door]\ngoodbye_wait = 0.5\n")
    drop = door32(tmp_path / "door32.sys", "Plain", emulation=0)
    door = PtyDoor(drop, f"sqlite:///{tmp_path}/bg.db", tmp_path / "d.log", "--config", str(cfg))
    try:
        door.wait_for("Your choice")
        door.send("Q")
        assert door.wait_exit(timeout=15) == 0
        door.pump(0.2)
    finally:
        door.close()
    rows = door.view.screen.display
    last = max(i for i, line in enumerate(rows) if line.strip())
    assert "Returning you to the BBS" in rows[last], rows
    assert (door.view.screen.cursor.y, door.view.screen.cursor.x) == (last + 1, 0), door.view.text


def test_an_idle_door_caller_is_told_they_go_back_to_the_bbs(tmp_path: Path) -> None:
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[door]\nidle_timeout = 2\ngoodbye_wait = 1\n")
    drop = door32(tmp_path / "door32.sys", "Dozer")
    door = PtyDoor(drop, f"sqlite:///{tmp_path}/bg.db", tmp_path / "d.log", "--config", str(cfg))
    try:
        door.wait_for("Your choice")
        assert door.wait_exit(timeout=20) == 0
        said = " ".join(door.view.text.split())
        # A new player, no games: nothing said of games waiting.
        assert "No key was pressed for too long. Back to the BBS." in said, said
    finally:
        door.close()
    assert last_control(door.view.raw) == b"\x1b[?25h"
    assert "session end Dozer@node 1: idle" in (tmp_path / "d.log").read_text()


async def test_sigterm_tells_every_caller_and_ends_cleanly(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bg.db"
    server = ServerProcess(tmp_path, url).start()
    try:
        alice = await RawCaller.connect(server.port)
        await login(alice, "alice", "alice-secret", new=True)
        stranger = await RawCaller.connect(server.port)
        await stranger.wait_for("Handle:")
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        for caller in (alice, stranger):
            await caller.wait_for("The server is going down now. Your games are saved")
            assert await caller.wait_closed(timeout=20)
            assert last_control(caller.data) == b"\x1b[?25h"
        assert await asyncio.get_running_loop().run_in_executor(None, server.proc.wait, 30) == 0
    finally:
        server.stop()
    err = server.all_stderr()
    assert "session end alice@127.0.0.1: server shutting down" in err
    assert "alembic" not in err.lower()


def test_a_door_callers_time_is_up_early_enough_for_the_goodbye() -> None:
    """With three minutes in DOOR32.SYS and `goodbye_wait = 3`, 'Your time for this call is used
    up' came at 181 s and the door exited at 185 s: past the time the BBS gave the call."""
    assert door_deadline(1000.0, 3, 3.0) == 1000.0 + 180 - 3  # the goodbye ends at 180 s
    assert door_deadline(1000.0, 3, 0.0) == 1000.0 + 180
    assert door_deadline(1000.0, 0, 3.0) == 1000.0  # no time at all: back at once, not before now
    # And the time runs from when the BBS started the door, not from its first screen.
    assert 0.0 < _process_age() < time.monotonic()


def test_a_socket_handle_that_is_not_open_here_is_logged(tmp_path: Path) -> None:
    """DOOR32.SYS naming socket 57, not open in the door: standard I/O is used, as documented,
    and now the log says so (it said nothing, and a sysop chasing lost keys had no clue)."""
    drop = door32(tmp_path / "door32.sys", "Socky", handle=57)
    door = PtyDoor(drop, f"sqlite:///{tmp_path}/bg.db", tmp_path / "d.log")
    try:
        door.wait_for("Your choice")
        door.send("Q")
        assert door.wait_exit(timeout=20) == 0
    finally:
        door.close()
    assert "socket handle 57, which is not an open socket here" in (tmp_path / "d.log").read_text()


def test_an_idle_door_caller_whose_last_game_went_is_not_told_games_wait(tmp_path: Path) -> None:
    """Dozer began a game with an open seat and withdrew it: idle at the menu afterwards, he was
    told 'Your games wait for you as you left them.' with no game left (it was worked out at the
    log-in and when a board opened, never again)."""
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[door]\nidle_timeout = 4\ngoodbye_wait = 1\n")
    drop = door32(tmp_path / "door32.sys", "Dozer")
    door = PtyDoor(drop, f"sqlite:///{tmp_path}/bg.db", tmp_path / "d.log", "--config", str(cfg))
    try:
        door.wait_for("Your choice")
        door.begin_open_seat()
        door.send("W")
        door.wait_for("Y/N")
        door.send("Y")
        door.wait_for("is withdrawn")
        assert door.wait_exit(timeout=20) == 0
        said = " ".join(door.view.text.split())
        assert "No key was pressed for too long. Back to the BBS." in said, said
    finally:
        door.close()


async def test_a_caller_whose_last_match_ended_on_the_board_is_not_told_games_wait(tmp_path: Path) -> None:
    """dave's only match ended while he sat at its board (his opponent's resignation accepted), and
    the idle goodbye there said 'Your games wait for you as you left them.' with none left: it
    was said from the moment a board of his opened, and nothing took it back."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)  # alice starts with 3-1
    async with running_server(url, idle_timeout=8.0) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        try:
            await login(c, "alice", "alice-pw", new=False)
            await asyncio.sleep(1.0)  # the change feed's first look (every unfinished game) is done
            await menus.open_board(c)
            with Service(url) as svc:
                view = svc.resign(bob, view.id, svc.game(view.id).version, Win.SINGLE)
                svc.answer_resign(alice, view.id, view.version, True)
            await c.wait_words("You won the match")
            assert await c.wait_closed(timeout=20)
            said = " ".join(c.text.split())
            assert "No key was pressed for too long. Goodbye!" in said, said
        finally:
            c.abort()
