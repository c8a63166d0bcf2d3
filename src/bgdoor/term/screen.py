"""An off-screen 80x25 grid of cells and the fewest bytes that show it.

Draw onto `Screen.canvas`, then `Screen.render()` returns the bytes that
bring the caller's terminal from what it last showed to the canvas: only the
cells that changed, reached by whichever cursor move is shortest (absolute
CUP, relative moves, CR LF, backspaces, or rewriting the cells in between),
with an SGR only when the attribute changes.  At 2400 baud (240 bytes a
second) this is what makes moving a cursor highlight instant.

Rules kept for BBS terminals:
- colours are SGR 30-37 / 40-47 plus bold (1) and reset (0), nothing else;
- the bottom-right cell is never written (writing it scrolls many terminals);
- after writing the last column the cursor position is treated as unknown,
  because CTerm wraps at once and VT terminals wrap on the next character;
- line feeds are only sent as CR LF, so a telnet client in newline mode
  moves the same way;
- ASCII callers get no SGR at all.

Rows and columns are 1-based throughout, like the terminal's own.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from itertools import compress, islice
from operator import is_not, itemgetter, ne
from typing import NamedTuple

from bgdoor.term.charset import Charset, encode

ROWS = 25
COLS = 80

BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE = range(8)

HIDE_CURSOR = b"\x1b[?25l"
SHOW_CURSOR = b"\x1b[?25h"


class Attr(NamedTuple):
    """fg/bg are colour numbers 0-7, or None for the terminal's default.  (A named tuple: the
    screen diff compares attributes of every changed cell, and a tuple compares in C.)"""

    fg: int | None = None
    bg: int | None = None
    bold: bool = False


DEFAULT = Attr()
Cell = tuple[str, Attr]
_BLANK: Cell = (" ", DEFAULT)


def _printable(ch: str) -> str:
    """One terminal column per grid cell: anything wider, narrower or invisible becomes '?'."""
    if ch == " ":
        return ch
    if len(ch) != 1 or not ch.isprintable():
        return "?"
    if unicodedata.east_asian_width(ch) in ("W", "F") or unicodedata.combining(ch):
        return "?"
    return ch


_SAFE: dict[str, str] = {}  # character -> what a cell shows for it; every board redraw asks again


def _remember(ch: str) -> str:
    shown = _printable(ch)
    if len(_SAFE) < 4096:  # the characters screens use; exotic text is not kept
        _SAFE[ch] = shown
    return shown


# Cells are shared: one (character, attribute) tuple per pair in use, found by the attribute's
# identity (the themes' attributes live for good).  A screen is then two lists of references,
# not 4,000 tuples of its own, and unchanged cells compare by identity.
_CELLS: dict[tuple[str, int], Cell] = {}


def _new_cell(ch: str, attr: Attr) -> Cell:
    cell = (_SAFE.get(ch) or _remember(ch), attr)
    if len(_CELLS) < 16384:  # kept for good, and with it `attr`, so its id is never reused
        _CELLS[(ch, id(attr))] = cell
    return cell


def _cell(ch: str, attr: Attr) -> Cell:
    return _CELLS.get((ch, id(attr))) or _new_cell(ch, attr)


# A row's update, kept by the cells it turns into which, from where the terminal's cursor and
# attribute were: a key mostly moves a mark on one row and puts up or takes down a message, the
# same few changes over and over.  (The last row is left out: its last cell is never written.)
_ROW_DIFFS: dict[tuple[object, ...], tuple[bytes, tuple[int, int] | None, Attr | None]] = {}
ROW_DIFFS_KEPT = 8192  # 1-2 KB each: a row of references to shared cells, and the cells that differ


_ATTRS: dict[Attr, Attr] = {}  # one object per attribute value the renderer makes, so cells compare by identity


def _shared(attr: Attr) -> Attr:
    found = _ATTRS.get(attr)
    if found is None:
        found = attr
        if len(_ATTRS) < 1024:  # 8 x 9 x 9 x 2 values exist at most; anything else is not kept
            _ATTRS[attr] = attr
    return found


# A text's cells in one attribute: a board puts the same message, help and labels on every key.
_RUNS: dict[tuple[str, int], list[Cell]] = {}


def _new_run(text: str, attr: Attr) -> list[Cell]:
    run = [_CELLS.get((ch, id(attr))) or _new_cell(ch, attr) for ch in text]
    if len(_RUNS) < 4096 and len(text) <= COLS:  # kept with `attr` in its cells: its id stays its own
        _RUNS[(text, id(attr))] = run
    return run


class Canvas:
    """A grid of (character, attribute) cells; the bottom-right cell stays blank."""

    def __init__(self, rows: int = ROWS, cols: int = COLS) -> None:
        self.rows = rows
        self.cols = cols
        self.cells: list[list[Cell]] = [[_BLANK] * cols for _ in range(rows)]
        # What a painter last drew here, while nothing else has drawn since: every drawing method
        # forgets it, so a painter finding its own mark may repaint only what changed.
        self.painted: object = None

    def put(self, row: int, col: int, text: str, attr: Attr = DEFAULT) -> None:
        """Write text from (row, col) rightwards, clipped at the right edge."""
        self.painted = None
        if not 1 <= row <= self.rows:
            return
        if len(text) == 1 and 1 <= col < self.cols:  # a glyph: most of a board
            self.cells[row - 1][col - 1] = _CELLS.get((text, id(attr))) or _new_cell(text, attr)
            return
        first = max(col, 1)
        last = min(col + len(text) - 1, self.cols - 1 if row == self.rows else self.cols)
        if last < first:
            return
        run = _RUNS.get((text, id(attr))) or _new_run(text, attr)
        if first != col or last - col + 1 != len(text):
            run = run[first - col : last - col + 1]  # clipped at an edge
        self.cells[row - 1][first - 1 : last] = run

    def fill(self, row: int, col: int, width: int, ch: str = " ", attr: Attr = DEFAULT) -> None:
        self.put(row, col, ch * width, attr)

    def clear(self, attr: Attr = DEFAULT) -> None:
        self.painted = None
        blank = _cell(" ", attr)
        for line in self.cells:
            line[:] = [blank] * self.cols
        self.cells[-1][-1] = _BLANK

    def get(self, row: int, col: int) -> Cell:
        return self.cells[row - 1][col - 1]

    def row_text(self, row: int) -> str:
        return "".join(ch for ch, _ in self.cells[row - 1])

    def take(self, other: Canvas) -> None:
        """Become a copy of `other` (the same size) in this canvas's own rows: redrawing a whole
        screen for every key makes no new lists that outlive the key."""
        self.painted = None
        for mine, theirs in zip(self.cells, other.cells, strict=True):
            mine[:] = theirs

    def copy(self) -> Canvas:
        other = Canvas.__new__(Canvas)
        other.rows, other.cols = self.rows, self.cols
        other.painted = None
        other.cells = [line[:] for line in self.cells]
        return other


def sgr(old: Attr | None, new: Attr) -> str:
    """The SGR that turns attribute `old` (None: unknown) into `new`; '' if none is needed."""
    if old is new or old == new:
        return ""
    if (
        old is None
        or (old.bold and not new.bold)
        or (old.fg is not None and new.fg is None)
        or (old.bg is not None and new.bg is None)
    ):
        # Only reset can turn bold off or bring back a default colour.
        params = ["0"]
        if new.bold:
            params.append("1")
        if new.fg is not None:
            params.append(str(30 + new.fg))
        if new.bg is not None:
            params.append(str(40 + new.bg))
    else:
        params = []
        if new.bold and not old.bold:
            params.append("1")
        # Without a reset no colour goes back to the default: only changes to a colour remain.
        if new.fg is not None and new.fg != old.fg:
            params.append(str(30 + new.fg))
        if new.bg is not None and new.bg != old.bg:
            params.append(str(40 + new.bg))
    return "\x1b[" + ";".join(params) + "m"


_SGR: dict[tuple[Attr | None, Attr], bytes] = {}  # sgr() of a pair, as sent


def _cup(row: int, col: int) -> str:
    if col == 1:
        return "\x1b[H" if row == 1 else f"\x1b[{row}H"
    return f"\x1b[{row};{col}H"


def _rel(n: int, final: str) -> str:
    return f"\x1b[{final}" if n == 1 else f"\x1b[{n}{final}"


Way = tuple[bytes, int]  # bytes that move the cursor, then the cells rewritten from that column (0: none)


def _ways(r: int, c: int, pos: tuple[int, int] | None) -> tuple[bytes, tuple[Way, ...]]:
    """The CUP to (r, c), and the other ways there from `pos`, in the order they are weighed (the
    first of two that cost the same is taken).  Which cells a way may rewrite depends on the
    screen, the rest on the four numbers alone: worked out once for each move."""
    cup = _cup(r, c).encode("ascii")
    ways: list[Way] = []

    def horizontal(prefix: bytes, from_c: int) -> None:
        if c > from_c:
            ways.append((prefix + _rel(c - from_c, "C").encode("ascii"), 0))
            ways.append((prefix, from_c))
        elif c < from_c:
            n = from_c - c
            ways.append((prefix + b"\x08" * n, 0))
            ways.append((prefix + _rel(n, "D").encode("ascii"), 0))
            ways.append((prefix + b"\r" + (b"" if c == 1 else _rel(c - 1, "C").encode("ascii")), 0))
            if c > 1:
                ways.append((prefix + b"\r", 1))
        else:
            ways.append((prefix, 0))

    if pos is not None:
        pr, pc = pos
        if pr == r:
            horizontal(b"", pc)
        else:
            horizontal(_rel(abs(r - pr), "B" if r > pr else "A").encode("ascii"), pc)
            if r > pr:
                down = b"\r\n" * (r - pr)
                if c == 1:
                    ways.append((down, 0))
                else:
                    ways.append((down + _rel(c - 1, "C").encode("ascii"), 0))
                    ways.append((down, 1))
    found = (cup, tuple(ways))
    if len(_WAYS) < 8192:  # a few hundred bytes each; a screen's moves repeat
        _WAYS[(r, c, pos)] = found
    return found


_WAYS: dict[tuple[int, int, tuple[int, int] | None], tuple[bytes, tuple[Way, ...]]] = {}


WHOLE_SCREENS_KEPT = 16  # about 35 KB each


@dataclass(slots=True)
class _Whole:
    """A picture full_redraw has drawn: its cells, the bytes, and the state they leave (what is
    shown, the cursor position, the attribute)."""

    head: tuple[str, int, int, tuple[int, int] | None]  # charset, size, parked cursor
    cells: list[list[Cell]]
    data: bytes
    shown: list[list[Cell]]
    pos: tuple[int, int] | None
    attr: Attr | None


# full_redraw's answers, most recently used last.  A picture is found by comparing its rows with
# each one kept, which is a comparison of references while the cells are the shared ones: far
# cheaper than a key made of 2,000 cells' ids, for every caller of a crowd dialling in.
_WHOLE: list[_Whole] = []


class Screen:
    """What the caller's terminal shows, and the canvas it should show next."""

    def __init__(self, charset: Charset = "utf8", rows: int = ROWS, cols: int = COLS) -> None:
        self.charset: Charset = charset
        self.colour = charset != "ascii"
        self.rows = rows
        self.cols = cols
        self.canvas = Canvas(rows, cols)
        # Where to leave the terminal's own cursor after each render (None: wherever).
        self.cursor: tuple[int, int] | None = None
        self._shown: list[list[Cell]] | None = None  # None: unknown, next render redraws all
        self._pos: tuple[int, int] | None = None
        self._attr: Attr | None = None
        self._encoded: dict[str, bytes] = {}  # each character as this charset sends it

    def load(self, canvas: Canvas, *, copy: bool = True) -> None:
        """Make `canvas` the picture to show next (copy=False: a fresh canvas nobody else draws on)."""
        self.canvas = canvas.copy() if copy else canvas

    def invalidate(self) -> None:
        """The terminal was disturbed (e.g. another program wrote to it): next render redraws all."""
        self._shown = None

    def full_redraw(self) -> bytes:
        """Clear the terminal and draw everything (Ctrl-L)."""
        # The same picture drawn from a clear screen is the same bytes: a crowd dialling in all
        # get one first screen, worked out once.
        head = (self.charset, self.rows, self.cols, self.cursor)
        cells = self.canvas.cells
        for i in range(len(_WHOLE) - 1, -1, -1):
            known = _WHOLE[i]
            if known.head == head and known.cells == cells:
                if i != len(_WHOLE) - 1:
                    _WHOLE.append(_WHOLE.pop(i))
                self._shown = [line[:] for line in known.shown]
                self._pos, self._attr = known.pos, known.attr
                return known.data
        # A reset even without colour: a screen drawn in colour before (the caller chose ASCII
        # in O)ptions) would leave its last colour on everything after.
        clear = "\x1b[0m\x1b[2J\x1b[H"
        self._shown = [[_BLANK] * self.cols for _ in range(self.rows)]
        self._pos = (1, 1)
        self._attr = DEFAULT
        data = clear.encode("ascii") + self._diff()
        _WHOLE.append(_Whole(head, [line[:] for line in cells], data, [line[:] for line in self._shown],
                             self._pos, self._attr))
        if len(_WHOLE) > WHOLE_SCREENS_KEPT:
            del _WHOLE[0]
        return data

    def render(self) -> bytes:
        """The bytes that bring the terminal from its last state to the canvas."""
        if self._shown is None:
            return self.full_redraw()
        return self._diff()

    # -- internals --------------------------------------------------------

    def _same(self, shown: Cell, want: Cell) -> bool:
        """Would the caller see the same thing?"""
        if shown[0] != want[0]:
            return False
        if not self.colour:
            return True
        if shown[1] is want[1]:
            return True
        if want[0] == " ":
            return shown[1].bg == want[1].bg  # a blank shows only its background
        return shown[1] == want[1]

    def _cost(self, ch: str) -> int:
        return len(self._bytes(ch))

    def _bytes(self, ch: str) -> bytes:
        data = self._encoded.get(ch)
        if data is None:
            data = encode(ch, self.charset)
            if len(self._encoded) < 1024:  # the characters screens use; exotic text is not kept
                self._encoded[ch] = data
        return data

    def _diff(self) -> bytes:
        assert self._shown is not None
        out: list[bytes] = []
        rows, cols = self.rows, self.cols
        want_rows, shown_rows = self.canvas.cells, self._shown
        # Most rows of most updates are the very cells shown: the rows that differ, found in C.
        for r in compress(range(1, rows + 1), map(ne, want_rows, shown_rows)):
            want_line = want_rows[r - 1]
            shown_line = shown_rows[r - 1]
            last = cols - 1 if r == rows else cols
            key = None
            if r < rows:
                # The row wanted, and where and what the cells shown that are not the very cells
                # wanted are: about half the memory of both whole rows.
                at = tuple(compress(range(cols), map(is_not, shown_line, want_line)))
                key = (r, self._pos, self._attr, self.charset, cols, tuple(want_line), at,
                       tuple(map(shown_line.__getitem__, at)))
                known = _ROW_DIFFS.get(key)
                if known is not None:
                    if known[0]:
                        out.append(known[0])
                    self._pos, self._attr = known[1], known[2]
                    shown_line[:] = want_line
                    continue
                start = len(out)
            # The cells that are not the very ones shown, found in C; of those, the ones that
            # would look different (_same, written out).
            differ = compress(range(1, last + 1), map(is_not, shown_line, want_line))
            if self.colour:
                changed = [
                    c
                    for c in differ
                    if (shown := shown_line[c - 1])[0] != (want := want_line[c - 1])[0]
                    or (
                        shown[1] is not want[1]
                        and (shown[1].bg != want[1].bg if want[0] == " " else shown[1] != want[1])
                    )
                ]
            else:
                changed = [c for c in differ if shown_line[c - 1][0] != want_line[c - 1][0]]
            if changed:
                self._diff_row(r, changed, shown_line, want_line, out)
            # Every cell of the row now looks as wanted: remembering the wanted cells themselves
            # (a blank may have gone out in another colour) lets the next render skip the row
            # with one comparison.
            shown_line[:last] = want_line[:last]
            if key is not None:
                if len(_ROW_DIFFS) >= ROW_DIFFS_KEPT:
                    for old_key in list(islice(_ROW_DIFFS, ROW_DIFFS_KEPT // 4)):  # the oldest quarter
                        del _ROW_DIFFS[old_key]
                _ROW_DIFFS[key] = (b"".join(out[start:]), self._pos, self._attr)
        if self.cursor is not None:
            # Never past the grid: a field laid out for a taller or wider screen than this one.
            r, c = self.cursor
            self._move(min(max(r, 1), rows), min(max(c, 1), cols), out)
        return b"".join(out)

    def _diff_row(self, r: int, changed: list[int], shown_line: list[Cell], want_line: list[Cell],
                  out: list[bytes]) -> None:
        cols = self.cols
        # Erasing to the end of the line pays only for four blanked cells or more.
        # (Only worth finding when the last changed cell is blank: else no change is in the tail.)
        end_ch, end_attr = want_line[changed[-1] - 1]
        blank_end = end_ch == " " and (not self.colour or end_attr.bg is None)
        tail = self._blank_tail(want_line) if len(changed) >= 4 and blank_end else cols + 1
        erase_tail = sum(1 for c in changed if c >= tail) >= 4
        limit = min(cols, tail - 1) if erase_tail else cols  # where a run written at once stops
        i, n = 0, len(changed)
        while i < n:
            c = changed[i]
            i += 1
            if self._same(shown_line[c - 1], want_line[c - 1]):
                continue  # already written on the way
            if c >= tail and erase_tail:
                # Erase to end of line beats writing the blanks one by one.
                self._move(r, c, out)
                self._set_attr(DEFAULT if self._attr is None or self._attr.bg is not None else self._attr, out)
                out.append(b"\x1b[K")
                # _diff takes the wanted cells as shown up to the row's last diffed column; only
                # the bottom-right cell, never diffed, is left to note here.
                for x in range(max(c, (cols - 1 if r == self.rows else cols) + 1), cols + 1):
                    shown_line[x - 1] = _cell(" ", self._attr or DEFAULT)
                break
            self._move(r, c, out)
            self._write(r, c, want_line[c - 1], out)
            # The changed cells right after it in the attribute now set go out as one run: the
            # same bytes as cell by cell, for one encode.
            attr, end = self._attr, c
            if self.colour:
                while i < n and end < limit and changed[i] == end + 1 and want_line[end][1] is attr:
                    end += 1
                    i += 1
            else:
                while i < n and end < limit and changed[i] == end + 1:
                    end += 1
                    i += 1
            if end > c:
                out.append(encode("".join(map(itemgetter(0), want_line[c:end])), self.charset))
                shown_line[c:end] = want_line[c:end]
                self._pos = None if end == cols else (r, end + 1)

    def _blank_tail(self, line: list[Cell]) -> int:
        """First column from which the wanted line is blank on the default background."""
        c = self.cols
        while c >= 1:
            ch, attr = line[c - 1]
            if ch != " " or (self.colour and attr.bg is not None):
                break
            c -= 1
        return c + 1

    def _set_attr(self, attr: Attr, out: list[bytes]) -> None:
        if not self.colour:
            return
        key = (self._attr, attr)
        code = _SGR.get(key)
        if code is None:
            code = sgr(self._attr, attr).encode("ascii")
            if len(_SGR) < 4096:  # the pairs the themes make; others are worked out each time
                _SGR[key] = code
        if code:
            out.append(code)
        self._attr = attr

    def _write(self, r: int, c: int, cell: Cell, out: list[bytes]) -> None:
        ch, attr = cell
        if self.colour:
            cur = self._attr
            if ch == " " and cur is not None and cur.bg == attr.bg:
                attr = cur  # a blank only needs the right background
            elif ch == " " and cur is not None:
                attr = self._blank_attr(cur, attr, r, c)
            self._set_attr(attr, out)
        out.append(self._bytes(ch))
        assert self._shown is not None
        self._shown[r - 1][c - 1] = _cell(ch, self._attr if self.colour and self._attr else DEFAULT)
        self._pos = None if c == self.cols else (r, c + 1)

    def _blank_attr(self, cur: Attr, want: Attr, r: int, c: int) -> Attr:
        """The cheapest attribute to write a blank in: any with the right background.

        Either change only the background, or, if the next cell is about to
        be written with that same background, switch straight to its
        attribute so it needs no SGR of its own.
        """
        only_bg = _shared(cur._replace(bg=want.bg)) if want.bg is not None else DEFAULT
        if c >= self.cols:
            return only_bg
        assert self._shown is not None
        nxt = self.canvas.cells[r - 1][c]
        if nxt[1].bg != want.bg or self._same(self._shown[r - 1][c], nxt):
            return only_bg
        direct = len(sgr(cur, nxt[1]))
        stepwise = len(sgr(cur, only_bg)) + len(sgr(only_bg, nxt[1]))
        return nxt[1] if direct <= stepwise else only_bg

    def _through_cost(self, r: int, c0: int, c1: int) -> int | None:
        """Bytes to reach column c1 by rewriting cells c0..c1-1, or None if that would change them."""
        assert self._shown is not None
        shown_line = self._shown[r - 1]
        want_line = self.canvas.cells[r - 1]
        total = 0
        for c in range(c0, c1):
            want = want_line[c - 1]
            if not self._same(shown_line[c - 1], want):
                return None
            if self.colour and not self._same((want[0], self._attr or DEFAULT), want):
                return None
            if self._attr is None and self.colour:
                return None
            total += self._cost(want[0])
            if total > 8:
                return None  # never beats a relative move
        return total

    def _move(self, r: int, c: int, out: list[bytes]) -> None:
        pos = self._pos
        if pos == (r, c):
            return
        cup, ways = _WAYS.get((r, c, pos)) or _ways(r, c, pos)
        best_cost, best_head, best_from = len(cup), cup, 0
        for head, from_c in ways:
            cost = len(head)
            if cost >= best_cost:
                continue
            if from_c:
                if cost + c - from_c >= best_cost:
                    continue  # every cell rewritten is a byte at least
                through = self._through_cost(r, from_c, c)
                if through is None or cost + through >= best_cost:
                    continue
                cost += through
            best_cost, best_head, best_from = cost, head, from_c
        out.append(best_head)
        if best_from:
            self._write_through(r, best_from, c, out)
        self._pos = (r, c)

    def _write_through(self, r: int, c0: int, c1: int, out: list[bytes]) -> None:
        """Rewrite cells c0..c1-1 of row r as shown already (_through_cost found them so): a way
        of moving the cursor right."""
        assert self._shown is not None
        line, shown_line = self.canvas.cells[r - 1], self._shown[r - 1]
        attr = self._attr or DEFAULT
        for x in range(c0, c1):
            ch = line[x - 1][0]
            out.append(self._bytes(ch))
            shown_line[x - 1] = _cell(ch, attr)
