"""The game screen's key table: the README shows it as it is, and every state has its keys."""

from __future__ import annotations

import re
from pathlib import Path

from bgdoor.rules.position import Position
from bgdoor.rules.turn import Turn
from bgdoor.term.keys import Key
from bgdoor.ui import keys
from bgdoor.ui.game import no_bearing_off, said_already
from bgdoor.ui.keys import TABLE, State
from bgdoor.ui.texts import load_text

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_shows_the_key_table() -> None:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"<!-- keys:[^>]*-->\n(.*?)\n<!-- /keys -->", text, re.S)
    assert found, "README.md has no keys section"
    assert found.group(1) == keys.markdown(), "README's keys differ from bgdoor.ui.keys: paste keys.markdown() there"


def test_every_state_has_help_and_a_way_out() -> None:
    assert set(TABLE) == set(State)
    for state, bindings in TABLE.items():
        actions = {b.action for b in bindings}
        assert "help" in actions, state
        assert {"quit", "leave"} & actions, state
        # Of a group of alternatives (Enter picks up, commits or passes) the first stands for all.
        shadowed = {a for group in keys.ALTERNATIVES for a in group if a in actions and a != next(
            b.action for b in bindings if b.action in group)}
        names = [n for b in bindings if b.action not in shadowed for n in b.names]
        assert len(names) == len(set(names)), f"{state}: one key bound twice"


def test_a_key_not_offered_says_why() -> None:
    said = keys.refusal(State.WAITING, Key("p", "P"))
    assert said.startswith("It is your opponent's turn") and said.endswith(keys.TAIL)
    said = keys.refusal(State.TO_ROLL, Key("d", "D"), {"double": "Your opponent owns the cube."})
    assert said == "Your opponent owns the cube." + keys.TAIL
    # D is no key of a player moving; a match with no cube still says so, not 'only before you roll'.
    said = keys.refusal(State.MOVING, Key("d", "D"), {"double": "The cube is not used in a 1-point match."})
    assert said == "The cube is not used in a 1-point match." + keys.TAIL
    assert keys.refusal(State.MOVING, Key("d", "D")).startswith("You can double only before you roll")
    assert keys.binding(State.TO_ROLL, Key("d", "D"), {"double": "x"}) is None
    assert keys.binding(State.TO_ROLL, Key("d", "D")) is not None
    assert "D)ouble" not in keys.help_line(State.TO_ROLL, {"double": "x"})
    assert keys.refusal(State.OVER, Key("z", "Z")) == "Z does nothing here." + keys.TAIL


def test_up_and_down_in_a_review_say_which_keys_step() -> None:
    """In R)eview, 8 said 'The cursor moves only while you play your dice.', as if it were the game."""
    for state in (State.REVIEW, State.REPLAY):
        for key in (Key("up", "8"), Key("down", "2"), Key("up")):
            said = keys.refusal(state, key)
            assert "(6 and 4) step forwards and back" in said or "6 and 4 step forwards and back" in said, said
            assert "your dice" not in said, said


def test_the_instructions_name_the_keys_the_screens_use() -> None:
    """The Instructions page tells each game key as its help line labels it (X) drops a double, not
    D), and every main menu letter."""
    text = load_text("instructions")
    game = text[text.index("IN A GAME") : text.index("THE RULES")]
    menu = text[text.index("MAIN MENU") : text.index("IN A GAME")]
    for state in (s for s in State if s not in (State.REPLAY, State.REVIEW)):
        for b in TABLE[state]:
            if len(b.label) > 1 and b.label[1] == ")":
                assert b.label[:2] in game, f"the instructions do not tell {b.label} ({state})"
    assert "D)rop" not in game
    # Q keeps the turn as it was left (the draft): the page had said the moves were forgotten.
    quit_line = " ".join(game[game.index("  Q)uit") :].split("\n  When")[0].split())
    assert "forgotten" not in quit_line and "the moves you made" in quit_line and "are kept" in quit_line, quit_line
    for letter in "VPBSIRWMNOQ":
        assert re.search(rf"^  {letter}\)", menu, re.M), f"the instructions' menu lacks {letter})"


def test_every_game_key_refused_anywhere_says_why() -> None:
    """On the opponent's turn M, N, T, X, A, U and R each got '<key> does nothing here.', and D at
    the opening roll too, while P and D on the opponent's turn said why."""
    letters = {n for bindings in TABLE.values() for b in bindings for n in b.names if len(n) == 1 and n.isalpha()}
    letters -= {"h", "j", "q", "v", "i"}  # help, quit, view and ID are everywhere; J an alias
    for state in (s for s in State if s not in (State.REPLAY, State.REVIEW)):
        for letter in sorted(letters):
            key = Key(letter, letter.upper())
            if keys.binding(state, key) is None:
                said = keys.refusal(state, key)
                assert "does nothing here" not in said, f"{state.value}: {letter.upper()}: {said}"
    assert keys.refusal(State.WAITING, Key("n", "N")).startswith("You can write a note on your own turn")
    assert keys.refusal(State.OPENING, Key("d", "D")).startswith("You can double once the game is under way")


