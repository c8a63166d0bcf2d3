"""What a play-tester met on the menus: the games list, a notice beside the menu's prompt, W)ho,
O)ptions, the login and the instructions at 40 columns."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from harness import Caller, call, login, running_server
from menus import begin
from rawtelnet import RawCaller

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service
from bgdoor.ui.texts import load_text

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parent.parent


def words(text: str) -> str:
    return " ".join(text.split())


async def withdraw(c) -> None:
    """From the board of a game nobody has rolled in, W)ithdraw it; back at the menu."""
    c.send("W")
    await c.wait_for("(Y/N)")
    c.send("Y")
    await c.wait_words("is withdrawn.")


async def carl_viewing_two_open_games(port: int) -> tuple[Caller, Caller, Caller, Caller]:
    """bob and zed each begin a game with an open seat (#1, #2); amy logs in; carl's V)iew lists
    both.  (bob, zed, amy, carl)"""
    bob = await call(port)
    await login(bob, "bob", "bob-pw", new=True)
    await begin(bob, 3)  # game #1, an open seat
    zed = await call(port)
    await login(zed, "zed", "zed-pw", new=True)
    await begin(zed, 3)  # game #2
    amy = await call(port)
    await login(amy, "amy", "amy-pw", new=True)
    carl = await call(port)
    await login(carl, "carl", "carl-pw", new=True)
    carl.send("V")
    await carl.wait_until(lambda t: "#2" in t and "#1" in t, "both games listed")
    return bob, zed, amy, carl


async def test_the_games_list_follows_the_games_and_reads_a_game_again_before_asking_to_join(tmp_path):
    """carl's V)iew list was drawn once: a game withdrawn meanwhile was asked 'Join it?', and only
    after Y said to be gone; a game begun meanwhile was not shown, and '#3' was refused as 'not
    in this list'."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob, zed, amy, carl = await carl_viewing_two_open_games(srv.port)

        # zed withdraws #2: carl's list drops it with no key pressed.
        await withdraw(zed)
        await carl.wait_until(lambda t: ") #2" not in t and " 1) #1" in t and "Game #2 left this list." in t,
                              "the list without #2, saying so")

        # amy begins #3 while carl types a game number: '#3' opens it (not 'not in this list').
        carl.send("#")
        await carl.wait_for("Game: #")
        await begin(amy, 3)
        carl.send("3\r")
        await carl.wait_for("Game #3 needs a player. Join it? (Y/N)")
        carl.send("N")
        await carl.wait_until(lambda t: "#3" in t and "#1" in t and "Join it?" not in t, "the list again")

        # carl types line 1 (bob's #1); bob withdraws it before the Enter: said at once, over the
        # list as it is now, with no 'Join it?' first.
        line_one = next(line for line in carl.text.splitlines() if " 1) #" in line)
        assert "#1" in line_one, carl.text
        carl.send("1")
        await carl.wait_for("Game: 1")
        await withdraw(bob)
        await carl.settle(0.5)
        carl.send("\r")
        text = await carl.wait_words("Game #1 left this list.")
        assert "Join it?" not in text and "#1 " not in text.replace("Game #1 left", ""), text
        assert " 1) #3" in text, text
        for c in (bob, zed, amy, carl):
            c.close()


async def test_join_it_goes_when_the_seat_is_taken_or_the_game_withdrawn_meanwhile(tmp_path):
    """'Join it?' stayed up while someone else sat down (or the game was withdrawn), and only a Y
    said so: now the question gives way at once to the list as it is, saying what became of it."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob, zed, amy, carl = await carl_viewing_two_open_games(srv.port)
        carl.send("#1\r")
        await carl.wait_for("Game #1 needs a player. Join it? (Y/N)")
        amy.send("V")
        await amy.wait_until(lambda t: "#2" in t and "#1" in t, "both games listed")
        amy.send("#1\r")
        await amy.wait_for("Game #1 needs a player. Join it? (Y/N)")
        amy.send("Y")
        await amy.wait_words("You joined game #1")
        text = await carl.wait_words("Game #1: someone else took that seat first.")
        assert "Join it?" not in text, text

        carl.send("#2\r")
        await carl.wait_for("Game #2 needs a player. Join it? (Y/N)")
        await withdraw(zed)
        text = await carl.wait_words("Game #2 is no longer there: withdrawn, or removed by the sysop.")
        assert "Join it?" not in text, text
        for c in (bob, zed, amy, carl):
            c.close()


@pytest.mark.parametrize("size", [(80, 24), (40, 24)])
async def test_a_refused_answer_goes_when_a_game_is_picked(tmp_path, size):
    """'No line 5 here; a game number starts with #.' stood over 'Game #1 needs a player. Join it?'
    after #1 was typed."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        await begin(bob, 3)
        carl = await call(srv.port, cols=size[0], rows=size[1])
        await login(carl, "carl", "carl-pw", new=True)
        carl.send("V")
        await carl.wait_for("#1")
        carl.send("5\r")
        await carl.wait_words("No line 5 here")
        carl.send("#1\r")
        said = words(await carl.wait_words("Join it? (Y/N)"))
        assert "No line 5" not in said, said
        bob.close()
        carl.close()


async def test_a_notice_under_the_menu_prompt_goes_when_news_redraws_the_menu(tmp_path):
    """'Game #1 is withdrawn.' stood by zed's prompt minutes later, after the menu had been
    redrawn for a new match and its news."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        zed = await call(srv.port)
        await login(zed, "zed", "zed-pw", new=True)
        await begin(zed, 3)
        await withdraw(zed)
        await zed.settle(1.0)  # the withdrawal's own wake redraws the menu: the notice stays for it
        lines = [line.strip() for line in zed.screen.display]
        prompt = next(i for i, line in enumerate(lines) if line.startswith("Your choice:"))
        # Under the prompt, not beside it, where it read as an answer typed.
        assert lines[prompt] == "Your choice:" and lines[prompt + 1] == "Game #1 is withdrawn.", zed.text
        amy = await call(srv.port)
        await login(amy, "amy", "amy-pw", new=True)
        await begin(amy, 3, opponent="zed")
        text = await zed.wait_for("1 game waiting for your move")
        await zed.settle(0.5)
        assert "is withdrawn" not in zed.text, text
        assert "amy" in zed.text, zed.text  # the news that redrew it
        zed.close()
        amy.close()


def finished_match(url: str) -> None:
    """alice and bob: a 1-point match, game #1, that bob resigned and alice won."""
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.resign(svc.login("bob", "bob-pw").id, view.id, view.version, Win.SINGLE)
        svc.answer_resign(alice, view.id, view.version, True)


async def test_who_says_what_a_caller_does_on_each_menu_page(tmp_path):
    """W)ho said 'at the menu' of a caller reviewing a match from M)atches, reading the
    instructions, or on R)ank, N)ews or O)ptions."""
    url = f"sqlite:///{tmp_path}/g.db"
    finished_match(url)
    async with running_server(url) as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=False)
        carl = await RawCaller.connect(srv.port, term="xterm", size=(40, 25))
        await login(carl, "carl", "carl-pw", new=True)
        carl.send("W")
        await carl.wait_for("Enter looks again")

        async def who_says(doing: str) -> None:
            for _ in range(40):
                lines = [line.rstrip() for line in carl.lines()]
                if any(line.endswith(doing) for line in lines):
                    assert all(len(line) <= 39 for line in lines), carl.text
                    return
                carl.send("\r")
                await asyncio.sleep(0.25)
                await carl.settle(0.1)
            raise AssertionError(f"W)ho never said {doing!r}:\n{carl.text}")

        alice.send("M")
        await alice.wait_for("Game:")
        alice.send("1\r")
        await alice.wait_for("win the match")
        await who_says("reviewing game #1")
        alice.send("Q")
        await alice.wait_for("Your finished matches")
        await who_says("looking at past matches")
        for key, page, doing in (("I", "INSTRUCTIONS", "reading the instructions"),
                                 ("R", "Rank ", "looking at the ranks"),
                                 ("N", "News from your games", "reading the news"),
                                 ("O", "Colour theme", "choosing options")):
            alice.send("Q")
            await alice.wait_for("Your choice")
            await who_says("at the menu")
            alice.send(key)
            await alice.wait_for(page)
            await who_says(doing)
        alice.close()
        carl.close()


