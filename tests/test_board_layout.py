"""Board layout: numbering from each seat, cursor keys, highlights, dice, cube, panel, themes."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import fields, replace

import pyte
import pytest

from bgdoor.rules import Position
from bgdoor.term.charset import Charset, glyphs
from bgdoor.term.screen import COLS, ROWS, Attr, Screen
from bgdoor.ui.board import (
    HELP_ROW,
    MESSAGE_ROW,
    PANEL_COL,
    THEMES,
    TOP_ROWS,
    BoardView,
    Colour,
    Loc,
    Orientation,
    Theme,
    label_cell,
    move_cursor,
    point_column,
    render_board,
    theme,
    turn_line,
)
from bgdoor.ui.keys import TABLE, State, help_line

PYTE_COLOURS = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]
START = Position.start()


def shown(view: BoardView, charset: Charset = "utf8") -> pyte.Screen:
    screen = Screen(charset)
    screen.load(render_board(view, charset))
    term = pyte.Screen(COLS, ROWS)
    pyte.Stream(term).feed(screen.full_redraw().decode("cp437" if charset == "cp437" else "utf-8"))
    return term


def pyte_attr(attr: Attr) -> tuple[str, str, bool]:
    fg = "default" if attr.fg is None else PYTE_COLOURS[attr.fg]
    bg = "default" if attr.bg is None else PYTE_COLOURS[attr.bg]
    return fg, bg, attr.bold


def numbers(line: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", line)]


# -- numbering from each seat -------------------------------------------------------


@pytest.mark.parametrize("viewer", ["white", "black"])
def test_own_seat_home_board_bottom_right(viewer: Colour) -> None:
    term = shown(BoardView(START, viewer=viewer))
    assert numbers(term.display[1]) == list(range(13, 25))
    assert numbers(term.display[17]) == list(range(12, 0, -1))
    assert term.display[1].index("BAR") < term.display[1].index("19")
    assert term.display[17].index("OFF") > term.display[17].index(" 1 ")


def test_table_orientation_turns_blacks_board_round() -> None:
    term = shown(BoardView(START, viewer="black", orientation="table"))
    assert numbers(term.display[1]) == list(range(24, 12, -1))
    assert numbers(term.display[17]) == list(range(1, 13))
    assert term.display[17].index("OFF") < term.display[17].index(" 1 ")
    # White's seat is the same in both orientations.
    assert shown(BoardView(START, viewer="white", orientation="table")).display == shown(BoardView(START)).display


def test_point_columns_match_the_printed_numbers() -> None:
    for viewer in ("white", "black"):
        for orientation in ("own", "table"):
            view = BoardView(START, viewer=viewer, orientation=orientation)
            term = shown(view)
            for p in range(1, 25):
                col, half = point_column(p, viewer, orientation)
                row = 2 if half == "top" else 18
                assert term.display[row - 1][col - 2 : col].strip() == str(p)
                assert label_cell(p, viewer, orientation) == (row, col - 1)


def test_white_counter_clockwise_black_clockwise_from_whites_seat() -> None:
    # White's 24 -> 1 path, as screen positions from White's seat.
    path = [point_column(p, "white") for p in range(24, 0, -1)]
    top = [c for c, h in path if h == "top"]
    bottom = [c for c, h in path if h == "bottom"]
    assert top == sorted(top, reverse=True)  # right to left along the top
    assert bottom == sorted(bottom)  # then left to right along the bottom: counter-clockwise
    # Black's path 24 -> 1 is White's 1 -> 24: the reverse, clockwise.
    black_path = [point_column(25 - p, "white") for p in range(24, 0, -1)]
    assert black_path == list(reversed(path))


def test_black_moves_clockwise_on_the_table_view() -> None:
    path = [point_column(p, "black", "table") for p in range(24, 0, -1)]
    top = [c for c, h in path if h == "top"]
    bottom = [c for c, h in path if h == "bottom"]
    assert top == sorted(top)  # left to right along the top
    assert bottom == sorted(bottom, reverse=True)  # right to left along the bottom


# -- keypad cursor ---------------------------------------------------------------------

ALL_LOCS: list[Loc] = [*range(1, 25), "bar", "off"]


def test_left_right_along_the_rows() -> None:
    loc: Loc = 13
    seen = [loc]
    for _ in range(20):
        loc = move_cursor(loc, "right")
        seen.append(loc)
    assert seen[:14] == [13, 14, 15, 16, 17, 18, "bar", 19, 20, 21, 22, 23, 24, 24]
    loc = 12
    seen = [loc]
    for _ in range(14):
        loc = move_cursor(loc, "right")
        seen.append(loc)
    assert seen[:15] == [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, "off", "off", "off"]
    assert move_cursor(13, "left") == 13
    assert move_cursor(19, "left") == "bar"
    assert move_cursor("bar", "left") == 18
    assert move_cursor("off", "left") == 1


def test_up_and_down_between_the_rows() -> None:
    for p in range(1, 13):
        assert move_cursor(p, "up") == 25 - p
        assert move_cursor(25 - p, "down") == p
        assert move_cursor(p, "down") == p
        assert move_cursor(25 - p, "up") == 25 - p
    assert move_cursor("bar", "down") == 6
    assert move_cursor("off", "up") == 24
    assert move_cursor("bar", "up") == "bar"


def test_diagonals() -> None:
    assert move_cursor(5, "home") == 19  # 7: up and left
    assert move_cursor(5, "pgup") == 21  # 9: up and right
    assert move_cursor(20, "end") == 6  # 1: down and left
    assert move_cursor(20, "pgdn") == 4  # 3: down and right
    assert move_cursor(19, "end") == 7


@pytest.mark.parametrize("viewer, orientation", [("white", "own"), ("black", "own"), ("black", "table")])
def test_right_always_moves_right_on_screen(viewer: Colour, orientation: Orientation) -> None:
    for loc in ALL_LOCS:
        nxt = move_cursor(loc, "right", viewer, orientation)
        r0, c0 = label_cell(loc, viewer, orientation)
        r1, c1 = label_cell(nxt, viewer, orientation)
        assert r0 == r1 and c1 >= c0
        prev = move_cursor(loc, "left", viewer, orientation)
        assert label_cell(prev, viewer, orientation)[1] <= c0


@pytest.mark.parametrize("viewer, orientation", [("white", "own"), ("black", "table")])
def test_every_location_reachable(viewer: Colour, orientation: Orientation) -> None:
    for start in ALL_LOCS:
        seen = {start}
        todo: deque[Loc] = deque([start])
        while todo:
            loc = todo.popleft()
            for d in ("up", "down", "left", "right", "home", "end", "pgup", "pgdn"):
                nxt = move_cursor(loc, d, viewer, orientation)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert seen == set(ALL_LOCS)


def test_bad_cursor_moves() -> None:
    with pytest.raises(ValueError):
        move_cursor(25, "left")
    with pytest.raises(ValueError):
        move_cursor(5, "sideways")


# -- highlights ------------------------------------------------------------------------


def test_cursor_highlight_and_marker() -> None:
    t = theme("classic")
    g = glyphs("utf8")
    term = shown(BoardView(START, cursor=8))
    row, col = label_cell(8)
    assert term.display[row - 1][col - 1 : col + 2] == " 8" + g.cursor
    for c in range(col, col + 3):
        cell = term.buffer[row - 1][c - 1]
        if cell.data == " ":
            assert cell.bg == pyte_attr(t.cursor)[1]  # a blank shows only its background
        else:
            assert (cell.fg, cell.bg, cell.bold) == pyte_attr(t.cursor)


@pytest.mark.parametrize("loc", ["bar", "off"])
def test_cursor_on_bar_and_tray(loc: Loc) -> None:
    g = glyphs("ascii")
    term = shown(BoardView(START, cursor=loc), "ascii")
    row, col = label_cell(loc)
    assert term.display[row - 1][col - 1 : col + 3] == ("BAR" if loc == "bar" else "OFF") + g.cursor


def test_sources_and_destinations_marked_without_colour() -> None:
    g = glyphs("ascii")
    view = BoardView(START, sources=frozenset({13, 8, "bar"}), destinations=frozenset({3, "off"}), cursor=24)
    term = shown(view, "ascii")

    def mark(loc: Loc) -> str:
        row, col = label_cell(loc)
        width = 3 if isinstance(loc, int) else 4
        return term.display[row - 1][col - 1 + width - 1]

    assert [mark(x) for x in (13, 8, "bar")] == [g.source] * 3
    assert [mark(x) for x in (3, "off")] == [g.dest] * 2
    assert mark(24) == g.cursor
    assert mark(6) == " "


def test_checker_in_hand() -> None:
    t = theme("classic")
    g = glyphs("utf8")
    view = BoardView(START, viewer="white", cursor=3, in_hand=8, destinations=frozenset({3, 5}))
    term = shown(view)
    row, col = label_cell(3)
    assert term.display[row - 1][col + 1] == g.white  # the checker rides with the cursor
    pcol, _ = point_column(8)
    top = term.buffer[14 - 1][pcol - 1]  # 8-point: three checkers, rows 16, 15, 14
    assert top.data == g.white and (top.fg, top.bg, top.bold) == pyte_attr(t.in_hand)
    below = term.buffer[15 - 1][pcol - 1]
    assert below.data == g.white and (below.fg, below.bg, below.bold) == pyte_attr(t.white)


# -- dice, cube, panel ----------------------------------------------------------------


def test_dice_in_the_home_half_of_the_side_to_play() -> None:
    mine = shown(BoardView(START, viewer="white", on_roll="white", dice=(6, 2)))
    theirs = shown(BoardView(START, viewer="black", on_roll="white", dice=(6, 2)))
    bar = mine.display[1].index("BAR") + 1
    row = mine.display[9]
    assert "6" in row[bar:49] and "2" in row[bar:49] and not re.search(r"\d", row[6:bar])  # cube in 1-5
    row = theirs.display[9]
    assert "6" in row[6:bar] and "2" in row[6:bar] and not re.search(r"\d", row[bar:49])


def test_used_dice_are_dimmed() -> None:
    t = theme("classic")
    term = shown(BoardView(START, dice=(5, 3), dice_left=(3,)))
    row = term.buffer[9]
    five = next(c for c in row.values() if c.data == "5")
    three = next(c for c in row.values() if c.data == "3")
    assert (five.fg, five.bold) == pyte_attr(t.die_used)[::2]
    assert (three.fg, three.bold) == pyte_attr(t.die)[::2]


def test_a_used_die_shows_without_colour_too() -> None:
    """In plain ASCII, which has no colour, a used die looked the same as the one left to play."""
    rows = shown(BoardView(START, dice=(5, 3), dice_left=(3,)), "ascii").display
    middle = "\n".join(rows[8:11])
    assert ".-." in middle and ":5:" in middle and "'-'" in middle, middle
    assert "|3|" in rows[9], middle
    fresh = "\n".join(shown(BoardView(START, dice=(5, 3), dice_left=(5, 3)), "ascii").display[8:11])
    assert "'-'" not in fresh and "|5|" in fresh, fresh


def test_doubles_say_how_many_moves_are_left() -> None:
    """With 5-5 both dice looked the same after one, two or three moves: four moves, two dice."""
    rows = shown(BoardView(START, dice=(5, 5), dice_left=(5, 5, 5))).display
    panel = " ".join(" ".join(row[PANEL_COL - 1 :].split()) for row in rows)
    assert "Your turn 5-5, three 5s to play" in panel, panel
    # Broken after the comma: it had been 'Your turn 5-5, 3 to' over 'play'.
    said = [row[PANEL_COL - 1 :].strip() for row in rows]
    at = said.index("Your turn 5-5,")
    assert said[at + 1] == "three 5s to play", said
    assert "to play" not in " ".join(shown(BoardView(START, dice=(5, 5), dice_left=(5, 5, 5, 5))).display)
    assert "one 3 to play" not in " ".join(shown(BoardView(START, dice=(5, 3), dice_left=(3,))).display)


@pytest.mark.parametrize(
    "owner, value, rows, text",
    [(None, 1, (9, 11), "64"), ("white", 4, (14, 16), "4"), ("black", 2, (4, 6), "2"), ("black", 1024, (4, 6), "1K")],
)
def test_cube_position_and_value(owner: Colour | None, value: int, rows: tuple[int, int], text: str) -> None:
    term = shown(BoardView(START, viewer="white", cube_value=value, cube_owner=owner))
    mid = (rows[0] + rows[1]) // 2
    assert term.display[mid - 1][:5].strip("│ ") == text
    for r in range(2, 19):
        if not rows[0] <= r <= rows[1]:
            assert term.display[r - 1][:5].strip() == ""


def test_no_cube() -> None:
    term = shown(BoardView(START, cube_value=None, match_length=5, crawford=True))
    assert all(line[:5].strip() == "" for line in term.display[1:18])
    assert "Crawford" in term.display[0]


def test_panel_names_scores_turn() -> None:
    view = BoardView(
        START, on_roll="black", viewer="white", white_name="Wanda", black_name="Blake",
        white_score=3, black_score=1, match_length=7, dice=(4, 4),
    )
    text = "\n".join(shown(view).display)
    assert "Wanda (you)" in text and "Blake" in text
    assert "Score 3/7" in text and "Score 1/7" in text
    assert "Blake to play 4-4" in text
    assert "Match to 7" in text
    mine = shown(BoardView(START, on_roll="white", viewer="white"))
    assert "Your turn" in "\n".join(mine.display)
    watching = shown(BoardView(START, spectator=True))
    assert "(you)" not in "\n".join(watching.display)


def test_panel_score_past_the_match_length() -> None:
    """A 3-point match won 4-1 with a gammon: the panel said 'Score 4/3', as if a fraction."""
    view = BoardView(START, white_score=4, black_score=1, match_length=3, white_name="Wanda", black_name="Blake")
    text = "\n".join(shown(view).display)
    assert "Score 4/3" not in text and "Score 4 " in text, text
    # Both sides alike: 'Score 1/3' beside 'Score 4' mixed two forms.
    assert "Score 1 " in text and "Score 1/3" not in text and "Match to 3" in text, text


def test_long_names_are_cut_to_fit() -> None:
    term = shown(BoardView(START, white_name="W" * 60, black_name="B" * 60))
    assert all(len(line) == COLS for line in term.display)
    assert "(you)" in term.display[14]  # after the score, as the name leaves no room


def test_handles_of_sixteen_are_shown_whole() -> None:
    view = BoardView(START, white_name="Longhandle_Alice", black_name="Bartholomew_Bob1", on_roll="black",
                     dice=(6, 5), cube_value=64, cube_owner="black", match_length=25)
    text = "\n".join(shown(view).display)
    # The name whole over 'to play 6-5' (not 'Bartholomew_Bob1 to' over 'play 6-5').
    for words in ("Longhandle_Alice", "Score 0/25 (you)", "Bartholomew_Bob1\n", "to play 6-5", "Cube 64"):
        assert words in "\n".join(line.rstrip() for line in text.split("\n")), words
    assert text.count("Bartholomew_Bob1") == 3  # the name, whose turn, the cube's owner


LONG = "TwentyCharAliasN@BIGBOARD"  # a member board's player: a handle of 16 and a tag of 8


def panel_of(term: pyte.Screen) -> list[str]:
    """The panel's rows from the turn marker's column (56), each stripped."""
    return [line[PANEL_COL - 3 :].strip() for line in term.display]


def test_a_member_board_player_s_name_is_shown_whole_in_the_panel() -> None:
    """'● TwentyCharAliasN@BIGB': the name was cut at the screen's edge, and with it the tag that
    tells two players apart.  It goes on two rows, broken before the '@', each block keeping its
    score and pips under it; the viewer's '(you)' stays beside the name."""
    view = BoardView(START, viewer="white", white_name=LONG, black_name=LONG.replace("N@", "M@"),
                     on_roll="black", dice=(6, 5), match_length=3)
    panel = panel_of(shown(view))
    assert panel[3:7] == ["► ● TwentyCharAliasM", "@BIGBOARD", "Score 0/3", "Pips 167 Off 0"]
    assert panel[12:16] == ["○ TwentyCharAliasN", "@BIGBOARD (you)", "Score 0/3", "Pips 167 Off 0"]
    assert panel[8:11] == ["", "TwentyCharAliasM", "@BIGBOARD to play 6-5"]  # between the blocks
    # One long name: the other block as it was.
    panel = panel_of(shown(replace(view, black_name="bob")))
    assert panel[3:6] == ["► ● bob", "Score 0/3", "Pips 167 Off 0"]
    assert panel[12:14] == ["○ TwentyCharAliasN", "@BIGBOARD (you)"]


