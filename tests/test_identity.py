"""One person, one player: door and BBS identities never merge, handles never impersonate.

The identity is kept exactly (a telnet handle as registered, a drop file's alias, a remote BBS's
tag and alias); the handle shown is derived from it and unique by look; a migration carries
the players from before over with their games.
"""

from __future__ import annotations

import signal
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from doorharness import PtyDoor
from harness import call, login, running_server
from sqlalchemy import select
from sqlalchemy.orm import Session

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import BadHandle, HandleTaken, NotFound, Service
from bgdoor.service.sysop import Sysop
from bgdoor.store import db, handles
from bgdoor.store.models import Player
from bgdoor.term.wrap import wrap

pytestmark = pytest.mark.timeout(120)

LOOKALIKES = {
    "\u0430lice": "Cyrillic a",
    "alic\u0435": "Cyrillic e",
    "al\u0131ce": "dotless i",
    "\uff41lice": "fullwidth a",
    "alice\u0301": "combining acute accent",
}


@pytest.fixture
def svc(db_url: str) -> Iterator[Service]:
    with Service(db_url) as service:
        yield service


# ------------------------------------------------------------------ skeletons


def test_skeletons_of_lookalikes_agree() -> None:
    for name in [*LOOKALIKES, "Alice", "alicé", "a1ice", "aIice", "\u03b1lice"]:
        assert handles.skeleton(name) == handles.skeleton("alice"), name
    for other in ["alicia", "bob", "alice2", "al ice"]:
        assert handles.skeleton(other) != handles.skeleton("alice"), other


def test_every_lookalike_is_refused_with_its_reason(svc: Service) -> None:
    svc.register("alice", "alice-pw")
    for name in LOOKALIKES:
        with pytest.raises(HandleTaken) as err:
            svc.register(name, "other-pw")
        assert str(err.value) == f"{handles.normal(name)} looks like the existing player alice; choose another handle"
        # The screen's reason is the same, and says what to do in its own words.
        assert f"{svc.new_handle_problem(name)}; choose another handle" == str(err.value)
    with Session(svc.engine) as s:
        assert s.scalars(select(Player.handle)).all() == ["alice"]


def test_each_refusal_says_why(svc: Service) -> None:
    svc.register("bob", "bob-pass")
    reasons = {
        "b": "too short",
        "b" * 17: "too long",
        "bo\x07b": "control or other unprintable",
        "snow\u2603man": "drawable on every terminal (CP437), and U+2603 SNOWMAN",
        "BOB": "the handle bob is taken",
        "B0B": "looks like the existing player bob",
        "(open seat)": "a name the door itself shows",
    }
    for name, why in reasons.items():
        with pytest.raises((BadHandle, HandleTaken)) as err:
            svc.register(name, "some-pass")
        assert why in str(err.value), (name, str(err.value))
    # Drawable in CP437 and unlike anyone: fine, accents and all (as NFC, however typed).
    assert svc.register("Zoe\u0308", "zoe-pass").handle == "Zo\u00eb"


# ------------------------------------------------------------------ door and BBS identities


def test_an_alias_with_an_at_sign_is_told_the_real_reason(svc: Service) -> None:
    """'e@x' became 'e_x' with 'Your BBS name has characters not every terminal can show': every
    terminal shows '@'; it is kept here for marking another board's players."""
    e = svc.enter_from_door("e@x")
    assert e.handle == "e_x"
    assert e.handle_note == "Your BBS name has an @ (which marks another board's players), so here you are e_x."
    both = svc.enter_from_door("Zö☃@y")  # a snowman CP437 lacks, and an @
    assert "has an @" in both.handle_note and "not every terminal can show" in both.handle_note
    # And where the name it makes is taken too: both reasons ('bob@DP' had been told only that
    # another player is called bob_DP, never why the name was that).
    svc.enter_from_bbs("SYN", "bob@DP")
    second = svc.enter_from_bbs("DP", "bob@DP")
    assert second.handle == "bob_DP~2"
    assert second.handle_note == (
        "Your BBS name has an @ (which marks another board's players), so it becomes bob_DP here; but "
        "another player of board SYN is called bob_DP, so you are bob_DP~2: your own player, not theirs.")


