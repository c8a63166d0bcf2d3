"""V)iew last, the replay of the last turn, from a play-tester's findings: it opens on the board
before the turn and stays there a moment before the moves play themselves, and its message names
the moves on the board so far, one by one, with a count of them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from harness import Caller, call, login, running_server
from menus import NEWS_PAGE, open_game
from test_screens_truth import alice_to_roll, at_board

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.rules.moves import Move
from bgdoor.service import GameView, Service
from bgdoor.ui.news import since_turn
from bgdoor.ui.review import replay_text

pytestmark = pytest.mark.timeout(120)

SIZES = [(80, 25), (40, 24)]


def words(text: str) -> str:
    return " ".join(text.split())


def bob_opens(url: str, drop: bool) -> None:
    """bob against carol, a 3-point match, dave registered to watch.  Not `drop`: bob starts with
    6-5 and plays 24/13 (one checker, 24/18 then 18/13); carol is to roll.  `drop`: bob starts
    with 4-2, 8/4 6/4, carol doubles and bob drops, so game 2 waits for its opening roll and the
    last turn played is game 1's."""
    dice = [4, 2] if drop else [6, 5]
    with Service(url, dice=ScriptedDice(dice)) as svc:
        bob = svc.register("bob", "bob-pw").id
        carol = svc.register("carol", "carol-pw").id
        svc.register("dave", "dave-pw")
        v = svc.begin_game(bob, 3, Color.WHITE, "carol")
        v = svc.roll(bob, v.id, v.version)
        v = svc.submit_turn(bob, v.id, v.version, "8/4 6/4" if drop else "24/13")
        if drop:
            v = svc.double(carol, v.id, v.version)
            v = svc.drop(bob, v.id, v.version)
            assert v.state.game == 2


async def at_the_board(port: int, who: str, cols: int, rows: int) -> Caller:
    """`who` opens game 1 at that size (past the width question, news pages and a result held)."""
    c = await call(port, cols=cols, rows=rows)
    await login(c, who, f"{who}-pw", new=False)
    await open_game(c)
    if cols < 80:
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
    while True:
        text = words(await c.wait_until(
            lambda t: "?)help" in t or NEWS_PAGE in words(t) or "(Press a key" in words(t), "the board, or news"))
        if NEWS_PAGE in text:
            c.send(" ")
            await c.wait_until(lambda t, page=text: words(t) != page, "the news page to move on")
        elif "(Press a key" in text:
            c.send(" ")  # the result of game 1, held until a key
            await c.wait_until(lambda t: "(Press a key" not in words(t), "the result to go")
        else:
            return c


async def held(c: Caller, caption: str, seconds: float) -> None:
    """`caption` shows, and shows still `seconds` later."""
    await c.wait_words(caption)
    await asyncio.sleep(seconds)
    assert caption in words(c.text), c.text


CASES = {
    # The turn just played: one checker moved twice, which the news calls 24/13.
    "ordinary": ("Replay: bob played the opening 6-5:", ["24/18", "18/13"]),
    # The first look at game 2: the last turn is the end of game 1's play.
    "next game": ("Replay: bob played the opening 4-2 in the last game:", ["8/4", "6/4"]),
}


@pytest.mark.parametrize(("cols", "rows"), SIZES, ids=[f"{c}x{r}" for c, r in SIZES])
@pytest.mark.parametrize("who", ["carol", "dave"], ids=["player", "watcher"])
@pytest.mark.parametrize("case", list(CASES))
async def test_the_replay_starts_before_the_turn_and_names_the_moves_shown(
    tmp_path: Path, case: str, who: str, cols: int, rows: int
) -> None:
    """V opened on '24/13 (move 0 of 2)' and went on by itself after 0.8 s, so what a caller saw
    on opening depended on when they looked ('move 1 of 2' after one turn, 'move 0 of 1' at the
    next game's start); and every step named the whole play, 24/13 for 24/18 18/13 counted as two
    moves.  Now it opens on the board before the turn, held a moment, and then names the moves
    shown so far with their count."""
    url = f"sqlite:///{tmp_path}/g.db"
    head, moves = CASES[case]
    bob_opens(url, drop=case == "next game")
    async with running_server(url) as srv:
        c = await at_the_board(srv.port, who, cols, rows)
        try:
            c.send("V")
            before = f"{head} the board before the first of 2 moves."
            # Said while it steps by itself (an Enter then had gone two moves on, unexplained).
            await held(c, f"{before} It goes on by itself until a key.", 1.2)
            await c.wait_words(f"{head} {moves[0]} (1 of 2 moves).")
            text = await c.wait_words(f"{head} {moves[0]} {moves[1]} (2 of 2 moves).")
            assert "(move" not in words(text), text
            c.send("4")
            await c.wait_words(f"{head} {moves[0]} (1 of 2 moves).")
            c.send("4")
            await c.wait_words(before)
            assert "by itself" not in words(c.text), c.text  # stepped by keys now
            c.send("4")
            await c.wait_words("That is the board before the first move.")
            c.send("Q")
            await c.wait_until(lambda t: "Replay" not in t and "V)iew last" in t, "the board again")
        finally:
            c.close()


