"""The login and sign-up screens as callers of every size met them."""

from __future__ import annotations

import re

import menus
import pytest
from harness import running_server
from rawtelnet import RawCaller

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service
from bgdoor.ui.gateway import Gateway
from bgdoor.ui.guard import LoginGuard

pytestmark = pytest.mark.timeout(120)


def within(c: RawCaller, cols: int, rows: int) -> list[str]:
    """The screen's lines, each checked to be within the caller's size (the glass is larger)."""
    lines = [line.rstrip() for line in c.lines()]
    assert all(len(line) <= cols for line in lines), lines
    assert not any(line for line in lines[rows:]), lines
    return lines


def words(c: RawCaller) -> str:
    return " ".join(" ".join(c.lines()).split())


async def at_the_menu(port: int, size: tuple[int, int], handle: str, password: str) -> RawCaller:
    """A returning player of a terminal of `size` (a glass larger than it), at the main menu."""
    c = await RawCaller.connect(port, term="xterm", size=size, glass=(100, 30))
    await c.wait_for("Handle:")
    c.send(handle + "\r")
    await c.wait_for("Password:")
    c.send(password + "\r")
    await c.wait_for("Your choice")
    return c


@pytest.mark.parametrize(("cols", "rows", "password"), [(40, 24, "p" * 19), (30, 16, "q" * 24), (80, 25, "r" * 24)])
async def test_a_password_longer_than_the_screen_has_room_for_is_typed_whole(tmp_path, cols, rows, password):
    """At 40 columns a new player typing a password of 19 characters or more (24 at 30x16)
    had the session end: the field's cursor was sent past the last column."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(cols, rows), glass=(100, 30))
        await c.wait_for("Handle:")
        c.send("walker\r")
        await c.wait_words("Create it?")
        c.send("Y")
        await c.wait_for("Choose a")
        c.send(password)
        await c.settle()
        within(c, cols, rows)
        c.send("\r")
        await c.wait_for("Type it again")
        c.send(password + "\r")
        await c.wait_for("Your choice")
        c.close()
    with Service(f"sqlite:///{tmp_path}/g.db") as svc:
        assert svc.login("walker", password).handle == "walker"


async def test_a_handle_at_20_columns_is_typed_whole(tmp_path):
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(20, 24), glass=(100, 30))
        await c.wait_for("Handle:")
        c.send("abcdefghijklmnop")
        await c.settle()
        lines = within(c, 20, 24)
        assert any("BGDOOR BACKGAMMON" in line for line in lines), lines  # the banner in fewer letters
        c.send("\r")
        await c.wait_words("called abcdefghijklmnop")
        c.close()


@pytest.mark.parametrize(("cols", "rows"), [(40, 10), (80, 11), (80, 16), (30, 20)])
async def test_a_short_screen_signs_up_with_every_question_on_it(tmp_path, cols, rows):
    """A terminal 10 or 11 rows high had the session end at the first screen: the handle's prompt
    was on row 12.  Under 22 rows the banner gives way, and every question is on the screen."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(cols, rows), glass=(100, 30))
        await c.wait_for("Handle:")
        within(c, cols, rows)
        assert "Enter your handle, or a new one" in words(c) and "to create a player." in words(c), c.text
        c.send("shorty\r")
        await c.wait_words("Create it? (Y/N)")
        c.send("Y")
        await c.wait_for("Choose a password")
        c.send("abc\r")
        await c.wait_words("A password needs at least 4 characters. Choose another.")
        within(c, cols, rows)
        c.send("secret1\r")
        await c.wait_for("Type it again")
        c.send("secret2\r")  # differs: the password again, and nothing of the last one left over
        await c.wait_words("The passwords differ. Choose a password again.")
        await c.settle()
        assert not any("*" in line for line in within(c, cols, rows)), c.text
        c.send("secret1\r")
        await c.wait_for("Type it again")
        within(c, cols, rows)
        c.send("secret1\r")
        await c.wait_until(lambda t: "Your choice" in t or "Press" in t, "past the login")
        c.close()