def test_a_short_alias_or_one_with_spaces_in_a_row_is_told_why(svc: Service) -> None:
    """'y' became 'y~2' with 'Your BBS name , so here you are y~2.' (no reason); 'a  b' was told
    it 'has characters not every terminal can show', and its new handle was split between lines."""
    y = svc.enter_from_door("y")
    assert y.handle == "y~2"
    assert y.handle_note == "Your BBS name is shorter than 2 characters, so here you are y~2."
    ab = svc.enter_from_door("ed  smith")
    assert ab.handle == "ed smith"
    assert ab.handle_note == 'Your BBS name has spaces in a row (kept here as one), so here you are "ed smith".'
    cut = wrap(ab.handle_note, 75)  # where "ed" would end the first line
    assert any('"ed smith".' in line for line in cut), cut


def test_aliases_differing_after_16_characters_are_two_players(svc: Service) -> None:
    a = svc.enter_from_door("LongAliasName123A")
    b = svc.enter_from_door("LongAliasName123B")
    assert a.id != b.id and a.handle != b.handle
    assert a.handle == "LongAliasName123" and b.handle == "LongAliasName1~2"
    assert a.first_visit and "longer than 16" in a.handle_note
    assert b.first_visit and ("longer than 16 characters, so it becomes LongAliasName123 here; but another player here "
                             "is called LongAliasName123") in b.handle_note
    # Not yet at the menu (hung up on the note): told again, in the same words.
    again = svc.enter_from_door("LongAliasName123B")
    assert again.id == b.id and not again.first_visit and again.handle_note == b.handle_note
    svc.clear_notices(b.id, svc.notices(b.id)[-1].id)  # the menu, reached
    assert svc.enter_from_door("LongAliasName123B").handle_note == ""
    assert svc.enter_from_door("LongAliasName123A").id == a.id


def test_aliases_differing_by_control_bytes_are_different_players(svc: Service) -> None:
    aliases = ["PWN", "PWN\x07\x07", "PWN\x08\x08\x08", "PWN\x7f", "P\x1b[2JWN"]
    players = [svc.enter_from_door(a) for a in aliases]
    assert len({p.id for p in players}) == len(aliases)
    shown = [p.handle for p in players]
    assert len(set(shown)) == len(shown) and shown[0] == "PWN"
    assert all(handles.problem(h) is None for h in shown)
    assert [svc.enter_from_door(a).id for a in aliases] == [p.id for p in players]
    with pytest.raises(BadHandle, match="no character a terminal can draw"):
        svc.enter_from_door("\x07\x07")


def test_a_member_alias_with_a_letter_beyond_ascii_is_found_by_alias_and_tag(svc: Service) -> None:
    """'Émile_Zola_Long_Alias_Name_Here@BETA' found nobody, typed any way: SQLite's lower() folds
    A-Z alone, and the alias was compared lowered on one side only."""
    alice = svc.register("alice", "alice-pw").id
    emile = svc.enter_from_bbs("BETA", "Émile_Zola_Long_Alias_Name_Here")
    for typed in ("Émile_Zola_Long_Alias_Name_Here@BETA", "émile_zola_long_alias_name_here@beta",
                  "ÉMILE_ZOLA_LONG_ALIAS_NAME_HERE@Beta"):
        v = svc.begin_game(alice, 3, Color.WHITE, typed)
        assert emile.id in (v.white_id, v.black_id), typed
    with pytest.raises(NotFound):
        svc.begin_game(alice, 3, Color.WHITE, "Émile_Zola_Long_Alias_Name_Her@BETA")


def test_a_name_clash_with_spaces_quotes_both_names(svc: Service) -> None:
    """'Another player of board ALPHA is called Maximilian Alexa, so you are Maximilian Ale~2':
    unquoted, the names ran into the sentence (the other first-visit notices quote a handle)."""
    svc.enter_from_bbs("ALPHA", "Maximilian Alexander")
    second = svc.enter_from_bbs("BETA", "Maximilian Alexander")
    assert ('another player of board ALPHA is called "Maximilian Alexa", so you are "Maximilian Ale~2": '
            "your own player, not theirs.") in second.handle_note, second.handle_note


