"""A play-tester's findings: rating changes that add up, the notice of a turn in another game and
P)lay's list, and what the help says a note goes with."""

from __future__ import annotations

import dataclasses
import re

import menus
import pytest
from harness import call, login, running_server

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, RejectResign, Win
from bgdoor.service import MatchRating, Service
from bgdoor.ui import keys
from bgdoor.ui.news import rating_text
from bgdoor.ui.texts import load_text

pytestmark = pytest.mark.timeout(120)


# ------------------------------------------------------------------ ratings


def test_the_rating_change_shown_is_the_difference_of_the_ratings_shown(tmp_path):
    """bob went 1500 -> 1522.36 -> 1538.74: told '1522.4 (+22.4)', then '1538.7 (+16.4)', and
    1522.4 + 16.4 is not 1538.7.  Each change is now that of the ratings as shown."""
    with Service(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.resign(alice, view.id, view.version, Win.SINGLE)
        view = svc.answer_resign(bob, view.id, view.version, True)
        log = svc.game_log(view.id, bob)
    ratings = (MatchRating("bob", 1522.36, 1538.74), MatchRating("alice", 1477.64, 1461.26))
    second = dataclasses.replace(log, ratings=ratings)
    assert rating_text(second) == "Ratings: bob 1538.7 (+16.3), alice 1461.3 (-16.3)."

    # A player adding up the changes over many matches lands on the rating shown.
    ratings = [1500.0, 1522.36, 1538.74, 1530.05, 1530.049, 1512.951, 1550.55]
    shown_total = 0.0
    for before, after in zip(ratings, ratings[1:], strict=False):
        text = rating_text(dataclasses.replace(log, ratings=(MatchRating("bob", before, after),)))
        m = re.fullmatch(r"Ratings: bob (\d+\.\d) \(([+-]\d+\.\d)\)\.", text)
        assert m, text
        shown_total += float(m.group(2))
        assert f"{1500 + shown_total:.1f}" == m.group(1), (text, shown_total)


# ------------------------------------------------------------------ another game waiting


def test_p_lays_list_keeps_its_order_when_a_game_is_only_played_in(tmp_path):
    """P)lay's list put the game most recently changed first: alice rolled in one, left it, and
    the line number she had just read opened the other game."""
    with Service(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        first = svc.begin_game(alice, 3, Color.WHITE, "bob")
        first = svc.roll(alice, first.id, first.version)  # alice 3, bob 1: alice starts with 3-1
        second = svc.begin_game(alice, 3, Color.WHITE, "bob")
        looked = [g.id for g in svc.my_turn_games(alice)]
        svc.roll(alice, second.id, second.version)  # alice opens #2 and makes its opening roll
        assert [g.id for g in svc.my_turn_games(alice)] == looked == [first.id, second.id]
        svc.submit_turn(alice, first.id, first.version, "8/5 6/5")  # bob's turn in #1 now
        assert [g.id for g in svc.my_turn_games(alice)] == [second.id]


def both_waiting(url: str) -> tuple[int, int]:
    """alice and bob: in game #1 it is alice's turn to roll (bob played 24/21 24/23); game #2 is
    begun, its opening roll not yet made.  Returns their ids."""
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)  # alice 3, bob 1: alice starts
        view = svc.submit_turn(alice, view.id, view.version, "8/5 6/5")
        view = svc.roll(bob, view.id, view.version)
        svc.submit_turn(bob, view.id, view.version, "24/21 24/23")
    return alice, bob


async def test_the_notice_says_how_p_lay_reaches_a_game_when_it_lists_them(tmp_path):
    """'Your turn in game #2 too: Q, then P)lay, takes you there.' while it was alice's turn in
    the game she sat at as well: P)lay showed a list, #1 first.  Now the notice says to pick #2
    from it, and the list keeps its order after she rolled in #1."""
    url = f"sqlite:///{tmp_path}/g.db"
    _, bob = both_waiting(url)
    async with running_server(url, dice=ScriptedDice([3, 1] * 20)) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c, "#1")
        await c.wait_for("P)lay or Enter: roll")
        await c.settle(0.5)
        with Service(url, dice=ScriptedDice([1, 3] * 20)) as svc:
            second = svc.begin_game(bob, 3, Color.WHITE, "alice")
            svc.roll(bob, second.id, second.version)  # white 1, alice 3: alice starts game 2
        await c.wait_words(f"Your turn in game #{second.id} too: Q, P)lay, then #{second.id} and Enter.")
        assert "takes you there" not in c.text
        c.send("Q")
        await c.wait_for("Your choice")
        c.send("P")
        await c.wait_for("Game:")
        lines = [" ".join(row.split()) for row in c.text.splitlines()]
        assert [row.split()[:2] for row in lines if re.match(r"\d\) #", row)] == [["1)", "#1"], ["2)", f"#{second.id}"]]
        c.send("1\r")  # back to #1 for the roll, and out again
        await menus.to_board(c)
        await c.wait_for("P)lay or Enter: roll")
        c.send("P")
        await c.wait_for("You rolled 3-1")
        c.send("Q")
        await c.wait_for("Your choice")
        c.send("P")
        await c.wait_for("Game:")
        lines = [" ".join(row.split()) for row in c.text.splitlines()]
        # The game just left stays where it was: the line number read before is the same game.
        assert [row.split()[:2] for row in lines if re.match(r"\d\) #", row)] == [["1)", "#1"], ["2)", f"#{second.id}"]]
        c.send(f"#{second.id}\r")
        await menus.to_board(c)
        await c.wait_for("Opening roll: bob 1, alice 3. You start")
        c.close()


