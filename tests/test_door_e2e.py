"""`bgdoor door` as a BBS runs it: drop files, a pty or an inherited socket, many nodes on one database."""

from __future__ import annotations

import asyncio
import fcntl
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from doorharness import PtyDoor, Screen, door32
from harness import call, login, running_server
from menus import open_game
from test_dropfile import chain_lines, door32_lines, doorsys_lines, dorinfo_lines, write

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Phase
from bgdoor.rules.moves import legal_plays
from bgdoor.service import Service
from bgdoor.service.sysop import Sysop

pytestmark = pytest.mark.timeout(120)

KINDS = [
    ("door32.sys", door32_lines(alias="Gammon Joe", comm="2", handle="-1"), "Gammon Joe"),
    ("DOOR.SYS", doorsys_lines(alias="Stud"), "Stud"),
    ("DORINFO1.DEF", dorinfo_lines(), "Jose Canseco"),
    ("CHAIN.TXT", chain_lines(), "MRBILL"),
]


def game_waiting_for(url: str, alias: str) -> int:
    """A 1-point game where `alias` (White) is to play an opening 3-1."""
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        opp = svc.register("Opponent", "opp-pass")
        svc.enter_from_door(alias)
        view = svc.begin_game(opp.id, 1, Color.BLACK, opponent=alias)
        view = svc.roll(opp.id, view.id, view.version)
        assert view.state.turn is Color.WHITE and view.state.dice == (3, 1)
        return view.id


@pytest.mark.parametrize(("name", "lines", "alias"), KINDS, ids=[k[0] for k in KINDS])
def test_each_drop_file_plays_a_turn_and_quits(tmp_path: Path, name: str, lines: list[str], alias: str) -> None:
    url = f"sqlite:///{tmp_path}/bg.db"
    game_id = game_waiting_for(url, alias)
    drop = write(tmp_path, name, lines)
    door = PtyDoor(drop, url, tmp_path / "door.log")
    try:
        door.wait_for(f"Welcome, {alias}")
        door.wait_for("1 game waiting")
        door.send("P")
        door.wait_for("Your turn 3-1")
        door.send("M")
        door.wait_for("Your play")
        door.send("8/5 6/5\r")
        door.wait_for("Turn sent")
        door.send("Q")
        door.wait_for("Your choice")
        door.send("Q")
        assert door.wait_exit() == 0
    finally:
        door.close()
    with Service(url) as svc:
        st = svc.game(game_id).state
        assert st.turn is Color.BLACK and st.phase is Phase.ROLL
        assert st.position.opponent[4] == 2  # White made its 5 point
        assert svc.handle_exists(alias)
    # CHAIN.TXT names no node: the log says to give --node (it had said 'node ?' alone).
    warned = "does not say which node this is" in (tmp_path / "door.log").read_text()
    assert warned == (name == "CHAIN.TXT")


def test_the_node_given_on_the_command_line_is_the_one_logged(tmp_path: Path) -> None:
    """CHAIN.TXT names no node; the --node a BBS gives was in 'door start', and the login and
    the session's end said 'node None'."""
    drop = write(tmp_path, "CHAIN.TXT", chain_lines())
    door = PtyDoor(drop, f"sqlite:///{tmp_path}/bg.db", tmp_path / "door.log", "--node", "3")
    try:
        door.wait_for("Your choice")
        door.send("Q")
        assert door.wait_exit() == 0
    finally:
        door.close()
    log = (tmp_path / "door.log").read_text()
    assert "login MRBILL from node 3" in log and "session end MRBILL@node 3: quit" in log, log
    assert "None" not in log and "which node" not in log, log


