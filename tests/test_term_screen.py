"""The screen diff, replayed into a real terminal emulator (pyte).

Whatever sequence of canvases is rendered, full redraw then diffs, the
emulator must end up showing exactly the canvas: same characters, and the
same colours wherever colour shows (a blank shows only its background).
The emulator also checks the BBS rules: nothing is ever written to the
bottom-right cell, the screen never scrolls, and the only SGR codes are
0, 1, 30-37 and 40-47 (none at all in ASCII).
"""

from __future__ import annotations

import re

import pyte
import pytest
from hypothesis import given, settings, strategies as st

from bgdoor.term.charset import Charset, encode, glyphs
from bgdoor.term.screen import COLS, DEFAULT, ROWS, Attr, Canvas, Screen, sgr

PYTE_COLOURS = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]


class StrictScreen(pyte.Screen):
    """A pyte screen that fails on writing the bottom-right cell or scrolling."""

    def draw(self, data: str) -> None:
        for ch in data:
            assert not (self.cursor.y == self.lines - 1 and self.cursor.x >= self.columns - 1), "bottom-right written"
            super().draw(ch)

    def index(self) -> None:
        assert self.cursor.y < self.lines - 1, "screen scrolled"
        super().index()


class Terminal:
    def __init__(self, charset: Charset) -> None:
        self.charset = charset
        self.screen = StrictScreen(COLS, ROWS)
        self.stream = pyte.Stream(self.screen)
        self.bytes: list[bytes] = []

    def feed(self, data: bytes) -> None:
        self.bytes.append(data)
        self.stream.feed(data.decode("cp437" if self.charset == "cp437" else "utf-8"))

    def cell(self, row: int, col: int) -> pyte.screens.Char:
        return self.screen.buffer[row - 1][col - 1]


def shown_char(ch: str, charset: Charset) -> str:
    """What the terminal shows for a canvas character, after the charset's fallbacks."""
    return encode(ch, charset).decode("cp437" if charset == "cp437" else "utf-8")


def assert_shows(term: Terminal, canvas: Canvas) -> None:
    colour = term.charset != "ascii"
    for r in range(1, ROWS + 1):
        for c in range(1, COLS + 1):
            ch, attr = canvas.get(r, c)
            got = term.cell(r, c)
            where = f"row {r} col {c}"
            assert got.data == shown_char(ch, term.charset), where
            if not colour:
                assert (got.fg, got.bg, got.bold) == ("default", "default", False), where
                continue
            want_bg = "default" if attr.bg is None else PYTE_COLOURS[attr.bg]
            assert got.bg == want_bg, where
            if ch != " ":
                want_fg = "default" if attr.fg is None else PYTE_COLOURS[attr.fg]
                assert (got.fg, got.bold) == (want_fg, attr.bold), where


SGR_RE = re.compile(rb"\x1b\[([0-9;]*)m")
ALLOWED_SGR = {0, 1, *range(30, 38), *range(40, 48)}


def assert_clean(data: bytes, charset: Charset) -> None:
    codes = SGR_RE.findall(data)
    if charset == "ascii":
        # No colour, and nothing but the reset that clears one left by an earlier screen.
        assert all(c in (b"0", b"") for c in codes), codes
        assert all(b < 0x80 for b in data)
        return
    for params in codes:
        for p in params.split(b";"):
            assert int(p or b"0") in ALLOWED_SGR, params


# -- canvases -------------------------------------------------------------------


def test_canvas_never_holds_the_bottom_right_cell() -> None:
    c = Canvas()
    c.put(ROWS, COLS - 2, "abc", Attr(1))
    assert c.row_text(ROWS)[-3:] == "ab "
    assert c.get(ROWS, COLS) == (" ", DEFAULT)
    c.clear(Attr(None, 4))
    assert c.get(ROWS, COLS) == (" ", DEFAULT)


