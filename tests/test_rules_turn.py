"""Turn: one checker move at a time, never into a dead end, always ending in a legal play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st
from test_rules_support import board, dice_rolls, positions, random_game_positions

from bgdoor.rules.moves import Move, legal_plays
from bgdoor.rules.parse import IllegalPlay, no_play
from bgdoor.rules.position import Position
from bgdoor.rules.turn import Turn, as_played, in_notation_order


def refused(turn: Turn, src: int, dst: int) -> str:
    before = turn.moves
    with pytest.raises(IllegalPlay) as info:
        turn.move(src, dst)
    assert turn.moves == before  # nothing half-done
    return str(info.value)


# ----------------------------------------------------------------- known answers


def test_opening_65() -> None:
    turn = Turn(Position.start(), (6, 5))
    assert turn.start == Position.start() and turn.dice == (6, 5)
    assert turn.sources() == [24, 13, 8]
    assert turn.destinations(24) == [18, 13]  # 24/19 is blocked; 13 by way of 18
    assert turn.destinations(13) == [8, 7, 2]
    assert not turn.is_complete and turn.play is None
    turn.move(13, 7)
    assert turn.moves == (Move(13, 7),)
    assert turn.remaining_dice == (5,)
    assert turn.position.player[12] == 4 and turn.position.player[6] == 1  # same side still on roll
    turn.move(13, 8)
    assert turn.is_complete
    assert str(turn.play) == "13/8 13/7"
    assert turn.play in legal_plays(Position.start(), (6, 5))


def test_combined_move_is_decomposed_and_undone_one_die_at_a_time() -> None:
    turn = Turn(Position.start(), (6, 5))
    last = turn.move(24, 13)
    assert last == Move(18, 13)
    assert turn.moves == (Move(24, 18), Move(18, 13))
    assert turn.is_complete and str(turn.play) == "24/13"
    assert turn.undo() == Move(18, 13)
    assert turn.moves == (Move(24, 18),) and turn.remaining_dice == (5,)
    assert turn.undo() == Move(24, 18)
    assert turn.position == Position.start() and turn.remaining_dice == (6, 5)
    with pytest.raises(IllegalPlay, match="no move to take back"):
        turn.undo()


def test_combined_move_touch_down_points() -> None:
    """5-3 from 13: 8 blocked and 10 open gives one path; both blocked gives none."""
    turn = Turn(board({13: 1}, {8: 2}), (5, 3))
    assert turn.destinations(13) == [10, 5]
    turn.move(13, 5)
    assert turn.moves == (Move(13, 10), Move(10, 5))
    turn = Turn(board({13: 1}, {8: 2, 10: 3}), (5, 3))
    assert turn.no_play and turn.destinations(13) == []


def test_combined_move_prefers_not_to_hit() -> None:
    turn = Turn(board({13: 1}, {7: 1}), (6, 3))
    assert turn.destinations(13) == [10, 7, 4]
    turn.move(13, 4)
    assert turn.moves == (Move(13, 10), Move(10, 4))
    turn.undo()
    turn.undo()
    turn.move(13, 7)
    turn.move(7, 4)
    assert turn.moves == (Move(13, 7, True), Move(7, 4))
    assert turn.play is not None and turn.play.position.player[24] == 1


def test_bar_first() -> None:
    turn = Turn(board({"bar": 1, 13: 5, 6: 5}, {19: 2}), (6, 1))
    assert turn.sources() == [25]
    assert turn.destinations(25) == [24, 18]
    assert refused(turn, 13, 7) == "you must enter your checker from the bar first"
    assert refused(turn, 25, 19) == "point 19 is blocked"
    turn.move(25, 24)
    assert 13 in turn.sources()


def test_bearing_off_from_outside_is_refused_for_the_checkers_left_out() -> None:
    """13/off with 4-4 from the start touches 9, 5 and 1: it was refused as 'point 1 is blocked,
    so 13/off has nowhere to touch down', as if it would do with point 1 open."""
    turn = Turn(Position.start(), (4, 4))
    assert refused(turn, 13, 0) == "you cannot bear off while you have checkers outside your home board"
    # The one checker out, home with the first die and off with the second: the walk says why not.
    turn = Turn(board({8: 1, 6: 5, 5: 5, 4: 4}, {3: 2}), (5, 6))
    assert "outside" not in refused(turn, 8, 0)


