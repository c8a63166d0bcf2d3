"""The score bulletin, shown through a terminal emulator, and its atomic write."""

from __future__ import annotations

import os
import re
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyte
import pytest

from bgdoor.records.bulletin import ROWS_PER_SCREEN, SCREEN_LINES, render_bulletin, write_atomically
from bgdoor.service import RankRow
from bgdoor.term.charset import Charset

NOW = datetime(2026, 12, 2, 14, 5, tzinfo=UTC)
HANDLES = ["alice", "Bob", "gnubg", "dave d", "erin", "frank", "gina", "hal", "ivan", "jo", "kim", "lee", "max", "ned"]


def ranking(n: int = len(HANDLES)) -> list[RankRow]:
    return [
        RankRow(
            rank=i + 1,
            handle=HANDLES[i % len(HANDLES)] + ("" if i < len(HANDLES) else str(i)),
            rating=1750.25 - 17.5 * i,
            wins=30 - i,
            losses=i,
            experience=200 + 11 * i,
            gammons=i % 4,
            last_played=None if i == 4 else NOW - timedelta(days=i),
            is_bot=HANDLES[i % len(HANDLES)] == "gnubg",
        )
        for i in range(n)
    ]


def show(data: bytes, charset: Charset, lines: int = 25) -> list[str]:
    screen = pyte.Screen(80, lines)
    stream = pyte.Stream(screen)
    stream.feed(data.decode({"cp437": "cp437", "utf8": "utf-8", "ascii": "ascii"}[charset]))
    return screen.display


@pytest.mark.parametrize("charset", ["cp437", "utf8"])
def test_ranking_shows_in_order_on_an_ansi_screen(charset: Charset) -> None:
    rows = ranking()
    data = render_bulletin(rows, charset, title="Backgammon Masters", generated_at=NOW)
    display = show(data, charset)
    assert "Backgammon Masters" in display[1]
    where = []
    for row in rows:
        line = next(
            i for i, text in enumerate(display) if re.search(rf"\b{row.rank}\.\s+{re.escape(row.handle)}\b", text)
        )
        text = display[line]
        assert f"{row.rating:.1f}" in text and f"{row.wins}-{row.losses}" in text and str(row.experience) in text
        where.append(line)
    assert where == sorted(where)  # best first, one line each
    assert "never" in display[where[4]] and "today" in display[where[0]] and "yesterday" in display[where[1]]
    assert (NOW - timedelta(days=5)).strftime("%Y-%m-%d") in display[where[5]]
    assert "gnubg*" in display[where[2]] and "computer player" in "".join(display)
    assert "Updated 2026-12-02 14:05" in "".join(display)


def test_only_basic_sgr_and_frame_in_the_charset() -> None:
    data = render_bulletin(ranking(), "cp437", generated_at=NOW)
    assert data.startswith(b"\x1b[0m\x1b[2J\x1b[H")
    for code in re.findall(rb"\x1b\[([0-9;]*)m", data):
        for param in code.split(b";") if code else [b"0"]:
            n = int(param)
            assert n in (0, 1) or 30 <= n <= 37 or 40 <= n <= 47, code
    # No escape sequences other than SGR, after the clear screen at the start.
    assert not re.search(rb"\x1b\[[0-9;?]*[A-Za-ln-z]", data[len(b"\x1b[0m\x1b[2J\x1b[H") :])
    assert data.endswith(b"\x1b[0m") or data.endswith(b"\r\n")
    text = data.decode("cp437")
    assert "╔" in text and "║" in text and "╝" in text


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
def test_lines_stay_inside_79_columns_and_24_lines(charset: Charset) -> None:
    data = render_bulletin(ranking(40), charset, generated_at=NOW, screens=3)
    plain = re.sub(rb"\x1b\[[0-9;]*[A-Za-z]", b"", data)
    lines = plain.decode("utf-8" if charset == "utf8" else "cp437").split("\r\n")
    assert lines[-1] == ""  # every line ends with CR LF
    assert max(len(line) for line in lines) <= 79
    assert all("\n" not in line and "\r" not in line for line in lines)
    body = lines[:-1]
    # 40 players on three screens of 17: full screens of 24 lines, then the rest, each in its own frame.
    starts = [i - 1 for i, line in enumerate(body) if "Backgammon Rankings" in line]
    assert all(body[i][:2] in ("╔═", "+=") for i in starts)
    assert starts == [0, SCREEN_LINES, 2 * SCREEN_LINES]
    assert len(body) == 2 * SCREEN_LINES + 7 + (40 - 2 * ROWS_PER_SCREEN)


def test_ascii_is_plain_text() -> None:
    data = render_bulletin(ranking(), "ascii", generated_at=NOW)
    assert b"\x1b" not in data
    assert all(b < 0x80 for b in data)
    display = show(data, "ascii")
    assert "1.  alice" in display[5] and display[0].startswith("+====")


def test_rows_beyond_the_screens_are_counted() -> None:
    rows = ranking(40)
    one = show(render_bulletin(rows, "cp437", generated_at=NOW), "cp437")
    assert any(f"{ROWS_PER_SCREEN}.  " in line for line in one)
    assert not any(f"{ROWS_PER_SCREEN + 1}.  " in line for line in one)
    assert f"and {40 - ROWS_PER_SCREEN} more players" in one[SCREEN_LINES - 1]
    two = show(render_bulletin(rows, "cp437", generated_at=NOW, screens=2), "cp437", lines=2 * SCREEN_LINES + 1)
    assert "continued (1/2)" in two[SCREEN_LINES - 1]
    assert any(f"{2 * ROWS_PER_SCREEN}.  " in line for line in two[SCREEN_LINES:])
    assert f"and {40 - 2 * ROWS_PER_SCREEN} more players" in two[2 * SCREEN_LINES - 1]


def test_empty_ranking_and_awkward_handles() -> None:
    display = show(render_bulletin([], "utf8", generated_at=NOW), "utf8")
    assert any("No games have been rated yet." in line for line in display)
    odd = [
        RankRow(1, "wide\u3042\x07x", 1500.0, 1, 0, 1, 0, NOW),
        RankRow(2, "p" * 16, 1490.0, 0, 1, 1, 0, NOW),
    ]
    display = show(render_bulletin(odd, "utf8", generated_at=NOW), "utf8")
    assert "1.  wide??x" in display[5]
    # The frame on the right stays in line whatever the handle held.
    assert display[5][78] == "║" and display[6][78] == "║"


def test_write_atomically_replaces_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "bgscores.ans"
    write_atomically(target, b"first")
    assert target.read_bytes() == b"first"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644  # readable by the BBS, whoever runs it
    os.chmod(target, 0o640)
    write_atomically(str(target), render_bulletin(ranking(), "cp437", generated_at=NOW))
    assert target.read_bytes().startswith(b"\x1b[0m")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the sysop's choice is kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bgscores.ans"]


def test_write_atomically_failure_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "bgscores.asc"
    target.write_bytes(b"old")
    with pytest.raises(TypeError):
        write_atomically(target, "not bytes")  # type: ignore[arg-type]  # the wrong type is the test
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["bgscores.asc"]
    with pytest.raises(FileNotFoundError):
        write_atomically(tmp_path / "missing" / "x.ans", b"data")
