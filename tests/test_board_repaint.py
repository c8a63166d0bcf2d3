"""The board drawn over its cached static layer, and sent as a diff, is the board drawn whole.

Every key redraws the board; render_board paints only what can change over a copy of the frame,
points and numbers drawn once, and the screen sends only the rows that differ.  Across played
games, on every side, theme and charset, both must give exactly what drawing from nothing and
sending the whole screen give.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pyte
import pytest

from bgdoor.rules import Position, legal_plays
from bgdoor.term.charset import Charset
from bgdoor.term.screen import COLS, ROWS, Canvas, Screen
from bgdoor.ui.board import THEMES, BoardView, Colour, Loc, Orientation, move_cursor, paint_board, render_board

LOCS: list[Loc] = [*range(1, 25), "bar", "off"]
SIDES: list[tuple[Colour, Orientation]] = [("white", "own"), ("black", "own"), ("black", "table"), ("white", "table")]


def played_positions(seed: int, turns: int) -> list[tuple[Position, tuple[int, int], Colour]]:
    """(position, dice, colour on roll) through one game of random legal plays."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int], Colour]] = []
    pos = Position.start()
    on_roll: Colour = "white"
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append((pos, dice, on_roll))
        plays = legal_plays(pos, dice)
        if plays:
            after = rng.choice(plays).position
            if sum(after.opponent) == 0:
                break  # borne off: the game is over
            pos = after.swap()
        else:
            pos = pos.swap()
        on_roll = "black" if on_roll == "white" else "white"
    return out


def views(seed: int, turns: int = 60) -> list[BoardView]:
    """Boards as the game screen draws them, with the cursor, marks, dice, cube and texts varied."""
    rng = random.Random(seed)
    out: list[BoardView] = []
    for pos, dice, on_roll in played_positions(seed, turns):
        viewer, orientation = rng.choice(SIDES)
        out.append(
            BoardView(
                pos,
                on_roll=on_roll,
                viewer=viewer,
                orientation=orientation,
                theme=rng.choice(sorted(THEMES)),
                white_name="alice",
                black_name=rng.choice(["bob", "a-sixteen-letter", "b"]),
                white_score=rng.randint(0, 6),
                black_score=rng.randint(0, 6),
                match_length=rng.choice([0, 1, 7, 25]),
                crawford=rng.random() < 0.2,
                cube_value=rng.choice([None, 1, 2, 64, 4096]),
                cube_owner=rng.choice([None, "white", "black"]),
                dice=rng.choice([None, dice, dice]),
                dice_left=rng.choice([None, (dice[0],), ()]),
                turn=rng.choice([None, "white", "black"]),
                status=rng.choice([None, "Opening roll", "a status long enough to wrap in the panel"]),
                cursor=rng.choice([None, *LOCS]),
                sources=frozenset(rng.sample(LOCS, rng.randint(0, 5))),
                destinations=frozenset(rng.sample(LOCS, rng.randint(0, 3))),
                in_hand=rng.choice([None, None, 6, 13, "bar"]),
                message=rng.choice(["", "Position ID 4HPwATDgc/ABMA", "a message that needs three lines " * 6]),
                help=rng.choice(["", "R)oll  D)ouble  Q)uit", "long help " * 20]),
                spectator=rng.random() < 0.2,
                width=rng.choice([80, 80, 60, 40]),
            )
        )
    return out


def cells(canvas: Canvas) -> list[list[tuple[str, object]]]:
    return [list(row) for row in canvas.cells]


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_static_layer_paints_what_a_full_paint_does(charset: Charset, seed: int) -> None:
    for view in views(seed):
        assert cells(render_board(view, charset)) == cells(paint_board(view, charset)), view


def test_the_static_layer_is_never_drawn_on() -> None:
    view = views(4)[0]
    first = cells(render_board(view, "utf8"))
    board = render_board(view, "utf8")
    board.put(4, 9, "XXXXXXXXXXXXXXXXXXXXXXXXXXX")
    board.fill(2, 1, 80, "#")
    assert cells(render_board(view, "utf8")) == first


def test_a_board_redrawn_on_the_last_one_is_the_board_drawn_fresh() -> None:
    """The game screen redraws every key's board on the canvas the last one was drawn on."""
    canvas = Canvas()
    rows = canvas.cells
    charsets: tuple[Charset, ...] = ("cp437", "utf8")
    for view in views(5):
        for charset in charsets:
            drawn = render_board(view, charset, into=canvas)
            assert drawn is canvas and canvas.cells is rows
            assert cells(canvas) == cells(paint_board(view, charset)), view


