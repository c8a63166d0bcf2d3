"""The rating chart on the player's page."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bgdoor.records.chart import NO_HISTORY, rating_chart

T0 = datetime(2026, 3, 1, 12, 0)


def series(*ratings: float) -> list[tuple[datetime, float]]:
    return [(T0 + timedelta(days=i), r) for i, r in enumerate(ratings)]


def column_heights(lines: list[str], charset: str) -> list[float]:
    """How high each plot column reaches, in lines from the bottom plot line (halves for '▄')."""
    plot = [line.split("│" if charset != "ascii" else "|", 1)[1] for line in lines[:-1]]
    heights = []
    for c in range(len(plot[0])):
        column = [row[c] for row in plot]  # top first
        if charset == "ascii":
            marks = [i for i, ch in enumerate(column) if ch == "*"]
            assert len(marks) == 1, column
            heights.append(len(plot) - marks[0])
        else:
            height = 0.0
            for ch in reversed(column):
                if ch == "█":
                    height += 1
                elif ch == "▄":
                    height += 0.5
                    break
                else:
                    break
            heights.append(height)
    return heights


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
def test_rising_history_rises_left_to_right(charset: str) -> None:
    lines = rating_chart(series(*(1500 + 3 * i for i in range(40))), 50, 8, charset)
    assert len(lines) == 8 and all(len(line) == 50 for line in lines)
    heights = column_heights(lines, charset)
    assert heights == sorted(heights) and heights[0] < heights[-1]
    assert lines[0].startswith("1617 ") and lines[6].startswith("1500 ")
    assert "2026-03-01" in lines[7] and lines[7].rstrip().endswith("2026-04-09")


@pytest.mark.parametrize("charset", ["cp437", "ascii"])
def test_falling_history_falls(charset: str) -> None:
    lines = rating_chart(series(*(1700 - 5 * i for i in range(12))), 40, 6, charset)
    heights = column_heights(lines, charset)
    assert heights == sorted(heights, reverse=True) and heights[0] > heights[-1]
    assert lines[0].startswith("1700") and lines[4].startswith("1645")


def test_the_peak_is_drawn_even_when_squeezed() -> None:
    ratings = [1500.0] * 200
    ratings[77] = 1600.0  # one match's spike among many more matches than columns
    lines = rating_chart(series(*ratings), 30, 5, "cp437")
    assert lines[0].startswith("1600") and "█" in lines[0]


def test_charsets_use_their_own_glyphs() -> None:
    history = series(1500, 1520, 1490, 1530)
    ascii_lines = rating_chart(history, 40, 6, "ascii")
    assert all(ch.isascii() for line in ascii_lines for ch in line)
    assert {ch for line in ascii_lines for ch in line.split("|", 1)[-1] if not ch.isalnum()} <= {" ", "*", "-"}
    block_lines = rating_chart(history, 40, 6, "cp437")
    for line in block_lines:
        line.encode("cp437")  # every glyph is in the DOS character set
    assert any("▄" in line for line in block_lines) and any("█" in line for line in block_lines)


@pytest.mark.parametrize("charset", ["cp437", "ascii"])
def test_single_point_is_one_level_line_with_one_label(charset: str) -> None:
    lines = rating_chart(series(1523.4), 30, 6, charset)
    assert len(lines) == 6 and all(len(line) == 30 for line in lines)
    labelled = [line for line in lines[:-1] if line[:6].strip()]
    assert len(labelled) == 1 and labelled[0].startswith("1523.4")
    heights = column_heights(lines, charset)
    assert len(set(heights)) == 1 and heights[0] > 0
    assert lines[-1].strip() == "2026-03-01"


def test_empty_history_says_so_in_the_same_space() -> None:
    lines = rating_chart([], 40, 5, "cp437")
    assert len(lines) == 5 and all(len(line) == 40 for line in lines)
    assert sum(NO_HISTORY in line for line in lines) == 1
    assert all(not line.strip() for line in lines if NO_HISTORY not in line)


def test_two_lines_without_dates_and_too_small_sizes() -> None:
    lines = rating_chart(series(1500, 1510), 20, 2, "ascii")
    assert len(lines) == 2 and lines[0].startswith("1510") and lines[1].startswith("1500")
    with pytest.raises(ValueError):
        rating_chart(series(1500), 8, 5, "ascii")
    with pytest.raises(ValueError):
        rating_chart(series(1500), 40, 1, "ascii")


def test_fits_the_players_page() -> None:
    # The page is 80x25: a chart 60 wide and 10 high, in any charset, stays inside its box.
    history = series(*(1500 + (i % 7) * 4 - i for i in range(300)))
    for charset in ("cp437", "utf8", "ascii"):
        lines = rating_chart(history, 60, 10, charset)
        assert len(lines) == 10 and {len(line) for line in lines} == {60}
