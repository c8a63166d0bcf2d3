"""End to end over real sockets: telnet callers, a pyte screen each, the keypad cursor."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import deque

import pytest
from harness import Caller, call, login, running_server
from menus import begin, open_game, to_computer_levels

from bgdoor.rules import Position
from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Phase
from bgdoor.rules.moves import legal_plays
from bgdoor.rules.turn import Turn
from bgdoor.service import LastTurn, Service
from bgdoor.ui.board import move_cursor
from bgdoor.ui.gateway import Gateway

pytestmark = pytest.mark.timeout(180)

KEYPAD = {"up": "8", "down": "2", "left": "4", "right": "6"}


def keys_to(start: int | str, target: int | str, viewer: Color) -> str:
    """The NUM-LOCK keypad digits that take the cursor from start to target."""
    seen = {start: ""}
    todo = deque([start])
    while todo:
        loc = todo.popleft()
        if loc == target:
            return seen[loc]
        for direction, digit in KEYPAD.items():
            nxt = move_cursor(loc, direction, viewer.value)
            if nxt not in seen:
                seen[nxt] = seen[loc] + digit
                todo.append(nxt)
    raise AssertionError(f"cannot reach {target} from {start}")


class Player:
    """A caller at the game screen, with the cursor where the server has it."""

    def __init__(self, caller: Caller, color: Color) -> None:
        self.caller = caller
        self.color = color
        self.cursor: int | str = 13
        self.tokens = 48.0
        self.at = time.monotonic()

    async def type(self, keys: str) -> None:
        """Send keys no faster than the server's per-caller key rate (a burst, then 30 a second)."""
        for key in keys:
            now = time.monotonic()
            self.tokens = min(48.0, self.tokens + (now - self.at) * 25)
            self.at = now
            if self.tokens < 1:
                await asyncio.sleep((1 - self.tokens) / 25)
                self.tokens, self.at = 1.0, time.monotonic()
            self.tokens -= 1
            self.caller.send(key)

    def rolled(self, position: Position, dice: tuple[int, int]) -> None:
        """The server starts a turn with the cursor on a checker that can move: where it is, if
        it can, else the farthest back (the bar's when one must come in)."""
        sources = Turn(position, dice).sources()
        at = 25 if self.cursor == "bar" else 0 if self.cursor == "off" else int(self.cursor)
        if sources and at not in sources:
            self.cursor = "bar" if sources[0] == 25 else sources[0]

    def goto(self, loc: int | str) -> str:
        keys = keys_to(self.cursor, loc, self.color)
        self.cursor = loc
        return keys

    def move_keys(self, src: int, dst: int) -> str:
        """Pick up on src, drop on dst (0 is off: R removes the checker in hand)."""
        keys = self.goto("bar" if src == 25 else src) + "\r"
        if dst == 0:
            return keys + "R"
        return keys + self.goto(dst) + "\r"


async def wait_version(db: Service, game_id: int, above: int, timeout: float = 10.0) -> int:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        v = db.game_version(game_id)
        if v > above:
            return v
        await asyncio.sleep(0.02)
    raise AssertionError(f"game {game_id} stayed at version {above}")


async def begin_and_join(port: int, a_charset: str = "utf8", b_charset: str = "cp437") -> tuple[Caller, Caller]:
    alice = await call(port, term="xterm" if a_charset == "utf8" else "ansi", charset=a_charset)
    await login(alice, "alice", "alice-pw", new=True)
    await begin(alice, 1)
    bob = await call(port, term="ansi" if b_charset == "cp437" else "xterm", charset=b_charset)
    await login(bob, "bob", "bob-pw", new=True)
    bob.send("V")
    await bob.wait_for("needs a player")
    bob.send("1\r")
    await bob.wait_for("Join it?")
    bob.send("Y")
    await bob.wait_for("roll for who starts")
    return alice, bob


