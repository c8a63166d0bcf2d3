"""What players met while playing bgdoor end to end, each checked on a caller's screen."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import menus
import pytest
from harness import Caller, call, login, running_server, seated
from menus import begin, open_game
from racehome import fastest, race_home
from rawtelnet import RawCaller
from test_sysop_support import resign_at_once

from bgdoor.config import MemberBBS
from bgdoor.rules import Position, game as rules
from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, MatchState, Win
from bgdoor.rules.moves import Play, legal_plays
from bgdoor.rules.parse import parse_play
from bgdoor.rules.turn import Turn
from bgdoor.service import Service, StorageError
from bgdoor.service.sysop import Sysop
from bgdoor.service.types import GameView, Preferences
from bgdoor.ui.board import HELP_ROW, label_cell
from bgdoor.ui.review import frames

pytestmark = pytest.mark.timeout(120)


def bob_opens(url: str, note: str | None = None) -> tuple[Service, int, int, GameView]:
    """bob against carol, a 3-point match: bob wins the opening roll with 4-2 and plays 8/4 6/4
    (with `note`).  The service is open: the caller closes it."""
    svc = Service(url, dice=ScriptedDice([4, 2, 4, 2]))
    bob = svc.register("bob", "bob-pw").id
    carol = svc.register("carol", "carol-pw").id
    v = svc.begin_game(bob, 3, Color.WHITE, "carol")
    v = svc.roll(bob, v.id, v.version)
    return svc, bob, carol, svc.submit_turn(bob, v.id, v.version, "8/4 6/4", note)


def bob_resigns_to_alice(url: str, win: Win, length: int = 1) -> None:
    """A match of `length`: alice starts with 3-1, bob resigns giving `win`, and alice accepts."""
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, length, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.resign(bob, view.id, view.version, win)
        svc.answer_resign(alice, view.id, view.version, True)


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


async def test_the_next_opening_roll_stays_once_the_result_is_dismissed(tmp_path):
    """A player looking at a game's result while the opponent rolled the next game's opening saw,
    after pressing a key, 'Your turn 5-2' and nothing of who won the opening roll."""
    dice = ScriptedDice([3, 1, 2, 5] + [1, 2] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-1")
        alice.send("M")
        await alice.wait_for("Your play (like")
        alice.send("8/5 6/5\r")
        await bob.wait_for("D)ouble")
        bob.send("D")
        await alice.wait_for("T)ake")
        alice.send("X")
        await alice.wait_for("(Y/N)")
        alice.send("Y")
        await bob.wait_words("You win a single game on a drop")
        await alice.wait_for("(Press a key; Q leaves the game.)")
        alice.send(" ")
        await alice.wait_for("roll for who starts")
        # The next game, before its opening roll, said so (the message line was blank).
        await alice.wait_words("Game 2 of the match. Score: bob 1, alice 0 (match to 3).")
        alice.send("P")
        await alice.wait_for("bob starts with 5-2")
        await bob.wait_words("You start with 5-2")  # after the result, while it is held
        bob.send(" ")  # the key that clears the result
        text = await bob.wait_until(lambda t: "(Press a key; Q leaves the game.)" not in t, "the result cleared")
        await bob.settle()
        text = bob.text
        assert "Your turn 5-2" in text
        assert "Opening roll: alice 2, bob 5. You start with 5-2." in " ".join(text.split())
        alice.close()
        bob.close()


async def test_begin_says_why_a_key_is_no_answer_and_asks_a_wrong_handle_again(tmp_path):
    """B)egin ignored a wrong key at 'Play as' and 'Opponent' without a word, and an unknown
    opponent's handle flashed 'there is no player called ...' and dropped the caller back on the
    menu, every answer lost."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        alice.send("B")
        await alice.wait_for("Match length")
        alice.send("5\r")
        await alice.wait_for("Play as")
        alice.send("X")
        await alice.wait_for("X is not an answer: W, B or R (Enter: Random)")
        alice.send("W")
        await alice.wait_for("Opponent:")
        assert "is not an answer" not in alice.text  # the hint goes with the answer
        alice.send("Z")
        await alice.wait_for("Z is not an answer: O")
        alice.send("N")
        await alice.wait_for("Opponent's handle")
        assert "Named player" in alice.text
        alice.send("nobody\r")
        await alice.wait_for("There is no player called 'nobody'. Type another handle, or Enter to go back.")
        await alice.settle(0.5)
        assert "Your choice" not in alice.text  # still asking, not back on the menu
        alice.send("bob\r")
        await alice.wait_for("roll for who starts")
        assert "Match to 5" in alice.text  # the length answered before the wrong handle
        alice.close()
        bob.close()


async def test_a_yes_no_question_says_why_a_key_is_no_answer(tmp_path):
    """'Create it? (Y/N)' and 'Join it? (Y/N)' ignored any other key without a word."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        alice = await call(srv.port)
        await alice.wait_for("Handle:")
        alice.send("alice\r")
        await alice.wait_for("Create it?")
        alice.send("x")
        await alice.wait_for("X is not an answer: Y or N.")
        alice.send("Y")
        await alice.wait_for("Choose a password")
        assert "is not an answer" not in alice.text
        alice.send("alice-pw\r")
        await alice.wait_for("Type it again")
        alice.send("alice-pw\r")
        await alice.wait_for("Your choice")
        await begin(alice, 3)
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        await open_game(bob, expect="Join it?")
        bob.send("5")
        await bob.wait_for("5 is not an answer: Y or N.")
        bob.send("Y")
        await bob.wait_for("roll for who starts")
        alice.close()
        bob.close()


async def test_an_enter_typed_right_after_a_refused_key_takes_no_default(tmp_path):
    """'Z' and Enter at 'Play as', '9' and Enter at 'Level [1]:', 'x' and Enter at 'Create it?':
    the refusal was wiped at once and the Enter took the default (Random, level 1, no), unseen.
    Such an Enter now asks for another; a second Enter takes the default."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", bot=True) as srv:
        c = await call(srv.port)
        await c.wait_for("Handle:")
        c.send("alice\r")
        await c.wait_for("Create it?")
        c.send("x\r")
        await c.wait_words("Enter again for No; or Y or N.")
        assert "Create it?" in c.text and "Choose a password" not in c.text
        c.send("Y")
        await c.wait_for("Choose a password")
        c.send("alice-pw\r")
        await c.wait_for("Type it again")
        c.send("alice-pw\r")
        await c.wait_for("Your choice")
        c.send("B")
        await c.wait_for("Match length")
        c.send("\r")
        await c.wait_for("Play as")
        c.send("Z\r")
        await c.wait_words("Enter again for Random; Esc goes back to the menu.")
        assert "Opponent" not in c.text
        c.send("\r")
        await c.wait_for("Opponent")
        assert "Play as W)hite, B)lack or R)andom [R]: Random" in c.text
        c.send("C")
        await c.wait_for("Level [1]:")
        c.send("9\r")
        await c.wait_words("Enter again for level 1; Esc goes back to the menu.")
        await c.settle(0.5)
        assert "Level [1]:" in c.text and "Opening roll" not in c.text
        c.send("2\r")  # a level typed after it is taken as ever
        await c.wait_for("Intermediate")
        await c.wait_for("Opening roll")
        c.close()


async def test_a_second_digit_at_the_level_says_a_level_is_one_digit(tmp_path):
    """'2' then '3' at 'Level [1]:' showed 'Level [1]: 3' and said nothing (the match length's
    field says why it takes no more): the first stays, and the line says so."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", bot=True) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)
        await menus.to_computer_levels(c)
        c.send("2")
        await c.wait_for("Level [1]: 2")
        c.send("3")
        await c.wait_words("A level is one digit, 1 to 4: Backspace takes 2 back.")
        assert "Level [1]: 2" in c.text
        c.send("\r")
        await c.wait_for("Intermediate")
        c.close()


async def test_the_instructions_footer_says_where_each_key_goes(tmp_path):
    """The Instructions footer offered 'B: back  Q: quit' beside 'Enter: back to the menu': B turns a
    page back and Q goes to the menu (it does not quit)."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        alice.send("I")
        text = await alice.wait_for("Page 1 of")
        # B is offered where there is a page to turn back to: not on the first.
        assert "Q: menu Any other key: next page" in " ".join(text.split()) and "B:" not in text \
            and "Q: quit" not in text
        alice.send("1")  # any other key turns the page too
        text = await alice.wait_for("Page 2 of")
        footer = " ".join(" ".join(text.split("\n")[-3:]).split())
        assert "B: page back Q: menu Any other key: next page" in footer, text
        alice.send("\x1b[D")  # Left turns back too, as 4 moves left on the board (it had turned on)
        await alice.wait_for("Page 1 of")
        alice.send("B")
        await alice.wait_for("This is the first page.")
        # The last page: any key but B goes back, and says so (X had gone back under 'Enter: back
        # to the menu').
        text = alice.text
        while "Any other key: back to the menu" not in " ".join(text.split()):
            alice.send(" ")
            text = await alice.wait_until(lambda t, was=text: t != was, "the next page")
        assert "B: page back Any other key: back to the menu" in " ".join(text.split()), text
        alice.send("X")
        await alice.wait_for("Your choice")
        alice.send("I")
        await alice.wait_for("Page 1 of")
        alice.send("Q")
        await alice.wait_for("Your choice")
        alice.close()


async def test_a_refused_drop_is_a_sentence_and_the_checker_stays_in_hand(tmp_path):
    """Dropping a checker on a blocked point said 'point 12 is blocked' (the rules' words, not a
    sentence) and put the checker back where it came from without saying so."""
    dice = ScriptedDice([3, 1] + [1, 2] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-1")
        alice.send("\r")  # the cursor starts on 13: pick a checker up
        await alice.wait_for("Checker in hand")
        alice.send("2\r")  # down to 12, which bob holds
        text = " ".join((await alice.wait_for("blocked")).split())
        assert "Point 12 is blocked. Put it down on a marked point, or U puts it back." in text
        alice.send("U")
        await alice.wait_for("The checker is back.")  # it was still in hand
        alice.close()
        bob.close()


async def test_the_checker_in_hand_is_still_said_after_the_cursor_moves(tmp_path):
    """'Checker in hand: ...' went at the first cursor key: the line stood blank while the checker
    was carried (play-tested at 80x24 in CP437)."""
    dice = ScriptedDice([3, 1] + [1, 2] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-1")
        alice.send("\r")  # the cursor starts on 13: pick a checker up
        await alice.wait_for("Checker in hand")
        alice.send("6")  # along the top row, away from the marks
        await alice.settle(0.5)
        assert "Checker in hand: move to a marked point, Enter puts it down." in " ".join(alice.text.split())
        alice.send("4")  # back over 13: Enter there puts it back
        alice.send("\r")
        await alice.wait_for("The checker is back.")
        alice.send("6")
        await alice.settle(0.5)
        assert "Checker in hand" not in alice.text and "The checker is back." not in alice.text
        alice.close()
        bob.close()


async def test_a_full_or_empty_field_says_why_not_blames_the_key(tmp_path):
    """Enter alone at 'Opponent's handle:' went back to the menu unsaid; a lone '#' at a list's
    'Game:' read 'Game # is not in this list.'; an eighth digit read '9 is not an answer'; past
    M)ove's 40 characters only the bell rang."""
    dice = ScriptedDice([3, 1] + [1, 2] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        bob.send("Q")
        await bob.wait_for("Your choice")
        await menus.to_opponent(bob)
        bob.send("N")
        await bob.wait_for("Opponent's handle:")
        bob.send("\r")
        await bob.wait_words("Type your opponent's handle, then Enter; Enter again goes back to the menu.")
        assert "Your choice" not in bob.text
        bob.send("\r")
        await bob.wait_for("Your choice")
        bob.send("V")
        await bob.wait_words("Q or Enter goes back.")
        bob.send("#\r")
        await bob.wait_words("Type the game's number after the #, then Enter.")
        bob.send("12345678")
        await bob.wait_words("The number has room for 7 characters.")
        assert "is not an answer" not in bob.text
        bob.send("\x7f")  # a backspace: the field has room again, and the words go
        await bob.wait_until(lambda t: "room for 7" not in t, "the full field's words gone")
        alice.send("P")
        await alice.wait_for("You start with 3-1")
        alice.send("M")
        await alice.wait_for("Enter sends")
        for _ in range(8):  # as typed, not one burst past the keys a read may queue
            alice.send("13/10 ")
            await asyncio.sleep(0.05)
        await alice.wait_words("A typed play has at most 40 characters.")
        alice.close()
        bob.close()
async def test_a_key_typed_on_after_p_reaches_the_board_past_its_news_page(tmp_path):
    """'P' then 'A' at once, with alice's resignation offered among three lines of news: the A
    only ended the 'Since you last looked' page, and the board never asked 'Accept ...?'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 3])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        game = svc.begin_game(alice, 1, Color.WHITE, opponent="bob").id
        view = svc.roll(alice, game, svc.game_version(game))  # the opening roll: alice 4, bob 3
        svc.resign(alice, game, view.version, Win.SINGLE)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        c.send("PA")
        await c.wait_words("Accept, and win")
        assert "(Y/N)" in c.text
        c.send("Y")
        await c.wait_words("You win")
        c.close()


async def test_a_key_refused_just_after_news_keeps_the_news(tmp_path):
    """bob's Enter for the opening roll, a moment after alice made it: 'It is your opponent's turn'
    took the line, and 'Opening roll: alice 3, bob 1. alice starts with 3-1.' was never seen."""
    dice = ScriptedDice([3, 1] + [1, 2] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await bob.wait_words("Opening roll: alice 3, bob 1.")
        bob.send("\r")
        said = " ".join((await bob.wait_words("your opponent's turn")).split())
        assert "Opening roll: alice 3, bob 1." in said, said
        alice.close()
        bob.close()


async def test_the_rankings_say_why_a_key_is_no_answer(tmp_path):
    """At the rankings' 'Rank:' prompt a letter did nothing at all; the game lists said why."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("R")
        await c.wait_for("Rank:")
        c.send("x")
        await c.wait_for("X is not an answer: a rank and Enter or Q.")
        # N is no answer either: it had gone back to the menu without a word (the ranks are one
        # page), and the Q typed after it had quit the call.
        c.send("n")
        await c.wait_for("N is not an answer: a rank and Enter or Q.")
        c.send("2\r")
        await c.wait_for("Rating history")
        c.close()


async def test_the_rankings_follow_a_match_ended_while_they_are_open(tmp_path):
    """carol's R)ank, left open while bob won a match, went on showing alice first at 1510.0, and
    the page typed from it ('1') said another rating."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=True)
        c.send("R")
        await c.wait_for("Rank:")
        await c.wait_words("1. alice 1510.0 1 0")
        with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
            alice, bob = svc.login("alice", "alice-pw").id, svc.login("bob", "bob-pw").id
            view = svc.begin_game(alice, 1, Color.WHITE, "bob")
            view = svc.roll(alice, view.id, view.version)
            await asyncio.sleep(0.5)  # the change feed's look knows the game (not begun and ended between two)
            view = svc.resign(alice, view.id, view.version, Win.SINGLE)
            svc.answer_resign(bob, view.id, view.version, True)
            now = {r.handle: r for r in svc.rankings()}
        said = await c.wait_words(f"alice {now['alice'].rating:.1f} 1 1")
        assert f"bob {now['bob'].rating:.1f} 1 1" in " ".join(said.split()), said
        c.close()


async def reviewing_first_match(port: int, handle: str) -> Caller:
    """`handle` (password handle-pw) logged in, M)atches, and the first finished match opened in
    R)eview (at its last step)."""
    c = await call(port)
    await login(c, handle, f"{handle}-pw", new=False)
    c.send("M")
    await c.wait_for("Game:")
    c.send("1\r")
    return c


async def test_review_marks_nobody_at_a_result_as_the_game_screen_does(tmp_path):
    """R)eview's last step, 'alice wins the match, 1-0', had the panel's marker on bob, the
    player who had been to move; then on alice, which two testers read as alice to act, as on
    the game screen before it marked nobody there.  A step in play marks who is on roll."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)  # 3-1: alice starts
        view = svc.submit_turn(alice, view.id, view.version, "8/5 6/5")
        view = svc.resign(bob, view.id, view.version, Win.SINGLE)  # on his own turn
        svc.answer_resign(alice, view.id, view.version, True)
    async with running_server(url) as srv:
        c = await reviewing_first_match(srv.port, "bob")
        text = await c.wait_for("wins the match")
        assert not [line for line in text.splitlines() if "►" in line], text
        c.send("4")
        await c.wait_for("Step 5 of")  # the game's result: nobody marked either
        assert not [line for line in c.text.splitlines() if "►" in line], c.text
        c.send("44")  # bob's offer to resign: alice, who answers it, marked as on the game screen
        text = await c.wait_for("Step 3 of")
        marked = [line for line in text.splitlines() if "►" in line]
        assert len(marked) == 1 and "alice" in marked[0], text
        # The start, before the opening roll: nobody's turn, nobody marked (alice had been).
        c.send("7")
        text = await c.wait_for("the start.")
        assert not [line for line in text.splitlines() if "►" in line], text
        c.close()


async def test_joining_a_game_gone_meanwhile_says_so_and_keeps_the_call(tmp_path):
    """A caller who answered Y to 'Join it?' after the game was withdrawn (or taken) meanwhile was
    shown 'there is no game 1' and cut off: the error ended the whole call."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 3)
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        await open_game(bob, expect="Join it?")
        alice.send("W")
        await alice.wait_for("(Y/N)")
        alice.send("Y")
        await alice.wait_for("withdrawn")
        # Said at once, the question gone with the game (it had waited for bob's Y to say so).
        await bob.wait_words("Game #1 is no longer there: withdrawn, or removed by the sysop.")
        await bob.wait_for("Your choice")  # still on the line, at the menu
        assert not bob.closed

        await begin(alice, 3)  # game #2
        carol = await call(srv.port)
        await login(carol, "carol", "carol-pw", new=True)
        await open_game(bob, expect="Join it?")
        await open_game(carol, expect="Join it?")
        carol.send("Y")
        await carol.wait_for("roll for who starts")
        await bob.wait_for("Game #2: someone else took that seat first.")
        await bob.wait_for("Game:")  # the list again, with the game now under way
        assert not bob.closed
        for c in (alice, bob, carol):
            c.close()


async def test_a_game_deleted_while_listed_is_said_on_the_menu(tmp_path):
    """Picking a game the sysop deleted after the list was drawn ended the call with 'there is no
    game 1'; the caller is told on the menu instead."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        game = svc.begin_game(alice, 3, Color.WHITE, "bob").id
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        c.send("V")
        await c.wait_for("Game:")
        with Service(url) as svc:
            Sysop(svc).delete_game(game)
        c.send("1\r")
        # Told so; or the list followed the deletion before the keys came (the change feed won
        # the race on a loaded machine): 'No games are in progress', the 1 going back, as true.
        said = await c.wait_until(lambda t: f"There is no game {game}." in t or "No games are in progress" in t,
                                  "the game said to be gone")
        assert f"There is no game {game}." in said or "No games are in progress" in said, said
        await c.wait_for("Your choice")
        assert not c.closed
        c.close()


async def test_a_refusal_too_long_for_the_prompt_line_is_shown_whole_under_it(tmp_path):
    """A storage refusal on the menu was cut to the one line after 'Your choice:' (49 columns of
    it at 80): it goes whole under the prompt, and the news moves down below it."""
    url = f"sqlite:///{tmp_path}/g.db"
    full = "the disk holding the database is full, so nothing was saved; tell the sysop"
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)

        def no_room(*args: object, **kwargs: object) -> object:
            raise StorageError(full)

        srv.runtime.service.service.games_in_progress = no_room  # type: ignore[method-assign]
        c.send("V")
        await c.wait_for("tell the sysop")
        lines = c.screen.display
        shown = " ".join(line.strip() for line in lines[20:24] if line.strip())
        assert "The disk holding the database is full, so nothing was saved; tell the sysop." in shown, lines
        assert all(len(line.rstrip()) <= 79 for line in lines)
        assert not c.closed
        c.close()


async def test_a_long_refusal_from_options_and_on_a_game_list_is_shown_whole(tmp_path):
    """A game list had one line for a refusal, and a storage refusal (77 columns) lost its last
    words at 80 columns; one from Options is said on the menu, whole."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        bob = svc.register("bob", "bob-pw").id
        svc.begin_game(bob, 3, Color.WHITE, None)
    full = "the disk holding the database is full, so nothing was saved; tell the sysop"
    said = "The disk holding the database is full, so nothing was saved; tell the sysop."

    def no_room(*args: object, **kwargs: object) -> object:
        raise StorageError(full)

    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)
        srv.runtime.service.service.set_preferences = no_room  # type: ignore[method-assign]
        srv.runtime.service.service.join_game = no_room  # type: ignore[method-assign]
        c.send("O")
        await c.wait_for("T changes it")
        c.send("T")  # not saved: said back on the menu
        await c.wait_for("tell the sysop.")
        assert "Your choice" in c.text
        assert said in " ".join(line.strip() for line in c.screen.display if line.strip()), c.text
        c.send("V")
        await c.wait_for("Game:")
        c.send("1\r")
        await c.wait_for("Join it?")
        c.send("Y")
        await c.wait_for("the sysop.")
        shown = " ".join(line.strip() for line in c.screen.display if line.strip())
        assert f"Game #1: {full}." in shown, c.text
        assert all(len(line.rstrip()) <= 79 for line in c.screen.display)
        c.close()


async def test_a_40_column_caller_reads_the_greeting_and_every_menu_item_whole(tmp_path):
    """On a 40-column terminal the greeting lost 'eate a player.' and four menu items their ends
    ('V)iew games in progress, or join one th'): the greeting wraps, and the items are said short."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port, cols=40, rows=24)
        await c.wait_for("Handle:")
        assert "Enter your handle, or a new one (2 to 16 characters) to create a player." in " ".join(
            line.strip() for line in c.screen.display
        ), c.text
        await login(c, "alice", "alice-pw", new=True)
        await c.wait_for("Your choice")
        lines = c.screen.display
        for item in (
            "V)iew games, or join one",
            "P)lay a game where it is your turn",
            "W)ho's online, on every node and board",
            "O)ptions",
            "Q)uit",
        ):
            assert any(line.strip() == item for line in lines), (item, c.text)
        # Nothing reaches the last column but the title box: every text ends before the edge.
        assert all(line[39] == " " for line in lines[6:]), c.text
        c.send("O")  # a short item's key works as the long one's
        await c.wait_for("Options")
        c.close()


@pytest.mark.parametrize("cols", [40, 60])
async def test_the_instructions_footer_is_broken_between_keys(tmp_path, cols):
    """At 60 columns the footer of every page but the first broke inside its last key: 'Q: menu
    Any other key: next' on one line and 'page' alone under it."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port, cols=cols, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        c.send("I")
        await c.wait_for("Page 1 of ")
        c.send(" ")
        await c.wait_for("Page 2 of ")
        await c.settle(0.2)
        rows = [line.strip() for line in c.screen.display[-3:] if line.strip()]
        footer = rows[next(i for i, row in enumerate(rows) if row.startswith("Page 2 of ")):]
        keys = ("Page 2 of", "B: page back", "Q: menu", "Any other key: next page")
        assert all(any(key in row for row in footer) for key in keys), footer  # each key whole on a row
        assert all(len(line.rstrip()) < cols for line in c.screen.display), c.text
        c.close()


async def test_a_40_column_caller_reads_who_is_online_and_the_instructions_footer_whole(tmp_path):
    """On 40 columns Who's online cut its 'Doing' heading and squeezed what a caller does into 13
    columns, and the instructions' footer lost 'page back  Q: menu'."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        c.send("W")
        await c.wait_for("Enter looks again")
        lines = [line.rstrip() for line in c.screen.display]
        assert "  alice" in lines and "    looking at who's online" in lines, c.text
        assert all(len(line) <= 39 for line in lines), c.text
        c.send("Q")
        await c.wait_for("Your choice")
        c.send("I")
        await c.wait_for("Q: menu")
        footer = " ".join(line.strip() for line in c.screen.display[-2:])
        assert footer.startswith("Page 1 of "), footer
        assert " ".join(footer.split()).endswith("Q: menu Any other key: next page"), footer
        assert all(len(line.rstrip()) <= 39 for line in c.screen.display), c.text
        c.send("Q")
        await c.wait_for("Your choice")
        c.send("M")  # a list's title wraps too
        await c.wait_for("Press any key to go back.")
        title = " ".join(" ".join(c.screen.display[1:3]).split())
        assert title == "Your finished matches (pick one to review)", c.text
        c.close()


async def test_a_40_column_caller_begins_a_game_with_no_question_drawn_over_another(tmp_path):
    """B)egin's questions sat on fixed rows: on 40 columns the intro's last line was overwritten by
    the first question, 'Play as ... [R]:' and its answer ran off the screen, and the note about
    the computer opponent was drawn over the opponent question's second line ('plThe computer').
    Then the '80 columns' page took any key as Enter."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        c.send("B")
        await c.wait_for("Match length")
        c.send("\r")
        await c.wait_for("[R]:")
        c.send("W")
        await c.wait_for("available on this system.")
        lines = [line.strip() for line in c.screen.display]
        text = " ".join(line for line in lines if line)
        assert "Every question has a default in [brackets]; Enter accepts it. Esc goes back to the menu." in text, (
            c.text)
        assert "Match length, 1 to 25 points [3]: 3" in lines, c.text
        assert "[R]: White" in lines, c.text
        assert "Opponent: O)pen seat, or N)amed player [O]:" in text, c.text
        assert "The computer opponent is not available on this system." in text, c.text
        assert all(len(line.rstrip()) <= 39 for line in c.screen.display), c.text
        c.send("O")
        await c.wait_for("Enter goes on anyway")
        c.send("X")
        await c.wait_for("X does nothing here")
        assert "The board needs 80 columns" in c.text
        # At 40 columns half the points are cut off, not only the names and scores beside them.
        assert "only the left 40 of the board's 80 columns would show" in " ".join(c.text.split()), c.text
        c.send("\r")
        await c.wait_for("BAR")
        c.close()


async def test_a_40_column_caller_reads_every_game_of_the_list_whole(tmp_path):
    """A game's line in V)iew and P)lay needs 57 columns: on 40, the score and the second
    player were cut off.  Under 58 columns each game takes two lines, the players on the second."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        bob = svc.register("bob-the-longname", "bob-pw").id
        svc.register("carol-sixteen-ch", "carol-pw")
        svc.begin_game(bob, 5, Color.WHITE, None)
        svc.begin_game(bob, 7, Color.BLACK, "carol-sixteen-ch")
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        c.send("V")
        await c.wait_for("Game:")
        lines = [line.rstrip() for line in c.screen.display]
        assert any(line.startswith("  1) #2     0-0/7  ") for line in lines), c.text  # then the last change
        assert "  *carol-sixteen-ch v *bob-the-longname" in lines, c.text  # either may make the opening roll
        assert any(line.startswith("  2) #1     0-0/5  ") for line in lines), c.text
        assert "  bob-the-longname v (open seat)" in lines, c.text
        assert all(len(line) <= 39 for line in lines), c.text
        c.send("2\r")  # the line numbers still pick the games
        await c.wait_for("Join it?")
        c.close()


async def test_the_replay_shows_the_cube_as_it_was_then(tmp_path):
    """V)iew replayed alice's opening 3-1 with 'Cube 2 alice' on the panel: the cube as it is now
    (bob doubled after that turn, alice took), not as it was when she played."""
    dice = ScriptedDice([3, 1] + [1, 2] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-1")
        alice.send("M")
        await alice.wait_for("Your play (like")
        alice.send("8/5 6/5\r")
        await bob.wait_for("D)ouble")
        bob.send("D")
        await alice.wait_for("T)ake")
        alice.send("T")
        await bob.wait_for("Cube 2 alice")
        bob.send("V")
        text = await bob.wait_for("Replay of alice")
        assert "Cube 2" not in text
        bob.send("Q")
        await bob.wait_for("Cube 2 alice")
        alice.close()
        bob.close()


async def test_the_welcome_keeps_the_count_whole_at_60_columns(tmp_path):
    """At 60 columns a 16-character handle cut the menu's greeting to 'Welcome, Bartholomew_Bob1.
    No game is waiting for your': the word 'move.' was lost."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(60, 24))
        try:
            await menus.login(c, "Bartholomew_Bob1", "bob-pw", new=True)
            await c.settle(0.3)
            text = " ".join(c.text.split())
            assert "Welcome, Bartholomew_Bob1. No game is waiting for your move." in text, c.text
        finally:
            c.close()


async def test_a_long_news_item_is_indented_under_its_dash(tmp_path):
    """'Since you last looked' ran a long item's second line back to the page's edge, under the
    dash, so two items read as one block."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 2, 4, 2])) as svc:
        bob = svc.register("bob", "bob-pw").id
        svc.register("carol", "carol-pw")
        v = svc.begin_game(bob, 3, Color.WHITE, "carol")
        v = svc.roll(bob, v.id, v.version)  # 4-2: bob starts
        note = "Good luck, carol! This one is for the rankings, and for fun."
        v = svc.submit_turn(bob, v.id, v.version, "8/4 6/4", note)
        v = svc.resign(bob, v.id, v.version, Win.SINGLE)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=False)
        c.send("P")
        text = await c.wait_for("Since you last looked")
        lines = [line.rstrip() for line in text.splitlines()]
        first = next(i for i, line in enumerate(lines) if "bob starts with 4-2, playing" in line)
        assert lines[first].startswith(" - ") and lines[first + 1].startswith("   ") and lines[first + 1].strip()
        c.close()


async def test_narrowing_the_window_mid_game_says_the_board_needs_80_columns(tmp_path):
    """Opening a game at 60 columns says the board needs 80; narrowing the window to 60 during a
    game cut the board's right-hand side (names, scores, pips) without a word."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        try:
            await menus.login(c, "alice", "alice-pw", new=True)
            await begin(c, 3)
            c.send_size(60, 24)
            await c.wait_for("The board needs 80 columns")
            await c.wait_for("Your terminal shows 60 columns and 24 lines")
            c.send_size(80, 25)  # widened again: the board follows at once
            await c.wait_for("W)ithdraw")
            c.send_size(60, 24)
            await c.wait_for("The board needs 80 columns")
            c.send("\r")  # goes on anyway, and is not asked again this call
            await c.wait_for("W)ithdraw")
            c.send_size(61, 24)
            await c.settle(0.5)
            assert "needs 80 columns" not in c.text and "W)ithdraw" in c.text
        finally:
            c.close()


async def test_a_watcher_is_not_told_the_game_waits_for_them(tmp_path):
    """A watcher's ? page said 'Q or Esc: back to the menu. The game waits for you.': the game
    waits for its players, not for someone watching it."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 2])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.register("carol", "carol-pw")
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        svc.submit_turn(alice, view.id, view.version, "8/4 6/4")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=False)
        await open_game(c, expect="Watching this game")
        c.send("?")
        text = await c.wait_for("Keys now (spectating)")
        assert "Q or Esc: back to the menu." in text and "waits for you" not in text
        # A watcher has no opponent: V replays the last turn played, whoever played it.
        words = " ".join(text.split())
        assert "V: replay the last turn played, move by move." in words and "opponent" not in words
        c.close()


async def test_no_turn_marker_while_it_is_nobodys_turn(tmp_path):
    """The panel's marker sat on the creator beside 'Waiting for a player', and on White beside
    'Opening roll', though either player may roll: it said the turn was theirs."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 3)
        text = await alice.wait_for("Waiting for a player")
        assert "►" not in text
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        await open_game(bob, expect="Join it?")
        bob.send("Y")
        for c in (alice, bob):
            text = await c.wait_for("Opening roll")
            await c.settle(0.3)
            assert "►" not in c.text
        alice.send("P")
        await bob.wait_until(lambda t: "►" in t, "the marker once someone is to play")
        alice.close()
        bob.close()


async def test_a_result_read_on_coming_back_stands_whole_and_the_next_opening_follows(tmp_path):
    """At 40 columns a result cut on the board ended '... (? shows all)', but ? only cleared the
    result; and the next game's opening roll, read together with the result on coming back, was
    never told.  Now the result stands whole, ? keeps it, and the opening roll follows it."""
    long_a, long_b = "Longhandle_Alice", "Bartholomew_Bob1"
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 3, 1, 3, 1])) as svc:
        alice = svc.register(long_a, "alice-pw").id
        bob = svc.register(long_b, "bob-pw").id
        v = svc.begin_game(alice, 5, Color.WHITE, long_b)
        v = svc.roll(alice, v.id, v.version)  # 3-1: alice starts
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.resign(bob, v.id, v.version, Win.GAMMON)
        v = svc.answer_resign(alice, v.id, v.version, True)
        seen = next(e.seq for e in svc.game_log(v.id, bob).events if isinstance(e.event, rules.AcceptResign))
        svc.mark_read(bob, v.id, seen + 1)  # bob has yet to read the result and the next opening roll
        v = svc.roll(alice, v.id, v.version)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        try:
            await menus.login(c, long_b, "bob-pw", new=False)
            await open_game(c, expect="needs 80 columns")
            c.send("\r")
            # The result whole, alone: the next game's opening roll had cut it ('(? shows all)').
            text = " ".join((await c.wait_for("(Press a key; Q leaves the game.)")).split())
            assert f"{long_a} wins a gammon by resignation" in text and "? shows all" not in text, text
            assert "starts with 3-1" not in text, text
            c.send("?")
            await c.wait_for("Keys now")
            c.send(" ")
            await c.wait_for("(Press a key; Q leaves the game.)")  # the result is still held
            c.send(" ")
            text = await c.wait_until(lambda t: "(Press a key; Q leaves the game.)" not in t, "the result cleared")
            said = " ".join(text.split())
            assert "Game 2 of the match." in said and f"{long_a} starts with 3-1" in said, said
        finally:
            c.close()


async def test_at_40_columns_a_checker_put_back_says_the_roll_left(tmp_path):
    """At 40 columns the second die is past the edge: 'The checker is back.' and the refusals
    of a pick left the player without the roll they were playing."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.begin_game(alice, 3, Color.WHITE, "bob")
    async with running_server(url, dice=ScriptedDice([3, 1] + [1, 2] * 20)) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_game(c, expect="Enter goes on anyway")
        c.send("\r")
        await c.wait_for("P)lay")
        c.send("P")
        await c.wait_words("You start with 3-1")
        c.send("\r")  # the cursor starts on 13
        await c.wait_for("Checker in hand")
        c.send("U")
        await c.wait_words("The checker is back. 3-1 to play.")
        c.send("\r")
        await c.wait_for("Checker in hand")
        c.send("3\r")  # down and right, to 11: not a marked point
        said = " ".join((await c.wait_words("does not match the dice")).split())
        assert said.count("3-1 to play") == 1, said  # the refusal says the roll: not said twice
        c.send("U")
        c.send("4")  # left, to 14: alice has no checker there
        c.send("\r")
        said = " ".join((await c.wait_words("No checker of yours can move from there")).split())
        assert "the marked points can. 3-1 to play." in said, said
        c.send("Z")  # a key refused while moving
        said = " ".join((await c.wait_words("Z does nothing here.")).split())
        assert "3-1 to play." in said, said
        c.send("M")  # typing a play: the prompt says the roll
        said = " ".join((await c.wait_words("Your play (like 24/18 13/11)")).split())
        assert "3-1 to play. Your play" in said, said
        c.close()


