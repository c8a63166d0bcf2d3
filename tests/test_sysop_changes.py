"""bgdoor sysop password / rename / delete-player / delete-game / forfeit-stale, in-process.

Each asks first: 'n' (or no answer at all) leaves the database exactly as it
was, 'y' or --yes makes the change, and the output says what changed.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session
from test_sysop_support import World, check_record, exported, fresh_world, unwrap

from bgdoor import cli
from bgdoor.rules.game import Color
from bgdoor.service import AccountClosed, LoginFailed, NotFound, Preferences, Service
from bgdoor.service.sysop import DELETED_NAME, PlayerInGames, Sysop
from bgdoor.store.models import Game, GameEvent, Player, RatingEntry
from bgdoor.ui.news import narrate, notice_text


@pytest.fixture
def world(tmp_path: Path) -> World:
    return fresh_world(tmp_path)


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World, *args: str, answer: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answer))
    code = cli.main(["sysop", "--db", world.url, *args])
    out, err = capsys.readouterr()
    return code, out, err


def dump(world: World) -> list[tuple]:
    """Every row of every table: what 'nothing changed' means."""
    with Service(world.url) as svc, svc.engine.connect() as conn:
        return [
            (table, *row)
            for table in ("players", "games", "events", "rating_history")
            for row in conn.execute(text(f"SELECT * FROM {table} ORDER BY id"))
        ]


def declined(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World, *args: str) -> str:
    """Run a change, answer 'n', and check that nothing changed; returns what it said it would do."""
    before = dump(world)
    for answer in ("n\n", "", "yes please\n"):  # no, end of input, and anything but y/yes
        code, out, err = run(capsys, monkeypatch, world, *args, answer=answer)
        assert code == 1 and err == ""
        assert (
            out.startswith("This will change:\n")
            and "Go ahead? [y/N]" in out
            and out.endswith("Nothing was changed.\n")
        )
        assert dump(world) == before
    return out


# ------------------------------------------------------------------ password


def test_password_given(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World) -> None:
    preview = declined(capsys, monkeypatch, world, "password", "ALICE", "--password", "new-pass")
    assert "password of alice (player 1) will be replaced" in preview
    code, out, err = run(capsys, monkeypatch, world, "password", "alice", "--password", "new-pass", answer="y\n")
    assert code == 0 and err == ""
    assert out.splitlines()[-1] == "password of alice (player 1) replaced"
    with Service(world.url) as svc:
        assert svc.login("alice", "new-pass").handle == "alice"
        with pytest.raises(LoginFailed):
            svc.login("alice", "alice-pw")


def test_password_generated_is_shown_once_and_works(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    code, out, _ = run(capsys, monkeypatch, world, "password", "bob", "--yes")
    assert code == 0
    lines = unwrap(out).splitlines()
    assert lines[0] == "password of bob (player 2) set"
    assert "may also log in by telnet" in lines[1]  # bob was a door player
    assert lines[2].startswith("the new password is: ")
    password = lines[2].split(": ", 1)[1]
    assert len(password) == 12 and password.isalnum()
    with Service(world.url) as svc:
        assert svc.login("Bob", password).handle == "bob"
        # The door caller bob is still bob: the password is one more way in, not a takeover.
        assert svc.enter_from_door("bob").handle == "bob"
    # Another run makes another password.
    again = run(capsys, monkeypatch, world, "password", "bob", "-y")[1].splitlines()[-1]
    assert again != lines[2]
    assert "played through the BBS door only" in lines[1]


def test_password_for_a_member_bbs_caller_says_where_they_came_from(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    """A member BBS's RLogin caller was said to have 'played through the BBS door only'."""
    with Service(world.url) as svc:
        svc.enter_from_bbs("DEMO", "zed")
    code, out, _ = run(capsys, monkeypatch, world, "password", "zed", "--yes")
    assert code == 0
    assert "zed played from member BBS DEMO only; from now on they may also log in by telnet" in unwrap(out), out


