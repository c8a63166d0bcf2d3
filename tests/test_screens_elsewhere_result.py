"""A game decided in another of the player's games is told on the board they sit at."""

from __future__ import annotations

import asyncio

import menus
import pytest
from harness import Caller, call, login, running_server

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service


def alice_doubles_bob_in_a_second_game(url: str) -> tuple[int, int]:
    """Game A waits for its opening roll; in game B alice has doubled bob, who is to answer."""
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        here = svc.begin_game(alice, 3, Color.WHITE, "bob")
        there = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, there.id, there.version)  # alice 3, bob 1: alice starts
        view = svc.submit_turn(alice, view.id, view.version, "8/5 6/5")
        view = svc.roll(bob, view.id, view.version)
        view = svc.submit_turn(bob, view.id, view.version, "24/21 24/23")
        svc.double(alice, view.id, view.version)
    return here.id, there.id


async def board_of(port: int, handle: str, game: int, shown: str = "roll for who starts",
                   size: tuple[int, int] = (80, 24)) -> Caller:
    """`handle` (password handle-pw) on a terminal of `size`, logged in once the change feed's
    first look is done, at the board of `game` (past the size page under 80 columns), once it
    shows `shown` and has settled."""
    c = await call(port, cols=size[0], rows=size[1])
    await login(c, handle, f"{handle}-pw", new=False)
    await asyncio.sleep(1.0)
    await menus.open_game(c, f"#{game}")
    if size[0] < 80:
        await c.wait_words("Enter goes on anyway")
        c.send("\r")
    await c.wait_words(shown)
    await c.settle(0.5)
    return c


@pytest.mark.parametrize("size", [(80, 24), (40, 24)])
async def test_a_double_dropped_in_another_game_is_told_on_the_board(tmp_path, size):
    """alice sat at game #1 while bob dropped her double in game #2: the board said only 'Your
    turn in game #2 too' (the next game's opening roll is either player's), which read as if her
    double there still waited; nor did S)ound ring for the point won."""
    url = f"sqlite:///{tmp_path}/g.db"
    here, there = alice_doubles_bob_in_a_second_game(url)
    async with running_server(url) as srv:
        c = await board_of(srv.port, "alice", here, size=size)
        rung = c.received.count(b"\x07")
        with Service(url) as svc:
            svc.drop(2, there, svc.game(there).version)  # bob, the second registered
        await c.wait_words(f"Game #{there}: You win a single game on a drop, 1 point.")
        await c.wait_words(f"Your turn in game #{there} too")
        await c.settle(0.3)
        assert c.received.count(b"\x07") > rung, "S)ound on rings for the point won"
        for line in c.screen.display:
            assert len(line.rstrip()) <= size[0]
        c.close()


async def test_a_result_told_on_the_board_is_not_the_menu_s_news_after_it(tmp_path):
    """bob's drop in game #2, told on alice's board of game #1, stayed the newest line of her
    menu's news on every visit after (49 in one tester's run), until she opened N)ews: the
    board had told it, as that game's own board would, which counts it read."""
    url = f"sqlite:///{tmp_path}/g.db"
    here, there = alice_doubles_bob_in_a_second_game(url)
    async with running_server(url) as srv:
        c = await board_of(srv.port, "alice", here)
        with Service(url) as svc:
            svc.drop(2, there, svc.game(there).version)
        await c.wait_words(f"Game #{there}: You win a single game on a drop, 1 point.")
        await c.settle(0.5)
        c.close()
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        await c.settle(0.5)
        assert "on a drop" not in c.text, c.text
        c.close()