async def test_options_are_described_as_the_options_screen_offers_them(tmp_path):
    """The menu said 'colours, character set and notes', the instructions 'colour theme,
    character set, board and notes', and the README '(T, C and B change them)' over a screen that
    offered N as well."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=True)
        menu = next(line.strip() for line in c.text.splitlines() if "O)ptions" in line)
        assert menu == "O)ptions: colour theme, character set, board and notes", menu
        c.send("O")
        await c.wait_for("Q or Enter goes back")
        keys = re.findall(r"\((\w) changes it", c.text)
        assert keys == ["T", "C", "B", "N"], c.text
        c.close()
        narrow = await RawCaller.connect(srv.port, term="xterm", size=(40, 25))
        await login(narrow, "alice", "alice-pw", new=False)
        assert all(len(line.rstrip()) <= 39 for line in narrow.lines()), narrow.text
        assert "O)ptions" in narrow.text
        narrow.close()
    offered = menu.split(": ", 1)[1]
    instructions = next(line for line in load_text("instructions").splitlines() if "O)ptions  " in line)
    assert instructions.split()[1:] == offered.split(), instructions
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"The options \(([^;)]*) change them", readme)
    assert said is not None and said.group(1) == "T, C, B and N", said


async def test_the_login_says_the_handle_limit_at_40_columns_and_why_a_17th_character_is_refused(tmp_path):
    """At 40 columns the login left out '(up to 16 characters)', and the 17th character typed got
    only a bell."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 25))
        await c.wait_for("Handle:")
        await c.settle(0.3)
        assert "Enter your handle, or a new one (2 to 16 characters) to create a player." in words(c.text), c.text
        assert all(len(line.rstrip()) <= 39 for line in c.lines()), c.text
        c.send("abcdefghijklmnop")
        await c.wait_for("abcdefghijklmnop")
        await c.settle(0.3)
        assert "at most" not in c.text
        c.send("q")
        await c.wait_words("A handle has at most 16 characters.")
        assert "abcdefghijklmnopq" not in c.text
        c.send("\x7f")  # backspace: the reason goes with the character it was about
        await c.wait_until(lambda t: "at most" not in t, "the reason gone")
        c.send("x\r")
        await c.wait_for("Create it?")
        c.close()


