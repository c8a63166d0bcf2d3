"""Every checker where it belongs, read back off a terminal emulator.

For each position, both viewers, each charset and both orientations, the
board is drawn into pyte and read back the way a caller would: the point
numbers printed in rows 2 and 18 say which column is which point, the
glyphs (or a printed count on tall stacks) in that column say how many
checkers of which colour stand there, and the BAR and OFF labels find the
bar and the viewer's tray.  All 30 checkers must be accounted for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pyte
import pytest

from bgdoor.rules import Position
from bgdoor.term.charset import Charset, glyphs
from bgdoor.term.screen import Screen
from bgdoor.ui.board import BoardView, Colour, Orientation, render_board, theme

PYTE_COLOURS = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]
TOP = range(4, 9)
BOTTOM = range(12, 17)


def side(points: dict[int, int]) -> tuple[int, ...]:
    """25 counts from {point: n}; point 25 is the bar."""
    counts = [0] * 25
    for p, n in points.items():
        counts[p - 1] = n
    return tuple(counts)


POSITIONS: dict[str, Position] = {
    "start": Position.start(),
    "bar": Position(side({6: 5, 8: 3, 13: 5, 25: 2}), side({6: 4, 8: 3, 13: 5, 24: 2, 25: 1})),
    "borne off": Position(side({1: 3, 2: 2, 3: 2, 24: 1}), side({6: 5, 5: 3, 4: 2})),
    "stack of 15": Position(side({13: 15}), side({24: 15})),
    "bear-off": Position(side({1: 2, 2: 3, 3: 1, 6: 4}), side({1: 1, 2: 2, 4: 3})),
    "tall bar": Position(side({25: 7, 6: 8}), side({25: 6, 1: 9})),
    "all off": Position(side({}), side({13: 15})),
}


def other(colour: Colour) -> Colour:
    return "black" if colour == "white" else "white"


@dataclass(frozen=True)
class Expected:
    """What the viewer should see: each point's owner and count, and each side's bar, tray and pips."""

    points: dict[int, tuple[Colour | None, int]]
    bar: dict[Colour, int]
    off: dict[Colour, int]
    pips: dict[Colour, int]


def expected(pos: Position, on_roll: Colour, viewer: Colour) -> Expected:
    """What the viewer should see, worked out from the Position ID's own convention."""
    mine = pos.player if viewer == on_roll else pos.opponent
    theirs = pos.opponent if viewer == on_roll else pos.player
    points: dict[int, tuple[Colour | None, int]] = {}
    for p in range(1, 25):
        if mine[p - 1]:
            points[p] = (viewer, mine[p - 1])
        elif theirs[24 - p]:
            points[p] = (other(viewer), theirs[24 - p])
        else:
            points[p] = (None, 0)
    return Expected(
        points=points,
        bar={viewer: mine[24], other(viewer): theirs[24]},
        off={viewer: 15 - sum(mine), other(viewer): 15 - sum(theirs)},
        pips={
            viewer: sum(n * (i + 1) for i, n in enumerate(mine)),
            other(viewer): sum(n * (i + 1) for i, n in enumerate(theirs)),
        },
    )


class Shown:
    """The emulator's screen after a full redraw of a board."""

    def __init__(self, view: BoardView, charset: Charset) -> None:
        self.charset = charset
        self.g = glyphs(charset)
        screen = Screen(charset)
        screen.load(render_board(view, charset))
        data = screen.full_redraw()
        self.term = pyte.Screen(80, 25)
        pyte.Stream(self.term).feed(data.decode("cp437" if charset == "cp437" else "utf-8"))
        self.lines = self.term.display

    def ch(self, row: int, col: int) -> str:
        return self.lines[row - 1][col - 1]

    def attr(self, row: int, col: int) -> tuple[str, str, bool]:
        c = self.term.buffer[row - 1][col - 1]
        return c.fg, c.bg, c.bold

    def colour_of(self, ch: str) -> str | None:
        if ch == self.g.white:
            return "white"
        if ch == self.g.black:
            return "black"
        return None

    def labels(self, row: int) -> dict[int, int]:
        """Point number -> column of its last digit, as printed."""
        return {int(m.group()): m.end() for m in re.finditer(r"\d+", self.lines[row - 1])}

    def column(self, col: int, rows: range, *, width: int = 1) -> dict[str, int]:
        """Checkers by colour in a column (or a tray `width` wide); a printed number is a stack's count."""
        found: dict[str, int] = {}
        count: int | None = None
        for row in rows:
            for c in range(col, col + width):
                who = self.colour_of(self.ch(row, c))
                if who is not None:
                    found[who] = found.get(who, 0) + 1
            digits = (self.ch(row, col - 1) + self.ch(row, col)).strip()
            if width == 1 and digits.isdigit():
                count = int(digits)
        assert len(found) <= 1, f"two colours in one column at {col}: {found}"
        if count is not None:
            assert found, "a count without checkers"
            (who,) = found
            assert found[who] == 4, "a tall stack shows four checkers and its count"
            found[who] = count
        return found


