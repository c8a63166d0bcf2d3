"""The score bulletin: the classic door score file a BBS shows its callers.

A bulletin is a file the BBS copies to the caller as it is, so it is a plain
stream: lines ended by CR LF, colours by SGR 30-37/40-47, bold and reset only
(nothing else is safe on every BBS terminal), frames in the caller's charset.
Lines are at most 79 columns: writing the 80th makes CTerm-style terminals
wrap at once, and the CR LF after it would leave an empty line.  A screen is
24 lines, so a BBS that pauses every 24 lines pauses between screens, and the
ASCII variant has no escape codes at all.

Files are replaced atomically so the BBS never shows a half-written one.
"""

from __future__ import annotations

import os
import tempfile
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bgdoor.service.types import RankRow
from bgdoor.term.charset import Charset, encode, glyphs
from bgdoor.term.screen import BLUE, CYAN, DEFAULT, GREEN, WHITE, YELLOW, Attr, sgr
from bgdoor.term.wrap import wrap

WIDTH = 79  # never the 80th column; see above
SCREEN_LINES = 24
HANDLE_WIDTH = 17  # handles are at most 16 characters, and a bot gets a '*' after its handle
# Frame top, title, rule, heading, rule ... bottom frame, footer.
ROWS_PER_SCREEN = SCREEN_LINES - 7
# Inside the frame, with two columns clear at each end.  One line: a second would cost a
# ranking row on every screen.
TITLE_WIDTH = WIDTH - 2 - 4
NO_GAMES = "No games have been rated yet."

FRAME = Attr(fg=CYAN)
HEADING = Attr(fg=WHITE, bold=True)
TEXT = Attr(fg=WHITE)
TOP3 = Attr(fg=YELLOW, bold=True)
BOT = Attr(fg=CYAN)
FOOT = Attr(fg=GREEN)
TITLE_BG = Attr(fg=YELLOW, bg=BLUE, bold=True)

Segment = tuple[str, Attr]


@dataclass(frozen=True)
class _Column:
    name: str
    width: int
    right: bool  # right-aligned (numbers)


COLUMNS = (
    _Column("Rank", 4, True),
    _Column("Handle", HANDLE_WIDTH, False),
    _Column("Rating", 7, True),
    _Column("Won-Lost", 8, True),
    _Column("Exp", 6, True),
    _Column("Gammons", 7, True),
    _Column("Last played", 11, False),
)
GAP = "  "


def clean_text(text: str, width: int) -> str:
    """One terminal column per character, cut to `width`: wide or invisible characters become '?'."""
    out = []
    for ch in text:
        if not ch.isprintable() or unicodedata.combining(ch) or unicodedata.east_asian_width(ch) in ("W", "F"):
            ch = "?"
        out.append(ch)
    return "".join(out)[:width]


def _fit(text: str, column: _Column) -> str:
    text = clean_text(text, column.width)
    return text.rjust(column.width) if column.right else text.ljust(column.width)


def _last_played(when: datetime | None, now: datetime) -> str:
    if when is None:
        return "never"
    if when.tzinfo is not None and now.tzinfo is not None:
        when = when.astimezone(now.tzinfo)
    days = (now.date() - when.date()).days
    if days == 0:
        return "today"
    if days == 1:
        return "yesterday"
    return when.strftime("%Y-%m-%d")


def _cells(row: RankRow, now: datetime) -> list[str]:
    # Where each player is from: a member BBS's player as handle@TAG.
    handle = row.handle if not row.board or "@" in row.handle else f"{row.handle}@{row.board}"
    handle = clean_text(handle, HANDLE_WIDTH - 1) + ("*" if row.is_bot else "")
    return [
        f"{row.rank}.",
        handle,
        f"{row.rating:.1f}",
        f"{row.wins}-{row.losses}",
        str(row.experience),
        str(row.gammons),
        _last_played(row.last_played, now),
    ]


