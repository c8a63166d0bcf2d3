"""O)ptions: the character set can go back to "automatic", which is stored as no choice."""

from __future__ import annotations

import asyncio
from pathlib import Path

from harness import running_server
from rawtelnet import RawCaller, login

from bgdoor.service import Service


async def test_charset_cycles_back_to_automatic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bg.db'}"
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm")
        await login(c, "alice", "alice-secret", new=True)
        c.send("O")
        await c.wait_for("Character set: automatic (now utf8)")
        with Service(url) as db:
            cycle = (("cp437", "cp437"), ("utf8", "utf8"), ("ascii", "ascii"), ("automatic (now utf8)", None))
            for shown, stored in cycle:
                c.send("C")
                await c.wait_for(f"Character set: {shown} ")
                assert db.player(1).preferences.charset == stored
        c.send("C")  # CP437 again, then leave it chosen
        await c.wait_for("Character set: cp437 ")
        c.close()
        # The choice follows the player to another terminal; "automatic" lets that terminal decide.
        ansi = await RawCaller.connect(srv.port, term="ansi")
        await login(ansi, "alice", "alice-secret", new=False)
        ansi.send("O")
        await ansi.wait_for("Character set: cp437 ")
        for _ in range(3):
            ansi.send("C")
        await ansi.wait_for("Character set: automatic (now cp437)")
        ansi.close()
        xterm = await RawCaller.connect(srv.port, term="xterm")
        await login(xterm, "alice", "alice-secret", new=False)
        xterm.send("O")
        await xterm.wait_for("Character set: automatic (now utf8)")
        xterm.close()


async def test_esc_then_o_a_moment_apart_goes_back_and_opens_options(tmp_path: Path) -> None:
    """On W)ho, Esc then O a tenth of a second apart (back, then O)ptions): the Who screen stayed,
    both keys lost, nothing said (ESC O had begun a keypad key that never came)."""
    async with running_server(f"sqlite:///{tmp_path / 'bg.db'}") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        try:
            await login(c, "alice", "alice-secret", new=True)
            c.send("W")
            await c.wait_for("Who's online")
            c.send("\x1b")
            await asyncio.sleep(0.1)
            c.send("O")
            await c.wait_for("Character set:", timeout=5)
        finally:
            c.close()


async def test_a_key_that_changes_nothing_says_which_do(tmp_path: Path) -> None:
    async with running_server(f"sqlite:///{tmp_path / 'bg.db'}") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 24))
        try:
            await login(c, "alice", "alice-secret", new=True)
            c.send("O")
            await c.wait_for("Q or Enter goes back")
            c.send("X")
            await c.wait_for("X changes nothing here: T, C, B or N does.")
            c.send("T")  # a key that does something: the refusal goes
            await c.wait_until(lambda t: "changes nothing" not in t, "the refusal gone")
        finally:
            c.close()


async def test_the_colour_theme_goes_round_themes_that_differ(tmp_path: Path) -> None:
    """T went round seven names, three of them (green, tournament, amber) the same colours as
    felt or mono: the key seemed to do nothing."""
    url = f"sqlite:///{tmp_path / 'bg.db'}"
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm")
        await login(c, "alice", "alice-secret", new=True)
        c.send("O")
        await c.wait_for("Colour theme: classic")
        seen = ["classic"]
        for _ in range(4):
            c.send("T")
            was = f"Colour theme: {seen[-1]} "
            text = await c.wait_until(lambda t, was=was: was not in t, "a new theme")
            seen.append(text.split("Colour theme: ")[1].split()[0])
        seen.pop(0)
        assert seen == ["felt", "mono", "wood", "classic"], seen
        c.close()
