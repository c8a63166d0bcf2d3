"""A player's rating history as a small text chart for the player's page.

The chart is `height` lines of exactly `width` characters: a label column
with the highest rating on the top line and the lowest on the bottom plot
line, an axis, and the plot; the last line gives the first and last dates.
The x axis counts rated matches, not days, so a burst of games and a quiet
month take the room they deserve.

CP437 and UTF-8 draw an area with half blocks (▄ █), two levels a line;
ASCII marks each column's level with '*'.  Lines are plain text: the
caller puts them on its canvas in whatever colour it likes.
"""

from __future__ import annotations

from datetime import datetime

from bgdoor.term.charset import Charset

NO_HISTORY = "no rated matches yet"


def _label(value: float, spread: float) -> str:
    return f"{value:.1f}" if spread < 10 else f"{value:.0f}"


def _columns(values: list[float], count: int) -> list[float]:
    """One value per plot column: the best rating in each column's share of the matches,
    so the peak the top label names is always drawn."""
    n = len(values)
    if n >= count:
        return [max(values[c * n // count : (c + 1) * n // count]) for c in range(count)]
    return [values[c * n // count] for c in range(count)]  # fewer matches than columns: steps


def _row_of(level: int, plot_h: int, blocks: bool) -> int:
    """The line (0 at the top) where a column of `level` ends."""
    return plot_h - 1 - (level - 1) // 2 if blocks else plot_h - level


def rating_chart(history: list[tuple[datetime, float]], width: int, height: int, charset: Charset) -> list[str]:
    """`height` strings of `width` characters; history is (when, rating after it), oldest first."""
    if width < 12 or height < 2:
        raise ValueError(f"a rating chart needs at least 12x2 characters, not {width}x{height}")
    blocks = charset != "ascii"
    axis = "│" if blocks else "|"
    dates = height >= 3  # room for a line of dates under the plot
    plot_h = height - 1 if dates else height

    if not history:
        blank = [" " * width for _ in range(height)]
        blank[(height - 1) // 2] = NO_HISTORY.center(width)[:width]
        return blank

    history = sorted(history, key=lambda item: item[0])
    values = [rating for _, rating in history]
    lo, hi = min(values), max(values)
    spread = hi - lo
    top, bottom = _label(hi, spread), _label(lo, spread)
    label_w = max(len(top), len(bottom))
    plot_w = width - label_w - 2  # a space and the axis between labels and plot
    if plot_w < 4:
        raise ValueError(f"a rating chart {width} wide has no room for labels like {top!r}")

    levels = plot_h * 2 if blocks else plot_h
    if spread == 0:
        heights = [(levels + 1) // 2] * plot_w  # one rating all along: a level line half way up
    else:
        heights = [1 + round((v - lo) / spread * (levels - 1)) for v in _columns(values, plot_w)]

    lines: list[str] = []
    for row in range(plot_h):  # row 0 is the top line
        cells = []
        for h in heights:
            if blocks:
                floor = (plot_h - 1 - row) * 2  # levels below this line
                cells.append("█" if h >= floor + 2 else "▄" if h == floor + 1 else " ")
            else:
                cells.append("*" if h == plot_h - row else " ")
        if spread == 0:
            label = top if row == _row_of(heights[0], plot_h, blocks) else ""
        else:
            label = top if row == 0 else bottom if row == plot_h - 1 else ""
        lines.append(f"{label:>{label_w}} {axis}" + "".join(cells))

    if dates:
        first, last = history[0][0], history[-1][0]
        start = first.strftime("%Y-%m-%d")
        end = last.strftime("%Y-%m-%d")
        pad = " " * (label_w + 2)
        if len(history) == 1 or start == end:
            text = start
        else:
            text = start + end.rjust(plot_w - len(start)) if plot_w >= len(start) + len(end) + 1 else end.rjust(plot_w)
        lines.append(pad + text)
    return [line[:width].ljust(width) for line in lines]