def test_password_refusals(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World) -> None:
    before = dump(world)
    code, out, err = run(capsys, monkeypatch, world, "password", "alice", "--password", "abc", "--yes")
    assert code == 1 and out == "" and err == "bgdoor sysop: a password has at least 4 characters\n"
    code, out, err = run(capsys, monkeypatch, world, "password", "computer", "--yes")
    assert code == 1 and "computer player" in err and len(err.splitlines()) == 1
    assert dump(world) == before


# -------------------------------------------------------------------- rename


def test_rename(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World) -> None:
    preview = declined(capsys, monkeypatch, world, "rename", "alice", "Alicia")
    assert "player alice (player 1) will be renamed Alicia" in preview
    code, out, err = run(capsys, monkeypatch, world, "rename", "alice", "Alicia", answer="y\n")
    assert code == 0 and err == ""
    assert out.endswith("Go ahead? [y/N] \nplayer alice (player 1) renamed Alicia\n")
    with Service(world.url) as svc:
        assert svc.login("alicia", "alice-pw").handle == "Alicia"
        assert svc.game(world.match).white == "Alicia"
        assert not svc.handle_exists("alice")
        svc.enter_from_door("alice")  # the old handle is free
    assert "Alicia" in run(capsys, monkeypatch, world, "games", "--status", "finished")[1]


def test_rename_a_door_player_warns_about_the_alias(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    code, out, _ = run(capsys, monkeypatch, world, "rename", "dave", "David", "--yes")
    assert code == 0
    assert unwrap(out).splitlines() == [
        "player dave (player 4) renamed David",
        "David plays through the BBS door as 'dave' (in any case), and keeps doing so under the new handle",
    ]


def test_rename_only_changing_case_is_allowed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    assert run(capsys, monkeypatch, world, "rename", "alice", "ALICE", "-y")[0] == 0
    with Service(world.url) as svc:
        assert svc.player_page("alice").player.handle == "ALICE"


@pytest.mark.parametrize(
    ("new", "why"),
    [
        ("BOB", "the handle bob is taken; choose another"),  # taken, without regard to case
        ("B0B", "B0B looks like the existing player bob; choose another handle"),
        ("b\u043eb", "b\u043eb looks like the existing player bob; choose another handle"),  # Cyrillic o
        ("x", "that handle is too short: a handle is 2 to 16 characters long"),
        ("x" * 17, "that handle is too long: a handle is 2 to 16 characters long"),
        (" ann", "a handle cannot start or end with a space"),
        ("an\x1bn", "a handle cannot contain control or other unprintable characters"),
        ("snow\u2603", "a handle must be drawable on every terminal (CP437), and U+2603 SNOWMAN is not"),
        ("(Deleted)", "(deleted) is the name deleted players are kept under"),
        ("alice", "alice is already called that"),
    ],
)
def test_rename_refusals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World, new: str, why: str
) -> None:
    before = dump(world)
    code, out, err = run(capsys, monkeypatch, world, "rename", "alice", new, "--yes")
    assert (code, out, unwrap(err)) == (1, "", f"bgdoor sysop: {why}\n")
    assert dump(world) == before


def test_a_bot_is_not_renamed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    code, _, err = run(capsys, monkeypatch, world, "rename", "Computer", "Robot", "--yes")
    assert code == 1 and "computer player" in err


# ------------------------------------------------------------- delete-player