def test_bearing_off() -> None:
    turn = Turn(board({8: 1, 6: 5, 5: 5, 4: 4}), (6, 5))
    assert refused(turn, 6, 0) == "you cannot bear off while you have checkers outside your home board"
    turn.move(8, 3)
    turn.move(6, 0)
    assert str(turn.play) == "8/3 6/off"
    turn = Turn(board({5: 1, 3: 1}), (6, 4))
    assert "may bear off only from your highest point" in refused(turn, 3, 0)
    turn = Turn(board({2: 4, 1: 3}), (6, 5))
    assert turn.legal_moves() == [Move(2, 0)]
    turn.move(2, 0)
    turn.move(2, 0)
    assert str(turn.play) == "2/off(2)"


def test_refusal_says_why_move_would_refuse_without_moving() -> None:
    turn = Turn(board({6: 2, 5: 2}), (5, 3))
    turn.move(5, 0)
    assert turn.refusal(6, 3) is None
    assert turn.refusal(6, 0) == refused(turn, 6, 0)
    assert "does not match the dice: you have a 3" in (turn.refusal(6, 0) or "")
    assert turn.moves == (Move(5, 0),)


def test_either_die_bearing_off_uses_the_lower() -> None:
    turn = Turn(board({3: 1, 1: 1}), (6, 5))
    turn.move(3, 0)
    assert turn.remaining_dice == (6,)
    turn.move(1, 0)
    assert str(turn.play) == "3/off 1/off"


def test_a_first_move_that_strands_the_other_die_is_refused() -> None:
    turn = Turn(board({13: 1, 10: 1}, {8: 2}), (6, 5))
    assert Move(10, 4) not in turn.legal_moves()
    assert refused(turn, 10, 4) == (
        "you must play as much of the roll as you can, and after 10/4 the rest could not be played"
    )


def test_higher_die_when_only_one_can_be_played() -> None:
    turn = Turn(board({13: 1}, {2: 2}), (6, 5))
    assert turn.required == 1
    assert turn.legal_moves() == [Move(13, 7)]
    assert refused(turn, 13, 8) == "only one die can be played, so it must be the higher one: play the 6"
    turn.move(13, 7)
    assert turn.is_complete and turn.remaining_dice == (5,)
    assert refused(turn, 7, 2) == "no more of the roll can be played: the turn is complete"


def test_doubles() -> None:
    turn = Turn(Position.start(), (3, 3))
    assert turn.remaining_dice == (3, 3, 3, 3)
    turn.move(8, 2)  # two 3s in one go
    assert turn.remaining_dice == (3, 3)
    assert refused(turn, 13, 4) == "13/4 is 9 pips, which does not match the dice: you have two 3s to play"
    turn.move(6, 3)
    turn.move(6, 3)
    assert str(turn.play) == "8/2 6/3(2)"
    assert refused(turn, 13, 10) == "all the dice are played: the turn is complete"


def test_forfeit() -> None:
    pos = board({"bar": 1, 6: 14}, {p: 2 for p in range(19, 25)})
    turn = Turn(pos, (6, 5))
    assert turn.no_play and turn.is_complete
    assert turn.legal_moves() == [] and turn.sources() == []
    assert turn.play == no_play(pos)
    assert refused(turn, 25, 20) == "no move is possible with this roll: the turn is forfeited"


def test_malformed_moves_are_refused() -> None:
    turn = Turn(Position.start(), (6, 5))
    assert "lower point" in refused(turn, 5, 8)
    assert "lower point" in refused(turn, 26, 20)
    assert refused(turn, 9, 3) == "you have no checker on point 9"


def test_bearing_off_from_an_empty_point_says_there_is_no_checker() -> None:
    """R)emove over an empty home point (the opponent's checker on it) said '5/off is 5 pips,
    which does not match the dice', as if the player had a checker there."""
    pos = board({1: 3}, {5: 1, 24: 14})  # the opponent's checker sits on the player's 5 point
    turn = Turn(pos, (2, 1))
    assert refused(turn, 5, 0) == "you have no checker on point 5"
    assert refused(turn, 4, 0) == "you have no checker on point 4"
    turn.move(1, 0)
    turn.move(1, 0)
    assert refused(turn, 1, 0) == "all the dice are played: the turn is complete"
    turn = Turn(board({1: 1, 2: 1}, {24: 15}), (2, 1))
    turn.move(2, 0)
    assert refused(turn, 2, 0) == "you have no more checkers on point 2"


