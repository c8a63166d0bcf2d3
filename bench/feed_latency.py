"""Cross-process latency: a move committed by one process, on the other player's screen in another.

    python bench/feed_latency.py [--turns 60] [--json FILE] [--pg-url URL]

- SQLite: two `bgdoor door` processes on one database file, each caller on a pty.
- PostgreSQL: two `bgdoor serve` processes on one database, a telnet caller on each (a
  throwaway server from /usr/lib/postgresql/*/bin unless --pg-url names one).

Each turn (a roll or a move) is timed from the mover's key to the moment the other caller's
screen shows it; the other caller presses nothing.  Reported: p50, p99 and max over the turns.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import pwd
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from doorharness import PtyDoor, door32  # noqa: E402 - imported after sys.path is set above
from rawtelnet import RawCaller, login  # noqa: E402 - imported after sys.path is set above
from serverproc import ServerProcess  # noqa: E402 - imported after sys.path is set above

from bgdoor.rules.game import Color, MatchState, Phase  # noqa: E402 - imported after sys.path is set above
from bgdoor.rules.moves import legal_plays  # noqa: E402 - imported after sys.path is set above
from bgdoor.service import Service  # noqa: E402 - imported after sys.path is set above

NAMES = {Color.WHITE: "Ann", Color.BLACK: "Ben"}


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "turns": len(values),
        "p50_ms": round(1000 * pct(values, 50), 1),
        "p99_ms": round(1000 * pct(values, 99), 1),
        "max_ms": round(1000 * max(values), 1),
    }


def new_game(url: str, door: bool) -> int:
    with Service(url) as svc:
        if door:
            ann = svc.enter_from_door("Ann")
            svc.enter_from_door("Ben")
        else:
            ann = svc.register("Ann", "ann-password")
            svc.register("Ben", "ben-password")
        return svc.begin_game(ann.id, 25, Color.WHITE, "Ben").id  # long enough for every turn


def key_for(st: MatchState) -> tuple[list[str], re.Pattern[str]]:
    """The keys the mover sends, and the news line the other caller's screen then gains."""
    assert st.actor is not None
    name = NAMES[st.actor]
    if st.phase is Phase.ROLL:
        return ["P"], re.compile(rf"{name} rolled [1-6]-[1-6]\.")  # "Ann rolled 6-4."
    assert st.dice is not None
    plays = legal_plays(st.position, st.dice)
    # The only play is on the board already (typed after it, it would be too many moves): Enter commits it.
    keys = ["M", str(plays[0]) + "\r"] if len(plays) > 1 else ["\r"]
    hi, lo = max(st.dice), min(st.dice)
    # "Ann rolled 6-4 and played 24/18 13/9."; the play after the opening roll is told with it:
    # "Opening roll: Ann 6, Ben 4. Ann starts with 6-4, playing 24/18 13/9."
    # Either may wrap at the edge of the message lines, between any two words.
    said = rf"{name}\s+(rolled\s+{hi}-{lo}\s+and|starts\s+with\s+{hi}-{lo},\s+playing)"
    return keys, re.compile(said)


# ------------------------------------------------------------------ SQLite, two doors


def pump_until(doors: list[PtyDoor], watch: PtyDoor, needle: str | re.Pattern[str], timeout: float = 10.0,
               more_than: int = 0) -> float:
    """Read the ptys until `watch`'s screen has `needle` (a pattern: more than `more_than` times)."""
    end = time.monotonic() + timeout
    by_fd = {d.master: d for d in doors}

    def there() -> bool:
        text = watch.view.text
        return needle in text if isinstance(needle, str) else len(needle.findall(text)) > more_than

    while not there():
        if time.monotonic() > end:
            raise AssertionError(f"{needle!r} never appeared:\n{watch.view.text}")
        ready, _, _ = select.select(list(by_fd), [], [], 0.02)
        for fd in ready:
            with contextlib.suppress(OSError):
                by_fd[fd].view.feed(os.read(fd, 65536))
    return time.monotonic()