def test_the_panel_s_status_never_breaks_a_name_in_the_middle() -> None:
    """'TwentyCharAliasN@BIGBO' over 'ARD won the match'."""
    view = BoardView(START, white_name=LONG, black_name="bob", status=f"{LONG} won the match", marker=False)
    panel = panel_of(shown(view))
    at = panel.index("TwentyCharAliasN")
    assert panel[at + 1 : at + 3] == ["@BIGBOARD won the", "match"], panel


def test_two_long_names_leave_the_cube_s_owner_to_its_box() -> None:
    """A watcher's panel with two long names, one to play with a roll part played and owning the
    cube: nothing is drawn over a player's block, and no name is cut; the cube's box on the board
    shows whose it is."""
    view = BoardView(START, viewer="black", spectator=True, white_name=LONG, black_name=LONG, on_roll="black",
                     turn="black", dice=(5, 5), dice_left=(5, 5, 5), cube_value=2, cube_owner="black",
                     match_length=3)
    panel = panel_of(shown(view))
    assert panel[3:16] == [
        "○ TwentyCharAliasN", "@BIGBOARD", "Score 0/3", "Pips 167 Off 0", "",
        "TwentyCharAliasN", "@BIGBOARD to play 5-5,", "three 5s to play", "Cube 2",
        "► ● TwentyCharAliasN", "@BIGBOARD", "Score 0/3", "Pips 167 Off 0"], panel


