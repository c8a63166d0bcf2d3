"""Board updates on the wire: correct when replayed, and small enough for 2400 baud.

Budgets: moving the cursor one point at most 40 bytes, a full CP437 board at
most 3,000, the update after the opponent commits a turn at most 600.
"""

from __future__ import annotations

from dataclasses import replace

import pyte
import pytest

from bgdoor.rules import Position, legal_plays
from bgdoor.term.charset import encode
from bgdoor.term.screen import COLS, ROWS, Canvas, Screen
from bgdoor.ui.board import BoardView, Loc, move_cursor, render_board

PYTE_COLOURS = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]
HELP = "8 2 4 6 move  5/Enter pick up/drop  U undo  D double  R resign  ? help"

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


class Caller:
    """A door screen and the caller's emulated terminal, kept in step."""

    def __init__(self, view: BoardView, charset: str) -> None:
        self.charset = charset
        self.screen = Screen(charset)  # type: ignore[arg-type]
        self.term = pyte.Screen(COLS, ROWS)
        self.stream = pyte.Stream(self.term)
        self.screen.load(render_board(view, charset))  # type: ignore[arg-type]
        self.full = self._send(self.screen.full_redraw())

    def _send(self, data: bytes) -> int:
        self.stream.feed(data.decode("cp437" if self.charset == "cp437" else "utf-8"))
        self.check(self.screen.canvas)
        return len(data)

    def show(self, view: BoardView) -> int:
        self.screen.load(render_board(view, self.charset))  # type: ignore[arg-type]
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


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
def test_full_board_size(charset: str) -> None:
    caller = Caller(BASE, charset)
    if charset == "cp437":
        assert caller.full <= 3000
    assert caller.full <= 3200


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
@pytest.mark.parametrize("theme", ["classic", "felt", "mono", "wood"])
def test_cursor_walk_costs_tens_of_bytes(charset: str, theme: str) -> None:
    view = replace(BASE, theme=theme)
    caller = Caller(view, charset)
    loc: Loc = 13
    worst = 0
    for step in ["right"] * 13 + ["down"] + ["left"] * 13 + ["up", "pgdn", "home", "end", "pgup"]:
        loc = move_cursor(loc, step)
        view = replace(view, cursor=loc)
        cost = caller.show(view)
        if step in ("left", "right") and charset == "cp437":
            assert cost <= 40, (loc, cost)
        worst = max(worst, cost)
    assert worst <= 48


def test_pick_up_and_drop_replays_exactly() -> None:
    caller = Caller(BASE, "utf8")
    view = replace(BASE, cursor=8, in_hand=8, sources=frozenset(), destinations=frozenset({2, 4}))
    assert caller.show(view) < 120
    view = replace(view, cursor=4)
    assert caller.show(view) < 60
    play = [p for p in legal_plays(BASE.position, (6, 4)) if str(p) == "8/2 6/2"]
    assert play
    moved = replace(BASE, position=play[0].position.swap(), cursor=2, dice_left=(), sources=frozenset())
    assert caller.show(moved) < 250


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
def test_opponent_commits_a_turn(charset: str) -> None:
    before = replace(BASE, on_roll="black", dice=(5, 3), cursor=None, sources=frozenset(), message="Bob rolled 5-3.")
    caller = Caller(before, charset)
    for play in legal_plays(before.position, (5, 3)):
        after = replace(
            BASE, position=play.position, on_roll="white", cursor=None, sources=frozenset(),
            message=f"Bob played {play}.",
        )
        assert caller.show(after) <= 600
        assert caller.show(before) <= 600


def test_redraw_after_every_theme_change() -> None:
    caller = Caller(BASE, "cp437")
    for theme in ("felt", "mono", "wood", "classic"):
        assert caller.show(replace(BASE, theme=theme)) <= 3000
