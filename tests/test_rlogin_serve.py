"""RLogin entry against a real `bgdoor serve`: a raw client sends the handshake bytes a member
BBS's gateway sends (Synchronet's form and DoorParty's), and each refusal gets its line."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from ports import free_port
from rawtelnet import RawCaller
from rloginplay import RLoginCaller, handshake
from serverproc import ServerProcess

from bgdoor.service import Service
from bgdoor.service.sysop import Sysop

pytestmark = pytest.mark.timeout(240)

SECRET = "change-me"
BBSES: dict[str, dict[str, object]] = {
    "bbs DEMO": {"name": "Demo Board", "secret": SECRET, "addresses": "127.0.0.0/8"},
    "bbs OTHER": {"name": "Other Board", "secret": "other-secret", "addresses": "127.0.0.1"},
    # DoorParty's form: no secret, trusted by its address alone (only 127.0.0.2 here).
    "bbs DP": {"name": "DoorParty", "auth": "address", "addresses": "127.0.0.2"},
}


def rlogin_server(folder: Path, url: str, **extra: Mapping[str, object]) -> ServerProcess:
    sections: dict[str, dict[str, object]] = {
        "rlogin": {"host": "127.0.0.1"},
        "session": {"poll_interval": 0.5, "presence_ttl": 6},
        **BBSES,
        **{name: dict(keys) for name, keys in extra.items()},
    }
    port = free_port()
    srv = ServerProcess(folder, url, env=None, user=None, args=["--rlogin-port", str(port)], **sections)
    srv.rlogin_port = port
    return srv


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = rlogin_server(tmp_path, f"sqlite:///{tmp_path / 'bg.db'}").start()
    try:
        yield srv
    finally:
        srv.stop()


async def at_menu(caller: RLoginCaller, name: str) -> str:
    screen = await caller.wait_for("Your choice")
    assert f"Welcome, {name}." in screen, screen
    return screen


async def test_each_accepted_form_lands_at_the_menu_showing_the_alias(server: ServerProcess) -> None:
    port = server.rlogin_port
    # Synchronet's form: the secret, then [TAG]alias; an ANSI-BBS terminal gets CP437.
    sync = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]Alice", "ansi-bbs/115200"))
    # DoorParty's form: the alias twice, Synchronet's xtrn=CODE terminal type (ignored).
    door_party = await RLoginCaller.connect(port, handshake("Bob", "[DP]Bob", "xtrn=BGDOOR"), source="127.0.0.2")
    # An xterm gets UTF-8.
    utf8 = await RLoginCaller.connect(port, handshake(SECRET, "[demo]Carol", "xterm/38400"), charset="utf8")
    try:
        for caller, name in ((sync, "Alice"), (door_party, "Bob"), (utf8, "Carol")):
            screen = await at_menu(caller, name)
            assert caller.acknowledged  # RFC 1282: the server's first byte is a NUL
            assert "Handle:" not in screen and "Password" not in screen  # no second login
            # 80x24: the title's frame is still on line 2, so nothing scrolled the screen.
            assert caller.screen.display[1].strip()[:1] in ("╔", "+")
        assert "╔".encode("cp437") in sync.data and "╔".encode() not in sync.data
        assert "╔".encode() in utf8.data
        # No echo: what a caller types shows only where a screen draws it.
        sync.send("x")
        await sync.settle(0.5)
        assert "x" not in sync.screen.display[20]
        with Service(server.db_url) as svc:
            for name, tag in (("Alice", "DEMO"), ("Bob", "DP"), ("Carol", "DEMO")):
                info = svc.player_page(name).player
                assert (info.origin, info.bbs_tag, info.login_name) == ("bbs", tag, name)
    finally:
        for caller in (sync, door_party, utf8):
            caller.close()


REFUSALS = [
    ("unknown tag", handshake(SECRET, "[NOPE]alice"), "127.0.0.1", "Unknown BBS tag NOPE;", "unknown tag 'NOPE'"),
    ("wrong secret", handshake("guess", "[DEMO]alice"), "127.0.0.1", "Wrong secret for BBS DEMO", "DEMO: wrong secret"),
    (
        "outside the addresses",
        handshake("alice", "[DP]alice", "xtrn=BGDOOR"),
        "127.0.0.1",
        "BBS DP does not call from this address",
        "DP: address not in its list",
    ),
    ("no tag", handshake(SECRET, "alice"), "127.0.0.1", "No BBS tag", "no [TAG]"),
    (
        "no leading NUL",
        b"alice\0[DEMO]alice\0ansi\0",
        "127.0.0.1",
        "Malformed RLogin handshake: it does not start with a NUL.",
        "does not start with a NUL",
    ),
    ("over 1 KB", b"\0" + b"A" * 1500, "127.0.0.1", "Malformed RLogin handshake: over 1 KB", "over 1 KB"),
]


async def test_each_refusal_gets_its_line_and_a_closed_connection(server: ServerProcess) -> None:
    port = server.rlogin_port
    for what, data, source, line, logged in REFUSALS:
        caller = await RLoginCaller.connect(port, data, source=source)
        try:
            assert await caller.wait_closed(15), f"{what}: still open"
            assert line in " ".join(caller.text.split()), f"{what}: {caller.text!r}"
            # Wrapped for 40 columns, the narrowest caller's, as the width is not known yet.
            shown = [row.rstrip() for row in caller.screen.display if row.strip()]
            assert len(shown) <= 2 and all(len(row) <= 40 for row in shown), f"{what}: {shown}"
        finally:
            caller.close()
        log = server.stderr()
        assert f"rlogin refused {source}: " in log and logged in log, f"{what}: the log says\n{log[-2000:]}"
    assert SECRET not in server.stderr() and "guess" not in server.stderr()  # secrets stay out of the log
    # A refused caller never connected: each refusal had been followed by 'rlogin disconnect'.
    assert "rlogin disconnect" not in server.stderr()


async def test_silent_and_unfinished_handshakes_are_cut_after_10_seconds(server: ServerProcess) -> None:
    port = server.rlogin_port
    start = time.monotonic()
    silent = await RLoginCaller.connect(port)
    unfinished = await RLoginCaller.connect(port, b"\0change-me\0[DEMO]ali")  # missing NULs
    try:
        closed = await asyncio.gather(silent.wait_closed(20), unfinished.wait_closed(20))
        took = time.monotonic() - start
        assert list(closed) == [True, True]
        assert 9.5 <= took <= 14, took
        assert "No RLogin handshake within 10 seconds." in " ".join(silent.text.split())
        # Not 'No RLogin handshake': one came, with fields missing.
        said = " ".join(unfinished.text.split())
        assert "The RLogin handshake was cut short: not all of it came within 10 seconds." in said
    finally:
        silent.close()
        unfinished.close()
    assert server.stderr().count("rlogin refused 127.0.0.1: no complete handshake within 10 s") == 2


async def test_the_same_alias_from_two_boards_is_two_players(server: ServerProcess) -> None:
    port = server.rlogin_port
    demo = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]alice"))
    first = await demo.wait_until(lambda t: "Your choice" in t, "the menu")
    other = await RLoginCaller.connect(port, handshake("other-secret", "[OTHER]alice"))
    try:
        # The newcomer is told their handle here is not their BBS name, and why.
        second = await other.wait_for("so you are alice~2")
        with Service(server.db_url) as svc:
            pages = [svc.player_page(h).player for h in ("alice", "alice~2")]
        assert {(p.bbs_tag, p.login_name) for p in pages} == {("DEMO", "alice"), ("OTHER", "alice")}
        assert pages[0].id != pages[1].id
        # Online already while the notice is read: W)ho counted only the first.
        demo.send("W")
        who = await demo.wait_until(lambda t: "OTHER" in t, "the newcomer in W)ho")
        assert "Who's online: 2 callers" in who
        demo.send("Q")
        await demo.wait_for("Your choice")
        # Both are online at once, each shown with their board.
        other.send("\r")
        await other.wait_for("Your choice")
        other.send("W")
        who = await other.wait_until(lambda t: "DEMO" in t and "OTHER" in t, "both boards in W)ho")
        assert "Who's online: 2 callers" in who
        # The Board column says the tag: 'alice~2@OTHER  OTHER' had said it twice.  And a caller
        # at W)ho is said to be there, not 'at the menu'.
        mine = next(line for line in who.splitlines() if "OTHER" in line)
        assert mine.split() == ["alice~2", "OTHER", "looking", "at", "who's", "online"], who
        assert first and second
    finally:
        demo.close()
        other.close()


async def test_a_boards_alias_in_another_case_is_the_same_player(server: ServerProcess) -> None:
    """A play-tester's SYN caller came back as ALICE (BBSes treat aliases without regard to case,
    some send them upper-cased) and was made a new player, ALICE~2, told 'Another player ... is
    called alice': their record and games were left with alice."""
    port = server.rlogin_port
    first = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]alice"))
    try:
        await at_menu(first, "alice")
    finally:
        first.close()
    with Service(server.db_url) as svc:
        alice = svc.player_page("alice").player
        game = svc.begin_game(alice.id, 3).id
    again = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]ALICE"))
    try:
        screen = await at_menu(again, "alice")
        assert "Another" not in again.text and "~2" not in again.text, screen
    finally:
        again.close()
    with Service(server.db_url) as svc:
        assert svc.player_page("ALICE").player.id == alice.id
        assert [g.id for g in svc.my_games(alice.id)] == [game]
        assert Sysop(svc).member_bbses({})[0].players == 1