def test_message_and_help_lines() -> None:
    term = shown(BoardView(START, message="Blake doubles.", help="A accept  R refuse"))
    assert term.display[MESSAGE_ROW - 1].strip() == "Blake doubles."
    assert term.display[HELP_ROW - 1].strip() == "A accept  R refuse"


def test_the_help_line_breaks_between_keys_and_keeps_help_and_quit_when_narrow() -> None:
    """At 80 columns 'V)iew' ended row 22 and 'last' began row 23; at 40 the moving state's
    help lost everything after G)ive up, ?)help and Q)uit with it.  Then, at 40, it left out
    V)iew last and I)D, which work, while row 24 stayed blank: a narrow screen uses row 24 too."""
    # The moving state's keys at the start of a turn (nothing to commit, pass, bear off or undo);
    # the others' all together.
    start = {"commit": "", "pass_turn": "", "bear_off": "", "undo": ""}
    for state in State:
        unavailable = start if state is State.MOVING else {}
        offered_now = {b.label for b in TABLE[state] if b.action not in unavailable}
        for width in (80, 60, 40):
            term = shown(BoardView(START, help=help_line(state, unavailable), width=width))
            rows = [term.display[HELP_ROW - 1 + i][:width].strip() for i in range(3)]
            labels = [label for row in rows for label in row.split("  ") if label]
            assert set(labels) == offered_now, (state, width, rows)  # every key, whole
            assert all(len(term.display[HELP_ROW - 1 + i].rstrip()) <= width for i in range(3)), rows
            if width == 80:
                assert not rows[2], rows  # two rows at 80 columns: row 24 stays free
    # Every key the moving state has, at 40 columns: some give way, never ?)help or Q)uit.
    term = shown(BoardView(START, help=help_line(State.MOVING), width=40))
    labels = [label for i in range(3) for label in term.display[HELP_ROW - 1 + i][:40].strip().split("  ")]
    assert "?)help" in labels and "Q)uit" in labels, labels


