"""`bgdoor board POSITION_ID`: the full board on stdout, as a caller would receive it."""

from __future__ import annotations

import argparse
import re

import pyte
import pytest

from bgdoor.rules import Position
from bgdoor.ui import keys
from bgdoor.ui.boardcmd import add_board_parser

START_ID = Position.start().id
# White (on roll) has two on the bar; Black has borne off five.
BAR_POS = Position(
    (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2),
    (0, 0, 0, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
)


def run(argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[int, bytes, bytes]:
    parser = argparse.ArgumentParser(prog="bgdoor")
    add_board_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code = args.func(args)
    out, err = capsysbinary.readouterr()
    return code, out, err


def screen_of(data: bytes, charset: str) -> list[str]:
    term = pyte.Screen(80, 25)
    pyte.Stream(term).feed(data.decode("cp437" if charset == "cp437" else "utf-8"))
    return term.display


@pytest.mark.parametrize("charset", ["utf8", "cp437", "ascii"])
def test_draws_the_board(charset: str, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, _ = run(["board", START_ID, "--charset", charset], capsysbinary)
    assert code == 0
    lines = screen_of(out, charset)
    assert [int(n) for n in re.findall(r"\d+", lines[17])] == list(range(12, 0, -1))
    assert START_ID in "\n".join(lines)
    if charset == "ascii":
        # No colour: nothing but the reset a full redraw begins with.
        assert all(b < 0x80 for b in out) and not re.search(rb"\x1b\[(?!0m)[0-9;]*m", out)
    if charset == "cp437":
        assert len(out) <= 3000


def test_as_black_sees_the_same_position_from_the_other_seat(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    _, white_out, _ = run(["board", BAR_POS.id, "--charset", "ascii"], capsysbinary)
    _, black_out, _ = run(["board", BAR_POS.id, "--charset", "ascii", "--as", "black"], capsysbinary)
    white, black = screen_of(white_out, "ascii"), screen_of(black_out, "ascii")
    bar = white[1].index("BAR") + 1
    # White, on roll, has two on the bar: in the top half of the bar from White's seat ...
    assert [line[bar] for line in white[3:8]] == ["O", "O", " ", " ", " "]
    # ... and in the bottom half from Black's.
    assert [line[bar] for line in black[11:16]] == ["O", "O", " ", " ", " "]
    # Black's five borne off sit in the viewer's (bottom) tray only from Black's seat.
    tray = black[17].index("OFF")
    assert sum(line[tray : tray + 3].count("X") for line in black[11:16]) == 5
    assert sum(line[tray : tray + 3].count("X") for line in white[3:8]) == 5


def test_options(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, _ = run(
        ["board", START_ID, "--theme", "felt", "--dice", "5-3", "--orientation", "table", "--as", "black"],
        capsysbinary,
    )
    assert code == 0
    lines = screen_of(out, "utf8")
    assert "White to play 5-3" in "\n".join(lines)
    assert [int(n) for n in re.findall(r"\d+", lines[17])] == list(range(1, 13))


def test_bad_position_id(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, err = run(["board", "not-an-id"], capsysbinary)
    assert code == 2 and out == b"" and b"Position ID" in err


def test_bad_dice(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    with pytest.raises(SystemExit):
        run(["board", START_ID, "--dice", "70"], capsysbinary)


def test_offers_only_keys_the_game_has(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, _ = run(["board", START_ID], capsysbinary)
    words = " ".join(" ".join(screen_of(out, "utf8")).split())  # the board wraps the help line
    assert code == 0
    assert " ".join(keys.help_line(keys.State.MOVING).split()) in words  # the game screen's own, ? and all
