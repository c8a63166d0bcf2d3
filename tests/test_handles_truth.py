"""Handles as callers type them: runs of spaces, and how a refused handle is said."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from harness import call, login, running_server
from rawtelnet import RawCaller
from sqlalchemy.orm import Session

from bgdoor.service import HandleTaken, Service, passwords as pw
from bgdoor.service.sysop import Sysop
from bgdoor.store.handles import clean
from bgdoor.store.models import Player
from bgdoor.ui.guard import LoginGuard

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def svc(db_url: str) -> Iterator[Service]:
    with Service(db_url) as service:
        yield service


def older_player(svc: Service, handle: str, password: str) -> None:
    """A player registered before runs of spaces were made one: the handle, key and skeleton
    kept exactly as typed."""

    def add(s: Session) -> None:
        key = handle.casefold()
        s.add(Player(origin="telnet", login_name=handle, handle=handle, handle_key=key, handle_skeleton=key,
                     password_hash=pw.hash_password(password), created=datetime.now(UTC)))

    svc.transaction(add)


# ------------------------------------------------------------------ runs of spaces


def test_a_run_of_spaces_in_a_new_handle_is_one(svc: Service) -> None:
    """`a  b` and `a b` were two players, listed one above the other."""
    assert svc.register("a  b", "first-pw").handle == "a b"
    with pytest.raises(HandleTaken):
        svc.register("a b", "second-pw")
    with pytest.raises(HandleTaken):
        svc.register("A   B", "third-pw")
    assert svc.new_handle_problem("a b") is not None
    # Typed with the run, the handle finds its player.
    assert svc.handle_exists("a   b")
    assert svc.login("a  b", "first-pw").handle == "a b"


def test_an_older_player_with_a_run_of_spaces_still_logs_in(svc: Service) -> None:
    older_player(svc, "a  b", "older-pw")
    assert svc.login("a  b", "older-pw").handle == "a  b"
    # Typed with one space (or another run) it is the same player, not a new one to create.
    assert svc.handle_exists("a b")
    assert svc.login("A b", "older-pw").handle == "a  b"
    assert svc.login("a   b", "older-pw").handle == "a  b"
    assert svc.new_handle_problem("a b") is not None
    with pytest.raises(HandleTaken, match="looks like the existing player a  b"):
        svc.register("a b", "newer-pw")
    with pytest.raises(HandleTaken):
        svc.register("a  b", "newer-pw")


def test_two_older_players_apart_by_a_run_of_spaces_each_log_in_as_typed(svc: Service) -> None:
    """Registered before the rule, `a b` and `a  b` both stay; each is found by its own spelling."""
    older_player(svc, "a b", "one-pw")
    older_player(svc, "a  b", "two-pw")
    assert svc.login("a b", "one-pw").handle == "a b"
    assert svc.login("a  b", "two-pw").handle == "a  b"


def test_the_sysop_renames_to_a_handle_with_one_space(svc: Service) -> None:
    older_player(svc, "a  b", "older-pw")
    Sysop(svc).rename("a  b", "a    b")
    assert svc.login("a b", "older-pw").handle == "a b"


def test_wrong_passwords_at_a_handle_count_however_its_spaces_are_typed() -> None:
    """`a  b` finds the player `a b`: as a fresh handle to the guard it was three more guesses."""
    guard = LoginGuard(limit=100, delay=0.0)
    for addr in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        guard.failed(addr, "a b", urgent=True)
    assert guard.refusal("10.0.0.1", "a  b") == guard.HANDLE_REFUSED
    assert guard.refusal("10.0.0.1", "A   B") == guard.HANDLE_REFUSED


async def test_a_handle_typed_with_a_run_of_spaces_is_offered_with_one(tmp_path) -> None:
    """Over telnet: `a  b` is offered and created as `a b`, and `a b` from another window is
    that player's handle (a password is asked), not a new one."""
    url = f"sqlite:///{tmp_path}/g.db"
    async with running_server(url) as srv:
        c = await call(srv.port)
        await c.wait_for("Handle:")
        c.send("a  b\r")
        await c.wait_for("There is no player called a b. Create it?")
        c.send("Y")
        await c.wait_for("Choose a password")
        c.send("first-pw\r")
        await c.wait_for("Type it again")
        c.send("first-pw\r")
        await c.wait_for("Your choice")
        other = await call(srv.port)
        await other.wait_for("Handle:")
        other.send("a b\r")
        text = await other.wait_for("Password:")
        assert "Create it?" not in text
        other.close()
        again = await call(srv.port)
        await login(again, "a    b", "first-pw", new=False)
        again.close()
        c.close()
    with Service(url) as svc:
        assert svc.login("a b", "first-pw").handle == "a b"


# ------------------------------------------------------------------ refusals said


REFUSALS = {
    "x": "That handle is too short: a handle is 2 to 16 characters long. Try another.",
    "a@b": "A handle cannot contain @: it marks the players of other boards. Try another.",
    "AL\u0130CE": "A handle must be drawable on every terminal (CP437), and U+0130 LATIN CAPITAL LETTER I"
    " WITH DOT ABOVE is not. Try another.",
    "Al\u00edce": "Al\u00edce looks like the existing player Alice. Try another.",
    "al\u00edce": "al\u00edce looks like the existing player Alice. Try another.",  # the handle as typed
    "(open)": "'(open)' is a name the door itself shows, so it cannot be a handle. Try another.",
}