def test_bottom_right_and_last_row_stay_empty() -> None:
    view = BoardView(START, message="m" * 200, help="h" * 200, cursor="off", dice=(1, 2))
    canvas = render_board(view)
    assert canvas.get(ROWS, COLS)[0] == " "
    assert canvas.row_text(ROWS).strip() == ""


# -- themes -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(THEMES))
@pytest.mark.parametrize("charset", ["utf8", "cp437", "ascii"])
def test_every_theme_draws_in_every_charset(name: str, charset: Charset) -> None:
    term = shown(BoardView(START, theme=name, cursor=1, dice=(3, 1)), charset)
    assert numbers(term.display[17]) == list(range(12, 0, -1))


def test_at_least_three_distinct_themes() -> None:
    assert len({id(t) for t in THEMES.values()}) >= 3
    for name in ("classic", "felt", "mono"):
        assert theme(name).name == name


def test_mono_theme_is_one_colour() -> None:
    t = theme("mono")
    colours = {a.fg for a in vars_of(t)} | {a.bg for a in vars_of(t)}
    assert colours <= {None, 0, 3}


def vars_of(t: Theme) -> list[Attr]:
    return [a for f in fields(t) if isinstance(a := getattr(t, f.name), Attr)]


def test_unknown_theme_and_bad_colours() -> None:
    with pytest.raises(ValueError):
        theme("plaid")
    with pytest.raises(ValueError):
        render_board(BoardView(START, theme="plaid"))
    with pytest.raises(ValueError):
        BoardView(START, viewer="red")  # type: ignore[arg-type]  # the wrong value is the point of the test
    with pytest.raises(ValueError):
        BoardView(START, orientation="sideways")  # type: ignore[arg-type]  # the wrong value is the point of the test