def test_inherited_socket(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bg.db"
    game_id = game_waiting_for(url, "Sock")
    ours, theirs = socket.socketpair()
    drop = door32(tmp_path / "door32.sys", "Sock", comm=2, handle=theirs.fileno())
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bgdoor",
            "door",
            "--dropfile",
            str(drop),
            "--db",
            url,
            "--log",
            str(tmp_path / "door.log"),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        pass_fds=(theirs.fileno(),),
    )
    theirs.close()
    view = Screen("cp437")
    ours.settimeout(0.1)

    def wait_for(needle: str, timeout: float = 15.0) -> None:
        end = time.monotonic() + timeout
        while needle not in view.text:
            assert time.monotonic() < end, f"{needle!r} never appeared:\n{view.text}"
            try:
                data = ours.recv(65536)
            except TimeoutError:
                continue
            if not data:
                raise AssertionError(f"socket closed before {needle!r}:\n{view.text}")
            view.feed(data)

    try:
        wait_for("1 game waiting")
        ours.sendall(b"P")
        wait_for("Your turn 3-1")
        ours.sendall(b"M")
        wait_for("Your play")
        ours.sendall(b"8/5 6/5\r")
        wait_for("Turn sent")
        ours.sendall(b"QQ")
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        ours.close()
    with Service(url) as svc:
        assert svc.game(game_id).state.turn is Color.BLACK


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (None, "no such"),
        (b"", "empty"),
        (b"2\r\n-1\r\n38400\r\n", "line"),
        (b"2\r\n-1\r\n38400\r\nBBS\r\n1\r\nReal\r\nAlias\r\n20\r\nabc\r\n1\r\n1\r\n", "minutes"),
        (bytes(range(256)) * 4, ""),
    ],
)
def test_malformed_drop_files_exit_2_and_write_nothing(tmp_path: Path, content: bytes | None, why: str) -> None:
    drop = tmp_path / "door32.sys"
    if content is not None:
        drop.write_bytes(content)
    db = tmp_path / "bg.db"
    proc = subprocess.run(
        [sys.executable, "-m", "bgdoor", "door", "--dropfile", str(drop), "--db", f"sqlite:///{db}"],
        capture_output=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert err.count("\n") == 1 and err.startswith("bgdoor door:") and why in err.lower()
    assert "Traceback" not in err and proc.stdout == b""
    assert not db.exists()
    # Many BBSes throw a door's standard error away: the sysop finds it in the door's log too.
    logged = (tmp_path / "door.log").read_text()
    assert "cannot read the drop file" in logged and why in logged.lower(), logged


def test_idle_timeout_and_hangup_return_to_the_bbs(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bg.db"
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[door]\nidle_timeout = 2\n")
    door = PtyDoor(door32(tmp_path / "door32.sys", "Idler"), url, tmp_path / "door.log", "--config", str(cfg))
    try:
        door.wait_for("Your choice")
        start = time.monotonic()
        # The time left from the drop file (60 minutes), on the menu: the warning two minutes before
        # the end goes at the next key, and nothing said it again.
        quit_item = re.search(r"Q\)uit, back to the BBS \((59|60) minutes left on this call\)", door.view.text)
        assert quit_item, door.view.text
        assert door.wait_exit(timeout=20) == 0
        assert time.monotonic() - start < 10
        said = " ".join(door.view.text.split())
        # A new player, no games: nothing said of games waiting.
        assert "No key was pressed for too long. Back to the BBS." in said, said
    finally:
        door.close()
    door = PtyDoor(door32(tmp_path / "door32.sys", "Hanger"), url, tmp_path / "door.log")
    try:
        door.wait_for("Your choice")
        door.send("B")
        door.wait_for("Match length")
        door.proc.send_signal(signal.SIGHUP)
        assert door.wait_exit(timeout=10) == 0
    finally:
        door.close()
    with Service(url) as svc:
        assert svc.handle_exists("Idler") and svc.handle_exists("Hanger")


def _menu_column(text: str) -> int | None:
    for line in text.splitlines():
        if "V)iew games" in line:
            return line.index("V)iew games") + 1
    return None


def _menu_laid_out(door: PtyDoor, cols: int, rows: int, column: int) -> None:
    """The pty made `cols` x `rows`: the menu laid out again, its items at `column`, within them."""
    door.resize(cols, rows)
    end = time.monotonic() + 10
    while _menu_column(door.view.text) != column:
        assert time.monotonic() < end, f"the menu was not laid out for {cols} columns:\n{door.view.text}"
        door.pump()
    door.settle()
    lines = door.view.screen.display
    past = [line[cols:].rstrip() for line in lines if line[cols:].strip()]
    assert not past, f"drawn past the {cols} columns of the pty: {past}"
    assert not any(line.strip() for line in lines[rows:]), f"drawn below the pty's {rows} rows"


def test_a_resized_pty_redraws_the_screen_for_its_new_size(tmp_path: Path) -> None:
    """SIGWINCH: the door reads the pty's size again and redraws, as a telnet caller's NAWS does."""
    url = f"sqlite:///{tmp_path}/bg.db"
    door = PtyDoor(
        door32(tmp_path / "door32.sys", "Stretch"), url, tmp_path / "door.log",
        size=(80, 25), controlling=True, glass=(100, 30),
    )
    try:
        door.wait_for("Your choice")
        door.settle()
        assert _menu_column(door.view.text) == 16
        _menu_laid_out(door, 60, 24, 2)
        _menu_laid_out(door, 80, 25, 16)
        door.send("Q")
        assert door.wait_exit(timeout=15) == 0
    finally:
        door.close()


def test_a_pty_that_tells_its_size_only_later_is_followed(tmp_path: Path) -> None:
    """A pty of 0x0 at the start (the size unknown: the drop file's, else 80x25, is drawn on), then
    a real size: the door drew on at 80 columns into a 60-column window, SIGWINCH unheeded."""
    url = f"sqlite:///{tmp_path}/bg.db"
    door = PtyDoor(door32(tmp_path / "door32.sys", "Later"), url, tmp_path / "door.log",
                   controlling=True, glass=(100, 30))
    try:
        door.wait_for("Your choice")
        door.settle()
        assert _menu_column(door.view.text) == 16
        _menu_laid_out(door, 60, 24, 2)
        door.send("Q")
        assert door.wait_exit(timeout=15) == 0
    finally:
        door.close()


async def test_who_says_a_door_caller_on_the_goodbye_screen_is_leaving(tmp_path: Path) -> None:
    """W)ho said 'at the menu' of a door caller reading the goodbye (three seconds by default)."""
    url = f"sqlite:///{tmp_path}/bg.db"
    async with running_server(url) as srv:
        door = PtyDoor(door32(tmp_path / "leaver.sys", "Leaver"), url, tmp_path / "leaver.log")
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(None, door.wait_for, "Your choice")
            carol = await call(srv.port)
            await login(carol, "carol", "carol-pw", new=True)
            door.send("Q")
            await loop.run_in_executor(None, door.wait_for, "Thanks for playing")
            carol.send("W")
            said = " ".join((await carol.wait_words("saying goodbye")).split())
            assert "Leaver" in said and "Leaver here at the menu" not in said, said
            carol.close()
            assert await loop.run_in_executor(None, door.wait_exit) == 0
        finally:
            door.close()


async def test_two_door_nodes_and_a_telnet_watcher_share_one_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bg.db"
    async with running_server(url) as srv:
        db = Service(url)
        ann = PtyDoor(door32(tmp_path / "ann.sys", "Ann", node=1), url, tmp_path / "ann.log")
        ben = PtyDoor(door32(tmp_path / "ben.sys", "Ben", node=2), url, tmp_path / "ben.log")
        loop = asyncio.get_running_loop()

        async def wait(door: PtyDoor, needle: str) -> None:
            await loop.run_in_executor(None, door.wait_for, needle)

        try:
            await wait(ann, "Your choice")
            ann.send("B")
            await wait(ann, "Match length")
            ann.send("\r")
            await wait(ann, "Play as")
            ann.send("W")
            await wait(ann, "Opponent")
            ann.send("O")
            await wait(ann, "W)ithdraw")
            await wait(ben, "Your choice")
            ben.send("V")
            await wait(ben, "needs a player")
            ben.send("1\r")
            await wait(ben, "Join it?")
            ben.send("Y")
            await wait(ben, "roll for who starts")
            carol = await call(srv.port, term="xterm", charset="utf8")
            await login(carol, "carol", "carol-pw", new=True)
            await open_game(carol, expect="Watching this game")
            ben.send("P")  # the opening roll, made on node 2
            deadline = time.monotonic() + 10
            while db.game(1).state.phase is not Phase.MOVE:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            st = db.game(1).state
            mover, waiter = (ann, ben) if st.turn is Color.WHITE else (ben, ann)
            await wait(mover, "Your turn")
            play = legal_plays(st.position, st.dice)[0]
            version = db.game_version(1)
            mover.send("M")
            await wait(mover, "Your play")
            mover.send(str(play) + "\r")
            await wait(mover, "Turn sent")
            assert db.game_version(1) > version
            # The other node and the telnet watcher see it within a few seconds, without a key.
            await wait(waiter, "Your turn")
            await carol.wait_for(f"{'Ben' if st.turn is Color.WHITE else 'Ann'} to play")
            for door in (ann, ben):
                door.send("QQ")
                assert await loop.run_in_executor(None, door.wait_exit) == 0
            carol.close()
        finally:
            ann.close()
            ben.close()
            db.close()
        assert os.path.exists(tmp_path / "ann.log")


def door_on_a_pty(tmp_path: Path, *extra: str, stderr_on_pty: bool = False, cols: int = 80) -> tuple[int, bytes, float]:
    """`bgdoor door` on a drop file it cannot read, on a pty `cols` wide: its exit code, what the
    caller's terminal got, and how long it took."""
    drop = tmp_path / "door32.sys"
    drop.write_bytes(b"x\r\n")
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    try:
        began = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "bgdoor", "door", "--dropfile", str(drop), "--db", f"sqlite:///{tmp_path}/bg.db",
             *extra],
            stdin=slave, stdout=slave, stderr=slave if stderr_on_pty else subprocess.PIPE, timeout=30,
        )
        took = time.monotonic() - began
        os.close(slave)
        said = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            said += chunk
    finally:
        os.close(master)
    return proc.returncode, said, took


