"""Withdrawing from a match before its first roll, from either seat."""

from __future__ import annotations

import pytest
from harness import Caller, call, login, running_server
from menus import begin, open_board

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import GameLog, Service, Unread
from bgdoor.service.sysop import Sysop
from bgdoor.ui.news import gather

pytestmark = pytest.mark.timeout(120)


async def bob_named(port: int) -> tuple[Caller, Caller]:
    """bob and alice dial in as new players; alice begins a 3-point match naming bob (game #1), and
    her board offers W)ithdraw."""
    bob = await call(port)
    await login(bob, "bob", "bob-pw", new=True)
    alice = await call(port)
    await login(alice, "alice", "alice-pw", new=True)
    await begin(alice, 3, opponent="bob")
    await alice.wait_for("W)ithdraw")
    return bob, alice


@pytest.mark.parametrize("leaving", ["alice", "bob"])
async def test_a_named_match_is_withdrawn_by_either_player_before_the_first_roll(tmp_path, leaving):
    """alice began a match naming bob: W said 'Only a game nobody has joined can be withdrawn', and
    bob, named in a game he had not asked for, had no key out of it at all."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob, alice = await bob_named(srv.port)
        await bob.wait_for("1 game waiting for your move")
        await open_board(bob)
        await bob.wait_for("W)ithdraw")
        quitter, other = (alice, bob) if leaving == "alice" else (bob, alice)
        name = "bob" if leaving == "alice" else "alice"
        quitter.send("W")
        await quitter.wait_words(f"Withdraw from game #1 against {name}? Nobody has rolled yet")
        quitter.send("N")
        await quitter.wait_words("The game stays.")
        quitter.send("W")
        await quitter.wait_for("(Y/N)")
        quitter.send("Y")
        await quitter.wait_words("Game #1 is withdrawn.")
        # Back on the menu, told who withdrew it (the board knew only that the game was gone).
        await other.wait_words(f"{leaving} withdrew from game #1, a 3-point match with you, before its first roll.")
        assert "no longer there" not in " ".join(other.text.split())
        for c in (alice, bob):
            assert "No game is waiting for your move." in " ".join(c.text.split())
            c.close()


async def test_a_match_under_way_is_not_withdrawn(tmp_path):
    """After the first roll W says why not; the key is no longer offered."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob, alice = await bob_named(srv.port)
        alice.send("P")
        await alice.wait_until(lambda t: "roll for who starts" not in t or "tie" in t, "the opening roll")
        await alice.settle(0.3)
        assert "W)ithdraw" not in alice.text
        alice.send("W")
        await alice.wait_words("The match is under way: it can be withdrawn only before its first roll.")
        alice.close()
        bob.close()


async def test_a_wrong_key_at_a_question_at_40_columns_leaves_the_question_whole(tmp_path):
    """'Withdraw from game #1 against bob? Nobody has rolled yet: the game goes, for you both.
    (Y/N)  Y answers yes; N, Esc or Enter, no.' is past three lines at 40 columns: its end was cut."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        bob.close()
        alice = await call(srv.port, cols=40, rows=24)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 3, opponent="bob")
        await alice.wait_for("Enter goes on anyway")
        alice.send("\r")
        await alice.wait_for("W)ithdraw")
        alice.send("W")
        await alice.wait_for("(Y/N)")
        alice.send("Z")
        # How to answer, said with the question where both fit (the rows the help leaves free), else
        # beside the keys.
        await alice.wait_until(lambda t: "Y answers yes; N or Esc, no." in " ".join(t.split())
                               or "Z is not an answer: Y)es N)o (or Esc)" in " ".join(t.split()), "the refusal")
        await alice.settle(0.2)
        said = " ".join(alice.text.split())
        assert "the game goes, for you both. (Y/N)" in said and "? shows all" not in said, said
        assert all(len(line.rstrip()) <= 40 for line in alice.screen.display)
        alice.send("N")
        await alice.wait_words("The game stays.")
        alice.close()


async def test_the_notice_of_another_game_goes_when_that_game_is_withdrawn(tmp_path):
    """bob on one board was told 'Your turn in game #2 too: ...'; alice withdrew #2, and the notice
    stayed, sending bob to look for a game no longer there."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob, alice = await bob_named(srv.port)
        await open_board(bob, "#1")
        await bob.wait_for("roll for who starts")
        alice.send("Q")
        await alice.wait_for("Your choice")
        await begin(alice, 1, opponent="bob")
        await alice.wait_for("W)ithdraw")
        await bob.wait_words("Your turn in game #2 too")
        alice.send("W")
        await alice.wait_for("(Y/N)")
        alice.send("Y")
        await alice.wait_words("Game #2 is withdrawn.")
        await bob.wait_until(lambda t: "game #2" not in " ".join(t.split()), "the notice of game #2 gone")
        alice.close()
        bob.close()


