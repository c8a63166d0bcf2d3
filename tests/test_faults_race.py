"""Two callers act on the same game at the same instant, again and again: each time exactly one wins.

- two processes, each its own Service on one SQLite file, meet at a barrier and
  then submit the same turn (100 races) and roll the same dice (every turn);
- two live telnet sessions of the same player on a server subprocess press the
  same keys at once: both type a play and press Enter, both press P to roll.

The loser is told the game changed (GameChanged) and nothing of theirs is
recorded; the events still replay to the stored state.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import re

import pytest
from dbcheck import check_games, records
from rawtelnet import RawCaller, login
from serverproc import ServerProcess
from telnetplay import PASSWORDS, Table

from bgdoor.rules.game import Color, Phase
from bgdoor.service import GameChanged, Service
from bgdoor.ui.game import PRESS_A_KEY

pytestmark = pytest.mark.timeout(240)

RACES = 100
# The loser's notice: what the other session did, and that the play typed here was not sent (or,
# where nothing newer was to be read, that the game had changed); or, where the other session's
# play came while this one's keys were still arriving (a loaded machine splits them), that it
# closed the typed play and the keys after it did nothing.
LOST = ("look again", "acted on this game first", "was not sent", "after your typed play had closed")


def lost(screen: str) -> bool:
    """The loser's notice is on `screen`, read as words (the message wraps anywhere)."""
    words = " ".join(screen.split())
    return any(m in words for m in LOST)


def _racer(url: str, barrier, conn) -> None:
    svc = Service(url)
    while True:
        job = conn.recv()
        if job is None:
            break
        kind, player, game, version, play = job
        try:
            barrier.wait(10)
        except Exception:  # noqa: BLE001 - the other racer died; the parent notices
            pass
        try:
            view = svc.submit_turn(player, game, version, play) if kind == "play" else svc.roll(player, game, version)
            conn.send(("won", view.version))
        except GameChanged:
            conn.send(("GameChanged", None))
        except Exception as err:  # noqa: BLE001 - anything else fails the test
            conn.send((type(err).__name__, str(err)))
    svc.close()


def test_two_processes_race_the_same_turn_a_hundred_times(tmp_path):
    url = f"sqlite:///{tmp_path}/race.db"
    rng = random.Random(2)
    with Service(url) as svc:
        w, b = svc.enter_from_door("Racer White").id, svc.enter_from_door("Racer Black").id
        gid = svc.begin_game(w, 25, Color.WHITE, "Racer Black").id
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(2)
    pipes = [ctx.Pipe() for _ in range(2)]
    racers = [ctx.Process(target=_racer, args=(url, barrier, child)) for _, child in pipes]
    for p in racers:
        p.start()
    races = {"play": 0, "roll": 0}
    try:
        with Service(url) as svc:
            while races["play"] < RACES:
                view = svc.game(gid)
                st = view.state
                if st.over:
                    break
                who = w if st.actor is Color.WHITE else b
                plays = st.plays() if st.phase is Phase.MOVE else []
                if st.phase is Phase.OPENING:
                    svc.roll(w, gid, view.version)
                    continue
                if st.phase is Phase.MOVE and len(plays) < 2:
                    svc.submit_turn(who, gid, view.version, str(plays[0]) if plays else "")
                    continue
                kind = "roll" if st.phase is Phase.ROLL else "play"
                two = rng.sample(plays, 2) if kind == "play" else [None, None]
                before = records(svc)[gid]
                for (parent, _), play in zip(pipes, two, strict=True):
                    parent.send((kind, who, gid, view.version, str(play) if play else ""))
                results = [parent.recv() for parent, _ in pipes]
                outcome = sorted(r[0] for r in results)
                assert outcome == ["GameChanged", "won"], f"{kind} race {races[kind] + 1}: {results}"
                after = records(svc)[gid]
                assert after.version == before.version + 1
                new = after.events[len(before.events):]
                assert new and new[0][1] == kind and after.events[: len(before.events)] == before.events
                if kind == "play":
                    winner = 0 if results[0][0] == "won" else 1
                    assert new[0][2]["notation"] == str(two[winner])  # the winner's play, not the loser's
                races[kind] += 1
    finally:
        for parent, _ in pipes:
            parent.send(None)
        for p in racers:
            p.join(30)
    print(f"\ntwo processes: {races['play']} play races and {races['roll']} roll races, one winner each")
    assert races["play"] == RACES and races["roll"] >= RACES - 10
    assert check_games(url) == 1


