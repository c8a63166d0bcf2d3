"""kill -9 of the server and of a door, mid-game: after a roll, mid-commit, and at random moments.

After each restart: every turn that was committed is still there, the dice a
caller saw are the dice the game has, a roll is not drawn again, and every
game's events replay to the state its row stores (tests/dbcheck.py).

The mid-commit kills use the pause-before-commit hook in tests/faulthook/: the
child process gets that folder on its PYTHONPATH and BGDOOR_TEST_PAUSE_BEFORE_COMMIT
naming a file; while the file exists, each write transaction waits after its last
statement, before COMMIT, and logs that it does.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path

import pytest
from dbcheck import check_games, is_prefix, records, sqlite_integrity
from doorharness import PtyDoor, door32
from serverproc import ServerProcess
from telnetplay import Table, shows_dice

from bgdoor.rules.game import Color, Phase
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(240)


FAULT_HOOK = Path(__file__).resolve().parent / "faulthook"


def pause_hook(pause: Path) -> dict[str, str]:
    """The environment that gives a bgdoor child process the pause-before-commit hook."""
    path = os.pathsep.join(p for p in (str(FAULT_HOOK), os.environ.get("PYTHONPATH", "")) if p)
    return {"PYTHONPATH": path, "BGDOOR_TEST_PAUSE_BEFORE_COMMIT": str(pause)}


def wait_file_text(path: Path, needle: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and needle in path.read_text(errors="replace"):
            return
        time.sleep(0.02)
    raise AssertionError(f"{needle!r} never appeared in {path}")


def assert_whole(url: str, db_file: Path) -> None:
    assert sqlite_integrity(str(db_file)) == "ok"
    assert check_games(url) >= 1


async def test_server_killed_after_a_roll_and_mid_commit(tmp_path):
    db_file = tmp_path / "bg.db"
    url = f"sqlite:///{db_file}"
    pause = tmp_path / "pause"
    srv = ServerProcess(tmp_path, url, env=pause_hook(pause)).start()
    table = Table(url, seed=3)
    try:
        await table.seat(srv.port)
        for _ in range(6):
            await table.step()
        roller = await table.until_roll_phase()

        # Roll, see the dice, and pull the plug.
        kind, shown = await table.step()
        assert kind == "roll" and shown is not None
        before = records(url)[table.game_id]
        srv.kill()
        srv.start()
        assert_whole(url, db_file)
        after = records(url)[table.game_id]
        assert after == before
        assert table.db.game(table.game_id).state.dice == shown
        await table.rejoin(srv.port)
        caller = table.caller(roller)
        await caller.wait_until(shows_dice(shown), f"the same dice {shown}")
        caller.send("P")  # no second roll
        await caller.settle()
        assert records(url)[table.game_id] == before

        # Submit the turn, and kill the server while it is committing.
        play = table.choose()
        if play:
            caller.send("M")
            await caller.wait_for("Your play")
        pause.write_text("60")
        caller.send(play + "\r" if play else "\r")
        wait_file_text(srv.stderr_path, "s before commit")
        srv.kill()
        pause.unlink()
        srv.start()
        assert_whole(url, db_file)
        assert records(url)[table.game_id] == before  # half a commit is no commit
        await table.rejoin(srv.port)
        caller = table.caller(roller)
        await caller.wait_until(shows_dice(shown), f"the same dice {shown} after the lost commit")
        await table.send_play(caller, play)  # the player simply plays again
        await table.wait_version(before.version)
        after = records(url)[table.game_id]
        assert is_prefix(before, after) and after.events[-1][1] == "play"
        assert_whole(url, db_file)
    finally:
        table.close()
        srv.kill()


async def test_server_killed_at_random_moments_while_turns_stream(tmp_path):
    db_file = tmp_path / "bg.db"
    url = f"sqlite:///{db_file}"
    rng = random.Random(9)
    srv = ServerProcess(tmp_path, url).start()
    table = Table(url, seed=5)
    committed = None  # what the test saw committed before each kill
    rolls_seen: list[tuple[int, tuple[int, int]]] = []  # (event count, dice) shown on a screen
    kills = 0
    try:
        await table.seat(srv.port)
        for cycle in range(6):
            if cycle:
                srv.start()
                assert_whole(url, db_file)
                now = records(url)[table.game_id]
                assert committed is not None and is_prefix(committed, now), "a committed turn was lost"
                for count, dice in rolls_seen:
                    seq, kind, payload = now.events[count - 1]
                    assert kind == "roll" and tuple(payload["dice"]) == dice, (
                        f"the roll at seq {seq} was {payload}, the screen showed {dice}"
                    )
                await table.rejoin(srv.port)

            async def stream() -> None:
                nonlocal committed
                while True:
                    kind, dice = await table.step()
                    committed = records(url)[table.game_id]
                    if kind == "roll" and dice is not None:
                        rolls_seen.append((len(committed.events), dice))

            task = asyncio.ensure_future(stream())
            await asyncio.sleep(rng.uniform(0.3, 1.5))
            srv.kill()  # at whatever the stream was doing
            kills += 1
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, AssertionError, ConnectionError):
                pass
            committed = committed or records(url)[table.game_id]
        srv.start()
        assert_whole(url, db_file)
        final = records(url)[table.game_id]
        assert committed is not None and is_prefix(committed, final)
        print(
            f"\nkilled -9 {kills} times mid-stream: {len(final.events)} events kept, "
            f"{len(rolls_seen)} rolls seen on screens, all still there"
        )
        assert kills == 6 and len(final.events) > 10 and rolls_seen
    finally:
        table.close()
        srv.kill()


def test_door_killed_after_a_roll_and_mid_commit(tmp_path, monkeypatch):
    db_file = tmp_path / "bg.db"
    url = f"sqlite:///{db_file}"
    pause = tmp_path / "pause"
    for name, value in pause_hook(pause).items():
        monkeypatch.setenv(name, value)
    drop = door32(tmp_path / "DOOR32.SYS", "Zed")
    log = tmp_path / "door.log"
    rng = random.Random(4)
    with Service(url) as svc:
        zed, amy = svc.enter_from_door("Zed").id, svc.enter_from_door("Amy").id
        gid = svc.begin_game(zed, 25, Color.WHITE, "Amy").id
        # Play (as both, through the service) until Zed must roll.
        while True:
            view = svc.game(gid)
            st = view.state
            if st.phase is Phase.ROLL and st.actor is Color.WHITE and st.game == 1 and view.version > 4:
                break
            who = zed if st.actor is Color.WHITE else amy
            if st.phase in (Phase.OPENING, Phase.ROLL):
                svc.roll(who, gid, view.version)
            else:
                plays = st.plays()
                svc.submit_turn(who, gid, view.version, str(rng.choice(plays)) if plays else "")
        before_roll = svc.game(gid).version

    door = PtyDoor(drop, url, log)
    try:
        door.wait_for("Your choice")
        door.enter_game("Score")
        door.send("P")
        with Service(url) as svc:
            end = time.monotonic() + 30
            while svc.game_version(gid) == before_roll and time.monotonic() < end:
                time.sleep(0.02)
            dice = svc.game(gid).state.dice
        assert dice is not None
        door.wait_for(f"Your turn {max(dice)}-{min(dice)}")
        door.settle(0.3)
        before = records(url)[gid]
        door.proc.kill()
        door.wait_exit()
        door.close()
        assert sqlite_integrity(str(db_file)) == "ok" and check_games(url) == 1
        assert records(url)[gid] == before

        door = PtyDoor(drop, url, log)
        door.wait_for("Your choice")
        door.enter_game(f"Your turn {max(dice)}-{min(dice)}")
        with Service(url) as svc:
            plays = svc.game(gid).state.plays()
        play = str(plays[0]) if len(plays) > 1 else ""
        if play:
            door.send("M")
            door.wait_for("Your play")
        pause.write_text("60")
        door.send(play + "\r" if play else "\r")
        wait_file_text(log, "s before commit")
        door.proc.kill()
        door.wait_exit()
        door.close()
        pause.unlink()
        assert sqlite_integrity(str(db_file)) == "ok" and check_games(url) == 1
        assert records(url)[gid] == before  # not committed, so not there

        door = PtyDoor(drop, url, log)
        door.wait_for("Your choice")
        door.enter_game(f"Your turn {max(dice)}-{min(dice)}")
        if play:
            door.send("M")
            door.wait_for("Your play")
        door.send(play + "\r" if play else "\r")
        with Service(url) as svc:
            end = time.monotonic() + 30
            while svc.game_version(gid) == before.version and time.monotonic() < end:
                time.sleep(0.02)
        after = records(url)[gid]
        assert (
            is_prefix(before, after)
            and after.version == before.version + 1
            and after.events[len(before.events)][1] == "play"
        )
        assert check_games(url) == 1
    finally:
        door.close()