async def test_passwords_that_differ_ask_for_the_password_again_not_the_handle(tmp_path):
    """'The passwords differ. Try again.' went back to the Handle prompt: a player who typed the
    password again, as invited, typed it there in the clear."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm")
        await c.wait_for("Handle:")
        c.send("bob\r")
        await c.wait_words("Create it?")
        c.send("Y")
        await c.wait_for("Choose a password")
        c.send("secret1\r")
        await c.wait_for("Type it again")
        c.send("secret2\r")
        await c.wait_words("The passwords differ. Choose a password again.")
        await c.settle()
        lines = c.lines()
        assert any("Choose a password:" in line and "*" not in line for line in lines), c.text
        assert not any("Type it again" in line for line in lines), c.text
        c.send("secret1\r")
        await c.wait_for("Type it again")
        c.send("secret1\r")
        await c.wait_for("Your choice")
        assert "secret1" not in c.text
        c.close()


async def test_a_computer_player_s_handle_is_refused_before_a_password(tmp_path):
    async with running_server(f"sqlite:///{tmp_path}/g.db", bot=True) as srv:
        c = await RawCaller.connect(srv.port, term="xterm")
        await c.wait_for("Handle:")
        c.send("Beginner Bot\r")
        said = " ".join((await c.wait_words("is a computer player and cannot log in.")).split())
        assert "Password:" not in said, said
        c.close()


async def test_a_handle_held_back_by_wrong_passwords_is_said_before_a_password(tmp_path):
    """After wrong passwords, the guard's refusal came only after the right password was typed,
    and the next prompt was drawn over it at once."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("victim", "victim-pw")
    async with running_server(url, login_attempts=10) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", source="127.0.0.7")
        for _ in range(5):
            await c.wait_for("Handle:")
            c.send("victim\r")
            text = await c.wait_until(lambda t: "Password:" in t or "lately" in t, "a password prompt or the refusal")
            if "lately" in text:
                break
            c.send("wrong\r")
            await c.wait_for("Wrong handle or password.")
            c.send("\r")
            await c.wait_until(lambda t: "Wrong handle" not in t, "the handle asked again")
        said = words(c)
        assert "Too many wrong passwords for that handle lately; try again in a few minutes." in said, said
        assert "Password:" not in said, said
        c.close()


async def test_a_login_held_back_says_so_while_it_waits(tmp_path):
    """After wrong passwords from an address, a right one waited up to 30 s with nothing on the
    screen: the caller is told why."""
    service = Service(f"sqlite:///{tmp_path}/g.db")
    gateway = Gateway(service, LoginGuard(limit=5, delay=1.0), lambda game_id, version, players: None)
    told: list[str | None] = []

    async def notice(text: str | None) -> None:
        told.append(text)

    try:
        service.register("alice", "secret1")
        caller = gateway.caller("10.0.0.3", notice=notice)
        with pytest.raises(Exception, match="wrong handle or password"):
            await caller.login("alice", "wrong")
        assert told == []  # the first try from a clean address is not held
        assert (await caller.login("alice", "secret1")).handle == "alice"
        assert told == ["Checking... held 1 s after wrong passwords from your address.", None], told
    finally:
        gateway.close()
        service.close()



