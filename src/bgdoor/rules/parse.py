"""Reading a play typed in standard notation, and saying why one is illegal.

Text is matched to a legal play by the position it leads to, so `13/4`,
`13/7/4` and `13/7 7/4` all name the same play (with 6-3).  Each hop written
must fit the dice, and a written touch-down point must be open: `13/7/4` and
`13/7 7/4` are refused when 7 is blocked, as the cursor refuses a drop there
(`13/4` alone goes by 10).  Hit marks (`*`) choose between plays that reach
the same points but hit different blots on the way, and so do the touch-downs
written: `13/7/4` and `13/7 7/4` hit a blot on 7 when they can, as a checker
stopping there must.  Past that, the play hitting the fewest blots is taken
(`13/4` goes by 10 when a blot stands on 7).  A mark where the play hits nothing
is refused: the player counted on a hit the board does not give.  (A hit left
unmarked is still the play named.)

Accepted: `24/18 13/11`, `bar/22*`, `25/22`, `6/off 5/off`, `6/0`,
`8/5(2)`, `13/7*/4`; any case, extra spaces, `-` for `/`, commas between moves.

A turn with no legal play is the empty text: when the roll cannot be played,
`parse_play(pos, dice, "")` returns `no_play(pos)`, a Play with no moves
whose position is the same board with the opponent on roll.  (Not to be confused
with the Forfeit event, which loses a match for not moving at all.)
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import NamedTuple

from bgdoor.rules.moves import Play, _plays_leaving, roll_dice, roll_text
from bgdoor.rules.position import BAR, OFF, Position, _apply, _pt, _undo


class IllegalPlay(ValueError):
    """A play or move the rules forbid, or text that is not a play; the message is for the player."""


def no_play(position: Position) -> Play:
    """The turn of a roll that cannot be played: nothing moves, the opponent is on roll."""
    return Play((), position.swap())


def parse_play(position: Position, dice: tuple[int, int], text: str) -> Play:
    """The legal play `text` names; IllegalPlay says which rule it breaks otherwise."""
    roll = roll_dice(dice)
    paths = read_paths(text)
    me = list(position.player)
    for path in paths:
        me[path.points[0] - 1] -= 1
        if path.points[-1] != OFF:
            me[path.points[-1] - 1] += 1
    # Only the plays leaving the mover's checkers where the text puts them are built.
    matches, best = _plays_leaving(position, dice, tuple(max(n, 0) for n in me))
    if not paths:
        if not best:
            return no_play(position)
        raise IllegalPlay(f"you must move: {_play_using(best, roll)}")
    # Each written hop must fit the dice even when the points it joins fit a legal play:
    # "24/20 20/13" with 6-5 is a mistake, not another way to write 24/13.
    fault = _distance_fault(paths, roll)
    # Points written as touch-downs.  One that is blocked is refused: '24/19 19/15' with 19 held had
    # been played by 20, unsaid.
    stops = frozenset(p for path in paths for p in path.points[1:] if p != OFF)
    blocked = sorted((p for p in stops if position.opponent[24 - p] >= 2), reverse=True)
    if matches and not fault and min(me) >= 0 and blocked:
        marked = next((path for path in paths if blocked[0] in path.marks), None)
        if marked is not None:
            raise IllegalPlay(f"{marked.written()} says a hit, but point {blocked[0]} is blocked, not a blot")
        raise IllegalPlay(_blocked(blocked))
    if matches and not fault and min(me) >= 0:
        marks = frozenset().union(*(p.marks for p in paths))
        # A checker stopping where a blot stands hits it, so '13/12 12/10' past a blot on 12 is the
        # hit, as the cursor's 13/12 then 12/10 is (it had been taken as the quiet 13/11/10).

        def rank(play: Play) -> tuple[int, int, int]:
            hits = hit_points(position, play.position)
            return (-len(hits & marks), -len(hits & stops), len(hits - marks - stops))

        play = min(matches, key=rank)
        missed = _missed_mark(position, play, paths)
        if missed:
            raise IllegalPlay(missed)
        return play
    # (A distance fault is said as explain() says it: after the home board, for a bearing off.)
    message = explain(list(position.player), list(position.opponent), roll, paths, best)
    if not best:
        message += f" (no move at all is possible with {_dice_text(roll)}, so the turn is forfeited)"
    raise IllegalPlay(message)


def hit_points(before: Position, after: Position) -> frozenset[int]:
    """Points (mover's numbering) where the play from `before` to `after` hit a blot."""
    # After the play the mover is `after.opponent` and the hit side is `after.player`.
    return frozenset(24 - j for j in range(24) if before.opponent[j] == 1 and after.player[j] == 0)


def _missed_mark(position: Position, play: Play, paths: list[Path]) -> str | None:
    """Why a `*` written in `paths` is wrong, when the play hits nothing there."""
    missed = sorted(frozenset().union(*(p.marks for p in paths)) - hit_points(position, play.position), reverse=True)
    if not missed:
        return None
    point = missed[0]
    written = next(path.written() for path in paths if point in path.marks)
    opp = position.opponent[24 - point]
    if opp >= 2:
        return f"{written} says a hit, but point {point} is blocked, not a blot"
    if opp == 1:  # a blot the legal ways of making these moves all pass by
        return f"{written} says a hit, but that play cannot hit on point {point}"
    return f"{written} says a hit, but there is no blot on point {point} to hit"


# ------------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class Path:
    """One checker's journey as written: source first, 25 the bar, 0 off."""

    points: tuple[int, ...]
    marks: frozenset[int] = frozenset()

    def __str__(self) -> str:
        return "/".join(_pt(p) for p in self.points)

    def written(self) -> str:
        """The path with its hit marks, as the player wrote it."""
        return "/".join(_pt(p) + ("*" if i and p in self.marks else "") for i, p in enumerate(self.points))


_TOKEN = re.compile(r"([^()]+?)(?:\((\d+)\))?")
_POINT = re.compile(r"(bar|off|\d{1,2})(\*?)")
_EXAMPLE = "write moves like 24/18 13/11, bar/22* or 8/5(2)"


def read_paths(text: str) -> list[Path]:
    """The checker paths in `text`, a repeat count expanded; IllegalPlay if it cannot be read."""
    s = text.lower().replace("-", "/").replace(",", " ")
    s = re.sub(r"\s*/\s*", "/", s)
    s = re.sub(r"\s*\(\s*(\d+)\s*\)", r"(\1)", s)
    s = re.sub(r"\s+\*", "*", s)
    paths: list[Path] = []
    for token in s.split():
        m = _TOKEN.fullmatch(token)
        if not m:
            raise IllegalPlay(f"cannot read {token!r}: {_EXAMPLE}")
        parts = m.group(1).split("/")
        if len(parts) < 2 or not all(parts):
            raise IllegalPlay(f"cannot read {token!r}: {_EXAMPLE}")
        points: list[int] = []
        marks: set[int] = set()
        for i, part in enumerate(parts):
            pm = _POINT.fullmatch(part)
            if not pm:
                raise IllegalPlay(f"cannot read {token!r}: {part!r} is not a point (1 to 24, bar or off)")
            name, star = pm.groups()
            if name == "bar":
                if i:
                    raise IllegalPlay(f"cannot read {token!r}: a checker cannot move to the bar")
                p = BAR
            elif name == "off":
                if not i:
                    raise IllegalPlay(f"cannot read {token!r}: a move cannot start off the board")
                p = OFF
            else:
                p = int(name)
                if not i and not 1 <= p <= 25:
                    raise IllegalPlay(f"cannot read {token!r}: a move starts on a point from 1 to 24, or the bar (25)")
                if i and p > 24:
                    raise IllegalPlay(f"cannot read {token!r}: there is no point {p}")
            if i:
                prev = points[-1]
                if prev == OFF:
                    raise IllegalPlay(f"cannot read {token!r}: off must come last")
                if p >= prev:
                    raise IllegalPlay(
                        f"cannot read {token!r}: checkers move down toward point 1, "
                        f"so {_pt(prev)}/{_pt(p)} goes the wrong way"
                    )
            if star:
                if not i:
                    raise IllegalPlay(
                        f"cannot read {token!r}: * marks a hit where a checker lands, not where it starts"
                    )
                if p == OFF:
                    raise IllegalPlay(f"cannot read {token!r}: nothing can be hit off the board")
                marks.add(p)
            points.append(p)
        count = int(m.group(2) or 1)
        if count < 1:
            raise IllegalPlay(f"cannot read {token!r}: a repeat count is at least 1")
        if len(paths) + count > 4:  # checked here so that 8/5(99999) is not expanded
            raise IllegalPlay("too many moves: no roll moves checkers more than four times")
        paths.extend([Path(tuple(points), frozenset(marks))] * count)
    return paths


# ---------------------------------------------------------------- explaining


NOT_LEGAL = "that is not a legal play"  # explain()'s answer when no one rule is broken


class _Failure(NamedTuple):
    depth: int  # dice played before the failing step: the deepest failure is the most telling
    message: str
    blocked: tuple[tuple[Path, int], ...] = ()  # (path, point) when a blocked point is the reason


def explain(me: list[int], opp: list[int], dice: tuple[int, ...], paths: list[Path], best: int) -> str:
    """Why `paths` is not a legal play with `dice` left to play, `best` of them being playable.

    The boards are left as they were found.
    """
    fault = _source_fault(me, paths) or _distance_fault(paths, dice)
    if fault:
        return _outside_fault(me, paths) or fault
    result = _search(me, opp, paths, list(dice), 0, tuple(me))
    if isinstance(result, _Failure):
        if best and result.depth >= best:
            # Past what the roll lets be played: the dice left cannot be used at all, so "a 6
            # left to play" sent the player looking for a move that does not exist.  A blocked
            # point or a checker still on the bar is why, and said ('bar/22 bar/20' with 20 held
            # had read only 'too many moves').
            if result.blocked or result.message.startswith("you must enter"):
                return f"{_render(result)}: only {_dice_words(best, dice)} of the roll can be played"
            return f"too many moves for the roll: only {_dice_words(best, dice)} of it can be played"
        return _render(result)
    used = result
    if len(used) < best:
        return _whole_roll(best, dice)
    if best == 1 and len(dice) == 2 and dice[0] != dice[1] and used[0] != max(dice):
        return _higher_die(dice)
    return NOT_LEGAL


def _walk_paths(me: list[int], opp: list[int], dice: tuple[int, ...], paths: list[Path]) -> str | list[int]:
    """The dice used by one way to make `paths` step by step, or why no way works."""
    fault = _source_fault(me, paths) or _distance_fault(paths, dice)
    if fault:
        return _outside_fault(me, paths) or fault
    result = _search(me, opp, paths, list(dice), 0, tuple(me))
    if isinstance(result, _Failure):
        return _render(result)
    return result


def _source_fault(me: list[int], paths: list[Path]) -> str | None:
    """A move from where the player has no checker, and no other move written brings one: said
    before the distance ('3/off is 3 pips, which takes both dice' for a point with none)."""
    arriving = {path.points[-1] for path in paths}
    for src in sorted({path.points[0] for path in paths}, reverse=True):
        if not me[src - 1] and src not in arriving:
            return f"you have no checker {_on(src)}"
    return None


def _outside_fault(me: list[int], paths: list[Path]) -> str | None:
    """A play bearing off while checkers it does not move are outside the home board: said before
    the distance ('13/off is 13 pips, which does not match the dice' read as if another roll
    would do)."""
    off = [path for path in paths if path.points[-1] == 0]
    outside = {i + 1 for i in range(6, 24) if me[i]} - {path.points[0] for path in paths}
    if off and (outside or any(path.points[0] > 6 for path in off)):
        return "you cannot bear off while you have checkers outside your home board"
    return None


def _distance_fault(paths: list[Path], dice: tuple[int, ...]) -> str | None:
    """Why the written hops cannot fit `dice` whatever the board, if they cannot."""
    steps_needed = 0
    longest: tuple[int, int, int] | None = None  # the hop that takes the most dice: (dice, from, to)
    for path in paths:
        for a, b in itertools.pairwise(path.points):
            options = _hop_dice(a, b, dice)
            if not options:
                return (
                    f"{_pt(a)}/{_pt(b)} is {_pips(a - b)}, which does not match the dice: "
                    f"you have {_dice_text(dice)} to play"
                )
            fewest = min(len(o) for o in options)
            steps_needed += fewest
            if fewest > 1 and (longest is None or fewest > longest[0]):
                longest = (fewest, a, b)
    if steps_needed > len(dice):
        if longest is not None and len(paths) <= len(dice):
            # As many moves as dice, one of them the length of two: 'too many moves' alone left
            # the player counting moves that were not too many (8/5 6/2 with 3-1).
            n, a, b = longest
            return (f"too many moves for the roll: {_pt(a)}/{_pt(b)} is {_pips(a - b)}, which takes "
                    f"{_dice_words(n, dice)}, and you have {_dice_text(dice)} to play")
        return f"too many moves for the roll: you have {_dice_text(dice)} to play"
    return None


def _on(src: int) -> str:
    return "on the bar" if src == BAR else f"on point {src}"


def _blocked(points: list[int]) -> str:
    """'point 7 is blocked', 'points 10 and 8 are blocked': highest first, as given."""
    if len(points) == 1:
        return f"point {points[0]} is blocked"
    return "points " + ", ".join(map(str, points[:-1])) + f" and {points[-1]} are blocked"


def _pips(n: int) -> str:
    return "1 pip" if n == 1 else f"{n} pips"


def _render(failure: _Failure) -> str:
    if not failure.blocked:
        return failure.message
    points = sorted({p for _, p in failure.blocked}, reverse=True)
    text = _blocked(points)
    paths = {path.points for path, _ in failure.blocked}
    if len(paths) == 1:
        path = failure.blocked[0][0]
        if path.points[-1] not in points:
            text += f", so {path} has nowhere to touch down"
    return text


def _deeper(a: _Failure | None, b: _Failure) -> _Failure:
    """The more telling failure; equally deep blocked points are reported together."""
    if a is None or b.depth > a.depth:
        return b
    if b.depth == a.depth and a.blocked and b.blocked:
        return a._replace(blocked=a.blocked + tuple(x for x in b.blocked if x not in a.blocked))
    return a


def _search(
    me: list[int], opp: list[int], paths: list[Path], left: list[int], depth: int, first: tuple[int, ...]
) -> list[int] | _Failure:
    if not paths:
        return []
    if not left:
        return _Failure(depth, "too many moves for the roll: all the dice are used")
    failure: _Failure | None = None
    tried: set[tuple[int, ...]] = set()
    for i, path in enumerate(paths):
        if path.points in tried:
            continue
        tried.add(path.points)
        rest = paths[:i] + paths[i + 1 :]
        src = path.points[0]
        if not me[src - 1]:
            where = _on(src)
            what = "no more checkers" if first[src - 1] else "no checker"
            failure = _deeper(failure, _Failure(depth, f"you have {what} {where}"))
            continue
        sequences = _path_dice(path.points, left)
        if not sequences:
            failure = _deeper(
                failure,
                _Failure(depth, f"{path} does not match the dice: you have {_dice_text(tuple(left))} left to play"),
            )
        for seq in sequences:
            result = _walk(me, opp, path, seq, rest, left, depth, first)
            if isinstance(result, list):
                return result
            failure = _deeper(failure, result)
    assert failure is not None
    return failure


def _walk(
    me: list[int],
    opp: list[int],
    path: Path,
    seq: tuple[int, ...],
    rest: list[Path],
    left: list[int],
    depth: int,
    first: tuple[int, ...],
) -> list[int] | _Failure:
    done: list[tuple[int, int, bool]] = []
    src = path.points[0]
    result: list[int] | _Failure
    for k, die in enumerate(seq):
        why = _step_fault(me, opp, src, die)
        if why is not None:
            message, blocked = why
            if k and message.startswith(f"a {die} may bear off"):
                # A later die of a longer path: 'a 2 may bear off only from your highest point'
                # for 4/off with 3-2 read as if the 4 point were meant.
                via = "/".join(_pt(p) for p in [path.points[0], *(d for _, d, _ in done), OFF])
                if via != str(path):
                    message = f"{path} would be {via}, where {message}"
            result = _Failure(depth + k, message, ((path, blocked),) if blocked else ())
            break
        dst = max(src - die, OFF)
        done.append((src, dst, _apply(me, opp, src, dst)))
        src = dst
    else:
        remaining = list(left)
        for die in seq:
            remaining.remove(die)
        found = _search(me, opp, rest, remaining, depth + len(seq), first)
        result = list(seq) + found if isinstance(found, list) else found
    for s, d, hit in reversed(done):
        _undo(me, opp, s, d, hit)
    return result


def _step_fault(me: list[int], opp: list[int], src: int, die: int) -> tuple[str, int] | None:
    """Why one checker may not move from `src` by `die` (and the blocked point, if that is why)."""
    if not me[src - 1]:
        where = _on(src)
        return f"you have no checker {where}", 0
    dst = src - die
    if src != BAR and me[24]:
        if dst <= 0:
            return "you cannot bear off while you have a checker on the bar", 0
        n = me[24]
        return f"you must enter {'your checker' if n == 1 else f'your {n} checkers'} from the bar first", 0
    if dst > 0:
        if opp[24 - dst] >= 2:
            return f"point {dst} is blocked", dst
        return None
    if any(me[6:24]):
        return "you cannot bear off while you have checkers outside your home board", 0
    if dst < 0:
        highest = max(i + 1 for i in range(6) if me[i])
        if highest > src:
            return f"a {die} may bear off only from your highest point, and you have a checker on point {highest}", 0
    return None


def _hop_dice(a: int, b: int, dice: tuple[int, ...] | list[int]) -> list[tuple[int, ...]]:
    """Orders of dice that could carry one checker from `a` to `b` (ignoring the board)."""
    dist = a - b
    off = b == OFF
    if len(dice) > 1 and all(d == dice[0] for d in dice):
        d = dice[0]
        return [(d,) * k for k in range(1, len(dice) + 1) if k * d == dist or (off and (k - 1) * d < dist < k * d)]
    found: list[tuple[int, ...]] = []
    for d in sorted(set(dice)):
        if d == dist or (off and d > dist):
            found.append((d,))
    if len(dice) == 2:
        for x, y in ((dice[0], dice[1]), (dice[1], dice[0])):
            if x < dist and (x + y == dist or (off and x + y > dist)):
                found.append((x, y))
    return found


def _path_dice(points: tuple[int, ...], left: list[int]) -> list[tuple[int, ...]]:
    """Flat die sequences for a whole path that fit in the dice `left`."""
    seqs: list[tuple[int, ...]] = [()]
    for a, b in itertools.pairwise(points):
        seqs = [s + o for s in seqs for o in _hop_dice(a, b, left) if _fits(s + o, left)]
    return seqs


def _fits(seq: tuple[int, ...], left: list[int]) -> bool:
    return all(seq.count(d) <= left.count(d) for d in set(seq))


# ------------------------------------------------------------------- wording

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _dice_text(dice: tuple[int, ...] | list[int]) -> str:
    if len(dice) == 1:
        return f"a {dice[0]}"
    if len(dice) == 2 and dice[0] != dice[1]:
        return roll_text((dice[0], dice[1]))
    return f"{_NUMBERS[len(dice)]} {dice[0]}s"


def _whole_roll(best: int, dice: tuple[int, ...]) -> str:
    return f"you must play as much of the roll as you can, and {_play_using(best, dice)}"


def _play_using(best: int, dice: tuple[int, ...]) -> str:
    return f"a play using {_dice_words(best, dice)} exists"


def _dice_words(best: int, dice: tuple[int, ...]) -> str:
    """`best` of the roll's dice in words: 'one die', 'both dice', 'three 4s'."""
    if len(dice) == 2 and dice[0] != dice[1]:
        return "both dice" if best == 2 else "one die"
    if best == len(dice) == 4:
        return f"all four {dice[0]}s"
    return f"{_NUMBERS[best]} {dice[0]}{'s' if best > 1 else ''}"


def _higher_die(dice: tuple[int, ...]) -> str:
    return f"only one die can be played, so it must be the higher one: play the {max(dice)}"