def test_one_alias_on_two_bbses_is_two_players(svc: Service) -> None:
    here = svc.enter_from_door("Gammon Joe")
    one = svc.enter_from_bbs("ALPHA", "Gammon Joe")
    two = svc.enter_from_bbs("BETA", "Gammon Joe")
    assert len({here.id, one.id, two.id}) == 3
    assert (one.origin, one.bbs_tag, one.login_name) == ("bbs", "ALPHA", "Gammon Joe")
    assert len({here.handle, one.handle, two.handle}) == 3
    assert svc.enter_from_bbs("ALPHA", "Gammon Joe").id == one.id
    # A board's alias in another case is that board's player (BBSes treat aliases so).
    assert svc.enter_from_bbs("ALPHA", "gammon joe").id == one.id
    for tag in ["", " A", "x" * 33, "A\x1b"]:
        with pytest.raises(BadHandle, match="BBS tag"):
            svc.enter_from_bbs(tag, "Joe")


def test_a_match_s_ratings_name_its_players_as_the_board_does(svc: Service) -> None:
    """'Ratings: carol 1510.0 (+10.0), carol~2 1490.0 (-10.0).' beside a board naming them
    carol@... and carol~2@DP: the bare handle of the second carol misled exactly there."""
    one = svc.enter_from_bbs("DEMO", "carol")
    two = svc.enter_from_bbs("DP", "carol")
    v = svc.begin_game(one.id, 1, Color.WHITE, two.handle)
    names = {v.white, v.black}
    assert "carol~2@DP" in names, names
    v = svc.roll(one.id, v.id, v.version)
    v = svc.resign(one.id, v.id, v.version, Win.SINGLE)
    v = svc.answer_resign(two.id, v.id, v.version, True)
    ratings = svc.game_log(v.id, one.id).ratings
    assert {r.handle for r in ratings} == names, ratings


def test_a_board_s_player_known_by_their_alias_is_tagged_where_another_has_that_alias(svc: Service) -> None:
    """SYN's alice is 'alice' here, DP's alice 'alice~2': the bare 'alice' had passed for DP's
    alice's own alias on her board, and B)egin's 'against alice' had not said which."""
    syn = svc.enter_from_bbs("SYN", "alice")
    zed = svc.enter_from_bbs("SYN", "zed")
    before = svc.begin_game(zed.id, 1, Color.WHITE, "alice")
    assert {before.white, before.black} == {"zed", "alice"}  # nobody else is alice yet
    dp = svc.enter_from_bbs("DP", "ALICE")
    assert dp.handle == "ALICE~2" and dp.id != syn.id
    v = svc.begin_game(dp.id, 1, Color.WHITE, "alice")
    assert {v.white, v.black} == {"ALICE~2@DP", "alice@SYN"}
    assert {svc.game(before.id).white, svc.game(before.id).black} == {"zed", "alice@SYN"}  # not remembered bare
    ranks = {r.handle for r in svc.rankings(include_unrated=True)}
    assert {"alice@SYN", "ALICE~2@DP", "zed"} <= ranks, ranks


def test_a_door_caller_never_takes_over_a_telnet_player_or_a_lookalike(svc: Service) -> None:
    alice = svc.register("alice", "alice-pw")
    for alias in ["alice", "\u0430lice"]:
        door = svc.enter_from_door(alias)
        assert door.id != alice.id and not door.has_password
        assert handles.skeleton(door.handle) != handles.skeleton("alice")
        note = door.handle_note  # with the Cyrillic a: why first
        assert "nother player here is called alice" in note and "so you are" in note
    # The BBS's ALICE is its alice (BBSes treat names without regard to case), still not the telnet one.
    again = svc.enter_from_door("ALICE")
    assert again.id == svc.enter_from_door("alice").id != alice.id and not again.first_visit


def test_rename_follows_the_same_rule_and_keeps_the_door_identity(svc: Service) -> None:
    svc.register("alice", "alice-pw")
    carol = svc.enter_from_door("carol")
    sysop = Sysop(svc)
    with pytest.raises(HandleTaken, match="looks like the existing player alice"):
        sysop.rename("carol", "\u0430lice")
    sysop.rename("carol", "Caroline")
    again = svc.enter_from_door("carol")
    assert again.id == carol.id and again.handle == "Caroline"