# ------------------------------------------------------------------- properties


def _reachable(turn: Turn) -> set[Position]:
    """Every play the turn can end in, by trying each legal move in turn (states memoised)."""
    out: set[Position] = set()
    seen: set[tuple[Position, tuple[int, ...]]] = set()

    def walk() -> None:
        state = (turn.position, turn.remaining_dice)
        if state in seen:
            return
        seen.add(state)
        moves = turn.legal_moves()
        if turn.is_complete:
            assert not moves
            assert turn.play is not None
            out.add(turn.play.position)
            return
        assert moves, "a dead end: not complete but nothing to move"
        for m in moves:
            turn.move(m.src, m.dst)
            walk()
            turn.undo()

    walk()
    return out


@given(positions(), dice_rolls)
@settings(max_examples=150, deadline=None)
def test_legal_moves_reach_exactly_the_legal_plays(pos: Position, dice: tuple[int, int]) -> None:
    """Following legal_moves never dead-ends, and every legal play (and nothing else) is reachable."""
    turn = Turn(pos, dice)
    plays = {p.position for p in legal_plays(pos, dice)}
    if not plays:
        assert turn.no_play and turn.play == no_play(pos)
        return
    assert _reachable(turn) == plays


@given(positions(), dice_rolls)
@settings(max_examples=200, deadline=None)
def test_every_legal_play_can_be_made_move_by_move(pos: Position, dice: tuple[int, int]) -> None:
    for play in legal_plays(pos, dice):
        turn = Turn(pos, dice)
        for m in play.moves:
            assert not turn.is_complete
            assert m in turn.legal_moves()
            turn.move(m.src, m.dst)
        assert turn.is_complete
        assert turn.play == play
        assert len(turn.moves) == len(play.moves)


