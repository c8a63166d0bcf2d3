"""Text that fits: every screen and message at 80x25, 80x24 and 60x24.

A telnet caller tells the server its size by NAWS and watches through a pyte screen larger
than that ("the glass"), so anything drawn past the told width or height shows up there.  On
every screen: nothing beyond the told size, and every word of the screen's source text appears
whole.  The game screen's messages and help lines (recorded as the screens draw them during a
whole match) and the news told of that match are rendered again at each size.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import running_server
from menus import open_game
from rawtelnet import RawCaller, login

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Phase, Win
from bgdoor.rules.position import Position
from bgdoor.service import Service
from bgdoor.term.keys import Key
from bgdoor.term.wrap import wrap
from bgdoor.ui import board as boardmod
from bgdoor.ui.console import Console
from bgdoor.ui.game import GameScreen
from bgdoor.ui.keys import State
from bgdoor.ui.news import narrate
from bgdoor.ui.review import help_page
from bgdoor.ui.texts import load_text

SIZES = [(80, 25), (80, 24), (60, 24)]
# No computer player is listed, so no legend for the '*' that marks one.
RANK_HELP = "Type a rank and Enter for that player's page.  Q or Enter goes back."
BEGIN_HELP = "Every question has a default in [brackets]; Enter accepts it. Esc goes back to the menu."
WIDER = "Make the window wider if you can: the board follows at once."
GLASS = (100, 30)
ALICE, BOB = "Longhandle_Alice", "Bartholomew_Bob1"  # 16 characters, the longest a handle may be
PASSWORD = "pass-word"


def overflow(caller: RawCaller) -> list[str]:
    """What the screen shows outside the caller's told size."""
    cols, rows = caller.size
    out = []
    for r, line in enumerate(caller.lines(), 1):
        if r > rows and line.strip():
            out.append(f"line {r}, below the {rows} lines: {line.rstrip()!r}")
        elif line[cols:].strip():
            out.append(f"line {r} runs past column {cols}: {line.rstrip()!r}")
    return out


def clipped(caller: RawCaller) -> list[str]:
    """Lines that reach the last column: text wraps one short of it, so such a line was cut off
    at the edge (the screen never writes past it, so a cut shows only here)."""
    cols, rows = caller.size
    return [f"line {r} touches column {cols}: {line.rstrip()!r}"
            for r, line in enumerate(caller.lines()[:rows], 1) if line[cols - 1 : cols].strip()]


def missing_words(caller: RawCaller, *sources: str) -> list[str]:
    tokens = set(" ".join(caller.lines()).split())
    return [w for source in sources for w in source.split() if w not in tokens]


async def shows(caller: RawCaller, needle: str, *sources: str) -> None:
    """Wait for `needle`, let the screen settle, then check it fits and shows `sources` whole."""
    await caller.wait_for(needle)
    await caller.settle(0.3)
    text = caller.text
    assert not overflow(caller), f"{caller.size}: {overflow(caller)}\n{text}"
    assert not clipped(caller), f"{caller.size}: {clipped(caller)}\n{text}"
    cut = missing_words(caller, *sources)
    assert not cut, f"{caller.size}: cut words {cut}\n{text}"


def fits_on_board(text: str, cols: int, *, help_line: bool = False, under: str | None = None) -> list[str]:
    """`text` drawn as the board's message (in its three lines, or over the help `under`, whose
    free rows it may take) or help line at `cols` columns: the problems, if any."""
    if help_line:
        view = boardmod.BoardView(position=Position.start(), help=text, width=cols)
        where = range(boardmod.HELP_ROW, boardmod.HELP_ROW + 2)
    else:
        view = boardmod.BoardView(position=Position.start(), message=text, help=under or "", width=cols)
        rows = 3 if under is None else boardmod.message_rows(under, cols)
        where = range(boardmod.MESSAGE_ROW - 1, boardmod.MESSAGE_ROW - 1 + rows)
    canvas = boardmod.render_board(view, "utf8")
    rows = [canvas.row_text(r) for r in where]
    problems = [f"past column {cols}: {row!r}" for row in rows if row[cols:].strip()]
    tokens = set(" ".join(row[:cols] for row in rows).split())
    problems += [f"word cut or lost: {w!r}" for w in text.split() if w not in tokens]
    return problems