async def test_a_player_away_is_told_on_the_menu_the_match_was_withdrawn(tmp_path):
    """bob, named in a match and away, found it gone from his lists without a word; at the menu he
    is told once who withdrew it, and a sysop's removal likewise."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.register("carol", "carol-pw")
        withdrawn = svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.withdraw_game(alice, withdrawn.id)
        removed = svc.begin_game(alice, 5, Color.WHITE, "carol")
        Sysop(svc).delete_game(removed.id)
    async with running_server(url) as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=False)
        await bob.wait_words(f"alice withdrew from game #{withdrawn.id}, a 3-point match with you, before its "
                             "first roll.")
        bob.send("Z")  # a key: the menu drawn again, the notice said once
        await bob.wait_words("Z is not on the menu.")
        assert "withdrew" not in bob.text
        bob.close()
        carol = await call(srv.port, cols=40, rows=24)
        await login(carol, "carol", "carol-pw", new=False)
        await carol.wait_words(f"The sysop removed game #{removed.id}, your 5-point match with alice.")
        assert all(len(line.rstrip()) <= 40 for line in carol.screen.display)
        carol.close()


async def test_a_player_at_the_menu_is_told_at_once(tmp_path):
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob, alice = await bob_named(srv.port)
        await bob.wait_words("1 game waiting for your move.")
        alice.send("W")
        await alice.wait_for("(Y/N)")
        alice.send("Y")
        await bob.wait_words("alice withdrew from game #1, a 3-point match with you, before its first roll.")
        await bob.wait_words("No game is waiting for your move.")
        alice.close()
        bob.close()


async def test_a_withdrawal_told_at_the_menu_stays_when_news_comes(tmp_path):
    """alice withdrew from game #1 with bob at the menu; seconds later another game came for bob
    and the menu drawn for it had dropped the withdrawal before he read it."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url) as srv:
        bob, alice = await bob_named(srv.port)
        await bob.wait_words("1 game waiting for your move.")
        alice.send("W")
        await alice.wait_for("(Y/N)")
        alice.send("Y")
        withdrawn = "alice withdrew from game #1, a 3-point match with you, before its first roll."
        await bob.wait_words(withdrawn)
        await bob.wait_words("No game is waiting for your move.")
        with Service(url) as svc:
            carol = svc.register("carol", "carol-pw").id
            svc.begin_game(carol, 5, Color.WHITE, "bob")
        said = " ".join((await bob.wait_words("1 game waiting for your move.")).split())
        assert withdrawn in said, said
        bob.send("Z")  # a key: gone
        await bob.wait_words("Z is not on the menu.")
        assert "withdrew" not in bob.text
        alice.close()
        bob.close()


