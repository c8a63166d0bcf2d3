"""What the board's keys say when the player asks for something the board cannot give."""

from __future__ import annotations

import random

import menus
import pytest
from harness import call, login, running_server, seated
from racehome import race_home
from test_rules_support import board
from test_screens_truth import at_40

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, MatchState
from bgdoor.rules.moves import Move, Play
from bgdoor.rules.parse import IllegalPlay, parse_play
from bgdoor.rules.position import Position
from bgdoor.service import Service
from bgdoor.service.types import GameView

pytestmark = pytest.mark.timeout(120)

START = Position.start()


def reason(pos: Position, dice: tuple[int, int], text: str) -> str:
    with pytest.raises(IllegalPlay) as info:
        parse_play(pos, dice, text)
    return str(info.value)


def test_a_hit_mark_where_the_play_hits_nothing_is_refused() -> None:
    """13/11 13/10* with 3-2 from the start was taken as 13/11 13/10: the player's own notation
    said a hit, and the game quietly played none."""
    assert reason(START, (3, 2), "13/11 13/10*") == "13/10* says a hit, but there is no blot on point 10 to hit"
    assert reason(START, (6, 5), "24/13*") == "24/13* says a hit, but there is no blot on point 13 to hit"
    pos = board({13: 1}, {7: 1})  # a blot on 7, none on 10 or 4
    assert reason(pos, (6, 3), "13/10*/4") == "13/10*/4 says a hit, but there is no blot on point 10 to hit"
    assert reason(pos, (6, 3), "13/4*") == "13/4* says a hit, but there is no blot on point 4 to hit"
    pos = board({13: 1}, {7: 2})  # 13/7/4 is read as 13/10/4 past a block: the mark cannot be
    assert reason(pos, (6, 3), "13/7*/4") == "13/7*/4 says a hit, but point 7 is blocked, not a blot"


def test_a_hit_mark_where_the_play_hits_is_taken_and_a_hit_needs_no_mark() -> None:
    pos = board({13: 1}, {7: 1})
    assert parse_play(pos, (6, 3), "13/7*/4").moves == (Move(13, 7, True), Move(7, 4))
    pos = board({"bar": 1}, {22: 1, 23: 2, 20: 2})
    for text in ("bar/22*", "bar/22"):
        assert parse_play(pos, (3, 2), text).moves == (Move(25, 22, True),)


async def test_a_typed_hit_that_is_not_there_is_refused_at_the_board(tmp_path):
    """M and 13/11 13/10* with 3-2, point 10 empty: 'Turn sent.', with no hit."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 2] + [1, 2] * 20)) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-2")
        await alice.wait_for("Arrows/8246")
        alice.send("M")
        await alice.wait_for("Your play")
        alice.send("13/11 13/10*\r")
        await alice.wait_words("13/10* says a hit, but there is no blot on point 10 to hit.")
        assert "Turn sent" not in alice.text
        alice.send("M")
        await alice.wait_for("Your play")
        alice.send("13/11 13/10\r")
        await alice.wait_for("Turn sent")
        alice.close()
        bob.close()


async def test_an_arrow_in_the_typed_play_says_it_types_nothing(tmp_path):
    """Up at M)ove typed's field did nothing without a word; now it says so until the next key,
    which types on into the field."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 2] + [1, 2] * 20)) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-2")
        await alice.wait_for("Arrows/8246")
        alice.send("M")
        await alice.wait_for("Your play")
        alice.send("13/11")
        await alice.wait_for("13/11")
        alice.send("\x1b[A")
        await alice.wait_words("The arrow keys do nothing while you type: Backspace rubs out, Enter ends.")
        assert "13/11" in alice.text  # the field stays in sight
        alice.send(" 13/10\r")
        await alice.wait_for("Turn sent")
        assert "arrow keys" not in alice.text
        alice.close()
        bob.close()


