"""What `bgdoor sysop forfeit-stale` says, read as the sysop reads it: one game or several, 1 day or more."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from test_sysop_support import World, fresh_world, resign_at_once, unwrap

from bgdoor import cli
from bgdoor.rules.game import Color
from bgdoor.service import Service


@pytest.fixture
def world(tmp_path: Path) -> World:
    return fresh_world(tmp_path)


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World, *args: str,
        answer: str = "") -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answer))
    code = cli.main(["sysop", "--db", world.url, *args])
    return code, capsys.readouterr().out


def test_forfeit_stale_says_one_game_and_one_day_in_the_singular(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World, tmp_path: Path
) -> None:
    """One stale game was listed under 'These games have waited 1 days or more', and with none
    left: 'No game has waited 1 days for a move'."""
    code, out = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "1", answer="n\n")
    assert code == 1 and out.startswith("This game has waited 1 day or more for the player to act:\n"), out
    code, out = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "25", answer="n\n")
    assert out.startswith("This game has waited 25 days or more for the player to act:\n"), out
    code, out = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "1", "--yes")
    assert code == 0 and out.startswith(f"game {world.stale} forfeited by "), out
    assert "(no move for 1 day):" in out, out
    code, out = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "1", "--yes")
    assert (code, out) == (0, "No game has waited 1 day for a move; nothing to forfeit.\n")
    config = tmp_path / "door.cfg"
    config.write_text("[game]\nforfeit_days = 1.0\n")
    code, out = run(capsys, monkeypatch, world, "--config", str(config), "forfeit-stale", "--yes")
    assert (code, out) == (0, "No game has waited 1 day for a move; nothing to forfeit.\n")


def test_forfeit_stale_with_0_days_says_the_games_are_waiting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    """--days 0 said 'These games have waited 0 days or more', and forfeited them for 'no move
    for 0 days'."""
    code, out = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "0", answer="n\n")
    assert code == 1 and out.startswith("These games are waiting for the player to act:\n"), out
    assert "Forfeit all 2?" in out
    run(capsys, monkeypatch, world, "forfeit-stale", "--days", "25", "--yes")
    code, out = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "0", answer="n\n")
    assert out.startswith("This game is waiting for the player to act:\n"), out
    code, out = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "0", "--yes")
    assert code == 0 and out.startswith(f"game {world.recent} forfeited by dave (waiting for a move): "), out
    code, out = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "0", "--yes")
    assert (code, out) == (0, "No game is waiting for a move; nothing to forfeit.\n")