@pytest.fixture
def world(tmp_path: Path) -> tuple[str, int]:
    """Two players with the longest handles, a finished match between them, an open game."""
    url = f"sqlite:///{tmp_path / 'bg.db'}"
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register(ALICE, PASSWORD).id
        bob = svc.register(BOB, PASSWORD).id
        view = svc.begin_game(alice, 1, Color.WHITE, BOB)
        view = svc.roll(alice, view.id, view.version)
        mover = alice if view.state.turn is Color.WHITE else bob
        view = svc.submit_turn(mover, view.id, view.version, str(view.state.plays()[0]))
        other = bob if mover == alice else alice
        view = svc.resign(other, view.id, view.version, Win.GAMMON)
        svc.answer_resign(mover, view.id, view.version, True)
        open_game = svc.begin_game(bob, 5, Color.BLACK).id
    return url, open_game


@pytest.mark.parametrize("size", SIZES, ids=[f"{c}x{r}" for c, r in SIZES])
async def test_every_screen_fits(
    world: tuple[str, int], size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, open_game = world
    cols, rows = size
    drawn: list[tuple[str, str]] = []
    show_board = Console.show_board

    def recording(self: Console, view: boardmod.BoardView) -> None:
        drawn.append((view.message or "", view.help or ""))
        show_board(self, view)

    monkeypatch.setattr(Console, "show_board", recording)
    async with running_server(url, bot=True) as srv:
        c = await RawCaller.connect(srv.port, term="xterm", size=size, glass=GLASS)
        try:
            await shows(c, "Handle:", "Enter your handle, or a new one to create a player.")
            c.send("x\r")
            await shows(c, "Try another.", "A handle is 2 to 16 characters long. Try another.")
            c.send("Nobody_Here_Yet1\r")
            await shows(c, "Create it?", "There is no player called Nobody_Here_Yet1. Create it? (Y/N)")
            c.send("N")
            await c.wait_for("Handle:")
            c.send(ALICE + "\r")
            await c.wait_for("Password:")
            c.send(PASSWORD + "\r")
            menu = ["View games in progress, or join one that needs a player", "Play a game where it is your turn",
                    "Begin a new game", "Instructions", "Rank the top players", "Who's online, on every node and board",
                    "Options: colour theme, character set, board and notes"]
            await shows(c, "Your choice", f"Welcome, {ALICE}.", *(f"{m[0]}){m[1:]}" for m in menu))

            # Instructions, page by page: together they show every word of the text.
            c.send("I")
            seen: list[str] = []
            for page in range(1, 21):
                await c.wait_for(f"Page {page} of")
                await c.settle(0.3)
                assert not overflow(c) and not clipped(c), (overflow(c), clipped(c))
                seen += " ".join(c.lines()).split()
                if f"Page {page} of {page}." in c.text:
                    break
                c.send(" ")
            text = load_text("instructions")
            assert [w for w in text.split() if w not in set(seen)] == []
            c.send("\r")

            await c.wait_for("Your choice")
            c.send("R")
            await shows(c, "Rank:", ALICE, BOB, RANK_HELP)
            assert "computer player" not in c.text
            # The gammons column is headed in a word a player reads (it said 'Gams'), over its numbers.
            head = next(line for line in c.lines() if line.lstrip().startswith("Rank  Player"))
            ranked = next(line for line in c.lines() if line.lstrip().startswith("1.  "))
            assert "Gammons" in head.split() and "Gams" not in head, head
            assert "Board" not in head and " here " not in c.text, c.text
            end = head.index("Gammons") + len("Gammons")
            assert ranked[end - 1].isdigit() and not ranked[end:end + 1].strip(), (head, ranked)
            c.send("1\r")
            await shows(c, "Rating history", "Press any key to go back.")
            c.send(" ")
            await c.wait_for("Rank:")
            c.send("Q")

            await c.wait_for("Your choice")
            c.send("W")
            # No member BBS: no Board column ('here' had stood on every row).
            await shows(c, "Who's online: 1 caller", "Player Doing", ALICE, "looking at who's online",
                        "Enter looks again; Q goes back.")
            assert "Board" not in c.text and "here" not in c.text, c.text
            c.send("Q")

            await c.wait_for("Your choice")
            c.send("O")
            await shows(c, "Character set: automatic", "Automatic means the character set your terminal asks for; "
                        "choose another if the sample looks wrong.", "Notes from opponents: shown   (N changes it)",
                        "Q or Enter goes back.")
            c.send("Q")

            await c.wait_for("Your choice")
            c.send("W")
            await shows(c, "Enter looks again", "Who's online:", ALICE, "looking at who's online",
                        "Enter looks again; Q goes back.")
            c.send("Q")

            await c.wait_for("Your choice")
            c.send("B")
            await shows(c, "Match length", BEGIN_HELP)
            c.send("\r")
            await shows(c, "Play as W)hite, B)lack or R)andom [R]:")
            c.send("W")
            await shows(c, "Opponent:", "Opponent: O)pen seat, C)omputer, or N)amed player [O]:")
            c.send("C")
            await shows(c, "Level [1]:")
            c.send("\x1b")

            await c.wait_for("Your choice")
            c.send("V")
            await shows(c, "Game:", "Type a line number or a game number", "and Enter.", "Q or Enter goes back.", BOB)
            c.send("x")  # not an answer: the list says what is
            await shows(c, "is not an answer", "X is not an answer: a number and Enter, or Q.")
            c.send(f"#{open_game}\r")
            await shows(c, "Join it?", f"Game #{open_game} needs a player. Join it? (Y/N)")
            c.send("N")  # not now: back to the list
            await shows(c, "Game:", "Type a line number or a game number", "and Enter.", "Q or Enter goes back.", BOB)
            c.send(f"#{open_game}\r")
            await c.wait_for("Join it?")
            c.send("Y")
            if cols < 80:
                await shows(c, "needs 80 columns", f"Your terminal shows {cols} columns and {rows} lines,",
                            WIDER, "Enter goes on anyway; Q goes back.")
                c.send("\r")
            await c.wait_for("roll for who starts")
            await c.settle(0.3)
            assert not overflow(c), overflow(c)
            message, help_line = drawn[-1]
            assert not missing_words(c, message, help_line), (message, help_line, c.text)
            c.send("Q")
            await c.wait_for("Your choice")
            c.send("Q")
            await shows(c, "Thanks for playing", "Your games wait for you; come back soon.")
        finally:
            c.close()


async def test_a_whole_match_at_60_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two callers on 60x24 terminals play a match to its end; every screen fits, and every
    message and help line the game screen drew, and all the match's news, fit each size whole."""
    url = f"sqlite:///{tmp_path / 'bg.db'}"
    messages: set[tuple[str, str]] = set()  # each with the help it was drawn over
    helps: set[str] = set()
    show_board = Console.show_board

    def recording(self: Console, view: boardmod.BoardView) -> None:
        messages.add((view.message or "", view.help or ""))
        helps.add(view.help or "")
        show_board(self, view)

    monkeypatch.setattr(Console, "show_board", recording)
    rng = random.Random(4)
    db = Service(url)
    try:
        async with running_server(url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(2000)])) as srv:
            callers: dict[str, RawCaller] = {}
            for name in (ALICE, BOB):
                c = callers[name] = await RawCaller.connect(srv.port, term="xterm", size=(60, 24), glass=GLASS)
                await login(c, name, PASSWORD, new=True)
            alice, bob = callers[ALICE], callers[BOB]
            alice.send("B")
            await alice.wait_for("Match length")
            alice.send("1\r")
            await alice.wait_for("Play as")
            assert "Match length, 1 to 25 points [3]: 1 " in alice.text  # the answer right after its prompt
            alice.send("W")
            await alice.wait_for("Opponent")
            alice.send("N")
            await alice.wait_for("Opponent's handle")
            alice.send(BOB + "\r")
            await alice.wait_for("needs 80 columns")
            alice.send("\r")
            game_id = db.games_in_progress()[0].id
            await open_game(bob, expect="needs 80 columns")
            bob.send("\r")
            who = {Color.WHITE: alice, Color.BLACK: bob}

            def version() -> int:
                return db.game_version(game_id)

            async def after(old: int) -> None:
                for _ in range(600):
                    if version() > old:
                        return
                    await asyncio.sleep(0.02)
                raise AssertionError("the game did not move on")

            async def act(caller: RawCaller, keys: str, ready: Callable[[str], bool] = lambda t: True) -> None:
                old = version()
                await caller.wait_until(ready, "the screen to be ready")
                caller.send(keys)
                await after(old)

            for _ in range(400):
                st = db.game(game_id).state
                if st.over:
                    break
                if st.phase is Phase.OPENING:
                    await act(alice, "P")
                elif st.phase is Phase.ROLL:
                    assert st.actor is not None
                    await act(who[st.actor], "P")
                elif st.phase is Phase.MOVE:
                    assert st.actor is not None
                    caller = who[st.actor]
                    plays = st.plays()
                    if len(plays) > 1:
                        caller.send("M")
                        await caller.wait_for("Your play")
                        await act(caller, str(plays[0]) + "\r")
                    else:
                        await act(caller, "\r")
                else:
                    raise AssertionError(f"unexpected phase {st.phase}")
                for c in (alice, bob):
                    await c.settle(0.1)
                    assert not overflow(c), (overflow(c), c.text)
            assert db.game(game_id).state.over
            for c in (alice, bob):
                await c.settle(0.5)
                assert not overflow(c), (overflow(c), c.text)
                c.close()
        news = [line.text for line in narrate(db.game_log(game_id, None), -1, None, everything=True)]
    finally:
        db.close()
    assert len(news) > 5 and any("wins" in line for line in news)
    # The news in three lines, as on a board with a full help line.
    drawn: list[tuple[str, str | None]] = sorted(m for m in messages if m[0])
    texts = drawn + [(line, None) for line in news if line]
    assert len(texts) > 5 and len(helps) > 2
    for cols, _ in SIZES:
        for text, under in texts:
            problems = fits_on_board(text, cols, under=under)
            assert not problems, (cols, text, under, problems)
        for text in sorted(t for t in helps if t):
            problems = fits_on_board(text, cols, help_line=True)
            assert not problems, (cols, text, problems)