async def test_the_help_line_says_enter_commits_once_the_dice_are_played(tmp_path):
    """With both dice played the message said 'Enter commits it' while the help line still offered
    'Enter pick/drop'; the help line says what Enter does now."""
    dice = ScriptedDice([3, 1] + [1, 2] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-1")
        assert "Enter pick/drop" in alice.text
        alice.send("\r")  # the cursor starts on 13
        await alice.wait_for("Checker in hand")
        alice.send("266\r")  # down to 12, right to 10
        await alice.wait_for("Moved 13/10")
        alice.send("\r")
        await alice.wait_for("Checker in hand")
        alice.send("6\r")  # right to 9
        text = await alice.wait_for("Enter commits it")
        help_rows = " ".join(alice.screen.display[HELP_ROW - 1 + i] for i in range(2))
        assert "Enter commits" in help_rows and "pick/drop" not in help_rows, text
        alice.send("5")  # keypad 5 picks up no more: it says why
        await alice.wait_for("The dice are played")
        alice.send("\r")
        await bob.wait_words("alice starts with 3-1, playing 13/9")
        alice.close()
        bob.close()


async def test_a_match_won_in_the_crawford_game_says_crawford_no_more(tmp_path):
    """The board of a match won in its Crawford game still had '· Crawford' in its header."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)  # 3-1: alice starts
        view = svc.resign(bob, view.id, view.version, Win.GAMMON)
        view = svc.answer_resign(alice, view.id, view.version, True)  # 2-0: the Crawford game
        assert view.state.crawford and not view.state.over
        game = view.id
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await open_game(c, expect="?)help")
        await c.wait_for("Match to 3 · Crawford")  # while it is played
        c.close()
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        view = svc.game(game, alice)
        view = svc.roll(alice, game, view.version)
        view = svc.resign(bob, game, view.version, Win.SINGLE)
        view = svc.answer_resign(alice, game, view.version, True)
        assert view.state.over
    async with running_server(url) as srv:
        c = await reviewing_first_match(srv.port, "bob")
        await c.wait_for("wins the match")
        assert "Match to 3" in c.text and "Crawford" not in c.text, c.text
        c.close()


async def test_who_does_not_say_playing_once_the_match_is_over(tmp_path):
    """W)ho's online said 'playing game #1' for a player still on the board of a match that was
    over; it says they are looking at a finished game."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        svc.register("carol", "carol-pw")
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)  # 3-1: alice starts
        view = svc.resign(bob, view.id, view.version, Win.SINGLE)
        game = view.id
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        await open_game(a, expect="A)ccept")
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=False)
        c.send("W")
        await c.wait_for(f"playing game #{game}")  # while the match is on
        a.send("A")
        await a.wait_for("(Y/N)")
        a.send("Y")
        await a.wait_words("and the match 1-0")
        text = c.text
        for _ in range(50):
            if f"looking at finished game #{game}" in text:
                break
            c.send("\r")  # looks again
            await c.settle(0.2)
            text = c.text
        assert f"looking at finished game #{game}" in text and "playing game" not in text, text
        a.close()
        c.close()


async def test_the_help_line_says_enter_passes_a_roll_with_no_play(tmp_path):
    """With a roll that cannot be played the message said 'Enter passes the turn' while the help
    line offered 'Enter pick/drop'; the help line says Enter passes."""
    url = f"sqlite:///{tmp_path}/g.db"
    rng = random.Random(0)  # these dice leave bob a roll he cannot play, some turns in
    with Service(url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(600)])) as svc:
        ids = {Color.WHITE: svc.register("alice", "alice-pw").id, Color.BLACK: svc.register("bob", "bob-pw").id}
        view = svc.begin_game(ids[Color.WHITE], 1, Color.WHITE, "bob")
        for _ in range(300):
            st = view.state
            assert not st.over, "the match ended before a roll with no play"
            if st.phase is rules.Phase.OPENING:
                view = svc.roll(ids[Color.WHITE], view.id, view.version)
            elif st.phase is rules.Phase.ROLL:
                assert st.actor is not None
                view = svc.roll(ids[st.actor], view.id, view.version)
            else:
                assert st.actor is not None and st.dice is not None
                plays = legal_plays(st.position, st.dice)
                if not plays:
                    break
                view = svc.submit_turn(ids[st.actor], view.id, view.version, str(plays[0]))
        st = view.state
        assert st.phase is rules.Phase.MOVE and st.actor is Color.BLACK
        version = view.version
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        await open_game(c)
        await menus.to_board(c)
        await c.wait_for("?)help")
        await c.settle(0.3)
        help_rows = " ".join(c.screen.display[HELP_ROW - 1 + i] for i in range(2))
        assert "Enter passes" in help_rows and "pick/drop" not in help_rows and "Arrows" not in help_rows, help_rows
        c.send("\r")
        await c.wait_until(lambda t: "Enter passes" not in t, "the pass")
        high, low = sorted(st.dice, reverse=True)
        await c.wait_words(f"You pass: no move with {high}-{low}.")  # not 'Turn sent.', as if a play went
        with Service(url) as svc:
            after = svc.game(view.id, ids[Color.BLACK])
        assert after.version > version and after.state.actor is Color.WHITE
        c.close()


async def test_v_on_the_news_page_replays_the_last_turn(tmp_path):
    """'Since you last looked' ended 'Press a key for the board; V replays the last turn there.'
    A V there only showed the board, and the caller had to press V again."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, bob, carol, v = bob_opens(url, "Good luck, carol! This one is for the rankings.")
    v = svc.roll(carol, v.id, v.version)  # 4-2
    v = svc.submit_turn(carol, v.id, v.version, "8/4 6/4")
    svc.close()
    with Service(url, dice=ScriptedDice([6, 5])) as svc:
        v = svc.roll(bob, v.id, v.version)
        svc.submit_turn(bob, v.id, v.version, "24/13")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=False)
        c.send("P")
        text = await c.wait_for("Since you last looked")
        assert "V to see the last turn" in " ".join(text.split()), text
        c.send("V")
        text = await c.wait_for("Replay: bob rolled 6-5")
        assert "Since you last looked" not in text
        c.close()


async def test_why_a_handle_was_refused_stays_until_the_next_one(tmp_path):
    """'a1ice looks like the existing player alice; choose another handle' was erased after
    three seconds, leaving a bare 'Handle:' to a caller who had not read it yet."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("alice", "alice-pw")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await c.wait_for("Handle:")
        c.send("a1ice\r")
        await c.wait_for("looks like the existing player alice")
        await asyncio.sleep(4)
        assert "looks like the existing player alice" in c.text, c.text
        c.send("xav")  # typing the next handle: the reason is still there to read
        await asyncio.sleep(0.3)
        assert "looks like the existing player alice" in c.text and "Handle: xav" in c.text
        c.send("ier\r")
        await c.wait_for("There is no player called xavier")
        assert "looks like" not in c.text, c.text
        c.close()


async def test_the_last_turn_from_the_game_before_says_so(tmp_path):
    """V)iew last at the start of a new game replayed the end of the game before, with its
    score and cube, as though it were this game's."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, bob, carol, v = bob_opens(url)
    with svc:
        v = svc.double(carol, v.id, v.version)
        v = svc.drop(bob, v.id, v.version)  # game 1 to carol; game 2 waits for its opening roll
        assert v.state.game == 2
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=False)
        await open_game(c)
        await menus.to_board(c)
        c.send(" ")  # the result of game 1 stays on the board until a key
        await c.wait_until(lambda t: "(Press a key; Q leaves the game.)" not in t, "the result to go")
        c.send("V")
        await c.wait_words("Replay: bob played the opening 4-2 in the last game: the board before the first of 2 "
                           "moves.")
        await c.wait_words("Replay: bob played the opening 4-2 in the last game: 8/4 6/4 (2 of 2 moves).")
        c.close()


def test_the_review_shows_a_dropped_double_on_the_board_it_was_dropped_on(tmp_path):
    """Reviewing a match, 'bob drops the double' showed the next game's starting position with
    the new score, as though the drop had happened there."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, bob, carol, v = bob_opens(url)
    with svc:
        played = v.state.position
        v = svc.double(carol, v.id, v.version)
        v = svc.drop(bob, v.id, v.version)
        shots = frames(svc.game_log(v.id, carol))
    drop = next(i for i, f in enumerate(shots) if "drops" in f.text)
    assert shots[drop].position == played and shots[drop].state.score == (0, 0), shots[drop]
    won = shots[drop + 1]
    assert "You win" in won.text and won.position == played and won.state.score == (0, 1), won  # carol's review
    assert Position.start() not in (shots[drop].position, won.position)


def test_the_review_counts_the_match_s_last_game_at_its_win_not_before(tmp_path):
    """In the match's last game the review showed the final score already at 'alice accepts the
    resignation', a step before 'alice wins', unlike every other game."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    with Service(url) as svc:
        shots = frames(svc.game_log(1))
    accepted = next(i for i, f in enumerate(shots) if "accepts" in f.text)
    assert shots[accepted].state.score == (0, 0), shots[accepted]
    assert "wins" in shots[accepted + 1].text and shots[accepted + 1].state.score == (1, 0), shots[accepted + 1]


def test_the_review_s_win_step_is_not_yet_the_crawford_game(tmp_path):
    """Reviewing a 2-point match, 'alice wins a single game' showed the Crawford note over the
    board of the game just won: the note belongs to the next game."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE, length=2)
    with Service(url) as svc:
        shots = frames(svc.game_log(1))
    won = next(f for f in shots if "wins" in f.text)
    assert won.state.score == (1, 0) and not won.state.crawford, won.state


def test_the_review_opens_each_later_game_with_which_it_is_and_the_score(tmp_path):
    """At 60 columns no review step said the score: the panel saying it was cut, and the next
    game began at 'Opening roll: alice 3, bob 1.' with no word of which game or the score."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE, length=3)
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        v = svc.game(1)
        svc.roll(svc.player_page("alice").player.id, 1, v.version)  # game 2's opening roll
        shots = frames(svc.game_log(1))
    openings = [f.text for f in shots if "Opening roll" in f.text]
    assert len(openings) == 2 and not openings[0].startswith("Game"), openings
    assert openings[1].startswith("Game 2 of the match. Score: alice 1, bob 0 (match to 3). Opening roll:"), openings


def test_the_review_shows_a_play_on_the_side_of_the_player_who_made_it(tmp_path):
    """Reviewing a match, 'alice rolled 4-1 and played 13/9 6/5' drew the 4-1, and the turn
    marker, on bob's side of the board: the next player's, as the record's Position ID has it."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, bob, carol, v = bob_opens(url)
    with svc:
        shots = frames(svc.game_log(v.id, carol))
    play = next(f for f in shots if "8/4 6/4" in f.text)
    assert play.on_roll is Color.WHITE and play.dice == (4, 2), play
    # A play's position has the next player on roll; the frame shows it from the mover's side.
    assert play.position == parse_play(Position.start(), (4, 2), "8/4 6/4").position.swap(), play.position


async def test_a_typed_play_goes_on_from_the_moves_made_with_the_cursor(tmp_path):
    """After 13/10 with the cursor, M and '6/5' was refused: 'You must play as much of the roll
    as you can', because the typed play quietly replaced the move already made."""
    dice = ScriptedDice([3, 1, 2, 5] + [1, 2] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-1")
        await alice.wait_for("Arrows/8246")
        alice.send("\r")  # the cursor starts on alice's 13 point
        await alice.wait_for("Checker in hand")
        alice.send("2")  # down, to the 12 point below it (bob's), then right, to 10
        alice.send("66")
        await alice.settle(0.2)
        alice.send("\r")
        await alice.wait_until(lambda t: "Checker in hand" not in t, "the checker put down")
        alice.send("M")
        text = await alice.wait_for("the moves on the board so far first")
        assert "13/10 " in text.splitlines()[HELP_ROW - 1], text
        alice.send("\x1b")  # Esc: 'No play typed' read as if 13/10 were gone
        await alice.wait_for("Typing cancelled: your moves are as they were.")
        # The whole play typed after the moves the line began with: 'Too many moves for the
        # roll' alone did not say the line had held 13/10 already.
        alice.send("M")
        await alice.wait_for("the moves on the board so far first")
        alice.send("13/10 6/5\r")
        await alice.wait_words("13/10 is 3 pips, which does not match the dice: you have a 1 to play. The line "
                               "began with the moves on the board (13/10): press M again and type only the rest.")
        # The rest typed alone and wrong is said of the die left, and not as a play typed twice
        # ('press M again and type only the rest' was said of every refusal of such a line).
        alice.send("M")
        await alice.wait_for("the moves on the board so far first")
        alice.send("8/7 6/5\r")
        await alice.wait_words("Too many moves for the roll: you have a 1 to play.")
        assert "type only the rest" not in " ".join(alice.text.split()), alice.text
        alice.send("M")
        await alice.wait_for("the moves on the board so far first")
        alice.send("6/5\r")
        await alice.wait_for("Turn sent")
        await bob.wait_words("alice starts with 3-1, playing 13/10 6/5.")
        alice.close()
        bob.close()


async def test_the_rankings_and_whos_online_say_why_a_key_does_nothing(tmp_path):
    """R)ank with nobody ranked said 'Q or Enter goes back.', and I (or any key) went back too,
    without a word; W)ho's online likewise left on any key but Enter."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)
        c.send("R")
        await c.wait_for("Nobody has finished a match yet")
        c.send("I")
        await c.wait_for("I is not an answer: Q or Enter goes back.")
        assert "Nobody has finished a match yet" in c.text
        c.send("Q")
        await c.wait_for("Your choice")
        c.send("W")
        await c.wait_for("Who's online")
        c.send("X")
        await c.wait_for("X is not an answer: Enter looks again; Q goes back.")
        c.send("Q")
        await c.wait_for("Your choice")
        c.close()


async def test_news_under_the_menu_cut_at_the_bottom_says_where_the_rest_is(tmp_path):
    """At 40x24 the news under the menu stopped mid-note ('bob's note: "Well') with nothing to
    say there was more."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, *_ = bob_opens(url, ("Well played yesterday, carol. " * 4).strip())
    svc.close()
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "carol", "carol-pw", new=False)
        await c.wait_for("Your choice")
        await c.settle(0.3)
        lines = [line.rstrip() for line in c.screen.display]
        assert any("the latest first" in line for line in lines), c.text
        assert lines[22].endswith("(N: all)"), c.text
        assert all(len(line) <= 40 for line in lines)
        c.close()


async def test_news_before_a_key_adds_to_what_the_board_told(tmp_path):
    """News that came while the player pressed nothing wiped what the board had just told: a
    resigner's 'You offer to resign' gave way to the answer, and a player who lost the opening
    roll read 'Opening roll: ...', then only 'bob rolled 3-1 and played 8/5 6/5.'  News before a
    key now adds to it, and the play after the opening roll is told with the roll, once."""
    dice = ScriptedDice([1, 3] + [6, 5] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        bob.send("P")
        await alice.wait_for("bob starts with 3-1")
        await bob.wait_for("Your turn 3-1")
        bob.send("M")
        await bob.wait_for("Your play (like")
        bob.send("8/5 6/5\r")
        text = " ".join((await alice.wait_words("playing 8/5 6/5")).split())
        assert "Opening roll: alice 1, bob 3. bob starts with 3-1, playing 8/5 6/5." in text
        assert text.count("Opening roll") == 1 and "rolled 3-1" not in text
        # The offer stays with its answer.
        alice.send("G")
        await alice.wait_for("Give up: a single game")
        alice.send("1")
        await alice.wait_for("You offer to resign")
        await bob.wait_for("A)ccept")
        bob.send("N")
        text = " ".join((await alice.wait_words("refuses the resignation")).split())
        assert "You offered to resign, giving a single game (1 point)." in text and "Opening roll" not in text
        alice.close()
        bob.close()


async def test_the_computers_opening_roll_is_told_in_every_game(tmp_path):
    """Against the computer, the games after the first never told their opening roll: the result
    was followed by 'Beginner Bot rolled 3-1 and played 8/5 6/5.' alone."""
    dice = ScriptedDice([3, 1, 1, 3] + [6, 5] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice, bot=True) as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await menus.to_computer_levels(alice, "3")
        alice.send("1\r")
        await alice.wait_words("You start with 3-1")
        alice.send("G")
        await alice.wait_for("Give up: a single game")
        alice.send("1")
        text = " ".join((await alice.wait_words("Beginner Bot starts with 3-1, playing")).split())
        assert "Beginner Bot wins a single game by resignation" in text
        assert "Opening roll: alice 1, Beginner Bot 3." in text
        # The offer said as made, the answer come: 'You will see the answer here.' had stood
        # before it, taking the rows of the score at 50x20.
        assert "You will see the answer here" not in text, text
        alice.close()


async def test_at_40_columns_the_result_stands_whole_and_the_next_game_says_which_it_is(tmp_path):
    """At 40x24 against the computer: the result went on into the next game's opening roll, cut
    ('Opening roll: kay 2, Beginner Bot 6... (? shows all)'), and after a key the new game's board
    said only 'Opening roll: ...': not which game, nor the score, which the panel past the edge holds."""
    dice = ScriptedDice([3, 1, 1, 3] + [6, 5] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice, bot=True) as srv:
        alice = await call(srv.port, cols=40, rows=24)
        await login(alice, "alice", "alice-pw", new=True)
        await menus.to_computer_levels(alice, "3")
        alice.send("1\r")
        await alice.wait_for("needs 80 columns")
        alice.send("\r")
        await alice.wait_words("You start with 3-1")
        alice.send("G")
        await alice.wait_for("Give up: a single game")
        alice.send("1")
        await alice.wait_words("Beginner Bot wins a single game by resignation")
        await alice.settle()
        said = " ".join(alice.text.split())
        assert "Score: Beginner Bot 1, alice 0." in said and "(Press a key; Q leaves the game.)" in said, said
        assert "? shows all" not in said and "Opening roll" not in said, said
        alice.send(" ")
        said = " ".join((await alice.wait_words("Opening roll: alice 1, Beginner Bot 3.")).split())
        assert "Game 2 of the match." in said, said
        assert all(len(line.rstrip()) <= 40 for line in alice.screen.display), alice.text
        alice.close()


async def test_the_computer_levels_wrap_on_a_narrow_screen(tmp_path):
    """On 40 columns B)egin's computer levels ran off the edge: '4) World class (GNU Backgammon
    2-pl'.  A long label now goes on under itself."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", bot=True) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        c.send("B")
        await c.wait_for("[3]")
        c.send("\r")
        await c.wait_for("R)andom")
        c.send("\r")
        await c.wait_for("N)amed")
        c.send("C")
        text = await c.wait_for("Level [1]:")
        words = " ".join(text.split())
        levels = srv.runtime.bot_levels()
        assert levels
        assert "Computer The computer's levels: 1)" in words, text  # not a blank row where a heading goes
        for i, (label, _) in enumerate(levels, 1):
            assert f"{i}) {label}" in words, text
        c.send("9")
        await c.wait_for("a level from 1 to")
        c.close()


async def test_the_player_page_does_not_count_a_backgammon_as_two_wins(tmp_path):
    """alice's only win was a backgammon, and her page said 'Games won by gammon 1, by
    backgammon 1.', which reads as two games.  The gammons count backgammons too, as the
    rankings' Gammons column does, and the page says so."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.BACKGAMMON)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("R")
        await c.wait_for("Rank:")
        c.send("1\r")
        text = " ".join((await c.wait_for("Rating history")).split())
        assert "Matches 1: won 1, lost 0." in text
        assert "Games won by gammon or backgammon 1, by backgammon 1." in text, text
        c.close()


async def test_the_cursor_shows_where_a_typed_answer_goes(tmp_path):
    """The terminal's cursor was hidden everywhere, at 'Handle:' and 'Password:' too, and left
    wherever the last change was drawn (an ASCII caller saw it two rows under the field): a
    caller typing saw no cursor.  A field being typed in shows it, at the next character."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port)
        await c.wait_for("Handle:")
        c.send("al")
        await c.wait_until(lambda t: "al" in t.splitlines()[11], "the handle typed")
        await c.settle()
        row = c.screen.display[c.screen.cursor.y]
        assert not c.screen.cursor.hidden and row.rstrip().endswith("al"), (c.screen.cursor.__dict__, row)
        assert c.screen.cursor.x == len(row.rstrip())
        c.send("ice\r")
        await c.wait_for("Create it?")
        await c.settle()
        assert c.screen.cursor.hidden  # a Y/N question is answered by a key, not typed
        c.send("Y")
        await c.wait_for("Choose a password")
        await c.settle()
        row = c.screen.display[c.screen.cursor.y]
        assert not c.screen.cursor.hidden and row.rstrip().endswith("Choose a password:"), row
        c.close()


async def test_whos_online_pages_through_a_crowd(tmp_path):
    """On 40 columns W)ho's online ended '... and 6 more' with no way to see them; N now shows
    the next page, and Enter looks again from the top.  The hint saying so lost its end there."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        for i in range(15):
            p = svc.register(f"caller{i:02d}", "caller-pw")
            svc.presence_set(f"k{i}", "elsewhere", p.id, "BBS", "menu")
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        c.send("W")
        text = await c.wait_for("more")
        assert "Who's online: 16 callers" in text and "N: the next page" in text, text
        assert "caller14" not in text
        await c.wait_words("N: the next page. Enter looks again; Q goes back.")  # was cut at 'again;'
        c.send("N")
        text = await c.wait_for("caller14")
        assert "caller00" not in text and "alice" in text  # alice dialled in last
        assert "N: the next page" not in text, text
        c.send("\r")
        await c.wait_for("caller00")
        c.close()


@pytest.mark.parametrize("cols", [80, 60])
async def test_the_game_list_puts_names_under_their_headings(tmp_path, cols):
    """In V)iew's list the names stood one column right of 'White' and 'Black': the '*' marking
    the player to act (or the blank kept for it) came first, under the heading's first letter.
    At 60 columns the list had dropped 'Last change', with nothing to say so, where short names
    left room for it."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.roll(alice, v.id, v.version)  # alice to move: '*alice'
    async with running_server(url) as srv:
        c = await call(srv.port, cols=cols, rows=24)
        await login(c, "carol", "carol-pw", new=True)
        c.send("V")
        text = await c.wait_for("Game:")
        lines = [line.rstrip() for line in c.screen.display]
        assert all(len(line) <= cols for line in lines), text
        head = next(line for line in lines if "White" in line and "Black" in line)
        game = next(line for line in lines if "*alice" in line)
        assert game.index("alice") == head.index("White") and game.index("bob") == head.index("Black"), (head, game)
        assert game.index("0-0/3") == head.index("Score"), (head, game)
        assert re.fullmatch(r"\d\d-\d\d \d\d:\d\d", game[head.index("Last change") :].strip()), (head, game)
        assert "Black  " in head, head  # 'Black Score' had read as one heading
        c.close()


def help_rows(c: Caller) -> str:
    return " ".join(c.screen.display[HELP_ROW - 1 + i] for i in range(3))


async def test_replay_and_review_offer_no_step_past_their_ends(tmp_path):
    """V)iew last's help line offered 'Enter next' on the last move, and Enter then said 'That
    was the last move'; R)eview's offered Enter and 1)last at the end of the record.  A step past
    an end is not offered there, and its key says why."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, bob, carol, v = bob_opens(url)
    svc.close()
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=False)
        await open_game(c)
        await menus.to_board(c)
        c.send("V")
        await c.wait_words("the board before the first of 2 moves")
        assert "Enter next" in help_rows(c) and "4 back" not in help_rows(c), help_rows(c)
        await c.wait_for("(2 of 2 moves)")  # it plays itself to the end
        assert "Enter next" not in help_rows(c) and "4 back" in help_rows(c), help_rows(c)
        c.send("\r")
        await c.wait_words("That was the last move. Q goes back to the game.")
        c.send("Q")
        await c.wait_until(lambda t: "Replay" not in t and "P)lay" in t, "the board again")
        c.close()


async def test_review_offers_no_step_past_its_ends(tmp_path):
    """R)eview opened at the end of the record offering 'Enter next' and '1 last', which only said
    'That is the end of the record'.  A step past an end is not offered there, and its key says why."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    async with running_server(url) as srv:
        c = await reviewing_first_match(srv.port, "alice")
        last = re.search(
            r"Review (\d+)/\1",
            await c.wait_until(lambda t: re.search(r"Review (\d+)/\1", t) is not None, "the last step"),
        )
        assert last is not None
        rows = help_rows(c)
        assert "4 back" in rows and "7 first" in rows and "Enter next" not in rows and "1 last" not in rows, rows
        c.send("1")
        await c.wait_words("That is the end of the record.")
        c.send("7")
        await c.wait_for(f"Review 0/{last.group(1)}")
        rows = help_rows(c)
        assert "Enter next" in rows and "1 last" in rows and "4 back" not in rows and "7 first" not in rows, rows
        c.send("4")
        await c.wait_words("That is the start of the match.")
        c.close()


def alice_rolls_and_resigns(url: str) -> None:
    """A 1-point match: alice starts with 3-1 and, before playing it, offers to resign a single
    game; bob has not answered.  Both have read the record, as if each had seen it come."""
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.resign(alice, view.id, view.version, Win.SINGLE)
        upto = len(svc.game_log(view.id, alice).events)
        svc.mark_read(alice, view.id, upto)
        svc.mark_read(bob, view.id, upto)


def dice_columns(c: Caller) -> list[int]:
    """The columns (from 1) where the dice's faces are drawn on the board's middle row."""
    row = c.screen.display[9]
    return [m.start() + 1 for m in re.finditer(r"│[1-6]│", row[:54])]


async def test_dice_rolled_before_a_resignation_stay_on_the_rollers_side(tmp_path):
    """alice rolled 3-1 and offered to resign: both screens drew her dice in the half of bob, who
    was to answer, and the panel said 'bob to answer 3-1'.  They lie on her side, and the panel
    names no dice with the one to answer."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice_rolls_and_resigns(url)
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        await open_game(a)
        await menus.to_board(a)
        text = await a.wait_for("bob to answer")
        assert dice_columns(a) == [35, 41], text  # her own half: points 1-6
        assert "to answer 3-1" not in text, text
        b = await call(srv.port)
        await login(b, "bob", "bob-pw", new=False)
        await open_game(b)
        await menus.to_board(b)
        text = await b.wait_for("Your answer")
        assert dice_columns(b) == [12, 18], text  # the other half: alice's
        assert "Your answer 3-1" not in text, text
        a.close()
        b.close()


async def test_coming_back_to_an_offer_says_what_was_offered(tmp_path):
    """Back at a game where a resignation waited for an answer (its news already seen), the board
    showed A)ccept and N)o with nothing saying what was offered, or by whom."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice_rolls_and_resigns(url)
    async with running_server(url) as srv:
        b = await call(srv.port)
        await login(b, "bob", "bob-pw", new=False)
        await open_game(b)
        await menus.to_board(b)
        await b.wait_words("alice offers to resign, giving a single game (1 point, the match).")
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        await open_game(a)
        await menus.to_board(a)
        await a.wait_words("You offer to resign, giving a single game (1 point, the match). bob to answer.")
        a.close()
        b.close()


async def test_coming_back_to_a_double_says_what_was_offered(tmp_path):
    """The same for a double: the cube still showed 64 in the middle, and nothing said 'to 2'."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, bob, carol, v = bob_opens(url)
    with svc:
        v = svc.double(carol, v.id, v.version)
        upto = len(svc.game_log(v.id, bob).events)
        svc.mark_read(bob, v.id, upto)
        svc.mark_read(carol, v.id, upto)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        await open_game(c)
        await menus.to_board(c)
        await c.wait_words("carol doubles to 2.")
        d = await call(srv.port)
        await login(d, "carol", "carol-pw", new=False)
        await open_game(d)
        await menus.to_board(d)
        await d.wait_words("You offer the cube at 2. bob to answer.")
        c.close()
        d.close()


async def test_a_game_at_its_opening_roll_marks_both_players_to_act(tmp_path):
    """P)lay's list, 'Games where it is your turn', showed a game waiting for its opening roll
    with no '*', which the legend says marks who is to act: the roll is either player's."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.register("carol", "carol-pw")
        svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.begin_game(alice, 5, Color.WHITE, "carol")  # two games: P lists them
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("P")
        text = await c.wait_for("Game:")
        game = next(line for line in text.splitlines() if "0-0/3" in line)
        assert "*alice" in game and "*bob" in game, text
        assert "* to act." in text, text
        c.close()


async def test_a_double_to_answer_is_marked_apart_from_a_turn_in_the_play_list(tmp_path):
    """P)lay's list showed a double waiting for an answer with the '*' of any turn: the player
    could not tell which game asked a question until it was opened.  It has a '?' of its own,
    said in the legend; at 40 columns too."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, doubled = alice_to_roll(url)
    with Service(url, dice=ScriptedDice([5, 2] * 10)) as svc:
        alice = svc.login("alice", "alice-pw").id
        v = svc.game(doubled, alice)
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "13/8 13/11")
        svc.double(bob, v.id, v.version)  # alice to take or drop
        carol = svc.register("carol", "carol-pw").id
        svc.begin_game(carol, 5, Color.WHITE, "alice")  # its opening roll: a turn of alice's
    async with running_server(url) as srv:
        for cols in (80, 40):
            c = await call(srv.port, cols=cols, rows=24)
            await login(c, "alice", "alice-pw", new=False)
            c.send("P")
            text = await c.wait_for("Game:")
            rows = text.splitlines()
            at = next(i for i, line in enumerate(rows) if f"#{doubled} " in line)
            offer = rows[at] if cols == 80 else rows[at + 1]
            assert "?alice" in offer and "*" not in offer, text
            assert any("*alice" in line for line in rows[at + 1 if cols == 80 else at + 2:]), text
            assert "* to act." in text and "? an offer to answer." in " ".join(t.strip() for t in rows), text
            assert "Q or Enter goes back." in " ".join(t.strip() for t in rows), text  # the footer whole
            c.close()


async def test_a_40_column_player_sees_whose_turn_and_the_dice_when_nothing_else_is_said(tmp_path):
    """At 40 columns the panel (whose turn, the dice) is cut off and the dice beyond column 40
    with it: once a key cleared 'alice starts with 3-1', nothing on screen showed the roll."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.roll(alice, v.id, v.version)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        await open_game(c)
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
        await c.wait_for("BAR")
        c.send("6")  # a cursor key: the message line had nothing more to say
        await c.wait_for("Your turn 3-1.")
        c.close()
    # At 80 columns the panel says it: the message line stays free.
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await open_game(c)
        await menus.to_board(c)
        c.send("6")
        await c.wait_for("Your turn 3-1")
        await asyncio.sleep(0.3)
        assert "Your turn 3-1." not in c.text, c.text
        c.close()


async def test_the_cursor_shows_where_a_note_is_typed(tmp_path):
    """N)ote drew a '_' where the next character goes and kept the terminal's cursor hidden, unlike
    every other typed field; the cursor now sits on the '_', and hides again when the note is kept."""
    dice = ScriptedDice([3, 1])
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-1")
        alice.send("N")
        await alice.wait_for("Note to your opponent")
        alice.send("hello")
        await alice.wait_for("hello_")
        await alice.settle()
        cur = alice.screen.cursor
        row = alice.screen.display[cur.y]
        assert not cur.hidden and row.rstrip().endswith("hello_") and cur.x == len(row.rstrip()) - 1, (
            cur.__dict__,
            row,
        )
        alice.send("\r")
        await alice.wait_words("Your note goes with what you do next:")
        await alice.settle()
        assert alice.screen.cursor.hidden
        alice.close()
        bob.close()


async def test_the_rank_footer_is_whole_at_40_columns(tmp_path):
    """At 40x24 with a computer player ranked, the footer's third line ('Enter goes back.') was
    written over by the 'Rank:' prompt."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        carol = svc.register("carol", "carol-pw").id
        bot = svc.ensure_bot_player("Expert Bot").id
        view = svc.begin_game(carol, 1, Color.WHITE, "Expert Bot")
        view = svc.roll(carol, view.id, view.version)
        mover = carol if view.state.turn is Color.WHITE else bot
        view = svc.submit_turn(mover, view.id, view.version, str(view.state.plays()[0]))
        other = bot if mover == carol else carol
        view = svc.resign(other, view.id, view.version, Win.SINGLE)
        svc.answer_resign(mover, view.id, view.version, True)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "carol", "carol-pw", new=False)
        await c.wait_for("Your choice")
        c.send("R")
        await c.wait_for("Rank:")
        await c.settle(0.3)
        lines = [line.rstrip() for line in c.screen.display]
        words = " ".join(" ".join(lines).split())
        assert ("* a computer player. Type a rank and Enter for that player's page. Q or Enter goes back."
                in words), lines
        assert "Expert Bot*" in words and "carol" in words
        assert lines[23].strip().startswith("Rank:") and all(len(line) <= 40 for line in lines)
        # A wrong answer is said on a line of its own: written over the footer's last line, it
        # left 'Q or' hanging; a rank nobody has took the footer's place altogether.
        for answer, said in (("a", "type a rank and Enter or Q"), ("9\r", "No player here has rank 9.")):
            c.send(answer)
            await c.wait_words(said)
            await c.settle(0.3)
            words = " ".join(" ".join(c.screen.display).split())
            assert "Type a rank and Enter for that player's page. Q or Enter goes back." in words, c.text
        c.close()


async def test_esc_at_the_main_menu_does_not_end_the_call(tmp_path):
    """Esc means 'back' on every other screen, but at the main menu it quit at once: a player who
    pressed it once too many was thrown off."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)
        c.send("I")
        await c.wait_for("INSTRUCTIONS")
        c.send("\x1b")
        await c.wait_for("Your choice")
        c.send("\x1b")
        await c.wait_for("Q quits.")
        assert "Your choice" in c.text and "Thanks for playing" not in c.text
        c.send("Q")
        await c.wait_for("Thanks for playing")
        c.close()


async def test_a_drop_or_an_accept_that_ends_the_match_says_so(tmp_path):
    """'Drop the double and lose this game, 1 point? (Y/N)' at 2-1 in a 3-point match: the drop
    lost the match too, and the question did not say so; nor did G)ive up's choices, or the
    question on accepting a resignation."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 40)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")

        def opening() -> GameView:
            v = svc.roll(alice, view.id, svc.game(view.id).version)  # white 3, black 1: alice plays
            return svc.submit_turn(alice, v.id, v.version, str(v.state.plays()[0]))

        view = opening()
        view = svc.resign(bob, view.id, view.version, Win.GAMMON)
        view = svc.answer_resign(alice, view.id, view.version, True)  # 2-0: the Crawford game
        view = opening()
        view = svc.resign(alice, view.id, view.version, Win.SINGLE)
        view = svc.answer_resign(bob, view.id, view.version, True)  # 2-1
        view = opening()
        view = svc.roll(bob, view.id, view.version)
        view = svc.submit_turn(bob, view.id, view.version, str(view.state.plays()[0]))
        view = svc.double(alice, view.id, view.version)
        assert view.state.score == (2, 1) and view.state.cube == 1
    async with running_server(url) as srv:
        b = await call(srv.port)
        await login(b, "bob", "bob-pw", new=False)
        await menus.open_board(b)
        b.send("X")
        await b.wait_words("Drop the double and lose this game, 1 point, and the match? (Y/N)")
        b.send("N")
        await b.wait_for("You did not drop.")
        b.send("T")
        await b.wait_for("You take.")
        # On alice's turn now, with the cube at 2: any resignation gives her the match.
        b.send("G")
        await b.wait_for("Give up:")
        await b.wait_words("a single game (2 points, the match)")
        b.close()