async def test_register_begin_join_and_play_with_the_keypad(tmp_path):
    url = f"sqlite:///{tmp_path}/game.db"
    # Opening 3-1 to White; Black rolls 4-2; White 1-2 (told 2-1).
    dice = ScriptedDice([3, 1, 4, 2, 1, 2] + [1] * 40)
    async with running_server(url, dice=dice) as srv:
        db = Service(url)
        alice, bob = await begin_and_join(srv.port)
        a, b = Player(alice, Color.WHITE), Player(bob, Color.BLACK)
        bob.send("P")  # either player may make the opening roll
        await alice.wait_for("Your turn 3-1")
        # I shows the IDs to paste into GNU Backgammon.
        alice.send("I")
        await alice.wait_for("Position ID 4HPwATDgc/ABMA")
        assert "Match ID " in alice.text

        # A drop the roll cannot make is refused with the reason, and nothing moves.
        alice.send(a.move_keys(13, 11))
        await alice.wait_for("3-1")
        await alice.settle()
        assert "cannot" in alice.text.lower() or "not" in alice.text.lower()
        assert db.game(1).state.phase is Phase.MOVE

        # 13/10, undo it, then 13/10 6/5 for real, leaving blots on 10 and 5.
        alice.send(a.move_keys(13, 10))
        await alice.settle()
        alice.send("U")
        await alice.settle()
        alice.send(a.move_keys(13, 10) + a.move_keys(6, 5))
        await alice.wait_for("Enter commits")
        version = db.game_version(1)
        alice.send("\r")
        await wait_version(db, 1, version)
        st = db.game(1).state
        assert st.turn is Color.BLACK and st.position.opponent[9] == 1 and st.position.opponent[4] == 1

        # Bob rolls 4-2 and hits the blot on White's 5 (his 20) from his 24.
        await bob.wait_for("Your turn")
        bob.send("P")
        await bob.wait_for("4-2")
        bob.send(b.move_keys(24, 20) + b.move_keys(13, 11))
        await bob.wait_for("Enter commits")
        version = db.game_version(1)
        bob.send("\r")
        await wait_version(db, 1, version)
        st = db.game(1).state
        assert st.position.player[24] == 1  # White is on the bar
        # Alice sees the hit live on her screen, without pressing a key.
        await alice.wait_for("Your turn")

        # Alice enters from the bar with the 1 and plays the 2.
        alice.send("P")
        await alice.wait_for("2-1")  # the higher die first
        st = db.game(1).state
        assert st.dice is not None
        a.rolled(st.position, st.dice)
        alice.send(a.move_keys(25, 24) + a.move_keys(24, 22))
        await alice.wait_for("Enter commits")
        version = db.game_version(1)
        alice.send("\r")
        await wait_version(db, 1, version)
        assert db.game(1).state.position.opponent[24] == 0
        alice.close()
        bob.close()
        db.close()


async def test_hang_up_after_rolling_finds_the_same_dice(tmp_path):
    url = f"sqlite:///{tmp_path}/game.db"
    dice = ScriptedDice([3, 1, 6, 5, 2, 2, 4, 4] + [1] * 20)
    async with running_server(url, dice=dice) as srv:
        db = Service(url)
        alice, bob = await begin_and_join(srv.port)
        a = Player(alice, Color.WHITE)
        alice.send("P")
        await alice.wait_for("Your turn 3-1")
        alice.send("M")
        await alice.wait_for("Your play")
        alice.send("8/5 6/5\r")
        await bob.wait_for("Your turn")
        bob.send("P")
        await bob.wait_for("6-5")
        bob.close()  # hangs up with the dice showing
        await asyncio.sleep(0.3)
        bob = await call(srv.port, term="ansi", charset="cp437")
        await login(bob, "bob", "bob-pw", new=False)
        assert "1 game waiting" in bob.text
        bob.send("P")
        await bob.wait_for("6-5")
        assert db.game(1).state.dice == (6, 5)
        # Rolling again is refused: nothing re-rolls.
        bob.send("P")
        await bob.settle()
        assert db.game(1).state.dice == (6, 5)
        del a
        alice.close()
        bob.close()
        db.close()


