"""Turns committed per second on one SQLite file, with 1 and with 8 writer processes.

    python bench/store_turns.py [--seconds 5] [--writers 1,8] [--synchronous FULL]

Each writer is a process with its own Service, as a BBS node is, playing its own
25-point match as fast as it can: a turn is a roll and a play, two transactions.
Throughput is counted over the same wall-clock window for every writer.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import tempfile
import time


def writer(url: str, synchronous: str, game_id: int, ids: tuple[int, int], seconds: float, go, out) -> None:
    from bgdoor.rules.game import Color, Phase
    from bgdoor.service import GameChanged, Service, StorageError
    from bgdoor.store import db

    rng = random.Random(game_id)
    svc = Service(url, settings=db.Settings(synchronous=synchronous))
    turns = commits = refused = 0
    view = svc.game(game_id)
    go.wait()
    end = time.monotonic() + seconds
    while time.monotonic() < end and not view.state.over:
        st = view.state
        who = ids[1] if st.actor is Color.BLACK else ids[0]
        try:
            if st.phase in (Phase.OPENING, Phase.ROLL):
                view = svc.roll(who, game_id, view.version)
            else:
                plays = st.plays()
                view = svc.submit_turn(who, game_id, view.version, str(rng.choice(plays)) if plays else "")
                turns += 1
            commits += 1
        except (GameChanged, StorageError):
            refused += 1
            view = svc.game(game_id)
    svc.close()
    out.put((turns, commits, refused))


def run(writers: int, seconds: float, folder: str, synchronous: str) -> tuple[float, float, int]:
    from bgdoor.rules.game import Color
    from bgdoor.service import Service

    url = f"sqlite:///{folder}/bench-{writers}.db"
    games = []
    with Service(url) as setup:
        for i in range(writers):
            w = setup.enter_from_door(f"bench white {i}").id
            b = setup.enter_from_door(f"bench black {i}").id
            games.append((setup.begin_game(w, 25, Color.WHITE, f"bench black {i}").id, (w, b)))
    ctx = multiprocessing.get_context("fork")
    go, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=writer, args=(url, synchronous, gid, ids, seconds, go, out)) for gid, ids in games]
    for p in procs:
        p.start()
    time.sleep(1.0)  # every writer connected and waiting
    go.set()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    turns = sum(r[0] for r in results)
    commits = sum(r[1] for r in results)
    refused = sum(r[2] for r in results)
    return turns / seconds, commits / seconds, refused


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--writers", default="1,8", help="comma-separated writer counts")
    parser.add_argument("--synchronous", default="FULL", help="SQLite synchronous: FULL (bgdoor's default) or NORMAL")
    args = parser.parse_args()
    synchronous = args.synchronous.upper()

    print(f"SQLite {__import__('sqlite3').sqlite_version}, WAL, synchronous={synchronous}, "
          f"{os.cpu_count()} CPUs, {args.seconds:g} s per run")
    print(f"{'writers':>8} {'turns/s':>9} {'commits/s':>10} {'refused':>8}")
    with tempfile.TemporaryDirectory(prefix="bgdoor-bench-") as folder:
        for n in (int(x) for x in args.writers.split(",")):
            turns, commits, refused = run(n, args.seconds, folder, synchronous)
            print(f"{n:>8} {turns:>9.1f} {commits:>10.1f} {refused:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