async def test_the_board_of_a_finished_match_says_how_it_ended(tmp_path):
    """Once the key after the result was pressed, the board of a finished match said only 'bob
    won' and 'Score 1/1' in the panel: the sentence with the match's result was gone."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.submit_turn(alice, view.id, view.version, str(view.state.plays()[0]))
        view = svc.resign(alice, view.id, view.version, Win.SINGLE)
    async with running_server(url) as srv:
        b = await call(srv.port)
        await login(b, "bob", "bob-pw", new=False)
        await menus.open_board(b)
        await b.wait_for("A)ccept")
        b.send("A")
        await b.wait_for("(Y/N)")
        b.send("Y")
        await b.wait_words("and the match")
        b.send(" ")  # the result goes ...
        # ... and how the match ended stays, with how its last game was won
        await b.wait_words("You won the match 1-0 with a single game by resignation, 1 point.")
        b.send("R")  # and stays once R)eview is left
        await b.wait_for("Q)uit review")
        b.send("Q")
        await b.wait_until(lambda t: "Q)uit review" not in t, "the board again")
        await b.wait_words("You won the match 1-0 with a single game by resignation, 1 point.")
        b.close()


async def test_no_news_at_40_columns_hangs_like_the_news(tmp_path):
    """At 40 columns N)ews with nothing new wrapped its second line to the left margin, unlike
    every news item, which hangs under its text."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        c.send("N")
        await c.wait_for("Nothing new")
        await c.settle(0.2)
        lines = c.screen.display
        at = next(i for i, line in enumerate(lines) if "- Nothing new" in line)
        first, second = lines[at], lines[at + 1]
        assert second.index(second.strip()[0]) == first.index("Nothing"), (first, second)
        c.close()


async def test_a_turn_waiting_in_another_game_is_told_on_the_board(tmp_path):
    """Sitting at game #1's board, alice was not told that bob had just played in game #2 and it
    was her turn there; only the menu, once she went back, said so."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        first = svc.begin_game(alice, 3, Color.WHITE, "bob")
        second = svc.begin_game(bob, 3, Color.WHITE, "alice")  # bob is White there
        view = svc.roll(bob, second.id, second.version)  # bob 3, alice 1: bob starts
        svc.submit_turn(bob, view.id, view.version, str(view.state.plays()[0]))  # alice's turn... to roll
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c, f"#{first.id}")
        await c.wait_for("roll for who starts")
        await c.settle(0.5)
        assert "Your turn in game" not in c.text
        with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
            svc.roll(bob, first.id, svc.game(first.id).version)  # game 1 changes: told as news there
            third = svc.begin_game(bob, 3, Color.BLACK, "alice")
            view = svc.roll(bob, third.id, third.version)  # white 3 (alice): alice starts game 3
        # #1 and #2 wait for her too: P)lay lists the three.
        await c.wait_words(f"Your turn in game #{third.id} too: Q, P)lay, then #{third.id} and Enter.")
        assert f"game #{second.id} too" not in c.text  # waiting before she sat down: not news
        c.close()


async def test_a_member_boards_rank_title_is_never_cut_mid_word(tmp_path):
    """At 40 columns the title of a member board's rankings was cut at 36 characters, mid-word
    ('The top players of Stardust Citadel B')."""
    member = MemberBBS("SDC", "Stardust Citadel BBS", "s3cret-s3cret", ())
    async with running_server(f"sqlite:///{tmp_path}/g.db", bbses={"SDC": member}) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "carol", "carol-pw", new=True)
        await c.wait_for("Your choice")
        c.send("R")
        await c.wait_for("Choice:")
        # An empty list says whose it is: 'Nobody has finished a match yet.' under this server's
        # title read as if nobody on any board had.
        for title, empty in (("The top players, every board", "Nobody has"),
                             ("The top players of this server", "No player of this server has"),
                             ("Top players of Stardust", "No player of Stardust Citadel BBS has")):
            await c.wait_for(title)
            await c.settle(0.2)
            line = c.screen.display[1].rstrip()
            assert line.strip() in {"The top players, every board", "The top players of this server",
                                    "Top players of Stardust Citadel BBS"}, line
            assert f"{empty} finished a match yet." in " ".join(c.text.split()), c.text
            c.send("B")
        c.close()


async def test_the_begin_form_is_laid_out_again_when_the_window_narrows(tmp_path):
    """Narrowing the window on B)egin's questions cut what was on the screen at the new width
    ('Every question has a default in [brack') and left it so for the rest of the form."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("bob", "bob-pw")
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        try:
            await menus.login(c, "alice", "alice-pw", new=True)
            await c.wait_for("Your choice")
            c.send("B")
            await c.wait_for("Match length")
            c.send("5")
            c.send_size(40, 24)  # while the length is typed: it stays typed
            await c.wait_for("[brackets]; Enter accepts it")
            await c.wait_words("Every question has a default in [brackets]; Enter accepts it. "
                               "Esc goes back to the menu. Match length, 1 to 25 points [3]: 5")
            c.send("\r")
            await c.wait_for("R)andom")
            c.send_size(44, 24)
            await c.settle(0.5)
            lines = [line.rstrip() for line in c.lines()]
            words = " ".join(" ".join(lines).split())
            assert "Match length, 1 to 25 points [3]: 5 Play as W)hite, B)lack or R)andom [R]:" in words, lines
            assert all(len(line) <= 44 for line in lines)
            c.send("X")  # not an answer: said, and still said after the window changes again
            await c.wait_words("X is not an answer: W, B or R")
            c.send_size(40, 24)
            await c.wait_words("X is not an answer: W, B or R")
            c.send("W")
            await c.wait_for("N)amed")
            c.send_size(80, 25)
            await c.wait_for("Opponent: O)pen seat")
            c.send("N")
            await c.wait_for("Opponent's handle:")
            c.send("bo")
            c.send_size(60, 24)
            await c.settle(0.5)
            c.send("b\r")
            await c.wait_for("The board needs 80 columns")  # the game is begun: its board asks for 80
        finally:
            c.close()
        with Service(url) as svc:
            (game,) = svc.my_games(svc.login("alice", "alice-pw").id)
            assert game.length == 5 and "bob" in (game.white, game.black)


async def test_the_login_screen_is_laid_out_again_when_the_window_narrows(tmp_path):
    """Narrowing the window at the Handle: prompt cut the title box and the line above the
    prompt at the new width."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        try:
            await c.wait_for("Handle:")
            c.send("ali")
            c.send_size(40, 24)
            await c.wait_words("Enter your handle, or a new one (2 to 16 characters) to create a player. Handle: ali")
            lines = [line.rstrip() for line in c.lines()]
            box = [line for line in lines if "B G D O O R" in line]
            assert box and box[0].rstrip().endswith("║"), lines  # the whole box, both its sides
            c.send("ce\r")
            await c.wait_words("There is no player called alice.")
        finally:
            c.close()


async def test_a_watcher_is_told_a_result_once(tmp_path):
    """A watcher who had dismissed 'bob wins a single game on a drop' was shown it again with the
    next game's opening roll, and again with every later event, the newest cut off."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 2] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        svc.register("carol", "carol-pw")
        view = svc.begin_game(alice, 5, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)  # alice 4, bob 2: alice plays 4-2
        view = svc.submit_turn(alice, view.id, view.version, "8/4 6/4")
        game = view.id
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=False)
        await open_game(c, f"#{game}", expect="Watching this game")
        with Service(url, dice=ScriptedDice([4, 2] * 10)) as svc:
            view = svc.double(bob, game, svc.game(game).version)
            svc.drop(alice, game, view.version)
        await c.wait_words("bob wins a single game on a drop")
        c.send(" ")  # dismissed
        await c.wait_until(lambda t: "wins a single game" not in t, "the result to go")
        with Service(url, dice=ScriptedDice([4, 2] * 10)) as svc:
            svc.roll(alice, game, svc.game(game).version)  # the next game's opening roll
        await c.wait_words("Opening roll: alice 4, bob 2.")
        await c.settle(0.3)
        assert "wins a single game" not in c.text, c.text
        with Service(url, dice=ScriptedDice([4, 2] * 10)) as svc:
            svc.submit_turn(alice, game, svc.game(game).version, "8/4 6/4")
        await c.wait_words("alice starts with 4-2, playing 8/4 6/4.")
        assert "wins a single game" not in c.text, c.text
        c.close()


async def test_a_list_s_last_page_footer_is_whole_at_40_columns_with_both_marks(tmp_path):
    """V)iew's last page at 40x24, a turn and an offer on it: the footer, both marks' legends and
    '(4 of 4) N: page 1, B: page back.', was cut at four lines after 'Q or' (worded 'Last page
    (4 of 4): N goes to page 1')."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        carol = svc.register("carol", "carol-pw").id
        svc.register("dave", "dave-pw")
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(carol, 3, Color.WHITE, "dave")
        svc.roll(carol, v.id, v.version)  # carol to play: '*'
        v = svc.begin_game(carol, 3, Color.WHITE, "dave")
        v = svc.roll(carol, v.id, v.version)
        v = svc.submit_turn(carol, v.id, v.version, "8/5 6/5")
        v = svc.roll(2, v.id, v.version)  # dave
        v = svc.submit_turn(2, v.id, v.version, "8/5 6/5")
        svc.double(carol, v.id, v.version)  # dave to answer: '?'
        for length in range(1, 18):
            svc.begin_game(bob, length, Color.WHITE, None)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        c.send("V")
        await c.wait_words("N)ext page (1 of 4)")
        for page in (2, 3, 4):
            c.send("N")
            await c.wait_words(f"({page} of 4)")
        said = " ".join((await c.wait_words("(4 of 4) N: page 1")).split())
        assert "? an offer to answer." in said and "(4 of 4) N: page 1, B: page back. Q or Enter goes back. Game:" \
            in said, said
        c.close()


async def test_no_to_join_it_comes_back_to_the_page_it_was_asked_from(tmp_path):
    """On page 2 of V)iew, a line number, N to 'Join it?': the list came back at page 1, where the
    same line number then opened another game."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        bob = svc.register("bob", "bob-pw").id
        for length in range(1, 16):
            svc.begin_game(bob, length, Color.WHITE, None)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=80, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        c.send("V")
        await c.wait_words("N)ext page (1 of 2)")
        c.send("N")
        await c.wait_words("(2 of 2)")
        c.send("1\r")
        await c.wait_words("Join it? (Y/N) [Y]")
        c.send("N")
        said = " ".join((await c.wait_words("Game:")).split())
        await c.settle(0.3)
        said = " ".join(c.text.split())
        assert "(2 of 2)" in said and "Join it?" not in said, said
        c.close()


async def test_a_list_laid_out_for_a_new_size_keeps_its_first_game_in_sight(tmp_path):
    """On page 2 of 2 at 80 columns (games 14 and 15), the window made 40 columns: the list kept
    the page's number, page 2 of 3 (games 6 to 10), and the games between went by unseen."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        bob = svc.register("bob", "bob-pw").id
        for length in range(1, 16):
            svc.begin_game(bob, length, Color.WHITE, None)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 24), glass=(80, 25))
        try:
            await menus.login(c, "alice", "alice-pw", new=True)
            c.send("V")
            await c.wait_words("N)ext page (1 of 2)")
            c.send("N")
            text = await c.wait_words("(2 of 2)")
            first = re.search(r" 1\) +(#\d+)", text)
            assert first is not None, text
            c.send_size(40, 24)
            said = await c.wait_words("(3 of 3)")
            assert re.search(rf"\) +{first.group(1)} ", said), said  # on the page shown
        finally:
            c.close()


@pytest.mark.parametrize("size", [(40, 24), (80, 24)])
async def test_the_game_list_footer_is_whole_with_its_next_page_key(tmp_path, size):
    """At 40 columns the V)iew list's footer was cut at two lines: 'Q goes back.' and, with two
    pages, the N)ext page key and '(1 of 2)' never showed, though a row was free."""
    cols, rows = size
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        bob = svc.register("bob", "bob-pw").id
        for length in range(1, 16):
            svc.begin_game(bob, length, Color.WHITE, None)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=cols, rows=rows)
        await login(c, "alice", "alice-pw", new=True)
        c.send("V")
        await c.wait_for("Game:")
        await c.settle(0.2)
        lines = [line.rstrip() for line in c.screen.display]
        words = " ".join(" ".join(lines).split())
        pages = 3 if cols == 40 else 2
        assert f"and Enter. N)ext page (1 of {pages}). Q or Enter goes back. Game:" in words, lines
        listed = [line for line in lines if re.match(r"\s+\d+\) #", line)]
        assert len(listed) == (5 if cols == 40 else 13), lines  # at 40, two rows each and a second heading
        assert all(len(line) <= cols - 1 for line in lines)
        c.send("x")  # not an answer: the refusal names N among the answers, whole at 40 columns
        await c.wait_words("X is not an answer: a number and Enter, N, or Q." if cols == 80
                           else "X: type a number and Enter, N, or Q.")
        c.send("N")
        await c.wait_words(f"({2} of {pages})")
        c.send("x")  # past the first page B is an answer too, and named so
        await c.wait_words("X is not an answer: a number and Enter, N, B, or Q." if cols == 80
                           else "X: a number and Enter, N, B, or Q.")
        for page in range(3, pages):
            c.send("N")
            await c.wait_words(f"N)ext page ({page} of {pages}), B: page back. Q or Enter goes back.")
        c.send("N")
        # The last page's N goes round to the first: it said "N)ext page (2 of 2)".
        await c.wait_words(f"({pages} of {pages}) N: page 1, B: page back. Q or Enter goes back.")
        # B, Up and PgUp turn a page back, as on every other page of pages (all three were refused).
        c.send("\x1b[A")
        await c.wait_words(f"N)ext page ({pages - 1} of {pages})")
        c.send("N")
        await c.wait_words(f"({pages} of {pages}) N: page 1")
        c.send("N")
        await c.wait_words(f"N)ext page (1 of {pages}). Q or Enter goes back.")
        c.send("B")
        await c.wait_words("This is the first page: N turns to the next.")
        c.send("1N")  # a number half typed: N turns the page all the same (it was refused, named N)
        await c.wait_words(f"N)ext page (2 of {pages}), B: page back. Q or Enter goes back." if pages > 2
                           else "(2 of 2) N: page 1, B: page back.")
        assert "not an answer" not in c.text and "type a number" not in c.text, c.text
        c.send("B")
        await c.wait_words(f"N)ext page (1 of {pages}). Q or Enter goes back.")
        c.send("9")  # a digit, not PgUp, though the keypad's 9 is PgUp on a board
        await c.wait_for("Game: 9")
        c.send("\x08\x1b[B")  # Down turns a page on, as N does (it had been 'not an answer')
        await c.wait_words(f"N)ext page (2 of {pages})" if pages > 2 else "(2 of 2) N: page 1")
        c.close()


async def test_the_typed_play_prompt_is_not_run_into_the_opponents_note(tmp_path):
    """M's prompt had the opponent's note after it on one line ('..., Esc cancels:  bob says:
    "good luck"'), so the note read as where the answer goes."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, _, _, view = bob_opens(url, note="good luck")
    svc.close()
    async with running_server(url, dice=ScriptedDice([6, 5])) as srv:
        c = await call(srv.port, cols=80, rows=24)
        await login(c, "carol", "carol-pw", new=False)
        await menus.open_board(c, f"#{view.id}")
        await c.wait_words('bob\'s note: "good luck"')
        c.send("P")
        await c.wait_words("You rolled 6-5.")
        c.send("M")
        await c.wait_words("Your play (like 24/18 13/11), Enter sends, Esc cancels:")
        await c.settle(0.2)
        prompt = next(line for line in c.screen.display if "Your play" in line)
        assert "good luck" not in prompt, c.text
        c.send("24/13\r")
        await c.wait_words("Turn sent: 24/13.")
        c.close()


async def test_a_narrow_watcher_is_told_whose_turn_and_the_score(tmp_path):
    """On a board narrower than 80 columns the panel (names, scores, whose turn) is cut off: a
    player's message line said whose turn it was, but a watcher's said only 'Watching this game.',
    and nobody's said the score.  Nor, at any width, what was done last."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 2])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.register("carol", "carol-pw")
        view = svc.begin_game(alice, 5, Color.WHITE, "bob")
        svc.roll(alice, view.id, view.version)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=60, rows=24)
        await login(c, "carol", "carol-pw", new=False)
        await open_game(c)
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
        said = " ".join((await c.wait_words("alice starts with 4-2. Score: alice 0, bob 0 (match to 5).")).split())
        assert "Watching this game" not in c.text
        # What was done last, which the board alone does not say, before it (it was not said); it
        # says whose turn it is: not 'alice to play 4-2.' after it.
        assert "alice 4, bob 2. alice starts with 4-2. Score:" in said, said
        assert "to play" not in said, said
        c.close()
        wide = await call(srv.port, cols=80, rows=25)
        await login(wide, "carol", "carol-pw", new=False)
        await open_game(wide)
        await wide.wait_words("Watching this game. Opening roll: alice 4, bob 2. alice starts with 4-2.")
        wide.close()


async def test_a_narrow_watcher_is_told_whose_turn_it_is_after_each_play(tmp_path):
    """A watcher at 40 columns was told whose turn it was and the score on opening the board, but
    after each play only the play: 'alice rolled 6-6 and played 16/10* 13/7(3).', with the panel
    that says the rest cut off."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 2, 6, 5, 3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        svc.register("carol", "carol-pw")
        view = svc.begin_game(alice, 5, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "carol", "carol-pw", new=False)
        await open_game(c)
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
        await c.wait_words("alice starts with 4-2.")
        with Service(url, dice=ScriptedDice([6, 5])) as svc:
            view = svc.submit_turn(alice, view.id, view.version, "8/4 6/4")
        await c.wait_words("playing 8/4 6/4. bob to play.")
        with Service(url, dice=ScriptedDice([6, 5])) as svc:
            svc.roll(bob, view.id, view.version)
        said = " ".join((await c.wait_words("bob rolled 6-5.")).split())
        assert "bob to play" not in said, said  # the roll says whose turn it is
        assert "bob rolled 6-5. Score: alice 0, bob 0 (match to 5)." in said, said
        c.close()


async def test_the_rankings_and_the_game_list_are_laid_out_again_when_the_window_narrows(tmp_path):
    """Narrowing the window on R)ank or V)iew cut their lines at the new width ('Rank  Player
    Board    Rating', 'alice  here  at th') instead of laying them out for it."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    with Service(url) as svc:
        svc.begin_game(svc.login("bob", "bob-pw").id, 3, Color.WHITE, None)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        try:
            await menus.login(c, "carol", "carol-pw", new=True)
            await c.wait_for("Your choice")
            c.send("R")
            await c.wait_for("Rank:")
            c.send("1")
            c.send_size(40, 24)
            await c.wait_for("Rank Player            Rating Won Lost")
            await c.wait_words("Rank: 1")
            assert all(len(line.rstrip()) <= 40 for line in c.lines())
            c.send("\x7fq")  # the 1 rubbed out, and back to the menu
            await c.wait_for("Your choice")
            c.send_size(80, 25)
            c.send("V")
            await c.wait_for("White             Black")
            c.send_size(40, 24)
            await c.wait_for("  bob v (open seat)")  # two lines a game, the players on the second
            await c.wait_words("Q or Enter goes back. Game:")
            c.send("1\r")
            await c.wait_for("Join it?")
        finally:
            c.close()


async def test_whos_online_and_the_options_are_laid_out_again_when_the_window_narrows(tmp_path):
    """Narrowing the window on W)ho's online, O)ptions or the I)nstructions cut their lines at
    the new width."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        narrow = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        try:
            await menus.login(c, "carol", "carol-pw", new=True)
            await menus.login(narrow, "dave", "dave-pw", new=True)
            for key, needle in (("W", "Enter looks again"), ("O", "Q or Enter goes back."), ("I", "Page 1 of")):
                await c.wait_for("Your choice")
                await narrow.wait_for("Your choice")
                c.send_size(80, 25)
                c.send(key)
                narrow.send(key)
                await c.wait_for(needle)
                await narrow.wait_for(needle)
                await narrow.settle(0.3)
                c.send_size(40, 24)
                if key == "W":  # under 58 columns, what each caller does goes under the name
                    await c.wait_for("Player, doing")
                else:  # the same screen as a caller who came at 40 columns sees it
                    def same(_: str) -> bool:
                        return [line.rstrip() for line in c.lines()[:24]] == [line.rstrip() for line in narrow.lines()]

                    await c.wait_until(same, f"{key} as at 40 columns:\n{narrow.text}", 5)
                assert all(len(line.rstrip()) <= 40 for line in c.lines())
                c.send("q")
                narrow.send("q")
        finally:
            c.close()
            narrow.close()


async def test_undo_takes_back_a_checker_moved_with_both_dice_in_one_drop(tmp_path):
    """Picking up on 13 and dropping on 2 with 6-5 is one move to the player, but U)ndo took
    back only its second half: 'Move taken back.' with the checker on 7 or 8."""
    dice = ScriptedDice([6, 5] + [1, 2] * 20)
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=dice) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 6-5")
        alice.send("\r")  # the cursor starts on 13: pick a checker up
        await alice.wait_for("Checker in hand")
        alice.send("2" + "6" * 10 + "\r")  # down to 12, then right to 2: put it down
        await alice.wait_words("Your play: 13/2.")
        assert alice.text.count("Pips 156") == 1, alice.text
        alice.send("U")
        await alice.wait_words("Move taken back; 6-5 to play.")
        await alice.settle(0.2)
        assert alice.text.count("Pips 167") == 2, alice.text  # back on 13, both dice to play
        alice.send("U")
        await alice.wait_for("Nothing to undo yet.")
        alice.close()
        bob.close()


async def test_a_resignation_that_ends_the_match_says_so_to_the_one_who_answers_it(tmp_path):
    """'You offer to resign, giving a single game (1 point, the match).' said the one who offered;
    the one to answer it was told only '... (1 point).', live and coming back alike."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        svc.resign(bob, view.id, view.version, Win.SINGLE)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c)
        await c.wait_words("bob offers to resign, giving a single game (1 point, the match).")
        c.send("?")  # away and back: the offer is said again on the board
        await c.wait_for("Keys now")
        c.send(" ")
        await c.wait_words("bob offers to resign, giving a single game (1 point, the match).")
        c.close()


async def test_news_under_the_menu_that_leaves_an_item_out_says_so(tmp_path):
    """At 80x24 the menu counted two news items and showed one, its opening-roll line wrapped over
    the two rows there were, with nothing to say the other was left out."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_played(srv.port, (80, 24))
        await b.wait_for("playing 13/11")
        # Both items in: the menu is drawn afresh for each (a loaded machine can be between them).
        await b.wait_until(lambda t: "News (2), the latest first:" in b.lines()[20], "both news items counted")
        await b.settle()
        lines = [line.rstrip() for line in b.lines()]
        assert "News (2), the latest first:" in lines[20], b.text
        assert lines[22].endswith("(N: all)"), b.text
        assert all(len(line) <= 80 for line in lines)
        a.close()
        b.close()


async def test_a_narrow_list_puts_the_players_under_their_game(tmp_path):
    """At 40 columns the players' line began under the line numbers, and read as an entry of its
    own, while its heading stood over the score."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        c.send("M")
        await c.wait_for("Game:")
        lines = [line.rstrip() for line in c.screen.display]
        at = next(i for i, line in enumerate(lines) if line.startswith("  1) #1     1-0/1"))
        assert lines[at + 1] == "     alice v bob", c.text
        assert lines[at - 1] == "     White v Black", c.text
        # The last change, which the wide list shows, after the score (it had gone at 40 columns),
        # and the player's result.
        assert lines[at - 2] == "     Game   Score    You  Last change", c.text
        assert re.fullmatch(r"  1\) #1     1-0/1    won  \d\d-\d\d \d\d:\d\d", lines[at]), c.text
        c.close()


async def alice_starts(port: int, bob_size: tuple[int, int] = (80, 25)) -> tuple[RawCaller, RawCaller]:
    """alice begins a 5-point match naming bob (at `bob_size`, on a glass of 80x24, at the menu)
    and wins the opening roll (the server's dice must give White the higher)."""
    a = await RawCaller.connect(port, term="xterm", size=(80, 25))
    await menus.login(a, "alice", "secret1", True)
    b = await RawCaller.connect(port, term="xterm", size=bob_size, glass=(80, 24))
    await menus.login(b, "bob", "secret2", True)
    await menus.begin(a, 5, "bob")
    await a.wait_for("roll for who starts")
    a.send("\r")
    await a.wait_for("You start")
    return a, b


async def alice_played(port: int, bob_size: tuple[int, int]) -> tuple[RawCaller, RawCaller]:
    """alice_starts with 5-2 (dice 5, 2, 4, 3, ...) and plays it."""
    a, b = await alice_starts(port, bob_size)
    a.send("M")
    await a.wait_for("Your play")
    a.send("13/8 13/11\r")
    await a.wait_for("Turn sent")
    return a, b


async def alice_moved_and_bob_to_play(port: int, bob_size: tuple[int, int]) -> tuple[RawCaller, RawCaller]:
    """alice_played, then bob opens the game and rolls 4-3: he is moving."""
    a, b = await alice_played(port, bob_size)
    b.send("P")
    if bob_size[0] < 80:
        await b.wait_for("needs 80 columns")
        b.send("\r")
    await b.wait_for("P)lay")
    b.send("\r")
    await b.wait_for("You rolled 4-3")
    return a, b


async def test_the_keys_page_turns_over_when_the_screen_is_too_short(tmp_path):
    """At 40x24 the ? page's keys while moving take 32 rows: the footer was written over them and
    the last keys (V, I, ?, Q) fell off the screen.  A page at a time, laid out again on a resize."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_moved_and_bob_to_play(srv.port, (40, 24))
        b.send("?")
        await b.wait_for("Page 1 of 2.")
        lines = [line.rstrip() for line in b.lines()]
        assert all(len(line) <= 40 for line in lines)
        assert lines[23] == "", lines  # the last row stays clear
        footer = next(i for i, line in enumerate(lines) if "Page 1 of 2." in line)
        assert not lines[footer - 1].strip(), b.text  # a blank between the keys and the footer
        assert "Q: back to the board" in " ".join(lines[footer:]), b.text
        b.send(" ")
        await b.wait_for("Page 2 of 2.")
        said = " ".join(" ".join(b.lines()).split())
        assert "Q or Esc: back to the menu." in said and "B: page back" in said, said
        b.send_size(80, 24)  # wide enough for every key on one page
        await b.wait_for("Press a key to go back to the board.")
        assert "Page" not in b.text and "Q or Esc: back to the menu." in b.text, b.text
        b.send("x")
        await b.wait_for("Arrows/8246 move")
        a.close()
        b.close()


async def test_what_the_opponent_did_meanwhile_is_told_after_the_keys_page(tmp_path):
    """The ? page waits for a key, and for a new size; a move the opponent made meanwhile is still
    told once the board is back."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_moved_and_bob_to_play(srv.port, (80, 24))
        a.send("?")
        await a.wait_for("Keys now")
        b.send("M")
        await b.wait_for("Your play")
        b.send("24/20 13/10\r")
        await b.wait_for("Turn sent")
        await a.settle(0.5)
        assert "Keys now" in a.text, a.text  # the page stays until a key
        a.send("x")
        await a.wait_for("bob rolled 4-3 and played")
        a.close()
        b.close()


async def narrowed(c: RawCaller, cols: int = 40, rows: int = 24) -> list[str]:
    """The screen once the window is narrowed to `cols` and the server has answered: within them."""
    c.send_size(cols, rows)
    await c.settle(0.5)
    lines = [line.rstrip() for line in c.lines()]
    assert all(len(line) <= cols for line in lines), lines
    return lines


async def test_the_news_page_and_a_player_page_are_drawn_again_for_a_new_size(tmp_path):
    """Narrowing the window on N)ews or on a player's page left them as drawn for 80 columns,
    cut at the new width."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, *_ = bob_opens(url, ("Well played yesterday, carol. " * 3).strip())
    svc.close()
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        await menus.login(c, "carol", "carol-pw", new=False)
        await c.wait_for("Your choice")
        c.send("N")
        # Said how it is ordered: game by game, where the menu's are the latest first.
        await c.wait_for("News from your games, game by game")
        lines = await narrowed(c)
        said = " ".join(" ".join(lines).split())
        assert 'bob\'s note: "Well played yesterday, carol. Well played yesterday, carol.' in said, said
        c.send("q")
        await c.wait_for("Your choice")
        c.close()
    url = f"sqlite:///{tmp_path}/h.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        await menus.login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        c.send("R")
        await c.wait_for("Rank:")
        c.send("1\r")
        await c.wait_for("Rating history")
        lines = await narrowed(c)
        assert "Press any key to go back." in c.text
        c.send("x")
        await c.wait_for("Rank:")
        c.close()


async def test_a_player_s_rating_chart_fits_a_20_line_screen(tmp_path):
    """At 50x20 the chart ran into 'Press any key.' on the last row: its lowest rating and its dates
    were lost under it."""
    url = f"sqlite:///{tmp_path}/h.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(50, 20))
        await menus.login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        c.send("R")
        await c.wait_for("Rank:")
        c.send("1\r")
        await c.wait_for("Press any key to go back.")
        lines = [line[:50].rstrip() for line in c.lines()[:20]]
        assert lines[19].strip() == "Press any key to go back.", lines
        # The chart's last row (its dates) is above it, whole.
        assert re.search(r"\d\d-\d\d", lines[18]), lines
        c.close()


async def test_a_question_on_a_20_line_board_is_on_the_screen(tmp_path):
    """At 50x20 A at bob's offer to resign showed 'Accept, and win a single game (1 point) and the'
    on the last row, its '... match? (Y/N)' below the screen's bottom."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        svc.resign(bob, view.id, view.version, Win.SINGLE)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(50, 20), glass=(80, 25))
        await menus.login(c, "alice", "alice-pw", new=False)
        await menus.open_game(c)
        await c.wait_for("needs 80 columns")
        c.send("\r")
        await c.wait_for("BAR")
        await c.settle(0.3)
        c.send("A")
        await c.wait_for("(Y/N)")
        shown = " ".join(" ".join(line[:50] for line in c.lines()[:20]).split())
        assert "Accept, and win a single game (1 point) and the match? (Y/N)" in shown, shown
        c.close()


async def test_a_held_result_on_a_20_line_board_says_press_a_key_and_goes_whole(tmp_path):
    """At 50x20 a held result's '(Press a key; Q leaves the game.)' was below the screen, and after
    the key the result's first line stayed above the shorter message that replaced it."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_doubled(url)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(50, 20), glass=(80, 25))
        await menus.login(c, "alice", "alice-pw", new=False)
        await menus.open_game(c)
        await c.wait_for("needs 80 columns")
        c.send("\r")
        await c.wait_words("bob doubles to 2.")
        c.send("X")
        await c.wait_for("(Y/N)")
        c.send("Y")
        await c.wait_words("Score: bob 1, alice 0.")
        await c.settle(0.3)
        shown = " ".join(" ".join(line[:50] for line in c.lines()[:20]).split())
        assert "(Press a key; Q leaves the game.)" in shown, shown
        c.send(" ")
        await c.wait_words("Game 2 of the match.")
        await c.settle(0.3)
        shown = " ".join(" ".join(line[:50] for line in c.lines()[:20]).split())
        assert "on a drop" not in shown, shown
        c.close()


async def test_the_board_cursor_starts_where_a_narrow_screen_shows_it(tmp_path):
    """Black at 40 columns with the board as the table stands: the keypad cursor began on point
    13, past the right edge, and the first arrow keys moved it unseen."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_moved_and_bob_to_play(srv.port, (40, 24))
        b.send("Q")
        await b.wait_for("Your choice")
        b.send("O")
        await b.wait_for("Options")
        b.send("B")
        await b.wait_for("as the table stands")
        b.send("Q")
        await b.wait_for("Your choice")
        b.send("P")  # the 80 columns were asked about once: straight to the board
        await b.wait_for("Arrows/8246 move")
        await b.settle()
        board = [line[:40] for line in b.lines()[1:18]]
        assert any("◄" in line for line in board), b.text
        assert not any("◄" in line[40:] for line in b.lines()), b.text
        a.close()
        b.close()


async def test_the_review_and_the_board_s_questions_are_laid_out_again_for_a_new_size(tmp_path):
    """Narrowing the window in M)atches' review, or while G)ive up asked which, left the board's
    text as laid out for 80 columns, cut at 40."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        await menus.login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        c.send("M")
        await c.wait_for("Game:")
        c.send("1\r")
        await c.wait_for("Step ")
        said = " ".join(" ".join((await narrowed(c))[18:24]).split())
        assert "Step 5 of 5: You win the match, 1-0. Ratings: alice 1510.0 (+10.0), bob" in said, said
        c.close()
    async with running_server(f"sqlite:///{tmp_path}/h.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_moved_and_bob_to_play(srv.port, (80, 24))
        b.send("G")
        await b.wait_for("Give up")
        said = " ".join(" ".join((await narrowed(b))[18:24]).split())
        assert "a backgammon (3 points)?" in said and "3) backgammon Esc: no" in said, said
        b.send("\x1b")
        # The question closed, the size page comes (the caller had not gone on at 40), then the board.
        await b.wait_words("Enter goes on anyway")
        b.send("\r")
        await b.wait_for("You did not offer to resign.")
        a.close()
        b.close()


async def alice_notes_and_moves_13_10(port: int) -> tuple[RawCaller, RawCaller]:
    """alice_starts with 3-1: alice writes a note and moves 13/10 with the cursor."""
    a, b = await alice_starts(port)
    a.send("N")
    await a.wait_for("Note to your")
    a.send("See you later\r")
    await a.wait_for("Your note goes with")
    await alice_moves_13_10(a)
    return a, b


async def alice_moves_13_10(a: RawCaller) -> None:
    """alice, on roll with 3-1, moves 13/10 with the cursor."""
    a.send("\r")  # picks up the checker on 13, where the cursor starts
    await a.wait_for("Checker in hand")
    a.send("266\r")  # down to 12, right to 11 and 10, and down
    await a.wait_words("Moved 13/10; the 1 to play.")


async def alice_calls_back(port: int) -> RawCaller:
    await asyncio.sleep(0.5)
    a = await RawCaller.connect(port, term="xterm", size=(80, 25))
    await menus.login(a, "alice", "secret1", False)
    return a


async def test_a_note_sent_from_another_session_is_not_kept_waiting(tmp_path):
    """alice's unsent note and half turn came back on two door nodes at once; the turn went from
    one, and the other went on saying her moves and note were waiting, and sent the note again
    with her next turn.  Here her other node is the service itself."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url, dice=ScriptedDice([3, 1] * 10)) as srv:
        a, b = await alice_notes_and_moves_13_10(srv.port)
        a.close()  # the line drops
        a = await alice_calls_back(srv.port)
        a.send("P")
        await a.wait_words("Your moves so far are as you left them: 13/10")
        assert 'Your note, not yet sent: "See you later"' in said(a), said(a)
        with Service(url) as svc:
            alice = svc.login("alice", "secret1").id
            view = svc.game(1, alice)
            svc.submit_turn(alice, 1, view.version, "13/10 6/5", "See you later")
            assert svc.draft(alice, 1) is None or svc.draft(alice, 1).note is None
        # Told as sent, with the play it went with; not as waiting.
        await a.wait_words('In another session: Opening roll: alice 3, bob 1. You start with 3-1, playing 13/10 6/5. '
                           'Your note: "See you later".')
        await a.settle(0.3)
        assert "as you left them" not in said(a) and said(a).count('"See you later"') == 1, said(a)
        a.close()
        b.close()


async def test_a_turn_half_played_is_as_it_was_left_after_a_hang_up(tmp_path):
    """alice moved 13/10 of her 3-1 and her line dropped: coming back, the board was at the start
    of the turn again with nothing to say the move had gone.  The moves made so far (and a note
    not yet sent) are kept, and said; Q and P keep them the same way."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 10)) as srv:
        a, b = await alice_notes_and_moves_13_10(srv.port)
        # Which die is left, on the message line and the panel: greyed, it showed little.
        assert "Your turn 3-1, the 1 to play" in " ".join(
            line[56:].strip() for line in a.lines() if line[56:].strip()), a.text
        a.close()  # the line drops
        a = await alice_calls_back(srv.port)
        a.send("P")
        await a.wait_words("Your moves so far are as you left them: 13/10; the 1 to play.")
        assert "Pips 164" in a.text, a.text
        a.send("Q")
        await a.wait_for("Your choice")
        a.send("P")
        await a.wait_words("Your moves so far are as you left them: 13/10; the 1 to play.")
        a.send("?")
        await a.wait_for("Keys now")
        a.send("x")
        await a.wait_for("Arrows/8246 move")
        a.send("M")
        await a.wait_for("Your play")
        a.send("6/5\r")  # the typed play begins with the moves made: 13/10 6/5
        await a.wait_for("Turn sent")
        await b.wait_words('alice starts with 3-1, playing 13/10 6/5. alice\'s note: "See you later"')
        a.close()
        b.close()


async def test_no_v_is_offered_with_no_turn_to_replay_and_a_refusal_keeps_the_double_said(tmp_path):
    """bob's first act was a double: the news page still offered 'V to see the last turn played
    there', and V, refused on the board, took 'bob doubles to 2' off it, leaving T)ake and X)
    with no question."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(bob, 3, Color.BLACK, "alice")
        v = svc.roll(bob, v.id, v.version)  # alice 3, bob 1: alice starts
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        svc.double(bob, v.id, v.version, note="Take this!")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("P")
        text = await c.wait_for("Since you last looked")
        assert "Press a key for the board." in text and "V to see" not in text, text
        c.send("V")
        await c.wait_words("bob doubles to 2.")
        c.send("V")
        await c.wait_words("bob has not played a turn in this game yet. ? lists the keys. bob doubles to 2.")
        c.close()


async def test_a_note_typed_past_its_length_says_it_is_full(tmp_path):
    """Past 140 characters a note took no more, and nothing but '140/140' said why; then 'Type
    the note.' stayed beside 140/140, and a character refused rang no bell (other fields do)."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 10)) as srv:
        a, b = await alice_starts(srv.port)
        a.send("N")
        await a.wait_for("Note to your")
        a.send("x" * 140)
        await a.wait_for("(140/140;")
        await a.wait_for("The note is full (140 characters).")
        bells = a.data.count(b"\x07")
        a.send("yyy")
        for _ in range(50):  # the paste is still paced in (30 keys a second)
            if a.data.count(b"\x07") > bells:
                break
            await asyncio.sleep(0.1)
        await a.settle(0.5)
        assert a.data.count(b"\x07") == bells + 1, "one ring for the characters refused"
        a.send("\x08")  # backspace: room again, and the help says what to do
        await a.wait_for("Type the note.")
        a.close()
        b.close()


async def test_a_play_being_typed_is_kept_when_the_window_changes_size(tmp_path):
    """M's prompt at 80 columns, then narrowed: the board and the prompt come again for 40, and
    what was typed stays typed."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_moved_and_bob_to_play(srv.port, (80, 24))
        b.send("M")
        await b.wait_for("Your play")
        b.send("24/2")
        await b.wait_for("24/2")
        said = " ".join(" ".join((await narrowed(b))[18:24]).split())
        assert "Your play (like 24/18 13/11), Enter sends, Esc cancels: 24/2" in said, said
        b.send("0 13/10\r")
        # The play sent, the size page comes (the caller had not gone on at 40), then the board.
        await b.wait_words("Enter goes on anyway")
        b.send("\r")
        await b.wait_for("Turn sent")
        a.close()
        b.close()


@pytest.mark.parametrize("cols", [44, 57, 58, 59])
async def test_the_menu_and_the_rankings_keep_whole_figures_and_the_last_column_free(tmp_path, cols):
    """At 58 and 59 columns the rankings' Gammons heading showed over figures cut off (at 59 a 12
    read as 1); at 44 and 57 a menu item ran into the last column, which some terminals wrap at."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.GAMMON)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(cols, 24), glass=(100, 24))
        await menus.login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        await c.settle(0.3)
        assert all(len(line.rstrip()) < cols for line in c.lines()), c.lines()
        c.send("R")
        await c.wait_for("Rank:")
        await c.settle(0.3)
        lines = [line.rstrip() for line in c.lines()]
        assert all(len(line) < cols for line in lines), lines
        alice = next(line for line in lines if "alice" in line)
        head = next(line for line in lines if "Rank" in line and "Player" in line)
        if "Gammons" in head:
            assert alice.endswith(" 1"), lines  # alice's gammon, under its heading
        c.close()


async def to_opponents_handle(c: RawCaller) -> None:
    """From the menu, B)egin with the default length and colour, N)amed: at the opponent's handle."""
    for key, then in (("B", "Match length"), ("\r", "R)andom"), ("\r", "N)amed"), ("N", "Opponent's handle:")):
        c.send(key)
        await c.wait_for(then)