def test_a_board_with_only_its_marks_or_texts_changed_is_the_board_drawn_fresh() -> None:
    """Most keys change only the cursor, the marked points or a line of text, and only those
    cells are drawn again over the last board; anything else drawn on the canvas in between
    (another screen's text) makes the next board a whole one."""
    rng = random.Random(11)
    canvas = Canvas()
    steps = 0
    for view in views(6, turns=80):
        for charset in ("cp437", "utf8", "ascii"):
            render_board(view, charset, into=canvas)
            for _ in range(6):
                view = replace(
                    view,
                    cursor=rng.choice([view.cursor, None, *LOCS]),
                    sources=rng.choice([view.sources, frozenset(rng.sample(LOCS, rng.randint(0, 5)))]),
                    destinations=rng.choice([view.destinations, frozenset(rng.sample(LOCS, rng.randint(0, 3)))]),
                    message=rng.choice([view.message, "", "Not your turn.", "a message that needs three lines " * 6]),
                    help=rng.choice([view.help, "", "long help " * 20]),
                )
                if rng.random() < 0.1:
                    canvas.put(rng.randint(1, 25), rng.randint(1, 80), "scribble")
                drawn = render_board(view, charset, into=canvas)
                assert drawn is canvas
                assert cells(canvas) == cells(paint_board(view, charset)), view
                steps += 1
    assert steps > 300


class Glass:
    """A caller's terminal (pyte), fed everything a Screen sends."""

    def __init__(self, charset: Charset) -> None:
        self.charset = charset
        self.term = pyte.Screen(COLS, ROWS)
        self.stream = pyte.Stream(self.term)

    def feed(self, data: bytes) -> None:
        self.stream.feed(data.decode("cp437" if self.charset == "cp437" else "utf-8"))

    def looks(self) -> list[list[tuple[str, str, str, bool]]]:
        """What each cell shows: the character and background; a blank's colour and boldness show not."""
        out = []
        for r in range(ROWS):
            row = []
            for c in range(COLS):
                ch = self.term.buffer[r][c]
                blank = ch.data == " "
                row.append((ch.data, ch.bg, "" if blank else ch.fg, False if blank else ch.bold))
            out.append(row)
        return out


def full_screen(canvas: Canvas, charset: Charset) -> list[list[tuple[str, str, str, bool]]]:
    glass = Glass(charset)
    screen = Screen(charset)
    screen.load(canvas)
    glass.feed(screen.full_redraw())
    return glass.looks()


@pytest.mark.parametrize("charset", ["cp437", "utf8"])
@pytest.mark.parametrize("viewer,orientation", SIDES[:3])
def test_incremental_repaint_shows_what_a_full_repaint_does(
    charset: Charset, viewer: Colour, orientation: Orientation
) -> None:
    """A played game as one caller sees it: each turn's cursor walk, pick-up and drop, the news
    line and the next turn, sent as diffs; after every key the terminal shows the same as a fresh
    terminal sent the whole screen."""
    rng = random.Random(f"{charset}{viewer}{orientation}")
    screen = Screen(charset)
    glass = Glass(charset)
    first = True
    frames = 0
    for pos, dice, on_roll in played_positions(7, 80):
        view = BoardView(
            pos, on_roll=on_roll, viewer=viewer, orientation=orientation,
            white_name="alice", black_name="bob", match_length=7, dice=dice,
            message=f"{on_roll} rolled {dice[0]}-{dice[1]}.", help="Arrows/8246 move  5/Enter pick up  U)ndo",
        )
        loc: Loc = 13
        for key in rng.choices(["left", "right", "up", "down", "pick", "drop", "id"], k=8):
            if key == "pick":
                view = replace(view, in_hand=loc, destinations=frozenset(rng.sample(LOCS, 2)))
            elif key == "drop":
                view = replace(view, in_hand=None, destinations=frozenset(), dice_left=(dice[1],))
            elif key == "id":
                view = replace(view, message=f"Position ID {pos.id}")
            else:
                loc = move_cursor(loc, key, viewer, orientation)
                view = replace(view, cursor=loc, sources=frozenset(rng.sample(LOCS, 3)))
            canvas = render_board(view, charset)
            screen.load(canvas)
            glass.feed(screen.full_redraw() if first else screen.render())
            first = False
            assert glass.looks() == full_screen(canvas, charset), (pos.id, key)
            assert screen.render() == b""  # nothing left to send for the same board
            frames += 1
    assert frames >= 200
