"""A turn played one checker move at a time, as the cursor UI does it.

Only moves after which the roll can still be finished as a legal play are
offered: a first move that would strand the other die is refused when another
order plays both, and when only one die can be played it must be the higher.
"""

from __future__ import annotations

from collections.abc import Sequence

from bgdoor.rules.moves import Move, Play, _check_dice, _sources, _step, roll_dice
from bgdoor.rules.parse import NOT_LEGAL, IllegalPlay, Path, _higher_die, _walk_paths, explain, no_play, read_paths
from bgdoor.rules.position import BAR, OFF, Position, _apply, _pt, _undo


def _can_play(me: list[int], opp: list[int], dice: tuple[int, ...], need: int) -> bool:
    """Whether `need` more dice of `dice` can be played one after another."""
    if need == 0:
        return True
    for die in sorted(set(dice), reverse=True):
        i = dice.index(die)
        rest = dice[:i] + dice[i + 1 :]
        for src in _sources(me):
            if not me[src - 1]:
                continue
            dst = _step(me, opp, src, die)
            if dst < 0:
                continue
            hit = _apply(me, opp, src, dst)
            ok = _can_play(me, opp, rest, need - 1)
            _undo(me, opp, src, dst, hit)
            if ok:
                return True
    return False


class Turn:
    """One roll being played: `start` and `dice` are fixed, `moves` grows and shrinks.

    Points are the mover's: 25 is the bar as a source, 0 is off as a destination.
    `required` is how many single-die moves complete the turn (0 when the roll
    cannot be played at all).  Mistakes raise IllegalPlay with a reason for the
    player, and leave the turn as it was.
    """

    def __init__(self, position: Position, dice: tuple[int, int]) -> None:
        self.start = position
        self.dice: tuple[int, int] = _check_dice(dice)
        self._roll = roll_dice(self.dice)
        self._me = list(position.player)
        self._opp = list(position.opponent)
        self._moves: list[Move] = []
        self._used: list[int] = []  # the die each move used, in step with _moves
        self._options: list[tuple[Move, int]] | None = None
        self._sources: list[int] | None = None  # with _options: the board asks on every key
        # Each source's reachable destinations for the moves made so far (the game screen asks
        # for them on every key, and exploring a chain moves and unmoves checkers).
        self._reach: dict[int, dict[int, list[tuple[Move, int]]]] = {}
        self.required = next(
            (n for n in range(len(self._roll), 0, -1) if _can_play(self._me, self._opp, self._roll, n)), 0
        )
        # Only one die playable, and the higher can be: then it must be.
        high = max(self._roll)
        self._high_only = (
            self.required == 1 and len(self._roll) == 2 and _can_play(self._me, self._opp, (high,), 1)
        )

    # ------------------------------------------------------------ state

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def position(self) -> Position:
        """The board now, with the same side still on roll."""
        return Position._make(tuple(self._me), tuple(self._opp))

    @property
    def remaining_dice(self) -> tuple[int, ...]:
        left = list(self._roll)
        for die in self._used:
            left.remove(die)
        return tuple(left)

    @property
    def no_play(self) -> bool:
        """The roll cannot be played at all: the turn passes with no play."""
        return self.required == 0

    @property
    def is_complete(self) -> bool:
        """As many dice are played as the roll allows; no further move is possible."""
        return len(self._moves) == self.required

    @property
    def play(self) -> Play | None:
        """The legal play made, once complete (the empty no_play when nothing can move); else None."""
        if not self.is_complete:
            return None
        if not self._moves:
            return no_play(self.start)
        return Play(tuple(self._moves), Position._make(tuple(self._opp), tuple(self._me)))

    # ------------------------------------------------------------ choices

    def _legal(self) -> list[tuple[Move, int]]:
        """(move, die) pairs that may be made next; a move two dice could make uses the lower that works."""
        if self._options is not None:
            return self._options
        found: list[tuple[Move, int]] = []
        seen: set[tuple[int, int]] = set()
        done = len(self._moves)
        if done < self.required:
            me, opp = self._me, self._opp
            left = self.remaining_dice
            need = self.required - done - 1
            for die in sorted(set(left)):
                if self._high_only and die != max(self._roll):
                    continue
                i = left.index(die)
                rest = left[:i] + left[i + 1 :]
                for src in _sources(me):
                    if not me[src - 1]:
                        continue
                    dst = _step(me, opp, src, die)
                    if dst < 0 or (src, dst) in seen:
                        continue
                    hit = _apply(me, opp, src, dst)
                    ok = _can_play(me, opp, rest, need)
                    _undo(me, opp, src, dst, hit)
                    if ok:
                        seen.add((src, dst))
                        found.append((Move(src, dst, hit), die))
        found.sort(key=lambda o: (-o[0].src, -o[0].dst))
        self._options = found
        return found

    def legal_moves(self) -> list[Move]:
        """Single-die moves that may be made next, highest source first."""
        return [m for m, _ in self._legal()]

    def sources(self) -> list[int]:
        """Points (25 the bar) with a checker that may move now, highest first."""
        if self._sources is None:
            self._sources = sorted({m.src for m, _ in self._legal()}, reverse=True)
        return list(self._sources)

    def destinations(self, src: int) -> list[int]:
        """Where the checker on `src` may end up: one die, or several in a row (0 is off), highest first."""
        return sorted(self._chains(src), reverse=True)

    def _chains(self, src: int) -> dict[int, list[tuple[Move, int]]]:
        """Each reachable destination with its preferred chain: fewest dice, then fewest hits."""
        known = self._reach.get(src)
        if known is not None:
            return known
        options, reach = self._legal(), self._reach  # exploring below moves and takes back
        best: dict[int, list[tuple[Move, int]]] = {}

        def explore(point: int, chain: list[tuple[Move, int]]) -> None:
            for move, die in self._legal():
                if move.src != point:
                    continue
                path = chain + [(move, die)]
                old = best.get(move.dst)
                if old is None or (len(path), _hits(path)) < (len(old), _hits(old)):
                    best[move.dst] = path
                if move.dst != OFF:
                    self._push(move, die)
                    explore(move.dst, path)
                    self._pop()

        explore(src, [])
        self._options, self._reach = options, reach  # the same moves again: the same answers
        reach[src] = best
        return best

    def leads_to(self, after: Position) -> bool:
        """Whether some way of finishing the turn from the moves made so far ends at `after` (a
        play's result: the opponent on roll), as a play made elsewhere from the same start does."""
        seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()  # boards with the dice left, looked at

        def finishes() -> bool:
            if self.is_complete:
                play = self.play
                return play is not None and play.position == after
            here = (tuple(self._me), tuple(sorted(self._used)))
            if here in seen:
                return False
            seen.add(here)
            for move, die in list(self._legal()):
                self._push(move, die)
                try:
                    if finishes():
                        return True
                finally:
                    self._pop()
            return False

        return finishes()

    # ------------------------------------------------------------ acting

    def move(self, src: int, dst: int) -> Move:
        """Move one checker from `src` to `dst` (25 the bar, 0 off), by one die or several in a row.

        Returns the last single-die move made; IllegalPlay says why the move is refused.
        """
        chain = self._chains(src).get(dst)
        if chain is None:
            raise IllegalPlay(self._why(src, dst))
        for move, die in chain:
            self._push(move, die)
        return chain[-1][0]

    def refusal(self, src: int, dst: int) -> str | None:
        """Why move() would refuse `src` to `dst` now, or None if it would make it."""
        return None if dst in self._chains(src) else self._why(src, dst)

    def refusal_after(self, text: str) -> str | None:
        """Why the moves in `text`, made after those already made, do not finish the turn, said of
        the dice left (the whole line's reason had counted the moves made as typed: 'you have four
        6s to play' with three left); None when they do, or when only the whole line says why."""
        try:
            paths = read_paths(text)
        except IllegalPlay as exc:
            return str(exc)
        if not paths:
            return None
        why = explain(self._me, self._opp, self.remaining_dice, paths, self.required - len(self._moves))
        return None if why == NOT_LEGAL else why

    def undo(self) -> Move:
        """Take back the last single-die move."""
        if not self._moves:
            raise IllegalPlay("there is no move to take back")
        move = self._moves[-1]
        self._pop()
        return move

    def _push(self, move: Move, die: int) -> None:
        _apply(self._me, self._opp, move.src, move.dst)
        self._moves.append(move)
        self._used.append(die)
        self._options = None
        self._sources = None
        self._reach = {}

    def _pop(self) -> None:
        move = self._moves.pop()
        self._used.pop()
        _undo(self._me, self._opp, move.src, move.dst, move.hit)
        self._options = None
        self._sources = None
        self._reach = {}

    def _why(self, src: int, dst: int) -> str:
        if not (isinstance(src, int) and isinstance(dst, int) and 0 < src <= 25 and 0 <= dst < 25 and dst < src):
            return "checkers move from a point (or the bar) to a lower point, or off"
        if self.no_play:
            return "no move is possible with this roll: the turn is forfeited"
        if self.is_complete:
            if self.required < len(self._roll):
                return "no more of the roll can be played: the turn is complete"
            return "all the dice are played: the turn is complete"
        if dst == 0 and not self._me[src - 1] and any(self._me[6:]):
            # Nothing to bear off there, and nothing could be borne off anywhere: the reason that
            # holds whichever point is tried ('you have no checker on the bar' was true, not why).
            if self._me[24]:
                return "you cannot bear off while you have a checker on the bar"
            return "you cannot bear off while you have checkers outside your home board"
        if not self._me[src - 1]:
            # Said before the distance: '5/off is 5 pips' read as if the checker were there.
            where = "on the bar" if src == BAR else f"on point {src}"
            return f"you have {'no more checkers' if self.start.player[src - 1] else 'no checker'} {where}"
        if dst == 0:
            # Checkers other than this one left out of the home board: no way this one goes makes
            # bearing off possible ('point 1 is blocked, so 13/off has nowhere to touch down' read
            # as if 13/off would do with point 1 open).
            others = list(self._me)
            others[src - 1] -= 1
            if others[24]:
                return "you cannot bear off while you have a checker on the bar"
            if any(others[6:24]):
                return "you cannot bear off while you have checkers outside your home board"
        left = self.remaining_dice
        result = _walk_paths(self._me, self._opp, left, [Path((src, dst))])
        if isinstance(result, str):
            return result
        if self._high_only and result[0] != max(self._roll):
            return _higher_die(self._roll)
        return (
            f"you must play as much of the roll as you can, "
            f"and after {_pt(src)}/{_pt(dst)} the rest could not be played"
        )