class Nowhere:
    """A transport that shows nothing and sends no key: for drawing a screen to read its canvas."""

    async def read(self) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        pass

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.mark.parametrize("size", SIZES, ids=[f"{c}x{r}" for c, r in SIZES])
def test_notices_fit(size: tuple[int, int]) -> None:
    """The console's own notices (idle, time, server going down) across the bottom of any screen."""
    cols, rows = size

    con = Console(Nowhere(), charset="utf8", width=cols, height=rows, door=True)
    for text in ("Are you there? Press a key within a minute or you will go back to the BBS.",
                 "The server is going down now. Your games are saved; please call again later.",
                 "No key was pressed for too long. Your games wait for you as you left them. Back to the BBS."):
        con.clear()
        con.message_line(text)
        lines = [con.screen.canvas.row_text(r) for r in range(1, rows + 1)]
        assert all(len(line) == cols for line in lines)
        shown = " ".join(lines).split()
        assert shown == text.split(), (size, lines)
    assert wrap("x" * 100, cols - 1)  # the helper itself never returns nothing


@pytest.mark.parametrize("state", [State.TO_ROLL, State.DOUBLE_TO_ME])
async def test_a_keys_page_that_fits_the_screen_is_one_page(state: State) -> None:
    """At 40x24 the keys to roll took two pages: the first left two rows free, the second held the
    last key alone (Q), where all of them and 'Press a key' fit on one."""

    con = Console(Nowhere(), charset="utf8", width=40, height=24, door=True)
    pressed: list[Key] = []

    async def one_key(timeout: float | None = None) -> Key:
        assert not pressed, "a second key asked for: the page turned over"
        pressed.append(Key("x", "x"))
        return pressed[-1]

    con.key_or_resize = one_key  # type: ignore[method-assign]
    await help_page(con, state, None, "back to the board")
    lines = [con.screen.canvas.row_text(r).rstrip() for r in range(1, 25)]
    said = " ".join(" ".join(lines).split())
    assert "Page 1 of" not in said and said.endswith("Press a key to go back to the board."), lines
    assert "Q or Esc" in said, lines


