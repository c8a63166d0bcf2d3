"""A small door's database for the sysop-tool tests, built through the service.

The clock is set relative to the real time, because `bgdoor sysop` run as
another process judges staleness by the real clock.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from bgdoor.records.mat import export_mat
from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Phase, Win
from bgdoor.service import Service
from bgdoor.service.core import derive
from bgdoor.service.sysop import Sysop
from bgdoor.store.models import Game, GameEvent


class Clock:
    """Set `now` where the story needs it; each reading moves on a second."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@dataclass(frozen=True)
class World:
    url: str
    path: Path | None  # the SQLite file, where there is one
    match: int  # alice (white) v bob (black), 3 points, played to the end: three games, alice wins 3-1
    quick: tuple[int, ...]  # 1-point matches ended by resignation: carol beat dave, bob beat carol
    stale: int  # carol (white) v dave (black), active, nothing for 30 days
    recent: int  # bob (white) v dave (black), active, an hour ago
    waiting: int  # dave's open 5-point game, 20 days old


def play_to_the_end(svc: Service, game_id: int, ids: dict[Color, int], rng: random.Random) -> None:
    """Random legal actions, leaning towards racing so games end; some doubles, takes and drops."""
    for _ in range(20000):
        view = svc.game(game_id)
        st = view.state
        if st.over:
            return
        who = ids[st.actor or Color.WHITE]
        if st.phase is Phase.OPENING or (
            st.phase is Phase.ROLL and not (st.can_double() and st.cube == 1 and rng.random() < 0.08)
        ):
            svc.roll(who, game_id, view.version)
        elif st.phase is Phase.ROLL:
            svc.double(who, game_id, view.version)
        elif st.phase is Phase.MOVE:
            plays = st.plays()
            pick = min(rng.sample(plays, min(3, len(plays))), key=lambda p: p.position.pips()[1]) if plays else None
            svc.submit_turn(who, game_id, view.version, str(pick) if pick else "")
        elif st.phase is Phase.DOUBLED:
            (svc.take if rng.random() < 0.6 else svc.drop)(who, game_id, view.version)
        else:
            raise AssertionError(f"unexpected phase {st.phase}")
    raise AssertionError("the match did not end")


def resign_at_once(svc: Service, game_id: int, ids: dict[Color, int], loser: Color) -> None:
    view = svc.roll(ids[Color.WHITE], game_id, svc.game_version(game_id))
    view = svc.resign(ids[loser], game_id, view.version, Win.SINGLE)
    svc.answer_resign(ids[loser.other], game_id, view.version, True)


def populate(svc: Service, clock: Clock, rng: random.Random) -> World:
    """The players and games below, on a service whose dice are scripted and whose clock is `clock`."""
    now = datetime.now(UTC)
    clock.now = now - timedelta(days=40)
    alice = svc.register("alice", "alice-pw").id
    bob, carol, dave = (svc.enter_from_door(h).id for h in ("bob", "carol", "dave"))
    svc.enter_from_door("erin")  # never plays
    svc.ensure_bot_player("Computer")

    match = svc.begin_game(alice, 3, Color.WHITE, opponent="bob").id
    play_to_the_end(svc, match, {Color.WHITE: alice, Color.BLACK: bob}, rng)

    quick = []
    for white, black, loser in ((carol, dave, Color.BLACK), (bob, carol, Color.BLACK)):
        game = svc.begin_game(white, 1, Color.WHITE, opponent=svc.player(black).handle).id
        resign_at_once(svc, game, {Color.WHITE: white, Color.BLACK: black}, loser)
        quick.append(game)

    clock.now = now - timedelta(days=30)
    stale = svc.begin_game(carol, 3, Color.WHITE, opponent="dave").id
    view = svc.roll(carol, stale, 1)
    svc.submit_turn(view.state.turn is Color.WHITE and carol or dave, stale, view.version, str(view.state.plays()[0]))

    clock.now = now - timedelta(days=20)
    waiting = svc.begin_game(dave, 5, Color.BLACK).id

    clock.now = now - timedelta(hours=1)
    recent = svc.begin_game(bob, 3, Color.WHITE, opponent="dave").id
    svc.roll(bob, recent, 1)
    clock.now = now
    return World(svc.url, None, match, tuple(quick), stale, recent, waiting)


def scripted(seed: int = 9) -> tuple[ScriptedDice, Clock, random.Random]:
    rng = random.Random(seed)
    return ScriptedDice(rng.randint(1, 6) for _ in range(20000)), Clock(datetime.now(UTC)), rng


def build(path: Path, seed: int = 9) -> World:
    dice, clock, rng = scripted(seed)
    with Service(f"sqlite:///{path}", dice=dice, clock=clock) as svc:
        world = populate(svc, clock, rng)
    return replace(world, path=path)


_template: World | None = None


def fresh_world(tmp_path: Path) -> World:
    """A copy of the one world built per test run (building it plays a whole match)."""
    global _template
    if _template is None:
        base = Path(tmp_path).parent / "sysop-template"
        base.mkdir(exist_ok=True)
        _template = build(base / "template.db")
    target = tmp_path / "bgdoor.db"
    assert _template.path is not None
    shutil.copyfile(_template.path, target)  # closed service: no WAL file is left beside it
    return replace(_template, url=f"sqlite:///{target}", path=target)


def check_record(svc: Service, game_id: int) -> None:
    """The games row's cached state is what replaying its events gives."""
    with Session(svc.engine) as s:
        g = s.get(Game, game_id)
        assert g is not None
        payloads = list(
            s.scalars(select(GameEvent.payload).where(GameEvent.game_id == game_id).order_by(GameEvent.seq))
        )
    state, _ = derive(g.length, payloads)
    assert svc.game(game_id).state == state


def bgdoor(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bgdoor", *args], input=stdin, capture_output=True, text=True, timeout=120, cwd=cwd
    )


def exported(sysop: Sysop, game_id: int) -> str:
    """The match as `bgdoor export` writes it: the sysop's record through the .mat exporter."""
    match = sysop.match_record(game_id)
    return export_mat(match.white, match.black, match.length, match.events, date=match.created)


def unwrap(text: str) -> str:
    """A sysop command's messages as one line each: the lines it broke to fit 80 columns (each
    indented four spaces past the line it goes on) joined again."""
    out: list[str] = []
    for line in text.split("\n"):
        lead = len(line) - len(line.lstrip(" "))
        if out and line.strip() and lead >= len(out[-1]) - len(out[-1].lstrip(" ")) + 4:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)
