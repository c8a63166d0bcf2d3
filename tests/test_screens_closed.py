"""A player the sysop deletes while on: the call ends, saying why (it went on as "(deleted)",
beginning games that nobody could ever finish)."""

from __future__ import annotations

import asyncio

import menus
import pytest
from harness import call, login, running_server

from bgdoor.rules.game import Color
from bgdoor.service import Service
from bgdoor.service.sysop import Sysop

pytestmark = pytest.mark.timeout(120)

CLOSED = "The sysop has closed your account, so this call ends."


def words(text: str) -> str:
    return " ".join(text.split())


async def test_a_player_deleted_at_the_menu_is_told_and_the_call_ends(tmp_path):
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url) as srv:
        bob = await call(srv.port, cols=40, rows=24)
        await login(bob, "bob", "bob-pw", new=True)
        await bob.wait_words("Welcome, bob.")
        with Service(url) as svc:
            Sysop(svc).delete_player("bob")  # no games: the row goes
        for key, then in (("B", "Match length"), ("\r", "Play as"), ("W", "Opponent")):
            bob.send(key)
            await bob.wait_for(then)
        bob.send("O")  # an open seat: refused, and the call ends
        said = words(await bob.wait_words(CLOSED))
        assert "Game #1" not in said, said
        assert all(len(line.rstrip()) <= 40 for line in bob.screen.display)
        assert await bob.wait_closed(10)
        with Service(url) as svc:
            assert svc.games_in_progress() == []


async def test_a_player_deleted_at_the_board_is_told_the_forfeit_then_the_call_ends(tmp_path):
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("alice", "alice-pw")
        bob = svc.register("bob", "bob-pw").id
        svc.begin_game(bob, 3, Color.WHITE, "alice")
    async with running_server(url) as srv:
        b = await call(srv.port)
        await login(b, "bob", "bob-pw", new=False)
        await menus.open_board(b)  # at once: the change feed may not have looked yet
        with Service(url) as svc:
            Sysop(svc).delete_player("bob", force=True)  # the match is forfeited: bob is kept as "(deleted)"
        said = words(await b.wait_words("You forfeit the match: the sysop closed the account."))
        assert "renamed you" not in said, said  # it had said 'The sysop renamed you to (deleted).'
        b.send(" ")
        b.send("Q")  # to the menu, where the greeting had been 'Welcome, (deleted).'
        said = words(await b.wait_words(CLOSED))
        assert "Welcome" not in said, said
        assert await b.wait_closed(10)
        with Service(url) as svc:
            assert [g.status for g in svc.games_in_progress()] == []


async def test_the_opponent_of_a_player_deleted_is_told_who_it_was(tmp_path):
    """bob deleted with his match forfeited: alice's board would have said '(deleted) forfeits
    the match' (or, with the rename notice, 'The sysop renamed bob to (deleted).'); and, by the
    timing of the process's name cache, 'bob forfeits the match' under bob's name, or the other."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.begin_game(alice, 3, Color.WHITE, "bob")
    async with running_server(url) as srv:
        a = await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        await menus.open_board(a)
        await asyncio.sleep(0.5)
        with Service(url) as svc:
            Sysop(svc).delete_player("bob", force=True)
        said = words(await a.wait_words("forfeits the match: the sysop closed the account."))
        assert "renamed" not in said, said
        assert "bob now shows as (deleted). (deleted) forfeits the match" in said, said
        a.close()
