"""Moves left half played come back after a resignation offered mid-turn is refused while their
player is away, as the board promised."""

from __future__ import annotations

import asyncio
from pathlib import Path

import menus
from harness import call, login, running_server
from menus import open_board, open_game
from rawtelnet import RawCaller
from test_screens_roll_words import board_at_40_columns, bob_to_roll

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service
from bgdoor.service.types import GameView


def moved_offered_refused(url: str) -> tuple[GameView, GameView]:
    """alice starts a 3-point match with bob with 4-2, moves 13/9, offers to resign and leaves (the
    moves kept as the board keeps them on Q); bob refuses.  (alice's turn as she left it, the game
    after the refusal)"""
    with Service(url, dice=ScriptedDice([4, 2])) as svc:  # alice 4, bob 2: alice starts with 4-2
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        svc.save_draft(alice, view.id, view.version, ((13, 9),), None)
        offered = svc.resign(alice, view.id, view.version, Win.SINGLE)
        return view, svc.answer_resign(bob, view.id, offered.version, accept=False)


async def test_moves_come_back_after_an_offer_refused_while_away(tmp_path):
    """alice moved 13/9, offered to resign and left (or hung up); bob refused; alice came back to
    'Your moves so far (13/9) are not kept: the game changed since you left them.', after the
    board had said they would come back if the offer was refused."""
    url = f"sqlite:///{tmp_path}/g.db"
    view, refused = moved_offered_refused(url)
    assert refused.state.dice == view.state.dice and refused.state.position == view.state.position
    async with running_server(url) as srv:
        c = await call(srv.port)
        try:
            await login(c, "alice", "alice-pw", new=False)
            await open_board(c)
            said = " ".join((await c.wait_words("Your moves so far")).split())
            assert "bob refuses the resignation" in said, said
            assert "Your moves so far are back: 13/9; the 2 to play." in said, said
            assert said.count("Pips 163") == 1, said  # alice's checker on 9, bob's 167 untouched
        finally:
            c.close()


async def at_40_columns(port: int, handle: str) -> str:
    """`handle` opens their game at 40 columns; the board's words."""
    c = await call(port, cols=40, rows=24)
    try:
        await login(c, handle, f"{handle}-pw", new=False)
        await open_game(c)
        await board_at_40_columns(c)
        await c.settle(0.3)
        assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        return " ".join(c.text.split())
    finally:
        c.close()


def alice_opened_and_left(folder: Path, opening: tuple[int, int], moves: tuple[tuple[int, int], ...]) -> str:
    """alice starts a 3-point match against bob with the `opening` roll (hers first, the
    higher) and leaves `moves` of it made; the database."""
    url = f"sqlite:///{folder}/g.db"
    with Service(url, dice=ScriptedDice(list(opening))) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        svc.save_draft(alice, view.id, view.version, moves, None)
    return url


async def test_moves_kept_at_40_columns_say_what_is_left_not_the_roll_again(tmp_path):
    """'... Your turn 5-4. Your moves so far are as you... (? shows all)': the roll, one die of it
    played already, pushed what was left to play off the screen."""
    url = alice_opened_and_left(tmp_path, (5, 4), ((13, 9),))
    async with running_server(url) as srv:
        said = await at_40_columns(srv.port, "alice")
    # The roll beside them (the panel, and a die, are past the edge): not 'Your turn 5-4' first.
    assert "Your moves so far with 5-4 are as you left them: 13/9; the 5 to play." in said, said
    assert "Your turn 5-4" not in said, said


async def test_a_roll_with_no_play_is_not_said_twice_coming_back_at_40_columns(tmp_path):
    """'You rolled 5-2 and cannot move. Enter passes the turn. Your turn 5-2.'"""
    url, dice = bob_to_roll(tmp_path, lambda dice, plays: not plays)
    with Service(url, dice=ScriptedDice(list(dice))) as svc:
        bob = svc.login("bob", "bob-pw").id
        view = svc.game(1, bob)
        svc.roll(bob, view.id, view.version)
    async with running_server(url) as srv:
        said = await at_40_columns(srv.port, "bob")
    roll = f"{max(dice)}-{min(dice)}"
    assert f"You rolled {roll} and cannot move." in said, said
    assert f"Your turn {roll}" not in said, said