async def test_watcher_sees_turns_live_and_ascii_board(tmp_path):
    url = f"sqlite:///{tmp_path}/game.db"
    dice = ScriptedDice([3, 1] + [6, 5] * 10)
    async with running_server(url, dice=dice) as srv:
        db = Service(url)
        alice, bob = await begin_and_join(srv.port)
        carol = await call(srv.port, term="dumb", charset="ascii")
        await login(carol, "carol", "carol-pw", new=True)
        await open_game(carol, expect="Watching this game")
        assert "\x1b" not in bytes(carol.received[-2000:]).decode("latin-1").split("Q)uit")[-1]
        alice.send("P")
        await alice.wait_for("Your turn 3-1")
        alice.send("M")
        await alice.wait_for("Your play")
        alice.send("8/5 6/5\r")
        await carol.wait_for("bob to play")
        st = db.game(1).state
        assert st.turn is Color.BLACK
        alice.close()
        bob.close()
        carol.close()
        db.close()


async def test_whole_game_to_the_end_and_rankings(tmp_path):
    url = f"sqlite:///{tmp_path}/game.db"
    rng = random.Random(11)
    dice = ScriptedDice([rng.randint(1, 6) for _ in range(2000)])
    async with running_server(url, dice=dice) as srv:
        db = Service(url)
        alice, bob = await begin_and_join(srv.port)
        players = {Color.WHITE: Player(alice, Color.WHITE), Color.BLACK: Player(bob, Color.BLACK)}
        alice.send("P")
        turns = 0
        bear_offs = 0
        while True:
            view = db.game(1)
            st = view.state
            if st.over:
                break
            version = view.version
            if st.phase is Phase.OPENING:
                alice.send("P")
            else:
                p = players[st.actor]
                if st.phase is Phase.ROLL:
                    p.caller.send("P")
                else:
                    plays = legal_plays(st.position, st.dice)
                    p.rolled(st.position, st.dice)
                    # As a player looks before typing: the database can be ahead of the board (the
                    # change feed's look), and cursor keys sent before the board knew it was this
                    # player's turn were refused, the test's cursor then out of step (a loaded CI).
                    await p.caller.wait_for(f"Your turn {max(st.dice)}-{min(st.dice)}")
                    if len(plays) > 1:
                        play = min(plays, key=lambda pl: (-sum(m.dst == 0 for m in pl.moves), str(pl)))
                        keys = "".join(p.move_keys(m.src, m.dst) for m in play.moves)
                        bear_offs += sum(m.dst == 0 for m in play.moves)
                        await p.type(keys)
                        await p.caller.wait_for("Enter commits")
                    p.caller.send("\r")
                    turns += 1
            try:
                await wait_version(db, 1, version, timeout=15)
            except AssertionError:
                stuck = f"stuck at {st.phase} {st.dice} {st.position.id}"
                raise AssertionError(f"{stuck}:\n{alice.text}\n{bob.text}") from None
        assert turns > 20 and bear_offs > 0
        winner = view.state.winner
        assert winner is not None
        await players[winner].caller.wait_words("and the match")
        await players[winner].caller.wait_for("Ratings:")
        assert "(+" in players[winner].caller.text and "(-" in players[winner].caller.text
        loser = players[winner.other].caller
        await loser.wait_words("and the match")
        loser.send("Q")
        await loser.wait_for("Your choice")
        loser.send("R")
        await loser.wait_for("The top players")
        text = loser.text
        assert "alice" in text and "bob" in text
        loser.send("1\r")  # the winner's page, with the rating chart
        await loser.wait_for("Rating history")
        assert view.name(winner) in loser.text and "won 1" in loser.text
        rows = {r.handle: r for r in db.rankings()}
        assert rows[view.name(winner)].wins == 1 and rows[view.name(winner.other)].losses == 1
        assert rows[view.name(winner)].rating > 1500 > rows[view.name(winner.other)].rating
        alice.close()
        bob.close()
        db.close()