def test_a_malformed_drop_file_is_said_to_a_caller_on_the_terminal(tmp_path: Path) -> None:
    """Under a BBS that runs the door on the caller's terminal, a drop file it could not read left
    a blank screen: the BBS's menu came back with no word why."""
    code, said, took = door_on_a_pty(tmp_path)
    assert code == 2
    assert b"the BBS's drop file could not be read" in said, said
    # Left up for the goodbye's wait (3 s by default): the BBS's next screen had wiped it at once.
    assert took >= 2.5, took


def test_a_malformed_drop_file_shows_no_path_to_a_caller_whose_terminal_is_standard_error(tmp_path: Path) -> None:
    """A pty BBS gives the door's standard error to the caller's terminal too: the caller saw
    'bgdoor door: /bbs/node3/door32.sys: DOOR32.SYS line 9: ...', the BBS's paths cut at the
    screen's edge, over 'The sysop can see why in the door's log'.  The log has it."""
    log = tmp_path / "door.log"
    code, said, _ = door_on_a_pty(tmp_path, "--log", str(log), stderr_on_pty=True)
    assert code == 2
    assert b"the BBS's drop file could not be read" in said, said
    assert str(tmp_path).encode() not in said and b"bgdoor door:" not in said, said
    assert "DOOR32.SYS" in log.read_text()


