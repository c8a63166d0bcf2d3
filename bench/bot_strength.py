"""How strong and how quick the computer levels are.

    python bench/bot_strength.py [--games N] [--seed S] [--pairs a-b ...] [--timing-games N]

Plays cubeless money games between pairs of players and prints, for the
first player of each pair, the points per game (a gammon counts 2, a
backgammon 3) with its standard error, and the share of games won.  Games
come in pairs on the same dice with the seats swapped, which takes much of
the luck out of the comparison; the opening roll is one die each, rerolled
on a tie, and the higher die plays both.

Players: random (a uniformly random legal play), beginner, intermediate,
expert (gnubg 0-ply) and world (gnubg 2-ply).  The default pairs are
intermediate-random, intermediate-expert and beginner-intermediate; gnubg
pairs are skipped when gnubg is missing.  Then the median time to choose a
play (among two or more) for each level, from those games plus
--timing-games games of world against expert.

Goals: intermediate wins >= 98% of games against random and loses no more
than 0.25 points per game to gnubg 0-ply; a play takes the built-in levels
<= 50 ms and world class <= 500 ms (median).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable

from bgdoor.bot.brain import Bot, Level, gnubg_unavailable_reason
from bgdoor.bot.net import Net
from bgdoor.rules.moves import Play, legal_plays
from bgdoor.rules.position import Position

Chooser = Callable[[Position, tuple[int, int]], "Play | None"]

LEVELS = {
    "beginner": Level.BEGINNER,
    "intermediate": Level.INTERMEDIATE,
    "expert": Level.EXPERT,
    "world": Level.WORLD_CLASS,
}


WEIGHTS: str | None = None  # --weights: try a freshly trained net without installing it


class Player:
    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.times: list[float] = []
        rng = random.Random(seed)
        if name == "random":
            self._choose: Chooser = lambda pos, dice: (rng.choice(legal_plays(pos, dice)) if legal_plays(pos, dice) else None)
        else:
            net = Net.load(WEIGHTS) if WEIGHTS else None
            self._choose = Bot(LEVELS[name], rng=rng, net=net).choose_play

    def choose(self, pos: Position, dice: tuple[int, int]) -> Play | None:
        many = len(legal_plays(pos, dice)) > 1
        t = time.perf_counter()
        play = self._choose(pos, dice)
        if many:
            self.times.append(time.perf_counter() - t)
        return play


def play_game(players: tuple[Player, Player], dice_rng: random.Random) -> tuple[int, int]:
    """Plays one game; returns (winner's seat, points)."""
    while True:
        d0, d1 = dice_rng.randint(1, 6), dice_rng.randint(1, 6)
        if d0 != d1:
            break
    seat = 0 if d0 > d1 else 1
    dice = (max(d0, d1), min(d0, d1))
    pos = Position.start()
    while True:
        play = players[seat].choose(pos, dice)
        if play is None:
            pos = pos.swap()
        else:
            pos = play.position
            if pos.opponent_off == 15:
                loser = pos.player
                if sum(loser) < 15:
                    points = 1
                elif loser[24] or any(loser[18:24]):
                    points = 3
                else:
                    points = 2
                return seat, points
        seat = 1 - seat
        dice = (dice_rng.randint(1, 6), dice_rng.randint(1, 6))


def match_up(a: str, b: str, games: int, seed: int, timings: dict[str, list[float]]) -> None:
    pa, pb = Player(a, seed * 7 + 1), Player(b, seed * 7 + 2)
    results: list[int] = []
    wins = gammons = 0
    t0 = time.time()
    for g in range(games):
        # Each dice stream is used twice, with the seats swapped.
        dice_rng = random.Random(f"{seed}-{g // 2}")
        seats = (pa, pb) if g % 2 == 0 else (pb, pa)
        winner, points = play_game(seats, dice_rng)
        a_won = seats[winner] is pa
        results.append(points if a_won else -points)
        wins += a_won
        gammons += points > 1
    n = len(results)
    mean = sum(results) / n
    se = math.sqrt(sum((r - mean) ** 2 for r in results) / (n - 1) / n) if n > 1 else float("nan")
    print(
        f"{a} vs {b}: {n} games, {a} {mean:+.3f} ppg ± {se:.3f} (1 se), "
        f"wins {100 * wins / n:.1f}%, gammons or more {100 * gammons / n:.1f}% of games, {time.time() - t0:.0f}s",
        flush=True,
    )
    for p in (pa, pb):
        timings[p.name].extend(p.times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per pair (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairs", nargs="*", default=["intermediate-random", "intermediate-expert", "beginner-intermediate"])
    ap.add_argument("--timing-games", type=int, default=2, help="games of world vs expert, for timing (default 2)")
    ap.add_argument("--weights", help="the built-in levels use this weights file instead of the installed one")
    args = ap.parse_args(argv)
    global WEIGHTS
    WEIGHTS = args.weights
    missing = gnubg_unavailable_reason()
    if missing:
        print(f"gnubg pairs skipped: {missing}")
    timings: dict[str, list[float]] = defaultdict(list)
    for pair in args.pairs:
        a, b = pair.split("-")
        if missing and ({a, b} & {"expert", "world"}):
            continue
        match_up(a, b, args.games, args.seed, timings)
    if not missing and args.timing_games:
        match_up("world", "expert", args.timing_games, args.seed + 1000, timings)
    for name in ("random", "beginner", "intermediate", "expert", "world"):
        if timings.get(name):
            t = sorted(timings[name])
            print(
                f"{name}: median {1000 * statistics.median(t):.1f} ms per play, "
                f"90th percentile {1000 * t[int(0.9 * (len(t) - 1))]:.1f} ms, over {len(t)} plays"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