async def test_a_handle_refused_on_begin_says_every_word_at_40_columns(tmp_path):
    """'There is no player called 'nosuchplayerzz'. Type another' - the rest, 'handle, or Enter to
    go back.', fell off the two rows the hint had, with the row under them free."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24), glass=(80, 24))
        await menus.login(c, "alice", "alice-pw", new=True)
        await to_opponents_handle(c)
        c.send("nosuchplayerzz\r")
        await c.wait_words("There is no player called 'nosuchplayerzz'. Type another handle, or Enter to go back.")
        c.send("\r")
        await c.wait_for("Your choice")
        c.close()


async def test_a_long_alias_refused_on_begin_leaves_room_for_every_other_word(tmp_path):
    """A 46-character alias@TAG typed at 40 columns: quoted whole, it pushed 'Enter to go back.'
    off the three rows.  The name is cut, its tag kept."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24), glass=(80, 24))
        await menus.login(c, "alice", "alice-pw", new=True)
        await to_opponents_handle(c)
        c.send("Maximilian_Longname_The_Third_of_Bavaria@ALPHA\r")
        said = " ".join((await c.wait_words("Type another handle, or Enter to go back.")).split())
        assert "There is no player called 'Maxi" in said and "@ALPHA'." in said and ".." in said, said
        c.close()


async def test_the_password_prompts_are_laid_out_again_when_the_window_narrows(tmp_path):
    """Narrowing the window at 'Choose a password:' or 'Password:' cut the title box and the
    question at the new width; what was typed must stay typed."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        await c.wait_for("Handle:")
        c.send("alice\r")
        await c.wait_for("Create it? (Y/N)")
        c.send("Y")
        await c.wait_for("Choose a password:")
        c.send("sec")
        lines = await narrowed(c)
        box = [line for line in lines if "B G D O O R" in line]
        assert box and box[0].endswith("║"), lines  # the whole box, both its sides
        said = " ".join(" ".join(lines).split())
        assert "There is no player called alice. Create it? (Y/N) [N] Yes Choose a password: ***" in said, said
        c.send("ret\r")
        await c.wait_for("Type it again:")
        c.send("secret")
        said = " ".join(" ".join(await narrowed(c, 44)).split())
        assert "Choose a password: ****** Type it again: ******" in said, said
        c.send("\r")
        await c.wait_for("Your choice")
        c.close()
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        await c.wait_for("Handle:")
        c.send("alice\r")
        await c.wait_for("Password:")
        c.send("secr")
        said = " ".join(" ".join(await narrowed(c)).split())
        assert "Handle: alice Password: ****" in said, said
        c.send("et\r")
        await c.wait_for("Your choice")
        c.close()


def test_the_review_s_last_play_of_a_game_is_still_that_game_s_score_and_cube(tmp_path):
    """Reviewing a match, the play that bore off the last checker already showed the new score,
    the next game's Crawford note and no cube: all of that belongs to the 'wins' step after it."""
    url = f"sqlite:///{tmp_path}/g.db"
    rng = random.Random(5)
    with Service(url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(3000)])) as svc:
        ids = {Color.WHITE: svc.register("alice", "alice-pw").id, Color.BLACK: svc.register("bob", "bob-pw").id}
        v = svc.begin_game(ids[Color.WHITE], 3, Color.WHITE, "bob")
        v = svc.roll(ids[Color.WHITE], v.id, v.version)
        while v.state.game == 1:
            st = v.state
            assert st.turn is not None
            player = ids[st.turn]
            if st.phase is rules.Phase.ROLL:
                if st.turn is Color.BLACK and st.cube == 1:
                    v = svc.double(player, v.id, v.version)  # bob doubles once; alice takes
                    v = svc.take(ids[Color.WHITE], v.id, v.version)
                    continue
                v = svc.roll(player, v.id, v.version)
                continue
            plays = legal_plays(st.position, st.dice) if st.dice else []
            # Both run home as fast as they can.
            play = min(plays, key=lambda p: sum(n * (i + 1) for i, n in enumerate(p.position.opponent)), default=None)
            v = svc.submit_turn(player, v.id, v.version, str(play) if play is not None else "")
        shots = frames(svc.game_log(v.id))
    won = next(i for i, f in enumerate(shots) if "wins" in f.text)
    last_play = shots[won - 1]
    assert "played" in last_play.text and "off" in last_play.text, last_play.text
    assert last_play.state.score == (0, 0), last_play.state
    assert last_play.state.cube == 2 and last_play.state.cube_owner is Color.WHITE, last_play.state
    assert sum(last_play.position.opponent) + sum(last_play.position.player) < 30, "the last checker is off"
    assert shots[won].state.score != (0, 0) and shots[won].state.cube == 2, shots[won].state
    assert not shots[won].state.crawford, "the Crawford note is the next game's"


async def test_the_cursor_stops_at_a_narrow_screen_s_edge_and_says_why(tmp_path):
    """At 40 columns, 6 (right) past point 4 took the cursor off the screen, and the board put it
    back on a marked point as though it had wrapped round: points 3 to 1 could never be reached,
    and nothing said so."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_moved_and_bob_to_play(srv.port, (40, 24))
        b.send("2")  # the bottom row, where points 12 to 1 are
        for _ in range(14):
            b.send("6")
        said = " ".join((await b.wait_words("past your screen's edge")).split())
        assert "M)ove typed plays from or to it." in said, said
        # Where it stays, said (Enter then put a checker down on 4, out of the blue).
        assert "Point 3 is past your screen's edge; the cursor stays on 4." in said, said
        lines = b.lines()
        assert any("◄" in line[:40] for line in lines[1:18]) and not any("◄" in line[40:] for line in lines), b.text
        assert all(len(line.rstrip()) <= 40 for line in lines), lines
        a.close()
        b.close()


async def test_a_cursor_key_at_the_board_s_end_says_the_cursor_stays(tmp_path):
    """8 on the top row, or 4 at its left end, did nothing and said nothing (past a narrow
    screen's edge it says where the cursor stays)."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_moved_and_bob_to_play(srv.port, (80, 24))
        b.send("8")  # the cursor starts on the top row
        said = " ".join((await b.wait_words("The cursor is at the end of the board")).split())
        assert "it stays on 13." in said, said
        b.send("\r")  # picked up: the line that says so stays beside the end's
        await b.wait_words("Checker in hand")
        b.send("8")
        said = " ".join((await b.wait_words("The cursor is at the end of the board")).split())
        assert "Checker in hand" in said, said
        a.close()
        b.close()


@pytest.mark.parametrize("size", [(80, 20), (60, 20)])
async def test_a_window_shorter_than_the_board_is_told_what_it_would_lose(tmp_path, size):
    """At 80x20 the board opened without a word, and its messages and help line, below row 20,
    were never seen: the keys that work, what the opponent did."""
    cols, rows = size
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25), glass=(100, 30))
        try:
            await menus.login(c, "alice", "alice-pw", new=True)
            await begin(c, 3)
            c.send_size(cols, rows)
            needs = "80 columns and 23 lines" if cols < 80 else "23 lines"
            said = await c.wait_words(f"The board needs {needs}")
            assert f"Your terminal shows {cols} columns and {rows} lines" in " ".join(said.split()), said
            assert "below them" in " ".join(said.split()) and "taller" in said, said
            lines = [line.rstrip() for line in c.lines()]
            assert all(len(line) <= cols for line in lines) and not any(lines[rows:]), lines
            c.send_size(80, 24)  # tall enough: the board follows at once
            await c.wait_for("W)ithdraw")
        finally:
            c.close()


def before_the_winning_play(svc: Service, match_length: int) -> tuple[dict[Color, int], Any, Any, Any]:
    """alice and bob run home; stopped before the play that wins the game: (ids, view, state, play)."""
    return race_home(svc, match_length, lambda st, plays: p if (p := fastest(plays)) and p.position.opponent_off == 15
                     else None)


async def through_the_news_to_the_board(c: RawCaller) -> None:
    """From the menu at 40 columns: the game opened, on past 'needs 80 columns' and the news pages
    to the board."""
    await menus.open_game(c)
    await c.wait_for("needs 80 columns")
    c.send("\r")
    while "last looked" in await c.wait_until(lambda t: "last looked" in t or "BAR" in t, "news or board"):
        page = c.text
        c.send(" ")
        await c.wait_until(lambda t, page=page: t != page, "the next page")
    await c.settle()


@pytest.mark.parametrize("size", [(80, 25), (40, 24)])
async def test_a_game_won_by_bearing_off_is_told_with_its_play_on_the_board_it_was_won_on(tmp_path, size):
    """Watching live, the loser was told 'alice rolled 6-4.' and then who won: the play that bore
    off the last checkers was never named, and the board already showed the next game's start.
    At 40 columns the play was left out still: with it the result did not fit the message lines."""
    url = f"sqlite:///{tmp_path}/g.db"
    rng = random.Random(5)
    svc = Service(url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(3000)]))
    with svc:
        ids, v, st, play = before_the_winning_play(svc, 3 if size[0] == 80 else 1)  # 1: with ratings
        winner = st.turn
        loser = {Color.WHITE: "alice", Color.BLACK: "bob"}[winner.other]
        async with running_server(url) as srv:
            c = await RawCaller.connect(srv.port, term="xterm", size=size)
            await menus.login(c, loser, f"{loser}-pw", new=False)
            await menus.open_game(c)
            if size[0] < 80:
                await c.wait_for("needs 80 columns")
                c.send("\r")
                # The news pages first; the board's panel (and its 'Score 0') is past 40 columns.
                while "last looked" in await c.wait_until(lambda t: "last looked" in t or "BAR" in t, "news or board"):
                    page = c.text
                    c.send(" ")
                    await c.wait_until(lambda t, page=page: t != page, "the next page")
            else:
                await menus.to_board(c)
            await c.settle()
            v = svc.submit_turn(ids[winner], v.id, v.version, str(play))
            name = {Color.WHITE: "alice", Color.BLACK: "bob"}[winner]
            said = " ".join((await c.wait_words(f"{name} wins a single game")).split())
            assert f"{name} rolled {max(st.dice)}-{min(st.dice)} and played {play}" in said, said
            if size[0] == 80:  # the panel, past 40 columns
                assert "Off 15" in c.text and "won the game" in said, c.text  # the board it was won on
            assert all(len(line.rstrip()) <= size[0] for line in c.lines()), c.lines()
            c.send(" ")
            await c.wait_until(lambda t: "Off 15" not in t and "(Press a key;" not in t, "the next game's board")
            c.close()


def in_sight_at_40(point: int) -> bool:
    return label_cell(point if point else "off")[1] + 3 <= 40


@contextlib.asynccontextmanager
async def alice_holds_at_40(tmp_path, want, seed: int = 7) -> AsyncIterator[tuple[RawCaller, list[int]]]:
    """alice and bob run home until alice's turn has a checker on 4 to 12 whose destinations
    satisfy `want(dests)`; alice, at 40x24, picks it up.  (alice's caller, its destinations)"""
    url = f"sqlite:///{tmp_path}/g.db"
    rng = random.Random(seed)

    def holding(st, plays):
        if st.turn is not Color.WHITE:
            return None
        turn = Turn(st.position, st.dice)
        return next(((s, d) for s in turn.sources() if 4 <= s <= 12 and (d := turn.destinations(s)) and want(d)), None)

    with Service(url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(3000)])) as svc:
        source, dests = race_home(svc, 3, holding)[3]
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        try:
            await menus.login(c, "alice", "alice-pw", new=False)
            await through_the_news_to_the_board(c)
            c.send("2" + "6" * 14)  # the bottom row's last point in sight, 4
            await c.wait_words("past your screen's edge")
            c.send("4" * (source - 4) + "\r")
            yield c, dests
        finally:
            c.close()


async def test_a_checker_picked_up_whose_marks_are_all_past_the_edge_says_where_it_can_go(tmp_path):
    """At 40 columns, a checker on 6 whose only move was to 3 said 'move to a marked point' with no
    mark in sight; only walking the cursor into the edge told of M)ove typed."""
    async with alice_holds_at_40(tmp_path, lambda dests: not any(in_sight_at_40(d) for d in dests)) as (c, dests):
        said = " ".join((await c.wait_words("Checker in hand")).split())
        where = " or ".join("the tray" if d == 0 else f"point {d}" for d in sorted(dests, reverse=True))
        assert f"it can go only to {where}, past the 40 columns your screen shows:" in said, said
        assert "columns your screen shows: M)ove typed plays it." in said, said
        assert "marked point" not in said, said


async def test_a_checker_picked_up_with_some_marks_past_the_edge_names_those(tmp_path):
    """Entering from the bar at 40 columns with 4-1: 21 marked, and 24, past the edge, said nowhere
    ('move to a marked point' as if 21 were all)."""
    async with alice_holds_at_40(
        tmp_path, lambda dests: any(in_sight_at_40(d) for d in dests) and not all(in_sight_at_40(d) for d in dests)
    ) as (c, dests):
        said = " ".join((await c.wait_words("Checker in hand")).split())
        hidden = [d for d in sorted(dests, reverse=True) if not in_sight_at_40(d)]
        where = " or ".join("the tray" if d == 0 else f"point {d}" for d in hidden)
        assert f"move to a marked point, Enter puts it down (or to {where}, past your 40 columns:" in said, said
        assert all(len(line.rstrip()) <= 40 for line in c.lines()), c.lines()


async def test_the_winner_is_told_the_play_that_won(tmp_path):
    """At 40 columns the winner read 'You win a single game, 1 point.' over a board whose tray is
    past the edge: nothing said how; the loser and the watchers were told the play."""
    url = f"sqlite:///{tmp_path}/g.db"
    rng = random.Random(5)
    svc = Service(url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(3000)]))
    with svc:
        ids, v, st, play = before_the_winning_play(svc, 3)
        name = {Color.WHITE: "alice", Color.BLACK: "bob"}[st.turn]
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        try:
            await menus.login(c, name, f"{name}-pw", new=False)
            await through_the_news_to_the_board(c)
            if len(legal_plays(st.position, st.dice)) == 1:
                c.send("\r")  # the only play: on the board already
            else:
                c.send("M")
                await c.wait_for("Your play")
                c.send(f"{play}\r")
            said = " ".join((await c.wait_words("You win a single game")).split())
            dice = f"{max(st.dice)}-{min(st.dice)}"
            assert f"You rolled {dice} and played {play}. You win a single game" in said, said
            assert all(len(line.rstrip()) <= 40 for line in c.lines()), c.lines()
        finally:
            c.close()


async def test_a_wrong_key_at_give_up_says_so_and_asks_again(tmp_path):
    """G, then 7: 'You did not offer to resign', as Esc says, where every other question says the
    key is not an answer and asks again."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_moved_and_bob_to_play(srv.port, (80, 24))
        b.send("G")
        await b.wait_for("Give up")
        b.send("7")
        said = " ".join((await b.wait_words("7 is not an answer.")).split())  # the keys: on the help line
        assert "You did not offer to resign" not in said and "Give up: a single game" in said, said
        b.send("1")
        await b.wait_words("You offer to resign, giving a single game")
        await a.wait_words("bob offers to resign")
        a.close()
        b.close()


async def test_the_give_up_question_cut_at_40_columns_is_whole_on_the_question_mark(tmp_path):
    """At 40 columns a wrong key left the question cut, '(? shows all)', before what a gammon and a
    backgammon cost; and ? was refused as no answer, the cut question said again."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await alice_moved_and_bob_to_play(srv.port, (40, 24))
        b.send("G")
        await b.wait_for("Give up")
        b.send("x")
        await b.wait_words("X is not an answer. Give up: a single game (1 point), a gammon (2 points) or a "
                           "backgammon (3 points)?")  # whole: the keys are on the help line
        assert "? shows all" not in said(b), said(b)
        b.send("\x1b")
        await b.wait_words("You did not offer to resign.")
        # With a note to go, the question is cut: ? shows it whole, and the question stays.
        b.send("N")
        await b.wait_for("Note to your opponent")
        b.send("Well played, a fine game all the same, thank you; the dice were kind to you today, and I "
               "shall want a rematch.\r")
        await b.wait_words("Your note")
        b.send("G")
        await b.wait_for("? shows all")
        b.send("?")
        await b.wait_for("The message in full")
        assert "a backgammon (3 points)?" in said(b), said(b)
        b.send(" ")
        await b.wait_for("1) single")
        b.send("2")
        await b.wait_words("You offer to resign, giving a gammon")
        a.close()
        b.close()


def said(c: RawCaller | Caller) -> str:
    return " ".join(c.text.split())


async def bob_at_alices_play(port: int) -> tuple[RawCaller, RawCaller]:
    """alice_played; bob opens the game, and its board tells him her play."""
    a, b = await alice_played(port, (80, 25))
    b.send("P")
    await b.wait_words("13/11 13/8")
    return a, b


async def test_help_and_the_last_turn_leave_what_the_board_said(tmp_path):
    """? and V)iew only show something, yet coming back from them the board had lost what it
    said: after ? the news of alice's play was gone, and after V it was 'alice played 5-2: ...'
    in its place (at 40 columns, where the message line says whose turn it is, that hid a double
    waiting for its answer)."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 3] * 10)) as srv:
        a, b = await bob_at_alices_play(srv.port)
        b.send("?")
        await b.wait_for("back to the board")
        b.send("q")
        await b.wait_for("P)lay")
        assert "13/11 13/8" in said(b), said(b)
        b.send("V")
        await b.wait_for("Replay: alice")
        b.send("q")
        await b.wait_until(lambda t: "Replay" not in t and "P)lay" in t, "the board again")
        assert "13/11 13/8" in said(b) and "alice played" not in said(b), said(b)
        a.close()
        b.close()


async def test_a_roll_is_told_with_the_higher_die_first(tmp_path):
    """'bob rolled 2-5 and played ...' beside 'bob rolled 5-1': rolls were told in the order the
    dice came up.  Players write the higher die first."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 3, 4] * 10)) as srv:
        a, b = await bob_at_alices_play(srv.port)
        b.send("\r")
        await b.wait_for("You rolled 4-3")
        assert "Your turn 4-3" in said(b), said(b)
        b.send("M")
        await b.wait_for("Your play")
        b.send("24/20 24/21\r")
        await a.wait_words("bob rolled 4-3 and played")
        a.close()
        b.close()


async def test_the_give_up_question_leaves_its_keys_to_the_help_line(tmp_path):
    """'Give up: 1) single game (2 points)  2) gammon (4 points, the match)  3)' ended a line and
    'backgammon' began the next, over a help line that listed the same keys."""
    svc, bob, carol, v = bob_opens(f"sqlite:///{tmp_path}/g.db")
    with svc:
        v = svc.double(carol, v.id, v.version)
        v = svc.take(bob, v.id, v.version)
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        await menus.open_board(c)
        await c.wait_for("G)ive up")
        c.send("G")
        await c.wait_for("Give up: a single game")
        lines = [line.rstrip() for line in c.text.splitlines()]
        assert not any(re.search(r"\b[123]\)$", line) for line in lines), lines
        # At cube 2 in a 3-point match the gammon is the match: a backgammon gives no more.
        assert "1) single 2) gammon Esc: no" in said(c)
        assert "or a gammon (4 points, the match)? A backgammon would give no more." in said(c), said(c)
        c.close()


async def test_d_in_a_1_point_match_says_there_is_no_cube_at_any_moment(tmp_path):
    """D while moving in a 1-point match said 'You can double only before you roll', as if the
    next turn would allow it; before the roll it said, rightly, that the match has no cube."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([5, 2, 6, 5])) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 1, Color.WHITE, "bob")
        svc.roll(alice, v.id, v.version)  # the opening roll: alice starts with 5-2
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c)
        await c.wait_for("Your turn 5-2")
        c.send("D")
        await c.wait_words("The cube is not used in a 1-point match.")
        assert "only before you roll" not in said(c), said(c)
        c.close()


async def bob_holds_his_13_with_4_4(port: int) -> tuple[RawCaller, RawCaller]:
    """bob_at_alices_play with dice 5-2, 4-4: bob rolls 4-4 and picks up a checker on his 13."""
    a, b = await bob_at_alices_play(port)
    b.send("\r")
    await b.wait_for("You rolled 4-4")
    b.send("\r")  # the cursor starts on bob's 13 point
    await b.wait_for("Checker in hand")
    return a, b


@pytest.mark.parametrize(
    "keys, told",
    [
        # At 40 columns, with doubles and one move made, the message said only 'Moved 13/8.':
        # the panel's '3 to play' and the second die were cut off.  (Now 'three 4s': beside
        # 'Your turn 3-3', '2 to play' read as a die.)
        ("2666", "Moved 13/9; three 4s to play."),
        # A checker put down two 4s away was told as its last step alone, 'Moved 9/5; 2 to
        # play.', as if a checker had moved from the 9 point.
        ("26666666", "Moved 13/5; two 4s to play."),
    ],
)
async def test_a_move_of_doubles_says_what_moved_and_what_is_left(tmp_path, keys, told):
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 2, 4, 4] * 10)) as srv:
        a, b = await bob_holds_his_13_with_4_4(srv.port)
        b.send(keys)  # down to the 12 point, then right
        await b.settle(0.2)
        b.send("\r")
        await b.wait_words(told)
        assert "9/5" not in said(b), said(b)
        a.close()
        b.close()


async def test_the_news_pages_turn_back_with_b(tmp_path):
    """On N)ews, B went forward like any other key; a single page said '(page 1 of 1)'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        bob = svc.register("bob", "bob-pw").id
        svc.register("carol", "carol-pw")
        for _ in range(12):
            svc.begin_game(bob, 3, Color.WHITE, "carol")
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 14))
        await menus.login(c, "carol", "carol-pw", new=False)
        await c.wait_for("Your choice")
        c.send("N")
        await c.wait_for("(page 1 of")
        c.send(" ")
        await c.wait_for("(page 2 of")
        assert "B: page back" in said(c), said(c)
        c.send("B")
        await c.wait_for("(page 1 of")
        c.send("q")
        await c.wait_for("Your choice")
        c.send("N")  # what was on page 1 is read now; the rest is news still
        await c.wait_for("News from your games")
        while "(page" in c.text and "Any other key: back to the menu" not in said(c):
            c.send(" ")
            await c.settle(0.3)
        c.send(" ")
        await c.wait_for("Your choice")
        c.send("N")
        await c.wait_words("Nothing new in your games since you last looked.")
        assert "(page" not in c.text, c.text
        c.close()


async def test_a_board_opened_with_no_news_says_how_the_caller_came_to_it(tmp_path):
    """The board opened with an empty message line for the player who began a game with an open
    seat (the panel said only 'Waiting for a player'), and for the player who joined it."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 3)
        await alice.wait_words("Game #1 waits for a player: anyone can join it from V)iew games. "
                               "W)ithdraw takes it back.")
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        await open_game(bob, expect="Join it?")
        bob.send("Y")
        await bob.wait_words("You joined game #1, a 3-point match against alice.")
        await alice.wait_words("bob joined your game.")
        carol = await call(srv.port)
        await login(carol, "carol", "carol-pw", new=True)
        await begin(carol, 8, opponent="alice")
        await carol.wait_words("Game #2 begun: an 8-point match against alice.")
        for c in (alice, bob, carol):
            c.close()


async def test_the_news_read_on_the_menu_is_still_on_the_board(tmp_path):
    """carol read bob's play on N)ews, then opened the game: the board's message line was empty,
    and nothing on it said what bob had done."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, *_ = bob_opens(url)
    svc.close()
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=False)
        c.send("N")
        await c.wait_words("bob starts with 4-2, playing 8/4 6/4")
        c.send("Q")
        await c.wait_for("Your choice")
        c.send("P")
        await c.wait_for("P)lay or Enter: roll")
        await c.wait_words("Opening roll: bob 4, carol 2. bob starts with 4-2, playing 8/4 6/4.")
        c.close()


async def test_a_match_won_past_its_length_lists_its_points_alone(tmp_path):
    """M)atches listed a 1-point match won by a backgammon as '3-0/1', read as a fraction; then
    as '3-0' alone, read as an unlimited session's: the length is said apart."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.BACKGAMMON, length=1)
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:  # and one won by a single game
        alice, bob = svc.login("alice", "alice-pw").id, svc.login("bob", "bob-pw").id
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.resign(bob, view.id, view.version, Win.SINGLE)
        svc.answer_resign(alice, view.id, view.version, True)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("M")
        await c.wait_for("Game:")
        row = next(line for line in c.text.splitlines() if "#1" in line)
        assert " 3-0 (to 1)" in row and "/1" not in row, row
        # The list's other scores in the same words ('1-0/1' beside '3-0 (to 1)' read as two ways).
        other = next(line for line in c.text.splitlines() if "#2" in line)
        assert " 1-0 (to 1)" in other and "/1" not in other, other
        # Its column as wide as it: the date under 'Last change', not pushed out of line.
        head = next(line for line in c.text.splitlines() if "Last change" in line)
        assert re.search(r"\d\d-\d\d \d\d:\d\d", row).start() == head.index("Last change"), (head, row)
        c.close()


async def test_a_wrong_match_length_is_said_until_the_next_answer_with_the_field_empty(tmp_path):
    """A wrong length stayed in its field while a refusal flashed for three seconds, one column
    in from the form's other refusals; then both went, and the question stood bare again."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)
        c.send("B")
        await c.wait_for("Match length")
        c.send("0\r")
        await c.wait_words("0 is not a match length: type a number from 1 to 25, or Enter for 3; "
                           "Esc goes back to the menu.")
        await asyncio.sleep(3.5)  # no longer gone after a while
        assert "0 is not a match length" in said(c)
        rows = c.text.splitlines()
        asked = next(row for row in rows if "Match length" in row)
        assert asked.rstrip().endswith("[3]:"), asked
        refusal = next(row for row in rows if "is not a match length" in row)
        assert refusal.startswith("  0 is"), refusal  # column 3, as W/B/R's refusals
        c.send("\r")
        await c.wait_for("R)andom")
        c.send("X")
        await c.wait_words("X is not an answer: W, B or R")
        assert next(row for row in c.text.splitlines() if "not an answer" in row).startswith("  X is")
        c.close()