def test_the_replay_counts_one_move_and_the_four_of_a_double_as_it_names_them() -> None:
    """The message at each step of a turn of one move (a last checker borne off with 2-2) and of
    four: the moves named are the moves counted."""
    one = [Move(1, 0)]
    assert replay_text("alicia", (2, 2), " in the last game", one, 0) == (
        "Replay: alicia rolled 2-2 in the last game: the board before the move.")
    assert replay_text("alicia", (2, 2), " in the last game", one, 1) == (
        "Replay: alicia rolled 2-2 in the last game: 1/off (1 of 1 move).")
    four = [Move(13, 11), Move(13, 11), Move(6, 4, hit=True), Move(6, 4)]
    said = [replay_text("bob", (2, 2), "", four, n) for n in range(5)]
    assert said[0] == "Replay: bob rolled 2-2: the board before the first of 4 moves."
    assert said[2] == "Replay: bob rolled 2-2: 13/11 13/11 (2 of 4 moves)."
    assert said[4] == "Replay: bob rolled 2-2: 13/11 13/11 6/4* 6/4 (4 of 4 moves)."
    assert replay_text("bob", (6, 5), "", [], 0) == "Replay: bob rolled 6-5: no legal play."


def bob_and_carol_opened(svc: Service) -> tuple[int, int, GameView]:
    """bob against carol, a 3-point match: bob starts (6-5) with 24/13, carol plays 3-1 as 8/5 6/5;
    bob to roll.  (bob, carol, the game)"""
    bob = svc.register("bob", "bob-pw").id
    carol = svc.register("carol", "carol-pw").id
    v = svc.begin_game(bob, 3, Color.WHITE, "carol")
    v = svc.roll(bob, v.id, v.version)
    v = svc.submit_turn(bob, v.id, v.version, "24/13")
    v = svc.roll(carol, v.id, v.version)
    return bob, carol, svc.submit_turn(carol, v.id, v.version, "8/5 6/5")


@pytest.mark.parametrize("case", ["double waiting", "taken", "next game", "refused"])
async def test_the_replay_says_what_the_opponent_did_since_the_turn_it_shows(tmp_path: Path, case: str) -> None:
    """V)iew last after bob took carol's double (or with bob's double waiting, or after bob refused
    her resignation) replayed bob's move from before it, and read as if that were the last thing
    bob did; a double in the next game, before bob had played there, was not said at all."""
    url = f"sqlite:///{tmp_path}/g.db"
    # bob 6, carol 5: bob starts; carol's 3-1; then bob's 4-2, or game 2's opening roll carol wins.
    dice = [6, 5, 3, 1, *([2, 4] if case == "next game" else [4, 2])]
    with Service(url, dice=ScriptedDice(dice)) as svc:
        bob, carol, v = bob_and_carol_opened(svc)
        if case == "double waiting":
            v = svc.double(bob, v.id, v.version)
            since = "Since then bob doubled to 2."
        elif case == "taken":
            v = svc.roll(bob, v.id, v.version)
            v = svc.submit_turn(bob, v.id, v.version, "13/9 24/22")
            v = svc.double(carol, v.id, v.version)
            v = svc.take(bob, v.id, v.version)
            since = "Since then you doubled to 2; bob took your double."
        elif case == "next game":
            v = svc.resign(carol, v.id, v.version, Win.SINGLE)
            v = svc.answer_resign(bob, v.id, v.version, accept=True)
            v = svc.roll(bob, v.id, v.version)  # game 2's opening roll: carol starts
            assert v.state.game == 2 and v.state.turn is Color.BLACK, v.state
            v = svc.submit_turn(carol, v.id, v.version, "8/4 6/4")
            v = svc.double(bob, v.id, v.version)
            since = ("Since then you offered to resign, giving a single game; bob accepted your resignation. "
                     "In game 2, bob doubled to 2.")
        else:
            v = svc.resign(carol, v.id, v.version, Win.SINGLE)
            v = svc.answer_resign(bob, v.id, v.version, accept=False)
            since = "Since then you offered to resign, giving a single game; bob refused your resignation."
    async with running_server(url) as srv:
        c = await at_the_board(srv.port, "carol", 80, 25)
        try:
            c.send("V")
            await c.wait_words("(2 of 2 moves).")
            await c.wait_words(since)
            c.send("\r")
            await c.wait_words(f"That was the last move. {since} Q goes back to the game.")
        finally:
            c.close()


def test_a_watcher_s_replay_says_what_both_players_did_since(tmp_path: Path) -> None:
    """A watcher's V)iew last after carol doubled and bob took said 'Since then bob took the
    double.': who doubled, the player who had not played last, was never told."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([6, 5, 3, 1, 4, 2])) as svc:
        bob, carol, v = bob_and_carol_opened(svc)
        v = svc.roll(bob, v.id, v.version)
        v = svc.submit_turn(bob, v.id, v.version, "13/9 24/22")
        v = svc.double(carol, v.id, v.version)
        v = svc.take(bob, v.id, v.version)
        last = svc.last_turn(v.id, None)
        assert last is not None and last.notation == "24/22 13/9"
        assert since_turn(svc.game_log(v.id, None), last.seq, None) == \
            "Since then carol doubled to 2; bob took the double."
        assert since_turn(svc.game_log(v.id, carol), last.seq, carol) == \
            "Since then you doubled to 2; bob took your double."


async def test_what_was_done_since_the_turn_replayed_is_said_as_it_goes_on(tmp_path):
    """alice doubled and replayed bob's last turn; bob took meanwhile: the replay still said only
    'Since then you doubled to 2.', after its steps and keys, until she went back to the board."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", game)
        a.send("D")
        await a.wait_words("You offer the cube at 2.")
        a.send("V")
        await a.wait_words("(2 of 2 moves). Since then you doubled to 2.")
        with Service(url) as svc:
            svc.take(bob, game, svc.game(game, bob).version)
        await a.wait_words("Since then you doubled to 2; bob took your double.")
        a.send("Q")
        await a.wait_words("bob takes the double")
        a.close()