async def test_a_game_leaving_a_list_on_screen_is_said(tmp_path):
    """bob had V)iew open, alice's open game #1 on line 1; she withdrew it, the list was drawn again
    with game #2 on line 1, and bob's '1' (read off the list a moment before) opened game #2."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        carol = svc.register("carol", "carol-pw").id
        svc.register("dave", "dave-pw")
        first = svc.begin_game(alice, 3, Color.WHITE).id
        second = svc.begin_game(carol, 5, Color.WHITE, "dave").id
    async with running_server(url) as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=False)
        bob.send("V")
        await bob.wait_words(f"#{second}")
        assert f"#{first}" in bob.text
        with Service(url) as svc:
            svc.withdraw_game(alice, first)
        said = " ".join((await bob.wait_words(f"Game #{first} left this list.")).split())
        assert f" 1) #{second}" in said or f"1) #{second}" in said, said
        bob.close()


async def test_the_play_list_follows_the_player_s_games(tmp_path):
    """P)lay's list was drawn once: a game whose turn came meanwhile was refused as 'not in this
    list', and one played in the player's other session stayed on it, opening on its board."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.register("carol", "carol-pw")
        dave = svc.register("dave", "dave-pw").id
        first = svc.begin_game(alice, 3, Color.WHITE, "bob").id
        second = svc.begin_game(alice, 3, Color.WHITE, "carol").id
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        a.send("P")
        await a.wait_words(f"#{second}")
        with Service(url, dice=ScriptedDice([1, 6])) as svc:
            third = svc.begin_game(dave, 3, Color.WHITE, "alice").id
            await a.wait_words(f"#{third}")  # her turn there too: listed
            svc.roll(alice, first, svc.game_version(first))  # alice 1, bob 6: bob's turn now
        said = " ".join((await a.wait_words(f"Game #{first} left this list.")).split())
        assert f") #{first}" not in said, said
        a.close()


async def test_a_game_gone_while_its_line_number_is_typed_is_said_on_the_list(tmp_path):
    """With '2' typed on V)iew (the list stops following while a number is typed) alice withdrew
    game #1 on that line; Enter went to the menu saying 'There is no game 1.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        carol = svc.register("carol", "carol-pw").id
        first = svc.begin_game(alice, 3, Color.WHITE).id
        second = svc.begin_game(carol, 3, Color.WHITE).id
    async with running_server(url) as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=False)
        bob.send("V")
        await bob.wait_words(f"#{second}")
        await bob.settle(0.5)  # the change feed's first look (before it, the game is not yet known to it)
        assert f"2) #{first}" in bob.text, bob.text
        bob.send("2")
        await bob.wait_for("Game: 2")
        with Service(url) as svc:
            svc.withdraw_game(alice, first)
        await bob.settle(0.5)
        bob.send("\r")
        said = " ".join((await bob.wait_words(f"Game #{first} left this list.")).split())
        assert "There is no game" not in said and f"1) #{second}" in said, said
        bob.close()


async def test_the_finished_matches_list_follows_a_match_finished_elsewhere(tmp_path):
    """alice had M)atches up; a match of hers finished in her other session, and '#2' typed was
    refused as not in this list."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        for _ in range(2):
            v = svc.begin_game(alice, 1, Color.WHITE, "bob")
            v = svc.roll(alice, v.id, v.version)
            if v.state.actor is not None and v.state.turn is Color.WHITE:
                v = svc.resign(alice, v.id, v.version, Win.SINGLE)
                v = svc.answer_resign(bob, v.id, v.version, True)
            else:
                v = svc.resign(bob, v.id, v.version, Win.SINGLE)
                v = svc.answer_resign(alice, v.id, v.version, True)
        second = svc.begin_game(alice, 1, Color.WHITE, "bob")
        second = svc.roll(alice, second.id, second.version)
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        a.send("M")
        await a.wait_words("#2")
        await a.settle(0.5)
        with Service(url) as svc:
            who = alice if second.state.turn is Color.WHITE else bob
            v = svc.resign(who, second.id, second.version, Win.SINGLE)
            svc.answer_resign(bob if who == alice else alice, v.id, v.version, True)
        await a.wait_words(f"#{second.id}")
        a.close()


async def test_the_beginner_of_a_named_match_is_not_told_the_named_player_joined(tmp_path):
    """alice began a match naming bob, went to the menu and back: 'bob joined your game.', where
    bob had done nothing (he was named; he never joined)."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob, alice = await bob_named(srv.port)
        bob.close()
        alice.send("Q")
        await alice.wait_for("Your choice")
        await open_board(alice, "#1")
        await alice.wait_for("roll for who starts")
        await alice.settle(0.3)
        assert "joined" not in " ".join(alice.text.split()), alice.text
        alice.close()


async def test_a_game_joined_as_its_withdrawal_is_answered_stays(tmp_path):
    """'Withdraw game #1? Nobody has joined it.' answered Y as carol joined: the game she had just
    joined went, alice was told 'Game #1 is withdrawn.' and carol 'There is no game 1.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url) as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        with Service(url) as svc:
            carol = svc.register("carol", "carol-pw").id
        await begin(alice, 1)
        alice.send("W")
        await alice.wait_words("Withdraw game #1? Nobody has joined it. (Y/N)")
        with Service(url) as svc:
            svc.join_game(carol, 1)
        alice.send("Y")  # before the board has heard of the join, or just after
        await alice.wait_words("carol joined your game.")
        await alice.settle(0.5)
        words = " ".join(alice.text.split())
        assert "is withdrawn" not in words and "does nothing here" not in words, words
        assert ("So the game was not withdrawn." in words
                or "Y came after the question had gone: nothing was done." in words), words
        alice.close()
    with Service(url) as svc:
        assert svc.game(1).black == "carol"