def test_canvas_clips_and_sanitises() -> None:
    c = Canvas()
    c.put(1, 78, "abcdef")
    assert c.row_text(1)[-3:] == "abc"
    c.put(2, 1, "a\tb\u0301c漢")
    assert c.row_text(2)[:7] == "a?b?c? "  # tab, combining accent, double-width
    c.put(0, 1, "x")
    c.put(26, 1, "x")
    c.put(3, -2, "abcd")
    assert c.row_text(3)[:1] == "d"



def test_a_text_put_again_is_clipped_where_it_lands() -> None:
    # A text's cells are kept for its next put: that put clips them afresh, in its own attribute.
    c = Canvas()
    red, blue = Attr(1), Attr(4)
    c.put(1, 1, "abcdef", red)
    c.put(2, 78, "abcdef", red)
    c.put(3, -2, "abcdef", red)
    c.put(4, 1, "abcdef", blue)
    c.put(ROWS, COLS - 2, "abcdef", red)
    assert c.row_text(1)[:7] == "abcdef "
    assert c.row_text(2)[-3:] == "abc"
    assert c.row_text(3)[:4] == "def "
    assert [c.get(4, x)[1] for x in (1, 6)] == [blue, blue]
    assert c.row_text(ROWS)[-3:] == "ab "
    assert c.get(ROWS, COLS) == (" ", DEFAULT)

# -- SGR ------------------------------------------------------------------------------


def test_sgr_changes_only_what_changed() -> None:
    assert sgr(Attr(1), Attr(1)) == ""
    assert sgr(Attr(1), Attr(2)) == "\x1b[32m"
    assert sgr(Attr(1), Attr(1, 4)) == "\x1b[44m"
    assert sgr(Attr(1), Attr(1, None, True)) == "\x1b[1m"
    assert sgr(Attr(1, None, True), Attr(1)) == "\x1b[0;31m"
    assert sgr(Attr(1, 4), Attr(1)) == "\x1b[0;31m"
    assert sgr(None, DEFAULT) == "\x1b[0m"
    assert sgr(None, Attr(7, 0, True)) == "\x1b[0;1;37;40m"


# -- full redraw and diffs -------------------------------------------------------------


@pytest.mark.parametrize("charset", ["utf8", "cp437", "ascii"])
def test_full_redraw_and_diff(charset: Charset) -> None:
    g = glyphs(charset)
    screen = Screen(charset)
    term = Terminal(charset)
    c = screen.canvas
    c.put(1, 1, g.tl + g.h * 78 + g.tr, Attr(3, None, True))
    c.put(2, 1, g.v + " hello é " + g.white + g.black, Attr(7, 4))
    c.put(ROWS, 1, "x" * COLS, Attr(2))
    term.feed(screen.full_redraw())
    assert_shows(term, c)
    c.put(2, 5, "Z", Attr(1))
    data = screen.render()
    assert len(data) <= 16
    term.feed(data)
    assert_shows(term, c)
    assert screen.render() == b""
    for chunk in term.bytes:
        assert_clean(chunk, charset)


def test_one_cell_costs_a_few_bytes() -> None:
    screen = Screen("cp437")
    screen.full_redraw()
    screen.canvas.put(12, 40, "X", Attr(7))
    first = screen.render()
    assert first == b"\x1b[12;40H\x1b[37mX"
    screen.canvas.put(12, 41, "Y", Attr(7))
    assert screen.render() == b"Y"  # the cursor is already there
    screen.canvas.put(12, 39, "W", Attr(7))
    assert len(screen.render()) <= 5


def test_blank_line_tail_uses_erase_to_end_of_line() -> None:
    screen = Screen("utf8")
    term = Terminal("utf8")
    screen.canvas.put(20, 1, "a long message that will be replaced", Attr(2, None, True))
    term.feed(screen.full_redraw())
    screen.canvas.fill(20, 1, COLS)
    screen.canvas.put(20, 1, "ok")
    data = screen.render()
    assert b"\x1b[K" in data and len(data) < 20
    term.feed(data)
    assert_shows(term, screen.canvas)