def test_delete_a_player_without_games_removes_the_row(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    declined(capsys, monkeypatch, world, "delete-player", "erin")
    code, out, _ = run(capsys, monkeypatch, world, "delete-player", "erin", answer="Y\n")
    assert code == 0
    assert out.splitlines()[-1] == "player erin (player 5) deleted; no games of theirs are on record"
    with Service(world.url) as svc, Session(svc.engine) as s:
        assert s.scalar(select(func.count()).select_from(Player).where(Player.id == 5)) == 0
        assert not svc.handle_exists("erin")


def test_a_player_in_unfinished_games_needs_force(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    before = dump(world)
    monkeypatch.setattr(cli, "_on_terminal", lambda out: True)  # broken within 80 columns on a terminal
    code, out, err = run(capsys, monkeypatch, world, "delete-player", "dave", "--yes")
    assert code == 1 and out == ""
    assert all(len(line) <= 80 for line in err.splitlines()), err
    assert " ".join(err.split()).startswith(
        f"bgdoor sysop: dave sits in unfinished games {world.stale}, {world.waiting}, {world.recent}; "
        "nothing was changed"
    )
    assert "--force" in err
    assert dump(world) == before


def test_delete_player_with_force(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    preview = declined(capsys, monkeypatch, world, "delete-player", "dave", "--force")
    code, out, err = run(capsys, monkeypatch, world, "delete-player", "dave", "--force", answer="y\n")
    assert code == 0 and err == ""
    done = unwrap(out).split("Go ahead? [y/N] \n", 1)[1].splitlines()
    assert done == [
        f"game {world.stale} forfeited by dave: carol wins the match 3-0 (rated)",
        f"game {world.waiting} (5-point match waiting for an opponent) deleted",
        f"game {world.recent} forfeited by dave: bob wins the match 3-0 (rated)",
        "player dave (player 4) deleted: the handle is free again; "
        f"3 finished games keep their record under the name {DELETED_NAME}",
    ]
    # The preview said the same, in the future tense.
    assert [line.strip().replace("will be ", "") for line in unwrap(preview).splitlines()[1:-2]] == done

    with Service(world.url) as svc:
        for game_id, winner in ((world.stale, "carol"), (world.recent, "bob")):
            view = svc.game(game_id)
            assert view.status == "abandoned" and view.state.over
            assert view.name(view.state.winner or Color.WHITE) == winner
            assert DELETED_NAME in (view.white, view.black)
            check_record(svc, game_id)
        with pytest.raises(NotFound):
            svc.game(world.waiting)
        assert svc.game(world.quick[0]).black == DELETED_NAME  # the finished match keeps its record
        assert all(row.handle != DELETED_NAME for row in svc.rankings(limit=100, include_unrated=False))
        assert not svc.handle_exists("dave") and not svc.handle_exists(DELETED_NAME)
        assert svc.enter_from_door("dave").id != 4  # a new dave is a new player
        with Session(svc.engine) as s:
            tomb = s.get(Player, 4)
            assert (
                tomb is not None and tomb.handle == DELETED_NAME and tomb.password_hash is None and tomb.experience == 0
            )
            # The opponents' rating history still names their opponent.
            assert s.scalar(select(func.count()).select_from(RatingEntry).where(RatingEntry.opponent_id == 4)) == 3
    listed = run(capsys, monkeypatch, world, "players")[1]
    assert DELETED_NAME not in listed and "dave" in listed  # the new dave


def test_a_deleted_player_still_on_can_begin_or_join_nothing(world: World) -> None:
    """A session of dave's still on after his deletion went on as "(deleted)": it began a game
    that alice joined and nobody could ever finish.  Whatever he does now is refused."""
    with Service(world.url) as svc:
        alice = svc.login("alice", "alice-pw").id
        Sysop(svc).delete_player("dave", force=True)
        for act in (
            lambda: svc.player(4),
            lambda: svc.begin_game(4, 3),
            lambda: svc.begin_game(4, 3, Color.WHITE, "alice"),
            lambda: svc.set_preferences(4, Preferences()),
        ):
            with pytest.raises(AccountClosed, match="the sysop has closed this account"):
                act()
        opened = svc.begin_game(alice, 3)
        with pytest.raises(AccountClosed):
            svc.join_game(4, opened.id)
        assert svc.game(opened.id).status == "open"
        with pytest.raises(NotFound):
            svc.player(999)  # never there: not found, as before


def test_a_rename_not_yet_told_goes_when_the_player_is_deleted(world: World) -> None:
    """carol renamed, then deleted with --force: dave's next menu said 'The sysop renamed carol,
    your opponent in game #4, to Caroline.' of a player gone and a game over."""
    with Service(world.url) as svc:
        sysop = Sysop(svc)
        dave = next(p.id for p in sysop.players() if p.handle == "dave")
        sysop.rename("carol", "Caroline")
        assert [n.kind for n in svc.notices(dave)] == ["opponent_renamed"]
        sysop.delete_player("Caroline", force=True)
        assert [n.kind for n in svc.notices(dave)] == []
        assert svc.game(world.stale).state.over  # the forfeit tells dave what became of the game


def test_two_deleted_players_can_share_the_name(world: World) -> None:
    with Service(world.url) as svc:
        sysop = Sysop(svc)
        sysop.delete_player("bob", force=True)
        sysop.delete_player("alice", force=False)
        view = svc.game(world.match)
        assert view.white == view.black == DELETED_NAME
        assert "(deleted) (2)" in exported(sysop, world.match)  # the .mat importer tells them apart


def test_the_refusal_names_the_games(world: World) -> None:
    with Service(world.url) as svc, pytest.raises(PlayerInGames) as caught:
        Sysop(svc).delete_player("carol")
    assert caught.value.game_ids == [world.stale]


# --------------------------------------------------------------- delete-game


def test_delete_a_finished_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    with Service(world.url) as svc:
        before = {p.handle: p.rating for p in svc.rankings(limit=100)}
    declined(capsys, monkeypatch, world, "delete-game", str(world.match))
    code, out, _ = run(capsys, monkeypatch, world, "delete-game", str(world.match), answer="y\n")
    assert code == 0
    lines = unwrap(out).split("Go ahead? [y/N] \n", 1)[1].splitlines()
    assert lines[0].startswith(f"game {world.match} (finished 3-point match, alice v bob) deleted with its ")
    assert (
        lines[1]
        == "its 2 rating-history entries deleted; "
        "the ratings and win/loss counts the match gave alice and bob stay as they are"
    )
    with Service(world.url) as svc, Session(svc.engine) as s:
        assert s.get(Game, world.match) is None
        assert s.scalar(select(func.count()).select_from(GameEvent).where(GameEvent.game_id == world.match)) == 0
        assert s.scalar(select(func.count()).select_from(RatingEntry).where(RatingEntry.game_id == world.match)) == 0
        assert {p.handle: p.rating for p in svc.rankings(limit=100)} == before


def test_delete_an_open_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World) -> None:
    code, out, _ = run(capsys, monkeypatch, world, "delete-game", str(world.waiting), "--yes")
    assert code == 0
    assert unwrap(out) == f"game {world.waiting} (open 5-point match, (open seat) v dave) deleted; " \
        "no events of it are on record\n"
    listed = run(capsys, monkeypatch, world, "games")[1].splitlines()[2:-1]  # past the header, before the count
    assert sorted(int(line.split()[0]) for line in listed) == sorted(
        {world.match, *world.quick, world.stale, world.recent}
    )


# ------------------------------------------------------------- forfeit-stale


def test_forfeit_stale(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World) -> None:
    before = dump(world)
    code, out, _ = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "10", answer="n\n")
    assert code == 1 and dump(world) == before
    assert out.startswith("This game has waited 10 days or more for the player to act:\n")
    assert f"\n {world.stale}  active" in out and "Forfeit it? The player to act loses the match. [y/N]" in out
    assert out.endswith("Nothing was changed.\n")

    code, out, _ = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "10", "--yes")
    assert code == 0
    with Service(world.url) as svc:
        view = svc.game(world.stale)
        loser = view.name(view.state.winner.other) if view.state.winner else "?"
        winner = view.name(view.state.winner) if view.state.winner else "?"
        assert view.status == "abandoned"
        check_record(svc, world.stale)
        assert svc.game(world.recent).status == "active"  # an hour is not stale
    assert unwrap(out) == (f"game {world.stale} forfeited by {loser} (no move for 10 days): {winner} wins the "
                           "match 3-0 (rated)\n")

    code, out, _ = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "10", "--yes")
    assert (code, out) == (0, "No game has waited 10 days for a move; nothing to forfeit.\n")


