"""parse_play: reading notation, naming the broken rule, and the round trip with str(play)."""

from __future__ import annotations

import pytest
from test_rules_support import board, random_game_positions

from bgdoor.rules.moves import Move, legal_plays
from bgdoor.rules.parse import IllegalPlay, no_play, parse_play
from bgdoor.rules.position import Position

START = Position.start()


def play_text(pos: Position, dice: tuple[int, int], text: str) -> str:
    return str(parse_play(pos, dice, text))


def reason(pos: Position, dice: tuple[int, int], text: str) -> str:
    with pytest.raises(IllegalPlay) as info:
        parse_play(pos, dice, text)
    return str(info.value)


# ---------------------------------------------------------------------- reading


@pytest.mark.parametrize(
    "text",
    [
        "24/18 13/11",
        "13/11 24/18",  # any order
        "24/18  13/11",
        " 24 / 18 13 /11 ",
        "24-18 13-11",
        "24-18, 13-11",
        "24/18 13/11",
    ],
)
def test_spellings_of_one_play(text: str) -> None:
    assert play_text(START, (6, 2), text) == "24/18 13/11"


def test_combined_moves_and_intermediate_points() -> None:
    for text in ("24/13", "24/18/13", "24/18 18/13", "18/13 24/18"):
        assert play_text(START, (6, 5), text) == "24/13"


def test_bar_off_and_repeat_counts() -> None:
    pos = board({"bar": 1}, {22: 1, 23: 2, 20: 2})
    for text in ("bar/22*", "BAR/22*", "25/22*", "bar/22", "Bar / 22 *", "25-22"):
        play = parse_play(pos, (3, 2), text)
        assert play.moves == (Move(25, 22, True),)
    pos = board({6: 1, 5: 1})
    for text in ("6/off 5/off", "6/OFF 5/Off", "6/0 5/0", "5/off 6/off"):
        assert play_text(pos, (6, 5), text) == "6/off 5/off"
    for text in ("8/5(2) 6/3(2)", "8/5 8/5 6/3 6/3", "8/5 (2) 6/3( 2 )", "6/3(2) 8/5(2)"):
        assert play_text(START, (3, 3), text) == "8/5(2) 6/3(2)"


def test_marks_choose_the_hit() -> None:
    """13/4 with 6-3 past a blot on 7: unmarked takes the path that hits nothing."""
    pos = board({13: 1}, {7: 1})
    quiet = parse_play(pos, (6, 3), "13/4")
    assert quiet.moves == (Move(13, 10), Move(10, 4))
    assert quiet.position.player[24] == 0
    for text in ("13/7*/4", "13/7* 7/4", "13/7*/4"):
        hit = parse_play(pos, (6, 3), text)
        assert hit.moves == (Move(13, 7, True), Move(7, 4))
        assert hit.position.player[24] == 1
    # A mark where the play hits nothing is refused (tests/test_keys_truth.py).
    assert "says a hit" in reason(pos, (6, 3), "13/4*")


def test_a_written_touch_down_on_a_blot_hits_it() -> None:
    """'13/12 12/10' with 2-1 past a blot on 12 (a live game's M)ove): sent as the quiet 13/11/10,
    while the cursor's 13/12 then 12/10 hits.  A checker stopping on a blot hits it."""
    pos = board({13: 1, 6: 5}, {12: 1, 19: 5})
    for text in ("13/12 12/10", "13/12/10", "12/10 13/12", "13/12* 12/10"):
        play = parse_play(pos, (2, 1), text)
        assert play.moves == (Move(13, 12, True), Move(12, 10)), text
    assert parse_play(pos, (2, 1), "13/10").moves == (Move(13, 11), Move(11, 10))  # no stop written
    pos = board({13: 1}, {7: 1})
    for text in ("13/7/4", "13/7 7/4"):
        assert parse_play(pos, (6, 3), text).moves == (Move(13, 7, True), Move(7, 4)), text
    # A stop written on a blocked point is refused, not read the other way round.
    pos = board({13: 1}, {7: 2})
    assert reason(pos, (6, 3), "13/7/4") == "point 7 is blocked"
    assert parse_play(pos, (6, 3), "13/4").moves == (Move(13, 10), Move(10, 4))


