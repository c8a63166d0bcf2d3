"""The player's own roll in words where the board cannot show it (40 columns: the dice and the
panel are past the edge), and what is left of it after U)ndo."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from harness import Caller, call, login, running_server, seated
from menus import NEWS_PAGE, open_board, open_game

from bgdoor.rules import game as rules
from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color
from bgdoor.rules.moves import Play, legal_plays
from bgdoor.service import Service

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


async def board_at_40_columns(c: Caller) -> None:
    """From opening a game at 40 columns to its board: past the question about the width and
    any pages of news."""
    await c.wait_for("Enter goes on anyway")
    c.send("\r")
    while True:
        text = await c.wait_until(lambda t: "?)help" in t or NEWS_PAGE in " ".join(t.split()), "the board, or news")
        if NEWS_PAGE not in " ".join(text.split()):
            return
        c.send(" ")
        await c.wait_until(lambda t, page=text: t != page, "the news page to move on")


def bob_to_roll(folder: Path, wanted: Callable[[tuple[int, int], list[Play]], bool]) -> tuple[str, tuple[int, int]]:
    """alice and bob play a 1-point match (the first legal play each time, random dice) until bob
    is to roll and some roll gives plays that `wanted` likes; the database, and that roll."""
    for seed in range(40):
        url = f"sqlite:///{folder}/g{seed}.db"
        rng = random.Random(seed)
        with Service(url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(2000)])) as svc:
            ids = {Color.WHITE: svc.register("alice", "alice-pw").id, Color.BLACK: svc.register("bob", "bob-pw").id}
            view = svc.begin_game(ids[Color.WHITE], 1, Color.WHITE, "bob")
            while not view.state.over:
                st = view.state
                if st.phase is rules.Phase.OPENING:
                    view = svc.roll(ids[Color.WHITE], view.id, view.version)
                elif st.phase is rules.Phase.ROLL:
                    assert st.actor is not None
                    if st.actor is Color.BLACK:
                        found = [d for d in ROLLS if wanted(d, list(legal_plays(st.position, d)))]
                        if found:
                            return url, found[0]
                    view = svc.roll(ids[st.actor], view.id, view.version)
                else:
                    assert st.actor is not None and st.dice is not None
                    plays = legal_plays(st.position, st.dice)
                    view = svc.submit_turn(ids[st.actor], view.id, view.version, str(plays[0]) if plays else "")
    raise AssertionError("no such roll came up")


def forced(plays: list[Play], moves: int) -> bool:
    """One legal play, of so many moves."""
    return len(plays) == 1 and len(plays[0].moves) == moves


async def bob_rolls_at_40_columns(url: str, dice: tuple[int, int]) -> str:
    async with running_server(url, dice=ScriptedDice([*dice, 1, 2])) as srv:
        bob = await call(srv.port, cols=40, rows=24)
        try:
            await login(bob, "bob", "bob-pw", new=False)
            await open_game(bob)
            await board_at_40_columns(bob)
            await bob.wait_for("P)lay")
            bob.send("P")
            await bob.wait_words("You rolled")  # after the dice tumble
            await bob.settle(0.3)
            assert all(len(line.rstrip()) <= 40 for line in bob.screen.display)
            return " ".join(" ".join(line.split()) for line in bob.screen.display)
        finally:
            bob.close()


async def test_a_roll_with_no_play_is_said_at_40_columns(tmp_path):
    """'You cannot move with this roll. Enter passes the turn.' with both dice past the edge: the
    player passed without knowing what they had rolled."""
    url, dice = bob_to_roll(tmp_path, lambda dice, plays: not plays)
    text = await bob_rolls_at_40_columns(url, dice)
    high, low = max(dice), min(dice)
    assert f"You rolled {high}-{low} and cannot move." in text, text


async def test_a_forced_play_says_its_roll_at_40_columns(tmp_path):
    """'Your only play is 13/7 13/8. Enter commits it.' did not say the 6-5 it was made with."""
    url, dice = bob_to_roll(tmp_path, lambda dice, plays: dice[0] != dice[1] and forced(plays, moves=2))
    text = await bob_rolls_at_40_columns(url, dice)
    high, low = max(dice), min(dice)
    assert f"You rolled {high}-{low}; your only play is " in text, text


async def test_a_forced_play_losing_a_die_says_which_die_plays(tmp_path):
    """'Your only play is 10/4. Enter commits it.' with a 6-5: neither the roll nor that the 5 is
    lost (the higher-die rule) was said."""
    url, dice = bob_to_roll(tmp_path, lambda dice, plays: dice[0] != dice[1] and forced(plays, moves=1))
    text = await bob_rolls_at_40_columns(url, dice)
    high, low = max(dice), min(dice)
    said = rf"You rolled {high}-{low}; only the [{high}{low}] can be played: \S+\. Enter commits it\."
    assert re.search(said, text), text


async def test_a_roll_whose_plays_all_lose_a_die_says_so(tmp_path):
    """Bearing off with 4-3 against a held point, 5/2 or 3/off: 'You rolled 4-3.' and nothing
    more; that the 4 could not be played came only from refusals."""

    def lost(dice: tuple[int, int], plays: list[Play]) -> bool:
        return dice[0] != dice[1] and len(plays) > 1 and all(len(p.moves) == 1 for p in plays)

    url, dice = bob_to_roll(tmp_path, lost)
    text = await bob_rolls_at_40_columns(url, dice)
    high, low = max(dice), min(dice)
    assert re.search(rf"You rolled {high}-{low}; only the [{high}{low}] can be played\.", text), text


async def test_undo_says_what_is_left_to_play(tmp_path):
    """After U)ndo the message said only 'Move taken back.', where a move says 'Moved 13/7; the 5
    to play.' (at 40 columns the panel saying it is cut off, and a die)."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([6, 5] + [1, 2] * 20)) as srv:
        alice, bob = await seated(srv.port)
        try:
            alice.send("P")
            await alice.wait_for("You start with 6-5")
            alice.send("\r2" + "6" * 5 + "\r")  # the cursor starts on 13: 13 to 7
            await alice.wait_words("the 5 to play")
            alice.send("4\r" + "6" * 5 + "\r")  # 8 to 3
            await alice.wait_words("Your play: 13/7 8/3.")
            alice.send("U")
            await alice.wait_words("Move taken back; the 5 to play.")
            alice.send("U")
            await alice.wait_words("Move taken back; 6-5 to play.")  # nothing played: the whole roll
        finally:
            alice.close()
            bob.close()


