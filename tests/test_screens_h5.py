"""A play-tester's findings: the goodbye at the end of a call stands alone on the screen, a call
that starts under the time warning is warned, and W)ho's online tells one player's sessions apart."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from doorharness import PtyDoor, door32
from harness import call, running_server
from menus import login as menu_login
from rawtelnet import RawCaller, login
from test_door_e2e import game_waiting_for
from test_term_console import FakeLink, shown

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color
from bgdoor.service import OnlineRow, Service
from bgdoor.term.console import Console, Hangup
from bgdoor.transport.link import SHUTDOWN_NOTICE
from bgdoor.ui.session import who_lines

pytestmark = pytest.mark.timeout(120)

SIZES = [(40, 24), (80, 25), (20, 10)]


def words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


def only(lines: list[str], text: str) -> None:
    """Nothing on the screen but `text` (wrapped over however many rows it takes)."""
    used = [line for line in lines if line.strip()]
    assert words(used) == text, "\n".join(lines)


async def started(cols: int, rows: int, **limits: float) -> tuple[Console, FakeLink]:
    link = FakeLink()
    con = Console(link, charset="utf8", width=cols, height=rows, door=True, **limits)  # type: ignore[arg-type]
    await con.start()
    return con, link


def board_like(con: Console) -> None:
    """A screen of keys that work only while it is up: a board's text and its help line."""
    for row in range(1, con.height - 2):
        con.put(row, 2, "13 14 15 16 17 18 BAR 19 20 21 22 23 24"[: con.width - 2])
    con.put(con.height - 2, 2, "Moved 13/11; the 1 to play."[: con.width - 2])
    con.put(con.height, 2, "V)iew last  I)D  ?)help  Q)uit"[: con.width - 2])


# ------------------------------------------------------------------ 1. the goodbye alone


@pytest.mark.parametrize(("cols", "rows"), SIZES, ids=[f"{c}x{r}" for c, r in SIZES])
@pytest.mark.parametrize("why", ["time", "idle"])
async def test_the_last_words_stand_on_a_screen_that_offers_nothing_else(why: str, cols: int, rows: int) -> None:
    """'Your time for this call is used up. Back to the BBS.' was drawn over the board, its
    help line of keys (that did nothing now) under it, for the whole goodbye wait."""
    limits = {"deadline": time.monotonic() + 0.2, "time_warning": 0.0} if why == "time" else {"idle_timeout": 0.2}
    con, link = await started(cols, rows, **limits)
    board_like(con)
    con.text_cursor((rows - 1, 10))  # a play being typed
    await con.show()
    with pytest.raises(Hangup, match=why):
        await con.key()
    await con.stop()
    said = ("Your time for this call is used up. Back to the BBS." if why == "time"
            else "No key was pressed for too long. Back to the BBS.")
    only(shown(bytes(link.out), cols, rows), said)


async def test_the_login_clock_says_its_goodbye_alone_too() -> None:
    con, link = await started(40, 24, idle_timeout=0.2)
    con.idle_notice = "Time to log in is up. Goodbye."
    con.put(10, 3, "Enter your handle, or a new one.")
    con.put(12, 3, "Handle:")
    await con.show()
    with pytest.raises(Hangup):
        await con.key()
    only(shown(bytes(link.out), 40, 24), "Time to log in is up. Goodbye.")
    await con.stop()


@pytest.mark.parametrize(("cols", "rows"), [(40, 24), (80, 25)], ids=["40x24", "80x25"])
def test_a_door_call_whose_time_runs_out_mid_play_ends_on_the_goodbye_alone(
    tmp_path: Path, cols: int, rows: int
) -> None:
    """carol, a one-minute DOOR32.SYS, the M) typed-play prompt open on the board with '8/5'
    typed: the goodbye covered the typed line, the board all round it."""
    url = f"sqlite:///{tmp_path}/bg.db"
    game_waiting_for(url, "carol")
    cfg = tmp_path / "door.cfg"
    # The goodbye's wait comes out of the call's minute: her time is up some 10 s in.
    cfg.write_text("[door]\ngoodbye_wait = 50\n")
    drop = door32(tmp_path / "door32.sys", "carol", minutes=1)
    door = PtyDoor(drop, url, tmp_path / "d.log", "--config", str(cfg), size=(cols, rows))
    try:
        door.wait_for("Your choice")
        door.send("P")
        if cols < 80:
            door.wait_for("Enter goes on")
            door.send("\r")
        door.wait_for("M)ove typed")
        door.send("M")
        door.wait_for("Your play")
        door.send("8/5")
        door.wait_for("used up", timeout=30)
        door.settle()
        only(door.view.screen.display,
             "Your time for this call is used up. Your games wait for you as you left them. Back to the BBS.")
        door.send(" ")  # the goodbye's wait ends at a key
        assert door.wait_exit() == 0
    finally:
        door.close()


async def test_the_server_going_down_is_said_on_a_screen_of_its_own(tmp_path: Path) -> None:
    """SIGTERM's notice went over the bottom of the menu, whose items stayed beside it."""
    async with running_server(f"sqlite:///{tmp_path}/bg.db") as srv:
        caller = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        try:
            await login(caller, "alice", "alice-secret", new=True)
            await caller.wait_for("Your choice")
            await srv.shutdown(grace=5.0)
            assert await caller.wait_closed(timeout=20)
            only(caller.lines(), SHUTDOWN_NOTICE)
        finally:
            caller.abort()