async def test_a_turn_in_another_game_is_told_on_a_board_nothing_has_happened_on(tmp_path):
    """Opened and left as it was, a board took every wake for a change to its own game (nothing
    had said what version it was at), read it again, and never told of the turn waiting in
    another game; once told, the notice took the place of 'You rolled 3-1.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        first = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, first.id, first.version)  # alice 3, bob 1: alice starts
        view = svc.submit_turn(alice, view.id, view.version, "8/5 6/5")
        view = svc.roll(bob, view.id, view.version)
        svc.submit_turn(bob, view.id, view.version, "24/21 24/23")
    async with running_server(url, dice=ScriptedDice([3, 1] * 20)) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await asyncio.sleep(1.0)  # the change feed's first look (every unfinished game) is done
        await menus.open_board(c, f"#{first.id}")
        await c.wait_for("P)lay or Enter: roll")
        await c.settle(0.5)
        with Service(url, dice=ScriptedDice([1, 3] * 20)) as svc:
            second = svc.begin_game(bob, 3, Color.WHITE, "alice")
            svc.roll(bob, second.id, second.version)  # white 1, alice 3: alice starts game 2
        # #1 waits for her too: P)lay lists both.
        await c.wait_words(f"Your turn in game #{second.id} too: Q, P)lay, then #{second.id} and Enter.")
        c.send("P")
        await c.wait_words("You rolled 3-1.")
        await c.settle(0.5)
        with Service(url, dice=ScriptedDice([1, 3] * 20)) as svc:
            third = svc.begin_game(bob, 3, Color.WHITE, "alice")
            svc.roll(bob, third.id, third.version)
        await c.wait_words(f"You rolled 3-1. Your turn in game #{third.id} too: Q, P)lay, then #{third.id} and Enter.")
        # Another before a key: one notice for both, the roll kept (two notices had pushed it off,
        # the newest game first).
        await c.settle(0.5)
        with Service(url, dice=ScriptedDice([1, 3] * 20)) as svc:
            fourth = svc.begin_game(bob, 3, Color.WHITE, "alice")
            svc.roll(bob, fourth.id, fourth.version)
        both = f"#{third.id}, #{fourth.id}"
        await c.wait_words(f"You rolled 3-1. Your turn in games {both} too: Q, P)lay, then #{third.id} or #{fourth.id} "
                           "and Enter.")
        # alice plays game 3 in another session: the notice no longer names it.
        with Service(url) as svc:
            v3 = svc.game(third.id)
            svc.submit_turn(alice, third.id, v3.version, "8/5 6/5")
        await c.wait_words(f"You rolled 3-1. Your turn in game #{fourth.id} too: Q, P)lay, then #{fourth.id} "
                           "and Enter.")
        assert "games #" not in " ".join(c.text.split()), c.text
        c.close()


async def test_a_second_notice_of_other_games_keeps_the_play_on_this_board(tmp_path):
    """At 40 columns, bob's play on the board alice sat at was pushed off the lines by the notice
    of other games said again for one more ('Your turn in games #2, #3 too: ...'): what was told
    before gave way, and neither the board nor ? said what bob had played."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        first = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, first.id, first.version)  # alice 3, bob 1: alice starts
        svc.submit_turn(alice, view.id, view.version, "8/5 6/5")
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        await asyncio.sleep(1.0)  # the change feed's first look (every unfinished game) is done
        await through_the_news_to_the_board(c)
        await c.wait_words("bob to play")
        with Service(url, dice=ScriptedDice([1, 3])) as svc:
            second = svc.begin_game(bob, 3, Color.WHITE, "alice")
            svc.roll(bob, second.id, second.version)  # white 1, alice 3: alice starts game 2
        await c.wait_words(f"Your turn in game #{second.id} too")
        with Service(url, dice=ScriptedDice([6, 6])) as svc:
            view = svc.roll(bob, first.id, svc.game(first.id).version)
            svc.submit_turn(bob, first.id, view.version, "24/18(2) 13/7(2)")
        await c.wait_words("bob rolled 6-6 and played 24/18(2) 13/7(2).")
        with Service(url, dice=ScriptedDice([1, 3])) as svc:
            third = svc.begin_game(bob, 3, Color.WHITE, "alice")
            svc.roll(bob, third.id, third.version)
        await c.wait_words(f"Your turn in games #{second.id}, #{third.id} too")
        await c.settle(0.3)
        words = " ".join(c.text.split())
        assert "bob rolled 6-6 and played 24/18(2) 13/7(2)." in words, c.text
        assert "P)lay" in words.split("too", 1)[1], c.text  # still says how to get there
        assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        c.close()


async def test_begins_one_key_questions_keep_the_cursor_where_the_answer_goes(tmp_path):
    """After a refused key at 'Play as W)hite, B)lack or R)andom', the terminal's cursor was left
    at the end of the refusal two rows from the bottom, under an empty screen."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)
        c.send("B")
        await c.wait_for("Match length")
        c.send("\r")
        await c.wait_for("R)andom [R]:")
        c.send("X")
        await c.wait_words("X is not an answer")
        await c.settle(0.3)
        row = next(i for i, line in enumerate(c.screen.display) if "R)andom [R]:" in line)
        col = c.screen.display[row].index("[R]:") + len("[R]: ")
        assert (c.screen.cursor.y, c.screen.cursor.x) == (row, col), (c.screen.cursor.y, c.screen.cursor.x)
        assert not c.screen.cursor.hidden
        c.send("W")
        await c.wait_for("N)amed player [O]:")
        await c.settle(0.3)
        row = next(i for i, line in enumerate(c.screen.display) if "N)amed player [O]:" in line)
        assert c.screen.cursor.y == row and not c.screen.cursor.hidden
        c.close()


async def test_a_checker_on_the_bar_has_the_cursor_and_says_why_nothing_else_moves(tmp_path):
    """Hit, alice rolled: only the bar was marked, yet the cursor sat on her 13 point, and Enter
    there said 'No checker of yours can move from there' over her four checkers."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([6, 3, 6, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)  # alice 6, bob 3
        v = svc.submit_turn(alice, v.id, v.version, "24/18 13/10")
        v = svc.roll(bob, v.id, v.version)  # 6-1
        svc.submit_turn(bob, v.id, v.version, "13/7* 8/7")
    async with running_server(url, dice=ScriptedDice([5, 2] * 10)) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c, "1")
        c.send("P")
        await c.wait_words("You rolled 5-2.")
        await c.settle(0.3)
        assert "BAR◄" in c.text or "◄BAR" in c.text, c.text
        c.send("4")  # off the bar, onto a point
        await c.settle(0.3)
        c.send("\r")
        await c.wait_words("Your checker on the bar must come in first: pick it up from the bar.")
        # The next turn starts the cursor on a checker that can move, not where this one left it.
        c.send("M")
        await c.wait_for("Your play")
        c.send("bar/20 13/11\r")
        await c.wait_for("Turn sent")
        with Service(url, dice=ScriptedDice([6, 6])) as svc:
            v = svc.game(1)
            v = svc.roll(bob, v.id, v.version)
            svc.submit_turn(bob, v.id, v.version, str(legal_plays(v.state.position, v.state.dice)[0]))
        await c.wait_for("P)lay or Enter: roll")
        c.send("P")
        await c.wait_words("You rolled 5-2.")
        await c.settle(0.3)
        c.send("\r")  # where the cursor starts, a checker comes up (it had been on an empty 18)
        await c.wait_for("Checker in hand")
        c.close()


async def test_the_match_id_stays_beside_its_label_at_40_columns(tmp_path):
    """I)D at 40 columns: 'Position ID 4HPiARKD88EBMA  Match ID' over 'cImqAAAAAAAE'."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, *_ = bob_opens(url)
    svc.close()
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        await menus.login(c, "carol", "carol-pw", new=False)
        await c.wait_for("Your choice")
        c.send("P")
        await c.wait_for("The board needs 80 columns")
        c.send("\r")  # on anyway
        await c.wait_for("I)D")
        c.send("I")
        await c.wait_for("Match ID")
        await c.settle(0.3)
        row = next(line for line in c.lines() if "Match ID" in line)
        assert re.search(r"Match ID \S{12}", row), c.lines()
        c.close()


def bot_beats_alice(url: str, bot_name: str) -> None:
    """alice resigns a 1-point match to the computer player `bot_name`: a match played, so both
    are ranked."""
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bot = svc.ensure_bot_player(bot_name).id
        view = svc.begin_game(alice, 1, Color.WHITE, bot_name)
        view = svc.roll(alice, view.id, view.version)
        view = svc.resign(alice, view.id, view.version, Win.SINGLE)
        svc.answer_resign(bot, view.id, view.version, True)


async def test_a_computer_players_page_does_not_say_last_seen_dash(tmp_path):
    """A computer player's page said 'last seen -', as if it had gone: it never logs in."""
    url = f"sqlite:///{tmp_path}/g.db"
    bot_beats_alice(url, "Test Bot")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("R")
        await c.wait_for("Rank:")
        row = next((line for line in c.text.splitlines() if "Bot" in line), None)
        assert row is not None, c.text
        rank = re.search(r"\d+", row)
        assert rank is not None, row
        c.send(rank.group() + "\r")
        await c.wait_for("(computer)")
        text = said(c)
        assert "always ready for a game." in text and "last seen -" not in text, text
        c.close()


async def test_moves_made_before_a_resignation_offer_come_back_when_it_is_refused(tmp_path):
    """alice moved 13/10, then offered to resign: her board went back to the turn's start without
    a word, and after bob's refusal the move was simply gone."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 10)) as srv:
        a, b = await alice_starts(srv.port)
        a.send("\r")  # picks up the checker on 13, where the cursor starts
        await a.wait_for("Checker in hand")
        a.send("266\r")
        await a.wait_words("Moved 13/10")
        a.send("N")
        await a.wait_for("Note to your")
        a.send("Sorry, I have to go soon.\r")
        await a.wait_for("Your note goes with")
        a.send("G")
        await a.wait_for("Give up:")
        a.send("1")
        await a.wait_words("Your moves so far are taken back while it stands. Your note went with it.")
        await menus.open_board(b, "1")
        await b.wait_for("A)ccept")
        b.send("N")
        await a.wait_words("bob refuses the resignation; play goes on. "
                           "Your moves so far are back: 13/10; the 1 to play.")
        assert "Pips 164" in a.text and "? shows all" not in a.text, a.text  # the answered offer gives way
        a.send("\r")  # on with the turn: the 1 is still to play
        await a.wait_for("Checker in hand")
        a.close()
        b.close()


async def test_a_review_of_a_live_game_is_told_when_the_game_goes_on(tmp_path):
    """carol, watching, reviewed the game; bob played meanwhile, and the review stayed at 'Step 4
    of 4' with nothing said until she left it."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, bob, carol, v = bob_opens(url)
    svc.close()
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "dave", "dave-pw", new=True)
        await menus.open_board(c, "1")
        await c.wait_for("Watching this game")
        c.send("R")
        await c.wait_for("Review")
        await c.settle(0.3)
        with Service(url, dice=ScriptedDice([6, 5])) as svc:
            v = svc.roll(carol, v.id, v.version)
            svc.submit_turn(carol, v.id, v.version, "24/13")
        await c.wait_words("The game has gone on: 2 more steps from here")
        with Service(url, dice=ScriptedDice([4, 1])) as svc:
            v = svc.roll(bob, v.id, svc.game(v.id).version)
        # Counted from where the reviewer stands, not since the last notice.
        await c.wait_words("The game has gone on: 3 more steps from here")
        c.send("Q")
        await c.wait_words("carol rolled 6-5 and played 24/13.")
        c.close()


async def test_p_with_no_game_waiting_shows_a_turn_when_it_comes(tmp_path):
    """P said 'No game is waiting for your move. Press any key.' and stayed so while bob began a
    game with alice, which the menu behind it counted at once."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("alice", "alice-pw")
        bob = svc.register("bob", "bob-pw").id
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("P")
        await c.wait_words("No game is waiting for your move. When one comes, it shows here.")
        with Service(url) as svc:
            svc.begin_game(bob, 3, Color.WHITE, "alice")
        await c.wait_words("Your turn came while you waited.")
        with Service(url) as svc:
            svc.begin_game(bob, 5, Color.WHITE, "alice")  # a second, while the list is up
        await c.wait_for("#2")
        assert "Your turn came while you waited." in " ".join(c.text.split()), c.text
        c.send("1\r")
        await c.wait_for("roll for who starts")
        c.close()


async def test_the_ids_shown_mid_turn_say_they_are_the_turns_start(tmp_path):
    """After 13/10, I)D gave the same IDs as before the move, for a board that no longer showed
    that position, without a word."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 10)) as srv:
        a, b = await alice_starts(srv.port)
        a.send("I")
        await a.wait_for("Position ID")
        assert "turn's start" not in a.text
        await alice_moves_13_10(a)
        a.send("I")
        await a.wait_words("(the turn's start)")
        a.close()
        b.close()


async def test_a_password_typed_on_after_a_refused_handle_is_not_read_as_the_next_handle(tmp_path):
    """A handle refused at once (held back by the guard, a computer player's) and the password
    typed straight after it: the password became the next handle, shown in clear ('There is no
    player called MySecret9. Create it?'), and the refusal was gone."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.ensure_bot_player("Computer")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await c.wait_for("Handle:")
        c.send("Computer\rMySecret9\r")
        await c.wait_for("Computer is a computer player and cannot log in.")
        await c.settle(0.5)
        assert "MySecret9" not in c.text, c.text
        assert "Computer is a computer player and cannot log in." in c.text, c.text
        assert "Create it?" not in c.text, c.text
        c.close()


async def test_q_on_the_first_news_page_leaves_unseen_seatings_as_news(tmp_path):
    """bob began ten matches with alice; she read page 1 of N)ews and pressed Q.  The matches on
    the pages she never saw were marked read: the next N said 'Nothing new'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("alice", "alice-pw")
        bob = svc.register("bob", "bob-pw").id
        for _ in range(10):
            svc.begin_game(bob, 1, Color.WHITE, "alice")
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 16))
        await menus.login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        c.send("N")
        await c.wait_for("(page 1 of")
        seen = set(re.findall(r"#(\d+)", c.text))
        c.send("q")
        await c.wait_for("Your choice")
        c.send("N")
        await c.wait_for("News from your games")
        assert "Nothing new" not in said(c), said(c)
        again = set(re.findall(r"#(\d+)", c.text))
        assert again and not again & seen, (seen, again)
        c.close()


async def test_a_shorter_refusal_leaves_nothing_of_a_longer_one(tmp_path):
    """'You cannot play against yourself. Type another handle, or Enter to go back. .': the
    refusal before it had reached column 79, and only columns 3 to 78 were cleared."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)
        await begin(c, None, opponent="nobody_at_all_x")
        await c.wait_words("There is no player called")
        c.send("alice\r")
        await c.wait_words("You cannot play against yourself.")
        row = next(line for line in c.text.splitlines() if "cannot play against yourself" in line)
        assert row.rstrip().endswith("go back."), row
        c.close()


async def test_the_news_page_holds_every_game_not_the_latest_twelve(tmp_path):
    """bob began 15 matches with alice: N)ews listed 12 of them, said nothing of the rest, and
    they showed only at a later visit."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("alice", "alice-pw")
        bob = svc.register("bob", "bob-pw").id
        for _ in range(15):
            svc.begin_game(bob, 1, Color.WHITE, "alice")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("N")
        await c.wait_for("News from your games")
        games: set[str] = set()
        for _ in range(10):
            await c.settle(0.3)
            games |= set(re.findall(r"#(\d+): bob began", c.text))
            if "(page" not in c.text or "B pages back; any other key" in said(c):
                break
            c.send(" ")
        assert games == {str(n) for n in range(1, 16)}, sorted(games, key=int)
        c.close()


async def test_a_computers_name_keeps_a_space_before_its_rating_at_40_columns(tmp_path):
    """'1. Intermediate Bot*1510.0': a computer's 16 letters and its '*' ran into the rating."""
    url = f"sqlite:///{tmp_path}/g.db"
    bot_beats_alice(url, "Intermediate Bot")
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        await menus.login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        c.send("R")
        await c.wait_for("Rank:")
        row = next(line for line in c.lines() if "Intermediate Bot*" in line)
        assert "Intermediate Bot* 1" in row and len(row.rstrip()) <= 40, row
        c.close()


async def test_options_in_ascii_say_the_theme_shows_no_colour(tmp_path):
    """In ASCII T went on offering colour themes, which changed nothing to be seen."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)
        c.send("O")
        await c.wait_for("T changes it")
        assert "no colour" not in c.text
        for charset in ("cp437", "utf8", "ascii"):
            c.send("C")
            await c.wait_for(f"Character set: {charset}")
        await c.wait_words("(T changes it; ASCII shows no colour)")
        c.close()


async def test_an_opening_roll_after_ties_shows_who_starts_at_40_columns(tmp_path):
    """At 40 columns, after two ties, the message read 'Opening roll: bob and alice both rolled 3,
    then both 1; they roll again... (? shows all)': the roll the player was to move with, and
    who starts, only under ?.  The decided roll is told with the ties, in one line."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 3, 1, 1, 6, 1] + [5, 2] * 10)) as srv:
        a = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        await menus.login(a, "alice", "secret1", True)
        b = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        await menus.login(b, "bob", "secret2", True)
        await menus.begin(a, 5, "bob")
        await a.wait_for("needs 80 columns")
        a.send("\r")
        await a.wait_for("roll for who starts")
        a.send("\r")
        said = " ".join((await a.wait_words("You start with 6-1.")).split())
        assert "Opening roll, after ties at 3 and 1: alice 6, bob 1." in said, said
        assert "shows all" not in said, said
        assert all(len(line.rstrip()) <= 40 for line in a.lines()), a.lines()
        a.close()
        b.close()


async def test_a_board_with_its_news_read_says_what_the_opponent_did_last_off_ones_turn_too(tmp_path):
    """A board opened with its news read (on N)ews, or at an earlier look) had a blank message line
    when it was not the player's turn: bob's game where alice had rolled 4-2 and was moving, and a
    match begun by alice before the opening roll.  Only on the player's own turn did it say what
    the opponent did last."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        svc.register("carol", "carol-pw")
        carol = svc.begin_game(alice, 3, Color.WHITE, "carol")  # before the opening roll
        v = a_turn_each(svc, alice, bob)
        v = svc.roll(alice, v.id, v.version)  # 3-1: alice to play it
        svc.mark_read(bob, v.id, 10**6)
        svc.mark_read(svc.login("carol", "carol-pw").id, carol.id, 10**6)
    async with running_server(url) as srv:
        b = await at_board(srv.port, "bob", v.id)
        await b.wait_words("alice rolled 3-1.")
        b.close()
        c = await at_board(srv.port, "carol", carol.id)
        await c.wait_words("alice began this 3-point match.")  # read already
        c.close()


def a_turn_each(svc: Service, alice: int, bob: int, length: int = 3, bob_handle: str = "bob") -> GameView:
    """A 3-point match of alice's (White) with bob: alice starts with 3-1 and plays 8/5 6/5, bob
    rolls 4-2 and plays 8/4 6/4 (dice [3, 1, 4, 2, ...]); alice to roll."""
    v = svc.begin_game(alice, length, Color.WHITE, bob_handle)
    v = svc.roll(alice, v.id, v.version)
    v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
    v = svc.roll(bob, v.id, v.version)
    return svc.submit_turn(bob, v.id, v.version, "8/4 6/4")


def alice_to_roll(url: str) -> tuple[int, int]:
    """alice and bob registered, a_turn_each played (alice to roll): bob's id and the game's."""
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        return bob, a_turn_each(svc, alice, bob).id


def alice_doubled(url: str) -> int:
    """alice_to_roll, and alice doubles instead of rolling: bob to answer.  The game's id."""
    _, game = alice_to_roll(url)
    with Service(url) as svc:
        alice = svc.login("alice", "alice-pw").id
        svc.double(alice, game, svc.game(game, alice).version)
    return game


async def offered_while_typing(port: int, url: str, bob: int, game: int, text: str) -> Caller:
    """alice at her board typing `text` as a note when bob offers to resign a single game."""
    a = await at_board(port, "alice", game)
    a.send("N")
    await a.wait_for("Note to your opponent")
    a.send(text)
    await a.wait_words(f"{text}_")  # the field may wrap it
    with Service(url) as svc:
        svc.resign(bob, game, svc.game(game, bob).version, Win.SINGLE)
    return a


async def at_board(port: int, handle: str, game_id: int) -> Caller:
    """`handle` (password handle-pw) logged in, at the board of game `game_id`."""
    c = await call(port)
    await login(c, handle, f"{handle}-pw", new=False)
    await open_game(c, f"#{game_id}")
    await menus.to_board(c)
    return c


async def test_a_key_refused_after_news_it_has_not_seen_says_the_news_first(tmp_path, monkeypatch):
    """Enter pressed as the opponent's double came: 'Answer the double first: T)ake or X) drop. ?
    lists the keys. bob doubles to 2.', as if told to answer before anyone had offered."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 5, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)  # alice 3, bob 1
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", v.id)
        await a.wait_for("?)help")
        # The change feed quiet: the key, not the feed's wake-up, finds the double.
        monkeypatch.setattr(srv.runtime, "version", lambda game_id: v.version)
        with Service(url) as svc:
            svc.double(bob, v.id, v.version)
        a.send("\r")
        said = " ".join((await a.wait_words("Answer the double first")).split())
        assert "bob doubles to 2. Answer the double first: T)ake or X) drop." in said, said
        a.close()


@pytest.mark.parametrize("elsewhere", ["window", "process", "news page"])
async def test_news_read_elsewhere_leaves_the_menu(tmp_path, elsewhere):
    """alice's menu in one window listed bob's play as news after her board in another window had
    shown it; N)ews then said there was nothing new.  So too with the board on her door node,
    another process (here the service marks it read, as that board does); and with the N)ews page
    up in another window, until that page was left (and not at all if her line dropped there)."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([1, 3, 4, 2])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 5, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)  # alice 1, bob 3: bob starts
        svc.submit_turn(bob, v.id, v.version, "8/5 6/5")
    async with running_server(url) as srv:
        menu = await call(srv.port)
        await login(menu, "alice", "alice-pw", new=False)
        await menu.wait_words("bob starts with 3-1, playing 8/5 6/5.")
        if elsewhere == "window":
            board = await at_board(srv.port, "alice", v.id)
            await board.wait_words("playing 8/5 6/5")
        elif elsewhere == "news page":
            board = await call(srv.port)
            await login(board, "alice", "alice-pw", new=False)
            await board.wait_for("Your choice")
            board.send("N")
            await board.wait_words("playing 8/5 6/5")
        else:
            await menu.settle(0.3)
            with Service(url) as door:
                door.mark_read(alice, v.id, 10**6)
        await menu.wait_until(lambda t: "playing 8/5 6/5" not in " ".join(t.split()), "the news read elsewhere to go")
        if elsewhere == "news page":
            assert "News from your games" in board.text  # still on the page
        if elsewhere != "process":
            board.close()
        menu.close()


async def test_keys_typed_for_the_list_p_skips_do_not_act_on_the_board(tmp_path):
    """P)lay opens the one game waiting without its list; the '1 Enter' a caller typed for the
    list, as when two games wait, reached the board and made the roll."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = a_turn_each(svc, alice, bob)  # alice to roll
        version = v.version
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        a.send("P1\r")
        await menus.to_board(a)
        await a.settle()
        assert "P)lay or Enter: roll" in " ".join(a.text.split()), a.text
        a.close()
    with Service(url) as svc:
        assert svc.game(v.id).version == version, "the typed-ahead Enter rolled"


async def test_back_at_ones_own_opening_roll_the_board_says_it(tmp_path):
    """alice made the opening roll, won it, and left before playing it: coming back, the message
    lines were empty at 80 columns (the panel alone said 'Your turn 3-1')."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)  # alice 3, bob 1
        svc.mark_read(alice, v.id, 10**6)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", v.id)
        await a.wait_words("Opening roll: alice 3, bob 1. You start with 3-1.")
        a.close()


def test_the_menu_s_time_left_is_said_again_when_its_words_change():
    """A door caller at the menu read 'Q)uit, back to the BBS (2 minutes left on this call)' beside
    the warning 'You have less than a minute left': the item was the time when the menu was drawn.
    The menu is woken when the words would change: from 2 minutes to 1 at 90 s, to 'less than a
    minute' at 60 s."""
    from types import SimpleNamespace  # noqa: PLC0415 - this test only

    from bgdoor.term.console import time_words  # noqa: PLC0415 - this test only
    from bgdoor.ui.session import MENU_TIME_LEAD, Session  # noqa: PLC0415 - this test only

    now = time.monotonic() + MENU_TIME_LEAD  # said that early: not redrawn over the console's warning
    for left, words, change in ((150.0, "2 minutes", 90.0), (100.0, "2 minutes", 90.0), (75.0, "1 minute", 60.0),
                                (3600.0, "60 minutes", 3570.0)):
        stub = SimpleNamespace(con=SimpleNamespace(deadline=now + left))
        wait = Session.quit_item_changes(stub)  # type: ignore[arg-type]
        assert time_words(left) == words
        assert wait is not None and abs((left - wait) - change) < 0.2, (left, wait)
        assert time_words(left - wait) != words
    assert Session.quit_item_changes(SimpleNamespace(con=SimpleNamespace(deadline=now + 59))) is None  # type: ignore[arg-type]
    assert Session.quit_item_changes(SimpleNamespace(con=SimpleNamespace(deadline=None))) is None  # type: ignore[arg-type]


async def test_back_at_a_roll_on_a_narrow_screen_the_board_says_it(tmp_path):
    """At 40 columns, back at a turn rolled before leaving: the message said only the opponent's
    play, the panel was past the edge and the second die too; the roll showed nowhere."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = a_turn_each(svc, alice, bob)
        v = svc.roll(alice, v.id, v.version)  # 3-1, then alice left
        svc.mark_read(alice, v.id, 10**6)
    async with running_server(url) as srv:
        a = await call(srv.port, cols=40, rows=24)
        await login(a, "alice", "alice-pw", new=False)
        await open_game(a, f"#{v.id}")
        await a.wait_for("The board needs 80 columns")
        a.send("\r")
        await a.wait_words("bob rolled 4-2 and played 8/4 6/4. Your turn 3-1.")
        a.close()


async def test_an_opening_roll_after_a_tie_is_told_once_with_its_play(tmp_path):
    """alice, on her board, was told bob's joining and the opening roll decided after a tie; once
    bob played it, the roll was told again without the tie, and 'bob joined your game.' was lost."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url) as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 5)
        await alice.wait_words("W)ithdraw takes it back.")
        with Service(url, dice=ScriptedDice([3, 3, 3, 4])) as svc:
            bob = svc.register("bob", "bob-pw").id
            view = svc.join_game(bob, 1)
            view = svc.roll(bob, 1, view.version)  # 3 and 3, then alice 3, bob 4: bob starts
            await alice.wait_words("bob joined your game. Opening roll, after a tie at 3: alice 3, bob 4. "
                                   "bob starts with 4-3.")
            svc.submit_turn(bob, 1, view.version, "13/9 13/10")
        await alice.wait_words("bob joined your game. Opening roll, after a tie at 3: alice 3, bob 4. "
                               "bob starts with 4-3, playing 13/10 13/9.")
        assert alice.text.count("Opening roll") == 1, alice.text
        alice.close()


async def alice_moved_13_10_and_left(port: int) -> tuple[RawCaller, RawCaller]:
    """alice_starts with 3-1, moves 13/10 and goes back to the menu, the turn half played."""
    a, b = await alice_starts(port)
    await alice_moves_13_10(a)
    a.send("Q")
    await a.wait_for("Your choice")
    return a, b


async def test_moves_left_half_played_wait_for_the_answer_to_an_offer_made_since(tmp_path):
    """alice moved 13/10 and went to the menu; bob offered to resign meanwhile.  Back on the
    board, her move was gone without a word, and gone still after she refused the offer."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url, dice=ScriptedDice([3, 1] * 10)) as srv:
        a, b = await alice_moved_13_10_and_left(srv.port)
        with Service(url) as svc:
            bob = svc.login("bob", "secret2").id
            svc.resign(bob, 1, svc.game(1, bob).version, Win.SINGLE)
        for _ in range(2):  # and again after leaving while the offer waits
            a.send("P")
            await a.wait_words("Your moves so far (13/10) come back if the offer is refused.")
            a.send("Q")
            await a.wait_for("Your choice")
        a.send("P")
        await a.wait_for("A)ccept")
        a.send("N")
        await a.wait_words("Your moves so far are back: 13/10; the 1 to play.")
        assert "Pips 164" in a.text, a.text
        a.close()
        b.close()


async def test_moves_on_the_board_wait_for_the_answer_to_an_offer_made_meanwhile(tmp_path):
    """alice had moved 13/10 and was on the board when bob offered to resign: the board went back
    to the turn's start with only the offer to say why, and her refusal did not bring it back."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url, dice=ScriptedDice([3, 1] * 10)) as srv:
        a, b = await alice_starts(srv.port)
        await alice_moves_13_10(a)
        with Service(url) as svc:
            bob = svc.login("bob", "secret2").id
            svc.resign(bob, 1, svc.game(1, bob).version, Win.SINGLE)
        await a.wait_words("Your moves so far (13/10) come back if the offer is refused.")
        a.send("Q")  # and after leaving while the offer waits
        await a.wait_for("Your choice")
        a.send("P")
        await a.wait_words("Your moves so far (13/10) come back if the offer is refused.")
        a.send("N")
        await a.wait_words("Your moves so far are back: 13/10; the 1 to play.")
        assert "Pips 164" in a.text, a.text
        a.close()
        b.close()


async def test_a_turn_played_in_another_session_says_the_moves_here_are_not_kept(tmp_path):
    """alice moved 13/10 here and played her turn from a second window; this board showed the
    other play and bob's answer, and nothing of the move it had made going."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url, dice=ScriptedDice([3, 1] * 10)) as srv:
        a, b = await alice_starts(srv.port)
        await alice_moves_13_10(a)
        with Service(url, dice=ScriptedDice([4, 2])) as svc:
            alice, bob = svc.login("alice", "secret1").id, svc.login("bob", "secret2").id
            view = svc.submit_turn(alice, 1, svc.game(1, alice).version, "8/5 6/5")
            svc.roll(bob, 1, view.version)
        text = " ".join((await a.wait_words("bob rolled 4-2")).split())
        # The play sent is told; the board's own moves (13/10) went with it.
        assert "In another session: Opening roll: alice 3, bob 1. You start with 3-1, playing 8/5 6/5." in text, text
        a.close()
        b.close()


async def test_at_40_columns_the_play_made_elsewhere_gives_way_to_the_answer(tmp_path):
    """At 40 columns alice's turn, played in her other window, then bob's answer: the board kept
    only bob's play, and nothing said that the 13/10 made on it had gone.  Now the play sent is
    told, naming what took the 13/10's place; then it gives way to bob's answer, which had been
    cut to '? shows all' behind it (alice knew her own play)."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 5, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)  # alice 3, bob 1
        svc.save_draft(alice, v.id, v.version, ((13, 10),), None)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        await open_game(c, f"#{v.id}")
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
        await c.wait_words("Your moves so far with 3-1 are as")
        with Service(url, dice=ScriptedDice([4, 2])) as svc:
            v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        await c.wait_words("In another session: Opening roll: alice 3, bob 1. You start with 3-1, playing 8/5 6/5.")
        with Service(url, dice=ScriptedDice([4, 2])) as svc:
            v = svc.roll(bob, v.id, v.version)
            svc.submit_turn(bob, v.id, v.version, "8/4 6/4", note="Too slow, alice, far too slow!")
        text = " ".join((await c.wait_words("bob rolled 4-2 and played 8/4 6/4.")).split())
        assert "In another session" not in text, text
        c.close()


async def test_a_roll_made_in_another_session_is_said_with_its_dice(tmp_path):
    """alice rolled in her other window: this board said 'You played on in another session; the
    board shows the game as it stands.', and at 40 columns the dice are past the screen's edge."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 3, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 5, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)  # alice 3, bob 1
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.roll(bob, v.id, v.version)
        v = svc.submit_turn(bob, v.id, v.version, "8/5 6/5")
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        await open_game(c, f"#{v.id}")
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
        await c.wait_for("P)lay")
        with Service(url, dice=ScriptedDice([4, 2])) as svc:
            svc.roll(alice, v.id, v.version)
        await c.wait_words("In another session, you rolled 4-2.")
        c.close()


async def test_moves_left_half_played_come_back_after_an_offer_refused_since(tmp_path):
    """A resignation offered and refused elsewhere since alice left her move: the turn stands as
    it was, and the move comes back (it had been said to be gone, where the board promised it
    back to a player who saw the offer)."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url, dice=ScriptedDice([3, 1] * 10)) as srv:
        a, b = await alice_moved_13_10_and_left(srv.port)
        with Service(url) as svc:
            alice, bob = svc.login("alice", "secret1").id, svc.login("bob", "secret2").id
            view = svc.resign(bob, 1, svc.game(1, bob).version, Win.SINGLE)
            svc.answer_resign(alice, 1, view.version, False)
        a.send("P")
        await a.wait_words("Your moves so far are back: 13/10; the 1 to play.")
        assert "Pips 164" in a.text, a.text
        a.close()
        b.close()


async def test_what_the_menu_said_stays_when_a_change_elsewhere_redraws_it(tmp_path):
    """'Game #1 is withdrawn.' was gone from the menu within a moment: the withdrawal itself, like
    any change to the player's games, redraws the menu, and the notice was said only once.  It
    stays for that redraw; news that redraws the menu takes it (it had stood beside the prompt
    minutes later, among news of other games).  Why a key did nothing stays until the next key."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url) as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 3)
        await alice.wait_for("W)ithdraw")
        alice.send("W")
        await alice.wait_for("(Y/N)")
        alice.send("Y")
        await alice.wait_for("Game #1 is withdrawn.")
        await alice.settle(1.0)
        assert "Game #1 is withdrawn." in alice.text, alice.text
        alice.send("Z")
        await alice.wait_for("Z is not on the menu.")
        assert "withdrawn" not in alice.text, alice.text  # said until the next key
        with Service(url) as svc:
            bob = svc.register("bob", "bob-pw").id
            svc.begin_game(bob, 3, Color.WHITE, "alice")
        await alice.wait_for("bob began a 3-point match with you")
        assert "Z is not on the menu." in alice.text, alice.text
        with Service(url) as svc:
            bob = svc.login("bob", "bob-pw").id
            svc.begin_game(bob, 5, Color.WHITE, "alice")
        await alice.wait_for("bob began a 5-point match with you")
        assert "Z is not on the menu." in alice.text, alice.text
        alice.close()


async def test_who_says_waiting_for_a_player_beside_an_open_seat(tmp_path):
    """W)ho's online said 'playing game #1' for alice on the board of a game nobody had joined;
    it says she waits for a player there, and 'playing' once bob joins."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=True)
        await begin(a, 3)
        await a.wait_for("W)ithdraw")
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=True)
        c.send("W")
        await c.wait_for("waiting for a player in game #1")
        assert "playing game" not in c.text, c.text
        with Service(url) as svc:
            svc.join_game(svc.register("bob", "bob-pw").id, 1)
        await a.wait_words("bob joined your game.")
        text = c.text
        for _ in range(50):
            if "playing game #1" in text:
                break
            c.send("\r")  # looks again
            await c.settle(0.2)
            text = c.text
        assert "playing game #1" in text and "waiting for a player" not in text, text
        a.close()
        c.close()