@pytest.mark.parametrize("orientation", ["own", "table"])
@pytest.mark.parametrize("on_roll", ["white", "black"])
@pytest.mark.parametrize("dice", [(2, 6), (6, 2)])
def test_the_dice_lie_higher_first_from_left_on_either_side_of_the_table(
    orientation: Orientation, on_roll: Colour, dice: tuple[int, int]
) -> None:
    """Black's board as the table stands drew a 6-2 as '2 6', while the text said 'Your turn 6-2'."""
    term = shown(BoardView(START, viewer="black", orientation=orientation, on_roll=on_roll, dice=dice))
    row = term.display[9]  # the dice's middle row
    assert re.findall(r"│(\d)│", row) == ["6", "2"], row


@pytest.mark.parametrize("orientation", ["own", "table"])
def test_the_cube_is_in_sight_at_40_columns_on_either_board(orientation: Orientation) -> None:
    """Black's board as the table stands has its cube at the right, past 40 columns: a player on a
    40-column screen never saw that the cube was at 2, and theirs.  The title row, whose 'Match to
    3' stood past 40 columns too, says it at the edge of the screen; where the title has no room
    (an unlimited match and a long name), the message line does, when nothing else is said there."""
    view = BoardView(START, viewer="black", orientation=orientation, width=40, cube_value=2, cube_owner="black",
                     white_name="alice", black_name="bob", match_length=3, on_roll="white", turn="white")
    lines = [line[:40] for line in shown(view).display]
    said = " ".join(" ".join(lines[MESSAGE_ROW - 2 : HELP_ROW - 1]).split())
    box = any("┌───┐" in line for line in lines) and any("│ 2 │" in line for line in lines)
    if orientation == "table":
        assert not box and lines[0].rstrip().endswith("Match to 3 · Cube 2 yours"), lines
    else:
        assert box and "Cube" not in lines[0], lines  # the box shows it, at the left
        assert lines[0].rstrip().endswith("Match to 3"), lines
    assert said == "alice to play. Score: alice 0, bob 0 (match to 3).", said
    # The title in place of 'BACKGAMMON' where beside it there is no room.
    view = replace(view, match_length=0, white_name="alexandrina", orientation="table")
    lines = [line[:40] for line in shown(view).display]
    assert lines[0].strip() == "You ● · Unlimited match · Cube 2 yours", lines
    # A watcher, the owner's name too long for the title: 'Cube 2' there, and who owns it on the
    # message line.
    view = replace(view, spectator=True, black_name="Bartholomew_Bob1")
    lines = [line[:40] for line in shown(view).display]
    said = " ".join(" ".join(lines[MESSAGE_ROW - 2 :]).split())  # no help under it: its rows too
    assert lines[0].rstrip().endswith("Unlimited match · Cube 2"), lines
    assert said.endswith("(unlimited match). Cube 2 Bartholomew_Bob1's."), lines


@pytest.mark.parametrize("charset", ["ascii", "cp437", "utf8"])
def test_the_turn_marker_never_touches_the_cube(charset: Charset) -> None:
    """As the table stands, a cube on the viewer's side ran into the turn marker: '+---+> X bob'."""
    g = glyphs(charset)
    for viewer in ("white", "black"):
        for orientation in ("own", "table"):
            for owner in (None, "white", "black"):
                for turn in ("white", "black"):
                    view = BoardView(Position.start(), viewer=viewer, orientation=orientation, on_roll=turn,
                                     turn=turn, cube_value=2, cube_owner=owner, match_length=5)
                    cells = render_board(view, charset).cells
                    row = 14 if turn == viewer else 4
                    line = "".join(ch for ch, _ in cells[row - 1])
                    at = line.index(g.turn)
                    assert line[at - 1] == " ", (viewer, orientation, owner, turn, line)


