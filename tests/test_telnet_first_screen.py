"""The first screen waits only for what it needs from telnet negotiation.

It needs the terminal type (for the character set) and the window size; ECHO, NEW_ENVIRON and
the rest of the terminal type cycle settle while the caller reads it.  A terminal type the
server does not know still waits for everything, since its LANG may say UTF-8.
"""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

import pytest
from harness import running_server
from rawtelnet import ECHO, RawCaller

from bgdoor.transport.telnet import charset_for

pytestmark = pytest.mark.timeout(120)

NEW_ENVIRON = 39
WAIT = 1.5  # the server's negotiation_wait here


class Unhurried(RawCaller):
    """A terminal that answers the terminal type and window size, and never ECHO or NEW_ENVIRON."""

    def _answer(self, verb: int, opt: int) -> None:
        if opt not in (ECHO, NEW_ENVIRON):
            super()._answer(verb, opt)


async def first_screen(port: int, term: str) -> tuple[float, str]:
    start = time.monotonic()
    c = await Unhurried.connect(port, term=term, size=(72, 24))
    try:
        text = await c.wait_for("Handle:", 10)
        return time.monotonic() - start, text
    finally:
        c.close()


async def test_a_known_terminal_does_not_wait_for_echo_or_environment(tmp_path: Path) -> None:
    async with running_server(f"sqlite:///{tmp_path}/db.sqlite", negotiation_wait=WAIT) as srv:
        for term, corner in (("ansi", "╔"), ("syncterm", "╔"), ("xterm-256color", "╔")):
            took, text = await first_screen(srv.port, term)
            assert took < WAIT / 2, (term, took)
            # The charset the terminal type names: RawCaller decodes xterm as UTF-8, others as
            # CP437, so the frame's corner reads right only in the charset the server chose.
            assert corner in text, (term, text)
            # ...and the window size told by NAWS: the title box is centred in 72 columns.
            top = next(line for line in text.splitlines() if corner in line)
            assert top.index(corner) == 72 // 2 - min(30, (72 - 2) // 2) - 1, top


async def test_an_unknown_terminal_waits_for_the_whole_negotiation(tmp_path: Path) -> None:
    async with running_server(f"sqlite:///{tmp_path}/db.sqlite", negotiation_wait=WAIT) as srv:
        took, _ = await first_screen(srv.port, "vendor-x")
        assert took >= WAIT - 0.1, took


async def test_a_crowd_still_negotiating_holds_off_the_garbage_collector(tmp_path: Path) -> None:
    """The server's collector counts the connections that have not yet begun their sessions:
    while as many as a crowd are negotiating at once, automatic collection is off (it would walk
    everything they made before the last of them sees a screen); it comes back on at the first
    pass after most of them have begun or left, and nothing is counted twice."""
    async with running_server(f"sqlite:///{tmp_path}/db.sqlite", negotiation_wait=30.0) as srv:
        collector = srv.collector
        assert gc.isenabled()
        # Bare sockets that never answer negotiation: they stay negotiating until they leave.
        mute = [await asyncio.open_connection("127.0.0.1", srv.port) for _ in range(collector.crowd + 5)]
        while collector.negotiating < len(mute):
            await asyncio.sleep(0.01)
        assert collector.crowded and not gc.isenabled()
        for _, writer in mute[:10]:
            writer.close()
        while collector.negotiating > len(mute) - 10:
            await asyncio.sleep(0.01)
        collector.collect()  # the clock's next pass: fewer than a crowd now
        assert not collector.crowded and gc.isenabled()
        took, _ = await first_screen(srv.port, "ansi")  # a caller who gets as far as the handle
        assert took < 5, took
        for _, writer in mute[10:]:
            writer.close()
        deadline = time.monotonic() + 10
        while collector.negotiating and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert collector.negotiating == 0
    assert gc.isenabled()


def test_a_terminal_type_names_its_character_set_with_or_without_a_dash() -> None:
    """'pc-ansi' (as Debian's terminfo spells it) got CP437 only where no LANG said UTF-8."""
    for term in ("pc-ansi", "pcansi", "PC-ANSI-25", "ansi-bbs", "syncterm"):
        assert charset_for(term, "en_US.UTF-8") == "cp437", term
    assert charset_for("xterm", None) == "utf8"
