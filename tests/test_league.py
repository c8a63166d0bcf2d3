"""One league across boards: a member BBS's RLogin caller and a telnet caller play a match to
the end on a real `bgdoor serve`; the rankings show both with their boards; the sysop lists the
member BBSes, a bulletin shows one board, and a suspended BBS's callers are refused while its
games stay."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from menus import begin, open_board
from rawtelnet import RawCaller, login
from rloginplay import RLoginCaller, handshake
from test_rlogin_serve import SECRET, rlogin_server

from bgdoor.rules.game import Color, Phase
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(300)

Caller = RawCaller | RLoginCaller


async def wait_version(db: Service, game_id: int, above: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while db.game_version(game_id) <= above:
        assert time.monotonic() < end, f"game {game_id} stayed at version {above}"
        await asyncio.sleep(0.02)


def shows(dice: tuple[int, int]) -> Callable[[str], bool]:
    want = f"Your turn {max(dice)}-{min(dice)}"  # the higher die first, as rolls are told
    return lambda text: want in text and "Rolling..." not in text


async def play_to_the_end(db: Service, game_id: int, callers: dict[Color, Caller], rng: random.Random) -> int:
    """Press the keys a person would until the match is over; returns the turns played."""
    turns = 0
    for _ in range(2000):
        view = db.game(game_id)
        st = view.state
        if st.over:
            return turns
        if st.phase is Phase.OPENING:
            callers[Color.WHITE].send("P")
        elif st.phase is Phase.ROLL:
            assert st.actor is not None
            callers[st.actor].send("P")
            await wait_version(db, game_id, view.version)
            dice = db.game(game_id).state.dice
            if dice is not None:
                await callers[st.actor].wait_until(shows(dice), f"the dice {dice}")
            continue
        elif st.phase is Phase.MOVE:
            assert st.actor is not None
            caller = callers[st.actor]
            plays = st.plays()
            if len(plays) > 1:
                caller.send("M")
                await caller.wait_for("Your play")
                caller.send(str(rng.choice(plays)) + "\r")
            else:
                caller.send("\r")  # the only play, or none: Enter commits or passes
            turns += 1
        else:
            raise AssertionError(f"nobody doubles or resigns here, yet the phase is {st.phase}")
        await wait_version(db, game_id, view.version)
    raise AssertionError("the match did not end")


async def test_a_member_bbs_caller_and_a_telnet_caller_share_one_league(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bg.db'}"
    srv = rlogin_server(tmp_path, url).start()
    port = srv.rlogin_port
    db = Service(url)
    alice: RLoginCaller | None = None
    bob: RawCaller | None = None
    try:
        bob = await RawCaller.connect(srv.port, term="ansi")
        await login(bob, "bob", "bob-secret", new=True)
        alice = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]alice", "ansi-bbs/115200"))
        await alice.wait_for("Your choice")
        await begin(alice, 1, opponent="bob")
        await alice.wait_for("roll for who starts")
        game_id = db.games_in_progress()[0].id
        await open_board(bob, f"#{game_id}")

        turns = await play_to_the_end(db, game_id, {Color.WHITE: alice, Color.BLACK: bob}, random.Random(5))
        final = db.game(game_id)
        assert final.status == "finished" and final.state.over
        print(f"\nthe match ended after {turns} turns: {final.state.score}")
        await alice.wait_words("and the match")
        await bob.wait_words("and the match")

        # The rankings: both players, each with their board.
        bob.send(" ")  # the result stays up until a key
        await bob.settle(0.3)
        bob.send("Q")
        await bob.wait_for("Your choice")
        bob.send("R")
        screen = await bob.wait_for("Rank:")
        lines = {line.split()[1]: line for line in screen.splitlines() if line.strip()[:1].isdigit()}
        assert "alice" in lines and "bob" in lines, screen
        assert lines["alice"].split()[2] == "DEMO" and lines["bob"].split()[2] == "here", screen
        # One board at a time: B cycles the whole league, this board, and each member BBS.
        bob.send("B")
        # The rows come after the title: wait for them, not the title alone.
        here = await bob.wait_until(
            lambda t: "The top players of this server" in t and "bob" in t, "this server's own rankings"
        )
        assert "alice" not in here
        bob.send("B")
        demo = await bob.wait_until(lambda t: "Demo Board (DEMO)" in t, "the DEMO board's rankings")
        assert "alice" in demo and "bob " not in demo
        # Her page names her as the list does, with her board (it said 'alice' bare).
        bob.send("1\r")
        page = await bob.wait_for("Rating history")
        assert "alice@DEMO" in page, page

        # The sysop: member BBSes with their players and last activity.
        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [sys.executable, "-m", "bgdoor", *args, "--config", str(srv.config_path), "--db", url],
                capture_output=True,
                text=True,
                timeout=60,
            )

        listed = run("sysop", "bbses")
        assert listed.returncode == 0, listed.stderr
        demo_line = next(line for line in listed.stdout.splitlines() if line.startswith("DEMO"))
        assert "Demo Board" in demo_line and " 1 " in demo_line and "admitted" in demo_line, listed.stdout
        assert any(line.startswith("DP ") and "DoorParty" in line for line in listed.stdout.splitlines())

        bulletin = run("bulletin", "--bbs", "DEMO", "--charset", "ascii")
        assert bulletin.returncode == 0, bulletin.stderr
        assert "alice@DEMO" in bulletin.stdout and "Demo Board" in bulletin.stdout and "bob" not in bulletin.stdout
        everyone = run("bulletin", "--charset", "ascii")
        assert "alice@DEMO" in everyone.stdout and "bob" in everyone.stdout
        exported = subprocess.run(
            [sys.executable, "-m", "bgdoor", "export", str(game_id), "--db", url],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert exported.returncode == 0, exported.stderr
        assert " alice@DEMO : 0" in exported.stdout and "bob : 0" in exported.stdout, exported.stdout
        unknown = run("bulletin", "--bbs", "NOPE")
        assert unknown.returncode == 2 and "no [bbs NOPE] section" in unknown.stderr

        # Suspended: DEMO's callers are refused with one line; alice's game stays.
        suspended = run("sysop", "suspend-bbs", "DEMO", "--reason", "spam", "--yes")
        assert suspended.returncode == 0 and "BBS DEMO suspended" in suspended.stdout, suspended
        again = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]alice"))
        assert await again.wait_closed(15)
        # Laid out for 40 columns: the terminal type names no width, and no window size has come.
        said = " ".join(again.text.split())
        assert "BBS DEMO is suspended from this game server: spam." in said, again.text
        assert all(not row[39:].strip() for row in again.screen.display), again.text
        assert "rlogin refused 127.0.0.1: DEMO: BBS DEMO is suspended" in srv.stderr()
        assert db.game(game_id).status == "finished" and db.player_page("alice").player.bbs_tag == "DEMO"
        listed = run("sysop", "bbses")
        assert "suspended: spam" in listed.stdout
        resumed = run("sysop", "resume-bbs", "DEMO", "--yes")
        assert resumed.returncode == 0, resumed
        back = await RLoginCaller.connect(port, handshake(SECRET, "[DEMO]alice"))
        await back.wait_for("Welcome, alice.")
        back.close()
    finally:
        for c in (alice, bob):
            if c is not None:
                c.close()
        db.close()
        srv.stop()