# ------------------------------------------------------------------ the migration


def _before_identities() -> str:
    """The schema revision just before identities were kept apart from handles."""
    script = ScriptDirectory.from_config(db.alembic_config())
    ours = next(r for r in script.walk_revisions() if (r.doc or "").startswith("Identity apart from display"))
    assert isinstance(ours.down_revision, str)
    return ours.down_revision


def _old_database(path: Path) -> tuple[str, int]:
    """A database as the version before identities left it: players as the old door made them
    (a door player in a match, a telnet player, a computer player, one whose alias the door cut,
    a look-alike pair and a tombstone), made at today's schema and taken back to that revision.
    Returns the url and the id of the door player's match."""
    url = f"sqlite:///{path}"
    with Service(url, dice=ScriptedDice([3, 1])) as svc:
        bob = svc.enter_from_door("Bob")
        alice = svc.register("alice", "alice-pw")
        svc.ensure_bot_player("GNU Easy")
        svc.enter_from_door("LongAliasName123")  # what the old door made of LongAliasName123A
        view = svc.begin_game(alice.id, 3, Color.BLACK, opponent="Bob")
        view = svc.roll(alice.id, view.id, view.version)
        assert bob.id == 1 and view.state.turn is Color.WHITE
        game_id = view.id
    engine = db.make_engine(url)
    with engine.connect() as conn, conn.begin():
        command.downgrade(db.alembic_config(conn), _before_identities())
    engine.dispose()
    con = sqlite3.connect(path)
    cols = (
        "handle, handle_key, password_hash, is_bot, rating, experience, wins, losses, gammons, backgammons, "
        "sound, theme, orientation, created"
    )
    now = datetime(2026, 1, 2, tzinfo=UTC).replace(tzinfo=None).isoformat(" ")
    for handle, key in (("\u0430lice", "\u0430lice"), ("(deleted)", "\x01deleted:6")):
        con.execute(f"INSERT INTO players ({cols}) VALUES (?, ?, NULL, 0, 1500, 0, 0, 0, 0, 0, 1, 'classic', 'own', ?)",
                    (handle, key, now))  # fmt: skip
    con.commit()
    con.close()
    return url, game_id


def test_migration_carries_players_over_and_a_door_player_keeps_their_games(tmp_path: Path) -> None:
    url, game_id = _old_database(tmp_path / "old.db")
    with Service(url) as svc:  # upgrades
        with Session(svc.engine) as s:
            got = {p.id: (p.origin, p.bbs_tag, p.login_name, p.handle) for p in s.scalars(select(Player))}
        assert got[1] == ("door", "", "Bob", "Bob")
        assert got[2] == ("telnet", "", "alice", "alice")
        assert got[3] == ("telnet", "", "GNU Easy", "GNU Easy")
        assert got[5][3] == "\u0430lice"  # unchanged, though it looks like alice
        # Bob comes back through the door: the same player, his match waiting for his move.
        bob = svc.enter_from_door("Bob")
        assert bob.id == 1 and bob.handle == "Bob" and bob.handle_note == ""
        assert [g.id for g in svc.my_turn_games(1)] == [game_id]
        view = svc.game(game_id, 1)
        assert view.white == "Bob" and view.black == "alice" and view.my_turn and view.state.dice == (3, 1)
        # The caller whose alias the old door cut gets their player back, and is told; the
        # next caller whose alias cuts the same way is someone else.
        cut = svc.enter_from_door("LongAliasName123A")
        assert cut.id == 4 and cut.handle == "LongAliasName123" and "kept" in cut.handle_note
        other = svc.enter_from_door("LongAliasName123B")
        assert other.id not in (1, 2, 3, 4, 5, 6) and other.handle == "LongAliasName1~2"
        assert svc.enter_from_door("LongAliasName123A").id == 4
        # Nobody new can look like either alice.
        with pytest.raises(HandleTaken):
            svc.register("al\u0131ce", "whatever")