def test_a_watcher_is_not_told_how_a_game_is_withdrawn() -> None:
    """W while watching said 'Only a game nobody has joined can be withdrawn.', as if a watcher
    could withdraw one."""
    assert keys.refusal(State.SPECTATING, Key("w", "W")).startswith("You are watching this game")
    assert keys.refusal(State.WAITING, Key("w", "W")).startswith("The match is under way")


def test_nobody_is_told_of_their_move_where_they_do_not_move() -> None:
    """A watcher's keys page said I showed the ID 'while you move, of the turn's start'."""
    for state in (State.SPECTATING, State.OVER):
        said = " ".join(b.does for b in keys.offered(state))
        assert "I: the GNU Backgammon Position ID and Match ID of the board." in said, said
        assert "you move" not in said, said


def test_r_emove_refused_says_why_no_checker_can_bear_off() -> None:
    """All fifteen home on 6-3, 4/off played with 4-2, the 2 left: R was refused with 'all must
    be home first, and the dice must fit', to a player whose checkers all were."""
    home = (0, 0, 4, 4, 4, 3) + (0,) * 19
    far = (3, 3, 3, 3, 3) + (0,) * 20
    turn = Turn(Position(home, far), (4, 2))
    turn.move(4, 0)
    said = no_bearing_off(turn)
    assert said == "No checker can bear off with the 2: none is on point 2, and you have checkers on higher points."
    outside = (0, 0, 4, 4, 4, 2, 1) + (0,) * 18
    # Said as the rules say it with a checker in hand ('No checker can bear off yet: all of yours
    # must be in your home board first' was a second wording of it).
    said = "You cannot bear off while you have checkers outside your home board."
    assert no_bearing_off(Turn(Position(outside, far), (2, 1))) == said
    barred = (0, 0, 4, 4, 4, 2) + (0,) * 18 + (1,)
    said = "You cannot bear off while you have a checker on the bar."
    assert no_bearing_off(Turn(Position(barred, far), (2, 1))) == said


def test_the_roll_left_is_not_said_twice_after_a_refusal_that_says_it() -> None:
    """'4/off is 4 pips, which does not match the dice: you have a 3 to play. The 3 to play.'"""
    assert said_already("The 3 to play.", "4/off is 4 pips, which does not match the dice: you have a 3 to play.")
    assert said_already("Two 5s to play.", "Too many moves for the roll: you have two 5s to play.")
    assert said_already("One 5 to play.", "5/off does not match the dice: you have a 5 left to play.")
    assert said_already("3-1 to play.", "Point 1 is blocked. 3-1 to play.")
    assert not said_already("The 3 to play.", "Point 1 is blocked.")


def test_a_replay_says_what_7_and_1_do_there() -> None:
    """1 in a V)iew last replay: 'The cursor moves only while you play your dice.'"""
    for name in ("end", "home", "pgup", "pgdn"):
        said = keys.refusal(State.REPLAY, Key(name, ""))
        assert said.startswith("A replay has one turn: 6 and 4 step forwards and back"), said
    assert keys.refusal(State.REPLAY, Key("up", "8")).startswith("8 and 2 do nothing in a replay")


def test_a_finished_match_and_a_watcher_say_why_w_and_the_cursor_keys_do_nothing() -> None:
    """W on a finished match said 'The match is under way: it can be withdrawn only before its
    first roll', and 8 there, or on a watcher's board, 'The cursor moves only while you play'."""
    assert keys.refusal(State.OVER, Key("w", "W")).startswith("The match is over.")
    assert keys.refusal(State.OVER, Key("up", "")).startswith("The match is over.")
    watching = keys.refusal(State.SPECTATING, Key("left", ""))
    assert watching.startswith("You are watching this game, not playing in it."), watching
    assert keys.refusal(State.TO_ROLL, Key("up", "")).startswith("The cursor moves only while you play")


def test_an_arrow_refused_in_a_replay_is_named_as_pressed() -> None:
    """The Up arrow in a replay was told '8 and 2 do nothing in a replay'."""
    for state, where in ((State.REPLAY, "a replay"), (State.REVIEW, "a review")):
        said = keys.refusal(state, Key("up"))
        assert said.startswith(f"Up and Down do nothing in {where}: Right and Left (6 and 4) step"), said
        assert keys.refusal(state, Key("up", "8")).startswith(f"8 and 2 do nothing in {where}: 6 and 4 step")