class _Writer:
    """Lines of coloured segments to bytes: an SGR only where the attribute changes."""

    def __init__(self, charset: Charset) -> None:
        self.charset = charset
        self.colour = charset != "ascii"
        self.out: list[bytes] = []
        self.attr: Attr | None = None

    def line(self, *segments: Segment) -> None:
        for text, attr in segments:
            if self.colour:
                code = sgr(self.attr, attr)
                if code:
                    self.out.append(code.encode("ascii"))
                self.attr = attr
            self.out.append(encode(text, self.charset))
        if self.colour and self.attr is not None and self.attr.bg is not None:
            # A coloured background must not bleed into the rest of the line or the next one.
            self.out.append(sgr(self.attr, DEFAULT).encode("ascii"))
            self.attr = DEFAULT
        self.out.append(b"\r\n")

    def data(self) -> bytes:
        if self.colour and self.attr not in (None, DEFAULT):
            self.out.append(b"\x1b[0m")
        return b"".join(self.out)


def render_bulletin(
    rows: Sequence[RankRow],
    charset: Charset,
    title: str = "Backgammon Rankings",
    generated_at: datetime | None = None,
    *,
    screens: int = 1,
    empty: str = NO_GAMES,
    top: int | None = None,
) -> bytes:
    """The ranking as a bulletin: `screens` screens of 24 lines at most, best first.

    Rows are shown in the order given (the service sorts them), `top` of them at most;
    those that do not fit, or are past `top`, are counted in the footer.  `empty` is said when there are none.
    Raises ValueError for a title longer than TITLE_WIDTH, rather than cut it.
    """
    if len(title) > TITLE_WIDTH:
        raise ValueError(f"the title is {len(title)} characters; the bulletin's title line holds {TITLE_WIDTH}")
    now = generated_at or datetime.now(UTC)
    g = glyphs(charset)
    inner = WIDTH - 2
    w = _Writer(charset)
    if w.colour:
        w.out.append(b"\x1b[0m\x1b[2J\x1b[H")  # a bulletin starts on a clean screen

    shown = rows[: min(ROWS_PER_SCREEN * max(screens, 1), len(rows) if top is None else top)]
    pages = [shown[i : i + ROWS_PER_SCREEN] for i in range(0, len(shown), ROWS_PER_SCREEN)] or [[]]
    heading = GAP.join(_fit(c.name, c) for c in COLUMNS)
    table_width = len(heading)
    left_pad = (inner - table_width) // 2
    right_pad = inner - table_width - left_pad
    stamp = now.strftime("%Y-%m-%d %H:%M") + (f" {now.tzname()}" if now.tzinfo is not None else "")

    for number, page in enumerate(pages, start=1):
        w.line((g.tl + g.h * inner + g.tr, FRAME))
        name = clean_text(title, TITLE_WIDTH)
        w.line((g.v, FRAME), (name.center(inner), TITLE_BG), (g.v, FRAME))
        w.line((g.t_right + g.ih * inner + g.t_left, FRAME))
        w.line((g.v, FRAME), (" " * left_pad + heading + " " * right_pad, HEADING), (g.v, FRAME))
        w.line((g.t_right + g.ih * inner + g.t_left, FRAME))
        if not page:
            # A member board's name can make the sentence longer than the frame.
            for part in wrap(clean_text(empty, len(empty)), inner - 4):
                w.line((g.v, FRAME), (part.center(inner), TEXT), (g.v, FRAME))
        for row in page:
            cells = zip(_cells(row, now), COLUMNS, strict=True)
            text = " " * left_pad + GAP.join(_fit(cell, c) for cell, c in cells) + " " * right_pad
            attr = BOT if row.is_bot else TOP3 if row.rank <= 3 else TEXT
            w.line((g.v, FRAME), (text, attr), (g.v, FRAME))
        w.line((g.bl + g.h * inner + g.br, FRAME))
        foot = f" Updated {stamp}" + ("   * computer player" if any(r.is_bot for r in page) else "")
        more = len(rows) - len(shown)
        if number < len(pages):
            right = f"continued ({number}/{len(pages)}) "
        elif more > 0:
            right = f"and {more} more player{'s' if more != 1 else ''} "
        else:
            right = f"{len(rows)} player{'s' if len(rows) != 1 else ''} "
        w.line((foot + right.rjust(WIDTH - len(foot)), FOOT))
    return w.data()


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace `path` with `data` so a reader sees the old file or the new one, never a part.

    The data goes to a temporary file in the same directory (a rename is only
    atomic within one file system), is flushed to disk, then renamed over the
    target.  The new file keeps the old one's permissions, or is world-readable:
    the BBS that shows it may run as another user.
    """
    target = Path(path)
    directory = target.parent
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
    _fsync_directory(directory)


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable; not every platform can open a directory."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
