"""The README's screenshots are the screens as a caller sees them.

Each is drawn by a real server over telnet into an 80x25 pyte screen and compared with the
README's block of that name.  After a deliberate change to a screen, regenerate the blocks:

    BGDOOR_WRITE_SCREENS=1 pytest tests/test_readme_screens.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from harness import running_server
from rawtelnet import RawCaller

from bgdoor.rules.dice import ScriptedDice
from bgdoor.service import Service

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"(<!-- screen: (?P<name>[a-z-]+) -->\n```text\n)(?P<body>.*?)(```\n<!-- /screen -->)", re.S)


def shot(caller: RawCaller) -> str:
    lines = [line.rstrip() for line in caller.lines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


async def take_screens(url: str) -> dict[str, str]:
    with Service(url) as svc:
        svc.register("bob", "bob-secret")
    shots: dict[str, str] = {}
    async with running_server(url, dice=ScriptedDice([5, 2, 6, 4] * 10)) as srv:
        c = await RawCaller.connect(srv.port, term="xterm")
        try:
            await c.wait_for("Handle:")
            await c.settle(0.3)
            shots["login"] = shot(c)
            c.send("alice\r")
            await c.wait_for("Create it?")
            c.send("Y")
            await c.wait_for("Choose a password")
            c.send("alice-secret\r")
            await c.wait_for("Type it again")
            c.send("alice-secret\r")
            await c.wait_for("Your choice")
            await c.settle(0.3)
            shots["menu"] = shot(c)
            c.send("O")
            await c.wait_for("Q or Enter goes back")
            await c.settle(0.3)
            shots["options"] = shot(c)
            c.send("Q")
            await c.wait_for("Your choice")
            c.send("B")
            await c.wait_for("Match length")
            c.send("5\r")
            await c.wait_for("Play as")
            c.send("W")
            await c.wait_for("Opponent")
            c.send("N")
            await c.wait_for("Opponent's handle")
            c.send("bob\r")
            await c.wait_for("roll for who starts")
            c.send("P")
            await c.wait_for("Your turn 5-2")
            await c.settle(0.5)
            shots["board"] = shot(c)
        finally:
            c.close()
    return shots


async def test_readme_screenshots_are_the_screens(tmp_path: Path) -> None:
    shots = await take_screens(f"sqlite:///{tmp_path / 'bg.db'}")
    readme = README.read_text(encoding="utf-8")
    names = [m.group("name") for m in BLOCK.finditer(readme)]
    assert sorted(names) == sorted(shots), f"README screen blocks {names}, screens taken {sorted(shots)}"
    if os.environ.get("BGDOOR_WRITE_SCREENS"):
        fresh = BLOCK.sub(lambda m: m.group(1) + shots[m.group("name")] + m.group(4), readme)
        README.write_text(fresh, encoding="utf-8")
        return
    for m in BLOCK.finditer(readme):
        assert m.group("body") == shots[m.group("name")], (
            f"the README's '{m.group('name')}' screen is out of date; "
            f"regenerate with BGDOOR_WRITE_SCREENS=1 pytest {Path(__file__).name}\n{shots[m.group('name')]}"
        )
