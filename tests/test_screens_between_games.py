"""A player coming back to a match between two of its games, the result already read."""

from __future__ import annotations

import pytest
from harness import call, login, running_server
from menus import open_board
from test_screens_kept_moves import at_40_columns

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(120)


def first_game_dropped(url: str) -> None:
    """A match to 3: alice starts with 3-1 and plays it, bob doubles and alice drops; both
    players have read it all (the first game's result was told in an earlier look)."""
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.double(bob, v.id, v.version)
        svc.drop(alice, v.id, v.version)
        upto = len(svc.game_log(v.id, alice).events)
        for pid in (alice, bob):
            svc.mark_read(pid, v.id, upto)


@pytest.mark.parametrize("cols", [80, 40])
async def test_coming_back_between_games_says_which_game_and_the_score(tmp_path, cols):
    """The first look after the result had 'Game 2 of the match. Score: ...'; a later look (a
    second window, or the next call) had a blank message line over the board.  It says how the
    last game ended too: a caller whose line dropped on the result had never been told."""
    url = f"sqlite:///{tmp_path}/g.db"
    first_game_dropped(url)
    async with running_server(url) as srv:
        for handle in ("alice", "bob"):
            who = "bob" if handle == "alice" else "you"
            said = f"Game 2 of the match: {who} won game 1 on a drop, 1 point. Score: bob 1, alice 0 (match to 3)."
            if cols == 40:
                words = await at_40_columns(srv.port, handle)
                assert said in words, words
                continue
            c = await call(srv.port, cols=cols, rows=24)
            await login(c, handle, f"{handle}-pw", new=False)
            await open_board(c)
            await c.wait_words(said)
            c.close()


async def test_the_opponent_s_opening_roll_goes_after_which_game_it_is(tmp_path):
    """alice's board said 'Game 2 of the match: bob won game 1 on a drop, ...'; bob rolled for who
    starts, and 'Opening roll: alice 1, bob 5. bob starts with 5-1.' took its place before any
    key, where news is added to the lines until a key."""
    url = f"sqlite:///{tmp_path}/g.db"
    first_game_dropped(url)
    async with running_server(url) as srv:
        c = await call(srv.port, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        await open_board(c)
        await c.wait_words("Game 2 of the match: bob won game 1 on a drop")
        with Service(url, dice=ScriptedDice([1, 5])) as svc:
            bob = svc.login("bob", "bob-pw").id
            svc.roll(bob, 1, svc.game(1, bob).version)  # the match first_game_dropped made
        said = " ".join((await c.wait_words("Opening roll: alice 1, bob 5.")).split())
        assert "Game 2 of the match: bob won game 1 on a drop" in said, said
        c.close()