async def test_the_last_help_page_does_not_say_any_key_beside_b(tmp_path):
    """The board's ? pages at 40 columns ended 'Any key: back to the board' beside 'B: page
    back': B turned a page back."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 5)) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "alice", "alice-pw", new=True)
        with Service(f"sqlite:///{tmp_path}/g.db") as svc:
            svc.register("bob", "bob-pw")
        await begin(c, 3, opponent="bob")
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
        await c.wait_for("?)help")
        c.send("\r")  # the opening roll: alice starts with 3-1, and the keys for moving take pages
        await c.wait_for("Enter pick")
        c.send("?")
        await c.wait_for("Page 1 of")
        pages = int(re.search(r"Page 1 of (\d+)", c.text).group(1))
        for n in range(2, pages + 1):
            c.send(" ")
            await c.wait_for(f"Page {n} of")
        footer = " ".join(" ".join(line.strip() for line in c.screen.display[-3:]).split())
        assert footer.endswith("B: page back Any other key: back to the board"), footer
        c.send("B")
        await c.wait_for(f"Page {pages - 1} of")
        c.close()


async def test_a_middle_help_page_offers_b(tmp_path):
    """A ? page between the first and the last offered Q and the next page, not the B that
    turns back there (the menu's pages, which page the same way, offer it)."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 5)) as srv:
        c = await call(srv.port, cols=40, rows=20)
        await login(c, "alice", "alice-pw", new=True)
        with Service(f"sqlite:///{tmp_path}/g.db") as svc:
            svc.register("bob", "bob-pw")
        await begin(c, 3, opponent="bob")
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
        await c.wait_for("Game #1 begun")  # 20 rows: the board's message is cut short
        c.send("\r")  # the opening roll: alice starts with 3-1
        await c.wait_until(lambda t: "Game #1 begun" not in t, "the roll")
        c.send("?")
        await c.wait_for("Page 1 of")
        assert int(re.search(r"Page 1 of (\d+)", c.text).group(1)) >= 3, c.text
        c.send(" ")
        await c.wait_for("Page 2 of")
        footer = " ".join(" ".join(line.strip() for line in c.screen.display[-4:]).split())
        assert footer.endswith("B: page back Q: back to the board Any other key: next page"), c.text
        c.send("B")
        await c.wait_for("Page 1 of")
        c.close()


async def test_the_promise_of_an_answer_goes_once_the_answer_comes(tmp_path):
    """'You offer the cube at 2. You will see the answer here. bob takes the double; ...': the
    promise stood beside the answer it promised."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", game)
        a.send("D")
        await a.wait_words("You offer the cube at 2. You will see the answer here.")
        with Service(url) as svc:
            svc.take(bob, game, svc.game(game, bob).version)
        await a.wait_words("You offered the cube at 2. bob takes the double; the cube is at 2.")
        assert "You will see the answer" not in a.text, a.text
        a.close()


@pytest.mark.parametrize("size", [(80, 25), (40, 24)])
async def test_a_third_character_in_the_match_length_says_why_it_was_not_taken(tmp_path, size):
    """'abc' and Enter was answered 'ab is not a match length': the c had gone unsaid."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port, cols=size[0], rows=size[1])
        await login(c, "alice", "alice-pw", new=True)
        c.send("B")
        await c.wait_for("Match length")
        c.send("123")
        await c.wait_words("A match length has at most two digits (1 to 25).")
        assert all(len(line.rstrip()) <= size[0] for line in c.screen.display)
        c.send("\x08")  # taken back with the character
        await c.wait_until(lambda t: "at most two digits" not in t, "the note gone")
        c.send("\x08\x08")
        c.send("5\r")
        await c.wait_for("R)andom")
        c.close()


@pytest.mark.parametrize("bob", ["bob", "Bartholomew_1234"])
async def test_a_note_at_40_columns_leaves_the_roll_said_after_a_cursor_key(tmp_path, bob):
    """At 40 columns, with bob's note on the board, a cursor key took 'You rolled 3-2.' off the
    message line and left the note alone: one die past the edge, nothing said the roll."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 3, 1, 3, 2])) as svc:
        name, note = bob, f"hello from {bob}"
        alice, bob_id = svc.register("alice", "alice-pw").id, svc.register(name, "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, name)
        v = svc.roll(bob_id, v.id, v.version)  # alice 3, bob 1: alice starts with 3-1
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.roll(bob_id, v.id, v.version)
        svc.submit_turn(bob_id, v.id, v.version, "8/5 6/5", note=note)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        try:
            await menus.login(c, "alice", "alice-pw", new=False)
            await through_the_news_to_the_board(c)
            c.send("p")
            roll = re.search(r"You rolled (\d-\d)\.", " ".join((await c.wait_words("You rolled")).split()))
            assert roll is not None, c.text
            c.send("6")  # a step right (4, at the row's end, says the cursor stays)
            said = " ".join((await c.wait_words(f"Your turn {roll[1]}.")).split())
            assert f'{name}\'s note: "{note}".' in said, said
            # The score too, or where it is: with a long name it had been left out without a word.
            assert "Score: alice 0" in said or "? shows all" in said, said
        finally:
            c.close()


async def test_b_egin_takes_a_member_boards_alias_with_its_tag_whole(tmp_path):
    """The opponent's field took 16 characters: 'LongAliasName123B@ADR' was cut to
    'LongAliasName123', the handle of another player of that board, and a game began with them."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        first = svc.enter_from_bbs("ADR", "LongAliasName123A")
        named = svc.enter_from_bbs("ADR", "LongAliasName123B")
        assert (first.handle, named.handle) == ("LongAliasName123", "LongAliasName1~2")
        svc.register("carol", "carol-pw")
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        try:
            await menus.login(c, "carol", "carol-pw", new=False)
            await begin(c, 3, "LongAliasName123B@ADR")
            await c.wait_for("needs 80 columns")
            c.send("\r")
            said = " ".join((await c.wait_words("begun")).split())
            assert "against LongAliasName1~2@ADR." in said, said
        finally:
            c.close()
    with Service(url) as svc:
        assert svc.game(1, named.id).black_id == named.id


async def test_a_drop_that_ends_the_game_says_the_note_went_with_it(tmp_path):
    """bob dropped alice's double with a note: the result said nothing of it, where every other
    answer says 'Your note went with it.' (alice did get it).  Then it said it twice: 'You drop
    the double. Your note: "..." carol wins ... Your note went with it.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2])) as svc:
        alice, bob = svc.register("alice", "alice-pw").id, svc.register("bob", "bob-pw").id
        v = a_turn_each(svc, alice, bob)
        svc.double(alice, v.id, v.version)
    async with running_server(url) as srv:
        c = await call(srv.port)
        try:
            await login(c, "bob", "bob-pw", new=False)
            await menus.open_board(c)
            await c.wait_for("X) drop")
            c.send("N")
            await c.wait_for("Note to your")
            c.send("Too strong for me.\r")
            await c.wait_for("Your note goes with")
            c.send("X")
            await c.wait_for("(Y/N)")
            c.send("Y")
            said = " ".join((await c.wait_words("wins a single game on a drop")).split())
            # Said once, with the drop (it had been said again after the score, 'it' last).
            assert 'You drop the double. Your note: "Too strong for me."' in said, said
            assert "Your note went with it" not in said, said
        finally:
            c.close()


async def test_a_result_come_while_away_stands_on_the_board_it_was_won_on(tmp_path):
    """alice doubled and left; bob dropped.  Back, alice read the result over the next game's
    starting position (Pips 167 each), not the board the game ended on."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2])) as svc:
        alice, bob = svc.register("alice", "alice-pw").id, svc.register("bob", "bob-pw").id
        v = a_turn_each(svc, alice, bob)
        v = svc.double(alice, v.id, v.version)
        svc.drop(bob, v.id, v.version)
    async with running_server(url) as srv:
        c = await call(srv.port)
        try:
            await login(c, "alice", "alice-pw", new=False)
            await menus.open_board(c)
            said = " ".join((await c.wait_words("You win a single game on a drop")).split())
            # alice played 8/5 6/5 and bob 8/4 6/4 in the game that ended.
            assert "Pips 163" in said and "Pips 161" in said and "Pips 167" not in said, c.text
            assert "(Press a key; Q leaves the game.)" in said, said
        finally:
            c.close()


@contextlib.asynccontextmanager
async def alice_opens_her_game_at(tmp_path, size: tuple[int, int]) -> AsyncIterator[RawCaller]:
    """alice, on a terminal of `size` (on a glass of 80x25), opens her match with bob, which she
    won the opening roll of: the caller at the board-size page."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.roll(alice, v.id, v.version)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=size, glass=(80, 25))
        try:
            await menus.login(c, "alice", "alice-pw", new=False)
            await menus.open_game(c)
            yield c
        finally:
            c.close()


async def test_a_typed_play_s_prompt_and_its_full_line_are_whole_at_40_columns(tmp_path):
    """At 40x24, M again after a refused play cut its prompt at 'Enter sends, Esc' (the typed line
    took the fourth row 'cancels:' needed), and a line typed past 40 characters said 'A typed play
    has at most 40 characte~'."""
    async with alice_opens_her_game_at(tmp_path, (40, 24)) as c:
        await c.wait_for("needs 80 columns")
        c.send("\r")
        await c.wait_for("BAR")
        c.send("M")
        await c.wait_for("Your play")
        c.send("24/21 13/8\r")
        await c.wait_words("M brings the line back")
        c.send("M")
        await c.wait_for("13/8")
        await c.settle(0.3)
        shown = " ".join(" ".join(line[:40] for line in c.lines()[:24]).split())
        assert "Your play as typed: Backspace puts it right; Enter sends, Esc cancels: 24/21 13/8" in shown, shown
        for _ in range(8):  # typed anew, the line kept is replaced: 48 characters
            c.send(" 13/10")
            await asyncio.sleep(0.05)
        await c.wait_for("At most 40 characters.")
        assert "characte~" not in c.text
        c.close()


@pytest.mark.parametrize("key", ["G", "N"])
async def test_a_window_made_smaller_during_a_question_brings_the_size_page_after_it(tmp_path, key):
    """At 80x25, G)ive up's choice (or a note being typed), then the window made 50x20, then Esc:
    the question took the new size in, and the size page never came; the board stayed cut, its
    keys below the screen."""
    async with alice_opens_her_game_at(tmp_path, (80, 25)) as c:
        await c.wait_for("BAR")
        await c.settle(0.3)
        c.send(key)
        await c.wait_for("Esc")
        c.send_size(50, 20)
        await c.settle(0.5)
        c.send("\x1b")
        said = " ".join((await c.wait_words("The board needs 80 columns")).split())
        assert "Enter goes on anyway" in said, said


async def test_esc_from_a_note_or_giving_up_with_a_checker_in_hand_says_it_is_still_in_hand(tmp_path):
    """A checker in hand, N, 'hi', Esc said only 'No note changed.'; G, Esc only 'You did not
    offer to resign.': the line that said the checker was in hand had gone (M)ove typed said it)."""
    async with alice_opens_her_game_at(tmp_path, (80, 25)) as c:
        await c.wait_for("BAR")
        await c.settle(0.3)
        c.send("\r")
        await c.wait_words("Checker in hand")
        for keys, words in (("Nhi\x1b", "No note written."), ("Nhi\r", 'Your note goes with what you do next: "hi".'),
                            ("G\x1b", "You did not offer to resign.")):
            c.send(keys[0])
            await c.wait_until(lambda t: "Checker in hand" not in " ".join(t.split()), "the question")
            c.send(keys[1:])
            said = " ".join((await c.wait_words(words)).split())
            assert f"{words} Checker in hand: move to a marked point" in said, said
            assert said.count("Checker in hand") == 1, said  # not said before the words as well


async def test_what_is_typed_on_a_20_line_screen_is_on_the_screen(tmp_path):
    """At 50x20 M)ove typed '24/18 13/' into row 22 and a long note ended on row 21: below the
    screen's bottom, typed blind."""
    async with alice_opens_her_game_at(tmp_path, (50, 20)) as c:
        await c.wait_for("needs 80 columns")
        c.send("\r")
        await c.wait_for("BAR")
        await c.settle(0.3)
        c.send("M")
        await c.wait_for("Your play")
        c.send("24/21 13/")
        await c.wait_for("24/21 13/")
        shown = "\n".join(line[:50] for line in c.lines()[:20])  # the caller's 50x20 of the glass
        assert "24/21 13/" in shown and "Your play" in shown, shown
        assert "EnterO" not in shown, shown  # the board's foot under the prompt is cleared
        for _ in range(6):  # past the line's 40 characters: said over the prompt (only the bell rang)
            c.send(" 13/10")
            await asyncio.sleep(0.05)
        await c.wait_for("A typed play has at most 40")
        assert any("A typed play has at most 40" in line[:50] for line in c.lines()[:20]), c.lines()
        c.send("\x7f")
        await c.wait_until(lambda t: "at most 40" not in t and "Your play" in t, "the prompt back")
        c.send("\x7f" * 40)
        c.send("\x1b")
        await c.wait_words("Typing cancelled.")
        c.send("N")
        await c.wait_for("Note to your")
        note = "This note is long enough to need more than one line on a narrow screen, the end"
        c.send(note)
        await c.wait_for("the end_")
        assert any("the end_" in line for line in c.lines()[:20]), c.lines()
        c.send("\x1b")
        await c.wait_words("No note written.")


async def test_going_on_at_40_columns_still_asks_when_the_window_is_made_short(tmp_path):
    """Enter at 'The board needs 80 columns' covered every cut after it: a window made 20 lines
    tall later lost the message and the keys off its bottom without a word."""
    async with alice_opens_her_game_at(tmp_path, (40, 24)) as c:
        await c.wait_for("needs 80 columns")
        c.send("\r")
        await c.wait_for("BAR")
        c.send_size(40, 20)
        await c.wait_words("The board needs 80 columns and 23 lines")
        assert "only its top 20 lines would show" in " ".join(c.text.split()), c.text
        c.send("\r")
        await c.wait_for("BAR")
        c.send("Q")
        await c.wait_for("Your choice")
        await menus.open_game(c)  # both cuts chosen: not asked again this call
        await c.wait_for("BAR")
        assert "needs 80" not in c.text, c.text



async def test_going_on_at_40x23_still_asks_when_the_window_is_made_18_lines(tmp_path):
    """Enter at 40x23 (the help's last line cut) covered 40x18, where the message and every key
    are below the screen: the board was drawn down to row 18 without a word.  Going on at 40x18
    covers 40x23."""
    async with alice_opens_her_game_at(tmp_path, (40, 23)) as c:
        await c.wait_words("the last line of the keys that work")
        c.send("\r")
        await c.wait_for("BAR")
        c.send_size(40, 18)
        # At 18 lines the page has room to name the size only.
        await c.wait_words("The board needs 80 columns and 23 lines Your terminal shows 40 columns and 18 lines.")
        c.send("\r")
        await c.wait_for("BAR")
        c.send_size(40, 23)
        await c.wait_for("BAR")
        await c.settle(0.5)
        assert "needs 80" not in c.text, c.text


def bob_doubled(url: str) -> tuple[int, int, GameView]:
    """A 3-point match of alice's (White) with bob: alice starts with 3-1 and plays 8/5 6/5, and bob
    doubles.  (alice, bob, the game)"""
    with Service(url, dice=ScriptedDice([3, 1] * 3)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        return alice, bob, svc.double(bob, v.id, v.version)


async def drops(a: RawCaller | Caller) -> None:
    """alice, at her board of bob_doubled, drops: the result held."""
    await a.wait_words("bob doubles to 2.")
    a.send("X")
    await a.wait_for("(Y/N)")
    a.send("Y")
    await a.wait_words("Press a key")


def alice_played_first(url: str) -> tuple[int, int, GameView]:
    """A 3-point match of alice's (White) with bob: alice starts with 3-1 and plays 8/5 6/5; bob to
    roll.  (alice, bob, the game)"""
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        return alice, bob, svc.submit_turn(alice, v.id, v.version, "8/5 6/5")


async def test_a_board_says_when_the_opponent_logs_off_and_comes_on_again(tmp_path):
    """Live, bob hung up on his turn: alice's board went on saying 'alice rolled 3-1 ...' with
    nothing to tell her she now waited for his next visit (only W)ho said he had gone)."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice_played_first(url)
    async with running_server(url, presence_ttl=3.0) as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=False)
        a = await call(srv.port)
        try:
            await login(a, "alice", "alice-pw", new=False)
            await menus.open_board(a)
            await a.settle(1.5)  # the first look at who is on: nothing to say yet
            assert "logged off" not in a.text and "on again" not in a.text, a.text
            bob.close()
            await a.wait_words("bob has logged off; the game waits for their next visit.", 15)
            bob = await call(srv.port)
            await login(bob, "bob", "bob-pw", new=False)
            await a.wait_words("bob is on again.", 15)
            bob.close()  # and gone again: 'bob is on again.' had stayed beside it, no longer so
            said = " ".join((await a.wait_words("bob has logged off", 15)).split())
            assert "on again" not in said, said
        finally:
            a.close()
            bob.close()


async def test_many_other_games_waiting_are_counted_and_turn_sent_stays_at_40_columns(tmp_path):
    """alice, with 30 other games waiting, sent her turn at 40 columns: 'Your turn in games #1,
    #30, #31, ... (? shows all)' filled the lines, 'Turn sent' cut off behind it."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.roll(alice, v.id, v.version)
        others = [svc.begin_game(alice, 3, Color.WHITE, "bob").id for _ in range(5)]  # opening rolls to make
    async with running_server(url) as srv:
        c = await at_40(srv.port, "alice", v.id, "You start with 3-1")
        c.send("M")
        await c.wait_for("Your play")
        c.send("8/5 6/5\r")
        said = " ".join((await c.wait_words("Turn sent: 8/5 6/5.")).split())
        said = " ".join((await c.wait_words(f"Your turn in {len(others)} other games too")).split())
        assert "Turn sent: 8/5 6/5." in said and f"#{others[2]}" not in said, said
        assert max(map(len, c.screen.display)) <= 40
        c.close()


async def alone_at_board(port: int, handle: str) -> Caller:
    """`handle` (password handle-pw) at the board of their first game, past the first look at who
    is on, their opponent not."""
    c = await call(port)
    await login(c, handle, f"{handle}-pw", new=False)
    await menus.open_board(c)
    await c.settle(1.5)
    return c


async def comes_on(port: int, handle: str, board: Caller) -> Caller:
    """`handle` (password handle-pw) logged in, once `board` says they are on."""
    c = await call(port)
    await login(c, handle, f"{handle}-pw", new=False)
    await board.wait_words(f"{handle} is on.", 15)
    return c


async def test_the_opponent_s_play_is_not_followed_by_his_coming_on(tmp_path):
    """'You take. You own the cube at 2. bob is on.', then bob played: 'You take. ... bob rolled
    4-2 and played 8/4 6/4. bob is on.', as if he had come on after playing."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, bob_id, v = alice_played_first(url)
    async with running_server(url, presence_ttl=3.0) as srv:
        a = await alone_at_board(srv.port, "alice")
        bob = None
        try:
            bob = await comes_on(srv.port, "bob", a)
            with Service(url) as svc:
                v = svc.roll(bob_id, v.id, svc.game_version(v.id))
                play = legal_plays(v.state.position, v.state.dice)[0]
                svc.submit_turn(bob_id, v.id, v.version, str(play))
            said = " ".join((await a.wait_words("bob rolled")).split())
            await a.settle(0.3)
            said = " ".join(a.text.split())
            assert "bob is on" not in said[said.index("bob rolled"):], said
        finally:
            a.close()
            if bob is not None:
                bob.close()


async def test_the_opening_roll_and_play_of_one_come_on_again_are_not_followed_by_it(tmp_path):
    """'Opening roll: alice 3, bob 1. alice starts with 3-1, playing 8/5 6/5. alice is on again.'
    read as if she had come on after playing: the act was not at the start of the line."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
    async with running_server(url, presence_ttl=3.0, dice=ScriptedDice([3, 1] * 5)) as srv:
        b = await alone_at_board(srv.port, "bob")
        a = None
        try:
            a = await comes_on(srv.port, "alice", b)
            with Service(url, dice=ScriptedDice([3, 1])) as svc:
                v = svc.roll(alice, v.id, svc.game_version(v.id))
                svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
            await b.wait_words("alice starts with 3-1, playing 8/5 6/5.")
            await b.settle(0.3)
            said = " ".join(b.text.split())
            assert "alice is on" not in said[said.index("Opening roll"):], said
        finally:
            b.close()
            if a is not None:
                a.close()


async def test_a_refusal_does_not_stay_before_the_answer_when_a_coming_came_between(tmp_path):
    """alice doubled, pressed P ('Your double is waiting for your opponent's answer.'), bob came
    on and took: 'Your double is waiting ... bob takes the double; the cube is at 2.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob_id = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.roll(bob_id, v.id, v.version)
        v = svc.submit_turn(bob_id, v.id, v.version, "8/4 6/4")
    async with running_server(url, presence_ttl=3.0) as srv:
        a = await alone_at_board(srv.port, "alice")
        bob = None
        try:
            a.send("D")
            await a.wait_words("You offer the cube at 2.")
            a.send("P")
            await a.wait_words("Your double is waiting for your opponent's answer.")
            bob = await comes_on(srv.port, "bob", a)
            with Service(url) as svc:
                svc.take(bob_id, v.id, svc.game_version(v.id))
            said = " ".join((await a.wait_words("bob takes the double; the cube is at 2.")).split())
            assert "is waiting" not in said, said
        finally:
            a.close()
            if bob is not None:
                bob.close()


async def test_a_key_refused_after_ones_own_double_says_the_double_waits(tmp_path):
    """alice doubled, then Z: 'Z does nothing here. ? lists the keys.' took the place of 'You offer
    the cube at 2. You will see the answer here.', and only the panel said an answer was awaited."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob_id = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.roll(bob_id, v.id, v.version)
        v = svc.submit_turn(bob_id, v.id, v.version, "8/4 6/4")
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        await menus.open_board(a)
        a.send("D")
        await a.wait_words("You offer the cube at 2.")
        a.send("Z")
        said = " ".join((await a.wait_words("Z does nothing here.")).split())
        assert "Z does nothing here. Your double is waiting for your opponent's answer. ? lists the keys." in said, said
        a.close()


async def test_an_opening_roll_and_its_play_after_a_result_are_not_a_page_of_two(tmp_path):
    """A result held; the opponent won the next opening roll, then played it.  The key that let the
    result go showed 'Since you last looked:' with '- Opening roll: ... bob starts with 6-2.' over
    '- Opening roll: ... bob starts with 6-2, playing 24/18 13/11.': one roll read as two, and all
    of it said already beside the result."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, bob, v = bob_doubled(url)
    async with running_server(url) as srv:
        a = await call(srv.port)
        try:
            await login(a, "alice", "alice-pw", new=False)
            await menus.open_board(a)
            await drops(a)
            with Service(url, dice=ScriptedDice([2, 6])) as svc:
                v = svc.roll(bob, v.id, svc.game_version(v.id))  # the next game's opening: bob 6, alice 2
                await a.wait_words("bob starts with 6-2.")
                svc.submit_turn(bob, v.id, v.version, "24/18 13/11")
            await a.wait_words("playing 24/18 13/11")
            a.send(" ")
            await a.settle(0.5)
            said = " ".join(a.text.split())
            assert "Since you last looked" not in said, said
            assert "BAR" in said and said.count("Opening roll") == 1, said
        finally:
            a.close()


async def test_an_offer_after_a_held_result_says_it_is_of_the_next_game(tmp_path):
    """A result held; the opponent won the next opening roll and offered to resign at once: beside
    the result the line read '... Score: alice 0, bob 1. bob offers to resign, giving a gammon', as
    if of the game just won."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, bob, v = bob_doubled(url)
    async with running_server(url) as srv:
        a = await call(srv.port)
        try:
            await login(a, "alice", "alice-pw", new=False)
            await menus.open_board(a)
            await drops(a)
            with Service(url, dice=ScriptedDice([2, 6])) as svc:
                v = svc.roll(bob, v.id, svc.game_version(v.id))  # game 2's opening: bob 6, alice 2
                await a.wait_words("bob starts with 6-2.")
                svc.resign(bob, v.id, v.version, Win.GAMMON)
            said = " ".join((await a.wait_words("offers to resign")).split())
            assert "Game 2: bob offers to resign" in said, said
        finally:
            a.close()


async def test_a_game_withdrawn_while_a_result_is_held_is_no_longer_named_beside_it(tmp_path):
    """bob held the result of game #1; alice began game #2 with him ('Your turn in game #2 too')
    and withdrew it: the notice stayed beside the result, and after the key on the board too."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        svc.resign(alice, v.id, v.version, Win.SINGLE)
    async with running_server(url) as srv:
        b = await at_board(srv.port, "bob", v.id)
        try:
            await b.wait_for("A)ccept")
            b.send("A")
            await b.wait_for("(Y/N)")
            b.send("Y")
            await b.wait_words("Press a key")
            await b.settle(0.5)
            with Service(url) as svc:
                other = svc.begin_game(alice, 1, Color.WHITE, "bob").id
                await b.wait_words(f"game #{other} too")
                svc.withdraw_game(alice, other)
            await b.wait_until(lambda t: f"#{other}" not in t, "the notice gone")
            b.send(" ")
            await b.wait_words("Game 2 of the match.")
            await b.settle(0.3)
            assert f"#{other}" not in b.text, b.text
        finally:
            b.close()


async def test_at_40x23_the_size_page_says_the_last_line_of_keys_is_cut(tmp_path):
    """At 40x23 the page spoke of the columns alone, and the board then lost its last line of
    keys, ?)help and Q)uit among them, without a word (narrower than 80 the help takes a 24th)."""
    async with alice_opens_her_game_at(tmp_path, (40, 23)) as c:
        said = " ".join((await c.wait_words("The board needs 80 columns")).split())
        assert "the last line of the keys that work (?)help and Q)uit among them) is below them" in said, said


async def test_going_on_at_60_columns_still_asks_when_the_window_is_made_40(tmp_path):
    """Enter at 60 columns (the panel cut off) covered 40 columns too, where points 22-24 and a
    die go past the edge: the board was drawn narrower without a word."""
    async with alice_opens_her_game_at(tmp_path, (60, 24)) as c:
        await c.wait_words("the right-hand side of the board")
        c.send("\r")
        await c.wait_for("BAR")
        c.send_size(40, 24)
        said = " ".join((await c.wait_words("The board needs 80 columns")).split())
        assert "only the left 40 of the board's 80 columns would show" in said, said


async def test_a_note_kept_at_40_columns_leaves_the_roll_said(tmp_path):
    """At 40 columns, right after N and Enter, the line said only the note: the panel and one die
    are past the edge, and the roll was said nowhere until the next key."""
    async with alice_opens_her_game_at(tmp_path, (40, 24)) as c:
        await c.wait_for("needs 80 columns")
        c.send("\r")
        await c.wait_for("BAR")
        c.send("N")
        await c.wait_for("Note to your opponent")
        c.send("Hello bob, good luck in this one!\r")
        said = " ".join((await c.wait_words("Your note goes with what you do next:")).split())
        assert "Your turn 3-1. Your note goes with what you do next:" in said, said
        assert all(len(line.rstrip()) <= 40 for line in c.lines()), c.text
        c.send("N")
        await c.wait_for("Note to your opponent")
        c.send("\x1b")
        said = " ".join((await c.wait_words("No note changed.")).split())
        assert "Your turn 3-1. No note changed." in said, said


async def test_the_news_page_footer_says_its_keys_as_the_instructions_do(tmp_path):
    """N)ews said 'Press a key for more; B pages back; Q goes back.' where I)nstructions and the ?
    pages, which page the same way, say 'B: page back  Q: menu  Any other key: next page'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 24)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        for _ in range(24):  # three pages at 40x24
            a_turn_each(svc, alice, bob)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        await menus.login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        c.send("N")
        await c.wait_for("News from your games")
        for footer in ("Q: menu Any other key: next page", "B: page back Q: menu Any other key: next page"):
            said = " ".join((await c.wait_words(footer)).split())
            assert "Press a key for more" not in said, said
            assert any("Any other key: next page" in line for line in c.lines()), c.text  # whole on a row
            assert all(len(line.rstrip()) <= 39 for line in c.lines()), c.text
            c.send("x")
        while "back to the menu" not in " ".join(c.text.split()):
            await c.settle(0.3)
            c.send("x")
        await c.wait_words("B: page back Any other key: back to the menu")
        c.send("x")
        await c.wait_for("Your choice")
        c.close()


async def test_a_match_nobody_has_rolled_in_says_so_to_the_player_who_began_it(tmp_path):
    """alice began a 3-point match naming carol and opened it again later: the message lines were
    blank over 'P)lay or Enter: roll for who starts' (carol's board said 'alice began a 3-point
    match with you.')."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("carol", "carol-pw")
        view = svc.begin_game(alice, 3, Color.WHITE, "carol")
    async with running_server(url) as srv:
        for who, says in (("alice", ["Your 3-point match with carol: nobody has rolled yet."] * 2),
                          # Read at the first look: after it, said as it is for one who joined.
                          ("carol", ["alice began a 3-point match with you.", "alice began this 3-point match."])):
            for said in says:  # the second look too
                c = await RawCaller.connect(srv.port, term="xterm", size=(80, 24))
                try:
                    await menus.login(c, who, f"{who}-pw", new=False)
                    await menus.open_game(c, f"#{view.id}")
                    await c.wait_words("roll for who starts")
                    await c.wait_words(said)
                finally:
                    c.close()


async def test_an_opening_roll_won_in_another_game_is_told_on_the_board(tmp_path):
    """alice sat at game #1's board while carol rolled the opening of game #2 and lost it: alice
    now had a roll to play there, and her board said nothing (a game waiting for either player's
    opening roll counted as waiting for her already)."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        carol = svc.register("carol", "carol-pw").id
        first = svc.begin_game(alice, 3, Color.WHITE, "carol")
        second = svc.begin_game(carol, 3, Color.WHITE, "alice")  # carol is White there
    async with running_server(url) as srv:
        c = await call(srv.port)
        try:
            await login(c, "alice", "alice-pw", new=False)
            await asyncio.sleep(1.0)  # the change feed's first look (every unfinished game) is done
            await menus.open_board(c, f"#{first.id}")
            await c.wait_for("roll for who starts")
            await c.settle(0.5)
            assert "Your turn in game" not in c.text
            with Service(url, dice=ScriptedDice([1, 4])) as svc:
                svc.roll(carol, second.id, second.version)  # carol 1, alice 4: alice starts there
            await c.wait_words(f"Your turn in game #{second.id} too")
        finally:
            c.close()


LONG_NOTE = "Nice opening. Let us see how the rest of this long match goes; I am not worried yet at all."


async def test_a_notice_of_another_game_is_not_put_behind_a_cut_note(tmp_path):
    """At 40 columns bob's play with a long note filled the lines, cut with '(? shows all)', and
    'Your turn in game #2 too' went after the note, behind the cut: only ? showed it."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, bob, carol, _ = bob_opens(url, LONG_NOTE)
    svc.close()
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        try:
            await login(c, "carol", "carol-pw", new=False)
            await asyncio.sleep(1.0)  # the change feed's first look (every unfinished game) is done
            await through_the_news_to_the_board(c)
            await c.wait_words("(? shows all)")
            with Service(url, dice=ScriptedDice([1, 3])) as svc:
                second = svc.begin_game(bob, 3, Color.WHITE, "carol")
                svc.roll(bob, second.id, second.version)  # bob 1, carol 3: carol starts game 2
            said = " ".join((await c.wait_words(f"Your turn in game #{second.id} too: Q, P)lay.")).split())
            assert "bob rolled 4-2 and played 8/4 6/4" in said or "bob starts with 4-2" in said, said
            assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        finally:
            c.close()


async def test_a_roll_left_unplayed_is_said_first_where_a_long_note_fills_the_lines(tmp_path):
    """carol rolled after bob's play with a long note, went to the menu and came back: at 40
    columns the lines said bob's play and note, cut with '(? shows all)', and 'Your turn 5-1.'
    behind the cut, with one die past the edge: the roll showed nowhere."""
    url = f"sqlite:///{tmp_path}/g.db"
    svc, *_ = bob_opens(url, LONG_NOTE)
    svc.close()
    async with running_server(url, dice=ScriptedDice([5, 1] * 5)) as srv:
        c = await call(srv.port, cols=40, rows=24)
        try:
            await login(c, "carol", "carol-pw", new=False)
            await through_the_news_to_the_board(c)
            c.send("\r")
            await c.wait_words("5-1")
            c.send("Q")
            await c.wait_for("Your choice")
            await menus.open_game(c)
            await c.wait_for("BAR")
            await c.settle(0.5)
            said = " ".join(c.text.split())
            assert "Your turn 5-1." in said.split("(? shows all)")[0], said
            assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        finally:
            c.close()


async def test_esc_after_a_play_typed_says_the_typing_was_cancelled(tmp_path):
    """M, '13/8', Esc: 'No play typed.', of a play typed and then cancelled."""
    async with alice_opens_her_game_at(tmp_path, (80, 25)) as c:
        await c.wait_for("M)ove typed")
        c.send("M")
        await c.wait_for("Your play")
        c.send("13/10\x1b")
        said = " ".join((await c.wait_words("Typing cancelled.")).split())
        assert "No play typed" not in said, said
        c.send("M")
        await c.wait_for("Your play")
        c.send("\r")
        await c.wait_words("No play typed.")


async def test_a_logoff_over_a_held_result_is_told_once_the_result_goes(tmp_path):
    """bob logged off while alice's board held game 1's result: never told, and 'bob is on again.'
    came later without it, in place of 'Game 2 of the match. Score: ...'."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, bob, v = alice_played_first(url)
    async with running_server(url, presence_ttl=3.0) as srv:
        b = await call(srv.port)
        await login(b, "bob", "bob-pw", new=False)
        a = await call(srv.port)
        try:
            await login(a, "alice", "alice-pw", new=False)
            await menus.open_board(a)
            await a.settle(1.5)  # the first look at who is on
            with Service(url) as svc:
                svc.resign(bob, v.id, svc.game(v.id).version, Win.SINGLE)
            await a.wait_words("bob offers to resign")
            a.send("A")
            await a.wait_for("Y/N")
            a.send("Y")
            await a.wait_words("Press a key")
            b.close()
            await asyncio.sleep(6.0)  # bob's row expires and the board looks: the result stays
            assert "logged off" not in a.text, a.text
            a.send(" ")
            said = " ".join((await a.wait_words("bob has logged off")).split())
            assert "Game 2 of the match" in said, said
            b = await call(srv.port)
            await login(b, "bob", "bob-pw", new=False)
            said = " ".join((await a.wait_words("bob is on again.")).split())
            assert "Game 2 of the match" in said, said  # kept before it, not replaced
        finally:
            a.close()
            b.close()


async def test_an_opponent_coming_on_or_going_in_this_process_is_told_at_once(tmp_path):
    """Who is on was looked at every presence_ttl/3 (ten seconds by default): 'bob is on.' came
    that late though bob called the same server.  A caller of this process coming or going is
    looked at within a second or two; the minute's TTL here had made it twenty."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice_played_first(url)
    async with running_server(url, presence_ttl=60.0) as srv:
        a = await call(srv.port)
        b = None
        try:
            await login(a, "alice", "alice-pw", new=False)
            await menus.open_board(a)
            await a.settle(1.5)  # the first look at who is on: bob is not
            b = await call(srv.port)
            await login(b, "bob", "bob-pw", new=False)
            await a.wait_words("bob is on.", 6)
            b.close()
            b = None
            await a.wait_words("bob has logged off", 6)
        finally:
            a.close()
            if b is not None:
                b.close()


async def alice_at_40_columns_with(port: int, handle: str, password: str, game: str = "1") -> tuple[Caller, Caller]:
    """The opponent (`handle`) logged in first, then alice at 40x24 opening `game` past the size
    page, for the board to see them on at its first look.  (alice, the opponent)"""
    other = await call(port)
    await login(other, handle, password, new=False)
    a = await call(port, cols=40, rows=24)
    await login(a, "alice", "alice-pw", new=False)
    await menus.open_game(a, game, expect="Enter goes on anyway")
    a.send("\r")
    return a, other


async def test_at_40_columns_a_logoff_does_not_push_the_opponents_play_off(tmp_path):
    """At 40 columns 'bartholomew_x has logged off; they will see your play at their next
    visit.' took the place of his play on the lines (and on the ? page): where both do not fit,
    the shorter 'bartholomew_x has logged off.' goes beside it."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 6, 4] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bart = svc.register("bartholomew_x", "bart-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bartholomew_x")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.roll(bart, v.id, v.version)
        svc.submit_turn(bart, v.id, v.version, "24/14")
    async with running_server(url, presence_ttl=3.0) as srv:
        a, bob = await alice_at_40_columns_with(srv.port, "bartholomew_x", "bart-pw")
        try:
            await a.wait_words("bartholomew_x rolled 6-4 and played 24/14.")
            await a.settle(1.5)  # the first look at who is on: he is
            bob.close()
            said = " ".join((await a.wait_words("bartholomew_x has logged off", 15)).split())
            assert "bartholomew_x rolled 6-4 and played 24/14. bartholomew_x has logged off." in said, said
            assert all(len(line.rstrip()) <= 40 for line in a.screen.display)
        finally:
            a.close()
            bob.close()