@pytest.mark.parametrize(("cols", "rows"), [(80, 16), (40, 10), (80, 11), (30, 20), (40, 24)])
async def test_the_main_menu_shows_every_item_and_the_prompt_on_a_short_screen(tmp_path, cols, rows):
    """At 80x16 the menu ended at M)atches: N)ews, O)ptions, Q)uit and 'Your choice' were below the
    screen (at 80x10, all but V and P).  At 30 columns the count lost its last word."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("shorty", "secret1")
    async with running_server(url) as srv:
        c = await at_the_menu(srv.port, (cols, rows), "shorty", "secret1")
        await c.settle()
        lines = within(c, cols, rows)
        for item in ("V)", "P)", "B)", "S)", "I)", "R)", "W)", "M)", "N)", "O)", "Q)"):
            assert any(item in line for line in lines), (item, lines)
        assert "No game is waiting for your move." in words(c) or "No game waits for you." in words(c), lines
        c.send("Q")
        await c.wait_for("Thanks for playing")
        c.close()


@pytest.mark.parametrize(("cols", "rows", "key"), [(40, 14, "V"), (80, 11, "M"), (80, 10, "V"), (80, 10, "M"),
                                                  (40, 12, "M"), (40, 10, "V")])
async def test_a_game_list_on_a_short_screen_shows_a_page_and_its_prompt(tmp_path, cols, rows, key):
    """On short screens V)iew and M)atches ended the call (a page held no games: ZeroDivisionError,
    IndexError) or drew the footer, the list and the prompt over each other ('1 of -23')."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        v = svc.begin_game(alice, 1, Color.WHITE, "bob")
        v = svc.roll(alice, v.id, v.version)
        v = svc.resign(bob, v.id, v.version, Win.SINGLE)
        svc.answer_resign(alice, v.id, v.version, True)
        for length in range(1, 27):
            svc.begin_game(bob, length % 9 + 1, Color.WHITE, None)
    async with running_server(url) as srv:
        c = await at_the_menu(srv.port, (cols, rows), "alice", "alice-pw")
        c.send(key)
        await c.wait_for("Game:")
        await c.settle()
        lines = within(c, cols, rows)
        assert "Game:" in lines[rows - 1], lines  # the prompt on the last row
        assert any(line.lstrip().startswith("1) #") for line in lines), lines
        assert "Q or Enter goes back." in words(c) and "-" not in re.findall(r"\(\d+ of (-?\d+)\)", words(c)), lines
        c.send("1\r")
        await c.wait_until(lambda t: "Join it?" in t or "The board needs" in t or "Step " in t, "the game picked")
        assert not c.closed
        c.close()