def after_a_tie_moves_kept(folder: Path) -> str:
    """A tie at 1, then bob starts with 6-3 and plays 13/7 8/5; alice rolls 3-2 and leaves 13/10
    made.  The database."""
    url = f"sqlite:///{folder}/g.db"
    with Service(url, dice=ScriptedDice([1, 1, 3, 6, 3, 2])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.submit_turn(bob, view.id, view.version, "13/7 8/5")
        view = svc.roll(alice, view.id, view.version)
        svc.save_draft(alice, view.id, view.version, ((13, 10),), None)
    return url


async def test_moves_kept_at_40_columns_are_not_cut_off_by_the_news_before_them(tmp_path):
    """'Opening roll, after a tie at 1: alice 3, bob 6. bob starts with 6-3, playing... (? shows
    all)': the moves kept after it, and the 2 left to play, were only on the ? page."""
    url = after_a_tie_moves_kept(tmp_path)
    async with running_server(url) as srv:
        said = await at_40_columns(srv.port, "alice")
    assert "Your moves so far with 3-2 are as you left them: 13/10; the 2 to play." in said, said
    assert "? shows all" not in said, said


async def test_an_offer_refused_is_not_told_again_as_if_it_stood(tmp_path):
    """alice refused bob's offer to resign, went to the menu and back: the board said 'bob offers
    to resign, giving a gammon (2 points).' over the move keys, as if it waited for an answer."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([6, 5])) as svc:  # alice 6, bob 5: alice starts with 6-5
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.resign(bob, view.id, view.version, Win.GAMMON)
        svc.answer_resign(alice, view.id, view.version, accept=False)
        svc.mark_read(alice, view.id, len(svc.game_log(view.id, alice).events))  # read on the board
    async with running_server(url) as srv:
        c = await call(srv.port)
        try:
            await login(c, "alice", "alice-pw", new=False)
            await open_board(c)
            await c.settle(0.3)
            said = " ".join(c.text.split())
            assert "offers to resign" not in said, said
            assert "Your turn 6-5" in said, said
            # What became of the offer, on lines that had been blank at 80 columns.
            assert "You refuse the resignation; play goes on." in said, said
        finally:
            c.close()


async def test_moves_kept_stay_whole_when_the_window_narrows_to_40_columns(tmp_path):
    """Come back at 80 columns to the news and the moves kept, then narrow the window: the message
    laid out for 80 was cut to '? shows all' at 40, the moves kept and what was left to play with
    it; arriving at 40, the news gives way to them."""
    url = after_a_tie_moves_kept(tmp_path)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        try:
            await menus.login(c, "alice", "alice-pw", new=False)
            await open_board(c)
            await c.wait_words("Your moves so far are as you left them: 13/10; the 2 to play.")
            assert "bob starts with 6-3" in " ".join(c.text.split())  # both fit at 80 columns
            c.send_size(40, 24)
            await c.wait_for("Enter goes on anyway")
            c.send("\r")
            await c.wait_for("?)help")
            await c.settle(0.3)
            said = " ".join(c.text.split())
            assert "Your moves so far are as you left them: 13/10; the 2 to play." in said, said
            assert "? shows all" not in said, said
            c.send_size(80, 25)  # and back at 80, the news again
            await c.wait_until(lambda t: "bob starts with 6-3" in " ".join(t.split()), "the news again")
            assert "Your moves so far are as you left them: 13/10; the 2 to play." in " ".join(c.text.split())
        finally:
            c.close()


async def test_a_notice_of_another_game_keeps_what_is_left_to_play_at_40_columns(tmp_path):
    """At 40 columns 'Your moves so far are back: 13/9; the 2 to play.' gave way to 'Your turn in
    game #2 too: ...', and nothing on the screen said a 2 was left (the 4 showing was played)."""
    url = f"sqlite:///{tmp_path}/g.db"
    bob = moved_offered_refused(url)[1].black_id
    assert bob is not None
    async with running_server(url) as srv:
        c = await call(srv.port, cols=40, rows=24)
        try:
            await login(c, "alice", "alice-pw", new=False)
            await asyncio.sleep(1.0)  # the change feed's first look (every unfinished game) is done
            await open_game(c)
            await board_at_40_columns(c)
            await c.wait_words("the 2 to play")
            with Service(url, dice=ScriptedDice([1, 3])) as svc:
                second = svc.begin_game(bob, 3, Color.WHITE, "alice")
                svc.roll(bob, second.id, second.version)  # bob 1, alice 3: alice starts game 2
            said = " ".join((await c.wait_words(f"Your turn in game #{second.id} too")).split())
            assert "the 2 to play" in said.lower(), said
            assert "(? shows all)" not in said, said
            assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        finally:
            c.close()


async def test_a_turn_all_played_and_kept_says_its_roll_at_40_columns(tmp_path):
    """dave moved 13/9 with his opening 3-1, hung up, and came back at 40 columns: 'Your moves so
    far are as you left them: 13/9. Enter sends the turn.', the roll nowhere (the panel and the
    second die past the edge, the opening roll's line gone)."""
    url = alice_opened_and_left(tmp_path, (3, 1), ((13, 10), (10, 9)))
    async with running_server(url) as srv:
        said = await at_40_columns(srv.port, "alice")
    assert "Your moves so far with 3-1 are as you left them: 13/9. Enter sends the turn." in said, said