async def test_caps_and_idle_timeout_hold_as_for_telnet(tmp_path: Path) -> None:
    srv = rlogin_server(
        tmp_path,
        f"sqlite:///{tmp_path / 'bg.db'}",
        server={"host": "127.0.0.1", "max_per_address": 2, "max_callers": 5},
        session={"poll_interval": 0.5, "presence_ttl": 6, "idle_timeout": 4},
    ).start()
    port = srv.rlogin_port
    callers: list[RLoginCaller] = []
    try:
        for n in range(2):
            callers.append(await RLoginCaller.connect(port, handshake(SECRET, f"[DEMO]cap{n}")))
            await callers[-1].wait_for("Your choice")
        # Connections no member BBS has vouched for yet count against their address: a third
        # from one address while two have sent no handshake is refused.
        for _ in range(2):
            callers.append(await RLoginCaller.connect(port, source="127.0.0.5"))
        await callers[-1].settle(0.5)
        third = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]cap2"), source="127.0.0.5")
        callers.append(third)
        assert await third.wait_closed(10)
        assert "Too many connections from this address at once." in " ".join(third.text.split())
        # The callers of both transports count together against max_callers.
        telnet = await RawCaller.connect(srv.port, source="127.0.0.3")
        await telnet.wait_for("Handle:")
        sixth = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]cap4"), source="127.0.0.4")
        callers.append(sixth)
        assert await sixth.wait_closed(10)
        assert "all lines are busy" in sixth.text
        telnet.close()
        # Idle: a caller who types nothing is disconnected after idle_timeout.
        start = time.monotonic()
        assert await callers[0].wait_closed(15)
        assert "No key was pressed for too long" in callers[0].text
        assert time.monotonic() - start < 10
    finally:
        for c in callers:
            c.close()
        srv.stop()