def test_a_malformed_drop_file_is_said_within_a_narrow_terminal(tmp_path: Path) -> None:
    """At 40 columns the notice went out as one 120-character line, broken mid-word by the terminal."""
    code, said, _ = door_on_a_pty(tmp_path, cols=40)
    assert code == 2
    lines = [line.strip("\r") for line in said.decode("ascii").split("\n") if line.strip("\r")]
    assert lines and all(len(line) <= 40 for line in lines), lines
    assert "drop file could not be read" in " ".join(lines)


def test_the_ptys_size_wins_over_a_longer_page_length_in_door_sys(tmp_path: Path) -> None:
    """DOOR.SYS said a page of 25 lines on a 24-line pty: the time warning was drawn on rows 24-25,
    the screen scrolled up a line, and everything after was one line off."""
    url = f"sqlite:///{tmp_path}/bg.db"
    lines = doorsys_lines(alias="Stud", minutes="2")  # two minutes left: the time warning at once
    lines[20] = "25"  # line 21, the page length
    # 30 columns: the warning takes two rows, the last of them the screen's bottom one.
    door = PtyDoor(write(tmp_path, "DOOR.SYS", lines), url, tmp_path / "door.log", size=(30, 24), glass=(30, 30))
    try:
        door.wait_for("Back to the BBS")
        door.settle()
        screen = door.view.screen.display
        assert not any(line.strip() for line in screen[24:]), f"drawn below the pty's 24 rows:\n{door.view.text}"
        assert "Back to the BBS in 2 minutes." in " ".join(" ".join(screen[22:24]).split()), door.view.text
    finally:
        door.close()