async def test_the_instructions_title_is_one_line_at_50_columns(tmp_path):
    """At 50 columns the title, set in for 80, broke: 'BGDOOR BACKGAMMON -' over 'INSTRUCTIONS'."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(50, 25), glass=(50, 25))
        await login(c, "alice", "alice-pw", new=True)
        c.send("I")
        await c.wait_for("INSTRUCTIONS")
        assert any(line.strip() == "BGDOOR BACKGAMMON - INSTRUCTIONS" for line in c.lines()), c.lines()
        c.close()


async def test_the_instructions_at_40_columns_keep_their_lines_and_their_lists_column(tmp_path):
    """At 40 columns 'Enter (or 5) picks up ...' ran on at the end of the paragraph before it
    ('as the table stands). Enter (or 5)'), where at 80 it starts a line; and 'T)ake or X) drop'
    went on at column 8 where every entry around it goes on at 10."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=(40, 25))
        await login(c, "alice", "alice-pw", new=True)
        c.send("I")
        await c.wait_for("INSTRUCTIONS")
        seen: list[str] = []
        for _ in range(12):
            await c.settle(0.2)
            page = [line.rstrip() for line in c.lines()]
            seen += page[:-2]
            if any(line.startswith("  T)ake") for line in page):
                break
            c.send(" ")
            await c.wait_until(lambda t, before=c.text: t != before, "the next page")
        assert any(line.startswith("  Enter (or 5) picks") for line in seen), "\n".join(seen)
        assert not any(line.endswith("Enter (or 5)") for line in seen), "\n".join(seen)
        take = next(i for i, line in enumerate(seen) if line.startswith("  T)ake"))
        assert seen[take + 1] == "          opponent's double.", seen[take : take + 2]
        c.close()


