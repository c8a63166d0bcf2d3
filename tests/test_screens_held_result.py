"""A result held on the board, and what came after it, when the opponent answers at once."""

from __future__ import annotations

from typing import Any

import pytest
from harness import call, login, running_server
from menus import open_board
from test_screens_roll_words import board_at_40_columns

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(120)


async def test_the_next_opening_roll_stays_after_a_result_answered_at_once(tmp_path):
    """The computer dropped alice's double and rolled the next game's opening at once, before her
    own board had read the record: the result held said who won the opening roll after it, and
    the change notice that followed (nothing new in it) wiped that, so the key that cleared the
    result left the message lines blank."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
    # alice 3, bob 1: alice plays 3-1; bob rolls 4-2; game 2 opens with alice 2, bob 5.
    async with running_server(url, dice=ScriptedDice([3, 1, 4, 2, 2, 5])) as srv:
        svc = srv.runtime.service.service  # the service under the gateway
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.roll(bob, v.id, v.version)
        v = svc.submit_turn(bob, v.id, v.version, "8/4 6/4")
        double = svc.double

        def answered_at_once(player_id: int, game_id: int, version: int, note: str | None = None) -> Any:
            doubled = double(player_id, game_id, version, note)
            dropped = svc.drop(bob, game_id, doubled.version)
            svc.roll(bob, game_id, dropped.version)  # the next game's opening roll
            return doubled

        svc.double = answered_at_once  # type: ignore[method-assign]
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await open_board(c)
        await c.wait_for("D)ouble")
        c.send("D")
        await c.wait_words("You win a single game on a drop")
        await c.wait_words("Opening roll: alice 2, bob 5. bob starts with 5-2.")
        await c.settle(1.5)  # the change notice comes meanwhile
        c.send(" ")
        await c.wait_until(lambda t: "(Press a key" not in t, "the result cleared")
        await c.settle(0.3)
        assert "Opening roll: alice 2, bob 5. bob starts with 5-2." in " ".join(c.text.split()), c.text
        c.close()


async def test_question_mark_on_a_result_shown_whole_shows_the_keys_and_the_result_stays(tmp_path):
    """? on a held result the board showed whole cleared it, as any other key does, and the keys
    page never came."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        await open_board(c)
        await c.wait_for("D)ouble")
        with Service(url) as svc:
            v = svc.resign(alice, v.id, svc.game(v.id, alice).version, Win.SINGLE)
        await c.wait_for("A)ccept")
        c.send("A")
        await c.wait_for("(Y/N)")
        c.send("Y")
        await c.wait_for("(Press a key; Q leaves the game.)")
        assert "? shows all" not in c.text
        c.send("?")
        await c.wait_for("Keys now")
        c.send(" ")
        await c.wait_for("(Press a key; Q leaves the game.)")
        assert "You win a single game by resignation" in " ".join(c.text.split())
        c.close()


async def test_esc_on_the_message_in_full_goes_back_to_the_board(tmp_path):
    """Esc on 'The message in full' page went on to the keys page, where Esc goes back from any
    other page."""
    url = f"sqlite:///{tmp_path}/g.db"
    note = "A long note to be cut on a narrow board: " + "and so on, " * 9
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        svc.submit_turn(alice, v.id, v.version, "8/5 6/5", note.strip()[:140])
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "bob", "bob-pw", new=False)
        c.send("P")
        await board_at_40_columns(c)
        await c.wait_for("? shows all")
        c.send("?")
        await c.wait_for("The message in full")
        c.send("\x1b")
        await c.wait_for("?)help")
        assert "Keys now" not in c.text and "The message in full" not in c.text, c.text
        c.close()