def test_a_checker_in_hand_leaves_its_point_in_plain_ascii() -> None:
    """Without colour nothing marked the lifted checker: point 13 still showed all five, and the
    cursor's label a sixth."""
    base = BoardView(Position.start(), cursor=13, sources=frozenset({13}))
    lifted = replace(base, in_hand=13, sources=frozenset(), destinations=frozenset({10, 11}))

    def column_13(view: BoardView, charset: Charset) -> str:
        cells = render_board(view, charset).cells
        col, half = point_column(13, "white", "own")
        assert half == "top"
        return "".join(cells[r - 1][col - 1][0] for r in TOP_ROWS)

    g = glyphs("ascii")
    assert column_13(base, "ascii").count(g.white) == 5
    assert column_13(lifted, "ascii").count(g.white) == 4
    # In colour the checker stays, drawn in the in-hand colour.
    assert column_13(lifted, "cp437").count(glyphs("cp437").white) == 5


def test_a_long_cube_owner_s_name_is_not_split_from_itself() -> None:
    """'Cube 2 Intermediate' over 'Bot': the owner read as 'Intermediate'.  The name goes whole
    under 'Cube 2 held by' ('Cube 4' alone over 'kimberlyandersen's' had read as two lines
    apart); a short one stays on the cube's line."""
    term = shown(BoardView(START, viewer="white", black_name="Intermediate Bot", cube_value=2, cube_owner="black"))
    panel = [line[PANEL_COL - 1 :].strip() for line in term.display]
    at = panel.index("Cube 2 held by")
    assert panel[at + 1] == "Intermediate Bot", panel
    term = shown(BoardView(START, viewer="white", black_name="bob", cube_value=2, cube_owner="black"))
    assert "Cube 2 bob's" in [line[PANEL_COL - 1 :].strip() for line in term.display]


def test_the_panel_does_not_give_an_answer_the_mover_s_dice() -> None:
    """A resignation offered mid-turn: the panel read 'Your answer 5-1', as if 5-1 were the answer."""
    answering = BoardView(START, dice=(5, 1), on_roll="white", turn="white", status="Your answer")
    assert turn_line(answering) == "Your answer"
    assert turn_line(BoardView(START, dice=(5, 1), on_roll="white", turn="white")) == "Your turn 5-1"


@pytest.mark.parametrize("charset", ["ascii", "cp437", "utf8"])
def test_a_narrow_board_says_in_its_title_which_checkers_are_the_player_s(charset: Charset) -> None:
    """At 40 columns the panel, which shows whose checkers are which, is past the edge: nothing said
    which were the player's (an open seat's board, a random colour)."""
    g = glyphs(charset)
    for viewer, glyph in (("white", g.white), ("black", g.black)):
        view = BoardView(START, viewer=viewer, width=40, match_length=3)
        cells = render_board(view, charset).cells
        title = "".join(ch for ch, _ in cells[0][:40]).rstrip()
        assert title.endswith(f"You {glyph} {g.dot} Match to 3"), title
        at = title.index(f"You {glyph}") + 4
        checker = theme(view.theme).white if viewer == "white" else theme(view.theme).black
        assert cells[0][at][1] == checker  # drawn in the checker's colours, not the title's
        assert "You" not in "".join(ch for ch, _ in render_board(replace(view, spectator=True), charset).cells[0])
        assert "You" not in "".join(ch for ch, _ in render_board(replace(view, width=80), charset).cells[0])


def test_the_narrow_title_keeps_the_player_s_checker_in_a_crawford_game_and_with_the_cube() -> None:
    """At 40 columns 'You ■' gave way to 'Crawford' and to the cube; and a double offered on Black's
    board as the table stands (its cube box past the edge) was said nowhere once the message
    line moved on."""
    g = glyphs("utf8")
    base = BoardView(START, viewer="black", width=40, match_length=3, white_name="ed", black_name="dot")
    crawford = shown(replace(base, crawford=True, cube_value=None)).display[0][:40].strip()
    assert crawford == f"You {g.black} · Match to 3 · Crawford", crawford
    offered = replace(base, orientation="table", cube_value=4, cube_owner="black", cube_offered=True)
    title = shown(offered).display[0][:40].strip()
    assert title == f"You {g.black} · Match to 3 · Cube 4 offered", title
    owned = shown(replace(offered, cube_offered=False, cube_value=2, cube_owner="white")).display[0][:40].strip()
    assert owned == f"You {g.black} · Match to 3 · Cube 2 ed's", owned