def board_scores(text: str) -> list[int]:
    return sorted(int(n) for n in re.findall(r"Score (\d+)/", text))  # the panel's, not the news' "Score:"


async def clear_result(s: RawCaller, score: tuple[int, int]) -> None:
    """Once the screen shows the score after a game, the key that clears the result it holds."""
    text = await s.wait_until(lambda t: board_scores(t) == sorted(score), f"the score {score} on the board")
    if PRESS_A_KEY in text:
        s.send(" ")
        await s.wait_until(lambda t: PRESS_A_KEY not in t, "the result cleared")


async def test_two_telnet_sessions_race_the_same_keys(tmp_path):
    """Of two sessions of one player pressing the same keys, one acts and the other is told the game
    changed.  The match runs on after a game ends (100 races come to one game's end in about one
    run in twelve): a result then stays on the screens until a key, which the test presses."""
    url = f"sqlite:///{tmp_path}/race.db"
    srv = ServerProcess(tmp_path, url).start()
    table = Table(url, seed=8)
    twins: dict[str, RawCaller] = {}
    races = {"play": 0, "roll": 0}
    try:
        await table.seat(srv.port)
        for name in ("alice", "bob"):
            twin = twins[name] = await RawCaller.connect(srv.port)
            await login(twin, name, PASSWORDS[name], new=False)
            await table.to_board(twin)
        sessions = {name: (table.callers[name], twins[name]) for name in twins}
        game_no = first_game = table.db.game(table.game_id).state.game
        while races["play"] + races["roll"] < RACES:
            view = table.db.game(table.game_id)
            st = view.state
            assert not st.over
            if st.game != game_no:
                # A game ended: its result stays on a screen until a key (a P would only clear it).
                game_no = st.game
                for s in (*table.callers.values(), *twins.values()):
                    await clear_result(s, st.score)
            if st.phase is Phase.OPENING:
                name = "alice"
            else:
                assert st.actor is not None
                name = table.colors[st.actor]
            one, two = sessions[name]
            plays = st.plays() if st.phase is Phase.MOVE else []
            if st.phase is Phase.MOVE and len(plays) < 2:
                one.send("\r")  # the only play, or a pass: nothing to race
                await table.wait_version(view.version)
                continue
            kind = "play" if st.phase is Phase.MOVE else "roll"
            before = records(table.db)[table.game_id]
            if kind == "play":
                first, second = (str(p) for p in table.rng.sample(plays, 2))
                for s in (one, two):
                    s.send("M")
                await asyncio.gather(one.wait_for("Your play"), two.wait_for("Your play"))
                one.send(first + "\r")
                two.send(second + "\r")  # the same instant, as near as two sockets allow
            else:
                # Both screens must have caught up with the last move (the feed, not the test, tells them).
                await asyncio.gather(*(s.wait_for("P)lay or Enter: roll") for s in (one, two)))
                one.send("P")
                two.send("P")
            await table.wait_version(view.version)
            if kind == "play":
                # Exactly one session is told the game changed under it.
                waits = [
                    asyncio.ensure_future(s.wait_until(lambda t: lost(t), "the loser's notice"))
                    for s in (one, two)
                ]
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED, timeout=20)
                for w in waits:
                    w.cancel()
            await asyncio.gather(one.settle(0.1), two.settle(0.1))
            told = [lost(s.text) for s in (one, two)]
            # The loser is always told: its typed play was submitted and refused, or (its keys still
            # coming) closed by the news; a P that lands after the news of the winner's roll is
            # simply no longer a roll.
            expected = (1,) if kind == "play" else (0, 1)
            assert told.count(True) in expected, (
                f"{kind} race {races[kind] + 1}: notices {told}\n{one.text}\n{two.text}"
            )
            after = records(table.db)[table.game_id]
            assert after.version == before.version + 1, (
                f"{kind} race: the version moved {after.version - before.version}"
            )
            new = after.events[len(before.events) :]
            assert new[0][1] in (kind, "opening_roll")
            if kind == "play":
                winner = second if told[0] else first
                assert new[0][2]["notation"] == winner
            races[kind] += 1
        print(
            f"\ntwo telnet sessions: {races['play']} play races and {races['roll']} roll races, one winner each"
            f" ({game_no - first_game} games ended)"
        )
        assert races["play"] >= 30 and races["roll"] >= 30
        assert check_games(url) == 1
    finally:
        table.close()
        for t in twins.values():
            t.close()
        srv.kill()
