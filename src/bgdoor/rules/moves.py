"""Legal plays: every distinct way to play a roll, and their notation.

Boards for the step helpers (`_step`, `_sources`, ...) are lists of 25 counts
seen from the side on roll, as in `Position`: index i is point i + 1, index
24 the bar.  The generator itself packs both sides in one bytearray (see
below).  A move's source 25 means the bar and destination 0 means borne off.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bgdoor.rules.position import Move, Position, _pt


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


# The generator proper works on one bytearray of 50 counts, the mover's 25 then
# the opponent's 25 (opponent index j at 25 + j, so the mover's point p is
# 49 - p there, and the opponent's bar 49).  A result's key is then one
# bytes() call, and every step is written out in the loops: in Python the
# function calls, not the arithmetic, are what cost.

_Raw = tuple[int, int, bool]  # a move as (src, dst, hit) while generating: cheaper to make than a Move
_Found = dict[bytes, tuple[_Raw, ...]]  # distinct results and one way to reach each
_OPP_BAR = 49
_OUTSIDE = bytes(19)  # the mover's points 7..24 and bar, all empty
_ABOVE = [bytes(6 - i) for i in range(7)]  # _ABOVE[src]: the home points above src, all empty


def _can_bear_off(b: bytearray, src: int, dst: int) -> bool:
    """All checkers home, and an overshoot (dst < 0) only from the highest point."""
    return b[6:25] == _OUTSIDE and (dst == 0 or b[src:6] == _ABOVE[src])


def _gen_two(b: bytearray, d1: int, d2: int) -> tuple[_Found, int]:
    """Results of a roll of two different dice, and how many dice they use."""
    found: _Found = {}
    singles: tuple[_Found, _Found] = ({}, {})  # plays of one die only: the higher, the lower
    high = max(d1, d2)
    for x, y in ((d1, d2), (d2, d1)):
        for s1 in (25,) if b[24] else [p for p in range(24, 0, -1) if b[p - 1]]:
            t1 = s1 - x
            if t1 > 0:
                if b[49 - t1] >= 2:
                    continue
            elif _can_bear_off(b, s1, t1):
                t1 = 0
            else:
                continue
            # Make the first move.
            b[s1 - 1] -= 1
            h1 = False
            if t1:
                b[t1 - 1] += 1
                if b[49 - t1] == 1:
                    b[49 - t1] = 0
                    b[_OPP_BAR] += 1
                    h1 = True
            first = (s1, t1, h1)
            second = False
            for s2 in (25,) if b[24] else [p for p in range(24, 0, -1) if b[p - 1]]:
                t2 = s2 - y
                if t2 > 0:
                    j = 49 - t2
                    if b[j] >= 2:
                        continue
                    second = True
                    b[s2 - 1] -= 1
                    b[t2 - 1] += 1
                    if b[j] == 1:
                        b[j] = 0
                        b[_OPP_BAR] += 1
                        key = bytes(b)
                        if key not in found:
                            found[key] = (first, (s2, t2, True))
                        b[j] = 1
                        b[_OPP_BAR] -= 1
                    else:
                        key = bytes(b)
                        if key not in found:
                            found[key] = (first, (s2, t2, False))
                    b[t2 - 1] -= 1
                    b[s2 - 1] += 1
                elif _can_bear_off(b, s2, t2):
                    second = True
                    b[s2 - 1] -= 1
                    key = bytes(b)
                    if key not in found:
                        found[key] = (first, (s2, 0, False))
                    b[s2 - 1] += 1
            if not second and not found:
                singles[x != high].setdefault(bytes(b), (first,))
            # Take the first move back.
            b[s1 - 1] += 1
            if t1:
                b[t1 - 1] -= 1
                if h1:
                    b[49 - t1] = 1
                    b[_OPP_BAR] -= 1
    if found:
        return found, 2
    # Only one die can be played: the higher one, if it can.
    for one in singles:
        if one:
            return one, 1
    return {}, 0


def _gen_four(b: bytearray, die: int) -> tuple[_Found, int]:
    """Results of a double, and how many of its four dice they use."""
    found: _Found = {}
    best = 0
    moves: list[_Raw] = []

    def walk(left: int, hi: int) -> None:
        nonlocal found, best
        if b[24]:
            sources: range | tuple[int, ...] = (25,) if hi == 25 else ()
        else:
            # Same-die moves commute, so sources never rise: no order is generated twice.
            sources = range(min(hi, 24), 0, -1)
        moved = False
        for src in sources:
            if not b[src - 1]:
                continue
            dst = src - die
            if dst > 0:
                if b[49 - dst] >= 2:
                    continue
            elif _can_bear_off(b, src, dst):
                dst = 0
            else:
                continue
            moved = True
            b[src - 1] -= 1
            hit = False
            if dst:
                b[dst - 1] += 1
                if b[49 - dst] == 1:
                    b[49 - dst] = 0
                    b[_OPP_BAR] += 1
                    hit = True
            if left > 1:
                moves.append((src, dst, hit))
                walk(left - 1, src)
                moves.pop()
            else:
                # The last die: results are kept here rather than by one more call each.
                if best < 4:
                    best = 4
                    found = {}
                key = bytes(b)
                if key not in found:
                    found[key] = (*moves, (src, dst, hit))
            b[src - 1] += 1
            if dst:
                b[dst - 1] -= 1
                if hit:
                    b[49 - dst] = 1
                    b[_OPP_BAR] -= 1
        if not moved:
            n = len(moves)
            if n < best:
                return
            if n > best:
                best = n
                found = {}
            key = bytes(b)
            if key not in found:
                found[key] = tuple(moves)

    walk(4, 25)
    return found, best


def _generate(position: Position, dice: tuple[int, int]) -> tuple[_Found, int]:
    d1, d2 = _check_dice(dice)
    b = bytearray(position.player + position.opponent)
    return _gen_four(b, d1) if d1 == d2 else _gen_two(b, d1, d2)


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


# Every possible Move, made once: building plays is otherwise a large part of legal_plays' time.
_MOVES: dict[_Raw, Move] = {(s, d, h): Move(s, d, h) for s in range(1, 26) for d in range(s) for h in (False, True)}


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """One play per distinct resulting position; empty when the roll cannot be played."""
    found, best = _generate(position, dice)
    return _build(found.items()) if best else []


def _build(results: Iterable[tuple[bytes, tuple[_Raw, ...]]]) -> list[Play]:
    """Plays from generator results."""
    # Results are valid by construction, so the objects are filled in directly through
    # their slots (both are slotted dataclasses), skipping the checks and the Python-level
    # constructor calls: a third of legal_plays' time went on building the results.
    new = object.__new__
    slots, play_slots = Position.__dict__, Play.__dict__
    set_player, set_opponent = slots["player"].__set__, slots["opponent"].__set__
    set_moves, set_position = play_slots["moves"].__set__, play_slots["position"].__set__
    move = _MOVES.__getitem__
    plays = []
    for key, raw in results:
        pos = new(Position)
        set_player(pos, tuple(key[25:]))
        set_opponent(pos, tuple(key[:25]))
        play = new(Play)
        set_moves(play, tuple(map(move, raw)))
        set_position(play, pos)
        plays.append(play)
    return plays


def _plays_leaving(position: Position, dice: tuple[int, int], mover: tuple[int, ...]) -> tuple[list[Play], int]:
    """The legal plays that leave the mover's checkers as `mover`, and the dice every play uses.

    For reading notation: building only these is much cheaper than all plays.
    """
    found, best = _generate(position, dice)
    want = bytes(mover)
    return _build((k, r) for k, r in found.items() if k.startswith(want)), best


def play_count(position: Position, dice: tuple[int, int]) -> tuple[int, int]:
    """(number of distinct plays, dice used per play), cheaper than building plays."""
    found, best = _generate(position, dice)
    return (len(found) if best else 0, best)


# ------------------------------------------------------------------ notation


def roll_text(dice: tuple[int, int]) -> str:
    """A roll as players say it, the higher die first ('6-2'), whichever came up first."""
    return f"{max(dice)}-{min(dice)}"


def notation(moves: tuple[Move, ...] | list[Move]) -> str:
    """Standard notation, as GNU Backgammon writes it: `24/18 13/11`, `bar/22*`, `6/off 5/off`,
    `8/5(2) 6/5(2)`, `13/7*/4`; the same text whatever order the moves were made in.

    The single moves go from the highest point down (the longer first from one point), each
    joining the first checker path that ends where it starts; a path is its start, each point
    where it hits and its end; a point hit is marked once, where it is first written ('13/7* 8/7',
    whichever checker hit); paths from and to the same points are one, counted.
    """
    paths: list[list[Move]] = []
    for m in sorted(moves, key=lambda m: (-m.src, -m.dst)):
        for path in paths:
            if path[-1].dst == m.src:
                path.append(m)
                break
        else:
            paths.append([m])
    hit = {m.dst for m in moves if m.hit}
    marked: set[int] = set()
    counts: dict[tuple[int, int], int] = {}
    texts: dict[tuple[int, int], str] = {}
    for path in paths:
        text = _pt(path[0].src)
        for i, m in enumerate(path):
            if m.dst in hit and m.dst not in marked:
                marked.add(m.dst)
                text += f"/{_pt(m.dst)}*"
            elif i == len(path) - 1:
                text += f"/{_pt(m.dst)}"
        ends = (path[0].src, path[-1].dst)
        counts[ends] = counts.get(ends, 0) + 1
        if ends not in texts or "*" in text:
            texts[ends] = text
    return " ".join(text + (f"({counts[ends]})" if counts[ends] > 1 else "") for ends, text in texts.items())


# Move is defined beside Position.apply; callers find it here too.
__all__ = ["Move", "Play", "legal_plays", "notation", "play_count", "roll_dice"]