@pytest.mark.parametrize("charset", ["ascii", "cp437", "utf8"])
def test_a_watcher_s_narrow_board_says_whose_checkers_are_whose(charset: Charset) -> None:
    """A watcher at 40 columns had the names only in the messages: nothing said which checkers were
    whose (the panel that shows it is past the edge)."""
    g, colours = glyphs(charset), theme("classic")
    view = BoardView(START, viewer="white", width=40, match_length=3, white_name="hal40", black_name="buser",
                     spectator=True)
    cells = render_board(view, charset).cells
    title = "".join(ch for ch, _ in cells[0][:40]).rstrip()
    assert title.endswith(f"hal40 {g.white} {g.dot} buser {g.black} {g.dot} Match to 3"), title
    assert cells[0][title.index("hal40") + 6][1] == colours.white
    assert cells[0][title.index("buser") + 6][1] == colours.black
    # Names too long to go with the match whole: cut, a member board's tag and a handle's number
    # kept where they fit (a watcher of two long names had been told nothing).
    long = replace(view, white_name="Sir Reginald L~3@ALPHA", black_name="alicia@DP")
    title = "".join(ch for ch, _ in render_board(long, charset).cells[0][:40]).rstrip()
    # (At ten columns the number and tag stay, after one letter and a dot: see fit_name.)
    assert title.endswith(f"S.~3@ALPHA {g.white} {g.dot} alicia@DP {g.black} {g.dot} Match to 3"), title
    assert render_board(long, charset).cells[0][title.index("alicia") - 4][1] == colours.white
    long = replace(view, white_name="Alexandrina_Anne", black_name="Bartholomew_Bob1")
    title = "".join(ch for ch, _ in render_board(long, charset).cells[0][:40]).rstrip()
    assert title.endswith(f"Alexandr~ {g.white} {g.dot} Bartholom~ {g.black} {g.dot} Match to 3"), title
    # Both of one member board: the tag goes before the names are cut ('Lo..@ADR' each).
    long = replace(view, white_name="LongAliasName123@ADR", black_name="LongAliasName1~2@ADR", match_length=25)
    title = "".join(ch for ch, _ in render_board(long, charset).cells[0][:40]).rstrip()
    assert title.endswith(f"LongAlia~ {g.white} {g.dot} LongA..~2 {g.black} {g.dot} Match to 25"), title
    # At 80 columns the panel says it.
    assert "hal40" not in "".join(ch for ch, _ in render_board(replace(view, width=80), charset).cells[0])


def test_a_watcher_s_narrow_title_uses_every_column_but_the_last_for_the_names() -> None:
    """'bob ○ · ali~ ● · Match to 3 · Crawford' at 40 columns: 'alice' whole takes 39 columns,
    and the title had kept a column free at its left."""
    g = glyphs("utf8")
    view = BoardView(START, viewer="white", width=40, match_length=3, white_name="bob", black_name="alice",
                     spectator=True, crawford=True, cube_value=None)
    title = shown(view).display[0][:40]
    assert title.rstrip() == f"bob {g.white} · alice {g.black} · Match to 3 · Crawford", title
    assert title[39] == " "  # the last column stays free


@pytest.mark.parametrize("spectator", [False, True])
def test_a_60_column_title_says_whose_checkers_are_whose(spectator: bool) -> None:
    """At 60 columns the panel shows only its first three columns ('► ● a', '○ r'): nothing said
    which checkers were the player's, where 40 columns says 'You ○' in the title."""
    g = glyphs("utf8")
    view = BoardView(START, viewer="white", width=60, match_length=3, white_name="alice", black_name="robert",
                     spectator=spectator)
    title = shown(view).display[0][:60].rstrip()
    said = f"alice {g.white} · robert {g.black}" if spectator else f"You {g.white}"
    assert title.endswith(f"{said} · Match to 3"), title
    assert title.startswith(" BACKGAMMON"), title


def test_a_narrow_title_gives_the_match_score_the_cut_panel_had() -> None:
    """At 60 columns, one turn a visit, the message line always had news to give and the panel's
    score is past the edge: a player never saw the score of the match.  The title says it, the one
    ahead first, where it fits beside whose checkers are whose."""
    g = glyphs("utf8")
    base = BoardView(START, viewer="black", width=60, match_length=5, white_name="alice", black_name="bob",
                     white_score=1, black_score=3)
    assert title_of(base, 60).endswith(f"You {g.black} · Match to 5 · Score 3-1 to you")
    behind = replace(base, white_score=3, black_score=1)
    assert title_of(behind, 60).endswith("Match to 5 · Score 3-1 to alice")
    assert title_of(replace(base, width=40), 40) == f"You {g.black} · Match to 5 · Score 3-1 to you"
    assert title_of(replace(base, width=40, white_score=2, black_score=2), 40).endswith("Match to 5 · Score 2-2")
    watcher = replace(base, spectator=True)
    assert title_of(watcher, 60).endswith(f"alice {g.white} · bob {g.black} · Match to 5 · Score 3-1 to bob")
    # Before either side has a point, and at 80 columns (the panel says it), the title stays as it was.
    assert title_of(replace(base, white_score=0, black_score=0), 60).endswith(f"You {g.black} · Match to 5")
    assert title_of(replace(base, width=80), 80).endswith(" Match to 5")
    # A Crawford game at 40 columns: the match length gives way to the score, 'Crawford' stays.
    crawford = replace(base, width=40, white_score=0, black_score=2, match_length=3, crawford=True, cube_value=None)
    assert title_of(crawford, 40) == f"You {g.black} · Crawford · Score 2-0 to you"
    assert title_of(replace(crawford, width=60), 60).endswith("Match to 3 · Crawford · Score 2-0 to you")
    # The cube, where its box is past the edge, comes before the score.
    cube = replace(base, width=40, orientation="table", cube_value=4, cube_owner="black", cube_offered=True)
    assert title_of(cube, 40) == f"You {g.black} · Match to 5 · Cube 4 offered"