def _hits(chain: list[tuple[Move, int]]) -> int:
    return sum(m.hit for m, _ in chain)



def in_notation_order(position: Position, dice: tuple[int, int], play: Play) -> tuple[Move, ...]:
    """The single moves of `play` in the order its notation reads (the highest point first, a
    checker's hops one after another), where the rules allow that order; else as generated.  The
    rules generate plays die by die: a replay of '24/22 13/10' had moved 13/10 first."""
    chains: list[list[Move]] = []
    for m in sorted(play.moves, key=lambda m: (-m.src, -m.dst)):
        chain = next((c for c in chains if c[-1].dst == m.src), None)
        if chain is None:
            chains.append([m])
        else:
            chain.append(m)
    turn = Turn(position, dice)
    left = [m for chain in chains for m in chain]
    while left:
        found = next(((m, o) for m in left for o in turn._legal() if (o[0].src, o[0].dst) == (m.src, m.dst)), None)
        if found is None:
            return play.moves
        turn._push(*found[1])
        left.remove(found[0])
    return turn.moves if turn.play == play else play.moves


def as_played(
    position: Position, dice: tuple[int, int], hops: Sequence[tuple[int, int]], play: Play
) -> tuple[Move, ...] | None:
    """The single moves of `play` in the order `hops` (source and destination, 25 the bar and 0
    off, by one die or several in a row) made them, where the rules allow that order and it
    comes to `play`; None where not.  V)iew last had replayed 13/9 9/7* as 13/11 11/7*."""
    turn = Turn(position, dice)
    try:
        for src, dst in hops:
            turn.move(src, dst)
    except IllegalPlay:
        return None
    return turn.moves if turn.play is not None and turn.play.position == play.position else None


def written_hops(text: str) -> list[tuple[int, int]]:
    """A play's moves in the order `text` writes them, each hop of a path one ('13/9/7' is 13/9
    then 9/7); none where it is not notation (a Position ID) or cannot be read."""
    try:
        paths = read_paths(text)
    except IllegalPlay:
        return []
    return [(a, b) for path in paths for a, b in zip(path.points, path.points[1:], strict=False)]