def test_password_of_a_player_who_had_none_is_set_not_replaced(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    """A door or member BBS player has no password, yet the sysop was told theirs 'will be
    replaced' and then 'replaced'."""
    with Service(world.url) as svc:
        zed = svc.enter_from_bbs("DEMO", "zed").id
    code, out = run(capsys, monkeypatch, world, "password", "zed", answer="n\n")
    assert code == 1 and f"  password of zed (player {zed}) will be set\n" in out, out
    assert "zed played from member BBS DEMO only; from now on they may also log in" in " ".join(out.split())
    code, out = run(capsys, monkeypatch, world, "password", "erin", "--password", "erin-pw", "--yes")
    assert code == 0 and out.splitlines()[0] == "password of erin (player 5) set", out
    # Now there is one to replace.
    code, out = run(capsys, monkeypatch, world, "password", "erin", "--password", "erin-pw2", answer="n\n")
    assert "  password of erin (player 5) will be replaced\n" in out, out
    assert "may also log in" not in out
    code, out = run(capsys, monkeypatch, world, "password", "erin", "--password", "erin-pw2", "--yes")
    assert out == "password of erin (player 5) replaced\n", out


def test_a_board_already_so_is_not_asked_about(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    """resume-bbs on an admitted board (or suspend-bbs on a suspended one) said 'already
    admitted; nothing to change', asked 'Go ahead?' all the same, then said 'Nothing was
    changed.' and exited 1, as if the sysop had declined."""
    with Service(world.url) as svc:
        svc.enter_from_bbs("DEMO", "zed")
    nothing = "BBS DEMO is already admitted; nothing to change.\n"
    assert run(capsys, monkeypatch, world, "resume-bbs", "DEMO", answer="y\n") == (0, nothing)
    assert run(capsys, monkeypatch, world, "resume-bbs", "demo", "--yes") == (0, nothing)
    code, out = run(capsys, monkeypatch, world, "suspend-bbs", "DEMO", "--reason", "spam", "--yes")
    assert code == 0 and out.startswith("BBS DEMO suspended: "), out
    nothing = "BBS DEMO is already suspended; nothing to change.\n"
    assert run(capsys, monkeypatch, world, "suspend-bbs", "DEMO", answer="y\n") == (0, nothing)
    assert run(capsys, monkeypatch, world, "suspend-bbs", "DEMO", "--reason", "spam", answer="y\n") == (0, nothing)
    # A new reason is a change: it was said to be none, and the callers went on being told the old one.
    code, out = run(capsys, monkeypatch, world, "suspend-bbs", "DEMO", "--reason", "more spam", answer="y\n")
    assert code == 0 and "Go ahead?" in out, out
    assert unwrap(out).endswith("the reason for BBS DEMO's suspension changed to: more spam (it was: spam); "
                        "it stays suspended\n"), out
    code, out = run(capsys, monkeypatch, world, "bbses")
    assert "suspended: more spam" in out, out
    # A long reason: under the table, wrapped to 80 columns (the row had been 174).
    reason = "Their sysop asked us to pause all play until the new year, sorry about that folks"
    run(capsys, monkeypatch, world, "suspend-bbs", "DEMO", "--reason", reason, "--yes")
    code, out = run(capsys, monkeypatch, world, "bbses")
    assert max(map(len, out.splitlines())) <= 80 and "DEMO is suspended: Their sysop" in out, out
    assert " ".join(out.split("\n\nPlayers of")[0].split()).endswith(reason), out


def test_bbses_lists_each_boards_players_with_alias_and_last_activity(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    """A play-tester found README's 'lists every member BBS with its players and their last
    activity' untrue: the command showed a count of players per board and no player."""
    with Service(world.url) as svc:
        svc.enter_from_bbs("DEMO", "zed")
        svc.enter_from_bbs("DEMO", "Gammon@Joe")
        svc.enter_from_bbs("OTHER", "zed")
    code, out = run(capsys, monkeypatch, world, "bbses")
    assert code == 0 and max(map(len, out.splitlines())) <= 80, out
    demo = out.split("Players of DEMO:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert re.split(r"  +", demo[0]) == ["Handle", "Alias on DEMO", "Last activity (UTC)"], out
    rows = sorted(re.split(r"  +", line.strip())[:2] for line in demo[2:])
    assert rows == [["Gammon_Joe", "Gammon@Joe"], ["zed", "zed"]], out
    assert all(re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d$", line) for line in demo[2:]), out
    other = out.split("Players of OTHER:\n", 1)[1].splitlines()
    assert re.split(r"  +", other[2].strip())[:2] == ["zed~2", "zed"], out


def table_rows(out: str) -> list[list[str]]:
    """The event table under `sysop game`'s header, split on its two-space column gaps."""
    table = out.split("\n\n", 1)[1].splitlines()
    start = table[0].index("Event")
    rows: list[list[str]] = []
    for line in table[2:]:
        if line[:start].strip():
            rows.append([cell.strip() for cell in re.split(r"  +", line.strip())])
        else:  # an event wrapped under its column
            rows[-1][-1] += " " + line.strip()
    return rows


def test_game_names_a_member_boards_player_one_way(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    """`sysop game N` named a member board's player carol~2@OTHER in its header and carol~2 in
    the event list (and as the winner)."""
    with Service(world.url) as svc:
        carol2 = svc.enter_from_bbs("OTHER", "carol").id
        alice = svc.login("alice", "alice-pw").id
        game = svc.begin_game(carol2, 1, Color.WHITE, opponent="alice").id
        resign_at_once(svc, game, {Color.WHITE: carol2, Color.BLACK: alice}, Color.BLACK)
    code, out = run(capsys, monkeypatch, world, "game", str(game))
    assert code == 0 and "White:         carol~2@OTHER\n" in out and "Winner:        carol~2@OTHER\n" in out, out
    players = {row[2] for row in table_rows(out)}
    assert players == {"carol~2@OTHER", "alice"}, out


def test_a_removed_game_s_notice_names_a_member_boards_player_as_the_lists_do(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    """'The sysop removed game #2, your 3-point match with Sir Reginald L~3.': everywhere else he
    was Sir Reginald L~3@ALPHA."""
    with Service(world.url) as svc:
        carol2 = svc.enter_from_bbs("OTHER", "carol").id
        alice = svc.login("alice", "alice-pw").id
        game = svc.begin_game(carol2, 3, Color.WHITE, opponent="alice").id
    code, out = run(capsys, monkeypatch, world, "delete-game", str(game), "--yes")
    assert code == 0, out
    with Service(world.url) as svc:
        assert [n.other for n in svc.notices(alice) if n.kind == "removed"] == ["carol~2@OTHER"]
        assert [n.other for n in svc.notices(carol2) if n.kind == "removed"] == ["alice"]


def test_a_forfeit_is_nobodys_move(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    """A forfeit for time showed as '(door) ... white forfeits the match (time)', as if the door
    had made a move, and so did the sysop's: forfeit-stale and the door's own sweep record the
    same event, and delete-player --force one like it."""
    code, out = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "25", "--yes")
    assert code == 0 and out.startswith(f"game {world.stale} forfeited"), out
    with Service(world.url) as svc:
        assert svc.forfeit_stale(0) == [world.recent]  # the door's hourly sweep
        alice = svc.login("alice", "alice-pw").id
        deleted = svc.begin_game(alice, 1, Color.WHITE, opponent="bob").id
        svc.roll(alice, deleted, svc.game_version(deleted))
    run(capsys, monkeypatch, world, "delete-player", "alice", "--force", "--yes")
    for game, why in ((world.stale, "no move in time"), (world.recent, "no move in time"),
                      (deleted, "player deleted")):
        code, out = run(capsys, monkeypatch, world, "game", str(game))
        assert "(door)" not in out and "(time)" not in out, out
        rows = table_rows(out)
        forfeit = next(i for i, row in enumerate(rows) if "forfeits" in row[4])
        loser = rows[forfeit][4].split()[0]
        assert loser in ("white", "black")
        assert rows[forfeit][2:] == ["(system)", "-", f"{loser} forfeits the match ({why})"], out
        # The win that follows is nobody's move either, and says what it is: not '3 points
        # (single, forfeit)', a single game the players were never told of.
        assert [row[2] for row in rows[forfeit:]] == ["(system)"] * 3, out
        assert re.fullmatch(rf"{rows[forfeit + 1][4].split()[0]} wins by forfeit \(\d+ points? awarded\)",
                            rows[forfeit + 1][4]), out


def test_the_sysop_s_long_messages_are_broken_between_words_within_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World, tmp_path: Path
) -> None:
    """Lines of 101 to 170 characters (a refusal, a door player's new password, an unknown
    board, a missing database) wrapped mid-word on the sysop's 80-column terminal."""
    monkeypatch.setattr(cli, "_on_terminal", lambda out: True)
    with Service(world.url) as svc:
        svc.enter_from_door("Doorman")
    said = []
    for args in (["delete-player", "dave", "--yes"], ["password", "Doorman", "--password", "door-pw", "--yes"],
                 ["suspend-bbs", "ZZZ", "--yes"]):
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        cli.main(["sysop", "--db", world.url, *args])
        captured = capsys.readouterr()
        said.append(captured.out + captured.err)
    cli.main(["sysop", "--db", f"sqlite:///{tmp_path}/nope.db", "players"])
    said.append(capsys.readouterr().err)
    for text in said:
        lines = text.splitlines()
        # (A path longer than a line stays whole, on a line of its own.)
        assert len(lines) > 1 and all(len(line) <= 80 or " " not in line.strip() for line in lines), text
    words = [" ".join(text.split()) for text in said]
    assert "nothing was changed. With --force, their active games are forfeited" in words[0]
    assert "Doorman played through the BBS door only; from now on they may also log in by telnet" in words[1]
    assert "no member BBS ZZZ: door.cfg has no [bbs ZZZ] section" in words[2]
    assert "there is no database at" in words[3]


def test_into_a_pipe_the_sysop_s_error_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Exit status 2 promises one line on standard error: it had been wrapped at 80 columns into
    a pipe too, and a cron log or a grep got half of it."""
    assert cli.main(["sysop", "--db", f"sqlite:///{tmp_path}/nope.db", "players"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and len(err) > 80 and "there is no database at" in err, err


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_serve_refuses_a_port_no_socket_can_have(capsys: pytest.CaptureFixture[str], port: str) -> None:
    """`bgdoor serve --port 99999` ended in a traceback from the socket's bind."""
    with pytest.raises(SystemExit) as done:
        cli.main(["serve", "--port", port])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "a port is a number from 0 to 65535" in err and "Traceback" not in err, err


def test_game_names_the_winner_on_a_win_s_row_not_the_dropper(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    """`sysop game N` read 'bob  black  white wins 1 point (single, drop)': the row of a win named
    whoever acted last, the dropper, where a resignation's named the winner."""
    from bgdoor.rules.dice import ScriptedDice  # noqa: PLC0415

    with Service(world.url, dice=ScriptedDice([3, 1, 4, 2])) as svc:
        alice, bob = svc.login("alice", "alice-pw").id, svc.enter_from_door("bob").id
        v = svc.begin_game(alice, 3, Color.WHITE, opponent="bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.roll(bob, v.id, v.version)
        v = svc.submit_turn(bob, v.id, v.version, "8/4 6/4")
        v = svc.double(alice, v.id, v.version)
        svc.drop(bob, v.id, v.version)
    code, out = run(capsys, monkeypatch, world, "game", str(v.id))
    rows = table_rows(out)
    drop = next(row for row in rows if row[-1] == "drops")
    won = next(row for row in rows if "wins 1 point" in row[-1])
    assert code == 0 and won[2:4] == ["alice", "white"], out
    assert drop[2:4] == ["bob", "black"], out