def title_of(view: BoardView, width: int) -> str:
    return shown(view).display[0][:width].strip()


def test_a_narrow_title_gives_the_leader_s_name_the_room_there_is() -> None:
    """'2-0 to Christo~' of 'Christopher We~2@ALPHA' (cut to eight columns, its number and tag
    lost, where the row had room), and a watcher of two long names never saw the score at all."""
    g = glyphs("utf8")
    base = BoardView(START, viewer="black", width=60, match_length=3, white_name="Christopher We~2@ALPHA",
                     black_name="Bartholomew_Long@ALPHA", white_score=2, black_score=0, crawford=True,
                     cube_value=None)
    assert title_of(base, 60) == f"You {g.black} · Match to 3 · Crawford · 2-0 to Christophe..~2@ALPHA"
    assert title_of(replace(base, width=40), 40) == f"You {g.black} · Crawford · 2-0 to Chr..~2@ALPHA"
    watcher = replace(base, spectator=True, white_name="Christopher Well@DP", crawford=False, match_length=5,
                      white_score=1, cube_value=1)
    title = title_of(watcher, 60)
    assert title.endswith("· Match to 5 · 1-0 to Chri..@DP") and "@ALPHA" in title, title
    # Where no shorter names leave the score room, the names stay (whose checkers are whose).
    assert title_of(replace(watcher, width=40), 40) == f"Chri..@DP {g.white} · Ba..@ALPHA {g.black} · Match to 5"


def test_a_cube_box_past_the_screen_s_edge_is_left_out_whole() -> None:
    """Black's board as the table stands at 50 columns: the cube box at its right edge had left
    its corners in column 50, a box with no value."""
    for value, owner in ((1, None), (2, "white")):
        term = shown(BoardView(START, viewer="black", orientation="table", width=50, cube_value=value,
                               cube_owner=owner))
        cut = [line[49:54] for line in term.display]
        assert not any(ch in "┌┐└┘│" for part in cut for ch in part), "\n".join(term.display)
    whole = shown(BoardView(START, viewer="black", orientation="table", cube_value=2, cube_owner="white"))
    assert any("┌───┐" in line for line in whole.display), "\n".join(whole.display)  # at 80 columns it is there


def test_the_title_names_the_game_where_it_fits() -> None:
    """At 80 columns two 3-point matches against one opponent looked alike, where every message
    names a game by its number ('Your turn in game #8 too').  The number goes first on the title
    row, the rest in fewer words where need be."""
    g = glyphs("utf8")
    base = BoardView(START, viewer="black", match_length=3, white_name="alice", black_name="bob", game_id=12)
    title = shown(base).display[0]
    assert title.startswith(" BACKGAMMON") and title.rstrip().endswith("Game #12 · Match to 3"), title
    # Narrower, in place of 'BACKGAMMON' (at 40 columns no board named its game), or in fewer
    # words; the score and whose checkers are whose come first.
    scored = replace(base, width=60, white_score=1)
    assert title_of(scored, 60) == f"Game #12 · You {g.black} · Match to 3 · Score 1-0 to alice"
    assert title_of(replace(base, width=40), 40) == f"Game #12 · You {g.black} · Match to 3"
    assert title_of(replace(scored, spectator=True), 60) == (f"#12 · alice {g.white} · bob {g.black} · Match to 3 · "
                                                               "Score 1-0 to alice")
    # Where both do not fit whole, both in fewer words: at 40 columns, with four games against one
    # opponent, the score had taken the number's place.
    assert title_of(replace(scored, width=40), 40) == f"#12 · You {g.black} · Match to 3 · 1-0 to alice"
    watcher = replace(base, width=40, spectator=True)
    assert title_of(watcher, 40) == f"Game #12 · alice {g.white} · bob {g.black} · Match to 3"
    # The checkers are drawn in their own colours where the title says them, after the number.
    term = shown(watcher)
    row = term.display[0]
    white, black = row.index(g.white), row.index(g.black)
    assert (white, black) == (row.index("alice") + 6, row.index("bob") + 4), row
    assert term.buffer[0][white].bg != term.buffer[0][row.index("alice")].bg, "not drawn as a checker"
    # Drawn alone (no game), the title is as it was.
    assert shown(replace(base, game_id=0)).display[0].rstrip().endswith("BACKGAMMON" + " " * 58 + "Match to 3")


def test_a_long_name_to_answer_a_double_is_said_once_in_the_panel() -> None:
    """tess's panel with her double offered to UrsulaTheGreat16: 'UrsulaTheGreat16 to' over
    'answer', then 'Cube 2', 'offered to', 'UrsulaTheGreat16', five rows run on into her own
    name.  The name whole, 'to answer' under it, and 'Cube 2 offered': whose answer is said above."""
    view = BoardView(START, viewer="white", match_length=5, white_name="tess", black_name="UrsulaTheGreat16",
                     cube_value=2, cube_owner="black", cube_offered=True, status="UrsulaTheGreat16 to answer")
    panel = [line[57:].strip() for line in shown(view).display]
    told = [line for line in panel[6:18] if line]
    assert told[:3] == ["UrsulaTheGreat16", "to answer", "Cube 2 offered"], panel
