"""Notes to the opponent with a turn: on the opponent's screen and in their news, kept across a
restart, in the .mat export that GNU Backgammon still imports, and off when a player says so."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import menus
import pytest
from harness import call, login, running_server
from rawtelnet import RawCaller
from serverproc import ServerProcess
from telnetplay import Table

from bgdoor.records.mat import export_mat
from bgdoor.rules import game as rules
from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Phase
from bgdoor.service import IllegalAction, Preferences, Service
from bgdoor.service.sysop import Sysop
from bgdoor.ui.news import narrate

pytestmark = pytest.mark.timeout(240)

NOTE = (
    'Nice roll! "Good luck" with the back game: 13/7 was forced, really; '
    "50% of the time it works every time. See you tomorrow evening."
)


def test_note_rules(tmp_path: Path) -> None:
    with Service(f"sqlite:///{tmp_path / 'n.db'}") as svc:
        a, b = svc.register("alice", "secret1"), svc.register("bob", "secret2")
        g = svc.begin_game(a.id, 1, Color.WHITE, "bob")
        g = svc.roll(a.id, g.id, g.version)
        mover = a.id if g.state.turn is Color.WHITE else b.id
        for bad, why in (
            ("x" * 141, "at most 140"),
            ("hi\x1b[2J", "control characters"),
            ("a\nb", "control characters"),
        ):
            with pytest.raises(IllegalAction, match=why):
                svc.submit_turn(mover, g.id, g.version, g.state.plays()[0].position.id, bad)
        play = g.state.plays()[0].position.id
        g = svc.submit_turn(mover, g.id, g.version, play, "  " + "y" * 140 + "  ")  # trimmed to 140: kept
        other = b.id if mover == a.id else a.id
        note = svc.opponent_note(g.id, other)
        assert note is not None and note.text == "y" * 140
        assert svc.opponent_note(g.id, mover) is None  # nobody is shown their own note as news
        log = svc.game_log(g.id, other)
        assert any(e.note == "y" * 140 for e in log.events)
        assert any('note: "' + "y" * 140 in line.text for line in narrate(log, 0, other))
        # Notes off: neither the screen nor the news shows them.
        info = svc.player(other)
        svc.set_preferences(other, Preferences(**{**info.preferences.__dict__, "notes": False}))
        assert svc.opponent_note(g.id, other) is None
        assert all(e.note is None for e in svc.game_log(g.id, other).events)
        assert not any("note" in line.text for line in narrate(svc.game_log(g.id, other), 0, other))


def test_watchers_see_no_notes(tmp_path: Path) -> None:
    """A note is for the opponent: someone watching the game, or reviewing it, does not read it."""
    with Service(f"sqlite:///{tmp_path / 'w.db'}") as svc:
        a, b = svc.register("alice", "secret1"), svc.register("bob", "secret2")
        carol = svc.register("carol", "secret3")
        g = svc.begin_game(a.id, 3, Color.WHITE, "bob")
        g = svc.roll(a.id, g.id, g.version)
        mover = a.id if g.state.turn is Color.WHITE else b.id
        other = b.id if mover == a.id else a.id
        g = svc.submit_turn(mover, g.id, g.version, g.state.plays()[0].position.id, "just between us")
        assert any(e.note == "just between us" for e in svc.game_log(g.id, other).events)
        assert any(e.note == "just between us" for e in svc.game_log(g.id, mover).events)
        watched = svc.game_log(g.id, carol.id)
        assert all(e.note is None for e in watched.events)
        assert not any("just between us" in line.text for line in narrate(watched, 0, carol.id, everything=True))


def test_mat_notes_are_comments_gnubg_keeps(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    gnubg: Any = pytest.importorskip("gnubg")
    for command in ("set confirm new off", "set sound enable off", "set display off"):
        gnubg.command(command)
    state = rules.new_match(1)
    events: list[rules.Event] = [rules.OpeningRoll(3, 1)]
    state, _ = rules.apply(state, events[0])
    play = next(p for p in state.plays() if str(p) == "8/5 6/5")
    events.append(rules.Move(str(play), play.position.id))
    text = export_mat("alice", "bob", 1, events, notes={1: NOTE + "\x07"})
    assert f"; Note from alice, game 1 move 1: {NOTE}" in text.splitlines()
    path = tmp_path / "n.mat"
    path.write_text(text, encoding="utf-8")
    capfd.readouterr()
    gnubg.command(f"import mat {path}")
    said = capfd.readouterr().out
    assert "WARNING" not in said and "Unrecognised" not in said
    match = gnubg.match()
    assert NOTE in match["match-info"]["comment"]
    assert match["games"][0]["game"][0]["move"] == ((8, 5), (6, 5))


async def test_note_reaches_the_opponent_survives_a_restart_and_the_export(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    db_file = tmp_path / "bg.db"
    url = f"sqlite:///{db_file}"
    srv = ServerProcess(tmp_path, url).start()
    table = Table(url, seed=7, length=1)
    try:
        await table.seat(srv.port)
        # Play on until alice (White) has dice to play.
        for _ in range(200):
            st = table.db.game(table.game_id).state
            if st.phase is Phase.MOVE and st.actor is Color.WHITE:
                break
            await table.step()
        else:
            raise AssertionError("alice never had a move")
        alice, bob = table.callers["alice"], table.callers["bob"]
        alice.send("N")
        await alice.wait_for("Note to your opponent")
        # In pieces, as a typist would: a script's flood beyond the console's queue loses keys.
        for start in range(0, len(NOTE), 40):
            alice.send(NOTE[start : start + 40])
            await alice.wait_for(f"{min(start + 40, len(NOTE))}/140")
        alice.send("\r")
        await alice.wait_words("Your note goes with what you do next")
        version = table.db.game_version(table.game_id)
        await table.send_play(alice, table.choose())
        await table.wait_version(version)
        await alice.wait_words("Your note went with it.")  # the board no longer shows it

        # Bob, on the board, sees it with alice's turn: the whole note, wrapped over the message
        # lines, or on the ? page where the lines before it (an opening roll after a tie: the
        # server's dice are random) leave it no room.
        await read_whole_note(bob, "alice's note")
        log = table.db.game_log(table.game_id, _id(table.db, "bob"))
        assert any(e.note == NOTE for e in log.events)

        # A restart: the note is still there, for bob's next visit.
        srv.stop()
        table.hang_up()
        srv.start()
        await table.rejoin(srv.port)
        await read_whole_note(table.callers["bob"], "alice's note after the restart")
        note = table.db.opponent_note(table.game_id, _id(table.db, "bob"))
        assert note is not None and note.text == NOTE
    finally:
        table.close()
        srv.stop()

    out = tmp_path / "game.mat"
    done = subprocess.run(
        [sys.executable, "-m", "bgdoor", "export", str(table.game_id), "--db", url, "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert f": {NOTE}" in text and "; Note from alice, game 1 move " in text
    gnubg: Any = pytest.importorskip("gnubg")
    for command in ("set confirm new off", "set sound enable off", "set display off"):
        gnubg.command(command)
    capfd.readouterr()
    gnubg.command(f"import mat {out}")
    said = capfd.readouterr().out
    assert "WARNING" not in said and "Unrecognised" not in said, said
    assert NOTE in gnubg.match()["match-info"]["comment"]
    with Service(url) as svc:
        record = Sysop(svc).match_record(table.game_id)
        assert NOTE in record.notes.values()


async def read_whole_note(c: RawCaller, what: str) -> None:
    """The whole note on the board, or on the ? page when the board says it cut the message."""
    screen = await c.wait_until(lambda t: has_note(t) or "? shows all" in t, what)
    if not has_note(screen):
        c.send("?")
        await c.wait_until(has_note, f"{what} on the ? page")
        c.send(" ")  # back to the board
        await c.wait_until(lambda t: "The message in full" not in t, "the board again")


def has_note(screen: str) -> bool:
    """The whole note on the screen, however the message lines wrap it."""
    return " ".join(NOTE.split()) in " ".join(screen.split())


def _id(svc: Service, handle: str) -> int:
    return svc.player_page(handle).player.id


def test_a_note_goes_with_a_double_take_drop_or_resignation(tmp_path: Path) -> None:
    """Not only a play: a double, a take, a drop, a resignation and its answer each carry the note
    the player left with it, to the opponent's board and news and to the .mat export; a note the
    viewer has answered with anything of their own is no longer shown on the board."""
    with Service(f"sqlite:///{tmp_path / 'n.db'}") as svc:
        a, b = svc.register("alice", "secret1"), svc.register("bob", "secret2")
        g = svc.begin_game(a.id, 5, Color.WHITE, "bob")
        g = svc.roll(a.id, g.id, g.version)
        first = a.id if g.state.turn is Color.WHITE else b.id
        second = b.id if first == a.id else a.id
        g = svc.submit_turn(first, g.id, g.version, g.state.plays()[0].position.id, "your move")
        assert note_text(svc, g.id, second) == "your move"

        g = svc.double(second, g.id, g.version, note="feeling lucky")
        assert svc.opponent_note(g.id, second) is None, "the note was answered by the double"
        assert note_text(svc, g.id, first) == "feeling lucky"
        g = svc.take(first, g.id, g.version, note="bring it")
        assert note_text(svc, g.id, second) == "bring it"
        assert svc.opponent_note(g.id, first) is None

        g = svc.roll(second, g.id, g.version)
        g = svc.resign(second, g.id, g.version, rules.Win.SINGLE, note="sorry, must go")
        assert note_text(svc, g.id, first) == "sorry, must go"
        g = svc.answer_resign(first, g.id, g.version, False, note="play it out")
        assert note_text(svc, g.id, second) == "play it out"
        with pytest.raises(IllegalAction, match="control characters"):
            svc.answer_resign(first, g.id, g.version, False, note="\x1b[2J")
        g = svc.submit_turn(second, g.id, g.version, g.state.plays()[0].position.id)
        g = svc.double(first, g.id, g.version)  # the cube's owner redoubles, with no note
        assert svc.opponent_note(g.id, second) is None, "an old note came back with a double that had none"
        g = svc.drop(second, g.id, g.version, note="too strong")
        # Told in the news with the result (below): the next game's board had kept it, as if said
        # at its opening roll.
        assert g.state.game == 2 and svc.opponent_note(g.id, first) is None

        news = [line.text for line in narrate(svc.game_log(g.id, first), 0, first)]
        second_name = "bob" if second == b.id else "alice"
        assert f'{second_name} doubles to 2. {second_name}\'s note: "feeling lucky".' in news, news
        assert any(t.startswith(f"{second_name} offers to resign") and '"sorry, must go"' in t for t in news), news
        news = [line.text for line in narrate(svc.game_log(g.id, second), 0, second)]
        assert any("takes the double" in t and '"bring it"' in t for t in news), news
        assert any("refuses the resignation" in t and '"play it out"' in t for t in news), news
        news = [line.text for line in narrate(svc.game_log(g.id, first), 0, first)]
        assert any("drops the double" in t and '"too strong"' in t for t in news), news

        record = Sysop(svc).match_record(g.id)
        text = export_mat(record.white, record.black, record.length, record.events, notes=record.notes)
        for note in ("your move", "feeling lucky", "bring it", "sorry, must go", "play it out", "too strong"):
            assert f": {note}" in text, text


def note_text(svc: Service, game_id: int, viewer_id: int) -> str | None:
    note = svc.opponent_note(game_id, viewer_id)
    return None if note is None else note.text


def test_a_draft_is_kept_per_player_and_game_and_only_for_the_game_as_it_was(tmp_path: Path) -> None:
    with Service(f"sqlite:///{tmp_path / 'd.db'}") as svc:
        a, b = svc.register("alice", "secret1"), svc.register("bob", "secret2")
        c = svc.register("carol", "secret3")
        g = svc.begin_game(a.id, 3, Color.WHITE, "bob")
        assert svc.draft(a.id, g.id) is None
        svc.save_draft(a.id, g.id, g.version, ((13, 10), (25, 22)), "back soon")
        d = svc.draft(a.id, g.id)
        assert d is not None and (d.version, d.moves, d.note) == (g.version, ((13, 10), (25, 22)), "back soon")
        assert svc.draft(b.id, g.id) is None  # the opponent's is their own
        svc.save_draft(c.id, g.id, g.version, ((13, 10),), "not mine")  # not seated: nothing kept
        assert svc.draft(c.id, g.id) is None
        svc.save_draft(a.id, g.id, g.version, (), "only the note")
        d = svc.draft(a.id, g.id)
        assert d is not None and (d.version, d.moves, d.note) == (None, (), "only the note")
        svc.save_draft(a.id, g.id, g.version, (), None)
        assert svc.draft(a.id, g.id) is None


async def test_a_note_half_typed_when_the_line_drops_is_kept(tmp_path: Path) -> None:
    """alice was typing a note when her line dropped: the note was lost without a word, where one
    kept with Enter waits, with her moves, for her next call."""
    url = f"sqlite:///{tmp_path / 'n.db'}"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.roll(alice, v.id, v.version)  # alice starts with 3-1
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c)
        c.send("N")
        await c.wait_for("Note to your")
        c.send("Back in five")
        await c.wait_for("Back in five_")
        c.close()
        with Service(url) as svc:
            for _ in range(100):
                draft = svc.draft(alice, v.id)
                if draft is not None:
                    break
                await asyncio.sleep(0.05)
            assert draft is not None and draft.note == "Back in five", draft
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c)
        await c.wait_words('Your note, not yet sent: "Back in five"')
        c.close()


async def test_a_note_stands_apart_from_the_ids_and_before_a_question(tmp_path: Path) -> None:
    """'Position ID ... Match ID MAGz... bob's note: "Feeling lucky".' ran the note into the IDs;
    and 'Drop the double ...? (Y/N) Your note: "Too strong".' put it after the question."""
    url = f"sqlite:///{tmp_path / 'n.db'}"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 3, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.submit_turn(alice, v.id, v.version, "8/5 6/5")
        v = svc.double(bob, v.id, v.version, note="Feeling lucky")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c)
        await c.wait_words('bob\'s note: "Feeling lucky".')
        c.send("I")
        said = " ".join((await c.wait_words("Match ID")).split())
        assert "Feeling lucky" not in said, said
        c.send("N")
        await c.wait_for("Note to your")
        c.send("Too strong\r")
        await c.wait_words('Your note goes with what you do next: "Too strong".')
        c.send("X")
        said = " ".join((await c.wait_words("(Y/N)")).split())
        assert 'Your note, not yet sent: "Too strong". Drop the double' in said, said
        assert said.index("(Y/N)") > said.index("Too strong"), said
        c.send("N")
        c.close()
