"""What a play-tester met on the menu-side pages: the answer a key gave, shown; a field that
refuses what is no answer as it is typed; O)ptions' sample in the theme's colours; who won a
finished match."""

from __future__ import annotations

import menus
import pytest
from harness import call, running_server
from rawtelnet import RawCaller

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service
from bgdoor.term.charset import glyphs
from bgdoor.term.screen import Attr
from bgdoor.ui.board import THEME_CHOICES, theme

pytestmark = pytest.mark.timeout(120)

PYTE_COLOURS = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]


def words(c: RawCaller) -> str:
    return " ".join(" ".join(c.lines()).split())


def within(c: RawCaller, cols: int) -> list[str]:
    lines = [line.rstrip() for line in c.lines()]
    assert all(len(line) <= cols for line in lines), lines
    return lines


@pytest.mark.parametrize("size", [(80, 25), (40, 24)])
async def test_the_answer_to_create_it_is_shown(tmp_path, size):
    """'Create it? (Y/N) [N]': a Y left the line blank after [N], and Enter means No there, so
    nothing showed which was taken.  Y shows Yes; N and Enter say No, and that nothing was made."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=size)
        for key in ("N", "\r"):
            await c.wait_for("Handle:")
            c.send("erin\r")
            await c.wait_for("Create it?")
            c.send(key)
            await c.wait_words("erin was not created.")
            said = words(c)
            assert "No: erin was not created. Type a handle, then Enter." in said, said
            assert "Create it?" not in said, said
            within(c, size[0])
        c.send("erin\r")
        await c.wait_for("Create it?")
        c.send("Y")
        await c.wait_words("Choose a password")
        said = words(c)
        assert "There is no player called erin. Create it? (Y/N) [N] Yes Choose a password:" in said, said
        assert "not created" not in said, said
        within(c, size[0])
        c.send("erin-pw\r")
        await c.wait_for("Type it again")
        c.send("erin-pw\r")
        await c.wait_for("Your choice")
        c.close()


@pytest.mark.parametrize("size", [(80, 25), (40, 24)])
async def test_the_match_length_refuses_a_letter_as_it_is_typed(tmp_path, size):
    """'a b c' in the match length was taken as 'ab' (then 'A match length has at most two
    digits'), refused only at Enter: a key that is no digit is not taken, and the screen says why."""
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=size)
        await menus.login(c, "alice", "alice-pw", new=True)
        c.send("B")
        await c.wait_for("Match length")
        c.send("a")
        await c.wait_words("A match length is a number, 1 to 25: a is not a digit.")
        assert "[3]: a" not in words(c), words(c)
        c.send(" ")
        await c.wait_words("A match length is a number, 1 to 25: a space is not a digit.")
        c.send("b")
        await c.wait_words("b is not a digit.")
        within(c, size[0])
        c.send("7")  # a digit is taken, and the reason goes
        await c.wait_until(lambda t: "not a digit" not in t, "the reason gone")
        assert "Match length, 1 to 25 points [3]: 7" in words(c), words(c)
        c.send("x")
        await c.wait_words("x is not a digit.")
        c.send("\x7f")  # a backspace takes the reason back with the 7
        await c.wait_until(lambda t: "not a digit" not in t, "the reason gone")
        c.send("12\r")
        await c.wait_for("R)andom")
        assert "Match length, 1 to 25 points [3]: 12" in words(c), words(c)
        c.close()


def pyte_attr(attr: Attr) -> tuple[str, str, bool]:
    return ("default" if attr.fg is None else PYTE_COLOURS[attr.fg],
            "default" if attr.bg is None else PYTE_COLOURS[attr.bg], attr.bold)


@pytest.mark.parametrize(("term", "charset"), [("xterm", "utf8"), ("ansi", "cp437")])
async def test_the_options_sample_is_drawn_in_the_theme_chosen(tmp_path, term, charset):
    """O)ptions' T went round the themes while 'Sample: ╔═══╗ ○ ● ◄•+' stayed in the same plain
    colours: nothing showed what a theme looked like.  It is drawn as the board draws its frame,
    checkers (on the board's ground) and marks, in the theme's colours."""
    g = glyphs(charset)
    sample = f"{g.tl}{g.h * 3}{g.tr} {g.white} {g.black} {g.cursor}{g.source}{g.dest}"
    async with running_server(f"sqlite:///{tmp_path}/g.db") as srv:
        c = await call(srv.port, term=term, charset=charset)
        await menus.login(c, "alice", "alice-pw", new=True)
        c.send("O")
        seen: dict[str, list[tuple[str, str, bool]]] = {}
        for name in THEME_CHOICES:
            if seen:
                c.send("T")
            await c.wait_for(f"Colour theme: {name} ")
            await c.settle(0.2)
            row = next(r for r, line in enumerate(c.screen.display) if "Sample:" in line)
            col = c.screen.display[row].index(sample)
            cells = [c.screen.buffer[row][col + i] for i in range(len(sample))]
            assert "".join(cell.data for cell in cells) == sample
            t = theme(name)
            want = [t.frame] * 5 + [t.board, t.white, t.board, t.black, t.board, t.cursor, t.source, t.dest]
            # A space shows its ground alone: the screen may leave its colour as it was.
            seen[name] = [(cell.fg, cell.bg, cell.bold) if cell.data != " " else cell.bg for cell in cells]
            wanted = [pyte_attr(a) if ch != " " else pyte_attr(a)[1] for ch, a in zip(sample, want, strict=True)]
            assert seen[name] == wanted, name
        assert len({tuple(cells) for cells in seen.values()}) == len(THEME_CHOICES), seen
        c.close()


def won_and_lost(url: str) -> None:
    """Two 1-point matches of carol's against dave: #1 she won (dave resigned), #2 she lost."""
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        carol = svc.register("carol", "carol-pw").id
        dave = svc.register("dave", "dave-pw").id
        for first, second in ((carol, dave), (dave, carol)):
            view = svc.begin_game(first, 1, Color.WHITE, "dave" if first == carol else "carol")
            view = svc.roll(first, view.id, view.version)
            view = svc.resign(second, view.id, view.version, Win.SINGLE)
            svc.answer_resign(first, view.id, view.version, True)


@pytest.mark.parametrize("size", [(80, 25), (60, 25), (40, 24)])
async def test_the_finished_matches_say_who_won(tmp_path, size):
    """M)atches listed '1) #1 carol dave 1-0/1 12-07 06:12': who won was left to be read from the
    score as White's and Black's.  Each says the player's result, in one line at 80 columns and
    in the two a narrow screen gives a match."""
    url = f"sqlite:///{tmp_path}/g.db"
    won_and_lost(url)
    async with running_server(url) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=size)
        await menus.login(c, "carol", "carol-pw", new=False)
        c.send("M")
        await c.wait_for("Game:")
        lines = within(c, size[0] - 1)
        head = next(line for line in lines if "Game" in line and "Score" in line)
        assert "You" in head, lines
        entries = {line.split()[1]: line for line in lines if line.strip().startswith(("1)", "2)"))}
        assert entries["#1"].split()[-3] == "won", lines
        assert entries["#2"].split()[-3] == "lost", lines
        # Under the heading, as the date is under its own.
        assert head.index("You") == entries["#1"].index("won") == entries["#2"].index("lost"), lines
        assert head.index("Last change") == entries["#1"].index(entries["#1"].split()[-2]), lines
        if size[0] < 58:
            assert any(line.strip() == "carol v dave" for line in lines), lines  # two lines each, still
        c.close()
