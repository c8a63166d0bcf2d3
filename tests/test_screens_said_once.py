"""Sentences that ran on or said a thing twice: a note before the result after it, a replay of a
turn with no play."""

from __future__ import annotations

from harness import call, login, running_server
from menus import open_board
from test_screens_roll_words import bob_to_roll

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color
from bgdoor.service import Service
from bgdoor.ui.news import narrate


def test_a_note_ends_its_sentence_before_what_follows(tmp_path):
    """'bob drops the double. bob's note: "no thanks" You win a single game on a drop': the
    result ran on from the note with no stop between."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 2, 3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.submit_turn(alice, view.id, view.version, "8/4 6/4")
        view = svc.double(bob, view.id, view.version)
        view = svc.drop(alice, view.id, view.version, note="no thanks")
        view = svc.roll(bob, view.id, view.version)
        log = svc.game_log(view.id, bob)
    text = " ".join(n.text for n in narrate(log, 0, bob))
    assert 'alice\'s note: "no thanks". ' in text, text
    assert '"no thanks" You' not in text


async def test_the_replay_of_a_turn_with_no_play_says_so_once(tmp_path):
    """'Replay: bob rolled 6-5: no legal play (no move).'"""
    url, dice = bob_to_roll(tmp_path, lambda dice, plays: not plays)
    with Service(url, dice=ScriptedDice(list(dice))) as svc:
        bob = svc.login("bob", "bob-pw").id
        view = svc.game(1, bob)
        view = svc.roll(bob, view.id, view.version)
        svc.submit_turn(bob, view.id, view.version, "")
    async with running_server(url) as srv:
        c = await call(srv.port)
        try:
            await login(c, "alice", "alice-pw", new=False)
            await open_board(c)
            await c.wait_for("V)iew last")
            c.send("V")
            said = " ".join((await c.wait_words("Replay:")).split())
            roll = f"{max(dice)}-{min(dice)}"
            assert f"Replay: bob rolled {roll}: no legal play." in said, said
            assert "(no move)" not in said, said
        finally:
            c.close()