def test_forfeit_stale_takes_its_days_from_the_config(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World, tmp_path: Path
) -> None:
    config = tmp_path / "door.cfg"
    config.write_text("[game]\nforfeit_days = 31\n")
    code, out, _ = run(capsys, monkeypatch, world, "--config", str(config), "forfeit-stale", "--yes")
    assert (code, out) == (0, "No game has waited 31 days for a move; nothing to forfeit.\n")
    config.write_text("[game]\nforfeit_days = 29\n")
    code, out, _ = run(capsys, monkeypatch, world, "--config", str(config), "forfeit-stale", "--yes")
    assert code == 0 and out.startswith(f"game {world.stale} forfeited by ")
    config.write_text("[game]\nforfeit_days = 0\n")
    code, out, err = run(capsys, monkeypatch, world, "--config", str(config), "forfeit-stale", "--yes")
    assert code == 2 and out == "" and "--days" in err


def test_forfeit_stale_days_zero_forfeits_every_waiting_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, world: World
) -> None:
    code, out, err = run(capsys, monkeypatch, world, "forfeit-stale", "--days", "0", "--yes")
    assert code == 0 and err == ""
    # An hour without a move is 0 days or more.
    assert f"game {world.stale} forfeited" in out and f"game {world.recent} forfeited" in out
    # Told as the sysop's doing: the player of a game moved in an hour ago had read that they
    # took too long to move.
    with Service(world.url) as svc:
        dave = svc.player_page("dave").player.id
        told = [n.text for n in narrate(svc.game_log(world.recent, dave), 0, dave)]
    assert "You forfeit the match: the sysop ended it." in told, told
    assert not any("too long" in t for t in told), told
    code, out, _ = run(capsys, monkeypatch, world, "game", str(world.recent))
    assert "forfeits the match (ended by the sysop)" in " ".join(out.split()), out
    with pytest.raises(SystemExit) as caught:
        run(capsys, monkeypatch, world, "forfeit-stale", "--days", "-1", "--yes")
    out, err = capsys.readouterr()
    assert caught.value.code == 2 and out == "" and "--days: a number of days from 0" in err, err
    assert "door.cfg" not in err


