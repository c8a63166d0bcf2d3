"""The `bgdoor plays` command, run as a separate process."""

from __future__ import annotations

import subprocess
import sys

from test_rules_support import random_game_positions

from bgdoor.rules.moves import legal_plays
from bgdoor.rules.parse import parse_play
from bgdoor.rules.position import Position

START_ID = "4HPwATDgc/ABMA"


def bgdoor(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bgdoor", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_plays_lists_notation_and_id() -> None:
    result = bgdoor("plays", START_ID, "31")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 16
    pairs = [line.split("\t") for line in lines]
    assert all(len(p) == 2 for p in pairs)
    assert ["8/5 6/5", "sGfwATDgc/ABMA"] in pairs
    start = Position.start()
    assert {i for _, i in pairs} == {p.position.id for p in legal_plays(start, (3, 1))}
    for text, position_id in pairs:  # each notation names the play with that ID
        assert parse_play(start, (3, 1), text).position.id == position_id


def test_plays_accepts_dice_with_a_dash() -> None:
    assert bgdoor("plays", START_ID, "3-1").stdout == bgdoor("plays", START_ID, "31").stdout


def test_plays_accepts_dice_as_two_arguments() -> None:
    two = bgdoor("plays", START_ID, "3", "1")
    assert two.returncode == 0 and two.stdout == bgdoor("plays", START_ID, "31").stdout
    three = bgdoor("plays", START_ID, "3", "1", "2")
    assert three.returncode == 2 and "two digits" in three.stderr


def test_plays_prints_nothing_for_a_forfeited_roll() -> None:
    pos = Position((0,) * 24 + (1,), (2,) * 6 + (0,) * 19)  # on the bar against a closed board
    assert legal_plays(pos, (6, 4)) == []
    result = bgdoor("plays", pos.id, "64")
    assert result.returncode == 0 and result.stdout == ""


def test_batch() -> None:
    cases = random_game_positions(seed=8, count=60)
    text = "".join(f"{pos.id} {d1} {d2}\n" for pos, (d1, d2) in cases) + "\n"  # a blank line is skipped
    result = bgdoor("plays", "--batch", stdin=text)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(cases)
    for line, (pos, dice) in zip(lines, cases, strict=True):
        ids = sorted(p.position.id for p in legal_plays(pos, dice))
        assert line == (" ".join(ids) if ids else "-")


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_bad_position_id() -> None:
    assert "Position ID" in _one_error_line(bgdoor("plays", "not-an-id", "31"))
    assert _one_error_line(bgdoor("plays", "//////////////", "31"))


def test_bad_dice() -> None:
    for dice in ("71", "3", "ab"):
        assert "dice" in _one_error_line(bgdoor("plays", START_ID, dice))


def test_batch_bad_line() -> None:
    line = _one_error_line(bgdoor("plays", "--batch", stdin=f"{START_ID} 3 1\n{START_ID} 9 1\n"))
    assert "line 2" in line
    assert "line 1" in _one_error_line(bgdoor("plays", "--batch", stdin=f"{START_ID} 31\n"))