CASES = [
    (name, on_roll, viewer, charset, orientation)
    for name in POSITIONS
    for on_roll in ("white", "black")
    for viewer in ("white", "black")
    for charset in ("utf8", "cp437", "ascii")
    for orientation in ("own", "table")
    if orientation == "own" or viewer == "black"  # "table" only changes Black's view
]


@pytest.mark.parametrize("name, on_roll, viewer, charset, orientation", CASES)
def test_every_checker_where_it_belongs(
    name: str, on_roll: Colour, viewer: Colour, charset: Charset, orientation: Orientation
) -> None:
    pos = POSITIONS[name]
    view = BoardView(pos, on_roll=on_roll, viewer=viewer, orientation=orientation)
    shown = Shown(view, charset)
    want = expected(pos, on_roll, viewer)
    total = 0

    top, bottom = shown.labels(2), shown.labels(18)
    assert sorted(top) == list(range(13, 25))
    assert sorted(bottom) == list(range(1, 13))
    for p in range(1, 25):
        col = top[p] if p >= 13 else bottom[p]
        got = shown.column(col, TOP if p >= 13 else BOTTOM)
        owner, n = want.points[p]
        assert got == ({owner: n} if n else {}), f"point {p}"
        total += n

    bar_col = shown.lines[1].index("BAR") + 2
    assert shown.column(bar_col, TOP) == ({viewer: want.bar[viewer]} if want.bar[viewer] else {})
    them = other(viewer)
    assert shown.column(bar_col, BOTTOM) == ({them: want.bar[them]} if want.bar[them] else {})
    total += sum(want.bar.values())

    tray = shown.lines[17].index("OFF") + 1
    assert shown.column(tray, BOTTOM, width=3) == ({viewer: want.off[viewer]} if want.off[viewer] else {})
    assert shown.column(tray, TOP, width=3) == ({them: want.off[them]} if want.off[them] else {})
    total += sum(want.off.values())
    assert total == 30

    # Nothing else on the board looks like a checker: one glyph per checker,
    # except that a tall stack shows four and its count.
    glyph_cells = sum(1 for line in shown.lines[2:17] for ch in line[:54] if shown.colour_of(ch))
    tall = [n for (_, n) in want.points.values() if n > 5] + [n for n in want.bar.values() if n > 5]
    assert glyph_cells == 30 - sum(n - 4 for n in tall)


@pytest.mark.parametrize("name", list(POSITIONS))
@pytest.mark.parametrize("viewer", ["white", "black"])
def test_pip_counts_in_the_panel(name: str, viewer: Colour) -> None:
    pos = POSITIONS[name]
    view = BoardView(pos, on_roll="white", viewer=viewer, white_name="Wanda", black_name="Blake")
    shown = Shown(view, "utf8")
    want = expected(pos, "white", viewer).pips
    panel = [line[55:] for line in shown.lines]
    top_pips = [int(m) for line in panel[3:8] for m in re.findall(r"Pips (\d+)", line)]
    bottom_pips = [int(m) for line in panel[13:18] for m in re.findall(r"Pips (\d+)", line)]
    assert top_pips == [want[other(viewer)]]
    assert bottom_pips == [want[viewer]]
    me = "Wanda" if viewer == "white" else "Blake"
    assert any(f"{me} (you)" in line for line in panel[13:18])


@pytest.mark.parametrize("theme_name", ["classic", "felt", "mono", "wood"])
@pytest.mark.parametrize("charset", ["utf8", "cp437"])
def test_checkers_wear_their_theme_colours(theme_name: str, charset: Charset) -> None:
    t = theme(theme_name)
    shown = Shown(BoardView(POSITIONS["bar"], theme=theme_name), charset)
    seen = 0
    for row in list(TOP) + list(BOTTOM):
        for col in range(1, 54):
            who = shown.colour_of(shown.ch(row, col))
            if who is None:
                continue
            attr = t.white if who == "white" else t.black
            fg = "default" if attr.fg is None else PYTE_COLOURS[attr.fg]
            bg = "default" if attr.bg is None else PYTE_COLOURS[attr.bg]
            assert shown.attr(row, col) == (fg, bg, attr.bold), (row, col)
            seen += 1
    assert seen == 30