@pytest.mark.parametrize(("cols", "rows"), [(40, 10), (40, 12), (40, 23), (80, 20)])
async def test_the_board_s_size_question_keeps_its_keys_on_a_short_screen(tmp_path, cols, rows):
    """At 40 columns under 14 lines the question's keys ('Enter goes on anyway; Q goes back') were
    drawn below the last line, and the title lost its last word; at 40x23 it asked for 24 lines,
    which 80 columns do not need."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        svc.begin_game(alice, 3, Color.WHITE, "bob")
    async with running_server(url) as srv:
        c = await at_the_menu(srv.port, (cols, rows), "alice", "alice-pw")
        c.send("P")
        said = " ".join((await c.wait_words("Enter goes on anyway; Q goes back.")).split())
        needs = {(40, 23): "80 columns", (80, 20): "23 lines"}.get((cols, rows), "80 columns and 23 lines")
        assert f"The board needs {needs} Your" in said or f"The board needs {needs}" in said, said
        assert "24 lines" not in said and ("taller" in said) == (rows < 23), said
        c.send("x")
        await c.wait_words("X does nothing here: Enter goes on anyway, Q goes back.")
        within(c, cols, rows)
        c.send("\r")
        await c.wait_for("BAR")  # the board (at 40 columns its number takes the title's word)
        c.close()


@pytest.mark.parametrize(("cols", "rows"), [(40, 10), (80, 12), (40, 16)])
async def test_begin_keeps_the_question_asked_on_a_short_screen(tmp_path, cols, rows):
    """On short screens B)egin drew its questions below the last line (the opponent's at 40x10,
    the computer's levels and 'Level [1]:' at 80x12), and said why a length was refused on row 22."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("alice", "alice-pw")
    async with running_server(url, bot=True) as srv:
        c = await at_the_menu(srv.port, (cols, rows), "alice", "alice-pw")
        c.send("B")
        await c.wait_for("Match length")
        c.send("99\r")
        await c.wait_words("99 is not a match length: type a number from 1 to")
        # Whole: at 40 columns it had been cut after "or Enter for 3;" (where it fits, the Esc clause follows).
        await c.wait_until(lambda t: any(end in " ".join(t.split()) for end in (
            "or Enter for 3.", "or Enter for 3; Esc goes back to the menu.")), "the whole refusal")
        within(c, cols, rows)
        c.send("3\r")
        await c.wait_words("Play as W)hite")
        assert "not a match length" not in c.text
        c.send("W")
        await c.wait_words("N)amed player [O]:")
        within(c, cols, rows)
        c.send("C")
        await c.wait_for("Level [1]:")
        lines = within(c, cols, rows)
        assert any("1) Beginner" in line for line in lines), lines
        assert "So far: 3 points, White, Computer." in words(c) or "Begin a new game" in words(c), lines
        c.close()


async def test_the_menu_s_news_heading_alone_says_where_the_news_is(tmp_path):
    """At 80x16 the menu's last line read 'News (2), the latest first:' with nothing under it."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url, dice=ScriptedDice([4, 2, 4, 2])) as svc:
        bob = svc.register("bob", "bob-pw").id
        svc.register("carol", "carol-pw")
        v = svc.begin_game(bob, 3, Color.WHITE, "carol")
        v = svc.roll(bob, v.id, v.version)
        svc.submit_turn(bob, v.id, v.version, "8/4 6/4", "good luck")
    async with running_server(url) as srv:
        c = await at_the_menu(srv.port, (80, 16), "carol", "carol-pw")
        await c.settle()
        lines = within(c, 80, 16)
        assert re.search(r"News \(\d+\): N shows it\.", lines[14]), lines
        c.close()


@pytest.mark.parametrize(("cols", "rows"), [(80, 25), (40, 20), (80, 13)])
async def test_the_terminal_s_cursor_waits_after_the_menu_s_prompt(tmp_path, cols, rows):
    """Back at the main menu from a list, or with news drawn under it, the terminal's cursor was
    left where that screen or the news line ended, not after 'Your choice:'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("alice", "alice-pw")
    async with running_server(url) as srv:
        c = await at_the_menu(srv.port, (cols, rows), "alice", "alice-pw")
        c.send("P")  # no game waits: a page, and any key goes back
        await c.wait_for("Press any key")
        c.send(" ")
        await c.wait_for("Your choice")
        await c.settle()
        row = next(i for i, line in enumerate(c.lines()) if "Your choice:" in line)
        assert c.cursor() == (row, c.lines()[row].index("Your choice:") + 13), c.text
        c.close()


async def test_esc_at_the_password_goes_back_to_the_handle_and_is_no_wrong_password(tmp_path):
    """Esc at 'Password:' was checked as an empty password: 'Wrong handle or password.', and
    three of them locked the handle ('Too many wrong passwords for that handle lately')."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("carol", "carol-pw")
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", source="127.0.0.9")
        for _ in range(4):
            await c.wait_for("Handle:")
            c.send("carol\r")
            await c.wait_for("Password:")
            c.send("\x1b")
            await c.wait_until(lambda t: "Password:" not in t, "the handle asked again")
            said = words(c)
            assert "Wrong handle" not in said and "lately" not in said, said
        await menus.login(c, "carol", "carol-pw", new=False)
        c.close()


async def test_a_login_held_back_is_said_whole_at_40_columns(tmp_path):
    """'Checking... held 2 s after wrong passwo': the hold's reason was one row, cut at the edge."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("bob", "bob-pw-1")
    async with running_server(url, login_delay=1.0) as srv:  # a hold of a second or more is said
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24), source="127.0.0.11")
        await c.wait_for("Handle:")
        c.send("bob\r")
        await c.wait_for("Password:")
        c.send("wrong\r")
        await c.wait_for("Wrong handle or password.")
        c.send("bob\r")
        await c.wait_for("Password:")
        c.send("bob-pw-1\r")
        said = await c.wait_words("wrong passwords from your address.")
        assert "Checking... held" in " ".join(said.split()), said
        assert all(len(line.rstrip()) <= 40 for line in c.lines()), c.lines()
        await c.wait_for("Your choice")
        c.close()