async def test_a_member_boards_callers_count_against_the_board_not_its_gateways_address(tmp_path: Path) -> None:
    # Every caller of a member BBS comes from its gateway's one address (127.0.0.1 here).
    srv = rlogin_server(
        tmp_path,
        f"sqlite:///{tmp_path / 'bg.db'}",
        server={"host": "127.0.0.1", "max_per_address": 2, "max_callers": 9},
        **{"bbs OTHER": {**BBSES["bbs OTHER"], "max_callers": 2}},
    ).start()
    port = srv.rlogin_port
    callers: list[RLoginCaller] = []
    telnet: list[RawCaller] = []
    try:
        # DEMO sets no limit of its own: twice max_per_address of its callers get in.
        for n in range(4):
            callers.append(await RLoginCaller.connect(port, handshake(SECRET, f"[DEMO]many{n}")))
            await at_menu(callers[-1], f"many{n}")
        # Telnet callers from that same address are still held to max_per_address, and told so
        # (the board's callers do not count against them).
        for _ in range(2):
            telnet.append(await RawCaller.connect(srv.port, source="127.0.0.1"))
            await telnet[-1].wait_for("Handle:")
        over = await RawCaller.connect(srv.port, source="127.0.0.1")
        telnet.append(over)
        await over.wait_for("Too many connections from your address.")
        assert await over.wait_closed(20)
        # OTHER has max_callers = 2: its third caller is told the board's lines are in use
        # (not that their address has too many), within their 40 columns.
        for n in range(2):
            callers.append(await RLoginCaller.connect(port, handshake("other-secret", f"[OTHER]few{n}")))
            await at_menu(callers[-1], f"few{n}")
        third = await RLoginCaller.connect(
            port, handshake("other-secret", "[OTHER]few2", "ansi-bbs-40x24/38400"), cols=40
        )
        callers.append(third)
        assert await third.wait_closed(10)
        said = " ".join(third.text.split())
        assert "BBS OTHER: its 2 lines here are all in use. Please call again later." in said, third.text
        assert "Too many connections" not in said
        assert all(not row[39:].strip() for row in third.screen.display), third.text
        assert "rlogin refused 127.0.0.1: OTHER: all 2 of its lines in use" in srv.stderr()
        # A terminal type naming no width: laid out for 40 columns too (it had been 80).
        fourth = await RLoginCaller.connect(port, handshake("other-secret", "[OTHER]few3", "ansi-bbs/38400"), cols=40)
        callers.append(fourth)
        assert await fourth.wait_closed(10)
        said = " ".join(fourth.text.split())
        assert "BBS OTHER: its 2 lines here are all in use. Please call again later." in said, fourth.text
        assert all(not row[39:].strip() for row in fourth.screen.display), fourth.text
        # max_callers still holds over all: 5 + 2 + 2 callers are in.
        callers.append(await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]many4")))
        await at_menu(callers[-1], "many4")
        busy = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]many5"))
        callers.append(busy)
        assert await busy.wait_closed(10)
        assert "all lines are busy" in busy.text
        # A line the board gives back is its own again.
        gone = srv.stderr().count("rlogin disconnect")
        callers[4].close()
        deadline = time.monotonic() + 15
        while srv.stderr().count("rlogin disconnect") == gone and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        again = await RLoginCaller.connect(port, handshake("other-secret", "[OTHER]few3"))
        callers.append(again)
        await at_menu(again, "few3")
    finally:
        for c in callers:
            c.close()
        for t in telnet:
            t.close()
        srv.stop()