def test_a_door_with_a_bad_door_cfg_tells_the_caller_plainly_and_logs_why(tmp_path: Path) -> None:
    """'port = abc' in door.cfg: the caller's screen showed the sysop's error, its path and all,
    the door left at once, and nothing was written to the log."""
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[server]\nport = abc\n")
    log_file = tmp_path / "door.log"
    door = PtyDoor(door32(tmp_path / "door32.sys", "Cfgtest"), f"sqlite:///{tmp_path}/bg.db", log_file,
                   "--config", str(cfg))
    try:
        door.wait_for("The sysop can see why in the door's log.")
        assert door.wait_exit(timeout=20) == 2
        said = " ".join(door.view.text.split())
        assert "its settings (door.cfg) could not be read" in said and str(tmp_path) not in said, said
        logged = log_file.read_text()
        assert "cannot read door.cfg" in logged and "[server] port must be a number" in logged, logged
    finally:
        door.close()


def test_a_bad_door_cfg_is_logged_beside_it_not_in_the_folder_the_bbs_starts_the_door_in(tmp_path: Path) -> None:
    """A door.cfg the door could not read, started from a node folder: the error went to a
    data/door.log made in that folder, and the door.log the sysop looks at had nothing."""
    bbs, node = tmp_path / "bgdoor", tmp_path / "node3"
    bbs.mkdir()
    node.mkdir()
    cfg = bbs / "door.cfg"
    cfg.write_text(f"[database]\nurl = sqlite:///{bbs}/bg.db\n[session]\nidle_timeout = 0\n")
    door = PtyDoor(door32(node / "door32.sys", "Cfgtest"), None, None, "--config", str(cfg), cwd=node)
    try:
        door.wait_for("The sysop can see why in the door's log.")
        assert door.wait_exit(timeout=20) == 2
    finally:
        door.close()
    assert sorted(p.name for p in node.iterdir()) == ["door32.sys"]
    logged = (bbs / "door.log").read_text()
    assert "cannot read door.cfg" in logged and "idle_timeout must be at least 1" in logged, logged