async def test_a_handle_ending_in_a_mark_is_greeted_without_another(tmp_path):
    """'Welcome, bob!.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("bob!", "bob-pw-1")
    async with running_server(url) as srv:
        c = await at_the_menu(srv.port, (80, 25), "bob!", "bob-pw-1")
        assert "Welcome, bob! No game" in words(c) and "bob!." not in words(c), words(c)
        c.close()


async def test_a_password_typed_on_after_a_mistyped_handle_answers_no_question(tmp_path):
    """A returning player who mistyped their handle and typed their password on at once: its 'n'
    answered 'Create it? (Y/N)' before it showed, and the rest came up as the next handle, in the
    clear ('There is no player called opass-1')."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("bob", "npass-1")
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", source="127.0.0.12")
        await c.wait_for("Handle:")
        c.send("bobb\rnpass-1\r")
        await c.wait_for("Create it?")
        await c.settle()
        said = words(c)
        assert "Create it? (Y/N)" in said and "pass-1" not in said, said
        c.send("N")  # an answer typed once the question shows is taken
        await c.wait_until(lambda t: "Create it?" not in t, "the handle asked again")
        await menus.login(c, "bob", "npass-1", new=False)
        c.close()


@pytest.mark.parametrize("size", [(80, 25), (40, 24)])
async def test_esc_or_an_empty_enter_at_the_handle_says_what_to_do(tmp_path, size):
    """At the Handle: prompt Esc and an empty Enter did nothing and said nothing."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=size)
        await c.wait_for("Handle:")
        c.send("\r")
        await c.wait_words("Type a handle first, then Enter.")
        c.send("\x1b")
        await c.wait_words("Esc: nothing comes before this. Type a handle and Enter, or hang up to leave.")
        within(c, *size)
        c.send("walker\r")  # and the login goes on
        await c.wait_words("Create it?")
        c.close()


async def test_the_terminal_s_cursor_waits_at_an_empty_rank_page_s_prompt(tmp_path):
    """R)ank with nobody ranked: after a refused key the cursor stood at the end of the refusal,
    not after 'Choice:'."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("alice", "alice-pw")
    async with running_server(url) as srv:
        c = await at_the_menu(srv.port, (80, 24), "alice", "alice-pw")
        c.send("R")
        await c.wait_for("has finished a match yet")
        c.send("x")
        await c.wait_for("X is not an answer")
        await c.settle()
        row = next(i for i, line in enumerate(c.lines()) if "Choice:" in line)
        assert c.cursor() == (row, c.lines()[row].index("Choice:") + 8), c.text
        c.close()


async def test_enter_alone_at_the_password_is_no_try_and_a_full_password_says_so(tmp_path):
    """Enter alone at 'Password:' was a wrong password: four locked the player out of their own
    handle.  Past the field's 24 characters only the bell had rung."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        svc.register("alice", "alice-pw")
    async with running_server(url, login_attempts=3) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 24))
        await c.wait_for("Handle:")
        c.send("alice\r")
        await c.wait_for("Password:")
        for _ in range(4):
            c.send("\r")
            await c.wait_words("Type your password, then Enter; Esc goes back to the handle.")
            await c.settle(0.2)
        assert "Wrong handle or password" not in c.text and "Too many" not in c.text
        c.send("x" * 30)
        await c.wait_words("At most 24 characters.")  # one row at 40 columns: 'A password has ...' at 50
        c.send("\x7f" * 30 + "alice-pw\r")
        await c.wait_for("Your choice")
        c.close()


async def test_create_it_and_join_it_are_laid_out_again_when_the_window_narrows(tmp_path):
    """'Create it? (Y/N) [N]' and 'Join it? (Y/N) [Y]' stayed laid out for 80 columns when the
    window narrowed to 40: cut at the edge, and the password prompts then landed on wrong rows."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 24))
        await c.wait_for("Handle:")
        c.send("carol\r")
        await c.wait_for("Create it?")
        c.send_size(40, 24)
        await c.wait_words("There is no player called carol. Create it? (Y/N) [N]")
        await c.settle(0.3)
        assert all(len(line.rstrip()) <= 40 for line in c.lines()), c.lines()
        c.send("y")
        await c.wait_for("Choose a password:")
        c.send("carol-pw\r")
        await c.wait_for("Type it again:")
        c.send("carol-pw\r")
        await c.wait_for("Your choice")
        c.send_size(80, 24)  # room for the board
        await c.settle(0.3)
        await menus.begin(c, 1)
        d = await RawCaller.connect(srv.port, term="xterm", size=(80, 24))
        await menus.login(d, "dave", "dave-pw", new=True)
        d.send("V")
        await d.wait_for("Games in progress")
        d.send("#1\r")
        await d.wait_words("Game #1 needs a player. Join it? (Y/N) [Y]")
        d.send_size(40, 24)
        await d.settle(0.5)
        await d.wait_words("Game #1 needs a player. Join it? (Y/N) [Y]")
        assert all(len(line.rstrip()) <= 40 for line in d.lines()), d.lines()
        c.close()
        d.close()


