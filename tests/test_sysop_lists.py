"""bgdoor sysop players / games / game, in-process: what a sysop reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_sysop_support import World, fresh_world, unwrap

from bgdoor import cli
from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Phase, Win
from bgdoor.service import Service
from bgdoor.service.sysop import Sysop, event_text


@pytest.fixture
def world(tmp_path: Path) -> World:
    return fresh_world(tmp_path)


def run(capsys: pytest.CaptureFixture[str], world: World, *args: str) -> tuple[int, str, str]:
    code = cli.main(["sysop", "--db", world.url, *args])
    out, err = capsys.readouterr()
    return code, out, err


def rows(out: str) -> list[list[str]]:
    """A table's body rows, cut at runs of two or more spaces (no cell holds two spaces)."""
    lines = out.splitlines()
    body = lines[2:]  # past the header and its rule
    return [re.split(r"\s{2,}", line.strip()) for line in body
            if line and not re.match(r"\d+ (game|player)s?( \(\* to act\))?$", line)]


def ids(out: str) -> list[int]:
    return [int(r[0]) for r in rows(out)]


def test_players_lists_each_with_rating_record_and_login(capsys: pytest.CaptureFixture[str], world: World) -> None:
    code, out, err = run(capsys, world, "players")
    assert code == 0 and err == ""
    header = out.splitlines()[0].split()
    assert header[:4] == ["ID", "Handle", "Rating", "W-L"]
    table = {r[1]: r for r in rows(out)}
    assert list(table) == ["alice", "bob", "carol", "Computer", "dave", "erin"]  # by handle, case aside
    assert table["alice"][-1] == "password" and table["bob"][-1] == "door" and table["Computer"][-1] == "bot"
    assert table["alice"][3] == "1-0" and table["bob"][3] == "1-1" and table["erin"][3] == "0-0"
    with Service(world.url) as svc:
        alice = svc.player_page("alice").player
    assert table["alice"][2] == f"{alice.rating:.1f}"
    assert table["Computer"][6] == "-"  # a bot is never seen
    assert out.rstrip().endswith("6 players")


def test_games_filters(capsys: pytest.CaptureFixture[str], world: World) -> None:
    code, out, _ = run(capsys, world, "games")
    assert code == 0
    assert ids(out) == [world.recent, world.waiting, world.stale, *reversed(world.quick), world.match]  # latest first
    assert ids(run(capsys, world, "games", "--status", "finished")[1]) == [*reversed(world.quick), world.match]
    assert ids(run(capsys, world, "games", "--status", "open")[1]) == [world.waiting]
    assert ids(run(capsys, world, "games", "--player", "DAVE")[1]) == [
        world.recent,
        world.waiting,
        world.stale,
        world.quick[0],
    ]
    assert ids(run(capsys, world, "games", "--stale", "10")[1]) == [world.waiting, world.stale]
    assert ids(run(capsys, world, "games", "--stale", "25")[1]) == [world.stale]
    assert ids(run(capsys, world, "games", "--stale", "10", "--player", "carol")[1]) == [world.stale]
    code, out, _ = run(capsys, world, "games", "--stale", "50")
    assert code == 0 and out == "No games.\n"
    waiting = next(r for r in rows(run(capsys, world, "games")[1]) if int(r[0]) == world.waiting)
    assert waiting[1:5] == ["open", "(open seat)", "dave", "0-0/5"]
    # The player to act marked as callers' lists mark them, said under the list.
    listed = run(capsys, world, "games")[1]
    acting = next(r for r in rows(listed) if int(r[0]) == world.stale)
    assert acting[2:4] == ["*carol", "dave"], acting
    assert listed.rstrip().endswith(" games (* to act)"), listed


def test_the_players_and_games_lists_fit_80_columns_with_16_letter_handles(
    capsys: pytest.CaptureFixture[str], world: World
) -> None:
    """'bgdoor sysop players' was 84 columns with a telnet player of 16 letters (the computer's
    'Intermediate Bot' alone made 81), and 'games' 100 with two such handles."""
    with Service(world.url) as svc:
        long = svc.register("Sixteen_Letters1", "long-pw").id
        svc.register("Sixteen_Letters2", "long-pw")
        svc.begin_game(long, 25, Color.WHITE, "Sixteen_Letters2")
    for listing in ("players", "games"):
        out = run(capsys, world, listing)[1]
        assert "Sixteen_Letters2" in out, out
        assert max(map(len, out.splitlines())) <= 80, out


