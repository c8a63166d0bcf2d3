"""The game screen stays live: a change to the game reaches the board however the screen was busy
when the change feed told it (a help page, a note being typed, a reload under way)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
from harness import running_server
from menus import open_game
from rawtelnet import RawCaller, login

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(120)


def ann_to_play(db_url: str, again: bool = False) -> tuple[int, int, int]:
    """(ann's id, the game's id, its version): ann's 3-point match against bob, the opening roll
    made (ann 3, bob 1), ann to play her 3-1; with `again`, after she played it 8/5 6/5, bob his
    3-1 8/5 6/5 and she rolled 3-1 again."""
    with Service(db_url, dice=ScriptedDice([3, 1] * 50)) as setup:
        ann = setup.register("ann", "secret1").id
        bob = setup.register("bob", "secret1").id
        view = setup.begin_game(ann, 3, Color.WHITE, "bob")
        view = setup.roll(ann, view.id, view.version)
        if again:
            view = setup.submit_turn(ann, view.id, view.version, "8/5 6/5")
            view = setup.roll(bob, view.id, view.version)
            view = setup.submit_turn(bob, view.id, view.version, "8/5 6/5")
            view = setup.roll(ann, view.id, view.version)
        return ann, view.id, view.version


async def until(test: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not test():
        if time.monotonic() > end:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("busy", ["news page", "help page", "give-up question"])
async def test_a_change_told_while_the_screen_waits_for_another_key_reaches_the_board(tmp_path, busy):
    """The feed's wake-up came while the screen read a key for something else (the news page on
    coming back, the help page, the give-up question): the board it goes back to shows the
    change, not the game as it was (CI once saw a board stay at the opening roll for a minute
    after the news page, with the player's P spent on leaving the page)."""
    db_url = f"sqlite:///{tmp_path / 'live.db'}"
    ann, game_id, version = ann_to_play(db_url, again=busy == "news page")
    async with running_server(db_url) as server:
        bob = await RawCaller.connect(server.port, term="xterm")
        try:
            await login(bob, "bob", "secret1", new=False)
            if busy == "news page":
                # Three lines of news (the match, the opening roll and ann's play, her roll): a page
                # before the board.
                await open_game(bob, expect="Press a key for the board")
            else:
                await open_game(bob, expect="Opening roll")  # the board, with the news of the roll
                bob.send("?" if busy == "help page" else "G")
                await bob.wait_for("Press a key to go back" if busy == "help page" else "Give up: a single game")
            # Another process plays ann's turn; this server's change feed wakes bob's screen.
            with Service(db_url) as other:
                other.submit_turn(ann, game_id, version, "8/5 6/5")
            await until(lambda: server.runtime.version(game_id) == version + 1, "the change reached the runtime")
            # The wake-up is queued ahead of this key: the page's key wait reads it first.
            bob.send("\x1b" if busy == "give-up question" else " ")
            played = "ann rolled 3-1 and played" if busy == "news page" else "ann starts with 3-1, playing"
            played += " 8/5 6/5"
            await bob.wait_words(played, 10)
            await bob.wait_for("P)lay or Enter: roll", 10)
        finally:
            bob.close()
