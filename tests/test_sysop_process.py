"""bgdoor sysop, bulletin and export as separate processes, as cron and a sysop's shell run them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyte
import pytest
from test_sysop_support import World, bgdoor, exported, fresh_world

from bgdoor.records.bulletin import ROWS_PER_SCREEN
from bgdoor.rules.game import Color
from bgdoor.service import Service
from bgdoor.service.sysop import Sysop

GNUBG_PLAYER = {Color.WHITE: "X", Color.BLACK: "O"}


@pytest.fixture
def world(tmp_path: Path) -> World:
    return fresh_world(tmp_path)


def show(data: bytes, charset: str, lines: int = 25) -> list[str]:
    screen = pyte.Screen(80, lines)
    pyte.Stream(screen).feed(data.decode({"cp437": "cp437", "utf8": "utf-8", "ascii": "ascii"}[charset]))
    return screen.display


# -------------------------------------------------------------------- sysop


def test_players_and_games_from_the_shell(world: World, tmp_path: Path) -> None:
    done = bgdoor("sysop", "--db", world.url, "players", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert re.search(r"^ +1  alice +\d+\.\d  1-0 ", done.stdout, re.M)
    done = bgdoor("sysop", "games", "--stale", "25", "--db", world.url, cwd=tmp_path)
    assert done.returncode == 0
    assert [line.split()[:2] for line in done.stdout.splitlines()[2:-1]] == [[str(world.stale), "active"]]


def test_a_database_with_no_players_at_all_says_it_may_be_a_plain_copy(tmp_path: Path) -> None:
    """A plain copy of a live SQLite database (its newest changes still in the -wal file) showed
    '0 players' and 'No games.' with nothing to say why."""
    url = f"sqlite:///{tmp_path}/copy.db"
    Service(url).close()  # the tables, and nobody in them
    done = bgdoor("sysop", "--db", url, "players", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.endswith("0 players\n"), done
    assert " ".join(done.stderr.split()) + "\n" == (
        f"bgdoor sysop: {tmp_path}/copy.db has no players at all, not even the computer's; if it is a copy of "
        "a running server's database, copy it with: sqlite3 LIVE.db \".backup copy.db\" (a plain copy leaves "
        "out what is still in the -wal file)\n"
    )


def test_delete_game_asks_on_stdin(world: World, tmp_path: Path) -> None:
    args = ("sysop", "--db", world.url, "delete-game", str(world.recent))
    done = bgdoor(*args, stdin="n\n", cwd=tmp_path)
    assert done.returncode == 1 and done.stdout.endswith("Nothing was changed.\n")
    done = bgdoor(*args, stdin="y\n", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert (
        done.stdout.splitlines()[-1]
        == f"game {world.recent} (active 3-point match, bob v dave) deleted with its 1 event"
    )
    done = bgdoor(*args, stdin="y\n", cwd=tmp_path)
    assert (
        done.returncode == 2 and done.stdout == "" and done.stderr == f"bgdoor sysop: there is no game {world.recent}\n"
    )


def test_unknown_player_from_the_shell(world: World, tmp_path: Path) -> None:
    done = bgdoor("sysop", "--db", world.url, "delete-player", "nobody", "--force", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "bgdoor sysop: there is no player called 'nobody'\n"


def test_the_sysop_tools_stay_out_of_bgdoor_plays() -> None:
    code = (
        "import sys; from bgdoor import cli; cli.build_parser(); "
        "print(sorted(m for m in sys.modules if m.startswith(('sqlalchemy', 'bgdoor.service'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


# ----------------------------------------------------------------- bulletin


def test_bulletin_shows_the_ranked_names(world: World, tmp_path: Path) -> None:
    out = tmp_path / "bulletins" / "bgscores.ans"
    out.parent.mkdir()
    done = bgdoor(
        "bulletin", "--db", world.url, "-o", str(out), "--title", "Backgammon at the Rusty Modem", cwd=tmp_path
    )
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    assert [p.name for p in out.parent.iterdir()] == ["bgscores.ans"]  # no temporary file left behind
    data = out.read_bytes()
    display = show(data, "cp437")
    assert "Backgammon at the Rusty Modem" in display[1]
    with Service(world.url) as svc:
        ranking = svc.rankings(limit=ROWS_PER_SCREEN)
    where = []
    for row in ranking:
        line = next(
            i for i, text in enumerate(display) if re.search(rf"\b{row.rank}\.\s+{re.escape(row.handle)}\s", text)
        )
        assert f"{row.rating:.1f}" in display[line] and f"{row.wins}-{row.losses}" in display[line]
        where.append(line)
    assert where == sorted(where) and len(ranking) == 4  # alice, bob, carol and dave have rated matches
    assert all("erin" not in line and "Computer" not in line for line in display)  # unrated
    assert "4 players" in display[where[-1] + 2]

    # Standard output, without -o, is the same bulletin (its time stamp aside).
    done = subprocess.run(
        [sys.executable, "-m", "bgdoor", "bulletin", "--db", world.url], capture_output=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0
    assert show(done.stdout, "cp437")[2 : where[-1] + 2] == display[2 : where[-1] + 2]


def test_bulletin_top_and_charsets(world: World, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bgdoor", "bulletin", "--db", world.url, "--top", "2", "--charset", "ascii"],
        capture_output=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and b"\x1b" not in done.stdout
    text = done.stdout.decode("ascii")
    with Service(world.url) as svc:
        first, second, third = (r.handle for r in svc.rankings(limit=3))
    assert re.search(rf"1\.\s+{first}\s", text) and re.search(rf"2\.\s+{second}\s", text) and third not in text
    done = subprocess.run(
        [sys.executable, "-m", "bgdoor", "bulletin", "--db", world.url, "--charset", "utf8"],
        capture_output=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and "═" in done.stdout.decode("utf-8")
    bad = bgdoor("bulletin", "--db", world.url, "--top", "0", cwd=tmp_path)
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1


# ------------------------------------------------------------------- export


@pytest.fixture(scope="module")
def gnubg() -> Any:
    module = pytest.importorskip("gnubg")
    for command in ("set confirm new off", "set confirm save off", "set sound enable off", "set display off"):
        module.command(command)
    return module


def test_export_round_trips_through_gnubg(
    world: World, tmp_path: Path, gnubg: Any, capfd: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "alice-bob.mat"
    done = bgdoor("export", str(world.match), "--db", world.url, "-o", str(path), cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    text = path.read_text()
    with Service(world.url) as svc:
        final = svc.game(world.match).state
        assert text == exported(Sysop(svc), world.match)
    assert final.over and final.winner is Color.WHITE and len(final.results) == 3

    capfd.readouterr()
    gnubg.command(f"import mat {path}")
    said = capfd.readouterr().out
    for trouble in ("WARNING", "Unrecognised", "not a valid", "Illegal", "doesn't follow"):
        assert trouble not in said, f"gnubg: {trouble} importing\n{text}"
    match = gnubg.match()
    info = match["match-info"]
    assert (info["X"]["name"], info["O"]["name"], info["match-length"]) == ("alice", "bob", 3)
    games = match["games"]
    assert len(games) == len(final.results)
    for got, result in zip(games, final.results, strict=True):
        assert got["info"]["winner"] == GNUBG_PLAYER[result.winner]
        assert got["info"]["points-won"] == result.points
    last = games[-1]["info"]
    won = last["points-won"]
    assert (
        last["score-X"] + (won if last["winner"] == "X" else 0),
        last["score-O"] + (won if last["winner"] == "O" else 0),
    ) == final.score


def test_export_to_stdout_and_unknown_game(world: World, tmp_path: Path) -> None:
    done = bgdoor("export", str(world.stale), "--db", world.url, cwd=tmp_path)
    assert done.returncode == 0
    assert " 3 point match" in done.stdout and " carol : 0" in done.stdout and "dave : 0" in done.stdout
    with Service(world.url) as svc:
        assert done.stdout == exported(Sysop(svc), world.stale)  # an unfinished match, as far as it went
    done = bgdoor("export", "999", "--db", world.url, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "" and done.stderr == "bgdoor export: there is no game 999\n"


def test_a_mistyped_database_path_is_refused_not_made(tmp_path: Path) -> None:
    """`bulletin --db` with a typo made a new empty database (and its folder) and said no games
    had been rated: a sysop was told their players were gone."""
    url = f"sqlite:///{tmp_path}/nowhere/x.db"
    for args in (("bulletin", "--db", url), ("sysop", "--db", url, "players"), ("export", "--db", url, "1")):
        done = bgdoor(*args, cwd=tmp_path)
        assert done.returncode == 2 and "there is no database at" in done.stderr, (args, done.stderr)
    assert not (tmp_path / "nowhere").exists()


def test_suspending_a_bbs_nobody_knows_is_refused(world: World, tmp_path: Path) -> None:
    done = bgdoor("sysop", "--db", world.url, "resume-bbs", "nosuch", cwd=tmp_path)
    assert done.returncode == 2 and "no member BBS NOSUCH" in done.stderr, done.stderr
    assert "already admitted" not in done.stdout


def test_an_empty_bbs_tag_is_a_usage_error(world: World, tmp_path: Path) -> None:
    """suspend-bbs "" exited 1, the status README gives a refusal by the database, not 2 (a bad
    argument)."""
    for action in ("suspend-bbs", "resume-bbs"):
        done = bgdoor("sysop", "--db", world.url, action, " ", "--yes", cwd=tmp_path)
        assert done.returncode == 2 and "a BBS tag is 1 to 8 characters" in done.stderr, done.stderr