def test_game_shows_the_record_with_players_and_times(capsys: pytest.CaptureFixture[str], world: World) -> None:
    code, out, err = run(capsys, world, "game", str(world.match))
    assert code == 0 and err == ""
    assert f"Game:          {world.match}, a 3-point match, finished" in out
    assert "White:         alice" in out and "Black:         bob" in out and "Winner:        alice" in out
    assert "Score:         3-1 (white-black)" in out
    with Service(world.url) as svc:
        record = Sysop(svc).game(world.match)
    table = out.split("\n\n", 1)[1]
    body = rows(table)
    assert len(body) == len(record.events) > 50
    for row, event in zip(body, record.events, strict=True):
        assert int(row[0]) == event.seq
        assert row[1] == event.when.strftime("%Y-%m-%d %H:%M:%S")
        assert row[2] == (event.player or "(system)") and row[4] == event.text
    texts = [r[4] for r in body]
    assert texts[0].startswith("opening roll: white ")
    # Where each next game of the match begins (the rows had just gone on).
    assert [t.split(":")[0] for t in texts if t.startswith("game ")] == ["game 2", "game 3"], texts
    assert "doubles to 2" in texts and "takes" in texts and "drops" in texts
    assert any(t.startswith("plays ") for t in texts) and any(t.startswith("rolls ") for t in texts)
    assert texts[-1] == "white wins the match"
    assert {r[2] for r in body} == {"alice", "bob"}


def test_event_text_for_the_system_events() -> None:
    forfeit = {"type": "forfeit", "loser": "black", "reason": "time"}
    assert event_text(forfeit) == "black forfeits the match (no move in time)"
    assert event_text({"type": "play", "notation": "", "position": ""}) == "cannot move"
    assert event_text({"type": "roll", "dice": [2, 6]}) == "rolls 6-2"  # the higher die first, as callers see it
    # With the points, as the players read it ('(4 points)' with the cube at 2).
    gammon = {"type": "resign", "by": "white", "win": "gammon"}
    single = {"type": "resign", "by": "black", "win": "single"}
    assert event_text(gammon, 2) == "offers to resign, giving a gammon (4 points)"
    assert event_text(single) == "offers to resign, giving a single game (1 point)"
    assert event_text({"type": "reject_resign"}) == "refuses the resignation"  # as the players read it
    assert (
        event_text({"type": "win", "winner": "black", "points": 1, "win": "single", "how": "resign"})
        == "black wins 1 point (single, resign)"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["game", "999"],
        ["games", "--player", "nobody"],
        ["password", "nobody", "--yes"],
        ["rename", "nobody", "somebody"],
        ["rename", "nobody", "x", "--yes"],  # the player first: not 'that handle is too short'
        ["delete-player", "nobody"],
        ["delete-game", "999"],
    ],
)
def test_unknown_player_or_game_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], world: World, args: list[str]
) -> None:
    code, out, err = run(capsys, world, *args)
    assert code == 2
    assert out == ""  # not even the confirmation: the name is checked first
    assert len(err.splitlines()) == 1 and err.startswith("bgdoor sysop: there is no ")
    assert ("nobody" in err) or ("999" in err)


def test_options_after_the_action_and_a_bad_database(
    capsys: pytest.CaptureFixture[str], world: World, tmp_path: Path
) -> None:
    assert cli.main(["sysop", "players", "--db", world.url]) == 0
    assert "alice" in capsys.readouterr().out
    config = tmp_path / "door.cfg"
    config.write_text(f"[database]\nurl = {world.url}\n")
    assert cli.main(["sysop", "--config", str(config), "games", "--status", "open"]) == 0
    assert ids(capsys.readouterr().out) == [world.waiting]
    code = cli.main(["sysop", "--db", "nosuchdriver://x", "players"])
    err = capsys.readouterr().err
    assert code == 2 and len(unwrap(err).splitlines()) == 1 and "cannot open the database" in err


def test_players_names_a_member_bbs_callers_board_and_says_last_login(
    capsys: pytest.CaptureFixture[str], world: World
) -> None:
    """A member BBS's RLogin caller was listed as 'door', like a local door caller; and the
    column named 'Last seen' held the last login, not the last move."""
    with Service(world.url) as svc:
        svc.enter_from_bbs("DEMO", "frank")
    code, out, _ = run(capsys, world, "players")
    assert code == 0
    assert "Last login (UTC)" in out.splitlines()[0]
    table = {r[1]: r for r in rows(out)}
    assert table["frank"][-1] == "RLogin DEMO", table["frank"]
    assert table["bob"][-1] == "door"


@pytest.mark.parametrize(
    "args",
    [
        ["game", "99999999999999999999999"],
        ["delete-game", "99999999999999999999999"],
        ["games", "--stale", "nan"],
        ["games", "--stale", "inf"],
        ["games", "--stale", "1e6"],
        ["games", "--stale", "-1"],
        ["forfeit-stale", "--days", "nan"],
        ["forfeit-stale", "--days", "1e6"],
    ],
)
def test_a_number_argument_out_of_range_is_a_usage_error_not_a_traceback(
    capsys: pytest.CaptureFixture[str], world: World, args: list[str]
) -> None:
    """'game 99999999999999999999999' and '--stale nan' (or inf, 1e6) ended in a Python traceback
    with status 1; '--stale -1' was status 1 where '--days -1' was 2."""
    with pytest.raises(SystemExit) as caught:
        cli.main(["sysop", "--db", world.url, *args])
    err = capsys.readouterr().err
    assert caught.value.code == 2, err
    assert "Traceback" not in err and ("no game" in err or "number of days" in err), err


