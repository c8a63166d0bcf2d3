"""Helpers shared by the rules tests (no tests here): hand-written boards,
positions from seeded random games, a hypothesis strategy for positions, and
an independent brute-force reference for the legal plays."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import strategies as st

from bgdoor.rules.moves import legal_plays
from bgdoor.rules.position import Position


def board(me: dict[int | str, int], opp: dict[int | str, int] | None = None) -> Position:
    """A position from the mover's view: `opp` counts are placed by the mover's point numbers.

    Keys are points 1..24 or "bar".
    """
    player = [0] * 25
    opponent = [0] * 25
    for point, n in me.items():
        player[24 if point == "bar" else int(point) - 1] += n
    for point, n in (opp or {}).items():
        opponent[24 if point == "bar" else 24 - int(point)] += n
    return Position(tuple(player), tuple(opponent))


def random_game_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """(position, dice) pairs met in random games played with `seed`."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    while len(out) < count:
        for item in _one_game(rng):
            out.append(item)
            if len(out) == count:
                break
    return out


def _one_game(rng: random.Random) -> Iterator[tuple[Position, tuple[int, int]]]:
    pos = Position.start()
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        yield pos, dice
        plays = legal_plays(pos, dice)
        if not plays:
            pos = pos.swap()
            continue
        play = rng.choice(plays)
        if play.position.opponent_off == 15:
            return
        pos = play.position


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal position, often a bear-off or with checkers on the bar."""
    kind = draw(st.sampled_from(["any", "home", "bar", "game"]))
    if kind == "game":
        seed = draw(st.integers(0, 10**6))
        skip = draw(st.integers(0, 200))
        games = random_game_positions(seed, skip + 1)
        return games[-1][0]
    player = [0] * 25
    opponent = [0] * 25
    mine = range(6) if kind == "home" else range(25)
    for _ in range(draw(st.integers(1, 15))):
        i = draw(st.sampled_from(mine))
        if kind == "bar" and draw(st.booleans()):
            i = 24
        player[i] += 1
    free = [j for j in range(24) if not player[23 - j]] + [24]
    for _ in range(draw(st.integers(0, 15))):
        opponent[draw(st.sampled_from(free))] += 1
    return Position(tuple(player), tuple(opponent))


dice_rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


# ----------------------------------------------------------- reference


def reference_plays(position: Position, dice: tuple[int, int]) -> tuple[set[Position], int]:
    """All legal resulting positions (opponent on roll) and the dice they use, by brute force.

    Written from the rules, independently of the engine: every order of every
    die, then keep the longest sequences and, when only one die of two can
    be played, those using the higher die if any do.
    """
    d1, d2 = dice
    roll = [d1] * 4 if d1 == d2 else [d1, d2]
    results: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []  # (dice used, first die, me, opp)

    def walk(me: list[int], opp: list[int], left: list[int], used: int, first: int) -> None:
        moved = False
        for k, die in enumerate(left):
            if k and die in left[:k]:
                continue
            for src in range(25, 0, -1):
                dst = reference_step(me, opp, src, die)
                if dst is None:
                    continue
                moved = True
                me2, opp2 = me[:], opp[:]
                me2[src - 1] -= 1
                if dst:
                    me2[dst - 1] += 1
                    if opp2[24 - dst] == 1:
                        opp2[24 - dst] = 0
                        opp2[24] += 1
                walk(me2, opp2, left[:k] + left[k + 1 :], used + 1, first or die)
        if not moved:
            results.append((used, first, tuple(me), tuple(opp)))

    walk(list(position.player), list(position.opponent), roll, 0, 0)
    best = max(r[0] for r in results)
    kept = [r for r in results if r[0] == best]
    if best == 1 and d1 != d2 and any(r[1] == max(dice) for r in kept):
        kept = [r for r in kept if r[1] == max(dice)]
    if best == 0:
        return set(), 0
    return {Position(r[3], r[2]) for r in kept}, best


def reference_step(me: list[int], opp: list[int], src: int, die: int) -> int | None:
    """Where a checker on `src` (25 the bar) goes with `die`, 0 for off, or None if it may not."""
    if not me[src - 1]:
        return None
    if me[24] and src != 25:
        return None  # the bar first
    dst = src - die
    if dst >= 1:
        return None if opp[24 - dst] >= 2 else dst
    if any(me[6:25]):
        return None  # bearing off only with all fifteen home
    if dst < 0 and any(me[src:6]):
        return None  # overshooting only from the highest point
    return 0
