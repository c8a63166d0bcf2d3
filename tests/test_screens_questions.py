"""The answers to an offer on the board: what stays said when a question is backed out of, and a
key's refusal after the keys page."""

from __future__ import annotations

import pytest
from harness import call, login, running_server
from menus import open_board
from test_screens_roll_words import board_at_40_columns

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service
from bgdoor.ui.keys import State

pytestmark = pytest.mark.timeout(120)


def said(c) -> str:  # type: ignore[no-untyped-def]
    return " ".join(c.text.split())


def bob_offers(url: str, resign: bool) -> None:
    """A 3-point match: alice 3, bob 1, alice plays 3-1; bob doubles (or offers to resign)."""
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        if resign:
            svc.resign(bob, v.id, v.version, Win.SINGLE)
        else:
            svc.double(bob, v.id, v.version)


@pytest.mark.parametrize("resign", [False, True])
async def test_backing_out_of_an_answer_says_the_offer_again_at_40_columns(tmp_path, resign):
    """X then Esc: 'You did not drop. T)ake or X) drop.' alone, nothing saying bob had doubled or
    to what (at 40 columns the cube and the panel are past the edge); A then Esc likewise."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_offers(url, resign)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        c.send("P")
        await board_at_40_columns(c)
        c.send("A" if resign else "X")
        await c.wait_for("(Y/N)")
        c.send("\x1b")
        if resign:
            await c.wait_words("Not accepted. bob offers to resign, giving a single game (1 point).")
        else:
            await c.wait_words("You did not drop. bob doubles to 2. T)ake or X) drop.")
        c.close()


async def test_a_refusal_does_not_come_back_after_the_keys_page(tmp_path):
    """Z, then ?, then a key back: 'Z does nothing here.' was on the board again, two keys on."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_offers(url, resign=False)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await open_board(c)
        await c.wait_for("T)ake")
        c.send("Z")
        await c.wait_words("Z does nothing here.")
        c.send("?")
        await c.wait_for("Keys now")
        c.send(" ")
        await c.wait_for("T)ake")
        await c.settle(0.3)
        assert "Z does nothing here" not in said(c), said(c)
        assert "bob doubles to 2." in said(c), said(c)
        c.close()


def test_the_keys_page_speaks_to_the_player() -> None:
    """'Keys now (double offered to me):' over lines that all say 'you'."""
    assert "me" not in State.DOUBLE_TO_ME.split() and "you" in State.DOUBLE_TO_ME.split()
    assert all("me" not in s.value.split() for s in State)


def panel(c) -> str:  # type: ignore[no-untyped-def]
    """The panel beside the board, read as words."""
    return " ".join(" ".join(line[57:] for line in c.screen.display[:18]).split())


async def panel_says(c, words: str) -> None:  # type: ignore[no-untyped-def]
    await c.wait_until(lambda _: words in panel(c), repr(words))


def cube_box(c) -> tuple[int, str] | None:  # type: ignore[no-untyped-def]
    """The cube box's middle row and what it shows (the board's first five columns)."""
    for row, line in enumerate(c.screen.display, start=1):
        if 2 <= row <= 18 and line[:1] in "│|" and line[4:5] in "│|" and line[1:4].strip():
            return row, line[1:4].strip()
    return None


async def test_an_offered_double_shows_on_the_cube_from_both_sides(tmp_path):
    """bob doubled: the message said 'bob doubles to 2' while the cube stayed centred at 64 and the
    panel said nothing of it.  The cube now stands at 2 before alice, offered to her; bob sees it
    before alice too; after the take it is hers at 2."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_offers(url, resign=False)
    async with running_server(url) as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=False)
        await open_board(alice)
        await panel_says(alice, "Cube 2 offered to you")
        assert cube_box(alice) == (15, "2"), alice.text
        bob = await call(srv.port, term="ansi", charset="cp437")
        await login(bob, "bob", "bob-pw", new=False)
        await open_board(bob)
        await panel_says(bob, "Cube 2 offered to alice")
        assert cube_box(bob) == (5, "2"), bob.text
        alice.send("T")
        await panel_says(alice, "Cube 2 yours")
        assert "offered" not in panel(alice)
        assert cube_box(alice) == (15, "2"), alice.text
        await panel_says(bob, "Cube 2 alice's")
        assert cube_box(bob) == (5, "2"), bob.text
        alice.close()
        bob.close()
