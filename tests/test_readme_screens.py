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
from menus import begin
from rawtelnet import RawCaller, login

from bgdoor.rules.dice import ScriptedDice
from bgdoor.service import Service

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"(<!-- screen: (?P<name>[a-z-]+) -->\n```text\n)(?P<body>.*?)(```\n<!-- /screen -->)", re.S)


def shot(caller: RawCaller) -> str:
    lines = [line.rstrip() for line in caller.lines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


async def shot_at(caller: RawCaller, needle: str, settle: float = 0.3) -> str:
    """The screen once `needle` is on it and the rest has come."""
    await caller.wait_for(needle)
    await caller.settle(settle)
    return shot(caller)


async def take_screens(url: str) -> dict[str, str]:
    with Service(url) as svc:
        svc.register("bob", "bob-secret")
    shots: dict[str, str] = {}
    async with running_server(url, dice=ScriptedDice([5, 2, 6, 4] * 10)) as srv:
        c = await RawCaller.connect(srv.port, term="xterm")
        try:
            shots["login"] = await shot_at(c, "Handle:")
            await login(c, "alice", "alice-secret", new=True)
            shots["menu"] = await shot_at(c, "Your choice")
            c.send("O")
            shots["options"] = await shot_at(c, "Q or Enter goes back")
            c.send("Q")
            await c.wait_for("Your choice")
            await begin(c, 5, opponent="bob")
            await c.wait_for("roll for who starts")
            c.send("P")
            shots["board"] = await shot_at(c, "Your turn 5-2", settle=0.5)
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