async def test_a_terminal_type_with_a_size_keeps_its_charset(server: ServerProcess) -> None:
    # A relaying gateway adds -80x25 for 25 lines: the size, not another charset.
    port = server.rlogin_port
    for n, (terminal, charset, corner) in enumerate(
        (
            ("dumb-80x25", "ascii", "+"),
            ("ascii-80x25", "ascii", "+"),
            ("tty-80x25", "ascii", "+"),
            ("ansi-bbs-80x25", "cp437", "╔"),
            ("xterm-80x25", "utf8", "╔"),
        )
    ):
        caller = await RLoginCaller.connect(
            port, handshake(SECRET, f"[DEMO]size{n}", f"{terminal}/38400"), charset=charset, rows=25
        )
        try:
            await at_menu(caller, f"size{n}")
            await caller.settle(0.3)
            frame = caller.screen.display[1].strip()
            assert frame[:1] == corner, f"{terminal}: {frame!r}"
            if charset == "ascii":
                assert "=" in frame, f"{terminal}: {frame!r}"
                assert max(caller.data) < 0x80, f"{terminal}: bytes past ASCII"
        finally:
            caller.close()
        assert f"term={terminal} charset={charset}" in server.stderr()


async def test_a_telnet_terminal_type_with_a_size_keeps_its_charset(server: ServerProcess) -> None:
    caller = await RawCaller.connect(server.port, term="dumb-80x25")
    try:
        await caller.wait_for("Handle:")
        await caller.settle(0.3)
        assert max(caller.data) < 0x80, "bytes past ASCII"
    finally:
        caller.close()
    assert "term=dumb-80x25 charset=ascii" in server.stderr()


def _menu_column(lines: list[str]) -> int | None:
    """The column (1-based) the main menu's V)iew item starts at, if it is on the screen."""
    for line in lines:
        if "V)iew games" in line:
            return line.index("V)iew games") + 1
    return None


async def test_window_size_messages_resize_the_screen(server: ServerProcess) -> None:
    """RFC 1282: the server asks for window sizes with an urgent 0x80 byte; the client's 12-byte
    window-change messages resize the screen (NAWS's job over telnet) and never reach it as keys."""
    port = server.rlogin_port
    # The pyte screen is wider and taller than the window told, so anything drawn past it shows.
    caller = await RLoginCaller.connect(
        port, handshake(SECRET, "[DEMO]Wendy", "ansi-bbs/115200"), rows=30, cols=100, urgent_wait=10
    )
    try:
        assert caller.urgent == 0x80, "no window-size request (urgent 0x80) after the handshake"
        await at_menu(caller, "Wendy")
        assert _menu_column(caller.screen.display) == 16  # 80 columns until told otherwise
        # 60x24, the message split across two writes as a slow link may deliver it.
        caller.send_window(60, 24, split=5)
        await caller.wait_until(lambda t: _menu_column(t.splitlines()) == 2, "the menu laid out for 60 columns")
        await caller.settle(0.5)
        lines = caller.screen.display
        past = [line[60:].rstrip() for line in lines if line[60:].strip()]
        assert not past, f"drawn past the 60 columns told: {past}"
        assert not any(line.strip() for line in lines[24:]), "drawn below the 24 rows told"
        # Its bytes were no keys: S would have turned the sound off, and 0xFF is no key either.
        assert "(now ON)" in caller.text, caller.text
        assert "does nothing" not in caller.text.lower()
        # Wider again, 80x25: the menu goes back to its wide layout.
        caller.send_window(80, 25)
        await caller.wait_until(lambda t: _menu_column(t.splitlines()) == 16, "the menu laid out for 80 columns")
        caller.send("S")  # keys still work after the messages: the sound is turned off
        await caller.wait_for("(now OFF)")
        # A flood of 2,000 sizes in a few writes ends at the last one, and keys still work.
        flood = b"".join(
            b"\xff\xffss" + (24).to_bytes(2, "big") + (60 if n % 2 else 80).to_bytes(2, "big") + bytes(4)
            for n in range(2000)
        )
        caller.send(flood)
        await caller.wait_until(lambda t: _menu_column(t.splitlines()) == 2, "the last size of the flood")
        caller.send("S")
        await caller.wait_for("(now ON)")
    finally:
        caller.close()
    assert "Traceback" not in server.stderr()