def test_writing_the_last_column_then_moving_on() -> None:
    screen = Screen("utf8")
    term = Terminal("utf8")
    term.feed(screen.full_redraw())
    for r in range(1, ROWS + 1):
        screen.canvas.put(r, COLS - 1, "ab", Attr(r % 8))
        screen.canvas.put(r, 1, "c")
    term.feed(screen.render())
    assert_shows(term, screen.canvas)


def test_parked_cursor() -> None:
    screen = Screen("utf8")
    term = Terminal("utf8")
    screen.cursor = (24, 1)
    screen.canvas.put(5, 5, "abc")
    term.feed(screen.full_redraw())
    assert (term.screen.cursor.y, term.screen.cursor.x) == (23, 0)
    screen.canvas.put(6, 6, "d")
    term.feed(screen.render())
    assert (term.screen.cursor.y, term.screen.cursor.x) == (23, 0)


def test_invalidate_forces_a_full_redraw() -> None:
    screen = Screen("utf8")
    screen.canvas.put(3, 3, "abc")
    screen.render()
    assert screen.render() == b""
    screen.invalidate()
    assert screen.render().startswith(b"\x1b[0m\x1b[2J\x1b[H")


def test_load_copies() -> None:
    screen = Screen("utf8")
    c = Canvas()
    c.put(1, 1, "a")
    screen.load(c)
    c.put(1, 1, "b")
    assert screen.canvas.get(1, 1)[0] == "a"


def test_ascii_fallbacks() -> None:
    assert encode("╔═╗║●○┊·◄", "ascii") == b"+-+|XO|.<"
    assert encode("╔═●", "cp437") == b"\xc9\xcdX"
    assert encode("snow ☃", "ascii") == b"snow ?"


def test_an_accented_letter_a_charset_lacks_shows_its_base_letter() -> None:
    """A member board's 'Jörg Müller' read 'J?rg M?ller' on an ASCII terminal, on their own screens."""
    assert encode("Jörg Müller", "ascii") == b"Jorg Muller"
    # Letters with no base letter in Unicode: the nearest, one character each ('Strau?' had been
    # both 'Strauß' and a player called 'Strau?').
    assert encode("Łódź Ørsted Strauß Æsa", "ascii") == b"Lodz Orsted Straus Asa"
    assert encode("Jörg Łukasz", "cp437") == b"J\x94rg Lukasz"  # CP437 has ö


# -- random edits, replayed --------------------------------------------------------------

_attrs = st.builds(
    Attr,
    st.one_of(st.none(), st.integers(0, 7)),
    st.one_of(st.none(), st.integers(0, 7)),
    st.booleans(),
)
_text = st.text(alphabet=" ab═║╔○●·┊é-|", min_size=1, max_size=12)
_edit = st.tuples(st.integers(1, ROWS), st.integers(1, COLS), _text, _attrs)


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(["utf8", "cp437", "ascii"]),
    st.lists(st.lists(_edit, max_size=25), min_size=1, max_size=6),
    st.booleans(),
)
def test_random_edits_replay_exactly(
    charset: Charset, frames: list[list[tuple[int, int, str, Attr]]], park: bool
) -> None:
    screen = Screen(charset)
    if park:
        screen.cursor = (ROWS, 1)
    term = Terminal(charset)
    term.feed(screen.full_redraw())
    for i, frame in enumerate(frames):
        for row, col, text, attr in frame:
            screen.canvas.put(row, col, text, attr)
        if i == len(frames) - 1 and park:
            screen.invalidate()
        data = screen.render()
        assert_clean(data, charset)
        term.feed(data)
        assert_shows(term, screen.canvas)
        assert screen.render() == b"" or park


# -- the same picture drawn whole for many callers -------------------------------------------