def test_a_game_s_event_table_fits_80_columns_with_long_handles(
    capsys: pytest.CaptureFixture[str], world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'bgdoor sysop game N' ran to 93 columns: a forfeit's row with 16-letter handles and the
    match's result in its words.  On a terminal the event wraps under its own column."""
    monkeypatch.setattr(cli, "_on_terminal", lambda out: True)
    with Service(world.url) as svc:
        long = svc.register("Sixteen_Letters1", "long-pw").id
        svc.register("Sixteen_Letters2", "long-pw")
        game = svc.begin_game(long, 25, Color.WHITE, "Sixteen_Letters2").id
        svc.roll(long, game, svc.game(game).version)
        svc.forfeit_stale(0)
        events = Sysop(svc).game(game).events
    code, out, _ = run(capsys, world, "game", str(game))
    assert code == 0
    assert max(map(len, out.splitlines())) <= 79, out
    table = out.split("\n\n", 1)[1]
    start = table.splitlines()[0].index("Event")
    # Every event's words are there, in order, in the Event column alone.
    told = " ".join(line[start:].strip() for line in table.splitlines()[2:])
    assert told == " ".join(e.text for e in events), told


def test_game_says_a_redouble_and_the_cube_it_offers(tmp_path: Path) -> None:
    # 3-1 opening (white starts), then rolls enough for the turns below.
    with Service(f"sqlite:///{tmp_path / 'r.db'}", dice=ScriptedDice([3, 1] + [4, 2] * 40)) as svc:
        white, black = svc.enter_from_door("alice").id, svc.enter_from_door("bob").id
        ids = {Color.WHITE: white, Color.BLACK: black}
        game = svc.begin_game(white, 5, Color.WHITE, opponent="bob").id
        view = svc.roll(white, game, svc.game_version(game))
        answers = iter([svc.take, svc.drop, svc.take])
        doubled = 0
        while doubled < 3:
            st = view.state
            who = ids[st.actor or Color.WHITE]
            if st.phase is Phase.MOVE:
                view = svc.submit_turn(who, game, view.version, str(st.plays()[0]))
            elif st.phase is Phase.ROLL and st.can_double():
                view = svc.double(who, game, view.version)
                view = next(answers)(ids[st.turn.other] if st.turn else black, game, view.version)
                doubled += 1
            else:
                view = svc.roll(who, game, view.version)
        record = Sysop(svc).game(game)
    cube = [e.text for e in record.events if e.type in ("double", "take", "drop")]
    # The callers' news says 'redoubles to 4'; 'doubles' alone had said neither.
    assert cube == ["doubles to 2", "takes", "redoubles to 4", "drops", "doubles to 2", "takes"], cube


def test_game_keeps_each_row_on_one_line_into_a_pipe(
    capsys: pytest.CaptureFixture[str], world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README promises one table row per line, so it greps and sorts: with two 16-letter
    handles 'white wins 3 points (backgammon, resign)' had gone on under itself even into a pipe.
    On a terminal it still wraps, within 79 columns."""
    from test_sysop_support import resign_at_once  # noqa: PLC0415

    with Service(world.url) as svc:
        long = svc.register("Sixteen_Letters1", "long-pw").id
        other = svc.register("Sixteen_Letters2", "long-pw").id
        game = svc.begin_game(long, 1, Color.WHITE, "Sixteen_Letters2").id
        resign_at_once(svc, game, {Color.WHITE: long, Color.BLACK: other}, Color.BLACK)
    out = run(capsys, world, "game", str(game))[1]
    table = out.split("\n\n", 1)[1].splitlines()
    assert all(re.match(r"\s*\d+  \d{4}-", line) for line in table[2:]), out  # each a row of its own
    assert any(line.endswith("white wins 1 point (single, resign)") for line in table), out
    monkeypatch.setattr(cli, "_on_terminal", lambda out: True)
    shown = run(capsys, world, "game", str(game))[1]
    assert max(map(len, shown.splitlines())) <= 79, shown
    assert any(line.strip() == "resign)" for line in shown.splitlines()), shown  # under itself


def test_sysop_game_says_an_offer_to_resign_that_ends_the_match(tmp_path) -> None:
    """`sysop game` wrote 'offers to resign, giving a single game (1 point)' where the players read
    '(1 point, the match)'."""
    with Service(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 4)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 1, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.resign(bob, v.id, v.version, Win.SINGLE)
        v = svc.answer_resign(alice, v.id, v.version, False)
        other = svc.begin_game(alice, 3, Color.WHITE, "bob")
        w = svc.roll(alice, other.id, other.version)
        svc.resign(bob, other.id, w.version, Win.SINGLE)
        texts = [e.text for e in Sysop(svc).game(v.id).events]
        assert "offers to resign, giving a single game (1 point, the match)" in texts, texts
        assert "refuses the resignation" in texts, texts
        later = [e.text for e in Sysop(svc).game(other.id).events]
        assert "offers to resign, giving a single game (1 point)" in later, later