@given(positions(), dice_rolls, st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_random_cursor_play_never_dead_ends(pos: Position, dice: tuple[int, int], rng: random.Random) -> None:
    """Pick a source, then any destination offered (combined ones too), with undos mixed in."""
    plays = {p.position for p in legal_plays(pos, dice)}
    turn = Turn(pos, dice)
    for _ in range(12):
        if turn.is_complete:
            break
        sources = turn.sources()
        assert sources
        src = rng.choice(sources)
        dests = turn.destinations(src)
        assert dests
        turn.move(src, rng.choice(dests))
        if turn.moves and rng.random() < 0.2:
            turn.undo()
    while not turn.is_complete:
        move = rng.choice(turn.legal_moves())
        turn.move(move.src, move.dst)
    assert turn.play is not None
    assert turn.play.position in plays or (not plays and turn.play == no_play(pos))


def test_random_games_played_out_with_turns() -> None:
    """A few hundred real positions: each legal play made move by move gives itself back."""
    for pos, dice in random_game_positions(seed=99, count=300):
        plays = legal_plays(pos, dice)
        for play in plays[:8]:
            turn = Turn(pos, dice)
            for m in play.moves:
                turn.move(m.src, m.dst)
            assert turn.play == play


def test_bearing_off_from_an_empty_place_says_why_nothing_can_come_off() -> None:
    """R with the cursor on an empty bar, while a checker was still on the 7: 'you have no
    checker on the bar' was true, but the reason was the checker outside the home board."""
    turn = Turn(board({7: 1, 5: 3, 2: 11}), (5, 2))
    assert turn.refusal(25, 0) == "you cannot bear off while you have checkers outside your home board"
    assert turn.refusal(4, 0) == "you cannot bear off while you have checkers outside your home board"
    # All home: an empty point is the reason.
    turn = Turn(board({5: 4, 2: 11}), (5, 2))
    assert turn.refusal(4, 0) == "you have no checker on point 4"


@settings(max_examples=60, deadline=None)
@given(positions(), dice_rolls, st.randoms(use_true_random=False))
def test_leads_to_is_true_for_exactly_the_plays_that_carry_on_from_the_moves_made(
        position: Position, dice: tuple[int, int], rnd: random.Random) -> None:
    """After some moves, leads_to(a legal play's result) holds exactly when the turn can still be
    finished there: checked against finishing it every way, one single move at a time, with no
    board looked at twice skipped."""
    turn = Turn(position, dice)
    for _ in range(rnd.randint(0, 2)):
        options = turn.legal_moves()
        if not options or turn.is_complete:
            break
        m = rnd.choice(options)
        turn.move(m.src, m.dst)
    made = turn.moves

    def ends(t: Turn) -> set[Position]:
        if t.is_complete:
            play = t.play
            return {play.position} if play is not None else set()
        found: set[Position] = set()
        for m in t.legal_moves():
            t.move(m.src, m.dst)
            found |= ends(t)
            t.undo()
        return found

    reachable = ends(turn)
    for play in legal_plays(position, dice) or [no_play(position)]:
        assert turn.leads_to(play.position) is (play.position in reachable), (made, play)
    assert turn.moves == made  # looked, not moved



def test_a_play_s_moves_in_the_order_its_notation_reads() -> None:
    """V)iew last replayed '24/22 13/10' as 13/10, then 24/22: the rules make plays die by die."""
    start = Position.from_id("4HPwATDgc/ABMA")
    play = next(p for p in legal_plays(start, (3, 2)) if str(p) == "24/22 13/10")
    assert [str(m) for m in in_notation_order(start, (3, 2), play)] == ["24/22", "13/10"]
    play = next(p for p in legal_plays(start, (4, 4)) if str(p) == "24/16 13/9 8/4")
    assert [str(m) for m in in_notation_order(start, (4, 4), play)] == ["24/20", "20/16", "13/9", "8/4"]


@given(positions(), dice_rolls)
@settings(max_examples=150, deadline=None)
def test_a_play_in_notation_order_is_made_move_by_move(pos: Position, dice: tuple[int, int]) -> None:
    """In whatever order they come, the moves are the play's, legal one after another."""
    for play in legal_plays(pos, dice):
        moves = in_notation_order(pos, dice, play)
        assert sorted((m.src, m.dst) for m in moves) == sorted((m.src, m.dst) for m in play.moves)
        turn = Turn(pos, dice)
        for m in moves:
            turn.move(m.src, m.dst)
        assert turn.play == play


def test_a_typed_rest_is_refused_for_the_dice_left() -> None:
    """After 24/18 of 6-6 with the cursor, M's line '24/18 24/18 13/7 13/1' was refused as 'you
    have four 6s to play' beside the board's 'three 6s to play': the moves made counted as typed."""
    turn = Turn(Position.start(), (6, 6))
    turn.move(24, 18)
    assert turn.refusal_after("24/18 13/7 13/1") == (
        "too many moves for the roll: 13/1 is 12 pips, which takes two 6s, and you have three 6s to play")
    assert turn.refusal_after("24/18 13/7 13/7") is None
    turn = Turn(Position.start(), (3, 1))
    turn.move(13, 10)
    assert turn.refusal_after("6/4") == "6/4 is 2 pips, which does not match the dice: you have a 1 to play"
    assert turn.refusal_after("5/4") == "you have no checker on point 5"
    assert turn.refusal_after("6/5") is None
    assert turn.moves == (Move(13, 10),)


def test_a_play_is_replayed_in_the_order_its_moves_were_made() -> None:
    start = Position.from_id("4HPwATDgc/ABMA")
    play = next(p for p in legal_plays(start, (4, 2)) if str(p) == "13/7")
    assert [str(m) for m in as_played(start, (4, 2), [(13, 11), (11, 7)], play) or ()] == ["13/11", "11/7"]
    assert [str(m) for m in as_played(start, (4, 2), [(13, 9), (9, 7)], play) or ()] == ["13/9", "9/7"]
    assert as_played(start, (4, 2), [(13, 9), (9, 5)], play) is None  # another play
    assert as_played(start, (4, 2), [(13, 9)], play) is None  # not all of it
    assert as_played(start, (4, 2), [(24, 14)], play) is None  # not a move at all


def test_a_play_s_path_goes_with_its_record_and_leaves_it_the_same_play() -> None:
    from bgdoor.rules.game import Move as Played, event_from_dict  # noqa: PLC0415

    made = Played("13/7", "4HPwATDgc/ABMA", ((13, 11), (11, 7)))
    assert event_from_dict(made.to_dict()).path == ((13, 11), (11, 7))  # type: ignore[attr-defined]
    assert made == Played("13/7", "4HPwATDgc/ABMA")  # one play, whatever its order
    assert "path" not in Played("13/7", "4HPwATDgc/ABMA").to_dict()  # the records before it read the same
