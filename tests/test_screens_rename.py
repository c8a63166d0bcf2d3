"""A player the sysop renames is told so, by their new handle, on their menu."""

from __future__ import annotations

import asyncio

import menus
import pytest
from harness import call, login, running_server

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service
from bgdoor.service.sysop import Sysop

pytestmark = pytest.mark.timeout(120)


def words(text: str) -> str:
    return " ".join(text.split())


def a_turn_each(url: str, *others: str) -> tuple[int, int, int]:
    """alice's and bob's ids (`others` registered too) and their 3-point match, a turn played each
    (alice 8/5 6/5 with the opening 3-1, bob 8/4 6/4 with 4-2; the dice go on 3-1, 4-2): alice to roll."""
    with Service(url, dice=ScriptedDice([3, 1, 4, 2] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        for handle in others:
            svc.register(handle, f"{handle}-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.roll(bob, v.id, v.version)
        svc.submit_turn(bob, v.id, v.version, "8/4 6/4")
        return alice, bob, v.id


async def renamed_on(url: str, c, old: str, new: str) -> str:
    """The sysop renames `old` `new`: what `c`'s screen says once it tells so, as words."""
    with Service(url) as svc:
        Sysop(svc).rename(old, new)
    return words(await c.wait_words(f"The sysop renamed {old} to {new}."))


async def at_board(port: int, handle: str = "alice"):
    """`handle` (password handle-pw) logged in, at the board of their first game."""
    c = await call(port)
    await login(c, handle, f"{handle}-pw", new=False)
    await menus.open_board(c)
    return c


async def test_a_renamed_caller_is_told_at_the_menu_and_greeted_by_the_new_handle(tmp_path):
    """The sysop renamed bob robert while bob was on: his menu greeted him 'Welcome, bob.' minutes
    later, nothing told him, and his next login as bob was offered a new player."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url) as srv:
        bob = await call(srv.port, cols=40, rows=24)
        await login(bob, "bob", "bob-pw", new=True)
        await bob.wait_words("Welcome, bob.")
        with Service(url) as svc:
            Sysop(svc).rename("bob", "robert")
        bob.send("Z")  # any key: the menu is drawn again
        said = words(await bob.wait_words("The sysop changed your handle from bob to robert."))
        assert "Log in as robert from now on." in said, said
        assert "Welcome, robert." in said and "Welcome, bob" not in said, said
        assert all(len(line.rstrip()) <= 40 for line in bob.screen.display)
        bob.send("X")
        said = words(await bob.wait_words("X is not on the menu."))
        assert "changed your handle" not in said, said  # told once
        bob.close()


async def test_a_renamed_player_away_is_told_at_the_next_login(tmp_path):
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("bob", "bob-pw")
        Sysop(svc).rename("bob", "robert")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "robert", "bob-pw", new=False)
        said = words(await c.wait_words("The sysop changed your handle from bob to robert."))
        assert "Welcome, robert." in said, said
        c.close()


@pytest.mark.parametrize("rows", [24, 18])
async def test_the_opponents_of_a_renamed_player_are_told_once_for_all_their_games(tmp_path, rows):
    """The sysop renamed alice alicia: bob's boards and lists showed him a stranger, alicia, in
    his games with alice, without a word."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        carol = svc.register("carol", "carol-pw").id
        one = svc.begin_game(alice, 3, Color.WHITE, "bob").id
        two = svc.begin_game(bob, 5, Color.WHITE, "alice").id
        svc.begin_game(alice, 3, Color.WHITE, "carol")
        finished = svc.begin_game(carol, 1, Color.WHITE, "bob")
        svc.withdraw_game(carol, finished.id)  # gone before alice was renamed: no word of her in it
        Sysop(svc).rename("alice", "alicia")
        told = [n for n in svc.notices(bob)]
        assert [(n.kind, n.game_id, n.other, n.now) for n in told] == [
            ("withdrawn", finished.id, "carol", ""),
            ("opponent_renamed", one, "alice", "alicia"),
            ("opponent_renamed", two, "alice", "alicia"),
        ], told
        assert [n.kind for n in svc.notices(carol)] == ["opponent_renamed"]
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=rows)  # at 18 rows no banner is left to give way
        await login(c, "bob", "bob-pw", new=False)
        told = f"The sysop renamed alice, your opponent in games #{one} and #{two}, to alicia."
        said = words(await c.wait_words(told))
        assert said.count("The sysop renamed") == 1, said
        assert f"carol withdrew from game #{finished.id}" in said, said
        c.send("X")
        said = words(await c.wait_words("X is not on the menu."))
        assert "renamed" not in said, said  # told once
        c.close()


async def test_two_games_removed_one_after_the_other_are_both_told(tmp_path):
    """The sysop removed games #1 and #2 within a second: the menu said the first, then the
    second's news wiped it and told only the second; N)ews had nothing of either."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        carol = svc.register("carol", "carol-pw").id
        svc.register("bob", "bob-pw")
        first = svc.begin_game(carol, 3, Color.WHITE, "bob").id
        second = svc.begin_game(carol, 5, Color.WHITE, "bob").id
    async with running_server(url) as srv:
        bob = await call(srv.port, cols=40, rows=24)
        await login(bob, "bob", "bob-pw", new=False)
        await bob.wait_words("Welcome, bob.")
        with Service(url) as svc:
            Sysop(svc).delete_game(first)
            await bob.wait_words(f"The sysop removed game #{first}")
            Sysop(svc).delete_game(second)
        said = words(await bob.wait_words(f"The sysop removed game #{second}, your 5-point match with carol."))
        assert f"The sysop removed game #{first}, your 3-point match with carol." in said, said
        bob.close()


async def test_a_renamed_player_in_two_sessions_is_greeted_by_the_new_handle_in_both(tmp_path):
    """bob on two nodes: the node that drew its menu first told him of the rename; the other went
    on greeting him 'Welcome, bob.' for ten minutes, through every redraw."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("bob", "bob-pw")
    async with running_server(url) as srv:
        one, two = await call(srv.port), await call(srv.port)
        for c in (one, two):
            await login(c, "bob", "bob-pw", new=False)
            await c.wait_words("Welcome, bob.")
        with Service(url) as svc:
            Sysop(svc).rename("bob", "robert")
        one.send("Z")
        await one.wait_words("The sysop changed your handle from bob to robert.")
        two.send("Z")
        said = words(await two.wait_words("Welcome, robert."))
        assert "Welcome, bob." not in said, said
        one.close()
        two.close()


async def test_a_board_says_so_when_the_opponent_it_shows_was_renamed(tmp_path, monkeypatch):
    """alice sat at the board while the sysop renamed bob robert: at bob's next roll her board
    went from 'bob to play' to 'robert rolled 6-4' with no word of who robert was."""
    monkeypatch.setattr("bgdoor.service.core.HANDLE_CACHE_SECONDS", 0.2)  # names read again soon
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
    async with running_server(url) as srv:
        c = await at_board(srv.port)
        await c.wait_words("bob to play")
        with Service(url, dice=ScriptedDice([6, 4] * 10)) as svc:
            Sysop(svc).rename("bob", "robert")
            await asyncio.sleep(0.5)
            v = svc.roll(bob, v.id, svc.game_version(v.id))  # the rename changed the game's version
        said = words(await c.wait_words("robert to play 6-4"))
        assert "The sysop renamed bob to robert." in said, said
        with Service(url) as svc:
            svc.submit_turn(bob, v.id, v.version, "24/14")
        said = words(await c.wait_words("robert rolled 6-4 and played 24/14."))
        assert said.count("robert rolled 6-4") == 1, said  # the roll told once, with its play
        c.close()


async def test_a_rename_seen_first_in_the_players_own_act_is_said(tmp_path, monkeypatch):
    """alice rolled first after the sysop renamed bob robert: her roll brought the new name, and
    'robert rolled 2-2' came later with no word of who robert was.  (The rename now reaches the
    board at once, as a change to the game: told before the roll, and not again after it.)"""
    monkeypatch.setattr("bgdoor.service.core.HANDLE_CACHE_SECONDS", 0.2)  # names read again soon
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.begin_game(alice, 3, Color.WHITE, "bob")
    async with running_server(url, dice=ScriptedDice([3, 1] * 10)) as srv:
        c = await at_board(srv.port)
        await c.wait_for("P)lay")
        with Service(url) as svc:
            Sysop(svc).rename("bob", "robert")
        await c.wait_words("The sysop renamed bob to robert.")
        c.send("\r")  # the opening roll: alice starts with 3-1
        said = words(await c.wait_words("You start with 3-1"))
        assert "Opening roll: alice 3, robert 1." in said and "bob" not in said, said
        c.close()


async def test_a_watcher_whose_game_the_sysop_removed_is_told_at_the_menu(tmp_path):
    """dave watched game #1 when the sysop removed it: he was put on the menu without a word (the
    players are told by the sysop's notice; nothing is left for a watcher)."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.register("dave", "dave-pw")
        game = svc.begin_game(alice, 3, Color.WHITE, "bob").id
    async with running_server(url) as srv:
        d = await call(srv.port, cols=40, rows=24)
        await login(d, "dave", "dave-pw", new=False)
        await menus.open_game(d, expect="Enter goes on anyway")
        d.send("\r")
        await d.wait_words("Match to 3")
        with Service(url) as svc:
            Sysop(svc).delete_game(game)
        await d.wait_words(f"Game #{game}, which you were watching, is no longer there: withdrawn, "
                           "or removed by the sysop.")
        assert all(len(line.rstrip()) <= 40 for line in d.screen.display)
        d.close()


async def test_a_player_renamed_again_and_again_while_away_is_told_once(tmp_path):
    """bob renamed robert, bobby, then rob while away: told 'from bob to rob', 'from robert to
    rob', 'from bobby to rob', each with 'Log in as rob from now on.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("bob", "bob-pw")
        for was, now in (("bob", "robert"), ("robert", "bobby"), ("bobby", "rob")):
            Sysop(svc).rename(was, now)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "rob", "bob-pw", new=False)
        said = words(await c.wait_words("The sysop changed your handle from bob to rob."))
        assert said.count("The sysop changed your handle") == 1 and said.count("Log in as rob") == 1, said
        c.close()


async def test_an_opponent_renamed_again_and_again_is_told_once_from_first_to_last(tmp_path):
    """bob renamed robert, then bobby: alice's menu said 'renamed bob ... to robert. renamed
    robert ... to bobby.', one sentence a step, and the banner went."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        game = svc.begin_game(alice, 3, Color.WHITE, "bob").id
        for was, now in (("bob", "robert"), ("robert", "bobby")):
            Sysop(svc).rename(was, now)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        said = words(await c.wait_words(f"The sysop renamed bob, your opponent in game #{game}, to bobby."))
        assert said.count("The sysop renamed") == 1 and "robert" not in said, said
        c.close()


async def test_a_player_renamed_while_away_comes_back_under_the_new_name(tmp_path, monkeypatch):
    """bob logged off, was renamed bobcat, and logged in again: alice's board said 'bob is on
    again.', its panel 'bob to play', until he rolled."""
    monkeypatch.setattr("bgdoor.service.core.HANDLE_CACHE_SECONDS", 0.2)  # names read again soon
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
    async with running_server(url, presence_ttl=3.0) as srv:
        b = await call(srv.port)
        await login(b, "bob", "bob-pw", new=False)
        c = await call(srv.port)
        try:
            await login(c, "alice", "alice-pw", new=False)
            await menus.open_board(c)
            await c.settle(1.5)
            b.close()
            await c.wait_words("bob has logged off")
            with Service(url) as svc:
                Sysop(svc).rename("bob", "bobcat")
            await asyncio.sleep(0.5)
            b = await call(srv.port)
            await login(b, "bobcat", "bob-pw", new=False)
            said = words(await c.wait_words("bobcat is on again."))
            assert "The sysop renamed bob to bobcat." in said and "bob is on" not in said, said
            assert "bobcat to play" in said, said  # the panel too
        finally:
            c.close()
            b.close()


async def test_a_board_waiting_on_the_opponent_shows_their_new_name_at_once(tmp_path):
    """bob waited on his board for an answer to his double when the sysop renamed his opponent:
    the board went on saying 'DAVE WILSON to answer', a ? page and back too, until the menu."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
    async with running_server(url) as srv:
        c = await at_board(srv.port)
        await c.wait_words("bob to play")
        said = await renamed_on(url, c, "bob", "robert")
        assert "robert to play" in said and "bob to play" not in said, said
        c.close()


async def test_a_turn_left_half_played_survives_the_opponent_s_rename(tmp_path):
    """The rename changes the game's version, which a turn left half played is kept against: it
    had come back as 'Your moves so far (8/5) are not kept: the game changed since you left them.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, _, game = a_turn_each(url)
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        v = svc.roll(alice, game, svc.game_version(game))
        svc.save_draft(alice, game, v.version, ((8, 5),), None)
        Sysop(svc).rename("bob", "robert")
        draft = svc.draft(alice, game)
        assert draft is not None and draft.version == svc.game_version(game), draft
    async with running_server(url) as srv:
        c = await at_board(srv.port)
        said = words(await c.wait_words("Your moves so far"))
        assert "Your moves so far are as you left them: 8/5" in said and "not kept" not in said, said
        c.close()


async def test_a_rename_between_a_roll_and_its_play_tells_the_roll_once(tmp_path):
    """bob won the opening roll, the sysop renamed him, and he played: alice's lines told the
    roll twice, 'bob starts with 3-1. The sysop renamed bob to robert. Opening roll: ...
    robert starts with 3-1, playing 8/5 6/5.'  The roll told before the rename is in the new
    name, and the play tells it again in its place."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([1, 3] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
    async with running_server(url) as srv:
        c = await at_board(srv.port)
        await c.wait_for("P)lay")
        with Service(url, dice=ScriptedDice([1, 3])) as svc:
            svc.roll(bob, v.id, svc.game_version(v.id))  # alice 1, bob 3: bob starts
        await c.wait_words("bob starts with 3-1.")
        with Service(url) as svc:
            Sysop(svc).rename("bob", "robert")
        await c.wait_words("The sysop renamed bob to robert.")
        with Service(url) as svc:
            svc.submit_turn(bob, v.id, svc.game_version(v.id), "8/5 6/5")
        said = words(await c.wait_words("playing 8/5 6/5."))
        assert said.count("Opening roll") == 1, said
        assert "Opening roll: alice 1, robert 3. robert starts with 3-1, playing 8/5 6/5." in said, said
        c.close()


async def test_a_rename_leaves_the_checker_in_hand_and_the_offer_waiting_said(tmp_path):
    """alice held a checker when the sysop renamed bob: 'Checker in hand: ...' gave way to 'The
    sysop renamed bob to robert.'; and with her double waiting, 'You offer the cube at 2. You
    will see the answer here.' became 'You offered the cube at 2.', as if answered."""
    url = f"sqlite:///{tmp_path}/g.db"
    _, bob, game = a_turn_each(url)
    async with running_server(url, dice=ScriptedDice([3, 1] * 5)) as srv:
        c = await at_board(srv.port)
        await c.wait_for("P)lay")
        c.send("D")
        await c.wait_words("You will see the answer here.")
        said = await renamed_on(url, c, "bob", "robert")
        assert "You will see the answer here." in said and "You offered" not in said, said
        with Service(url) as svc:
            svc.take(bob, game, svc.game_version(game))
        await c.wait_words("robert takes the double")
        c.send("\r")  # roll: 3-1
        await c.wait_words("3-1")
        c.send("\r")  # a checker picked up where the cursor stands
        await c.wait_words("Checker in hand")
        with Service(url) as svc:
            Sysop(svc).rename("robert", "bob")
        said = words(await c.wait_words("The sysop renamed robert to bob."))
        assert "Checker in hand" in said, said
        c.close()


def opening_won_by_bob(url: str) -> tuple[int, int, int]:
    """alice's and bob's ids, and a 3-point match between them whose opening roll bob won (3-1)."""
    with Service(url, dice=ScriptedDice([1, 3] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.roll(bob, v.id, v.version)  # alice 1, bob 3: bob starts
        return alice, bob, v.id


async def test_the_renamed_player_s_own_board_tells_a_roll_once(tmp_path):
    """alice, renamed alicia between bob's opening roll and his play, read on her own board
    'Opening roll: alice 1, bob 3. bob starts with 3-1.' and again 'Opening roll: alicia 1, ...'."""
    url = f"sqlite:///{tmp_path}/g.db"
    _, bob, game = opening_won_by_bob(url)
    async with running_server(url) as srv:
        c = await at_board(srv.port)
        await c.wait_words("bob starts with 3-1.")
        with Service(url) as svc:
            Sysop(svc).rename("alice", "alicia")
            await asyncio.sleep(0.5)
            svc.submit_turn(bob, game, svc.game_version(game), "8/5 6/5")
        said = words(await c.wait_words("playing 8/5 6/5."))
        assert said.count("Opening roll") == 1, said
        c.close()


async def test_a_question_open_on_the_board_stays_open_through_a_rename(tmp_path):
    """alice had pressed A to bob's offer ('Accept, and win a single game (1 point)? (Y/N)') when
    the sysop renamed bob: the question closed without a word, Y was refused, and an N typed to
    it refused the resignation."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, bob, game = opening_won_by_bob(url)
    with Service(url) as svc:
        svc.resign(bob, game, svc.game_version(game), Win.SINGLE)
    async with running_server(url) as srv:
        c = await at_board(srv.port)
        await c.wait_words("bob offers to resign")
        c.send("A")
        await c.wait_words("(Y/N) [N]")
        said = await renamed_on(url, c, "bob", "robert")
        assert "(Y/N) [N]" in said and "Y)es" in said, said
        c.send("Y")
        await c.wait_words("You win a single game by resignation")
        c.close()


async def test_a_watcher_keeps_the_double_said_through_a_rename(tmp_path):
    """carol watched at 40 columns: 'alice doubles to 2. bob to answer.' gave way to 'The sysop
    renamed bob to robert. robert to answer.': nothing said a double waited (no panel there)."""
    url = f"sqlite:///{tmp_path}/g.db"
    alice, _, game = a_turn_each(url, "carol")
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        await login(c, "carol", "carol-pw", new=False)
        await menus.open_game(c, expect="Enter goes on anyway")
        c.send("\r")
        await c.wait_words("Match to 3")
        with Service(url) as svc:
            svc.double(alice, game, svc.game_version(game))
        await c.wait_words("alice doubles to 2")
        with Service(url) as svc:
            Sysop(svc).rename("bob", "Bartholomew_Bob1")
        said = words(await c.wait_words("The sysop renamed bob to"))
        assert "alice doubles to 2" in said, said
        c.close()


@pytest.mark.parametrize("cols", [80, 40])
async def test_the_renamed_player_s_own_board_says_so(tmp_path, cols):
    """alice, at her board when the sysop renamed her alicia: the panel went from 'alice (you)'
    to 'alicia (you)' without a word (the menu told her only once she went back to it)."""
    url = f"sqlite:///{tmp_path}/g.db"
    a_turn_each(url)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=cols, rows=24)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_game(c)
        if cols < 80:
            await c.wait_words("Enter goes on anyway")
            c.send("\r")
        await c.wait_words("roll")
        await c.settle(0.5)
        with Service(url) as svc:
            Sysop(svc).rename("alice", "alicia")
        said = words(await c.wait_words("The sysop renamed you to alicia."))
        assert "alice (you)" not in said, said
        assert max(map(len, c.screen.display)) <= cols
        c.send("Q")
        # The menu says it once more, with how to log in from now on.
        await c.wait_words("The sysop changed your handle from alice to alicia.")
        c.close()