def test_a_forced_hit_needs_no_mark() -> None:
    pos = board({24: 1}, {20: 1})  # 4-4 from 24 must touch 20
    play = parse_play(pos, (4, 4), "24/8")
    assert play.moves[0] == Move(24, 20, True)


def test_forfeit_is_the_empty_play() -> None:
    pos = board({"bar": 1, 6: 14}, {p: 2 for p in range(19, 25)})
    for text in ("", "   "):
        play = parse_play(pos, (6, 1), text)
        assert play == no_play(pos)
        assert play.moves == ()
        assert play.position == pos.swap()
        assert str(play) == ""


# ---------------------------------------------------------------------- reasons


@pytest.mark.parametrize(
    "text, words",
    [
        ("x", "cannot read 'x'"),
        ("24/18 13", "cannot read '13'"),
        ("24//18", "cannot read"),
        ("24/26", "no point 26"),
        ("18/24", "wrong way"),
        ("off/20", "cannot start off the board"),
        ("24/bar", "cannot move to the bar"),
        ("24/off/18", "off must come last"),
        ("24*/18", "not where it starts"),
        ("8/5(0)", "repeat count"),
    ],
)
def test_malformed_text(text: str, words: str) -> None:
    assert words in reason(START, (6, 5), text)


def test_no_checker_on_that_point() -> None:
    assert reason(START, (6, 5), "7/1") == "you have no checker on point 7"
    assert reason(START, (6, 5), "bar/20") == "you have no checker on the bar"
    assert reason(START, (6, 5), "9/3 24/19") == "you have no checker on point 9"
    assert reason(START, (6, 6), "24/18(3) 13/7") == "you have no more checkers on point 24"


def test_must_enter_from_the_bar_first() -> None:
    pos = board({"bar": 1, 13: 5, 6: 5}, {19: 2})
    assert reason(pos, (6, 1), "13/7 6/5") == "you must enter your checker from the bar first"
    pos = board({"bar": 2, 13: 5, 6: 5})
    assert "from the bar first" in reason(pos, (6, 1), "bar/24 13/7")
    assert play_text(pos, (6, 1), "bar/24 bar/19") == "bar/24 bar/19"


def test_blocked_points() -> None:
    assert reason(START, (6, 5), "24/18 24/19") == "point 19 is blocked"
    assert reason(START, (6, 6), "24/12") == "point 12 is blocked"
    pos = board({"bar": 1, 13: 5, 6: 5}, {19: 2, 24: 2})
    assert reason(pos, (6, 1), "bar/19").startswith("point 19 is blocked")


def test_combined_move_touch_down_points() -> None:
    """5-3 from 13: one open touch-down point is enough; with both blocked there is no combined move."""
    pos = board({13: 1}, {8: 2})
    assert play_text(pos, (5, 3), "13/5") == "13/5"
    assert reason(pos, (5, 3), "13/8/5") == "point 8 is blocked"  # a stop written must be open
    assert reason(pos, (5, 3), "13/8 8/5") == "point 8 is blocked"  # as the cursor's drop there is refused
    assert play_text(pos, (5, 3), "13/10/5") == "13/5"
    pos = board({13: 1}, {8: 2, 10: 3})
    assert reason(pos, (5, 3), "13/5").startswith("points 10 and 8 are blocked, so 13/5 has nowhere to touch down")
    pos = board({13: 1, 6: 4}, {5: 2})
    assert reason(pos, (5, 3), "13/5") == "point 5 is blocked"
    pos = board({"bar": 1, 6: 14}, {19: 2, 24: 2})  # dice are never combined to enter
    assert reason(pos, (6, 1), "bar/18").startswith("points 24 and 19 are blocked")


def test_bearing_off_rules() -> None:
    pos = board({8: 1, 6: 5, 5: 5, 4: 4})
    assert reason(pos, (6, 5), "6/off 5/off") == "you cannot bear off while you have checkers outside your home board"
    assert play_text(pos, (6, 5), "6/off 8/3") == "8/3 6/off"  # home first, then off
    pos = board({"bar": 1, 6: 5, 5: 5, 4: 4})
    assert reason(pos, (6, 5), "6/off 5/off") == "you cannot bear off while you have a checker on the bar"
    pos = board({5: 1, 3: 1})
    assert reason(pos, (6, 4), "3/off") == (
        "a 4 may bear off only from your highest point, and you have a checker on point 5"
    )
    assert play_text(pos, (6, 4), "3/off 5/1") == "5/1 3/off"
    pos = board({2: 4, 1: 3})
    assert reason(pos, (6, 5), "2/off 1/off").startswith("a 6 may bear off only from your highest point")
    assert play_text(pos, (6, 5), "2/off(2)") == "2/off(2)"