def test_a_legacy_player_the_exact_alias_entered_is_not_taken_over(tmp_path: Path) -> None:
    url, _ = _old_database(tmp_path / "old.db")
    with Service(url) as svc:
        assert svc.enter_from_door("LongAliasName123").id == 4  # the very alias: theirs
        assert svc.enter_from_door("LongAliasName123A").id != 4  # no longer up for claiming


# ------------------------------------------------------------------ over telnet and the door


@pytest.mark.parametrize("name", list(LOOKALIKES), ids=list(LOOKALIKES.values()))
async def test_registration_over_telnet_refuses_a_lookalike_with_the_reason(tmp_path: Path, name: str) -> None:
    db_url = f"sqlite:///{tmp_path}/bg.db"
    with Service(db_url) as svc:
        svc.register("alice", "alice-pw")
    async with running_server(db_url) as server:
        caller = await call(server.port)
        try:
            await caller.wait_for("Handle:")
            caller.send(name.encode("utf-8") + b"\r")
            text = await caller.wait_until(
                lambda t: "looks like the existing player alice. Try another." in t,
                "the refusal whole",
            )
            assert "Create it?" not in text
            await caller.wait_for("Handle:")
        finally:
            caller.close()
    with Service(db_url) as svc:
        assert not svc.handle_exists(name)


async def test_registration_over_telnet_still_works_for_a_new_name(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path}/bg.db"
    async with running_server(db_url) as server:
        caller = await call(server.port)
        try:
            await login(caller, "Zo\u00eb".encode().decode("latin-1"), "zoe-pass", new=True)
            assert "Welcome, Zo\u00eb" in caller.text
        finally:
            caller.close()


def _door32(path: Path, alias: bytes) -> Path:
    lines = [b"2", b"-1", b"38400", b"Mystic", b"7", b"Real Name", alias, b"20", b"60", b"1", b"1"]
    path.write_bytes(b"\r\n".join(lines) + b"\r\n")
    return path