def test_the_panel_status_names_a_long_handle_whole(tmp_path: Path) -> None:
    """'X to answer' and 'X won' name the player whole (the panel wraps them), never cut to
    'Longhandle_A to answer' or 'Intermediate won'."""
    with Service(f"sqlite:///{tmp_path / 'names.db'}", dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register(ALICE, PASSWORD)
        svc.register(BOB, PASSWORD)
        view = svc.begin_game(alice.id, 1, Color.WHITE, BOB)
        view = svc.roll(alice.id, view.id, view.version)  # white 3, black 1: alice is on roll
        view = svc.resign(alice.id, view.id, view.version, Win.SINGLE)
        screen = GameScreen.__new__(GameScreen)
        screen.view = svc.game(view.id, alice.id)
        assert screen.status_text() == f"{BOB} to answer"
        bob = svc.player_page(BOB).player.id
        view = svc.answer_resign(bob, view.id, view.version, True)
        screen.view = svc.game(view.id, alice.id)
        assert screen.status_text() == f"{BOB} won the match"
        screen.view = svc.game(view.id, bob)  # the panel speaks to its player, as 'Your turn' does
        assert screen.status_text() == "You won the match"


async def test_a_long_note_cut_on_the_board_is_whole_on_the_help_page(tmp_path: Path) -> None:
    """At 60 columns a play told with a 140-character note needs more than the board's three
    message lines: the board cuts it between words, says '? shows all', and ? shows every word."""
    note = ("Well played so far; I think the back game will hold, but your prime is strong. "
            "Shall we make it a 7-pointer next time? Cheers!")
    url = f"sqlite:///{tmp_path / 'note.db'}"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register(ALICE, PASSWORD)
        svc.register(BOB, PASSWORD)
        view = svc.begin_game(alice.id, 3, Color.WHITE, BOB)
        view = svc.roll(alice.id, view.id, view.version)
        svc.mark_read(svc.player_page(BOB).player.id, view.id, view.version)  # only the play is news
        svc.submit_turn(alice.id, view.id, view.version, "8/5 6/5", note)
    async with running_server(url) as server:
        c = await RawCaller.connect(server.port, term="xterm", size=(60, 24))
        try:
            await login(c, BOB, PASSWORD, new=False)
            c.send("P")
            await c.wait_for("needs 80 columns")
            c.send("\r")
            await c.wait_for("(? shows all)")
            await c.settle(0.3)
            # The board is cut at 60 columns by choice; its message rows are wrapped within them.
            assert not [line for line in c.lines()[18:23] if line[59:60].strip()], c.text
            c.send("?")
            await c.wait_for("The message in full")
            said = " ".join(" ".join(c.lines()).split())
            assert f'{ALICE}\'s note: "{note}"' in said, said
            c.send(" ")
            await c.wait_for("Keys now")
        finally:
            c.close()


async def test_the_replay_names_a_long_handle_whole(tmp_path: Path) -> None:
    """V's panel says whose turn it replays with the whole handle (it was cut to ten letters)."""
    url = f"sqlite:///{tmp_path / 'replay.db'}"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register(ALICE, PASSWORD)
        svc.register(BOB, PASSWORD)
        view = svc.begin_game(alice.id, 3, Color.WHITE, BOB)
        view = svc.roll(alice.id, view.id, view.version)
        svc.submit_turn(alice.id, view.id, view.version, "8/5 6/5")
    async with running_server(url) as server:
        c = await RawCaller.connect(server.port, term="xterm", size=(80, 25))
        try:
            await login(c, BOB, PASSWORD, new=False)
            c.send("P")
            await c.wait_for("V)iew last")  # the board: its news fits the message lines
            c.send("V")
            await c.wait_for("Replay:")
            panel = " ".join(line[56:].strip() for line in c.lines()[6:13])
            assert f"Replay of {ALICE}" in panel, c.text
        finally:
            c.close()


async def test_a_long_note_in_review_is_whole_on_the_help_page(tmp_path: Path) -> None:
    """M)atches' review at 60 columns: the step with a long note is cut between words with
    '? shows all', and ? shows every word of it (the end of the note was lost)."""
    note = ("Well played so far; I think the back game will hold, but your prime is strong. "
            "Shall we make it a 7-pointer next time? Cheers!")
    url = f"sqlite:///{tmp_path / 'review.db'}"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        alice = svc.register(ALICE, PASSWORD)
        bob = svc.register(BOB, PASSWORD)
        view = svc.begin_game(alice.id, 1, Color.WHITE, BOB)
        view = svc.roll(alice.id, view.id, view.version)
        view = svc.submit_turn(alice.id, view.id, view.version, "8/5 6/5", note)
        view = svc.resign(bob.id, view.id, view.version, Win.SINGLE)
        svc.answer_resign(alice.id, view.id, view.version, True)
    async with running_server(url) as server:
        c = await RawCaller.connect(server.port, term="xterm", size=(60, 24))
        try:
            await login(c, BOB, PASSWORD, new=False)
            c.send("M")
            await c.wait_for("Your finished matches")
            c.send("1\r")
            await c.wait_for("The board needs 80 columns")  # the review is the board's screen
            c.send("\r")
            await c.wait_for("Step ")
            c.send("7")
            await c.wait_for("Step 0 of")
            for _ in range(4):
                c.send("\r")
                await c.settle(0.3)
                if "(? shows all)" in c.text:
                    break
            assert "(? shows all)" in c.text, c.text
            c.send("?")
            await c.wait_for("The message in full")
            said = " ".join(" ".join(c.lines()).split())
            assert f'{ALICE}\'s note: "{note}"' in said, said
            c.send(" ")
            await c.wait_for("Keys now (review)")
        finally:
            c.close()


def test_a_key_named_alone_is_not_left_at_a_line_s_end():
    """'... and the dice must fit. ?' over 'lists the keys.': the key cut off from its words."""
    said = "No checker can bear off now: all must be home first, and the dice must fit. ? lists the keys."
    assert wrap(said, 78) == ["No checker can bear off now: all must be home first, and the dice must fit.",
                              "? lists the keys."]
    assert wrap("Why? Because it is.", 8) == ["Why?", "Because", "it is."]