async def test_a_resignation_offered_then_a_hang_up_waits_for_an_answer_not_a_play(tmp_path):
    """bob offered to resign and hung up: alice's board said 'they will see your play at their
    next visit', where what waits is her answer; and the ? page's heading at 40 columns lost
    'you):' ('Keys now (a resignation offered to')."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, bob_id, v = alice_played_first(url)
    with Service(url) as svc:
        svc.resign(bob_id, v.id, v.version)
    async with running_server(url, presence_ttl=3.0) as srv:
        a, bob = await alice_at_40_columns_with(srv.port, "bob", "bob-pw")
        try:
            await a.wait_words("A)ccept")
            await a.settle(1.5)  # the first look at who is on: bob is
            bob.close()
            said = " ".join((await a.wait_words("bob has logged off", 15)).split())
            assert "your play" not in said, said
            assert "they will see your answer" in said or "bob has logged off." in said, said
            a.send("?")
            await a.wait_words("Keys (a resignation offered to you):")
        finally:
            a.close()
            bob.close()


def bob_played_back(url: str) -> tuple[int, int, int]:
    """alice_played_first, then bob rolls 6-4 and plays 24/14: alice to roll.  (alice, bob, game)"""
    alice, bob, v = alice_played_first(url)
    with Service(url, dice=ScriptedDice([6, 4] * 10)) as svc:
        v = svc.roll(bob, v.id, v.version)
        svc.submit_turn(bob, v.id, v.version, "24/14")
    return alice, bob, v.id


async def test_a_logoff_and_a_notice_of_another_game_leave_the_opponents_play_at_40(tmp_path):
    """At 40 columns, 'Your turn in game #2 too' then bob hanging up: the lines said the notice
    and 'bob has logged off.', and bob's play was gone from them."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, _, _ = bob_played_back(url)
    with Service(url, dice=ScriptedDice([6, 1] * 10)) as svc:
        carol = svc.register("carol", "carol-pw").id
        other = svc.begin_game(carol, 3, Color.WHITE, "alice")
    async with running_server(url, presence_ttl=3.0) as srv:
        a, bob = await alice_at_40_columns_with(srv.port, "bob", "bob-pw", "#1")
        try:
            await a.wait_words("bob rolled 6-4 and played 24/14.")
            await a.settle(1.5)  # the first look at who is on: bob is
            with Service(url, dice=ScriptedDice([6, 1] * 10)) as svc:
                v = svc.roll(carol, other.id, other.version)
                assert v.state.turn is Color.WHITE, v.state  # carol won the opening roll
                svc.submit_turn(carol, v.id, v.version, "13/7 8/7")
            await a.wait_words(f"Your turn in game #{other.id} too")
            bob.close()
            said = " ".join((await a.wait_words("bob has logged off", 15)).split())
            assert "bob rolled 6-4 and played 24/14." in said and f"game #{other.id}" in said, said
            assert all(len(line.rstrip()) <= 40 for line in a.screen.display)
        finally:
            a.close()
            bob.close()


async def test_a_logoff_told_just_before_a_notice_of_another_game_stays_told_at_40(tmp_path):
    """bob hung up, then carol's game came to wait for alice: the notice took the logoff's place
    and alice was never told bob had gone (then 'bob is on again.' of a player not said gone)."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_played_back(url)
    with Service(url) as svc:
        carol = svc.register("carol", "carol-pw").id
        other = svc.begin_game(carol, 3, Color.WHITE, "alice")
    async with running_server(url, presence_ttl=3.0) as srv:
        a, bob = await alice_at_40_columns_with(srv.port, "bob", "bob-pw", "#1")
        try:
            await a.wait_words("bob rolled 6-4 and played 24/14.")
            await a.settle(1.5)
            bob.close()
            await a.wait_words("bob has logged off", 15)
            with Service(url, dice=ScriptedDice([6, 1] * 10)) as svc:
                v = svc.roll(carol, other.id, other.version)
                svc.submit_turn(carol, v.id, v.version, "13/7 8/7")
            said = " ".join((await a.wait_words(f"Your turn in game #{other.id} too")).split())
            assert "bob has logged off" in said and "bob rolled 6-4 and played 24/14." in said, said
            assert all(len(line.rstrip()) <= 40 for line in a.screen.display)
        finally:
            a.close()
            bob.close()


async def test_a_watcher_keeps_the_play_and_the_score_as_players_come_and_go(tmp_path):
    """dave watching at 60 columns: bob hanging up took 'alice to play. Score: ...' from the
    lines, and then alice going took bob's play too, leaving 'bob is on again. alice has logged
    off; ...' alone."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_played_back(url)
    with Service(url) as svc:
        svc.register("dave", "dave-pw")
    async with running_server(url, presence_ttl=3.0) as srv:
        a, b = await call(srv.port), await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        await login(b, "bob", "bob-pw", new=False)
        d = await call(srv.port, cols=60, rows=24)
        try:
            await login(d, "dave", "dave-pw", new=False)
            await menus.open_game(d, expect="Enter goes on anyway")
            d.send("\r")
            await d.wait_words("alice to play")
            await d.settle(1.5)
            b.close()
            said = " ".join((await d.wait_words("bob has logged off", 15)).split())
            assert "bob rolled 6-4 and played 24/14." in said and "alice to play" in said, said
            b = await call(srv.port)
            await login(b, "bob", "bob-pw", new=False)
            said = " ".join((await d.wait_words("bob is on again.", 15)).split())
            assert "played 24/14." in said and "logged off" not in said, said
            a.close()
            said = " ".join((await d.wait_words("alice has logged off", 15)).split())
            assert "bob rolled 6-4 and played 24/14." in said, said
            assert all(len(line.rstrip()) <= 60 for line in d.screen.display)
        finally:
            for c in (a, b, d):
                c.close()


async def test_an_opponent_who_was_never_seen_go_is_on_not_on_again(tmp_path):
    """bob, off when alice opened the board, logged in: 'bob is on again.', of a player the board
    had never seen go (the bench's joiners were told so ten seconds after joining)."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice_played_first(url)
    async with running_server(url, presence_ttl=3.0) as srv:
        a = await call(srv.port)
        b = None
        try:
            await login(a, "alice", "alice-pw", new=False)
            await menus.open_board(a)
            await a.settle(1.5)  # the first look at who is on: bob is not
            b = await call(srv.port)
            await login(b, "bob", "bob-pw", new=False)
            said = " ".join((await a.wait_words("bob is on.", 15)).split())
            assert "on again" not in said and "logged off" not in said, said
        finally:
            a.close()
            if b is not None:
                b.close()


async def test_esc_from_typing_with_a_checker_in_hand_says_it_is_still_in_hand(tmp_path):
    """Enter on 13, M, '13/9 9/8', Esc: 'Your turn 4-1. Typing cancelled.', with the checker still
    in hand and only U)ndo in the help to show it."""
    for size in ((80, 25), (40, 24)):
        folder = tmp_path / f"{size[0]}"
        folder.mkdir()
        async with alice_opens_her_game_at(folder, size) as c:
            if size[0] < 80:
                await c.wait_for("needs 80 columns")
                c.send("\r")
            await c.wait_for("BAR")
            await c.settle(0.3)
            c.send("\r")  # the cursor starts on a checker that can move: picked up
            await c.wait_words("Checker in hand")
            c.send("M")
            await c.wait_for("Your play")
            c.send("13/9 9/8\x1b")
            said = " ".join((await c.wait_words("Typing cancelled.")).split())
            assert "Typing cancelled. Checker in hand:" in said, said
            c.send("\r")  # and Enter puts it down, as the line says
            await c.wait_until(lambda t: "Checker in hand" not in " ".join(t.split()), "the checker put down")


async def test_a_full_note_with_no_spaces_keeps_its_end_in_sight(tmp_path):
    """At 40x24 a 140-character note with no space wrapped onto a fourth line: its end and the
    cursor went under 'The note is full (140 characters).'"""
    async with alice_opens_her_game_at(tmp_path, (40, 24)) as c:
        await c.wait_for("needs 80 columns")
        c.send("\r")
        await c.wait_for("BAR")
        c.send("N")
        await c.wait_for("Note to your")
        letters = "abcdefghijklmnopqrstuvwxyz"
        note = (letters * 6)[:150]
        for i in range(0, 150, 10):  # as typed, not one burst past the keys a read may queue
            c.send(note[i:i + 10])
            await asyncio.sleep(0.05)
        await c.wait_for("The note is full")
        await c.settle(0.3)
        shown = [line[:40] for line in c.lines()[:24]]
        assert any(f"{note[130:140]}_" in line for line in shown), shown  # the 140th, then the cursor


@pytest.mark.parametrize("size", [(50, 20), (40, 20)])
async def test_a_result_on_a_short_screen_keeps_its_keys_on_the_screen(tmp_path, size):
    """At 50x20 a long result lost its last line, '(Press a key; Q leaves the' ending the
    screen: the keys went after the message, which had been cut for its own rows alone."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url) as srv:
        a = await call(srv.port, cols=size[0], rows=size[1])
        await login(a, "alice", "alice-pw", new=False)
        await open_game(a, f"#{game}")
        await a.wait_for("Enter goes on anyway")
        a.send("\r")
        await a.wait_words("bob rolled 4-2")
        a.send("G")
        await a.wait_words("3) backgammon")
        a.send("3")
        await a.wait_words("You will see the answer here.")
        with Service(url) as svc:
            svc.answer_resign(bob, game, svc.game(game, bob).version, True, note="Thank you, " * 10)
        await a.wait_words("(Press a key; Q leaves the game.)")
        lines = [line.rstrip() for line in a.screen.display]
        assert lines[-1].endswith("game.)"), a.text
        assert "(? shows all)" in " ".join(" ".join(lines).split()), a.text
        a.send("?")
        await a.wait_words("The message in full")
        assert "Thank you, " * 9 in " ".join(a.text.split()), a.text
        # R)eview's last step, likewise cut: its '? shows all' had been on a line below the screen.
        a.send(" ")
        await a.wait_until(lambda t: "The message in full" not in t, "the board again")
        a.send(" ")
        await a.wait_until(lambda t: "Press a key" not in t, "the result put away")
        a.send("R")
        await a.wait_words("Step ")
        said = " ".join(" ".join(a.screen.display[-4:]).split())
        assert said.endswith("(? shows all)") or said.endswith(")."), a.text
        assert "Ratings" in said or "(? shows all)" in said, a.text
        a.close()


async def test_an_offer_made_while_a_note_is_typed_is_told_over_the_field_which_stays_open(tmp_path):
    """bob offered to resign while alice typed a note: her field had stood over 'Your turn' until
    Enter, the offer unsaid; then it closed, and the words typed on were taken as the board's keys
    ('okay': A asked to accept, Y accepted), the half-typed note sent with the answer.  Now the
    offer is said over the field, which stays open; Enter keeps the note for the answer."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url) as srv:
        a = await offered_while_typing(srv.port, url, bob, game, "half a note")
        await a.wait_words("bob offers to resign, giving a single game (1 point). Note (11/140; Enter keeps it, "
                           "Esc cancels): half a note_")
        a.send(" okay")  # a word typed on: the note's, not A)ccept and Y
        await a.wait_for("half a note okay_")
        await a.settle(0.3)
        with Service(url) as svc:
            assert svc.game(game, bob).state.resign_win is not None  # the offer stands
        a.send("\r")
        await a.wait_words("bob offers to resign, giving a single game (1 point). Your note goes with what you "
                           'do next: "half a note okay".')
        a.send("N")  # the board's N)o now, the note with it
        await a.wait_words('You refuse the resignation; play on. Your note went with it.')
        with Service(url) as svc:
            st = svc.game(game, bob).state
            assert st.resign_win is None, st
            assert svc.opponent_note(game, bob).text == "half a note okay"  # type: ignore[union-attr]
        a.close()


async def test_esc_in_a_note_the_offer_interrupted_leaves_the_board_up(tmp_path):
    """Esc, meant to cancel a note, came after the field had closed for bob's offer and left the
    game for the menu (whose Q quits).  The field stays open: Esc cancels the note, the board and
    the offer stay."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url) as srv:
        a = await offered_while_typing(srv.port, url, bob, game, "you are on the bar")
        await a.wait_words("bob offers to resign")
        await a.settle(3)  # longer than a moment: not a key caught as the field closed
        a.send("\x1b")
        await a.wait_words("bob offers to resign, giving a single game (1 point). No note written.")
        assert "Your choice" not in a.text and "A)ccept" in a.text, a.text
        a.close()


@contextlib.asynccontextmanager
async def alice_rolled_5_2(tmp_path) -> AsyncIterator[tuple[Caller, str, int, int]]:
    """alice_to_roll's alice at her board, having rolled 5-2: (her caller, the database, bob's id,
    the game's)."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url, dice=ScriptedDice([5, 2] * 5)) as srv:
        a = await at_board(srv.port, "alice", game)
        try:
            a.send("\r")
            await a.wait_words("Your turn 5-2")
            yield a, url, bob, game
        finally:
            a.close()


async def test_a_checker_in_hand_put_back_by_an_offer_is_said(tmp_path):
    """alice held a checker when bob offered to resign: the board put it back without a word,
    where the moves made are said to come back."""
    async with alice_rolled_5_2(tmp_path) as (a, url, bob, game):
        a.send("\r")  # the cursor starts on a checker that can move: 13 here
        await a.wait_words("Checker in hand")
        with Service(url) as svc:
            svc.resign(bob, game, svc.game(game, bob).version, Win.SINGLE)
        await a.wait_words("bob offers to resign, giving a single game (1 point).")
        await a.wait_words("The checker you held is back on point 13.")


async def test_a_give_up_question_the_opponent_s_play_closes_is_said_closed(tmp_path):
    """bob's G)ive up choice went when alice rolled, unsaid, and his '1' after it was refused
    as a cursor key."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url) as srv:
        b = await at_board(srv.port, "bob", game)
        b.send("G")
        await b.wait_words("Give up: a single game")
        with Service(url, dice=ScriptedDice([6, 6])) as svc:
            alice = svc.login("alice", "alice-pw").id
            svc.roll(alice, game, svc.game(game, alice).version)
        await b.wait_words("alice rolled 6-6")
        await b.wait_words("Your G)ive up question closed with that: G asks again.")
        b.close()


async def test_the_menu_says_a_lost_match_whole_and_a_double_to_answer_before_rolls(tmp_path):
    """bob's lost match was cut on the menu at 'and the...', before 'match', by the ratings after
    it; and a double waiting for his answer was behind '(N: all)', under newer rolls."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5 + [6, 5, 6, 4, 5, 3, 6, 2] * 3)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        carol = svc.register("carol", "carol-pw").id
        asked = a_turn_each(svc, alice, bob)  # alice to roll
        svc.double(alice, asked.id, asked.version)  # bob to take or drop
        lost = svc.begin_game(alice, 1, Color.WHITE, "bob")
        lost = svc.roll(alice, lost.id, lost.version)
        svc.resign(bob, lost.id, lost.version, Win.SINGLE)  # bob gives up the 1-point match
        svc.answer_resign(alice, lost.id, svc.game(lost.id, alice).version, True)
        for _ in range(2):  # two newer games with rolls in them
            g = svc.begin_game(carol, 3, Color.WHITE, "bob")
            g = svc.roll(carol, g.id, g.version)
            play = legal_plays(g.state.position, g.state.dice)[0]
            svc.submit_turn(carol, g.id, g.version, play.position.id)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=80, rows=24)
        await login(c, "bob", "bob-pw", new=False)
        await c.wait_for("News (")
        lines = [line.strip() for line in c.screen.display]
        head = next(i for i, line in enumerate(lines) if line.startswith("News ("))
        assert lines[head].endswith("results, offers first:"), c.text
        assert lines[head + 1] == f"#{lost.id}: alice wins a single game by resignation, 1 point, and the match 1-0.", \
            c.text
        assert lines[head + 2].startswith(f"#{asked.id}: alice doubles to 2."), c.text
        c.close()


async def test_a_player_who_joined_an_open_game_is_not_told_it_was_begun_with_them(tmp_path):
    """ida joined jack's open seat from V)iew; her board said 'jack began a 3-point match with
    you.', as if jack had chosen her."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        jack = svc.register("jack", "jack-pw").id
        ida = svc.register("ida", "ida-pw").id
        g = svc.begin_game(jack, 3, Color.WHITE)
        svc.join_game(ida, g.id)
    async with running_server(url) as srv:
        c = await at_board(srv.port, "ida", g.id)
        await c.wait_words("jack began this 3-point match.")
        assert "with you" not in c.text, c.text
        c.close()


async def test_view_last_replays_the_moves_in_the_order_they_were_made(tmp_path):
    """alice played 13/11 then 11/7 (4-2); bob's V)iew last showed 13/9 first, her checker landing
    on 9, where it never was (a play-tester saw it the other way round).  Typed and with the
    cursor."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url, dice=ScriptedDice([4, 2, 6, 5] * 4)) as srv:
        a = await at_board(srv.port, "alice", game)
        a.send("\r")
        await a.wait_words("Your turn 4-2")
        a.send("M")
        await a.wait_for("Your play")
        a.send("13/11 11/7\r")
        await a.wait_words("Turn sent: 13/7.")
        b = await at_board(srv.port, "bob", game)
        b.send("V")
        await b.wait_words("Replay: alice rolled 4-2: 13/11 (1 of 2 moves).")
        a.close()
        b.close()
    with Service(url, dice=ScriptedDice([6, 5, 4, 2])) as svc:
        alice = svc.login("alice", "alice-pw").id
        assert [(m.src, m.dst) for m in svc.last_turn(game, bob).moves] == [(13, 11), (11, 7)]  # type: ignore[union-attr]
        # The cursor's moves go with the play the same way, from the board's own turn.
        v = svc.game(game, bob)
        v = svc.roll(bob, game, v.version)
        v = svc.submit_turn(bob, game, v.version, "13/7 13/8")
        v = svc.roll(alice, game, v.version)
        before = v.state.position
        turn = Turn(before, v.state.dice)  # type: ignore[arg-type]
        turn.move(13, 11)
        turn.move(11, 7)
        assert turn.play is not None
        svc.submit_turn(alice, game, v.version, turn.play.position.id, path=[(m.src, m.dst) for m in turn.moves])
        assert [(m.src, m.dst) for m in svc.last_turn(game, bob).moves][:2] == [(13, 11), (11, 7)]  # type: ignore[union-attr]


async def test_a_character_not_every_terminal_shows_is_left_out_of_a_note_and_said(tmp_path):
    """fred's 'ok ☺' reached gwen's CP437 screen as 'ok ?', and fred was not told."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", game)
        a.send("N")
        await a.wait_for("Note to your opponent")
        a.send("ok ☺".encode())
        await a.wait_words("☺ is left out: not every terminal can show it.")
        a.send(" café".encode())  # CP437 has é
        await a.wait_for("ok  café_")
        a.send("\r")
        await a.wait_words("Your note goes with what you do next:")
        a.close()


async def test_the_size_page_at_50_columns_says_what_is_cut_not_points(tmp_path):
    """At 50 columns the page said 'some of its points would be cut off': all 24 show; the tray
    (or the cube) at the board's right edge is what goes, with the names and scores.  And the
    cube only where it stands there: 'the bear-off tray, or the cube' had been said over Black's
    board as the table stands, its tray on the left, in a 1-point match."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    with Service(url) as svc:
        svc.set_preferences(bob, Preferences(orientation="table"))
    async with running_server(url) as srv:
        for handle, cols, said in (("alice", 50, "its right edge (the bear-off tray) would be cut off"),
                                   ("bob", 50, "its right edge (the bear-off tray; or, playing Black, the cube "
                                    "where the game has one) would be cut off"),
                                   ("alice", 45, "some of its points (1, 2, 23 and 24) would be cut off"),
                                   ("bob", 45, "some of its points would be cut off")):
            c = await call(srv.port, cols=cols, rows=24)
            await login(c, handle, f"{handle}-pw", new=False)
            await open_game(c, f"#{game}")
            await c.wait_for("Enter goes on anyway")
            assert said in " ".join(c.text.split()), c.text
            c.send("\r")
            text = await c.wait_for("BAR")
            if (handle, cols) == ("alice", 50):
                labels = next(line for line in text.splitlines() if " 19 20 21 22 23 24" in line)
                assert labels.rstrip().endswith("24"), text  # every point shows
            c.close()


async def test_a_result_met_at_the_menu_comes_before_newer_rolls(tmp_path):
    """alice's match won while she was away (bob dropped) was below bob's newer roll in another
    game, cut to '... (N: all)' or left off the menu for N)ews."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        first = a_turn_each(svc, alice, bob)  # alice to roll
        v = svc.double(alice, first.id, first.version)
        svc.drop(bob, first.id, v.version)
        second = svc.begin_game(bob, 3, Color.WHITE, "alice")
        second = svc.roll(bob, second.id, second.version)
        svc.submit_turn(bob, second.id, second.version, "8/5 6/5")
    async with running_server(url) as srv:
        c = await call(srv.port, cols=80, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        await c.wait_for("News (")
        lines = [line.strip() for line in c.screen.display]
        head = next(i for i, line in enumerate(lines) if line.startswith("News ("))
        assert lines[head].endswith("results first:"), c.text
        assert lines[head + 1].startswith(f"#{first.id}: You win"), c.text
        assert f"#{second.id}:" in " ".join(lines[head + 2:]), c.text
        c.close()


@pytest.mark.parametrize("size", [(80, 20), (40, 20)])
async def test_a_full_note_on_a_short_screen_says_so_on_the_screen(tmp_path, size):
    """At 80x20 the keys typed into a full note were taken without a word: 'The note is full'
    is on the keys' line, below a screen under 22 lines."""
    async with alice_opens_her_game_at(tmp_path, size) as c:
        await c.wait_for("Enter goes on anyway")
        c.send("\r")
        await c.wait_for("BAR")
        c.send("N")
        await c.wait_for("Note to your")
        note = ("word " * 30)[:140]
        for i in range(0, 140, 10):
            c.send(note[i:i + 10])
            await asyncio.sleep(0.05)
        await c.wait_for("(140/140;")
        c.send("z")
        seen = await c.wait_until(lambda t: "The note is full" in " ".join(line[:size[0]] for line in
                                                                             c.lines()[:size[1]]),
                                  "the notice on the screen")
        shown = [line[:size[0]] for line in c.lines()[:size[1]]]
        assert any("_" in line for line in shown[-3:]), shown  # the field's end still in sight
        c.send("\x08")
        await c.wait_until(lambda t: "The note is full" not in " ".join(c.lines()[:size[1]]), "the notice gone")
        assert seen


async def test_a_typed_play_an_offer_closes_comes_back_when_play_goes_on(tmp_path):
    """bob offered to resign while alice typed '13/' after M: the line closed and the play typed
    was lost, where a note being typed stays open over the offer.  It is said kept, and M after
    the refusal brings it back as it stood."""
    async with alice_rolled_5_2(tmp_path) as (a, url, bob, game):
        a.send("M")
        await a.wait_for("Your play")
        a.send("13/8 6/")
        await a.wait_for("13/8 6/")
        with Service(url) as svc:
            svc.resign(bob, game, svc.game(game, bob).version, Win.SINGLE)
        await a.wait_words("bob offers to resign, giving a single game (1 point). Your typed play (13/8 6/) was "
                           "not sent: M brings it back if play goes on.")
        await a.settle(2.5)  # past the moment in which keys typed on are the closed line's
        a.send("N")
        # Said after the refusal too, as the cursor's moves are ('Your moves so far are back').
        await a.wait_words("You refuse the resignation; play on. M brings back your typed play (13/8 6/).")
        a.send("M")
        await a.wait_for("13/8 6/")
        a.send("4\r")
        await a.wait_words("Turn sent: 13/8 6/4.")
        with Service(url) as svc:
            last = svc.last_turn(game, bob)
            assert last is not None and last.notation == "13/8 6/4", last


async def test_a_logoff_on_the_player_s_turn_speaks_of_their_next_play(tmp_path):
    """'bob rolled 4-2 and played 8/4 6/4. bob has logged off; they will see your play at their
    next visit.': 'your play', straight after his, read as the play she had just made."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url, presence_ttl=3.0) as srv:
        a = await at_board(srv.port, "alice", game)
        b = await at_board(srv.port, "bob", game)
        try:
            await a.wait_words("bob is on", 10)
            b.close()
            said = " ".join((await a.wait_words("bob has logged off", 15)).split())
            assert "bob has logged off; they will see your next play at their next visit." in said, said
        finally:
            a.close()
            b.close()


async def test_the_menu_shows_the_doubles_to_answer_a_long_result_had_hidden(tmp_path):
    """At 80x24 kim's news said 'results, offers first', and the two-line result of her won
    game ('... Next is the Crawford game: no doubling in it.') took all its rows: ida's doubles
    to answer showed nowhere.  Each is cut after its first sentence where that shows more of the
    results and offers; and a cut comes after a sentence, not at 'Score: ida 2,...'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 20)) as svc:
        kim = svc.register("kim", "kim-pw").id
        ida = svc.register("ida", "ida-pw").id
        v = a_turn_each(svc, kim, ida, 2, "ida")
        v = svc.double(kim, v.id, v.version)
        svc.drop(ida, v.id, v.version)  # kim 1-0 in a 2-point match: the Crawford game next
        for _ in range(2):
            v = a_turn_each(svc, ida, kim, 5, "kim")
            svc.double(ida, v.id, v.version)
    async with running_server(url) as srv:
        for cols, rows in ((80, 24), (40, 24)):
            c = await call(srv.port, cols=cols, rows=rows)
            await login(c, "kim", "kim-pw", new=False)
            await c.wait_for("News (")
            await c.settle(0.5)
            shown = [line[:cols].rstrip() for line in c.screen.display[:rows]]
            news = " ".join(" ".join(shown[next(i for i, line in enumerate(shown) if "News (" in line):]).split())
            assert "You win a single game on a drop, 1 point" in news, shown
            assert ",..." not in news and "Score:..." not in news, shown
            if cols == 80:
                assert "#3: ida doubles to 2." in news, shown
            c.close()


async def test_a_typed_play_that_hits_is_said_with_its_hit(tmp_path):
    """carol typed 13/11 6/5, which hit dave's blot: her board said 'Turn sent.' alone, where his
    said she had played '13/11* 6/5'; a hit made with the cursor is said ('Moved 13/11*')."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 6, 4, 2, 1])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.roll(bob, v.id, v.version)
        v = svc.submit_turn(bob, v.id, v.version, "24/14")
        v = svc.roll(alice, v.id, v.version)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", v.id)
        a.send("M")
        await a.wait_for("Your play")
        a.send("13/11 6/5\r")
        await a.wait_words("Turn sent: 13/11* 6/5.")
        a.close()


async def test_view_last_marks_the_dice_played_at_each_step(tmp_path):
    """V)iew last drew both dice unused at every step, where the live board marks a die played
    and says which is left ('the 2 to play')."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    with Service(url, dice=ScriptedDice([4, 2])) as svc:
        alice = svc.login("alice", "alice-pw").id
        v = svc.roll(alice, game, svc.game(game, alice).version)
        svc.submit_turn(alice, game, v.version, "13/9 6/4")
    async with running_server(url) as srv:
        b = await at_board(srv.port, "bob", game)
        b.send("V")
        await b.wait_until(lambda t: "(1 of 2 moves)" in t and "Replay of alice 4-2," in t and "the 2 to play" in t,
                           "the 2 left after 13/9")  # the panel wraps it
        await b.wait_words("(2 of 2 moves)")
        await b.settle(0.3)
        assert "Replay of alice 4-2 " in " ".join(b.text.split()) and "to play" not in b.text, b.text
        b.close()


def test_dice_played_follows_a_turn_move_by_move() -> None:
    from bgdoor.rules.position import Position  # noqa: PLC0415
    from bgdoor.ui.game import dice_played  # noqa: PLC0415

    start = Position.start()
    moves = Turn(start, (4, 2))
    moves.move(13, 9)
    moves.move(6, 4)
    assert dice_played(start, (4, 2), moves.moves) == [None, (2,), ()]
    doubles = Turn(start, (3, 3))
    for src, dst in ((24, 21), (24, 21), (13, 10), (13, 10)):
        doubles.move(src, dst)
    assert dice_played(start, (3, 3), doubles.moves) == [None, (3, 3, 3), (3, 3), (3,), ()]


async def test_the_menu_puts_a_match_lost_before_a_game_won_and_whole(tmp_path):
    """jack at 80x24: '#2: You win a single game on a drop, 2 points. Score: jack 2, ida 0...'
    then '#1: ida wins a single game by resignation, 1 point, and the... (N: all)', a row for it
    where it needed two: that he had lost a match was cut off.  A match's end comes first."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 20)) as svc:
        jack = svc.register("jack", "jack-pw").id
        ida = svc.register("ida", "ida-pw").id
        v = a_turn_each(svc, jack, ida, 1, "ida")
        v = svc.resign(jack, v.id, v.version, Win.SINGLE)
        svc.answer_resign(ida, v.id, v.version, True)  # ida wins the 1-point match
        v = a_turn_each(svc, jack, ida, 2, "ida")
        v = svc.double(jack, v.id, v.version)
        svc.drop(ida, v.id, v.version)  # later: jack 1-0 in #2, the Crawford game next
    async with running_server(url) as srv:
        for cols in (80, 40):
            c = await call(srv.port, cols=cols, rows=24)
            await login(c, "jack", "jack-pw", new=False)
            await c.wait_for("News (")
            await c.settle(0.5)
            shown = [line[:cols].rstrip() for line in c.screen.display[:24]]
            news = " ".join(" ".join(shown[next(i for i, line in enumerate(shown) if "News (" in line):]).split())
            assert "#1: ida wins" in news, shown
            assert "#2" not in news or news.index("#1: ida wins") < news.index("#2: You win"), shown
            if cols == 80:
                assert "#1: ida wins a single game by resignation, 1 point, and the match 1-0." in news, shown
            c.close()


async def test_a_typed_play_refused_comes_back_with_m(tmp_path):
    """gwen typed a play the rules refused ('Too many moves for the roll: ...'); M again showed an
    empty line (or only the cursor's moves), and the whole play had to be typed again."""
    async with alice_rolled_5_2(tmp_path) as (a, url, bob, game):
        a.send("M")
        await a.wait_for("Your play")
        a.send("13/8 6/3\r")
        said = " ".join((await a.wait_words("M brings the line back to put right.")).split())
        assert "6/3 is 3 pips, which does not match the dice" in said, said
        a.send("M")
        await a.wait_for("13/8 6/3")
        # How a key typed there is taken, said ('13/8' and ' 13/10' typed on had left ' 13/10').
        await a.wait_words("Your play as typed: Backspace puts it right, a new one typed replaces it")
        a.send("13/8 6/2\r")  # typed anew: it replaces the line kept (it had run on after it)
        said = " ".join((await a.wait_words("6/2 is 4 pips")).split())
        assert "Cannot read" not in said, said
        a.send("M")
        await a.wait_for("13/8 6/2")
        a.send("\x084\r")  # put right: 6/4
        await a.wait_words("Turn sent: 13/8 6/4.")


async def test_a_note_written_over_a_double_says_the_double_again(tmp_path):
    """fred pressed N just after 'gwen doubles to 2.': the field took its place, and after Enter
    or Esc only 'Your note goes with ...' or 'No note changed.' was said, the double nowhere."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_doubled(url)
    async with running_server(url) as srv:
        b = await at_board(srv.port, "bob", game)
        await b.wait_words("alice doubles to 2.")
        for keys, said in (("ok\r", 'Your note goes with what you do next: "ok".'), ("\x1b", "No note changed.")):
            b.send("N")
            await b.wait_for("Note to your opponent")
            b.send(keys)
            await b.wait_words(f"alice doubles to 2. {said}")
        b.close()


async def test_a_play_made_with_the_cursor_is_said_when_sent(tmp_path):
    """A typed play is confirmed with the play ('Turn sent: 13/7 8/7.'), one made with the cursor
    with 'Turn sent.' alone: two wordings for one thing."""
    async with alice_rolled_5_2(tmp_path) as (a, url, bob, game):
        for key, said in (("\r", "Checker in hand"), ("2", None), ("6", None), ("\r", "Moved 13/11; the 5 to play."),
                          ("\r", "Checker in hand"), ("66666", None), ("\r", "Your play: 13/6. Enter commits it")):
            a.send(key)
            if said:
                await a.wait_words(said)
            else:
                await a.settle(0.2)
        a.send("\r")
        await a.wait_words("Turn sent: 13/6.")


def test_a_die_a_play_made_by_hand_leaves_unplayed_is_said() -> None:
    """bar/24* entered by hand with 3-1 said 'Your play: bar/24*. Enter commits it', nothing of
    the die the rules left unplayed (the play the board makes itself says it)."""
    from bgdoor.rules.position import Position  # noqa: PLC0415
    from bgdoor.ui.game import unplayable  # noqa: PLC0415

    me = [0] * 25
    me[24], me[5] = 1, 14  # one on the bar, the rest on the 6 point
    them = [0] * 25
    for p in (0, 1, 2, 3, 4, 10):  # their 1-5 and 11 points made: only the 6 enters, and 19/14 is blocked
        them[p] = 2
    them[23] = 3  # and 6/1 too
    turn = Turn(Position(tuple(me), tuple(them)), (6, 5))
    assert unplayable(turn) == ""  # nothing played yet
    turn.move(25, 19)
    assert turn.is_complete and unplayable(turn) == "The 5 cannot be played."


async def test_options_show_what_the_other_session_stored_and_step_from_it(tmp_path):
    """erin set ASCII in her other session; Options here still said 'automatic (now utf8)', and
    one C stored CP437 over her ASCII."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        erin = svc.register("erin", "erin-pw").id
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "erin", "erin-pw", new=False)
        b = await call(srv.port)
        await login(b, "erin", "erin-pw", new=False)
        b.send("O")
        await b.wait_for("Character set: automatic")
        for _ in range(3):  # automatic, CP437, UTF-8, ASCII
            b.send("C")
            await b.settle(0.3)
        await b.wait_for("Character set: ascii")
        a.send("O")
        await a.wait_for("Character set: ascii")
        a.send("C")
        await a.wait_for("Character set: automatic")
        with Service(url) as svc:
            assert svc.player(erin).preferences.charset is None  # stepped from ASCII, not to CP437
        a.close()
        b.close()


