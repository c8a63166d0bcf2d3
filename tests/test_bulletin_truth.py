"""What `bgdoor bulletin` says, read as the sysop and their callers read it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from test_sysop_support import World, fresh_world, unwrap

from bgdoor import cli
from bgdoor.records.bulletin import TITLE_WIDTH, WIDTH, render_bulletin
from bgdoor.service import Service

LONG_NAME = "The Very Long Named Bulletin Board Systm"  # 40 characters, the most door.cfg allows


@pytest.fixture
def world(tmp_path: Path) -> World:
    return fresh_world(tmp_path)


def config(tmp_path: Path, world: World) -> str:
    path = tmp_path / "door.cfg"
    path.write_text(
        f"[database]\nurl = {world.url}\n"
        "[bbs DP]\nname = Demo Board\nsecret = a-long-secret-1\naddresses = 0.0.0.0/0\n"
        f"[bbs LONG]\nname = {LONG_NAME}\nsecret = a-long-secret-2\naddresses = 0.0.0.0/0\n"
    )
    return str(path)


def bulletin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, world: World,
             *args: str) -> tuple[int, list[str], str]:
    """Exit status, the bulletin's lines (ASCII), standard error."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    out = tmp_path / "bulletin.txt"
    out.unlink(missing_ok=True)
    code = cli.main(["bulletin", "--config", config(tmp_path, world), "--charset", "ascii", "-o", str(out), *args])
    lines = out.read_bytes().decode("ascii").split("\r\n") if out.exists() else []
    return code, lines, capsys.readouterr().err


def test_a_board_with_no_finished_match_says_so_of_that_board(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, world: World
) -> None:
    """--bbs DP for a board none of whose players had finished a match said 'No games have been
    rated yet.', while the door's own players had rated games."""
    with Service(world.url) as svc:
        svc.enter_from_bbs("DP", "zed")  # a player of the board, who has not played
    code, lines, err = bulletin(monkeypatch, capsys, tmp_path, world, "--bbs", "DP")
    assert (code, err) == (0, "")
    assert not any("rated yet" in line for line in lines), lines
    assert any("No player of Demo Board has finished a match yet." in line for line in lines), lines
    # The whole league's bulletin does list the rated players.
    code, lines, err = bulletin(monkeypatch, capsys, tmp_path, world)
    assert code == 0 and any("alice" in line for line in lines)
    # A board's name of 40 characters makes the sentence too long for one line in the frame: it
    # goes on to the next, inside the frame, no word cut.
    code, lines, err = bulletin(monkeypatch, capsys, tmp_path, world, "--bbs", "LONG")
    assert said(lines) == [f"No player of {LONG_NAME} has finished a", "match yet."], lines


def said(lines: list[str]) -> list[str]:
    """The text inside the frame under the heading's rule, each line checked to be framed."""
    body = lines[5 : next(i for i, line in enumerate(lines) if line.startswith("+=") and i > 0)]
    assert all(len(line) == WIDTH and line[0] == line[-1] == "|" for line in body), body
    return [line[1:-1].strip() for line in body]


def test_an_empty_bulletin_wraps_a_long_sentence_inside_the_frame() -> None:
    text = f"No player of {LONG_NAME} has finished a match yet."
    lines = render_bulletin([], "ascii", empty=text).decode("ascii").split("\r\n")
    assert " ".join(said(lines)) == text
    assert said(render_bulletin([], "ascii").decode("ascii").split("\r\n")) == ["No games have been rated yet."]


def test_a_title_too_long_for_the_frame_is_refused_not_cut(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, world: World
) -> None:
    """A --title longer than the frame's title line was cut mid-word with no warning
    ('...on and on past th  |')."""
    longest = ("A title that goes on and on " * 3)[:TITLE_WIDTH]
    code, lines, err = bulletin(monkeypatch, capsys, tmp_path, world, "--title", longest)
    assert code == 0 and err == "" and longest in lines[1], lines[1]
    code, lines, err = bulletin(monkeypatch, capsys, tmp_path, world, "--title", longest + "x")
    assert (code, lines) == (2, [])
    assert unwrap(err) == (f"bgdoor bulletin: --title is {TITLE_WIDTH + 1} characters; the bulletin's title line holds "
                   f"at most {TITLE_WIDTH}\n")
    # With --bbs the board's name follows the title: the room left is said.
    room = TITLE_WIDTH - len(": Demo Board")
    code, lines, err = bulletin(monkeypatch, capsys, tmp_path, world, "--bbs", "dp", "--title", longest[: room + 1])
    assert (code, lines) == (2, [])
    assert unwrap(err) == (f"bgdoor bulletin: --title is {room + 1} characters; with --bbs DP the title line ends in "
                   f"': Demo Board', so --title may be at most {room} characters (the line holds {TITLE_WIDTH})\n")
    code, lines, err = bulletin(monkeypatch, capsys, tmp_path, world, "--bbs", "dp", "--title", longest[:room])
    assert code == 0 and f"{longest[:room]}: Demo Board" in lines[1], lines[1]


def test_the_footer_counts_the_players_past_top(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, world: World
) -> None:
    """--top 2 on a league with more rated players ended '2 players', as if they were all; so did
    the default bulletin of a board with more rated players than a screen holds."""
    with Service(world.url) as svc:
        rated = len(svc.rankings(limit=None))
    assert rated > 2
    code, lines, err = bulletin(monkeypatch, capsys, tmp_path, world, "--top", "2")
    assert (code, err) == (0, "")
    foot = next(line for line in reversed(lines) if line.strip())
    assert foot.rstrip().endswith(f"and {rated - 2} more player{'s' if rated != 3 else ''}"), foot
    assert len(said(lines)) == 2, lines
    code, lines, err = bulletin(monkeypatch, capsys, tmp_path, world)
    foot = next(line for line in reversed(lines) if line.strip())
    assert foot.rstrip().endswith(f"{rated} players"), foot
