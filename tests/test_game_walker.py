"""The walker: a real server over telnet, through every state of the game screen.

In each state it reads the help line off the caller's (pyte) screen, presses every key the line
offers and checks that the key did something other than refuse; it presses keys the line does not
offer and checks that a short reason appears. The states are those of ui.keys.State.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from harness import Caller, call, login, running_server
from menus import begin, open_game

from bgdoor.rules.dice import ScriptedDice
from bgdoor.service import Service
from bgdoor.ui.board import HELP_ROW, MESSAGE_ROW
from bgdoor.ui.keys import TABLE, TAIL, State

pytestmark = pytest.mark.timeout(240)

REFUSED = TAIL.strip()  # every refusal ends so


def rows(c: Caller, first: int, count: int = 2) -> str:
    return " ".join(c.screen.display[first - 1 + i].strip() for i in range(count))


def help_text(c: Caller) -> str:
    return "  ".join(c.screen.display[HELP_ROW - 1 + i].strip() for i in range(2))


def message(c: Caller) -> str:
    return rows(c, MESSAGE_ROW)


def labels(c: Caller) -> dict[str, set[str]]:
    """The help line's labels, each with the bytes a caller types for it."""
    out: dict[str, set[str]] = {}
    for label in re.split(r"\s{2,}", help_text(c).strip()):
        keys: set[str] = set()
        if "Enter" in label:
            keys.add("\r")
        if label.startswith("Arrows/8246"):
            keys |= set("8246")
        elif len(label) > 1 and label[1] == ")":
            keys.add(label[0].upper())
        elif label[:1].isdigit():
            keys.add(label[0])
        if keys:
            out[label] = keys
    return out


def offered(c: Caller) -> set[str]:
    return {k for keys in labels(c).values() for k in keys}


async def until(c: Caller, check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"{what} never came; the screen shows:\n{c.text}")
        await c.settle(0.05)


class Walk:
    """Which labels each state offered, and which of them had a key pressed."""

    def __init__(self) -> None:
        self.pressed: dict[State, set[str]] = {s: set() for s in State}
        self.seen: dict[State, set[str]] = {s: set() for s in State}

    def look(self, state: State, c: Caller) -> dict[str, set[str]]:
        found = labels(c)
        assert found, f"no help line in {state}:\n{c.text}"
        self.seen[state] |= set(found)
        return found

    async def works(self, state: State, c: Caller, key: str, expect: str) -> None:
        """An offered key: it does what it says (the screen shows `expect`), and no refusal."""
        found = self.look(state, c)
        hits = [label for label, keys in found.items() if key in keys]
        assert hits, f"{key!r} is not offered in {state}: {help_text(c)}"
        self.pressed[state] |= set(hits)
        if REFUSED in message(c) and "I" in offered(c) and key != "I":
            c.send("I")  # clear the last refusal first
            await c.wait_for("Position ID")
        c.send(key)
        await c.wait_for(expect)
        await c.settle(0.15)
        assert REFUSED not in message(c), f"{key!r} in {state} was refused:\n{c.text}"

    async def refused(self, state: State, c: Caller, key: str, reason: str = "") -> None:
        """A key not offered: a short reason appears, ending '? lists the keys.'"""
        self.look(state, c)
        assert key not in offered(c), f"{key!r} is offered in {state}"
        if REFUSED in message(c) and "I" in offered(c):
            c.send("I")  # clear the last refusal, so this one is seen anew
            await c.wait_for("Position ID")
        c.send(key)
        await until(c, lambda: REFUSED in message(c), f"a refusal of {key!r} in {state}")
        said = message(c)
        assert reason in said, f"{key!r} in {state}: {said!r}"
        assert len(said) <= 2 * 78
        await c.settle(0.1)

    def check(self, state: State) -> None:
        missing = self.seen[state] - self.pressed[state]
        assert not missing, f"{state}: offered but never pressed: {sorted(missing)}"


async def back_to_board(walk: Walk, state: State, c: Caller, board: str = "1") -> None:
    """Q leaves to the menu (offered); the game is opened again from the V)iew list."""
    await walk.works(state, c, "Q", "Your choice")
    await open_game(c, board, expect="?)help")
    await c.settle(0.3)