async def test_black_may_turn_the_board_as_the_seed_shows_it(tmp_path):
    url = f"sqlite:///{tmp_path}/game.db"
    async with running_server(url) as srv:
        alice, bob = await begin_and_join(srv.port)
        # bob's own view: home board bottom right, points 12..1 along the bottom.
        assert " 6  5  4  3  2  1" in bob.text
        bob.send("Q")
        await bob.wait_for("Your choice")
        bob.send("O")
        await bob.wait_for("Board:")
        bob.send("B")
        await bob.wait_for("as the table stands")
        # Only Black's board turns: the line had said 'Black's home bottom left' to White too.
        assert "White's home bottom right" in " ".join(bob.text.split()), bob.text
        bob.send("Q")
        await bob.wait_for("Your choice")
        await open_game(bob, expect=" 1  2  3  4  5  6")
        with Service(url) as db:
            assert db.player(2).preferences.orientation == "table"
        alice.close()
        bob.close()


async def test_the_computer_answers_at_once(tmp_path):
    url = f"sqlite:///{tmp_path}/game.db"
    async with running_server(url, bot=True) as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await to_computer_levels(alice)
        assert "Intermediate" in alice.text
        alice.send("2")
        # Answered like the match length: the number shows, and Enter (not left over for the
        # board, where it would roll or pick up a checker) confirms it.
        await alice.wait_for("Level [1]: 2")
        alice.send("\r")
        await alice.wait_for("Intermediate Bot")
        # The computer makes the opening roll, and plays at once if it won it.
        with Service(url) as db:
            for _ in range(200):
                st = db.game(1).state
                if st.actor is Color.WHITE:
                    break
                await asyncio.sleep(0.05)
            assert st.actor is Color.WHITE and db.game(1).black == "Intermediate Bot"
            # Opening rolls tied before the computer won one: three lines of news make a page first.
            end = asyncio.get_running_loop().time() + 10
            while "Your turn" not in alice.text and asyncio.get_running_loop().time() < end:
                if "Since you last looked" in alice.text:
                    alice.send(" ")
                await alice.settle(0.1)
            await alice.wait_for("Your turn")
            await alice.settle(0.3)
            assert "N)ote" not in alice.text  # the computer reads no notes: not offered
            alice.send("N")
            await alice.wait_for("reads no notes")
            if st.phase is Phase.ROLL:
                alice.send("P")
                await alice.wait_for("You rolled")
            version = db.game_version(1)
            alice.send("M")
            await alice.wait_for("Your play")
            st = db.game(1).state
            alice.send(str(legal_plays(st.position, st.dice)[0]) + "\r")
            # Its answer comes without anyone pressing a key.
            for _ in range(200):
                st = db.game(1).state
                if db.game_version(1) > version + 2 and st.actor is Color.WHITE:
                    break
                await asyncio.sleep(0.05)
            assert st.actor is Color.WHITE
            last = db.last_turn(1, db.game(1).white_id)
            assert last is not None and last.by is Color.BLACK
            # ... and is told (its roll may come first, on its own).
            await alice.wait_until(lambda t: "Intermediate Bot rolled" in t and " and played " in " ".join(t.split()),
                                   "the computer's play told", 10)
            assert re.search(r"Turn sent: [^.]*\. Intermediate Bot rolled", " ".join(alice.text.split())), alice.text
        alice.close()