async def test_the_opening_roll_won_is_not_said_twice_at_40_columns(tmp_path):
    """Coming back to a game whose opening roll the player won: 'You start with 6-3. Your turn
    6-3.' (the narrow board adds the roll for a message that does not say it)."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 6])) as svc:  # bob 3 (White rolls first), alice 6
        svc.register("alice", "alice-pw")
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(bob, 1, Color.WHITE, "alice")
        svc.roll(bob, view.id, view.version)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        try:
            await login(c, "alice", "alice-pw", new=False)
            await open_game(c)
            await board_at_40_columns(c)
            await c.wait_words("You start with 6-3.")
            await c.settle(0.3)
            text = " ".join(" ".join(line.split()) for line in c.screen.display)
            assert "Your turn 6-3" not in text, text
        finally:
            c.close()


async def test_news_of_another_game_keeps_the_roll_said_at_40_columns(tmp_path):
    """'Opening roll, after a tie at 4: alice 4, bob 1. You start with 4-1.' gave way to 'Your turn
    in game #2 too: ...', and with the 1 past the screen's edge nothing said what alice had to
    play."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 4, 4, 1, 5, 2])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        first = svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.roll(alice, first.id, first.version)  # a tie, then alice 4, bob 1: alice starts with 4-1
        second = svc.begin_game(bob, 3, Color.WHITE, "alice")
        second = svc.roll(bob, second.id, second.version)  # bob 5, alice 2: bob starts with 5-2
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        try:
            await login(c, "alice", "alice-pw", new=False)
            await open_game(c, f"#{first.id}")
            await board_at_40_columns(c)
            await c.wait_words("You start with 4-1.")
            with Service(url) as svc:
                svc.submit_turn(bob, second.id, second.version, "13/8 13/11")
            said = " ".join((await c.wait_words(f"Your turn in game #{second.id} too")).split())
            # The opening roll stays, the notice in its fewest words after it.
            assert f"You start with 4-1. Your turn in game #{second.id} too: Q, P)lay." in said, said
            assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        finally:
            c.close()