def test_distance_must_match_the_dice() -> None:
    assert reason(START, (6, 5), "24/14") == (
        "24/14 is 10 pips, which does not match the dice: you have 6-5 to play"
    )
    assert reason(START, (6, 5), "24/18 13/7") == "13/7 does not match the dice: you have a 5 left to play"
    assert reason(START, (3, 3), "13/8") == "13/8 is 5 pips, which does not match the dice: you have four 3s to play"
    assert reason(START, (3, 2), "13/10 13/12").startswith("13/12 is 1 pip, which")  # not '1 pips'
    # Bearing off with checkers out is refused for that, not for the distance ('13/off is 13
    # pips, which does not match the dice' read as if another roll would do).
    assert reason(START, (4, 1), "13/off") == "you cannot bear off while you have checkers outside your home board"
    assert reason(START, (4, 1), "6/off") == "you cannot bear off while you have checkers outside your home board"
    # The higher die first, whichever came up first: 'you have 1-4 to play' beside 'Your turn 4-1'.
    assert reason(START, (1, 4), "13/10") == "13/10 is 3 pips, which does not match the dice: you have 4-1 to play"


def test_each_written_hop_must_fit_the_dice() -> None:
    # The points joined fit 24/13, but the hops as written do not fit 6-5.
    assert reason(START, (6, 5), "24/20 20/13") == (
        "24/20 is 4 pips, which does not match the dice: you have 6-5 to play"
    )


def test_too_many_moves() -> None:
    assert reason(START, (6, 5), "24/18 13/8 8/3").startswith("too many moves for the roll")
    assert reason(START, (3, 3), "24/21(5)").startswith("too many moves")
    assert reason(START, (3, 3), "8/5(99999999)").startswith("too many moves")
    assert reason(START, (2, 1), "24/23/21 13/11").startswith("too many moves for the roll")


def test_the_whole_roll_must_be_played() -> None:
    assert reason(START, (6, 5), "24/18") == (
        "you must play as much of the roll as you can, and a play using both dice exists"
    )
    assert reason(START, (3, 3), "8/5(2)").endswith("a play using all four 3s exists")
    assert reason(START, (6, 5), "") == "you must move: a play using both dice exists"
    pos = board({13: 1, 10: 1}, {8: 2})  # 10/4 first would strand the 5
    assert reason(pos, (6, 5), "10/4").endswith("a play using both dice exists")
    pos = board({24: 1}, {9: 2})  # 5-5: only two 5s can be played
    assert reason(pos, (5, 5), "24/19").endswith("a play using two 5s exists")


def test_higher_die_when_only_one_can_be_played() -> None:
    pos = board({13: 1}, {2: 2})
    assert reason(pos, (6, 5), "13/8") == "only one die can be played, so it must be the higher one: play the 6"
    assert play_text(pos, (6, 5), "13/7") == "13/7"


def test_moving_when_nothing_can_move() -> None:
    pos = board({"bar": 1, 6: 14}, {p: 2 for p in range(19, 25)})
    text = reason(pos, (6, 1), "bar/19")
    assert text.startswith("point 19 is blocked") and "the turn is forfeited" in text


# ------------------------------------------------------------------- round trip


def test_round_trip_in_random_games() -> None:
    """parse_play(pos, dice, str(play)) == play for every legal play."""
    checked = 0
    for pos, dice in random_game_positions(seed=2024, count=1000):
        plays = legal_plays(pos, dice)
        if not plays:
            assert parse_play(pos, dice, "") == no_play(pos)
        for play in plays:
            back = parse_play(pos, dice, str(play))
            assert back == play, (pos.id, dice, str(play), str(back))
            checked += 1
    assert checked > 10_000, checked