async def test_the_join_question_stays_said_beside_why_a_key_is_no_answer(tmp_path):
    """'X is not an answer: Y or N.' took the line of 'Game #1 needs a player. Join it? (Y/N)', and
    an Enter after it joined, Enter's answer shown nowhere."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 1)
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        bob.send("V")
        await bob.wait_for("Games in progress")
        bob.send("#1\r")
        await bob.wait_words("Game #1 needs a player. Join it? (Y/N) [Y]")
        bob.send("X")
        await bob.wait_words("X is not an answer: Y or N. Game #1 needs a player. Join it? (Y/N) [Y]")
        bob.send("\r")
        await bob.wait_words("Enter again for Yes; or Y or N. Game #1 needs a player. Join it? (Y/N) [Y]")
        bob.send("\r")
        await bob.wait_for("You joined game #1")
        alice.close()
        bob.close()


async def test_the_player_s_own_withdrawal_stays_said_when_only_the_count_changes(tmp_path):
    """'Game #2 is withdrawn.' beside the menu's prompt went when alice played game #1 in her other
    session: the count changed, no news came, and nothing was said in its place."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 5, Color.WHITE, "bob")
        svc.roll(alice, v.id, v.version)  # alice won the opening roll: 3-1 to play
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        await a.wait_words("1 game waiting for your move.")
        await begin(a, 1)
        a.send("W")
        await a.wait_for("(Y/N)")
        a.send("Y")
        await a.wait_words("Game #2 is withdrawn.")
        with Service(url) as svc:  # her other session plays game #1
            svc.submit_turn(alice, v.id, svc.game_version(v.id), "8/5 6/5")
        said = " ".join((await a.wait_words("No game is waiting for your move.")).split())
        await a.settle(0.5)
        assert "Game #2 is withdrawn." in " ".join(a.text.split()), said
        a.close()


async def test_enter_right_after_a_refused_key_at_a_board_question_asks_again(tmp_path):
    """'Withdraw game #1? ... (Y/N)', Z, then Enter: the Enter answered no at once, unseen, as the
    menu's questions no longer do."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 1)
        alice.send("W")
        await alice.wait_for("(Y/N)")
        alice.send("Z")
        # The refusal names no Enter: Enter right after it asks again.
        said = " ".join((await alice.wait_words("Y answers yes; N or Esc, no.")).split())
        assert "Enter, no" not in said and "Esc, Enter)" not in said, said
        alice.send("\r")
        await alice.wait_words("Enter again for no; or Y or N.")
        assert "stays open" not in alice.text
        alice.send("\r")
        await alice.wait_words("The game stays open for someone to join.")
        alice.close()


async def test_news_of_a_game_removed_between_its_listing_and_its_read_is_left_out(tmp_path):
    """A withdrawal in the instant between the menu listing a player's games with news and reading
    one ended that player's call: 'there is no game 1' (a loaded CI run caught it)."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        kept = svc.begin_game(alice, 3, Color.WHITE, "bob").id
        gone = svc.begin_game(alice, 5, Color.WHITE, "bob").id
        listed = svc.unread(bob)
        assert {u.game_id for u in listed} == {kept, gone}
        svc.withdraw_game(alice, gone, svc.game(gone, alice).version)

        class Listed:
            """The service, with the list read before the withdrawal."""

            async def unread(self, player_id: int) -> list[Unread]:
                return listed

            async def game_log(self, game_id: int, player_id: int | None) -> GameLog:
                return svc.game_log(game_id, player_id)

        news, _ = await gather(Listed(), bob)  # type: ignore[arg-type]
        assert [log.game.id for _, log, _ in news] == [kept]
