"""What players met while playing bgdoor end to end, each checked on a caller's screen."""

from __future__ import annotations

import pytest
from harness import call, login, running_server
from menus import begin, open_game

pytestmark = pytest.mark.timeout(120)


async def test_no_at_join_it_goes_back_to_the_list(tmp_path):
    """N at 'Join it?' went into the game as a watcher; it goes back to the list of games."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 3)
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        await open_game(bob, expect="Join it?")
        bob.send("N")
        text = await bob.wait_until(lambda t: "Watching" in t or "Join it?" not in t, "the answer to N")
        assert "Watching this game" not in text and "Games in progress" in text
        await bob.wait_for("Game:")
        bob.send("Q")
        await bob.wait_for("Your choice")
        # Y still joins.
        await open_game(bob, expect="Join it?")
        bob.send("Y")
        await bob.wait_for("roll for who starts")
        alice.close()
        bob.close()