async def test_a_match_lost_in_another_game_is_told_without_its_ratings(tmp_path):
    """The match's end in another game, told on the board at 40 columns: its result and score,
    not cut for the ratings (the menu and the finished matches say those)."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        here = svc.begin_game(alice, 3, Color.WHITE, "bob")
        there = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, there.id, there.version)
        view = svc.submit_turn(alice, view.id, view.version, "8/5 6/5")
        view = svc.roll(bob, view.id, view.version)
        view = svc.submit_turn(bob, view.id, view.version, "24/21 24/23")
        view = svc.resign(alice, view.id, view.version, Win.SINGLE)
    async with running_server(url) as srv:
        c = await board_of(srv.port, "alice", here.id, size=(40, 24))
        with Service(url) as svc:
            svc.answer_resign(bob, there.id, svc.game(there.id).version, True)
        await c.wait_words(f"Game #{there.id}: bob wins a single game by resignation, 1 point, and the match 1-0.")
        assert "Ratings" not in c.text
        assert "Your turn in game" not in c.text  # the match is over: nothing waits there
        await c.settle(0.5)
        c.close()
        # Still the menu's news, with the ratings the board left out (a game's result is not).
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await c.wait_for("Your choice")
        await c.wait_words(f"#{there.id}: bob wins a single game by resignation")
        c.close()


async def test_an_offer_in_another_game_is_told_and_rung_as_an_answer_waiting(tmp_path):
    """alice waited at game #1's board (bob to play): bob doubled her in game #2, and the board
    said 'Your turn in game #2 too' and rang nothing (it rang only on her own turn here, and as
    that turn); a resignation bob offered in game #3, which already waited for her roll, was not
    told at all."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        games = []
        for turns in (1, 1, 2):
            v = svc.begin_game(alice, 3, Color.WHITE, "bob")
            v = svc.roll(alice, v.id, v.version)  # alice 3, bob 1
            v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
            if turns == 2:
                v = svc.roll(bob, v.id, v.version)
                v = svc.submit_turn(bob, v.id, v.version, "8/5 6/5")
            games.append(v.id)
    here, doubled, resigned = games
    async with running_server(url) as srv:
        c = await board_of(srv.port, "alice", here, "bob to play")
        rung = c.received.count(b"\x07")
        with Service(url) as svc:
            svc.double(bob, doubled, svc.game_version(doubled))
        await c.wait_words(f"Your answer in game #{doubled} too")
        await c.settle(0.3)
        assert c.received.count(b"\x07") == rung + 1, "an offer in another game rings"
        with Service(url) as svc:
            svc.resign(bob, resigned, svc.game_version(resigned), Win.SINGLE)
        await c.wait_words(f"Your answer in games #{doubled}, #{resigned} too")
        await c.settle(0.3)
        assert c.received.count(b"\x07") == rung + 2, "so does a resignation in a game that waited already"
        c.close()


def test_the_notice_of_other_games_tells_answers_from_turns():
    """A resignation offered in a game named already as a turn ('Your turn in games #14, #15
    too') left the words as they were; only the bell said something had come."""
    from bgdoor.ui.game import elsewhere_text  # noqa: PLC0415 - the words alone

    assert elsewhere_text([14, 15], answers=frozenset({15})) == \
        "Your turn in game #14, your answer in game #15 too: Q, P)lay, then #14 or #15 and Enter."
    assert elsewhere_text([14, 15], answers=frozenset({14, 15}), brief=True) == \
        "Your answer in games #14, #15 too: Q, P)lay."
    assert elsewhere_text([8], straight=True, answers=frozenset({8})) == \
        "Your answer in game #8 too: Q, then P)lay, takes you there."
    assert elsewhere_text([1, 2, 3, 4, 5], answers=frozenset({2, 4})) == \
        "Your turn in 5 other games (2 to answer) too: Q, then P)lay lists them."
    assert elsewhere_text([1, 2, 3, 4], answers=frozenset({1, 2, 3, 4})) == \
        "Your answer in 4 other games too: Q, then P)lay lists them."


async def test_an_offer_in_a_game_named_already_changes_the_notice(tmp_path):
    """bob's turn in games #2 and #3 named; carol resigns in #3 (on bob's turn there): the lines
    stayed 'Your turn in games #2, #3 too'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        games = []
        for _ in range(3):
            v = svc.begin_game(alice, 3, Color.WHITE, "bob")
            v = svc.roll(alice, v.id, v.version)  # alice 3, bob 1
            games.append(v)
    here, second, third = games
    async with running_server(url) as srv:
        c = await board_of(srv.port, "bob", here.id, "alice to play")
        with Service(url) as svc:
            for v in (second, third):
                svc.submit_turn(alice, v.id, svc.game_version(v.id), "8/5 6/5")
        await c.wait_words(f"Your turn in games #{second.id}, #{third.id} too")
        with Service(url) as svc:
            svc.resign(alice, third.id, svc.game_version(third.id), Win.SINGLE)
        await c.wait_words(f"Your turn in game #{second.id}, your answer in game #{third.id} too")
        c.close()


async def test_a_forfeit_in_another_game_says_who_and_why(tmp_path):
    """carol, alice's opponent in another match, deleted by the sysop: alice's board said 'Game #2:
    You win by forfeit, and the match 3-0.', not who forfeited nor why."""
    from bgdoor.service.sysop import Sysop  # noqa: PLC0415 - the sysop's own act

    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.register("carol", "carol-pw")
        here = svc.begin_game(alice, 3, Color.WHITE, "bob").id
        v = svc.begin_game(alice, 3, Color.WHITE, "carol")
        v = svc.roll(alice, v.id, v.version)
        svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
    async with running_server(url) as srv:
        c = await board_of(srv.port, "alice", here)
        with Service(url) as svc:
            Sysop(svc).delete_player("carol", force=True)
        said = " ".join((await c.wait_words("You win by forfeit")).split())
        assert f"Game #{v.id}: " in said and "forfeits the match: the sysop closed the account. You win by forfeit" \
            in said, said
        c.close()