async def common(walk: Walk, state: State, c: Caller) -> None:
    """I and ? in any state that offers them."""
    await walk.works(state, c, "I", "Position ID")
    await walk.works(state, c, "?", "Keys now")
    c.send(" ")
    await c.wait_for("?)help")
    await c.settle(0.2)


async def test_every_state_offers_only_working_keys(tmp_path):
    url = f"sqlite:///{tmp_path / 'walk.db'}"
    walk = Walk()
    # Every roll is 3-1 (white wins the opening roll), so the plays below are always legal.
    async with running_server(url, dice=ScriptedDice([3, 1] * 200)) as server:
        port = server.port
        alice = await call(port)
        await login(alice, "alice", "alice-pw", new=True)
        bob = await call(port)
        await login(bob, "bob", "bob-pw", new=True)

        # ---- open seat: alice waits for an opponent
        await begin(alice, 3)
        s = State.OPEN_SEAT
        assert "Your turn" not in alice.text and "Waiting for a player" in alice.text
        await walk.refused(s, alice, "P", "Nobody has joined yet")
        await walk.refused(s, alice, "Z", "Z does nothing here")
        await walk.refused(s, alice, "8", "cursor moves only")
        await common(walk, s, alice)
        await walk.works(s, alice, "W", "Withdraw game")
        alice.send("N")
        await alice.wait_for("stays open")
        await back_to_board(walk, s, alice)
        walk.check(s)

        # ---- bob joins: the opening roll, for both
        await open_game(bob, expect="Join it?")
        bob.send("Y")
        await bob.wait_for("roll for who starts")
        await alice.wait_for("bob joined your game")
        await alice.wait_for("roll for who starts")
        s = State.OPENING
        await walk.refused(s, alice, "G", "once the game is under way")
        await walk.refused(s, alice, "V", "bob has not played a turn in this game yet")
        await walk.refused(s, alice, "D")
        await walk.works(s, alice, "W", "Nobody has rolled yet")
        alice.send("N")
        await alice.wait_for("The game stays.")
        await common(walk, s, alice)
        await back_to_board(walk, s, alice)
        await walk.works(s, alice, "\r", "You start with 3-1")  # Enter rolls as P does
        await bob.wait_for("alice starts with 3-1")  # told who won the opening roll, and with what
        walk.check(s)

        # ---- alice moves; bob waits
        s = State.MOVING
        await alice.wait_for("Arrows/8246")
        await walk.refused(s, alice, "P", "The dice are rolled")
        await walk.refused(s, alice, "U", "Nothing to undo")
        await walk.refused(s, alice, "R", "You cannot bear off while you have checkers outside")
        await walk.works(s, alice, "6", "?)help")  # the cursor moves: no message at all
        await alice.settle(0.2)
        assert REFUSED not in message(alice)
        alice.send("4")  # and back to 13, where alice has checkers
        await alice.settle(0.2)
        await walk.works(s, alice, "\r", "Checker in hand")
        await walk.works(s, alice, "U", "The checker is back")
        await walk.works(s, alice, "G", "Give up: a single game")
        alice.send("\x1b")
        await alice.wait_for("did not offer to resign")
        await walk.works(s, alice, "N", "Note to your opponent")
        alice.send("\x1b")
        await alice.wait_for("No note written")
        await common(walk, s, alice)
        await back_to_board(walk, s, alice)
        w = State.WAITING
        await walk.refused(w, bob, "P", "your opponent's turn")
        await walk.refused(w, bob, "D", "only on your own turn")
        await walk.works(w, bob, "G", "Give up: a single game")
        bob.send("\x1b")
        await bob.wait_for("did not offer to resign")
        await common(walk, w, bob)
        await back_to_board(walk, w, bob)
        await walk.works(s, alice, "M", "Your play (like")
        alice.send("8/5 6/5\r")
        await alice.wait_for("Turn sent")
        await bob.wait_words("alice starts with 3-1, playing 8/5 6/5.")  # the opponent's play, in notation
        walk.check(s)

        # ---- bob to roll; alice waits (and can replay bob's turn later)
        s = State.TO_ROLL
        await bob.wait_for("D)ouble")
        await walk.refused(s, bob, "U")
        await walk.works(s, bob, "V", "Replay: alice played the opening 3-1")
        r = State.REPLAY
        await bob.wait_for("(2 of 2 moves)")  # it plays itself out, then waits
        await walk.works(r, bob, "4", "(1 of 2 moves)")
        bob.send("4")
        await bob.wait_words("the board before the first of 2 moves")
        await walk.works(r, bob, "\r", "(1 of 2 moves)")
        await walk.refused(r, bob, "Z")
        await walk.works(r, bob, "?", "Keys now")
        bob.send(" ")
        await bob.wait_for("Replay")
        assert "Your turn" not in bob.text  # the panel names whose turn is replayed
        await walk.works(r, bob, "Q", "P)lay or Enter: roll")  # the board, saying what it said before V
        walk.check(r)
        await walk.works(s, bob, "G", "Give up: a single game")
        bob.send("\x1b")
        await bob.wait_for("did not offer to resign")
        await walk.works(s, bob, "N", "Note to your opponent")
        bob.send("hi\r")
        await bob.wait_for('Your note goes with what you do next: "hi"')
        await common(walk, s, bob)
        await back_to_board(walk, s, bob)
        await walk.refused(w, alice, "V", "bob has not played a turn in this game yet")
        # alice waits at the menu: the double shows there at once, and again when she comes back.
        alice.send("Q")
        await alice.wait_for("Your choice")
        await alice.settle(0.3)
        await walk.works(s, bob, "D", "You offer the cube at 2")
        await alice.wait_for("#1: bob doubles to 2.")  # the menu's news, without a key
        await open_game(alice)

        # ---- the double: offered to alice, by bob
        d = State.DOUBLE_TO_ME
        await alice.wait_for("T)ake")
        assert "bob doubles to 2." in message(alice)  # told on coming back
        await walk.refused(d, alice, "D", "Answer the double first")
        await walk.refused(d, alice, "P", "Answer the double first")
        await common(walk, d, alice)
        await back_to_board(walk, d, alice)
        await walk.works(d, alice, "X", "Drop the double and lose this game, 1 point? (Y/N) [N]")
        alice.send("N")
        await alice.wait_for("You did not drop")
        b = State.DOUBLE_BY_ME
        await walk.refused(b, bob, "G", "waiting for an answer")
        await walk.refused(b, bob, "P")
        await walk.works(b, bob, "V", "Replay")
        bob.send("Q")
        await bob.settle(0.2)
        await common(walk, b, bob)
        await back_to_board(walk, b, bob)
        walk.check(b)
        # A note goes with the answer to a double, as with a play.
        await walk.works(d, alice, "N", "Note to your opponent")
        # While the note is typed, T and X are letters of it: the help line offers no game keys.
        assert "Enter keeps it" in help_text(alice) and "T)ake" not in help_text(alice), help_text(alice)
        alice.send("see you at 4\r")
        await alice.wait_words("Your note goes with what you do next")
        await walk.works(d, alice, "T", "You take")
        await bob.wait_for("alice takes the double; the cube is at 2.")
        await bob.wait_for('alice\'s note: "see you at 4"')
        walk.check(d)

        # ---- bob rolls and plays
        await walk.works(s, bob, "P", "You rolled 3-1")
        await bob.wait_for("M)ove")
        bob.send("M")
        await bob.wait_for("Your play (like")
        bob.send("8/5 6/5\r")
        await bob.wait_for("Turn sent")
        walk.check(w)
        await alice.wait_words("bob rolled 3-1 and played 8/5 6/5.")

        # ---- alice offers to resign; bob refuses; the resigner is told
        await walk.works(s, alice, "G", "Give up: a single game")
        alice.send("1")
        await alice.wait_for("You offer to resign")
        rb = State.RESIGN_BY_ME
        await walk.refused(rb, alice, "G", "your opponent must answer first")
        await walk.works(rb, alice, "V", "Replay")
        alice.send("Q")
        await alice.settle(0.2)
        await common(walk, rb, alice)
        await back_to_board(walk, rb, alice)
        walk.check(rb)
        rt = State.RESIGN_TO_ME
        await bob.wait_for("alice offers to resign, giving a single game (2 points).")
        await walk.refused(rt, bob, "J", "N refuses the resignation")
        await walk.works(rt, bob, "V", "Replay")
        bob.send("Q")
        await bob.settle(0.2)
        await common(walk, rt, bob)
        await back_to_board(walk, rt, bob)
        await walk.works(rt, bob, "A", "Accept, and win a single game (2 points)? (Y/N) [N]")
        bob.send("N")
        await bob.wait_for("Not accepted")
        await walk.works(rt, bob, "N", "You refuse the resignation")
        await alice.wait_for("bob refuses the resignation; play goes on.")
        walk.check(rt)

        # ---- carol watches
        carol = await call(port)
        await login(carol, "carol", "carol-pw", new=True)
        await open_game(carol, expect="Watching this game")
        sp = State.SPECTATING
        await walk.refused(sp, carol, "P", "watching this game")
        await walk.refused(sp, carol, "G", "watching this game")
        await walk.works(sp, carol, "V", "Replay")
        carol.send("Q")
        await carol.settle(0.2)
        await common(walk, sp, carol)
        await walk.works(sp, carol, "R", "Step ")
        rv = State.REVIEW
        await walk.works(rv, carol, "7", "Step 0 of")
        await walk.works(rv, carol, "\r", "Step 1 of")
        assert "Opening roll: alice 3, bob 1" in message(carol)
        await walk.works(rv, carol, "1", "bob refuses the resignation")
        await walk.works(rv, carol, "4", "alice offers to resign")
        await walk.refused(rv, carol, "Z")
        await walk.works(rv, carol, "?", "Keys now")
        carol.send(" ")
        await carol.wait_for("Review")
        await walk.works(rv, carol, "Q", "R)eview")
        walk.check(rv)
        await back_to_board(walk, sp, carol)
        walk.check(sp)

        # ---- the end: alice resigns a gammon (4 points at cube 2, the match: a backgammon gives
        # no more, and is not offered), bob accepts
        await walk.works(s, alice, "G", "Give up: a single game")
        assert "2) gammon" in help_text(alice) and "3) backgammon" not in help_text(alice), help_text(alice)
        assert "G)ive up" not in help_text(alice), help_text(alice)
        alice.send("2")
        await alice.wait_for("You offer to resign")
        await bob.wait_for("A)ccept")
        bob.send("A")
        await bob.wait_for("(Y/N)")
        # While the question waits, the help line offers its answers, not the state's keys.
        assert "Y)es" in help_text(bob) and "A)ccept" not in help_text(bob), help_text(bob)
        bob.send("Z")
        await bob.wait_words("Y answers yes")
        bob.send("Y")
        await bob.wait_words("and the match 4-0")
        await alice.wait_words("and the match 4-0")
        for c in (alice, bob):  # nobody to act: no marker (on the winner it read as his turn)
            await until(c, lambda c=c: not [line for line in c.screen.display if "►" in line], "no marker")
            said = " ".join(c.text.split())
            assert "bob won the match" in said or "You won the match" in said, c.text  # the panel says who won
        await until(alice, lambda: "(Press a key;" in rows(alice, MESSAGE_ROW, 4), "the result held")  # until a key
        await alice.settle(1.0)
        assert "and the match 4-0" in rows(alice, MESSAGE_ROW, 4)
        alice.send(" ")
        await alice.settle(0.3)
        o = State.OVER
        await walk.refused(o, alice, "P", "The match is over")
        await walk.refused(o, alice, "G")
        await walk.works(o, alice, "V", "Replay")
        alice.send("Q")
        await alice.settle(0.2)
        await common(walk, o, alice)
        await walk.works(o, alice, "R", "Step ")
        alice.send("Q")
        await alice.settle(0.2)
        await walk.works(o, alice, "Q", "Your choice")
        walk.check(o)
        walk.check(s)

        # ---- withdrawing an open game nobody joined
        await begin(alice, 1)
        alice.send("W")
        await alice.wait_for("(Y/N)")
        alice.send("Y")
        await alice.wait_for("Your choice")
        with Service(url) as db:
            assert [g.id for g in db.games_in_progress()] == []
        for c in (alice, bob, carol):
            c.close()
    # Every state of the table was walked.
    assert {st for st in State if walk.pressed[st]} == set(TABLE)
