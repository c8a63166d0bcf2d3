"""A result held on the board, and what came after it, when the opponent answers at once."""

from __future__ import annotations

from typing import Any

import pytest
from harness import call, login, running_server
from menus import open_board

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color
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