async def test_the_notice_says_takes_you_there_only_while_p_lay_goes_straight_there(tmp_path):
    """Alone waiting, game #2 is where P)lay goes: 'takes you there' is so, and it is.  Once bob
    plays in the game on screen it waits too, and P)lay lists both: the notice says so."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, bob = both_waiting(url)
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        v = svc.roll(alice, 1, svc.game(1).version)
        svc.submit_turn(alice, 1, v.version, "13/10 24/23")  # bob's turn in #1
    async with running_server(url, dice=ScriptedDice([3, 1] * 20)) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c, "#1")
        await c.settle(0.5)
        with Service(url, dice=ScriptedDice([1, 3] * 20)) as svc:
            second = svc.begin_game(bob, 3, Color.WHITE, "alice")
            svc.roll(bob, second.id, second.version)  # alice starts game 2
        await c.wait_words(f"Your turn in game #{second.id} too: Q, then P)lay, takes you there.")
        with Service(url, dice=ScriptedDice([6, 5] * 20)) as svc:
            v = svc.roll(bob, 1, svc.game(1).version)
            svc.submit_turn(bob, 1, v.version, str(v.state.plays()[0]))
        await c.wait_words(f"Your turn in game #{second.id} too: Q, P)lay, then #{second.id} and Enter.")
        assert "takes you there" not in " ".join(c.text.split())
        c.close()

    # And with #2 the only game waiting, P)lay goes straight to it.
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        v = svc.roll(alice, 1, svc.game(1).version)
        svc.submit_turn(alice, 1, v.version, str(v.state.plays()[0]))
        assert [g.id for g in svc.my_turn_games(alice)] == [second.id]
    async with running_server(url, dice=ScriptedDice([3, 1] * 20)) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        c.send("P")
        await menus.to_board(c)
        await c.wait_words("Opening roll: bob 1, alice 3. You start")  # game #2's, not a list
        assert "Game:" not in c.text
        c.close()


# ------------------------------------------------------------------ notes


def test_the_help_names_every_action_a_note_goes_with(tmp_path):
    """alice wrote a note mid-turn; bob offered to resign and she refused: 'Your note went with
    it.', while the help said a note goes with 'your play, double, take, drop or resignation'."""
    with Service(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.resign(bob, view.id, view.version, Win.SINGLE)
        view = svc.answer_resign(alice, view.id, view.version, False, "brb soon")
        refusal = svc.game_log(view.id, bob).events[-1]
        assert isinstance(refusal.event, RejectResign) and refusal.note == "brb soon"
    for help_text in (keys.NOTE.does, " ".join(load_text("instructions").split())):
        # Written before the offer comes: at the offer, N answers it (N)o, play on).
        assert "or an answer to a resignation offered later" in help_text, help_text