def test_round_trip_of_single_moves_in_random_games() -> None:
    """Writing every single-die move separately names the same play too."""
    for pos, dice in random_game_positions(seed=77, count=300):
        for play in legal_plays(pos, dice):
            text = " ".join(str(m) for m in reversed(play.moves))
            assert parse_play(pos, dice, text) == play, (pos.id, dice, text)


def test_moves_past_what_the_roll_lets_be_played_say_so() -> None:
    """Two on the bar, 6-4 with the 6 point blocked: only bar/21 can be played.  Typed twice, it was
    refused with 'you have a 6 left to play', a move that does not exist."""
    pos = board({"bar": 2, 13: 5, 6: 5, 8: 3}, {19: 2, 24: 2})
    assert [str(p) for p in legal_plays(pos, (6, 4))] == ["bar/21"]
    assert reason(pos, (6, 4), "bar/21 bar/21") == "too many moves for the roll: only one die of it can be played"
    # The other checker on the bar is why 13/7 cannot be played: said.
    assert reason(pos, (6, 4), "bar/21 13/7") == ("you must enter your checker from the bar first: "
                                                  "only one die of the roll can be played")
    # Below what the roll lets be played, the specific reason stands.
    assert reason(START, (6, 5), "24/18 13/7") == "13/7 does not match the dice: you have a 5 left to play"


def test_too_many_moves_names_the_move_that_takes_two_dice() -> None:
    """8/5 6/2 with 3-1 is two moves for two dice: 'too many moves for the roll' alone left the
    player counting moves.  6/2 takes both dice; that is what is said."""
    assert reason(START, (3, 1), "8/5 6/2") == (
        "too many moves for the roll: 6/2 is 4 pips, which takes both dice, and you have 3-1 to play"
    )
    assert reason(START, (3, 3), "13/7 13/4") == (
        "too many moves for the roll: 13/4 is 9 pips, which takes three 3s, and you have four 3s to play"
    )
    pos = board({4: 2, 3: 13})
    assert reason(pos, (3, 2), "3/off 4/off").startswith("too many moves for the roll: 4/off is 4 pips, which takes")
    # More moves than dice: the count is the mistake.
    assert reason(START, (6, 5), "24/18 13/8 8/3") == "too many moves for the roll: you have 6-5 to play"


def test_a_bear_off_refused_at_its_second_die_says_where_the_first_took_it() -> None:
    """4/off with 3-2 and a checker on the 6 point was refused with 'a 2 may bear off only from
    your highest point': the 2 of 4/1/off, read as if it were about the 4 point."""
    pos = board({6: 1, 4: 1, 3: 13})
    assert reason(pos, (3, 2), "4/off") == (
        "4/off would be 4/1/off, where a 2 may bear off only from your highest point, "
        "and you have a checker on point 6"
    )
    # Said as before where the path is written out, or is one die.
    assert reason(pos, (3, 2), "4/1/off").startswith("a 2 may bear off only from your highest point")
    assert reason(board({5: 1, 3: 1}), (6, 4), "3/off").startswith("a 4 may bear off only")


def test_a_move_from_a_point_without_a_checker_says_so_before_the_distance() -> None:
    """'7/5 3/off' with 2-1 and no checker on 3 read 'too many moves for the roll: 3/off is 3 pips,
    which takes both dice', and '4/off 7/5' '4/off is 4 pips, which does not match the dice'."""
    pos = board({7: 1, 6: 2, 5: 3, 2: 4, 1: 5})
    assert reason(pos, (2, 1), "7/5 3/off") == "you have no checker on point 3"
    assert reason(pos, (2, 1), "4/off 7/5") == "you have no checker on point 4"
    assert reason(pos, (2, 1), "7/5 3/2") == "you have no checker on point 3"
    assert play_text(pos, (2, 1), "7/5 5/4") == "7/4"  # a checker brought there first is there


def test_a_blocked_entry_past_what_the_roll_lets_be_played_is_named() -> None:
    """Two on the bar, 5-3, the 20 point held: 'bar/22 bar/20' read only 'too many moves for the
    roll: only one die of it can be played'."""
    pos = board({"bar": 2, 6: 13}, {20: 2, 19: 13})
    assert [str(p) for p in legal_plays(pos, (5, 3))] == ["bar/22"]
    assert reason(pos, (5, 3), "bar/22 bar/20") == "point 20 is blocked: only one die of the roll can be played"