async def test_the_computer_s_answer_is_told_when_it_beats_the_news_of_the_play(tmp_path, monkeypatch):
    """The computer answered before the board read the news of the player's own play: its roll
    and play were read with it, marked read, and never told ('Turn sent.' alone, and a checker of
    the player's on the bar with no word why).  Here the board's read waits for the answer."""
    url = f"sqlite:///{tmp_path}/game.db"
    dice = ScriptedDice([5, 2] + [4, 3] * 40)
    async with running_server(url, dice=dice, bot=True) as srv:
        alice = await call(srv.port)
        await login(alice, "alice", "alice-pw", new=True)
        await to_computer_levels(alice)
        alice.send("1\r")
        await alice.wait_for("You start with 5-2")
        await alice.wait_for("Your turn")
        with Service(url) as db:
            version = db.game_version(1)
            real = Gateway.last_turn

            async def after_the_answer(self: Gateway, game_id: int, viewer_id: int | None = None) -> LastTurn | None:
                for _ in range(200):
                    if db.game_version(game_id) >= version + 3:  # alice's play, the roll, the answer
                        break
                    await asyncio.sleep(0.02)
                return await real(self, game_id, viewer_id)

            monkeypatch.setattr(Gateway, "last_turn", after_the_answer)
            alice.send("M")
            await alice.wait_for("Your play")
            alice.send("13/8 13/11\r")
            said = " ".join((await alice.wait_words("Turn sent: 13/11 13/8.", 10)).split())
            await alice.settle(0.5)
            said = " ".join(alice.text.split())
            assert "Turn sent: 13/11 13/8. Beginner Bot rolled 4-3 and played" in said, said
        alice.close()


async def test_ctrl_l_redraws_everything(tmp_path):
    async with running_server(f"sqlite:///{tmp_path}/game.db") as srv:
        caller = await call(srv.port)
        await login(caller, "dora", "dora-pw", new=True)
        await caller.settle()
        before = len(caller.received)
        caller.send("\x0c")
        await caller.settle()
        again = bytes(caller.received[before:])
        assert b"\x1b[2J" in again and b"Your choice" in again
        caller.close()


async def test_menu_keys_say_why_and_the_empty_list_begins_a_game(tmp_path):
    """A key not on the main menu says so; 'No games are in progress. B)egin one!' begins one with B;
    Enter at the match length shows the default taken; a list of finished matches has no '* to act'."""
    async with running_server(f"sqlite:///{tmp_path / 'menu.db'}") as server:
        alice = await call(server.port)
        try:
            await login(alice, "alice", "alice-pw", new=True)
            alice.send("Z")
            await alice.wait_for("Z is not on the menu")
            alice.send("V")
            await alice.wait_for("B)egin one!")
            alice.send("B")
            await alice.wait_for("Match length")
            alice.send("\r")
            await alice.wait_for("Play as")
            assert "points [3]: 3" in alice.text, alice.text
            alice.send("W")
            await alice.wait_for("Opponent")
            alice.send("O")
            await alice.wait_for("W)ithdraw")
            alice.send("W")
            await alice.wait_for("(Y/N)")
            alice.send("Y")
            await alice.wait_for("Game #1 is withdrawn.")  # told, back at the menu
            assert "not on the menu" not in alice.text  # said once, for the key it was about
            alice.send("M")
            await alice.wait_for("You have not finished a match yet.")
        finally:
            alice.close()


async def test_a_short_password_is_refused_at_once_and_asked_again(tmp_path):
    """Too short is said before 'Type it again', and the password is asked again, not the handle."""
    async with running_server(f"sqlite:///{tmp_path / 'pw.db'}") as server:
        c = await call(server.port)
        try:
            await c.wait_for("Handle:")
            c.send("newbie\r")
            await c.wait_for("Create it?")
            c.send("Y")
            await c.wait_for("Choose a password")
            c.send("abc\r")
            await c.wait_for("at least 4 characters")
            await c.settle()
            # The same question is asked again at once, with the reason under it (the prompt was
            # blank for three seconds, and the reason went with the next key).
            assert "Type it again" not in c.text
            assert "Choose a password:" in c.text and "newbie" in c.text, c.text
            c.send("ab")
            await c.wait_for("Choose a password: **")
            assert "at least 4 characters" in c.text
            c.send("cd\r")
            await c.wait_for("Type it again")
            assert "at least 4 characters" not in c.text
            c.send("abcd\r")
            await c.wait_for("Your choice")
        finally:
            c.close()