# ------------------------------------------------------------------ 2. a warning already due


async def test_a_time_warning_already_due_stays_up_over_a_screen_redrawn_under_it() -> None:
    """A call with 30 s left: the warning came at the menu's first wait, and the menu, redrawn
    at once for a change to a game, wiped it; nothing said it again before the call was cut."""
    con, link = await started(40, 24, deadline=time.monotonic() + 30, time_warning=120.0)
    board_like(con)
    await con.show()
    assert await con.key(timeout=0.1) is None  # the warning comes here
    con.clear()
    board_like(con)  # a change elsewhere: the screen is drawn again, with no key pressed
    await con.show()
    said = words(shown(bytes(link.out), 40, 24))
    assert "Back to the BBS in less than a minute." in said, said
    # The next key takes it away, and it does not come again.
    link.send(b"x")
    assert (await con.key(timeout=1)).char == "x"  # type: ignore[union-attr]
    await con.show()
    assert await con.key(timeout=0.1) is None
    assert "Back to the BBS" not in words(shown(bytes(link.out), 40, 24))
    await con.stop()


async def test_a_time_warning_stays_up_over_a_resize() -> None:
    """A window resized (SIGWINCH on a door's pty) took the time warning away for good, as a key
    does; the time runs out all the same."""
    con, link = await started(80, 25, deadline=time.monotonic() + 30, time_warning=120.0)
    board_like(con)
    await con.show()
    assert await con.key(timeout=0.1) is None  # the warning comes here
    con.resize(80, 24)
    assert await con.key(timeout=0.2) is None  # the resize, read as the key wait goes on
    con.clear()
    board_like(con)  # laid out again for the new size
    await con.show()
    said = words(shown(bytes(link.out), 80, 24))
    assert "You have less than a minute left on this call; then you go back to the BBS." in said, said
    await con.stop()


async def test_a_time_warning_already_due_waits_for_keys_typed_ahead() -> None:
    """P typed before the menu's first wait: the warning went up and the P took it away at once,
    before it could be read; the board, where she was cut off, said nothing."""
    con, link = await started(40, 24, deadline=time.monotonic() + 30, time_warning=120.0)
    link.send(b"P")
    await asyncio.sleep(0.05)
    assert (await con.key(timeout=1)).char == "P"  # type: ignore[union-attr]
    board_like(con)  # the board, entered with the P
    await con.show()
    assert await con.key(timeout=0.1) is None
    said = words(shown(bytes(link.out), 40, 24))
    assert "Back to the BBS in less than a minute." in said, said
    await con.stop()


def test_a_door_call_with_a_minute_left_is_warned_at_the_menu(tmp_path: Path) -> None:
    """carol, 40x24, a DOOR32.SYS with 1 minute left: the menu's Q)uit said 'less than a minute
    left', and no warning stayed on the screen to say that the call ends by itself."""
    url = f"sqlite:///{tmp_path}/bg.db"
    game_waiting_for(url, "carol")  # a game of hers changed just before: the menu is redrawn
    drop = door32(tmp_path / "door32.sys", "carol", minutes=1)
    door = PtyDoor(drop, url, tmp_path / "d.log", size=(40, 24))
    try:
        door.wait_for("Your choice")
        door.settle(1.0)
        said = words(door.view.screen.display)
        assert "Back to the BBS in less than a minute." in said, said
        door.send("Q")
        assert door.wait_exit() == 0
    finally:
        door.close()


# ------------------------------------------------------------------ 3. one player, two nodes


@pytest.mark.parametrize(("cols", "rows"), [(40, 24), (80, 25)], ids=["40x24", "80x25"])
async def test_whos_online_says_once_that_a_player_is_in_on_two_nodes(tmp_path: Path, cols: int, rows: int) -> None:
    """alice in on two door nodes at once, in the same game: 'alice  here  playing game #3' stood
    on two lines with nothing to tell them apart."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        game = svc.begin_game(alice, 1, Color.WHITE, "bob").id
        for node in (1, 2):
            svc.presence_set(f"node{node}", f"door-node-{node}", alice, "", "playing", game)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=cols, rows=rows)
        await menu_login(c, "carol", "carol-pw", new=True)
        c.send("W")
        await c.wait_for("Enter looks again")
        text = " ".join(c.text.split())
        assert "Who's online: 3 callers" in text, c.text
        assert text.count("alice") == 1, c.text
        assert f"playing game #{game} (2 sessions)" in text, c.text
        assert all(len(line.rstrip()) < cols for line in c.screen.display), c.text
        c.close()


def test_whos_lines_are_one_a_player() -> None:
    """One line a player, what each session does said once: the same player on two lines, one
    playing and one at the menu, read as two players.  A player of another board is another."""
    now = datetime.now(UTC)
    rows = [OnlineRow("alice", "", "playing", 3, now), OnlineRow("bob", "", "menu", None, now),
            OnlineRow("alice", "", "playing", 3, now), OnlineRow("alice", "", "watching", 4, now),
            OnlineRow("alice", "DP", "playing", 3, now)]
    assert [(r.name, r.board, doing, n) for r, doing, n in who_lines(rows)] == [
        ("alice", "", "playing game #3; watching game #4 (3 sessions)", 3),
        ("bob", "", "at the menu", 1),
        ("alice", "DP", "playing game #3", 1),
    ]
