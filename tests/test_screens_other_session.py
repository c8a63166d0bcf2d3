"""What a player did in another session of theirs (a second window, a second door node), told on
the board they left open: 'You played on in another session' had been said of a drop that lost
the game, of an offer to resign, and of nothing at all for an opening roll."""

from __future__ import annotations

import pytest
from harness import Caller, call, login, running_server
from menus import open_board
from test_screens_roll_words import board_at_40_columns

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(120)


def alice_to_roll(url: str, bob_plays: bool = True) -> int:
    """A 3-point match: alice 3, bob 1, alice plays 3-1, bob 4-2; alice to roll (or, without
    `bob_plays`, bob).  The game's id."""
    with Service(url, dice=ScriptedDice([3, 1, 4, 2])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        if bob_plays:
            v = svc.roll(bob, v.id, v.version)
            v = svc.submit_turn(bob, v.id, v.version, "8/4 6/4")
        return v.id


def alice_left_13_10(url: str) -> tuple[int, int]:
    """alice_to_roll, then alice rolls 3-1 and leaves 13/10 on her board.  (game, alice)"""
    game = alice_to_roll(url)
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.login("alice", "alice-pw").id
        v = svc.roll(alice, game, svc.game(game, alice).version)
        svc.save_draft(alice, game, v.version, ((13, 10),), None)
    return game, alice


async def alice_back_at_13_10(port: int) -> Caller:
    """alice's board, her 13/10 on it again."""
    c = await call(port)
    await login(c, "alice", "alice-pw", new=False)
    await open_board(c)
    await c.wait_words("Your moves so far are as you left them: 13/10")
    return c


def said(c) -> str:  # type: ignore[no-untyped-def]
    return " ".join(c.text.split())


async def test_a_drop_in_another_session_tells_the_game_lost(tmp_path):
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_to_roll(url, bob_plays=False)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await open_board(c)
        with Service(url) as svc:
            alice, bob = svc.login("alice", "alice-pw").id, svc.login("bob", "bob-pw").id
            v = svc.game(game, bob)
            v = svc.double(bob, game, v.version)
        await c.wait_words("bob doubles to 2.")
        with Service(url) as svc:
            svc.drop(alice, game, v.version)
        await c.wait_words("In another session, you dropped the double.")
        await c.wait_words("bob wins a single game on a drop, 1 point. Score: bob 1, alice 0.")
        assert "(Press a key; Q leaves the game.)" in c.text  # held, as on the board that dropped
        assert "You played on" not in said(c), said(c)
        c.close()


async def test_an_offer_to_resign_in_another_session_is_told(tmp_path):
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_to_roll(url)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await open_board(c)
        await c.wait_for("D)ouble")
        with Service(url) as svc:
            alice = svc.login("alice", "alice-pw").id
            svc.resign(alice, game, svc.game(game, alice).version, Win.SINGLE)
        await c.wait_words("In another session, you offered to resign, giving a single game (1 point).")
        assert "You played on" not in said(c), said(c)
        c.close()


async def test_an_opening_roll_in_another_session_is_told_at_40_columns(tmp_path):
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        c.send("P")
        await board_at_40_columns(c)
        with Service(url, dice=ScriptedDice([1, 4])) as svc:
            svc.roll(alice, v.id, svc.game(v.id, alice).version)
        await c.wait_words("Opening roll: alice 1, bob 4. bob starts with 4-1.")
        assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        c.close()


async def test_an_offer_made_elsewhere_stays_said_with_the_moves_it_took_once_refused(tmp_path):
    """alice had moved 13/10 in this window and offered to resign in another; bob refused: the
    board said 'Your moves here (13/10) are not kept. bob refuses the resignation', the offer that
    took them gone from it."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, alice = alice_left_13_10(url)
    async with running_server(url) as srv:
        c = await alice_back_at_13_10(srv.port)
        with Service(url) as svc:
            bob = svc.login("bob", "bob-pw").id
            v = svc.resign(alice, game, svc.game(game, alice).version, Win.SINGLE)
            await c.wait_words("In another session, you offered to resign")
            svc.answer_resign(bob, game, v.version, accept=False)
        text = said(c) if "bob refuses" in said(c) else " ".join((await c.wait_words("bob refuses")).split())
        assert "In another session, you offered to resign, giving a single game (1 point). " \
            "Your moves here (13/10) are not kept." in text, text
        c.close()


async def test_a_wrong_key_at_give_up_at_40_columns_leaves_what_the_answers_cost(tmp_path):
    """In a 1-point match every answer ends the match: 'Z is not an answer. Give up: a single game
    (1 point, the match), a gammon... (? shows all)'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 1, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        bob = svc.login("bob", "bob-pw").id
        svc.roll(bob, v.id, v.version)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "bob", "bob-pw", new=False)
        c.send("P")
        await board_at_40_columns(c)
        c.send("G")
        await c.wait_for("Esc: no")
        c.send("Z")
        await c.wait_words("Z is not an answer")  # with the question, or beside the keys where both do not fit
        await c.settle(0.2)
        # (Only the single game is offered: it ends the match, and the question says why.)
        assert "(1 point, the match)? A gammon would give no more." in said(c), said(c)
        assert "? shows all" not in said(c), said(c)
        assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        c.close()


@pytest.mark.parametrize("elsewhere, lost", [("8/5 6/5", True), ("13/10 6/5", False), ("13/9", False)])
async def test_a_play_made_elsewhere_says_whether_the_moves_here_are_kept(tmp_path, elsewhere, lost):
    """alice had moved 13/10 here and played 8/5 6/5 in another session: the board told the play
    and nothing of the 13/10 gone.  A play that carries on from it (13/10 6/5, or 13/9 by
    13/10/9) does not lose it."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, alice = alice_left_13_10(url)
    async with running_server(url) as srv:
        c = await alice_back_at_13_10(srv.port)
        with Service(url) as svc:
            svc.submit_turn(alice, game, svc.game(game, alice).version, elsewhere)
        await c.wait_words("In another session, you rolled 3-1 and played")
        await c.settle(0.3)
        text = said(c)
        assert ("Your moves here (13/10) are not kept." in text) is lost, text
        c.close()