def test_the_last_checker_borne_off_is_the_only_play_not_a_die_lost() -> None:
    """'You rolled 2-1; only the 2 can be played: 1/off.': either die bears the last checker off;
    the other is unused because the game is won."""
    from test_rules_support import board  # noqa: PLC0415 - a rules test's helper

    from bgdoor.ui.game import one_play_said  # noqa: PLC0415

    pos = board({1: 1}, {24: 2})
    (play,) = legal_plays(pos, (2, 1))
    assert one_play_said((2, 1), play, (1,)) == "You rolled 2-1; your only play is 1/off. Enter commits it."
    pos = board({13: 1}, {2: 2})  # a die lost to the higher-die rule: said so
    (play,) = legal_plays(pos, (6, 5))
    assert one_play_said((6, 5), play, (5,)) == "You rolled 6-5; only the 6 can be played: 13/7. Enter commits it."


async def test_the_only_play_typed_again_over_itself_says_the_roll_is_played(tmp_path):
    """The only play made for bob, M, and the play typed after it: 'Too many moves for the roll:
    ... and you have 4-2 to play. The line began with the moves on the board, 21/15: Enter alone
    commits it.', as if the roll were still to play."""
    url, dice = bob_to_roll(tmp_path, lambda dice, plays: dice[0] != dice[1] and forced(plays, moves=1))
    async with running_server(url, dice=ScriptedDice([*dice, 1, 2])) as srv:
        bob = await call(srv.port)
        try:
            await login(bob, "bob", "bob-pw", new=False)
            await open_board(bob)
            await bob.wait_for("P)lay")
            bob.send("P")
            said = " ".join((await bob.wait_words("Enter commits it.")).split())
            play = re.search(r"can be played: (\S+)\. Enter commits it\.", said)
            assert play, said
            bob.send("M")
            await bob.wait_words("Enter sends, Esc cancels")
            bob.send(f"{play.group(1)}\r")
            await bob.wait_words(f"Too many moves: the line began with the moves on the board, {play.group(1)}, "
                                 "which play the whole roll. Enter alone commits them.")
        finally:
            bob.close()


async def test_an_opening_roll_with_long_names_at_40_columns_keeps_who_starts(tmp_path):
    """'Opening roll, after a tie at 4: Christopher_Well 6,... (? shows all)': with two long names
    and a tie, who starts, with which roll and playing what, was on the ? page alone (and at 40
    columns the dice are past the edge)."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 4, 6, 2, 1, 2])) as svc:
        chris = svc.register("Christopher_Well", "chris-pw").id
        svc.register("Bartholomew_Long", "bart-pw")
        view = svc.begin_game(chris, 3, Color.WHITE, "Bartholomew_Long")
        view = svc.roll(chris, view.id, view.version)  # a tie at 4, then 6-2: Christopher_Well starts
        svc.submit_turn(chris, view.id, view.version, "24/18 13/11")
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        try:
            await login(c, "Bartholomew_Long", "bart-pw", new=False)
            await open_game(c)
            await board_at_40_columns(c)
            said = " ".join((await c.wait_words("starts with 6-2")).split())
            assert "Christopher_Well starts with 6-2, playing 24/18 13/11." in said.split("(? shows all)")[0], said
        finally:
            c.close()
