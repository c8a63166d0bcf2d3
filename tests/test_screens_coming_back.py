"""What a board says to a player coming back to a game where it is the opponent's turn."""

from __future__ import annotations

import pytest
from harness import call, login, running_server
from test_screens_other_session import alice_to_roll

from bgdoor.rules.dice import ScriptedDice
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(120)


def words(text: str) -> str:
    return " ".join(text.split())


def message(c) -> str:  # type: ignore[no-untyped-def]
    """The board's message rows (19-21), read as words."""
    return words("\n".join(c.screen.display[18:21]))


@pytest.mark.parametrize("bob_plays", [False, True])
async def test_coming_back_after_playing_says_what_you_did_and_whose_turn_it_is(tmp_path, bob_plays):
    """At 80 columns the message lines were blank: the panel's 'bob to play' alone said anything,
    nothing of the play that left it so."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_to_roll(url, bob_plays=bob_plays)
    if bob_plays:  # alice, having seen bob's play, plays her 2-1: bob to roll again
        with Service(url, dice=ScriptedDice([2, 1])) as svc:
            alice = svc.login("alice", "alice-pw").id
            v = svc.roll(alice, game, svc.game(game, alice).version)
            svc.submit_turn(alice, game, v.version, "13/11 6/5")
            svc.mark_read(alice, game, len(svc.game_log(game, alice).events))
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("V")
        await c.wait_for("#1")
        c.send("#1\r")
        await c.wait_words("bob to play")
        await c.settle(0.3)
        said = message(c)
        if bob_plays:
            assert said == "You rolled 2-1 and played 13/11 6/5. bob to play.", c.text
        else:
            assert said == "Opening roll: alice 3, bob 1. You start with 3-1, playing 8/5 6/5. bob to play.", c.text
        c.close()


async def test_coming_back_at_40_columns_adds_the_score_where_it_fits(tmp_path):
    url = f"sqlite:///{tmp_path}/g.db"
    alice_to_roll(url, bob_plays=False)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        c.send("V")
        await c.wait_for("#1")
        c.send("#1\r")
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
        said = await c.wait_words("bob to play.")
        assert "You start with 3-1, playing 8/5 6/5. bob to play. Score: alice 0, bob 0 (match to 3)." \
            in words(said), said
        assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        c.close()
