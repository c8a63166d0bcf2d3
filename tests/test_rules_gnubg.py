"""Differential test: the same legal plays as GNU Backgammon, compared as sets of resulting positions.

gnubg.findbestmoves gives each play as a tuple of single-die moves
(from, to, from, to, ...), 1-based from the mover's view, 25 the bar.  The
tuple stops at the first checker borne off, leaving its source alone at the
end (odd length); whatever was played after it is not reported.  Those plays
are rebuilt here as the set of positions they could be, and must be matched
one to one with our remaining plays.
"""

from __future__ import annotations

import pytest
from test_rules_support import board, random_game_positions, reference_step

from bgdoor.rules.moves import legal_plays, notation
from bgdoor.rules.position import Position

gnubg = pytest.importorskip("gnubg")



def MONEY(gnubg):  # noqa: N802 - a fixture named as the constant it stands for
    """A money-game cube, spelled out: gnubg's default follows whatever match it last loaded."""
    return gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0)

def _move(me: list[int], opp: list[int], src: int, dst: int) -> None:
    me[src - 1] -= 1
    if dst:
        me[dst - 1] += 1
        if opp[24 - dst] == 1:
            opp[24 - dst] = 0
            opp[24] += 1


def _finishes(me: list[int], opp: list[int], dice: list[int], need: int) -> set[Position]:
    """Positions reached by playing `need` more of `dice`, in any order (opponent then on roll)."""
    if need == 0:
        return {Position(tuple(opp), tuple(me))}
    out: set[Position] = set()
    for k, die in enumerate(dice):
        for src in range(25, 0, -1):
            dst = reference_step(me, opp, src, die)
            if dst is None:
                continue
            me2, opp2 = me[:], opp[:]
            _move(me2, opp2, src, dst)
            out |= _finishes(me2, opp2, dice[:k] + dice[k + 1 :], need - 1)
    return out


def gnubg_results(pos: Position, dice: tuple[int, int], moves: tuple[int, ...], used: int) -> set[Position]:
    """The positions a gnubg move tuple may stand for (one unless it was cut at a bear-off)."""
    me, opp = list(pos.player), list(pos.opponent)
    left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    pairs = len(moves) // 2
    for i in range(pairs):
        src, dst = moves[2 * i], moves[2 * i + 1]
        left.remove(src - dst)  # gnubg reports single-die steps
        _move(me, opp, src, dst)
    if len(moves) % 2 == 0:
        assert pairs == used
        return {Position(tuple(opp), tuple(me))}
    src = moves[-1]
    out: set[Position] = set()
    for k, die in enumerate(left):
        if reference_step(me, opp, src, die) == 0:
            me2, opp2 = me[:], opp[:]
            _move(me2, opp2, src, 0)
            out |= _finishes(me2, opp2, left[:k] + left[k + 1 :], used - pairs - 1)
    return out


def _matched(options: list[set[Position]], pool: set[Position]) -> bool:
    """Whether each option set can be given its own member of `pool` (a bipartite matching)."""
    owner: dict[Position, int] = {}

    def place(i: int, seen: set[Position]) -> bool:
        for p in options[i] & pool:
            if p in seen:
                continue
            seen.add(p)
            if p not in owner or place(owner[p], seen):
                owner[p] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(options)))


def compare(pos: Position, dice: tuple[int, int]) -> str | None:
    """None when we and gnubg agree on `pos` and `dice`, else what differs."""
    ours = legal_plays(pos, dice)
    mine = {p.position for p in ours}
    used = len(ours[0].moves) if ours else 0
    theirs = [r["move"] for r in gnubg.findbestmoves(pos.to_gnubg(), MONEY(gnubg), gnubg.evalcontext(), dice)]
    if len(theirs) != len(mine):
        return f"{len(mine)} plays here, {len(theirs)} in gnubg"
    exact = {t for t in theirs if len(t) % 2 == 0}
    full = set()
    for t in exact:
        full |= gnubg_results(pos, dice, t, used)
    if not full <= mine:
        return f"gnubg has plays we lack: {sorted(p.id for p in full - mine)}"
    cut = [gnubg_results(pos, dice, t, used) for t in theirs if len(t) % 2]
    if len(full) + len(cut) != len(mine) or not _matched(cut, mine - full):
        return "the plays gnubg cut short at a bear-off do not match ours"
    return None


def test_start_position_agrees() -> None:
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            assert compare(Position.start(), (d1, d2)) is None


def test_bear_offs_agree() -> None:
    pos = board({2: 4, 1: 3}, {20: 2})
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert compare(pos, (d1, d2)) is None
    pos = board({6: 2, 5: 1, 3: 3, 1: 1}, {"bar": 1, 4: 2})
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert compare(pos, (d1, d2)) is None


def test_position_ids_agree() -> None:
    for pos, _ in random_game_positions(seed=3, count=500):
        assert gnubg.positionid(pos.to_gnubg()) == pos.id


def test_random_games_agree() -> None:
    """6,000 positions from seeded random games, compared play for play."""
    cut = 0
    for pos, dice in random_game_positions(seed=20240601, count=6000):
        assert compare(pos, dice) is None, (pos.id, dice, compare(pos, dice))
        cut += any(m.dst == 0 for p in legal_plays(pos, dice) for m in p.moves)
    assert cut > 300  # bearing off was well exercised


def test_notation_agrees() -> None:
    """Every play written as GNU Backgammon writes it: where a point hit is marked ('13/7* 8/7'
    for 13/7 and 8/7 hitting on 7, whichever checker hit), which moves join into one checker's
    path, their order, and the counts of alike paths."""
    plays = 0
    for pos, _ in random_game_positions(seed=5, count=150):
        board = (list(pos.opponent), list(pos.player))
        for high in range(1, 7):
            for low in range(1, high + 1):
                for play in legal_plays(pos, (high, low)):
                    steps = tuple(p for m in play.moves for p in (m.src, m.dst))
                    assert str(play) == gnubg.move_tuple_to_string(steps, board), (pos.id, play.moves)
                    # In whatever order the moves were made.
                    assert notation(list(reversed(play.moves))) == str(play), (pos.id, play.moves)
                    plays += 1
    assert plays > 50_000
