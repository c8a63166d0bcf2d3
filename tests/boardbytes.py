"""A door screen and the caller's emulated terminal, kept in step: what a board update costs on
the wire, and proof that the bytes draw exactly the canvas.

tests/test_board_bytes.py holds the budgets to it; bench/screen_bytes.py prints the figures.
"""

from __future__ import annotations

from dataclasses import replace

import pyte

from bgdoor.rules import Position
from bgdoor.rules.moves import Play
from bgdoor.term.charset import Charset, encode
from bgdoor.term.screen import COLS, ROWS, Canvas, Screen
from bgdoor.ui.board import BoardView, render_board

PYTE_COLOURS = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]
HELP = "8 2 4 6 move  5/Enter pick up/drop  U undo  D double  R resign  ? help"

# White to move 6-4 from the start, the cursor on her 13 point.
BASE = BoardView(
    Position.start(),
    on_roll="white",
    viewer="white",
    white_name="Alice",
    black_name="Bob",
    white_score=2,
    black_score=4,
    match_length=7,
    dice=(6, 4),
    cursor=13,
    sources=frozenset({24, 13, 8, 6}),
    message="Alice rolled 6-4.",
    help=HELP,
)

# White watches Black play 5-3 from the start ...
BLACK_TO_PLAY = replace(BASE, on_roll="black", dice=(5, 3), cursor=None, sources=frozenset(), message="Bob rolled 5-3.")


def black_played(play: Play) -> BoardView:
    """... and then sees Black's committed play, with her own roll."""
    return replace(
        BASE, position=play.position, on_roll="white", cursor=None, sources=frozenset(), message=f"Bob played {play}."
    )


class Caller:
    """A door screen and the caller's emulated terminal, kept in step."""

    def __init__(self, view: BoardView, charset: Charset) -> None:
        self.charset = charset
        self.screen = Screen(charset)
        self.term = pyte.Screen(COLS, ROWS)
        self.stream = pyte.Stream(self.term)
        self.screen.load(render_board(view, charset))
        self.full = self._send(self.screen.full_redraw())

    def _send(self, data: bytes) -> int:
        self.stream.feed(data.decode("cp437" if self.charset == "cp437" else "utf-8"))
        self.check(self.screen.canvas)
        return len(data)

    def show(self, view: BoardView) -> int:
        """Bytes sent to bring the caller's terminal from what it shows to `view`."""
        self.screen.load(render_board(view, self.charset))
        return self._send(self.screen.render())

    def check(self, canvas: Canvas) -> None:
        decode = "cp437" if self.charset == "cp437" else "utf-8"
        for r in range(1, ROWS + 1):
            for c in range(1, COLS + 1):
                ch, attr = canvas.get(r, c)
                got = self.term.buffer[r - 1][c - 1]
                assert got.data == encode(ch, self.charset).decode(decode), (r, c)
                if self.charset == "ascii":
                    continue
                assert got.bg == ("default" if attr.bg is None else PYTE_COLOURS[attr.bg]), (r, c)
                if ch != " ":
                    assert got.fg == ("default" if attr.fg is None else PYTE_COLOURS[attr.fg]), (r, c)
                    assert got.bold == attr.bold, (r, c)
