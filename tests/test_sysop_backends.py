"""The sysop operations on each database bgdoor runs on: SQLite file, in-memory SQLite, PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_sysop_support import World, check_record, exported, populate, scripted

from bgdoor.rules.game import Color
from bgdoor.service import HandleTaken, NotFound, Service
from bgdoor.service.sysop import DELETED_NAME, PlayerInGames, Sysop


@pytest.fixture
def door(db_url: str) -> Iterator[tuple[Service, World]]:
    dice, clock, rng = scripted()
    with Service(db_url, dice=dice, clock=clock) as svc:
        yield svc, populate(svc, clock, rng)


def test_lists_and_record(door: tuple[Service, World]) -> None:
    svc, world = door
    sysop = Sysop(svc)
    assert [p.handle for p in sysop.players()] == ["alice", "bob", "carol", "Computer", "dave", "erin"]
    assert [g.id for g in sysop.games(stale_days=10)] == [world.waiting, world.stale]
    assert [g.id for g in sysop.games(status="finished", player="Carol")] == list(reversed(world.quick))
    record = sysop.game(world.match)
    assert record.winner == "alice" and record.events[-1].text == "white wins the match"
    with pytest.raises(NotFound):
        sysop.game(999)
    with pytest.raises(NotFound):
        sysop.games(player="nobody")


def test_changes(door: tuple[Service, World]) -> None:
    svc, world = door
    sysop = Sysop(svc)
    with pytest.raises(HandleTaken):
        sysop.rename("carol", "ALICE")
    assert sysop.rename("carol", "Caroline") == "player carol (player 3) renamed Caroline\n" + (
        "Caroline plays through the BBS door as 'carol' (in any case), and keeps doing so under the new handle"
    )
    assert svc.game(world.stale).white == "Caroline"  # this process sees the new handle at once

    with pytest.raises(PlayerInGames):
        sysop.delete_player("dave")
    said = sysop.delete_player("dave", force=True)
    assert said.splitlines()[-1].startswith("player dave (player 4) deleted: the handle is free again")
    for game_id, winner in ((world.stale, Color.WHITE), (world.recent, Color.WHITE)):
        view = svc.game(game_id)
        assert view.status == "abandoned" and view.state.winner is winner and view.black == DELETED_NAME
        check_record(svc, game_id)
    assert svc.enter_from_door("dave").id != 4
    assert "dave" in [p.handle for p in sysop.players()] and DELETED_NAME not in [p.handle for p in sysop.players()]

    said = sysop.delete_game(world.match)
    assert said.splitlines()[1].startswith("its 2 rating-history entries deleted")
    with pytest.raises(NotFound):
        svc.game(world.match)

    password = sysop.set_password("bob").splitlines()[-1].split(": ")[1]
    assert svc.login("bob", password).handle == "bob"


def test_forfeit_stale_and_export(door: tuple[Service, World]) -> None:
    svc, world = door
    sysop = Sysop(svc)
    assert [g.id for g in sysop.stale_games(10)] == [world.stale]
    said = sysop.forfeit_stale(10)
    assert said.startswith(f"game {world.stale} forfeited by carol (no move for 10 days): dave wins the match 3-0")
    assert sysop.stale_games(10) == [] and sysop.forfeit_stale(10) == ""
    text = exported(sysop, world.stale)
    assert text.startswith('; [EventDate "')  # the day the match began
    assert "\n; carol forfeited the match in game 1 (no move in time)\n" in text
    assert " carol : 0" in text and "Wins 3 points and the match" in text