@pytest.mark.parametrize("charset", ["utf8", "cp437", "ascii"])
def test_a_picture_drawn_whole_again_is_the_same_bytes_and_leaves_the_same_state(charset: Charset) -> None:
    """full_redraw remembers its answer for a picture (a crowd's first screen): a second screen
    showing the same picture gets the same bytes, and its later diffs are what the first's are."""
    from bgdoor.term import screen as screen_module  # noqa: PLC0415 - its cache, to compare with none

    picture = Canvas()
    picture.put(2, 10, "╔══ a title ══╗", Attr(3, None, True))
    picture.put(4, 4, "Handle: ", Attr(3, 4))
    picture.put(24, 1, "bottom line, last row", Attr(2))
    screen_module._WHOLE.clear()
    first, second = Screen(charset), Screen(charset)
    first.load(picture)
    made = first.full_redraw()
    second.load(picture)
    assert second.full_redraw() == made
    # A different picture is not taken for it.
    other = picture.copy()
    other.put(4, 12, "x", Attr(3, 4))
    third = Screen(charset)
    third.load(other)
    assert third.full_redraw() != made
    # Both go on alike, and show what they should.
    term = Terminal(charset)
    term.feed(made)
    for step, (row, col, text) in enumerate([(4, 12, "alice"), (6, 4, "Password: "), (4, 12, "     "), (24, 1, "")]):
        picture.put(row, col, text, Attr(step % 8, None, step % 2 == 0))
        first.load(picture)
        second.load(picture)
        data = first.render()
        assert second.render() == data
        term.feed(data)
        assert_shows(term, picture)


def test_a_switch_to_ascii_resets_the_colour_left_by_the_last_screen() -> None:
    """O)ptions C to ASCII: the last colour drawn (a cyan hint) stayed on every screen after."""
    screen = Screen("cp437")
    screen.canvas.put(1, 1, "hint", Attr(fg=6))
    out = screen.render()
    assert out.endswith(b"hint") and b"\x1b[36m" in out
    ascii_screen = Screen("ascii")  # as the console makes one for the new charset
    ascii_screen.canvas.put(1, 1, "menu", Attr(fg=6))  # asked in colour; ASCII draws none
    term = pyte.Screen(80, 25)
    stream = pyte.Stream(term)
    stream.feed(out.decode("cp437"))
    stream.feed(ascii_screen.full_redraw().decode("ascii"))
    term_cursor_fg = term.cursor.attrs.fg
    assert term_cursor_fg == "default", term_cursor_fg


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["utf8", "cp437", "ascii"]),
    st.lists(st.lists(_edit, max_size=12), min_size=2, max_size=4),
    st.lists(st.integers(0, 3), min_size=4, max_size=16),
)
def test_a_row_change_made_again_is_the_bytes_it_was_worked_out_to(
    charset: Charset, frames: list[list[tuple[int, int, str, Attr]]], visits: list[int]
) -> None:
    """The same few pictures shown in turn, as a cursor going to and fro: the rows' changes come
    from the screens' shared memory of them, and must be the bytes worked out afresh."""
    from bgdoor.term import screen as screen_module  # noqa: PLC0415 - its memory, to do without

    pictures = [Canvas()]
    for frame in frames:
        picture = pictures[-1].copy()
        for row, col, text, attr in frame:
            picture.put(row, col, text, attr)
        pictures.append(picture)
    kept, afresh = Screen(charset), Screen(charset)
    term = Terminal(charset)
    term.feed(kept.full_redraw())
    afresh.full_redraw()
    for i in visits:
        picture = pictures[i % len(pictures)]
        kept.load(picture)
        afresh.load(picture)
        data = kept.render()
        saved = dict(screen_module._ROW_DIFFS)
        screen_module._ROW_DIFFS.clear()
        try:
            assert afresh.render() == data
        finally:
            screen_module._ROW_DIFFS.clear()
            screen_module._ROW_DIFFS.update(saved)
        term.feed(data)
        assert_shows(term, picture)
