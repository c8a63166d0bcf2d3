"""Time legal_plays against gnubg.findbestmoves on the same positions.

    python bench/legal_plays.py [--positions N] [--seed S] [--repeat R]

Positions come from seeded random games (the rules tests' own, from
tests/test_rules_support.py) (every position met, with the roll
then thrown).  gnubg's position cache is switched off, so that timing a pass
again measures the same work as a first, cold pass (a warm cache would only
be replaying answers).  The machine may be shared, so the positions are timed
in chunks, ours and gnubg's alternating, and each chunk's best of R passes is
kept.  gnubg's figure includes its 0-ply evaluation of every play, which
findbestmoves cannot skip.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_rules_support import random_game_positions  # the rules tests' seeded games

from bgdoor.rules.moves import legal_plays


def quiet(run: Callable[[], object]) -> None:
    """Run with the process's stdout closed: gnubg's commands print from C."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            run()
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def timed(run: Callable[[], None]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    try:
        import gnubg
    except ImportError:
        print("gnubg is not installed: pip install '.[gnubg]'", file=sys.stderr)
        return 2

    quiet(lambda: gnubg.command("set cache 0"))
    cases = random_game_positions(args.seed, args.positions)
    boards = [(pos.to_gnubg(), dice) for pos, dice in cases]
    cube, context = gnubg.cubeinfo(), gnubg.evalcontext()
    chunk = 250

    def ours(lo: int) -> Callable[[], None]:
        def run() -> None:
            for pos, dice in cases[lo : lo + chunk]:
                legal_plays(pos, dice)

        return run

    def theirs(lo: int) -> Callable[[], None]:
        def run() -> None:
            for board, dice in boards[lo : lo + chunk]:
                gnubg.findbestmoves(board, cube, context, dice)

        return run

    # Same answer sizes, or the timing compares different work.
    mismatched = sum(
        len(legal_plays(pos, dice)) != len(gnubg.findbestmoves(board, cube, context, dice))
        for (pos, dice), (board, _) in zip(cases, boards)
    )
    t_ours = t_theirs = 0.0
    for lo in range(0, len(cases), chunk):
        gc.collect()
        mine, other = [], []
        for _ in range(args.repeat):
            mine.append(timed(ours(lo)))
            other.append(timed(theirs(lo)))
        t_ours += min(mine)
        t_theirs += min(other)
    n = len(cases)
    print(f"positions: {n} from random games, seed {args.seed}; best of {args.repeat} passes per chunk of {chunk}")
    print(f"legal_plays:         {t_ours / n * 1e6:8.1f} us per position")
    print(f"gnubg.findbestmoves: {t_theirs / n * 1e6:8.1f} us per position")
    print(f"ratio ours/gnubg:    {t_ours / t_theirs:8.2f}")
    if mismatched:
        print(f"WARNING: play counts differ on {mismatched} positions", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