@pytest.mark.parametrize("url", ["sqlite3:///{tmp}/bg.db", "sqlite:///{tmp}/a-folder"])
def test_a_database_the_door_cannot_open_is_said_plainly_and_logged(tmp_path: Path, url: str) -> None:
    """A mistyped scheme ended the door in a traceback on a blank screen, the log silent; a folder
    for a file showed the caller the storage's words, cut mid-word at 80 columns."""
    (tmp_path / "a-folder").mkdir()
    log = tmp_path / "door.log"
    door = PtyDoor(door32(tmp_path / "door32.sys", "Dbtest"), url.format(tmp=tmp_path), log, size=(80, 24))
    try:
        assert door.wait_exit(timeout=20) == 1
        lines = [line.rstrip() for line in door.view.screen.display if line.strip()]
        said = " ".join(" ".join(lines).split())
        assert "Sorry, the backgammon door cannot start: its database cannot be opened." in said, lines
        assert all(len(line) < 80 for line in lines), lines
    finally:
        door.close()
    assert door.proc.stderr is not None
    err = door.proc.stderr.read().decode()
    assert "Traceback" not in err and err.startswith("bgdoor door: cannot open the database"), err
    assert "ERROR bgdoor.door: cannot open the database" in log.read_text()


def test_the_node_given_on_the_command_line_wins_over_a_wrong_node_line(tmp_path: Path) -> None:
    """DOOR32.SYS line 11 reading 'one' refused the caller even with --node 3, which the README
    gives for a node line that is wrong."""
    lines = door32_lines(alias="Nodey")
    lines[10] = "one"
    door = PtyDoor(write(tmp_path, "door32.sys", lines), f"sqlite:///{tmp_path}/bg.db", tmp_path / "door.log",
                   "--node", "3")
    try:
        door.wait_for("Your choice")
        door.send("Q")
        assert door.wait_exit() == 0
    finally:
        door.close()
    assert "login Nodey from node 3" in (tmp_path / "door.log").read_text()


def test_a_key_at_the_drop_file_notice_ends_its_wait_unechoed(tmp_path: Path) -> None:
    """A key pressed while 'the door cannot start' stood was echoed under it by the cooked pty,
    and did not end the wait, as a key ends the goodbye's."""
    drop = tmp_path / "door32.sys"
    drop.write_bytes(b"2\r\n-1\r\n38400\r\nBBS\r\n7\r\nReal\r\nalias\r\n20\r\nabc\r\n1\r\n1\r\n")
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[door]\ngoodbye_wait = 30\n")
    door = PtyDoor(drop, f"sqlite:///{tmp_path}/bg.db", tmp_path / "door.log", "--config", str(cfg),
                   size=(80, 24), controlling=True)
    try:
        door.wait_for("could not be read")
        door.send("Q")
        assert door.wait_exit(15) == 2  # the goodbye's 30 s, cut short by the key
        assert "Q" not in "".join(line.strip() for line in door.view.screen.display[3:]), door.view.text
    finally:
        door.close()


@pytest.mark.parametrize("minutes", [0, -5])
def test_a_caller_with_no_time_left_goes_back_before_being_entered(tmp_path: Path, minutes: int) -> None:
    """DOOR32.SYS with 0 (or -5) minutes left: the caller went back at once, as they should, but
    was made a player and logged as logged in first, though they never saw the menu."""
    drop = door32(tmp_path / "door32.sys", "hank", minutes=minutes)
    url = f"sqlite:///{tmp_path}/bg.db"
    log = tmp_path / "door.log"
    door = PtyDoor(drop, url, log, size=(80, 24), controlling=True)
    try:
        door.wait_for("Your time for this call is used up")
        assert door.wait_exit(15) == 0
    finally:
        door.close()
    assert "login hank" not in log.read_text()
    # What the file said, where it was below 0: '0 minutes' alone had hidden the -5.
    assert ("0 minutes (the drop file says -5)" in log.read_text()) == (minutes < 0), log.read_text()
    with Service(url) as svc:
        assert "hank" not in [p.handle for p in Sysop(svc).players()]
