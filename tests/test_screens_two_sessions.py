"""One player on two sessions at once (two windows, a door node and telnet): what one session
says of what the player did on the other."""

from __future__ import annotations

from harness import running_server
from test_screens_truth import at_board, bob_doubled

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service
from bgdoor.service.types import GameView


def alice_to_play(url: str) -> tuple[int, int, GameView]:
    """A 5-point match of alice's (White) with bob: alice won the opening roll and has 3-1 to play.
    (alice, bob, the game)"""
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 5, Color.WHITE, "bob")
        return alice, bob, svc.roll(alice, v.id, v.version)


async def test_a_question_answered_in_another_session_says_so(tmp_path):
    """alice pressed X (Drop the double ...? (Y/N)) in one session and took in another; the question
    stood until Y, which then said only 'The game has changed since you last looked; look again.'
    Now the question goes, with no key, and the board says what happened."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = bob_doubled(url)[2].id
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", game)
        await a.wait_words("bob doubles to 2.")
        a.send("X")
        await a.wait_for("(Y/N)")
        with Service(url) as svc:  # her other session
            alice = svc.login("alice", "alice-pw").id
            svc.take(alice, game, svc.game_version(game))
        text = " ".join((await a.wait_words("In another session, you took")).split())
        assert "has changed since you last looked" not in text and "(Y/N)" not in text, text
        a.send("Y")  # no longer an answer to anything: no drop
        await a.settle(0.5)
        with Service(url) as svc:
            assert not svc.game(game).state.over, "the drop went through"
        a.close()


async def test_a_note_waiting_is_not_told_as_gone_with_a_play_made_elsewhere(tmp_path):
    """alice's note waited in one session while she played in another: the first said 'In another
    session, you rolled 6-3 and played 13/7 9/6. Your note: "hello".', the news's words for a note
    that went with a play; it went with her next one."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, bob, v = alice_to_play(url)
    game = v.id
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", game)
        a.send("N")
        await a.wait_for("Note to your")
        a.send("hello\r")
        await a.wait_for("Your note goes with")
        with Service(url) as svc:  # her other session plays, no note with it
            svc.submit_turn(alice, game, svc.game_version(game), "8/5 6/5")
        text = " ".join((await a.wait_words("In another session")).split())
        assert 'Your note: "hello"' not in text, text
        assert 'Your note, not yet sent: "hello".' in text, text
        a.close()
    with Service(url) as svc:
        assert all(e.note is None for e in svc.game_log(game, bob).events), "the note went"



async def test_the_give_up_question_goes_when_the_turn_is_played_in_another_session(tmp_path):
    """G's 'Give up: a single game ..., a gammon ... or a backgammon?' stood after alice played the
    turn in her other session; 1 then said the game had changed."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, _, v = alice_to_play(url)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", v.id)
        await a.settle(0.3)
        a.send("G")
        await a.wait_for("Give up:")
        with Service(url) as svc:
            svc.submit_turn(alice, v.id, svc.game_version(v.id), "8/5 6/5")
        text = " ".join((await a.wait_words("In another session")).split())
        assert "Give up:" not in text, text
        a.close()


async def test_a_play_half_typed_goes_when_the_turn_is_played_in_another_session(tmp_path):
    """alice typed '24/18 13/1' after M in one session and played the turn in her other: the typed
    line stood over the old board until Enter."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, _, v = alice_to_play(url)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", v.id)
        await a.settle(0.3)
        a.send("M")
        await a.wait_for("Your play")
        a.send("24/21 13/")
        await a.wait_for("24/21 13/")
        with Service(url) as svc:
            svc.submit_turn(alice, v.id, svc.game_version(v.id), "8/5 6/5")
        text = " ".join((await a.wait_words("Your typed play (24/21 13/) was not sent.")).split())
        assert "In another session" in text and "Your play (like" not in text, text
        a.close()


async def test_news_of_another_game_while_a_question_is_open_is_told_after_it(tmp_path):
    """bob began a game with alice while her G)ive up question was open: the wake it brought was
    taken by the question, and after Esc the board said nothing of the new game."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, bob, v = alice_to_play(url)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", v.id)
        await a.settle(0.5)
        a.send("G")
        await a.wait_for("Give up:")
        with Service(url) as svc:
            other = svc.begin_game(bob, 3, Color.WHITE, "alice").id
        await a.settle(1.0)
        a.send("\x1b")
        await a.wait_words(f"game #{other} too")
        a.close()


async def test_a_y_typed_as_the_question_goes_leaves_the_result_held(tmp_path):
    """bob's 'Accept ...? (Y/N)' went when he accepted in his other session, the result held on the
    board; the Y he typed a moment later let the result go unread."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 1, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.resign(alice, v.id, v.version, Win.SINGLE)
    async with running_server(url) as srv:
        b = await at_board(srv.port, "bob", v.id)
        await b.wait_words("alice offers to resign")
        b.send("A")
        await b.wait_for("(Y/N)")
        with Service(url) as svc:  # his other session
            svc.answer_resign(bob, v.id, svc.game_version(v.id), True)
        await b.wait_words("In another session, you accepted")
        b.send("Y")
        said = " ".join((await b.wait_words("Y came after the question had gone: nothing was done.")).split())
        assert "Press a key" in said, said  # the result is still held
        b.close()