@pytest.mark.parametrize("size", [(40, 24), (80, 25)], ids=["40x24", "80x25"])
async def test_every_refused_handle_is_said_as_a_sentence(tmp_path, size) -> None:
    """A handle too short was 'That handle is too short: .... Try another.', while one not
    drawable or like another player's was the bare 'a handle must be drawable ... is not' or
    'Alíce looks like the existing player Alice; choose another handle'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("Alice", "alice-pw")
    cols, rows = size
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=size, glass=(100, 30))
        for handle, said in REFUSALS.items():
            await c.wait_for("Handle:")
            c.send(handle.encode("utf-8") + b"\r")
            await c.wait_words(said)
            await c.settle()
            lines = [line.rstrip() for line in c.lines()]
            assert all(len(line) <= cols for line in lines), lines
            assert not any(line for line in lines[rows:]), lines
            assert "Create it?" not in " ".join(lines)
        c.close()


async def test_a_computer_player_s_handle_keeps_its_case_in_the_reason(tmp_path) -> None:
    """'Easybot is a computer player ...' named a player the list calls easybot."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.ensure_bot_player("easybot")
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        await c.wait_for("Handle:")
        c.send("EASYBOT\r")
        await c.wait_words("easybot is a computer player and cannot log in.")
        c.close()


# ------------------------------------------------------------------ a handle ending in a stop


@pytest.mark.parametrize(("handle", "asked"), [
    ("x_y-z.", "There is no player called x_y-z. Create it? (Y/N)"),
    ("wow!", "There is no player called wow! Create it? (Y/N)"),
    ("bob", "There is no player called bob. Create it? (Y/N)"),
])
async def test_a_new_handle_ending_in_a_stop_is_asked_about_without_a_second(tmp_path, handle, asked) -> None:
    """'There is no player called x_y-z.. Create it?': the handle's stop and the sentence's."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        await c.wait_for("Handle:")
        c.send(handle + "\r")
        text = await c.wait_words(asked)
        assert "..." not in text and "!." not in text, text
        c.send("Y")
        await c.wait_for("Choose a password")
        c.send("pass-word\r")
        await c.wait_for("Type it again")
        c.send("pass-word\r")
        await c.wait_for("Your choice")
        c.close()


async def test_a_member_board_s_player_typed_at_the_telnet_login_is_told_where_they_play(tmp_path):
    """Typing carol, a player of member board DEMO, at the telnet login said 'carol plays through
    the BBS door and has no password; use the BBS door to play.': there is no such door here."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.admit_bbs("DEMO")
        svc.enter_from_bbs("DEMO", "carol")
        svc.enter_from_door("erin")
    async with running_server(url) as srv:
        c = await call(srv.port)
        await c.wait_for("handle")
        c.send("carol\r")
        await c.wait_words("carol plays from board DEMO and has no password here; play from that BBS, "
                           "or try another handle.")
        c.send("erin\r")
        await c.wait_words("erin plays through the BBS door and has no password; use the BBS door to play, "
                           "or try another handle.")
        c.close()


# ------------------------------------------------------------------ letters beyond ASCII


def test_a_letter_with_no_base_letter_becomes_its_nearest_not_nothing() -> None:
    """An alias with letters CP437 lacks and Unicode gives no base letter: they were dropped
    ('Øystein_Đorđević' made 'ystein_orevic'), where the screen's own fallback draws them."""
    assert clean("Øystein_Đorđević") == "Oystein_Dordevic"
    assert clean("Ærøskøbing_Søren") == "Æroskobing_Soren"  # Æ is in CP437: kept
    assert clean("Łukasz") == "Lukasz" and clean("Þórður") == "Pórdur"


def test_a_player_is_found_by_the_name_an_ascii_terminal_shows(svc: Service) -> None:
    """An ASCII caller saw 'Emile_Zola' and 'Arskbing_Sren@BETA' in W)ho, and typing either at
    B)egin found nobody: the name as shown is found where it is one player's alone."""
    me = svc.register("plainpete", "pete-pw").id
    emile = svc.register("Émile_Zola", "emile-pw").id
    svc.admit_bbs("BETA")
    member = svc.enter_from_bbs("BETA", "Ærskbing_Sren").id
    assert svc.begin_game(me, 3, opponent="Emile_Zola").black_id in (emile, me)
    game = svc.begin_game(me, 3, opponent="emile_zola")
    assert {game.white_id, game.black_id} == {me, emile}
    game = svc.begin_game(me, 3, opponent="Arskbing_Sren@beta")
    assert {game.white_id, game.black_id} == {me, member}
    assert svc.player_page("EMILE_ZOLA").player.id == emile
    assert svc.player_page("Arskbing_Sren").player.id == member  # by the handle alone, as typed whole


@pytest.mark.parametrize("first, second", [("Stras", "Straß"), ("Straß", "Stras"), ("Æsir", "Asir"),
                                           ("Σam", "Φam"), ("Æsop", "Åsop")])
def test_handles_an_ascii_terminal_shows_alike_do_not_both_exist(svc: Service, first: str, second: str) -> None:
    """'Straß' and 'Stras' (their skeletons 'strass' and 'stras'), 'Σam' and 'Φam' were both
    taken, and an ASCII caller's W)ho and R)ank showed two players as one ('Stras', '?am')."""
    svc.register(first, "first-pw")
    with pytest.raises(HandleTaken, match=f"{second} looks like the existing player {first}"):
        svc.register(second, "second-pw")
    # A board's alias that would be shown so is numbered, as any look-alike is.
    svc.admit_bbs("BETA")
    assert svc.enter_from_bbs("BETA", second).handle == f"{second}~2"