@pytest.mark.parametrize("cols", [80, 40])
async def test_an_arrow_in_a_note_says_it_types_nothing(tmp_path, cols):
    """Left in N)ote's field did nothing without a word, as in the other typed fields.  At 40
    columns the words are over the field: the keys' line has no row that holds them."""
    async with running_server(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1])) as srv:
        alice, bob = await seated(srv.port)
        alice.send("P")
        await alice.wait_for("You start with 3-1")
        if cols == 40:
            alice.close()
            alice = await at_40(srv.port, "alice", 1, "3-1")
        alice.send("N")
        await alice.wait_for("Note to your opponent")
        alice.send("helo")
        await alice.wait_for("helo_")
        alice.send("\x1b[D")
        await alice.wait_words("The arrow keys do nothing while you type the note.")
        assert all(len(line.rstrip()) <= cols for line in alice.screen.display)
        alice.send("\x08lo 13/7 8246")  # the next key types on, and the words go; digits are typed
        await alice.wait_words("hello 13/7 8246_")
        assert "arrow keys" not in alice.text
        alice.send("\r")
        await alice.wait_words('Your note goes with what you do next: "hello 13/7 8246".')
        alice.close()
        bob.close()


def alice_to_bear_off(url: str) -> GameView:
    """alice (White) and bob race home; returns once alice has rolled with all her checkers home
    and a checker she can bear off."""
    rng = random.Random(7)

    def bearing_off(st: MatchState, plays: list[Play]) -> bool | None:
        bears = any(m.dst == 0 for p in plays for m in p.moves)
        return (st.turn is Color.WHITE and bears and st.position.player[-1] == 0 and len(plays) > 1) or None

    with Service(url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(3000)])) as svc:
        return race_home(svc, 3, bearing_off)[1]


async def test_r_and_enter_on_the_tray_say_to_put_the_cursor_on_a_checker(tmp_path):
    """R with the cursor moved onto the OFF tray, which the help line offers, said 'Checkers move
    from a point (or the bar) to a lower point, or off.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    alice_to_bear_off(url)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c)
        await c.wait_for("R)emove")
        c.send("2")  # the bottom row, then right to its end: the tray past point 1
        c.send("6" * 26)
        await c.settle(0.3)
        c.send("R")
        await c.wait_words("Put the cursor on a checker to bear it off; the tray is where it goes.")
        assert "lower point" not in c.text
        c.send("\r")
        await c.wait_words("The tray holds checkers borne off: pick one up on a marked point.")
        c.close()


async def test_r_with_the_dice_all_played_says_so_not_a_sentence_with_blanks(tmp_path):
    """R once the dice were all played said 'No checker can bear off with : none is on point ,
    and you have checkers on higher points.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    rng = random.Random(7)

    def both_bear_off(st: MatchState, plays: list[Play]) -> bool | None:
        # All home, two different dice, each with a checker on its own point: R plays both.
        home = not any(st.position.player[6:])
        a, b = st.dice or (0, 0)
        exact = a != b and st.position.player[a - 1] > 0 and st.position.player[b - 1] > 0
        return (st.turn is Color.WHITE and home and exact) or None

    with Service(url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(3000)])) as svc:
        race_home(svc, 3, both_bear_off)
    async with running_server(url) as srv:
        c = await call(srv.port)
        await login(c, "alice", "alice-pw", new=False)
        await menus.open_board(c)
        await c.wait_for("R)emove")
        c.send("2")
        c.send("6" * 26)  # the tray; then left, point by point, bearing off what the dice allow
        for _ in range(6):
            c.send("4")
            for _ in range(4):
                c.send("R")
                await c.settle(0.2)
            if "Enter commits" in " ".join(c.text.split()):
                break
        await c.wait_words("Enter commits")
        c.send("R")
        said = " ".join((await c.wait_words("The dice are played")).split())
        assert "The dice are played: Enter commits the play, U)ndo takes a move back." in said, said
        assert "bear off with :" not in said, said
        c.close()