def test_two_drop_files_differing_after_16_characters_make_two_players(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bg.db"
    seen = []
    for alias in (b"LongAliasName123A", b"LongAliasName123B", b"PWN", b"PWN\x07\x07", b"PWN\x7f"):
        door = PtyDoor(_door32(tmp_path / "door32.sys", alias), url, tmp_path / "door.log")
        try:
            door.wait_for("B G D O O R")
            door.settle()
            if "Press any key" in door.view.text:  # the first visit of a caller whose handle is not their alias
                door.send(" ")
            text = door.wait_for("Welcome, ")
            line = next(row for row in text.splitlines() if "Welcome, " in row)
            seen.append(line.split("Welcome, ", 1)[1].split(".  ", 1)[0])
            door.send("Q")
            assert door.wait_exit() == 0
        finally:
            door.close()
    assert seen[:2] == ["LongAliasName123", "LongAliasName1~2"]
    assert len(set(seen)) == 5 and seen[2] == "PWN"
    with Service(url) as svc, Session(svc.engine) as s:
        logins = s.scalars(select(Player.login_name).where(Player.origin == "door").order_by(Player.id)).all()
    assert logins == ["LongAliasName123A", "LongAliasName123B", "PWN", "PWN\x07\x07", "PWN\x7f"]


def test_the_door_tells_a_newcomer_their_handle_until_they_reach_the_menu(tmp_path: Path) -> None:
    """The note of why a handle is numbered was shown once: a caller who hung up on it was never
    told again why they were LongAliasName1~2.  Said again until the menu is reached, then no more."""
    url = f"sqlite:///{tmp_path}/bg.db"
    with Service(url) as svc:
        svc.enter_from_door("LongAliasName123A")
    drop = _door32(tmp_path / "door32.sys", b"LongAliasName123B")
    for visit in range(3):
        door = PtyDoor(drop, url, tmp_path / "door.log")
        try:
            said = " ".join(door.wait_for("Press any key").split())
            assert "but another player here is called LongAliasName123, so you are LongAliasName1~2" in said, visit
            if visit < 2:
                door.proc.send_signal(signal.SIGHUP)  # the caller hangs up on it
                door.wait_exit()
                continue
            door.send(" ")
            door.wait_for("Welcome, LongAliasName1~2")
            door.send("Q")
            assert door.wait_exit() == 0
        finally:
            door.close()
    # The visit after the menu is a plain one.
    door = PtyDoor(drop, url, tmp_path / "door.log")
    try:
        text = door.wait_for("Welcome, LongAliasName1~2")
        assert "nother player" not in text
        door.send("Q")
        assert door.wait_exit() == 0
    finally:
        door.close()


def test_a_look_alike_note_stays_true_on_an_ascii_terminal(svc: Service) -> None:
    """An ASCII terminal shows 'alíce' as 'alice': the note read 'Your BBS name alice looks like
    alice, the name of another player here'.  It says what an ASCII screen cannot show."""
    from bgdoor.letters import ascii_form  # noqa: PLC0415 - what the terminal layer draws plain

    svc.register("alice", "alice-pw")
    note = svc.enter_from_door("al\u00edce").handle_note
    assert "Your BBS name al\u00edce (with an accent) looks like alice" in note, note
    assert "alice (with an accent) looks like alice" in ascii_form(note), note
    svc.register("zoe", "zoe-pw")
    assert "(with accents) looks like zoe" in svc.enter_from_door("z\u00f6\u00eb").handle_note
    plain = svc.enter_from_door("a1ice").handle_note
    assert "with" not in plain.split("looks like")[0], plain  # nothing beyond ASCII to say


def test_a_member_board_s_newcomer_is_told_whose_board_has_their_name(svc: Service) -> None:
    """DP's carol was told 'Another player here is called carol' of DEMO's carol, as if a player
    of this server (or of her own board) had her name."""
    assert svc.enter_from_bbs("DEMO", "carol").handle == "carol"
    dp = svc.enter_from_bbs("DP", "carol")
    assert dp.handle == "carol~2"
    assert dp.handle_note == (
        "Another player of board DEMO is called carol, so you are carol~2: your own player, not theirs."
    )
    assert svc.enter_from_bbs("DP", "Dave").handle == "Dave"
    # Another alias of the same board that looks like Dave (a Cyrillic а): said as the other
    # alias it is ('Another player of your board is called Dave' read as if DP's Dave were not).
    assert svc.enter_from_bbs("DP", "D\u0430ve").handle_note == (
        "Your BBS name has characters not every terminal can show, so it becomes Dave here; but another caller "
        "of your board (alias Dave there) is called Dave here, so you are Dave~2: your own player, not theirs."
    )
    assert svc.enter_from_door("Dave").handle_note.startswith(
        "Another player of board DP is called Dave, so you are Dave~3 (Dave~2 is taken too)")
    assert svc.enter_from_bbs("DP", "erin").handle == "erin"
    svc.register("frank", "frank-pw")
    assert svc.enter_from_bbs("DP", "Frank").handle_note.startswith("Another player of this server is called frank,")
    # A third: why not frank~2 ('is called frank, so you are frank~3' had not said); a fourth.
    assert svc.enter_from_bbs("SYN", "frank").handle_note == (
        "Another player of this server is called frank, so you are frank~3 (frank~2 is taken too): your own player, "
        "not theirs."
    )
    assert "so you are frank~4 (frank~2 and frank~3 are taken too)" in svc.enter_from_bbs("ALT", "frank").handle_note


def test_a_bbs_name_told_why_it_changed_reads_as_one_sentence(svc: Service) -> None:
    """'Your BBS name has spaces in a row, kept here as one and is longer than 16 characters', the
    two reasons run together; and a name ending in a full stop got a second one ('Mr.Smith_home..')."""
    long = svc.enter_from_door("Yetanotherlong  alias name")
    assert long.handle_note == "Your BBS name has spaces in a row (kept here as one) and is longer than " \
        '16 characters, so here you are "Yetanotherlong a".', long.handle_note
    dotted = svc.enter_from_door("Mr.Smith@home.")
    assert dotted.handle_note.endswith("so here you are Mr.Smith_home."), dotted.handle_note


def test_a_member_board_s_player_is_found_by_the_alias_their_board_knows(svc: Service) -> None:
    """B)egin naming 'alice@DP' (DP's alice, alice~2 here, DEMO's alice having the handle first)
    said 'There is no player called alice@DP'; only 'alice~2@DP' was found."""
    demo = svc.enter_from_bbs("DEMO", "alice")
    dp = svc.enter_from_bbs("DP", "alice")
    assert (demo.handle, dp.handle) == ("alice", "alice~2")
    view = svc.begin_game(demo.id, 3, Color.WHITE, opponent="alice@DP")
    assert view.black_id == dp.id
    assert svc.begin_game(dp.id, 3, Color.WHITE, opponent="Alice@demo").black_id == demo.id
    with pytest.raises(NotFound):
        svc.begin_game(demo.id, 3, Color.WHITE, opponent="bob@DP")


def test_a_member_boards_alias_is_found_without_regard_to_case(svc: Service) -> None:
    """SYN's alice calling as ALICE (as some BBSes send aliases) had been made a new player,
    ALICE~2; the same alias on another board, or a door's, is still another player."""
    alice = svc.enter_from_bbs("SYN", "alice")
    for alias in ("ALICE", "Alice", "aLiCe"):
        again = svc.enter_from_bbs("SYN", alias)
        assert (again.id, again.handle, again.first_visit, again.handle_note) == (alice.id, "alice", False, "")
    zola = svc.enter_from_bbs("SYN", "Émile_Straße")
    assert svc.enter_from_bbs("SYN", "ÉMILE_STRASSE").id == zola.id
    assert svc.enter_from_bbs("OTHER", "ALICE").id != alice.id
    assert svc.enter_from_door("ALICE").id != alice.id



def test_a_door_callers_alias_is_found_without_regard_to_case(svc: Service) -> None:
    """A BBS whose DOOR.SYS writes 'JOHN SMITH' where its DOOR32.SYS wrote 'john smith' (the
    same caller) had made a second player, 'JOHN SMITH~2'."""
    john = svc.enter_from_door("john smith")
    again = svc.enter_from_door("JOHN SMITH")
    assert (again.id, again.handle, again.first_visit, again.handle_note) == (john.id, "john smith", False, "")


def test_a_long_first_visit_notice_is_shown_whole_at_40_columns(tmp_path: Path) -> None:
    """At 40 columns the notice of a handle taken was cut to six rows, ending at 'so you are':
    the handle it went on to name, said once only, was never seen."""
    from doorharness import door32  # noqa: PLC0415

    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("ALongAliasNameFo", "secret-pw")
        svc.enter_from_door("ALongAliasNameForMaxy")  # ALongAliasName~2
    door = PtyDoor(door32(tmp_path / "door32.sys", "ALongAliasNameForMaxz"), url, tmp_path / "door.log",
                   size=(40, 24))
    try:
        door.wait_for("Press any key to go on.")
        said = " ".join(door.view.text.split())
        assert "so you are ALongAliasName~3 (ALongAliasName~2 is taken too): your own player, not theirs." in said, \
            door.view.text
        assert all(len(line.rstrip()) <= 40 for line in door.view.screen.display)
    finally:
        door.close()


def test_a_look_alike_alias_is_told_it_looks_like_another_player(svc: Service) -> None:
    """Door alias 'a1ice' beside alice and alice~2: told 'Your BBS name cannot be a handle here as
    it is, so it becomes alice here; ... so you are a1ice~3 (a1ice~2 is taken too)': it never
    became alice, and no a1ice~2 existed (alice~2 did, which a1ice~2 would look like)."""
    svc.register("alice", "alice-pw")
    svc.enter_from_bbs("SYN", "alice")  # alice~2
    note = svc.enter_from_door("a1ice").handle_note
    assert note == ("Your BBS name a1ice looks like alice, the name of another player here, so you are a1ice~3 "
                    "(with a lower number it would look like another player's too): your own player, not theirs."), note
    # With a reason of its own first: what it became, then whom that looks like.
    svc.register("alice_x", "alice-pw")
    note = svc.enter_from_bbs("DP", "a1ice@x").handle_note
    assert note == ("Your BBS name has an @ (which marks another board's players), so it becomes a1ice_x here; "
                    "but it looks like alice_x, the name of another player of this server, so you are a1ice_x~2: "
                    "your own player, not theirs."), note
