"""Terminal injection: nothing one caller types reaches another caller's screen as control bytes.

Attackers on CP437 and UTF-8 terminals type handles full of ESC and CSI sequences,
8-bit and UTF-8 C1 controls, OSC strings, BEL, NUL, bidi overrides and isolates and
zero-width characters, then begin games so their names are listed and drawn on
boards; a BBS hands the door an alias full of the same.  Victims on CP437, UTF-8
and plain ASCII terminals list the games and sit down at one.  Every byte the
victims receive must be the server's own drawing (rawtelnet.screen_bytes_problem),
and every handle stored must be printable text.
"""

from __future__ import annotations

import asyncio

import pytest
from doorharness import PtyDoor, door32
from menus import begin, on_board, open_game, to_board
from rawtelnet import RawCaller, login, screen_bytes_problem
from serverproc import ServerProcess
from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from bgdoor.service import Service
from bgdoor.store.models import Player

pytestmark = pytest.mark.timeout(180)

HOSTILE_HANDLES: list[tuple[str, bytes]] = [
    ("ansi", b"\x1b[2J\x1b[31mEv1"),
    ("xterm", b"\x1b[2J\x1b[31mEv2"),
    ("ansi", b"\x9b2J\x9b31mEv3"),  # 8-bit CSI: a CP437 glyph
    ("xterm", b"\xc2\x9b2J\xc2\x9b31mEv4"),  # U+009B, CSI as UTF-8
    ("xterm", "\u202eEv5\u202c".encode()),  # right-to-left override
    ("ansi", b"\x1b]0;owned\x07Ev6"),  # OSC: set the window title
    ("xterm", b"Ev7\x07\x07\x00\x0e\x0f"),  # BEL, NUL, SO, SI
    ("xterm", "\u2066Ev8\u2069\u200b".encode()),  # isolates, zero width
    ("xterm", b"\x1bP+q544e\x1b\\Ev9"),  # DCS: ask the terminal for its settings
    ("xterm", b"\xed\xa0\x80\xc0\xafEv10"),  # a lone surrogate and an overlong slash
]


async def register_and_begin(port: int, term: str, handle: bytes) -> bool:
    """Type the handle; if the server offers to create it, do so and begin an open game."""
    c = await RawCaller.connect(port, term=term)
    try:
        await c.wait_for("Handle:")
        c.send(handle + b"\r")
        try:
            await c.wait_for("Create it?", 10)
        except AssertionError:
            return False  # nothing of the handle survived, or it was refused
        c.send("Y")
        await c.wait_for("Choose a password")
        c.send("secret-pw\r")
        await c.wait_for("Type it again")
        c.send("secret-pw\r")
        await c.wait_for("Your choice")
        await begin(c)
        return True
    finally:
        c.close()


def stored_handles(url: str) -> list[str]:
    with Service(url) as svc, OrmSession(svc.engine) as s:
        return list(s.scalars(select(Player.handle)))


async def test_hostile_handles_reach_no_screen_as_controls(tmp_path):
    url = f"sqlite:///{tmp_path}/bg.db"
    srv = ServerProcess(tmp_path, url).start()
    door = None
    try:
        made = [await register_and_begin(srv.port, term, raw) for term, raw in HOSTILE_HANDLES]
        assert sum(made) >= 6, made

        # A BBS passes the door an alias with the same tricks (drop files are read as CP437).
        drop = door32(tmp_path / "DOOR32.SYS", "x")
        lines = drop.read_bytes().split(b"\r\n")
        lines[6] = b"\x1b[2J\x9b31mDoor\x1b]0;t\x07Evil\xff"
        drop.write_bytes(b"\r\n".join(lines))
        door = PtyDoor(drop, url, tmp_path / "door.log")
        door.wait_for("Press any key")  # told the handle made of that alias, on the first visit
        door.send(" ")
        door.wait_for("Your choice")
        door.begin_open_seat()
        problem = screen_bytes_problem(bytes(door.view.raw), "cp437", allow_bell=True)
        assert problem is None, f"the door's own screen: {problem}"
        door.close()
        door = None

        handles = stored_handles(url)
        assert all(h.isprintable() for h in handles), [h for h in handles if not h.isprintable()]
        assert any("Door" in h for h in handles)

        # Victims on each kind of terminal list the games and sit down at one.
        victims = {"cp437": ("ansi", "vcp"), "utf8": ("xterm", "vutf"), "ascii": ("dumb", "vasc")}
        for charset, (term, name) in victims.items():
            v = await RawCaller.connect(srv.port, term=term)
            await login(v, name, "victim-pw", new=True)
            v.send("V")
            await v.wait_for("Game:")
            await v.settle(0.3)
            v.send("N\r")  # the next page, if there is one
            await v.settle(0.3)
            v.send("\r")
            await v.wait_for("Your choice")
            await open_game(v)
            text = await v.wait_until(lambda t: "Join it?" in t or on_board(t), "the game, or the offer to join it")
            if "Join it?" in text:
                v.send("Y")
            await to_board(v)  # sitting at a board with a hostile name on it
            await v.settle(0.3)
            problem = screen_bytes_problem(bytes(v.data), charset, allow_bell=True)
            assert problem is None, f"a {charset} victim's screen: {problem}"
            assert v.leaked() is None
            v.close()
        await asyncio.sleep(0.2)
        assert srv.alive()
    finally:
        if door is not None:
            door.close()
        srv.kill()


@pytest.mark.parametrize("data", [
    b"\x1b]0;owned\x07", b"\x1bP+q\x1b\\", b"\x1b[6n", b"\x1b[0c\x1b(0", b"\x07", b"\x00", b"\x0e", b"\x7f",
    "\u202e".encode(), "\u009b".encode(), "\u200b".encode(), b"\xed\xa0\x80", b"\x1b[" + b"1" * 40 + b"m",
])
def test_the_screen_checker_catches_what_it_must(data: bytes) -> None:
    assert screen_bytes_problem(b"\x1b[H" + data + b"ok", "utf8") is not None