async def test_a_size_in_the_terminal_type_sets_the_columns_too(server: ServerProcess) -> None:
    """A gateway that relays bytes only, with terminal type `ansi-bbs-40x24`: the menu was drawn
    80 columns wide ('Welcome, carl.  No game is waiting...' reached column 60)."""
    caller = await RLoginCaller.connect(server.rlogin_port, handshake(SECRET, "[DEMO]Carl", "ansi-bbs-40x24/115200"),
                                        rows=30, cols=100)
    try:
        await at_menu(caller, "Carl")
        await caller.settle(0.3)
        past = [line[40:].rstrip() for line in caller.screen.display if line[40:].strip()]
        assert not past, f"drawn past the 40 columns the type names: {past}"
    finally:
        caller.close()


async def test_the_size_page_promises_no_following_where_no_window_size_is_told(server: ServerProcess) -> None:
    """The gateway sent `dumb-40x24` and never answered the window request: the board's size page
    said 'Make the window wider if you can: the board follows at once', and nothing followed."""
    caller = await RLoginCaller.connect(server.rlogin_port, handshake(SECRET, "[DEMO]Nosize", "ansi-bbs-40x24/115200"),
                                        rows=30, cols=100)
    try:
        await at_menu(caller, "Nosize")
        with Service(server.db_url) as svc:
            other = svc.register("Sizer", "sizer-pw").id
            svc.begin_game(other, 1, None, "Nosize")
        caller.send(b"P")
        said = " ".join((await caller.wait_words("does not tell a new window size")).split())
        assert "the board follows at once" not in said, said
        assert "Your connection does not tell a new window size, so the board cannot follow one." in said, said
    finally:
        caller.close()


async def test_the_way_down_tells_rlogin_callers_and_logs_no_traceback(tmp_path: Path) -> None:
    """SIGTERM with a caller on: the caller is told why the line drops, and the server's log has
    no error in it (asyncio logged each cancelled connection task with a traceback)."""
    srv = rlogin_server(tmp_path, f"sqlite:///{tmp_path / 'bg.db'}").start()
    try:
        caller = await RLoginCaller.connect(srv.rlogin_port, handshake(SECRET, "[DEMO]Leaving"))
        await at_menu(caller, "Leaving")
        stopping = asyncio.get_running_loop().run_in_executor(None, srv.stop)
        assert await caller.wait_closed(30)
        assert await stopping == 0
        assert "The server is going down now." in caller.text, caller.text
        caller.close()
    finally:
        srv.stop()
    log = srv.stderr()
    assert "Traceback" not in log and "Exception in callback" not in log, log[-3000:]


async def test_the_first_visit_notice_is_laid_out_again_for_the_window_size(server: ServerProcess) -> None:
    """A second board's carol, on a 40-column window told after the notice was drawn: 'Another
    player of board DEMO is call' ran off her screen, laid out for 80 columns, and stayed so."""
    port = server.rlogin_port
    first = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]carol"))
    second: RLoginCaller | None = None
    try:
        await at_menu(first, "carol")
        second = await RLoginCaller.connect(port, handshake("other-secret", "[OTHER]carol"), cols=40)
        await second.wait_for("Press any key")
        second.send_window(40, 24)
        said = " ".join((await second.wait_until(
            lambda t: all(not row[39:].strip() for row in t.splitlines()) and "Press any key" in t,
            "the notice within 40 columns")).split())
        assert "Another player of board DEMO is called carol, so you are carol~2" in said, said
        second.send(" ")
        await at_menu(second, "carol~2")
    finally:
        first.close()
        if second is not None:
            second.close()
