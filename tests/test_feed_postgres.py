"""Two `bgdoor serve` processes on one (throwaway) PostgreSQL database: a game played across them.

Alice calls server 1 and Bob calls server 2; every roll and move one of them makes shows on the
other's screen, with no key pressed there, through LISTEN/NOTIFY.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path

import pytest
from rawtelnet import RawCaller, login
from serverproc import ServerProcess

from bgdoor.rules.game import Color, Phase
from bgdoor.rules.moves import legal_plays
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(240)

LIMIT = 0.5  # seconds from one caller's key to the other's screen


async def test_a_game_across_two_servers_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    with Service(pg_url) as svc:
        alice = svc.register("alice", "alice-pw")
        svc.register("bob", "bob-pw-1")
        game = svc.begin_game(alice.id, 3, Color.WHITE, "bob")
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    servers = [ServerProcess(tmp_path / "one", pg_url).start(), ServerProcess(tmp_path / "two", pg_url).start()]
    callers: dict[Color, RawCaller] = {}
    names = {Color.WHITE: "alice", Color.BLACK: "bob"}
    seen: list[tuple[str, float]] = []
    db = Service(pg_url)
    try:
        callers[Color.WHITE] = await RawCaller.connect(servers[0].port)
        callers[Color.BLACK] = await RawCaller.connect(servers[1].port)
        await login(callers[Color.WHITE], "alice", "alice-pw", new=False)
        await login(callers[Color.BLACK], "bob", "bob-pw-1", new=False)
        for c in callers.values():
            c.send("P")
            await c.wait_for("roll for who starts")
        callers[Color.WHITE].send("P")
        while db.game(game.id).state.phase is Phase.OPENING:
            await asyncio.sleep(0.02)
        while len(seen) < 16:
            st = db.game(game.id).state
            if st.over:
                break
            assert st.actor is not None
            mover, other = callers[st.actor], callers[st.actor.other]
            await mover.wait_for("Your turn")
            await asyncio.gather(mover.settle(0.1), other.settle(0.1))
            if st.phase is Phase.ROLL:
                start = time.monotonic()
                mover.send("P")
                await other.wait_words(f"{names[st.actor]} rolled", 10)
                seen.append(("roll", time.monotonic() - start))
            elif st.phase is Phase.MOVE:
                assert st.dice is not None
                plays = legal_plays(st.position, st.dice)
                if len(plays) > 1:  # the only play is on the board already: Enter commits it
                    mover.send("M")
                    await mover.wait_for("Your play")
                    start = time.monotonic()
                    mover.send(str(plays[0]) + "\r")
                else:
                    start = time.monotonic()
                    mover.send("\r")
                # The play's news line: "alice rolled 6-4 and played 24/18 13/9.", or the first,
                # with the opening roll: "alice starts with 6-4, playing 24/18 13/9."
                said = (f"{names[st.actor]} rolled {max(st.dice)}-{min(st.dice)} and",
                        f"{names[st.actor]} starts with {max(st.dice)}-{min(st.dice)}, playing")
                try:
                    await other.wait_until(lambda t, said=said: any(n in " ".join(t.split()) for n in said),
                                           "the play", 10)
                except AssertionError as exc:  # what the mover saw says whether the play was sent
                    raise AssertionError(f"{exc}\nThe mover's screen:\n{mover.text}") from None
                seen.append(("move", time.monotonic() - start))
            else:
                pytest.fail(f"unexpected phase {st.phase}")
            deadline = time.monotonic() + 5
            while (now := db.game(game.id).state).actor is st.actor and now.phase is st.phase:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.02)
        figures = [t for _, t in seen]
        print(f"\nacross two serve processes on PostgreSQL, {len(figures)} turns: median "
              f"{statistics.median(figures) * 1000:.0f} ms, max {max(figures) * 1000:.0f} ms "
              f"({', '.join(f'{k} {t * 1000:.0f}' for k, t in seen)})")
        assert len(figures) >= 8
        assert max(figures) <= LIMIT, seen
        assert all(s.alive() for s in servers)
        # The servers heard of these moves by NOTIFY, not by their 2 s fallback comparison.
        assert statistics.median(figures) < 0.3, seen
    finally:
        db.close()
        for c in callers.values():
            c.close()
        for s in servers:
            s.kill()
