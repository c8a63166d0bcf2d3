"""Backgammon positions and GNU Backgammon Position IDs.

A position is seen from the side on roll.  Each side is 25 counts: points
1..24 counted from that side's own home (index 0 is its 1-point) and then its
bar (index 24).  Point p of one side is point 25 - p of the other side.
This is the layout gnubg's Python module uses, so boards pass to it as is.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import NamedTuple

CHECKERS = 15
BAR = 25  # the bar as a "point" number in moves: 25 - die is where a checker enters
OFF = 0  # borne off, as a destination

Side = tuple[int, ...]

_START: Side = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class PositionError(ValueError):
    """A position or Position ID that cannot be."""


class Move(NamedTuple):
    """One checker moved by one die."""

    src: int  # 1..24, or 25 for the bar
    dst: int  # 1..24, or 0 for off
    hit: bool = False

    def __str__(self) -> str:
        return f"{_pt(self.src)}/{_pt(self.dst)}{'*' if self.hit else ''}"


def _pt(n: int) -> str:
    if n == BAR:
        return "bar"
    if n == OFF:
        return "off"
    return str(n)


# Boards as lists of 25 counts seen from the side on roll (as in Position), changed in place:
# the move generator's and the turn builder's fast path.  Position.apply is the checked one.


def _apply(me: list[int], opp: list[int], src: int, dst: int) -> bool:
    """Move one of `me`'s checkers from src to dst, hitting a lone opposing checker; True if it hit."""
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


@dataclass(frozen=True, slots=True)
class Position:
    """Immutable: `player` is the side on roll, `opponent` the other."""

    player: Side
    opponent: Side

    def __post_init__(self) -> None:
        for name, side in (("player", self.player), ("opponent", self.opponent)):
            if len(side) != 25:
                raise PositionError(f"{name} needs 25 counts, not {len(side)}")
            if any(n < 0 for n in side):
                raise PositionError(f"{name} has a negative count")
            if sum(side) > CHECKERS:
                raise PositionError(f"{name} has {sum(side)} checkers; at most {CHECKERS}")
        for p in range(24):
            if self.player[p] and self.opponent[23 - p]:
                raise PositionError(f"both sides have checkers on point {p + 1}")

    @classmethod
    def _make(cls, player: Side, opponent: Side) -> Position:
        """Without checks: for the move generator, whose results are valid by construction."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "player", player)
        object.__setattr__(pos, "opponent", opponent)
        return pos

    @classmethod
    def start(cls) -> Position:
        return cls(_START, _START)

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        return cls(*_decode(position_id))

    def to_gnubg(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (self.opponent, self.player)

    @property
    def id(self) -> str:
        return _encode(self.opponent, self.player)

    def apply(self, move: Move) -> Position:
        """The position after the side on roll moves one checker from move.src to move.dst
        (25 is the bar, 0 off), hitting a lone opposing checker there; the same side is still on
        roll.  Raises PositionError when it has no checker on src or the opponent holds dst.
        Whether the dice allow the move is legal_plays' question, not this one's.
        """
        src, dst = move.src, move.dst
        if not 0 <= dst < src <= BAR:
            raise PositionError(f"a checker cannot move from {_pt(src)} to {_pt(dst)}")
        if not self.player[src - 1]:
            raise PositionError(f"no checker to move on {_pt(src)}")
        if dst and self.opponent[24 - dst] >= 2:
            raise PositionError(f"point {dst} is held by the opponent")
        me, opp = list(self.player), list(self.opponent)
        _apply(me, opp, src, dst)
        return Position._make(tuple(me), tuple(opp))

    def swap(self) -> Position:
        """The same position with the other side on roll."""
        return Position(self.opponent, self.player)

    @property
    def player_off(self) -> int:
        return CHECKERS - sum(self.player)

    @property
    def opponent_off(self) -> int:
        return CHECKERS - sum(self.opponent)

    def pips(self) -> tuple[int, int]:
        """Pip counts of (player, opponent); the bar counts 25."""
        return (
            sum(n * (i + 1) for i, n in enumerate(self.player)),
            sum(n * (i + 1) for i, n in enumerate(self.opponent)),
        )

    def __str__(self) -> str:
        return diagram(self)


def _encode(first: Side, second: Side) -> str:
    bits = 0
    nbit = 0
    for side in (first, second):
        for n in side:
            bits |= ((1 << n) - 1) << nbit
            nbit += n + 1
    key = bits.to_bytes(10, "little")
    return base64.b64encode(key).decode("ascii")[:14]


def _decode(position_id: str) -> tuple[Side, Side]:
    if not isinstance(position_id, str) or len(position_id) != 14:
        raise PositionError(f"a Position ID has 14 characters: {position_id!r}")
    try:
        key = base64.b64decode(position_id + "==", validate=True)
    except ValueError as exc:
        raise PositionError(f"not a Position ID: {position_id!r}") from exc
    bits = int.from_bytes(key, "little")
    sides: list[list[int]] = [[], []]
    count = 0
    side = 0
    for _ in range(80):
        if side == 2:
            break
        if bits & 1:
            count += 1
        else:
            sides[side].append(count)
            count = 0
            if len(sides[side]) == 25:
                side += 1
        bits >>= 1
    if side != 2 or count:
        raise PositionError(f"not a Position ID: {position_id!r}")
    first, second = tuple(sides[0]), tuple(sides[1])
    try:
        # gnubg encodes the side not on roll first.
        Position(second, first)
    except PositionError as exc:
        raise PositionError(f"impossible position in ID {position_id!r}: {exc}") from exc
    return second, first


def diagram(pos: Position) -> str:
    """A plain-text board for debugging: X is on roll and moves from 24 down to 1."""

    def cell(p: int) -> str:
        x = pos.player[p - 1]
        o = pos.opponent[24 - p]
        if x:
            return f"{x}X".rjust(3)
        if o:
            return f"{o}O".rjust(3)
        return "  ."

    top = "".join(cell(p) for p in range(13, 19)) + " |" + "".join(cell(p) for p in range(19, 25))
    bot = "".join(cell(p) for p in range(12, 6, -1)) + " |" + "".join(cell(p) for p in range(6, 0, -1))
    xp, op = pos.pips()
    return "\n".join(
        [
            " 13 14 15 16 17 18 | 19 20 21 22 23 24",
            top + f"   O bar {pos.opponent[24]} off {pos.opponent_off} pips {op}",
            bot + f"   X bar {pos.player[24]} off {pos.player_off} pips {xp}",
            " 12 11 10  9  8  7 |  6  5  4  3  2  1",
            f" Position ID {pos.id}  (X on roll)",
        ]
    )