async def test_the_board_is_laid_out_again_when_the_window_is_resized(tmp_path):
    """A window narrowed and widened again in a game: the board comes back whole at once, names
    and 'Match to' included (before, the board cut at the narrow width stayed until a key)."""
    from rawtelnet import RawCaller, login as raw_login  # noqa: PLC0415 - this test only

    url = f"sqlite:///{tmp_path / 'size.db'}"
    with Service(url) as svc:
        svc.register("bob", "bob-pw-1")
    async with running_server(url) as server:
        c = await RawCaller.connect(server.port, term="xterm", size=(80, 25))
        try:
            await raw_login(c, "alice", "alice-pw", new=True)
            await begin(c, 1, opponent="bob")
            await c.wait_for("roll for who starts")
            c.send("P")  # the game under way: nothing changes in it while the window is resized
            await c.wait_until(lambda t: "start with" in t or "starts with" in t, "who starts")
            await c.settle(0.5)
            assert "alice (you)" in c.text
            c.send_size(60, 24)  # too narrow for the board: the page that says so, with the size
            await c.wait_until(lambda t: "alice (you)" not in t and "needs 80 columns" in t, "the page at 60 columns")
            c.send_size(80, 25)
            await c.wait_until(lambda t: "alice (you)" in t and "Match to 1" in t, "the board whole again")
        finally:
            c.close()


async def test_a_note_written_is_kept_when_the_player_leaves_the_game_first(tmp_path):
    """N)ote, then Q to the menu before playing: coming back, the note is still there and goes
    with the play (it was dropped without a word)."""
    from rawtelnet import RawCaller, login as raw_login  # noqa: PLC0415 - this test only

    url = f"sqlite:///{tmp_path / 'note.db'}"
    with Service(url, dice=ScriptedDice([3, 1] * 10)) as svc:
        alice = svc.register("alice", "alice-pw")
        bob = svc.register("bob", "bob-pw-1")
        view = svc.begin_game(alice.id, 1, Color.WHITE, "bob")
        svc.roll(alice.id, view.id, view.version)  # alice 3, bob 1: alice plays 3-1
    async with running_server(url) as server:
        c = await RawCaller.connect(server.port, term="xterm", size=(80, 25))
        try:
            await raw_login(c, "alice", "alice-pw", new=False)
            c.send("P")
            await c.wait_for("M)ove typed")
            c.send("N")
            await c.wait_for("Note to your opponent")
            c.send("see you later\r")
            await c.wait_for("Your note goes with")
            c.send("Q")
            await c.wait_for("Your choice")
            c.send("P")
            await c.wait_words('Your note, not yet sent: "see you later"')  # after the opening roll, wrapped
            c.send("M")
            await c.wait_for("Your play")
            c.send("8/5 6/5\r")
            await c.wait_for("Turn sent")
        finally:
            c.close()
    with Service(url) as svc:
        note = svc.opponent_note(view.id, bob.id)
        assert note is not None and note.text == "see you later"


async def test_a_menu_refusal_fits_beside_the_prompt_at_60_columns(tmp_path):
    from rawtelnet import RawCaller, login as raw_login  # noqa: PLC0415 - this test only

    async with running_server(f"sqlite:///{tmp_path / 'narrow.db'}") as server:
        c = await RawCaller.connect(server.port, term="xterm", size=(60, 24))
        try:
            await raw_login(c, "alice", "alice-pw", new=True)
            c.send("\x1b[A")  # an arrow key: no letter to name
            await c.wait_for("That key is not on the menu.")
        finally:
            c.close()