def sqlite_doors(turns: int, folder: Path) -> list[float]:
    url = f"sqlite:///{folder}/bg.db"
    gid = new_game(url, door=True)
    doors = {c: PtyDoor(door32(folder / f"{NAMES[c]}.sys", NAMES[c], node=i + 1), url, folder / f"{NAMES[c]}.log")
             for i, c in enumerate(Color)}
    both = list(doors.values())
    seen: list[float] = []
    db = Service(url)
    try:
        for door in both:
            pump_until(both, door, "Your choice", 60)
            door.send("P")
            pump_until(both, door, "roll for who starts", 30)
        doors[Color.WHITE].send("P")
        while db.game(gid).state.phase is Phase.OPENING:
            time.sleep(0.02)
        while len(seen) < turns:
            st = db.game(gid).state
            if st.over:
                break
            assert st.actor is not None
            mover, other = doors[st.actor], doors[st.actor.other]
            pump_until(both, mover, "Your turn")
            keys, news = key_for(st)
            for key in keys[:-1]:
                mover.send(key)
                pump_until(both, mover, "Your play")
            before = len(news.findall(other.view.text))
            start = time.monotonic()
            mover.send(keys[-1])
            seen.append(pump_until(both, other, news, more_than=before) - start)
            while (now := db.game(gid).state).actor is st.actor and now.phase is st.phase:
                time.sleep(0.01)
    finally:
        db.close()
        for door in both:
            door.close()
    return seen


# ------------------------------------------------------------------ PostgreSQL, two servers


async def postgres_servers(turns: int, folder: Path, url: str) -> list[float]:
    gid = new_game(url, door=False)
    servers = []
    for name in ("one", "two"):
        (folder / name).mkdir()
        servers.append(ServerProcess(folder / name, url).start())
    callers: dict[Color, RawCaller] = {}
    seen: list[float] = []
    db = Service(url)
    try:
        for i, color in enumerate(Color):
            callers[color] = await RawCaller.connect(servers[i].port)
            await login(callers[color], NAMES[color], f"{NAMES[color].lower()}-password", new=False)
            callers[color].send("P")
            await callers[color].wait_for("roll for who starts")
        callers[Color.WHITE].send("P")
        while db.game(gid).state.phase is Phase.OPENING:
            await asyncio.sleep(0.02)
        while len(seen) < turns:
            st = db.game(gid).state
            if st.over:
                break
            assert st.actor is not None
            mover, other = callers[st.actor], callers[st.actor.other]
            await mover.wait_for("Your turn")
            await asyncio.gather(mover.settle(0.05), other.settle(0.05))
            keys, news = key_for(st)
            for key in keys[:-1]:
                mover.send(key)
                await mover.wait_for("Your play")
            before = len(news.findall(other.text))
            start = time.monotonic()
            mover.send(keys[-1])
            await other.wait_until(lambda text, news=news, before=before: len(news.findall(text)) > before,
                                   str(news.pattern), 10)
            seen.append(time.monotonic() - start)
            while (now := db.game(gid).state).actor is st.actor and now.phase is st.phase:
                await asyncio.sleep(0.01)
    finally:
        db.close()
        for c in callers.values():
            c.close()
        for s in servers:
            s.kill()
    return seen


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    bins = [b for b in sorted(glob.glob("/usr/lib/postgresql/*/bin")) if os.path.exists(os.path.join(b, "initdb"))]
    if not bins:
        raise SystemExit("no PostgreSQL binaries in /usr/lib/postgresql/*/bin; give --pg-url")
    base = tempfile.mkdtemp(prefix="bgdoor-pg-")
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root
        nobody = pwd.getpwnam("nobody")
        os.chown(base, nobody.pw_uid, nobody.pw_gid)
        as_user = ["runuser", "-u", "nobody", "--"]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = os.path.join(base, "data")
    subprocess.run([*as_user, f"{bins[-1]}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"],
                   cwd=base, check=True, capture_output=True)
    opts = f"-p {port} -k {base} -c listen_addresses=127.0.0.1"
    log = os.path.join(base, "log")
    subprocess.run([*as_user, f"{bins[-1]}/pg_ctl", "-D", data, "-l", log, "-o", opts, "-w", "start"],
                   cwd=base, check=True, capture_output=True)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, f"{bins[-1]}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"], cwd=base, check=False,
                       capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--pg-url", help="a PostgreSQL database to use (its bgdoor tables are created)")
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    args = parser.parse_args()
    report: dict[str, object] = {"turns": args.turns}
    with tempfile.TemporaryDirectory(prefix="bgdoor-feed-") as folder:
        if args.only != "postgres":
            (Path(folder) / "sqlite").mkdir()
            report["sqlite_two_doors"] = summary(sqlite_doors(args.turns, Path(folder) / "sqlite"))
            print("SQLite, two door processes:", report["sqlite_two_doors"], flush=True)
        if args.only != "sqlite":
            (Path(folder) / "pg").mkdir()
            with contextlib.ExitStack() as stack:
                url = args.pg_url or stack.enter_context(throwaway_postgres())
                figures = asyncio.run(postgres_servers(args.turns, Path(folder) / "pg", url))
            report["postgres_two_serves"] = summary(figures)
            print("PostgreSQL, two serve processes:", report["postgres_two_serves"], flush=True)
    print(f"goal: p99 <= 250 ms; machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