async def test_a_full_password_is_said_clear_of_why_the_last_one_was_refused(tmp_path):
    """At 50 columns 'A password has at most 24 characters.' was written over the first line of
    'A password needs at least 4 characters. Choose another.', and 'another.' stood alone.  The
    last try's refusal now goes when the field says it is full (the two had stood together)."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(50, 20))
        await c.wait_for("Handle:")
        c.send("alice\r")
        await c.wait_for("Create it?")
        c.send("Y")
        await c.wait_for("Choose a password:")
        c.send("\r")
        await c.wait_words("A password needs at least 4 characters. Choose another.")
        c.send("x" * 30)
        await c.wait_words("A password has at most 24 characters.")
        await c.settle()
        said = " ".join(c.text.split())
        assert "at least 4" not in said and "another." not in said, c.text
        c.close()


@pytest.mark.parametrize("size", [(80, 25), (40, 24)])
async def test_an_arrow_or_f_key_in_a_typed_field_says_it_types_nothing(tmp_path, size):
    """An arrow, Tab or F-key at the handle (or any typed field) did nothing without a word: a
    caller used to moving along a line could not tell whether the key was taken."""
    cols, rows = size
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=size, glass=(100, 30))
        await c.wait_for("Handle:")
        c.send("wal")
        await c.wait_for("wal")
        c.send("\x1b[D")  # Left
        await c.wait_words("The arrow keys do nothing while you type: Backspace rubs out, Enter ends.")
        within(c, cols, rows)
        c.send("k")  # the next key is typed, and the notice goes
        await c.wait_for("walk")
        await c.settle()
        assert "arrow keys" not in words(c)
        c.send("\x1bOP")  # F1
        await c.wait_words("F1 does nothing while you type")
        c.send("\t")
        await c.wait_words("Tab does nothing while you type")
        c.send("er\r")
        await c.wait_words("Create it?")
        assert "walker" in words(c)


async def test_sign_up_s_password_refusals_do_not_stand_together_and_esc_is_said(tmp_path):
    """'A password needs at least 4 characters' stayed under 'A password has at most 24
    characters' once the next try was typed full; and Esc at 'Type it again:' went back to an
    empty 'Handle:' without a word, where a No to 'Create it?' says the handle was not created."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(80, 25))
        await c.wait_for("Handle:")
        c.send("walker\r")
        await c.wait_words("Create it?")
        c.send("Y")
        await c.wait_for("Choose a")
        c.send("\r")
        await c.wait_words("A password needs at least 4 characters.")
        c.send("p" * 30)
        await c.wait_words("A password has at most 24 characters.")
        await c.settle()
        assert "at least 4" not in words(c)
        c.send("\r")
        await c.wait_for("Type it again")
        c.send("\x1b")
        await c.wait_words("No: walker was not created. Type a handle, then Enter.")
        assert "Handle:" in c.text
