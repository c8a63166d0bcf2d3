"""Legal plays: every distinct way to play a roll, and their notation.

Boards inside the generator are lists of 25 counts seen from the side on
roll, as in `Position`: index i is point i + 1, index 24 the bar.  A move's
source 25 means the bar and destination 0 means borne off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from bgdoor.rules.position import BAR, OFF, Position


class Move(NamedTuple):
    """One checker moved by one die."""

    src: int  # 1..24, or 25 for the bar
    dst: int  # 1..24, or 0 for off
    hit: bool = False

    def __str__(self) -> str:
        return f"{_pt(self.src)}/{_pt(self.dst)}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """A whole legal play of a roll.

    `position` is the result with the opponent now on roll.
    """

    moves: tuple[Move, ...]
    position: Position

    def __str__(self) -> str:
        return notation(self.moves)

    def __repr__(self) -> str:
        return f"Play({notation(self.moves)!r}, {self.position.id})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other.position == self.position

    def __hash__(self) -> int:
        return hash(self.position)


def _pt(n: int) -> str:
    if n == BAR:
        return "bar"
    if n == OFF:
        return "off"
    return str(n)


# ---------------------------------------------------------------- generation


def _step(me: list[int], opp: list[int], src: int, die: int) -> int:
    """Where a checker on `src` lands with `die`: the point, 0 for off, or -1 if it cannot."""
    dst = src - die
    if dst > 0:
        return -1 if opp[24 - dst] >= 2 else dst
    # Bearing off: all checkers home, and an overshoot only from the highest point.
    for i in range(6, 25):
        if me[i]:
            return -1
    if dst == 0:
        return 0
    for i in range(src, 6):
        if me[i]:
            return -1
    return 0


def _sources(me: list[int], hi: int = 25) -> range | tuple[int, ...]:
    """Points that may move now, highest first, none above `hi`."""
    if me[24]:
        return (25,) if hi >= 25 else ()
    return range(min(hi, 24), 0, -1)


def _apply(me: list[int], opp: list[int], src: int, dst: int) -> bool:
    me[src - 1] -= 1
    if dst:
        me[dst - 1] += 1
        j = 24 - dst
        if opp[j] == 1:
            opp[j] = 0
            opp[24] += 1
            return True
    return False


def _undo(me: list[int], opp: list[int], src: int, dst: int, hit: bool) -> None:
    me[src - 1] += 1
    if dst:
        me[dst - 1] -= 1
        if hit:
            opp[24 - dst] = 1
            opp[24] -= 1


class _Collector:
    __slots__ = ("best", "found")

    def __init__(self) -> None:
        self.best = 0
        self.found: dict[bytes, tuple[Move, ...]] = {}

    def add(self, me: list[int], opp: list[int], moves: list[Move]) -> None:
        n = len(moves)
        if n < self.best:
            return
        if n > self.best:
            self.best = n
            self.found = {}
        key = bytes(me) + bytes(opp)
        if key not in self.found:
            self.found[key] = tuple(moves)


def _gen_doubles(me: list[int], opp: list[int], die: int, left: int, hi: int, moves: list[Move], out: _Collector) -> None:
    moved = False
    if left:
        for src in _sources(me, hi):
            if not me[src - 1]:
                continue
            dst = _step(me, opp, src, die)
            if dst < 0:
                continue
            moved = True
            hit = _apply(me, opp, src, dst)
            moves.append(Move(src, dst, hit))
            # Same-die moves commute, so sources never rise: no order is generated twice.
            _gen_doubles(me, opp, die, left - 1, src, moves, out)
            moves.pop()
            _undo(me, opp, src, dst, hit)
    if not moved:
        out.add(me, opp, moves)


def _gen_dice(me: list[int], opp: list[int], dice: tuple[int, ...], moves: list[Move], out: _Collector) -> None:
    """All orders of distinct dice (at most two)."""
    moved = False
    for k, die in enumerate(dice):
        rest = dice[:k] + dice[k + 1 :]
        for src in _sources(me):
            if not me[src - 1]:
                continue
            dst = _step(me, opp, src, die)
            if dst < 0:
                continue
            moved = True
            hit = _apply(me, opp, src, dst)
            moves.append(Move(src, dst, hit))
            _gen_dice(me, opp, rest, moves, out)
            moves.pop()
            _undo(me, opp, src, dst, hit)
    if not moved:
        out.add(me, opp, moves)


def _generate(me: list[int], opp: list[int], dice: tuple[int, ...]) -> _Collector:
    """Results using as many of `dice` as possible (a tuple of remaining dice)."""
    out = _Collector()
    if dice and all(d == dice[0] for d in dice) and len(dice) > 1:
        _gen_doubles(me, opp, dice[0], len(dice), 25, [], out)
    else:
        _gen_dice(me, opp, dice, [], out)
        if out.best == 1 and len(dice) == 2:
            # Only one die can be played: the higher one, if it can.
            high = max(dice)
            higher = {k: m for k, m in out.found.items() if _die_of(m[0]) == high}
            if higher:
                out.found = higher
    return out


def _die_of(move: Move) -> int:
    return move.src - move.dst if move.dst else -1  # an overshooting bear-off is only known as "off"


def _check_dice(dice: tuple[int, int] | list[int]) -> tuple[int, int]:
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise ValueError(f"a roll is two dice, not {dice!r}") from None
    if not all(isinstance(d, int) and 1 <= d <= 6 for d in (d1, d2)):
        raise ValueError(f"dice run from 1 to 6, not {d1}-{d2}")
    return d1, d2


def roll_dice(dice: tuple[int, int]) -> tuple[int, ...]:
    d1, d2 = _check_dice(dice)
    return (d1,) * 4 if d1 == d2 else (d1, d2)


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """One play per distinct resulting position; empty when the roll cannot be played."""
    me = list(position.player)
    opp = list(position.opponent)
    out = _generate(me, opp, roll_dice(dice))
    if out.best == 0:
        return []
    make = Position._make
    plays = []
    for key, moves in out.found.items():
        plays.append(Play(moves, make(tuple(key[25:]), tuple(key[:25]))))
    return plays


def play_count(position: Position, dice: tuple[int, int]) -> tuple[int, int]:
    """(number of distinct plays, dice used per play), cheaper than building plays."""
    out = _generate(list(position.player), list(position.opponent), roll_dice(dice))
    return (len(out.found) if out.best else 0, out.best)


# ------------------------------------------------------------------ notation


def notation(moves: tuple[Move, ...] | list[Move]) -> str:
    """Standard notation: `24/18 13/11`, `bar/22*`, `6/off 5/off`, `8/5(2) 6/5(2)`, `13/7*/4`."""
    chains: list[list[Move]] = []
    for m in moves:
        for chain in chains:
            if chain[-1].dst == m.src:
                chain.append(m)
                break
        else:
            chains.append([m])
    parts: list[tuple[int, int, str]] = []
    for chain in chains:
        text = _pt(chain[0].src)
        for i, m in enumerate(chain):
            last = i == len(chain) - 1
            if m.hit or last:
                text += "/" + _pt(m.dst) + ("*" if m.hit else "")
        parts.append((chain[0].src, chain[-1].dst, text))
    # Group identical checker paths; a hit by the first of them shows on the group.
    groups: dict[tuple[int, int, str], int] = {}
    order: list[tuple[int, int, str]] = []
    for src, dst, text in parts:
        plain = text.replace("*", "")
        hit_key = next((k for k in order if k[0] == src and k[1] == dst and k[2].replace("*", "") == plain), None)
        if hit_key is None:
            order.append((src, dst, text))
            groups[(src, dst, text)] = 1
        else:
            groups[hit_key] += 1
            if "*" in text and "*" not in hit_key[2]:
                new_key = (src, dst, text)
                groups[new_key] = groups.pop(hit_key)
                order[order.index(hit_key)] = new_key
    order.sort(key=lambda k: (-k[0], -k[1]))
    return " ".join(t + (f"({groups[k]})" if groups[k] > 1 else "") for k in order for t in [k[2]])