# ---------------------------------------------------------------- dry runs


def test_a_dry_run_changes_nothing_and_says_what_the_change_will(world: World) -> None:
    before = dump(world)
    with Service(world.url) as svc:
        sysop = Sysop(svc)
        previews = [
            sysop.delete_player("carol", force=True, dry_run=True),
            sysop.delete_game(world.match, dry_run=True),
            sysop.rename("bob", "Robert", dry_run=True),
            sysop.set_password("carol", "pass-word", dry_run=True),
        ]
    assert dump(world) == before
    assert all("will be " in p for p in previews)
    assert "the new password" not in previews[3]


def test_the_sysop_names_a_player_as_an_ascii_terminal_shows_them(world: World) -> None:
    """'games --player Jose_Muller' and 'password Jose_Muller' said there was no such player: a
    sysop on an ASCII terminal had no way to type José_Müller."""
    with Service(world.url) as svc:
        jose = svc.enter_from_door("José_Müller").id
        sysop = Sysop(svc)
        assert "José_Müller" in sysop.set_password("Jose_Muller", "new-pass-1")
        assert svc.login("José_Müller", "new-pass-1").id == jose
        assert sysop.games(player="jose_muller") == []
        with pytest.raises(NotFound):
            sysop.set_password("Jose_Mueller", "new-pass-1")


def test_a_renamed_door_player_with_a_password_is_told_the_telnet_login(world: World) -> None:
    """A door player given a password, then renamed, was told only 'The sysop changed your handle
    from José_Müller to Pepe.': over telnet they log in as Pepe now, and nothing said so."""
    with Service(world.url) as svc:
        jose = svc.enter_from_door("José_Müller").id
        sysop = Sysop(svc)
        sysop.set_password("José_Müller", "new-pass-1")
        sysop.rename("José_Müller", "Pepe")
        told = [notice_text(n, svc.player(jose)) for n in svc.notices(jose)]
        assert told == ["The sysop changed your handle from José_Müller to Pepe. "
                        "Over telnet, log in as Pepe from now on."], told
        assert svc.login("Pepe", "new-pass-1").id == jose