async def test_a_key_refused_beside_one_s_own_double_does_not_read_as_a_second_offer(tmp_path):
    """N with fred's own double waiting: 'Your double is waiting for your opponent's answer. ?
    lists the keys. You offer the cube at 2. gwen to answer.', as if he offered again."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_doubled(url)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", game)
        await a.wait_for("V)iew last")
        await a.settle(0.3)
        a.send("Z")
        said = " ".join((await a.wait_words("Z does nothing here.")).split())
        assert "You offer the cube" not in said, said
        a.send("N")
        # And when a note can go: 'is waiting' alone had not said (a tester).
        said = " ".join((await a.wait_words("Your double is waiting for your opponent's answer. A note is written on "
                                            "your own turn, to go with what you do then.")).split())
        assert "You offer the cube" not in said, said
        a.close()


async def test_the_menu_says_an_offer_waits_for_an_answer_after_its_news_was_read(tmp_path):
    """jack opened #6 with kim's redouble waiting, answered nothing and went back: the menu's
    news no longer said it (read), and '2 games waiting for your move' said nothing of an answer.
    The moves are counted apart from the answers ('2 games waiting for your move, 1 for your
    answer' with two in all had read as three)."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 20)) as svc:
        jack = svc.register("jack", "jack-pw").id
        kim = svc.register("kim", "kim-pw").id
        offered = a_turn_each(svc, jack, kim, 3, "kim")  # jack to roll: he doubles
        svc.double(jack, offered.id, offered.version)  # kim to answer
        a_turn_each(svc, kim, jack, 3, "jack")  # kim to roll there
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "kim", "kim-pw", new=False)
        said = " ".join((await c.wait_for("Your choice")).split())
        assert "1 game waiting for your move, 1 for your answer." in said, said
        await open_game(c, f"#{offered.id}")
        await menus.to_board(c)
        c.send("Q")
        said = " ".join((await c.wait_for("Your choice")).split())
        assert "1 game waiting for your move, 1 for your answer." in said, said
        c.close()


async def test_turn_sent_says_the_other_games_waiting(tmp_path):
    """ida sent her turn in #3 with #4 waiting for her: the board said 'Turn sent: 24/22 8/5.'
    alone, and only Q showed there was more to play."""
    from bgdoor.rules.moves import legal_plays  # noqa: PLC0415

    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 20)) as svc:
        ida = svc.register("ida", "ida-pw").id
        kim = svc.register("kim", "kim-pw").id
        here = a_turn_each(svc, ida, kim, 3, "kim")
        there = a_turn_each(svc, ida, kim, 3, "kim")
        v = svc.roll(ida, here.id, here.version)
        assert v.state.dice is not None
        play = str(legal_plays(v.state.position, v.state.dice)[0])
    async with running_server(url) as srv:
        c = await at_board(srv.port, "ida", here.id)
        await c.wait_for("M)ove")
        c.send("M")
        await c.wait_for("Your play")
        c.send(play + "\r")
        said = " ".join((await c.wait_words(f"Your turn in game #{there.id} too")).split())
        assert f"Turn sent: {play}. Your turn in game #{there.id} too: Q, then P)lay, takes you there." in said, said
        c.close()


async def test_a_list_s_refusal_goes_once_a_key_that_works_is_typed(tmp_path):
    """M)atches: after 'x' ('X is not an answer: ...') the refusal stood beside the '#1' typed
    after it."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 1, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.resign(alice, v.id, v.version, Win.SINGLE)
        svc.answer_resign(svc.login("bob", "bob-pw").id, v.id, v.version, True)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("M")
        await c.wait_for("Game:")
        c.send("x")
        await c.wait_words("X is not an answer")
        c.send("#")
        await c.wait_until(lambda t: "X is not an answer" not in " ".join(t.split()), "the refusal gone")
        c.close()


async def test_review_of_a_drop_shows_the_double_answered(tmp_path):
    """R)eview's 'gwen drops the double.' drew the board of the step before: 'Cube 4 offered to
    gwen' and the marker on fred, as if the double still waited."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = a_turn_each(svc, alice, bob, 2, "bob")
        v = svc.double(alice, v.id, v.version)
        v = svc.drop(bob, v.id, v.version)  # alice 1-0: the Crawford game
        v = svc.roll(alice, v.id, v.version)
        v = svc.resign(bob, v.id, v.version, Win.SINGLE)
        svc.answer_resign(alice, v.id, v.version, True)
    async with running_server(url) as srv:
        c = await reviewing_first_match(srv.port, "bob")
        await c.wait_for("wins the match")
        for _ in range(20):
            if "You drop the double" in " ".join(c.text.split()):
                break
            c.send("4")
            await c.settle(0.2)
        text = await c.wait_words("You drop the double")
        assert "offered" not in text and not [line for line in text.splitlines() if "►" in line], text
        c.send("4")  # the double, still to answer: bob, who answers it, marked
        text = await c.wait_words("alice doubles to 2.")
        marked = [line for line in text.splitlines() if "►" in line]
        assert "offered to you" in " ".join(text.split()) and len(marked) == 1 and "bob" in marked[0], text
        c.close()


async def test_a_note_closed_keeps_what_the_lines_said_before_it(tmp_path):
    """fred pressed N and then Esc on his opening 6-4: 'No note written.' took the place of
    'Opening roll: ... fred starts with 6-4.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", game)
        said = " ".join((await a.wait_words("bob rolled 4-2 and played 8/4 6/4.")).split())
        await a.settle(0.3)
        for keys, words in (("N\x1b", "No note written."), ("Nhi\r", 'Your note goes with what you do next: "hi".')):
            a.send(keys[0])
            await a.wait_for("Note to your opponent")
            a.send(keys[1:])
            said = " ".join((await a.wait_words(words)).split())
            assert f"bob rolled 4-2 and played 8/4 6/4. {words}" in said, said
        a.close()


def resigned_a_match(svc: Service, loser: int, winner: int, winner_handle: str) -> GameView:
    """`loser` begins a 1-point match with `winner`, rolls, resigns a single game, and `winner`
    accepts: the match is `winner`'s."""
    v = svc.begin_game(loser, 1, Color.WHITE, winner_handle)
    v = svc.roll(loser, v.id, v.version)
    v = svc.resign(loser, v.id, v.version, Win.SINGLE)
    return svc.answer_resign(winner, v.id, v.version, True)


async def test_the_menu_s_banner_gives_way_to_a_long_result_and_an_offer_to_answer(tmp_path):
    """qq, at 80x24, lost a match to Longhandle123456, whose double waits in another game: the
    result over two rows under the banner's menu had left the double out of the news."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 20)) as svc:
        qq = svc.register("qq", "qq-pw").id
        long = svc.register("Longhandle123456", "long-pw").id
        offered = a_turn_each(svc, long, qq, 3, "qq")
        svc.double(long, offered.id, offered.version)
        resigned_a_match(svc, qq, long, "Longhandle123456")
    async with running_server(url) as srv:
        c = await call(srv.port, rows=24)
        await login(c, "qq", "qq-pw", new=False)
        said = " ".join((await c.wait_for("Your choice")).split())
        assert "and the match 1-0" in said, said
        assert f"#{offered.id}: Longhandle123456 doubles" in said, said
        c.close()


async def dropped_at_board(port: int, handle: str, game: int) -> Caller:
    """`handle` at the board of `game`, where a double waits for their answer: X, then Y; returns
    once the result is up."""
    c = await at_board(port, handle, game)
    c.send("X")
    await c.wait_words("Drop the double and lose this game")
    c.send("Y")
    await c.wait_words("wins a single game on a drop")
    return c


async def test_the_dropper_and_the_accepter_are_told_what_they_did_before_the_result(tmp_path):
    """fred pressed X and Y: his screen said only 'gwen wins a single game on a drop, 4 points',
    where the taker is told 'You take' and the other two 'fred drops the double'.  So too A)ccept
    of a resignation ('You win a single game by resignation' alone)."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_doubled(url)
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        bob = svc.login("bob", "bob-pw").id
        alice = svc.login("alice", "alice-pw").id
        offered = a_turn_each(svc, alice, bob, 3)  # another match: alice to roll; she offers to resign
        svc.resign(alice, offered.id, offered.version, Win.SINGLE)
    async with running_server(url) as srv:
        b = await dropped_at_board(srv.port, "bob", game)
        said = " ".join(b.text.split())
        assert "You drop the double. alice wins a single game on a drop" in said, said
        b.close()
        b = await at_board(srv.port, "bob", offered.id)
        b.send("A")
        await b.wait_words("Accept, and win")
        b.send("Y")
        said = " ".join((await b.wait_words("You win a single game by resignation")).split())
        assert "You accept the resignation. You win a single game by resignation" in said, said
        b.close()


async def test_giving_up_offers_no_more_than_ends_the_match(tmp_path):
    """In a 1-point match G asked 'a single game (1 point, the match), a gammon (2 points, the
    match) or a backgammon (3 points, the match)?': a choice that changed nothing."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 1, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
    async with running_server(url) as srv:
        a = await at_board(srv.port, "alice", v.id)
        a.send("G")
        said = " ".join((await a.wait_words("Give up: a single game (1 point, the match)?")).split())
        assert "A gammon would give no more." in said and "backgammon" not in said, said
        assert "1) single Esc: no" in said and "2) gammon" not in said, said
        a.send("2")
        said = " ".join((await a.wait_words("2 is not an answer. Give up: a single game (1 point, the match)?"))
                        .split())
        assert said.count("would give no more") == 1, said
        a.send("1")
        await a.wait_words("You offer to resign, giving a single game (1 point, the match).")
        a.close()


def alice_to_move_bob_wins_next(url: str) -> tuple[int, str, int]:
    """alice and bob run home until alice is to move with a play that does not win, and bob's
    last checker is on his 1 or 2 point (any roll bears it off): (game, alice's fastest play, the
    seed, whose database it is: URL.SEED)."""
    for seed in range(50):
        rng = random.Random(seed)

        def stop(st: MatchState, plays: list[Play]) -> str | None:
            p = fastest(plays)
            left = st.position.opponent
            last = sum(left[:24]) == 1 and not any(left[2:24])
            if st.turn is Color.WHITE and p is not None and last and p.position.opponent_off < 15:
                return str(p)
            return None

        try:
            with Service(f"{url}.{seed}", dice=ScriptedDice([rng.randint(1, 6) for _ in range(3000)])) as svc:
                _, v, _, play = race_home(svc, 1, stop)
        except AssertionError:
            continue  # the game ended first
        return v.id, play, seed
    raise AssertionError("no such race in 50 seeds")


@pytest.mark.parametrize("later", [False, True], ids=["at once", "a moment later"])
async def test_turn_sent_stays_before_the_result_when_the_reply_wins(tmp_path, monkeypatch, later):
    """erin sent 24/21 6/1 and the computer replied and won: the result screen said only
    'Intermediate Bot rolled 5-4 and played 2/off(2). Intermediate Bot wins ...', her own play
    never said, where every other turn's lines began 'Turn sent: ...'.  The computer replies in
    the time the board takes to read the game again, or a moment after (its result then wakes
    the board)."""
    import threading  # noqa: PLC0415

    game, play, seed = alice_to_move_bob_wins_next(f"sqlite:///{tmp_path}/g.db")
    url = f"sqlite:///{tmp_path}/g.db.{seed}"
    sent = Service.submit_turn

    def and_bob_replies(self: Service, player_id: int, game_id: int, version: int, *args: Any) -> GameView:
        v = sent(self, player_id, game_id, version, *args)

        def reply() -> None:
            bob = self.login("bob", "bob-pw").id
            r = self.roll(bob, game_id, v.version)
            sent(self, bob, game_id, r.version, str(fastest(legal_plays(r.state.position, r.state.dice))))

        if v.state.turn is Color.BLACK:  # as the computer does
            if later:
                threading.Timer(0.5, reply).start()
            else:
                reply()
        return v

    monkeypatch.setattr(Service, "submit_turn", and_bob_replies)
    async with running_server(url, dice=ScriptedDice([2, 1] * 10)) as srv:
        a = await at_board(srv.port, "alice", game)
        await a.wait_for("M)ove typed")
        a.send("M")
        await a.wait_for("Your play")
        a.send(play + "\r")
        said = " ".join((await a.wait_words("bob wins a single game")).split())
        assert f"Turn sent: {play}." in said, said
        assert said.index("Turn sent") < said.index("bob rolled 2-1") < said.index("bob wins"), said
        a.close()


async def test_an_old_turn_sent_does_not_come_back_before_a_result(tmp_path):
    """alice sent a play and left her board as it was; bob played, she played in another
    session, bob offered to resign and she accepted there: her board said 'Turn sent: 13/11
    13/8. In another session, you accepted the resignation. You win ...', her play of two
    turns before brought back as if it had just come before the end."""
    async with alice_rolled_5_2(tmp_path) as (a, url, bob, game):
        a.send("M")
        await a.wait_for("Your play")
        a.send("13/8 13/11\r")
        await a.wait_words("Turn sent: 13/11 13/8.")
        with Service(url, dice=ScriptedDice([6, 5, 4, 3] * 5)) as svc:
            alice = svc.login("alice", "alice-pw").id
            for who, told in ((bob, "bob rolled 6-5"), (alice, "In another session, you rolled 4-3")):
                r = svc.roll(who, game, svc.game(game, who).version)
                svc.submit_turn(who, game, r.version, str(fastest(legal_plays(r.state.position, r.state.dice))))
                await a.wait_words(told)
            svc.resign(bob, game, svc.game(game, bob).version, Win.SINGLE)
            await a.wait_words("bob offers to resign")
            svc.answer_resign(alice, game, svc.game(game, alice).version, True)
        said = " ".join((await a.wait_words("You win a single game by resignation")).split())
        assert "Turn sent" not in said, said


async def test_back_at_the_next_game_the_board_says_how_the_last_one_ended(tmp_path):
    """alice dropped, saw the result and hung up before a key: her next call's board said 'Game 2
    of the match. Score: bob 1, alice 0 (match to 3).', never how game 1 had ended."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_doubled(url)
    async with running_server(url) as srv:
        b = await dropped_at_board(srv.port, "bob", game)
        b.close()
        await asyncio.sleep(0.5)
        b = await at_board(srv.port, "bob", game)
        said = " ".join((await b.wait_words("Game 2 of the match")).split())
        assert "Game 2 of the match: alice won game 1 on a drop, 1 point. Score: alice 1, bob 0" in said, said
        b.close()


async def test_a_finished_match_typed_at_view_says_where_it_is(tmp_path):
    """#12, finished and in the menu's news, typed at V)iew: 'Game #12 is not in this list.', with
    no word of M)atches; a number no game has was said the same way."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice, bob = svc.login("alice", "alice-pw").id, svc.login("bob", "bob-pw").id
        game = a_turn_each(svc, alice, bob)  # a game in progress, for the list: alice to roll
        for _ in range(2):  # and two where bob is to roll, for P)lay's list (one goes straight in)
            a_turn_each(svc, bob, alice, 3, "alice")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("V")
        await c.wait_for("Game:")
        c.send("#1\r")
        await c.wait_words("Game #1 is over: M)atches at the menu reviews it.")
        c.send("#99\r")
        await c.wait_words("There is no game #99.")
        c.send("Q")
        await c.wait_for("Your choice")
        c.close()
        # At P)lay, bob's own game on alice's turn, and one he does not play in.
        with Service(url) as svc:
            carol = svc.register("carol", "carol-pw").id
            other = svc.begin_game(alice, 3, Color.WHITE, "carol")
            over = svc.begin_game(alice, 1, Color.WHITE, "carol")
            resign_at_once(svc, over.id, {Color.WHITE: alice, Color.BLACK: carol}, Color.BLACK)
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        c.send("P")
        await c.wait_for("Game:")
        c.send(f"#{game.id}\r")
        await c.wait_words(f"Game #{game.id} waits for alice, not you: V)iew shows it.")
        c.send(f"#{other.id}\r")
        await c.wait_words(f"Game #{other.id} is not yours: V)iew shows it.")
        # Another's finished game: P)lay watches nothing ('it cannot be watched' had said so).
        c.send(f"#{over.id}\r")
        await c.wait_words(f"Game #{over.id} is over: it was not yours.")
        c.close()


@pytest.mark.parametrize("size", [(40, 24), (80, 20), (80, 24)])
async def test_the_menu_shows_every_offer_to_answer_under_two_results(tmp_path, size):
    """ida came back to two results and three offers to answer: at 40x24 the results took six rows
    and the news showed '#2: jack doubles to 2.' and '#1: jack offers to... (N: all)', the third
    offer left out; at 80x20 it was left out too."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 20)) as svc:
        ida = svc.register("ida", "ida-pw").id
        jack = svc.register("jack", "jack-pw").id
        kim = svc.register("kim", "kim-pw").id
        max_ = svc.register("maximiliandalton", "max-pw").id
        doubled = a_turn_each(svc, jack, ida, 3, "ida")
        svc.double(jack, doubled.id, doubled.version)
        resigning = a_turn_each(svc, jack, ida, 3, "ida")
        svc.resign(jack, resigning.id, resigning.version, Win.SINGLE)
        resigning_too = a_turn_each(svc, max_, ida, 3, "ida")
        svc.resign(max_, resigning_too.id, resigning_too.version, Win.SINGLE)
        won = a_turn_each(svc, ida, max_, 3, "maximiliandalton")
        won = svc.double(ida, won.id, won.version)
        svc.drop(max_, won.id, won.version)
        lost = resigned_a_match(svc, ida, kim, "kim")
    async with running_server(url) as srv:
        c = await call(srv.port, cols=size[0], rows=size[1])
        await login(c, "ida", "ida-pw", new=False)
        said = " ".join((await c.wait_for("Your choice")).split())
        for game in (doubled, resigning, resigning_too, won, lost):
            assert f"#{game.id}:" in said, (game.id, said)
        assert "doubles to 2" in said and said.count("offers to resign") == 2, said
        c.close()


async def test_a_list_s_refusal_stays_when_the_list_follows_a_change(tmp_path):
    """x typed at V)iew's 'Game:' said nothing: the list, following a live game, was laid out again
    at once and the refusal went with it."""
    url = f"sqlite:///{tmp_path}/g.db"
    _, game = alice_to_roll(url)
    with Service(url) as svc:
        svc.register("carol", "carol-pw")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "carol", "carol-pw", new=False)
        c.send("V")
        await c.wait_for("Game:")
        c.send("x")
        await c.wait_words("X is not an answer")
        with Service(url, dice=ScriptedDice([5, 2])) as svc:
            alice = svc.login("alice", "alice-pw").id
            svc.roll(alice, game, svc.game(game, alice).version)
        await c.settle(1.0)  # the list laid out again for the roll
        assert "X is not an answer" in " ".join(c.text.split()), c.text
        c.send("#")
        await c.settle(0.3)
        assert "X is not an answer" not in " ".join(c.text.split()), c.text  # gone once a key works
        c.close()


def alice_doubled_with(url: str, note: str) -> int:
    """alice_to_roll, and alice doubles with `note`: bob to answer.  The game's id."""
    _, game = alice_to_roll(url)
    with Service(url) as svc:
        alice = svc.login("alice", "alice-pw").id
        svc.double(alice, game, svc.game(game, alice).version, note)
    return game


async def at_40(port: int, handle: str, game: int, shown: str, size: tuple[int, int] = (40, 24)) -> Caller:
    """`handle` at the board of `game` at 40x24 (or `size`), past the page on the board's size, once
    `shown` is."""
    c = await call(port, cols=size[0], rows=size[1])
    await login(c, handle, f"{handle}-pw", new=False)
    await open_game(c, f"#{game}")
    await c.wait_words("Enter goes on anyway")
    c.send("\r")
    await c.wait_words(shown)
    return c


async def test_the_dropper_is_told_at_40_columns_after_a_double_with_a_long_note(tmp_path):
    """fred at 40x24 dropped a double that came with a long note: the result came without 'You
    drop the double.', the rows under it empty.  The note, answered, had still been counted."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_doubled_with(url, "Redouble to eight. A long note again, to see whether the drop is said at "
                                   "forty columns.")
    async with running_server(url) as srv:
        c = await at_40(srv.port, "bob", game, "Redouble to eight")
        c.send("X")
        await c.wait_words("Drop the double")
        c.send("Y")
        said = " ".join((await c.wait_words("wins a single game on a drop")).split())
        assert "You drop the double. alice wins a single game on a drop" in said, said
        assert max(map(len, c.screen.display)) <= 40
        c.close()


async def test_a_question_under_a_long_note_keeps_its_words_at_40_columns(tmp_path):
    """At 40x24 a double came with a 140-character note; X asked 'Drop the double and... (? shows
    all)', the points at stake and the '[N]' Enter answers cut, the note whole.  The note gives way."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_doubled_with(url, "Redouble to eight. Long note again so we can see whether the drop question "
                                   "survives at forty columns on your side; please read it!")
    async with running_server(url) as srv:
        c = await at_40(srv.port, "bob", game, "Redouble to eight")
        c.send("X")
        said = " ".join((await c.wait_words("(Y/N) [N]")).split())
        assert "Drop the double and lose this game, 1 point? (Y/N) [N]" in said, said
        assert "alice's note: \"Redouble to eight." in said and "(? shows all)" in said, said
        c.send("?")
        whole = " ".join((await c.wait_words("please read it!")).split())
        assert "Drop the double and lose this game" in whole, whole
        c.close()


async def bells(c: Caller) -> int:
    """The bells `c` has been sent, once what goes with the last change has come."""
    await c.settle(0.3)
    return c.received.count(b"\x07")


async def test_sound_on_rings_for_a_double_a_refused_key_and_a_result(tmp_path):
    """S)ound ON rang for nothing but 'your turn': not a double offered, a key refused, a match
    lost.  Each now rings once, in the same write as the screen it goes with; OFF rings none."""
    url = f"sqlite:///{tmp_path}/g.db"
    _, game = alice_to_roll(url)
    async with running_server(url) as srv:
        c = await at_board(srv.port, "bob", game)
        rung = await bells(c)
        with Service(url) as svc:
            alice = svc.login("alice", "alice-pw").id
            svc.double(alice, game, svc.game(game, alice).version)
        await c.wait_words("alice doubles")
        assert await bells(c) == rung + 1, "the double rings"
        c.send("Z")
        await c.wait_words("Z does nothing here")
        assert await bells(c) == rung + 2, "a refused key rings"
        at = c.received.rindex(b"\x07")
        assert b"does nothing" in c.received[at:], "with the refusal, not apart from it"
        c.send("X")
        await c.wait_words("Drop the double and lose")
        c.send("Y")
        await c.wait_words("wins a single game on a drop")
        assert await bells(c) == rung + 3, "the result rings"
        c.send("Q")
        await c.wait_for("Your choice")
        c.send("S")
        await c.wait_words("(now OFF)")
        c.send("Z")
        await c.wait_words("Z is not on the menu")
        assert await bells(c) == rung + 3, "sound off: no ring"
        c.close()


async def test_sound_on_rings_for_a_key_refused_in_a_replay(tmp_path):
    """V)iew last, then Z: 'Z does nothing here.' and no bell, where the board rings for it."""
    url = f"sqlite:///{tmp_path}/g.db"
    _, game = alice_to_roll(url)
    async with running_server(url) as srv:
        c = await at_board(srv.port, "bob", game)
        c.send("V")
        await c.wait_words("Q)uit replay")
        rung = await bells(c)
        c.send("Z")
        said = " ".join((await c.wait_words("Z does nothing here")).split())
        assert await bells(c) == rung + 1, "a refused key rings in a replay too"
        # And where the replay stands stays said with it (the refusal had taken its place).
        assert "Z does nothing here. ? lists the keys. Replay: alice played the opening 3-1" in said, said
        c.close()


async def test_a_key_refused_in_a_review_rings_and_leaves_the_step_said(tmp_path):
    """M)atches, a match reviewed, Z: no bell, and 'Step 5 of 5: ...' gone until the next key."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob_resigns_to_alice(url, Win.SINGLE)
    async with running_server(url) as srv:
        c = await reviewing_first_match(srv.port, "alice")
        await c.wait_words("Step 5 of 5")
        rung = await bells(c)
        c.send("Z")
        said = " ".join((await c.wait_words("Z does nothing here")).split())
        assert await bells(c) == rung + 1, "a refused key rings in a review too"
        assert "Z does nothing here. ? lists the keys. Step 5 of 5: You win the match" in said, said
        c.close()
        c.close()


@pytest.mark.parametrize("size", [(40, 24), (80, 20)])
async def test_a_result_after_a_long_note_keeps_its_own_words(tmp_path, size):
    """bob dropped with a long note: at 40x24 and 80x20 alice's lines held the note and '... (?
    shows all)', who won, the score and the Crawford game on the ? page alone.  The note gives way."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_doubled(url)
    async with running_server(url) as srv:
        c = await at_40(srv.port, "alice", game, "bob rolled", size)
        with Service(url) as svc:
            bob = svc.login("bob", "bob-pw").id
            svc.drop(bob, game, svc.game_version(game), "This early double surprises me, Alice, but I would "
                     "rather lose one point now than four later, so I drop it and we go on to the next game.")
        said = " ".join((await c.wait_words("(Press a key")).split())
        assert "You win a single game on a drop, 1 point. Score: alice 1, bob 0." in said, said
        assert 'bob\'s note: "This early' in said, said
        if "(? shows all)" in said:
            c.send("?")
            whole = " ".join((await c.wait_words("the next game.")).split())
            assert "You win a single game on a drop" in whole, whole
        else:
            assert 'the next game." You win' in said, said  # all of it fits (at 80x20, over the board's foot)
        c.close()


async def test_an_offer_to_answer_shows_its_keys_on_a_short_screen(tmp_path):
    """At 80x20 a double offered said 'alice doubles to 2.' and nothing of T)ake or X) drop: the
    keys' line is below the screen.  As a question's, the keys go with the message."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_doubled(url)
    async with running_server(url) as srv:
        c = await at_40(srv.port, "bob", game, "Since you last looked", (80, 20))
        c.send(" ")  # past the page of what came since
        said = " ".join((await c.wait_words("T)ake")).split())
        assert "X)" in said and "alice doubles to 2" in said, said
        assert len(c.screen.display) == 20
        c.close()


async def test_sound_on_rings_at_the_menu_for_a_turn_or_an_offer_that_comes(tmp_path):
    """With S)ound ON, a player waiting at the menu heard nothing when their turn came or a double
    was offered: only a board rang.  The menu rings once for each game that comes to wait."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        await c.wait_for("Your choice")
        rung = await bells(c)
        with Service(url) as svc:
            alice = svc.login("alice", "alice-pw").id
            svc.double(alice, game, svc.game(game, alice).version)
        await c.wait_words("1 game waiting for your answer")
        assert await bells(c) == rung + 1, "the double rings at the menu"
        # Opened, the board does not ring for it again (the double rang twice, at the menu and
        # on the board); a key refused at a list does (the lists and R)ank rang nothing).
        c.send("P")
        await c.wait_words("Since you last looked")
        c.send(" ")
        await c.wait_words("T)ake")
        assert await bells(c) == rung + 1, "the board opened rings nothing more"
        c.send("Q")
        await c.wait_for("Your choice")
        c.send("V")
        await c.wait_for("Game:")
        c.send("x")
        await c.wait_words("X is not an answer")
        assert await bells(c) == rung + 2, "a key refused at a list rings"
        c.send("Q")
        await c.wait_for("Your choice")
        rung = await bells(c) - 1
        with Service(url) as svc:
            svc.take(bob, game, svc.game_version(game))
        await c.wait_words("No game is waiting")
        assert await bells(c) == rung + 1, "a turn gone rings nothing"
        c.close()


@pytest.mark.parametrize("size", [(40, 24), (50, 20)])
async def test_turn_sent_stays_when_the_answer_comes_at_once_with_another_game_waiting(tmp_path, size):
    """At 40x24 and 50x20, ida's turn sent against a computer that answers at once, another game
    waiting: the lines said the notice of that game and the computer's play, and 'Turn sent:
    13/10 13/11.' had gone without a sign."""
    from bgdoor.rules.moves import legal_plays  # noqa: PLC0415

    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 20)) as svc:
        ida = svc.register("ida", "ida-pw").id
        kim = svc.register("kim", "kim-pw").id
        here = a_turn_each(svc, ida, kim, 3, "kim")
        there = a_turn_each(svc, ida, kim, 3, "kim")
        v = svc.roll(ida, here.id, here.version)
        assert v.state.dice is not None
        play = str(legal_plays(v.state.position, v.state.dice)[0])
    async with running_server(url) as srv:
        c = await at_40(srv.port, "ida", here.id, "3-1", size)
        c.send("M")
        await c.wait_for("Your play")
        c.send(play + "\r")
        await c.wait_words(f"Your turn in game #{there.id} too")
        with Service(url, dice=ScriptedDice([4, 2])) as svc:
            v = svc.roll(kim, here.id, svc.game_version(here.id))
            answer = str(legal_plays(v.state.position, v.state.dice)[0])
            svc.submit_turn(kim, here.id, v.version, answer)
        said = " ".join((await c.wait_words("kim rolled 4-2")).split())
        assert "Turn sent" in said, said
        assert f"Your turn in game #{there.id} too" in said and "(? shows all)" not in said, said
        assert all(len(line.rstrip()) <= size[0] for line in c.screen.display)
        c.close()


async def test_sound_on_rings_at_the_menu_for_an_offer_on_a_turn_and_a_result(tmp_path):
    """At the menu: alice offered to resign on bob's own turn (the game already waiting for
    him) and nothing rang; bob's own offer, made in his other session and accepted at once, lost
    him the game with no bell either.  Each rings once."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        alice = svc.login("alice", "alice-pw").id
        v = svc.roll(alice, game, svc.game_version(game))
        svc.submit_turn(alice, game, v.version, "8/5 6/5")  # bob to roll
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        await c.wait_words("1 game waiting for your move")
        rung = await bells(c)
        with Service(url) as svc:
            svc.resign(alice, game, svc.game_version(game), Win.SINGLE)
        await c.wait_words("1 game waiting for your answer")
        assert await bells(c) == rung + 1, "an offer on bob's own turn rings"
        with Service(url) as svc:
            svc.answer_resign(bob, game, svc.game_version(game), False)  # in bob's other session
        await c.wait_words("1 game waiting for your move")
        assert await bells(c) == rung + 1, "bob's own answer rings nothing"
        with Service(url) as svc:
            svc.resign(bob, game, svc.game_version(game), Win.BACKGAMMON)  # the match: no game waits after it
            svc.answer_resign(alice, game, svc.game_version(game), True)
        await c.wait_words("alice wins a backgammon by resignation")
        assert await bells(c) == rung + 2, "the result rings, once"
        c.close()


async def test_going_on_at_50_columns_still_asks_when_points_would_go(tmp_path):
    """Enter at 50 columns, where every point shows and only the board's right edge goes, covered
    45 too: points 24 and 1 went past the edge without the page that says so."""
    async with alice_opens_her_game_at(tmp_path, (50, 24)) as c:
        await c.wait_words("its right edge (the bear-off tray) would be cut off")
        c.send("\r")
        await c.wait_for("BAR")
        c.send_size(45, 24)
        said = " ".join((await c.wait_words("The board needs 80 columns")).split())
        assert "some of its points (1, 2, 23 and 24) would be cut off" in said, said


async def test_an_offer_in_the_menu_news_is_not_cut_to_make_room_for_n_all(tmp_path):
    """At 80x24 the banner stayed over '#4: rory offers to resign, giving a single game (4 points,
    the... (N: all)': the offer filled its row, and '(N: all)' after it had not been counted.  The
    banner gives way and the offer is whole."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    with Service(url, dice=ScriptedDice([3, 1] * 4)) as svc:
        alice = svc.login("alice", "alice-pw").id
        v = svc.roll(alice, game, svc.game_version(game))
        v = svc.submit_turn(alice, game, v.version, "8/5 6/5")
        v = svc.double(bob, game, v.version)
        svc.drop(alice, game, v.version)
        other = svc.begin_game(alice, 1, Color.WHITE, "bob")
        v = svc.roll(alice, other.id, other.version)  # alice 3, bob 1: alice to play
        svc.resign(alice, other.id, v.version, Win.SINGLE)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=80, rows=24)
        await login(c, "bob", "bob-pw", new=False)
        said = " ".join((await c.wait_words("Your choice")).split())
        assert f"#{other.id}: alice offers to resign, giving a single game (1 point, the match)." in said, c.text
        assert "the... (N: all)" not in said, c.text
        c.close()


async def test_a_list_s_page_note_goes_when_a_new_size_pages_it_anew(tmp_path):
    """N at a one-page list at 80x24 said 'This list has only one page.'; made 40 columns wide,
    the list took two pages and the note stood over 'N)ext page (1 of 2)'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        bob = svc.register("bob", "bob-pw").id
        for length in range(1, 9):
            svc.begin_game(bob, length, Color.WHITE, None)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 24))
        await menus.login(c, "alice", "alice-pw", new=True)
        c.send("V")
        await c.wait_for("Game:")
        c.send("N")
        await c.wait_words("This list has only one page.")
        c.send_size(40, 24)
        said = " ".join((await c.wait_words("N)ext page (1 of 2)")).split())
        assert "only one page" not in said, said
        c.close()


async def test_sound_on_rings_at_a_game_list_for_a_turn_that_comes(tmp_path):
    """bob sat at the V)iew list (it follows the games) when alice doubled: nothing rang, where the
    menu rings.  It rings once."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob, game = alice_to_roll(url)
    with Service(url) as svc:
        alice = svc.login("alice", "alice-pw").id
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "bob", "bob-pw", new=False)
        c.send("V")
        await c.wait_for("Game:")
        rung = await bells(c)
        with Service(url) as svc:
            svc.double(alice, game, svc.game_version(game))
        await c.wait_for("?bob")  # the list marks the double to answer
        assert await bells(c) == rung + 1, "the double rings at the list"
        c.close()


async def test_a_key_refused_at_a_question_rings_and_a_rename_does_not(tmp_path):
    """With S)ound on, a key refused on the board rang but one refused at a question ('Drop the
    double ...? (Y/N)', 5) did not; and a sysop's rename, no act of anyone's, rang as a turn."""
    url = f"sqlite:///{tmp_path}/g.db"
    game = alice_doubled(url)
    async with running_server(url) as srv:
        c = await at_board(srv.port, "bob", game)
        await c.wait_words("T)ake")
        c.send("X")
        await c.wait_words("(Y/N) [N]")
        rung = await bells(c)
        c.send("5")
        await c.wait_words("Y answers yes")
        assert await bells(c) == rung + 1, "a key refused at a question rings"
        with Service(url) as svc:
            Sysop(svc).rename("alice", "alicia")
        await c.wait_words("The sysop renamed alice to alicia.")
        assert await bells(c) == rung + 1, "a rename rings nothing"
        c.close()
