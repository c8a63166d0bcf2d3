"""The walks most caller tests make: logging in, and B)egin a match from the main menu.

For any caller that sends keys and waits for text on its screen (harness.Caller,
rawtelnet.RawCaller, rloginplay.RLoginCaller); each keeps its own wait unless a timeout is given.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

# The board's side panel ("Score 0/25"); the game lists' header says "Score" alone.
BOARD = re.compile(r"Score \d")
NEWS_PAGE = "Since you last looked"


class Keyboard(Protocol):
    def send(self, data: str) -> None: ...

    async def wait_for(self, needle: str, timeout: float = ...) -> str: ...


class Screen(Keyboard, Protocol):
    async def wait_until(self, test: Callable[[str], bool], what: str, timeout: float | None = None) -> str: ...


async def login(c: Keyboard, handle: str, password: str, new: bool, timeout: float | None = None) -> None:
    """Log in as `handle` from the first screen, registering them when `new`; returns at the main menu."""

    async def wait(needle: str) -> None:
        await (c.wait_for(needle) if timeout is None else c.wait_for(needle, timeout))

    await wait("Handle:")
    c.send(handle + "\r")
    if new:
        await wait("Create it?")
        c.send("Y")
        await wait("Choose a password")
        c.send(password + "\r")
        await wait("Type it again")
        c.send(password + "\r")
    else:
        await wait("Password:")
        c.send(password + "\r")
    await wait("Your choice")


async def to_opponent(c: Keyboard, length: str = "") -> None:
    """From the main menu, B)egin a match of `length` points ('': Enter, the default) playing White;
    returns at the question of the opponent."""
    c.send("B")
    await c.wait_for("Match length")
    c.send(length + "\r")
    await c.wait_for("Play as")
    c.send("W")
    await c.wait_for("Opponent:")


async def to_computer_levels(c: Keyboard, length: str = "") -> None:
    """to_opponent, then the computer: returns at its question of the level."""
    await to_opponent(c, length)
    c.send("C")
    await c.wait_for("Level [1]:")


async def begin(
    c: Keyboard, length: int | None = None, opponent: str | None = None, timeout: float | None = None
) -> None:
    """From the main menu, begin a match of `length` points (None: Enter, the default) playing White.

    With no `opponent` the seat is left open, and this returns once the game screen offers
    W)ithdraw; with one, it names them and returns as the handle is sent.
    """

    async def wait(needle: str) -> None:
        await (c.wait_for(needle) if timeout is None else c.wait_for(needle, timeout))

    c.send("B")
    await wait("Match length")
    c.send("\r" if length is None else f"{length}\r")
    await wait("Play as")
    c.send("W")
    await wait("Opponent")
    if opponent is None:
        c.send("O")
        await wait("W)ithdraw")
    else:
        c.send("N")
        await wait("Opponent's handle")
        c.send(f"{opponent}\r")


async def open_game(c: Keyboard, game: str = "1", expect: str | None = None) -> None:
    """From the main menu, V)iew the games in progress and open `game` (a line number, or `#id`);
    then wait for `expect`, when given."""
    c.send("V")
    await c.wait_for("Game:")
    c.send(game + "\r")
    if expect is not None:
        await c.wait_for(expect)


def on_board(text: str) -> bool:
    return BOARD.search(text) is not None and NEWS_PAGE not in text


async def to_board(c: Screen, timeout: float | None = None) -> str:
    """Wait until the game's board is up, paging through the news that comes first when there is
    any ("Since you last looked"); the screen text then."""
    while True:
        text = await c.wait_until(lambda t: on_board(t) or NEWS_PAGE in t, "the board, or its news page", timeout)
        if on_board(text):
            return text
        c.send(" ")  # the next page, or the board
        await c.wait_until(lambda t, page=text: t != page, "the news page to move on", timeout)


async def open_board(c: Screen, game: str = "1", timeout: float | None = None) -> str:
    """open_game, then wait for the board itself (past any news page); the screen text then."""
    await open_game(c, game)
    return await to_board(c, timeout)