async def test_the_empty_games_list_follows_the_games_too(tmp_path):
    """'No games are in progress. B)egin one!' stayed while a game was begun; V again showed it."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        bob.send("V")
        await bob.wait_words("No games are in progress. B)egin one!")
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await begin(alice, 3)
        await bob.wait_words("alice")  # the game begun, on the list
        assert "No games are in progress" not in words(bob.text), bob.text
        alice.close()
        bob.close()


async def test_join_it_is_not_drawn_over_the_lists_note_at_40_columns(tmp_path):
    """At 40 columns 'Game #1 is no longer there: ...' took the two rows under the prompt, and the
    next game's 'Join it? (Y/N)' was drawn over it: '(Y/N)#1 is no longer there:'."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        await begin(bob, 3)  # game #1, an open seat
        amy = await call(srv.port)
        await login(amy, "amy", "amy-pw", new=True)
        await begin(amy, 3)  # game #2
        carl = await call(srv.port, cols=40, rows=24)
        await login(carl, "carl", "carl-pw", new=True)
        carl.send("V")
        await carl.wait_until(lambda t: "#2" in t and "#1" in t, "both games listed")
        line = next(n for n in ("1", "2") if f" {n}) #1" in carl.text)
        carl.send(line)
        await carl.wait_for(f"Game: {line}")
        await withdraw(bob)
        await carl.settle(0.5)
        carl.send("\r")
        await carl.wait_words("Game #1 left this list.")
        carl.send("1\r")  # the list has only #2 now
        await carl.wait_words("Game #2 needs a player. Join it? (Y/N)")
        await carl.settle(0.2)
        assert "left this list" not in words(carl.text), carl.text
        for c in (bob, amy, carl):
            c.close()


async def test_the_goodbye_says_games_wait_only_to_a_player_with_games(tmp_path):
    """'Your games wait for you; come back soon.' was said to a player with no game at all."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        dora = await call(srv.port)
        await login(dora, "dora", "dora-pw", new=True)
        dora.send("Q")
        await dora.wait_words("Thanks for playing bgdoor backgammon.")
        await dora.wait_words("Come back soon.")
        assert "Your games wait" not in words(dora.text)
        dora.close()
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=True)
        await begin(bob, 3)
        bob.send("Q")
        await bob.wait_for("Your choice")
        bob.send("Q")
        await bob.wait_words("Your games wait for you; come back soon.")
        bob.close()


async def test_q_and_esc_go_back_from_a_list_with_a_number_half_typed(tmp_path):
    """V, 5, then Q: 'Q: type a number and Enter, or Q.' (the key refused named as the answer), and
    Esc the same (and R)ank's 'Rank: 1', the same prompt).  Only Backspace to an empty field let
    them go back."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        bob, zed, amy, carl = await carl_viewing_two_open_games(srv.port)
        for keys in ("5Q", "5\x1b", "#1q"):
            carl.send(keys)
            await carl.wait_for("Your choice")
            assert "not an answer" not in carl.text and "type a number" not in carl.text, carl.text
            carl.send("V")
            await carl.wait_until(lambda t: "#2" in t and "#1" in t, "both games listed")
        for c in (bob, zed, amy, carl):
            c.close()


async def test_the_menus_news_count_says_when_older_games_have_news_too(tmp_path):
    """Sixteen games with news: the menu read the twelve latest and said 'News (19)', while N)ews
    listed 25."""
    url = f"sqlite:///{tmp_path}/g.db"
    with Service(url) as svc:
        carol = svc.register("carol", "carol-pw").id
        svc.register("bob", "bob-pw")
        for _ in range(13):
            svc.begin_game(carol, 1, Color.WHITE, "bob")
    async with running_server(url) as srv:
        bob = await call(srv.port, cols=80, rows=25)
        await login(bob, "bob", "bob-pw", new=False)
        await bob.wait_words("News (12+), the latest first:")
        bob.send("N")
        said = " ".join((await bob.wait_for("carol began")).split())
        assert "carol began" in said
        bob.close()
