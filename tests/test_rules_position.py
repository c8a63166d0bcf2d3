"""Positions and GNU Backgammon Position IDs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from test_rules_support import board, dice_rolls, positions, random_game_positions

from bgdoor.rules.moves import legal_plays
from bgdoor.rules.position import CHECKERS, Move, Position, PositionError, _encode

START_ID = "4HPwATDgc/ABMA"


def test_start_position_id() -> None:
    assert Position.start().id == START_ID
    assert Position.from_id(START_ID) == Position.start()


def test_known_ids() -> None:
    # Both checked with gnubg.positionid.
    play = next(p for p in legal_plays(Position.start(), (3, 1)) if str(p) == "8/5 6/5")
    assert play.position.id == "sGfwATDgc/ABMA"
    pos = board({6: 2, 5: 3, "bar": 1}, {20: 2, "bar": 2})
    assert pos.id == "MAAADG4AAAQAAA"
    assert Position.from_id("MAAADG4AAAQAAA") == pos


def test_empty_board_id() -> None:
    # All zero bits: both sides have borne everything off; a valid (if final) position.
    assert Position.from_id("AAAAAAAAAAAAAA") == Position((0,) * 25, (0,) * 25)


@given(positions())
@settings(max_examples=300, deadline=None)
def test_id_round_trip(pos: Position) -> None:
    assert len(pos.id) == 14
    assert Position.from_id(pos.id) == pos


def test_id_round_trip_in_games() -> None:
    for pos, _ in random_game_positions(seed=5, count=2000):
        assert Position.from_id(pos.id) == pos


@pytest.mark.parametrize(
    "bad",
    [
        "",  # empty
        "4HPwATDgc/ABM",  # 13 characters
        "4HPwATDgc/ABMAA",  # 15 characters
        "4HPwATDgc/AB!A",  # not base64
        "//////////////",  # all ones: more than 15 checkers
        "4HPwATDgc/AB/w",  # too many checkers for the second side
        "4HPw ATDgc/ABM",  # a space
    ],
)
def test_bad_ids_raise(bad: str) -> None:
    with pytest.raises(PositionError):
        Position.from_id(bad)


def test_id_with_both_sides_on_one_point_raises() -> None:
    # Hand-encode: player on roll has a checker on its 1 point, the other side on its 24 (the same point).
    me = (1,) + (0,) * 24
    opp = (0,) * 23 + (1, 0)
    with pytest.raises(PositionError):
        Position(me, opp)
    with pytest.raises(PositionError):
        Position.from_id(_encode(opp, me))


def test_bad_positions_raise() -> None:
    with pytest.raises(PositionError):
        Position((0,) * 24, Position.start().opponent)
    with pytest.raises(PositionError):
        Position((16,) + (0,) * 24, (0,) * 25)
    with pytest.raises(PositionError):
        Position((-1,) + (0,) * 24, (0,) * 25)


@given(positions(), dice_rolls)
@settings(max_examples=300, deadline=None)
def test_checkers_are_conserved(pos: Position, dice: tuple[int, int]) -> None:
    """The mover loses checkers from the board only by bearing off; the other side never does."""
    for play in legal_plays(pos, dice):
        after = play.position
        borne_off = sum(1 for m in play.moves if m.dst == 0)
        assert sum(after.opponent) == sum(pos.player) - borne_off
        assert sum(after.player) == sum(pos.opponent)


def test_fifteen_checkers_each_through_games() -> None:
    """Counting borne-off checkers separately, each side always has exactly fifteen."""
    for pos, dice in random_game_positions(seed=11, count=3000):
        plays = legal_plays(pos, dice)
        for play in plays[:5]:
            off = pos.player_off + sum(1 for m in play.moves if m.dst == 0)
            assert sum(play.position.opponent) + off == CHECKERS
            assert sum(play.position.player) + pos.opponent_off == CHECKERS



@settings(max_examples=150, deadline=None)
@given(positions(), dice_rolls)
def test_apply_walks_every_legal_play_to_its_result(pos: Position, dice: tuple[int, int]) -> None:
    for play in legal_plays(pos, dice):
        after = pos
        for move in play.moves:
            after = after.apply(move)
        assert after.swap() == play.position  # a play's result has the opponent on roll


def test_apply_enters_hits_and_bears_off() -> None:
    pos = board({13: 1, "bar": 1, 2: 1}, {20: 1, 5: 2})  # opponent checkers on our 20 and 5 points
    assert pos.apply(Move(25, 22)) == board({13: 1, 22: 1, 2: 1}, {20: 1, 5: 2})
    assert pos.apply(Move(25, 20)) == board({13: 1, 20: 1, 2: 1}, {"bar": 1, 5: 2})
    assert board({2: 1}).apply(Move(2, 0)) == board({})


@pytest.mark.parametrize(
    ("move", "why"),
    [(Move(7, 3), "no checker"), (Move(13, 20), "cannot move"), (Move(13, 13), "cannot move"), (Move(13, 5), "held")],
)
def test_apply_refuses_what_cannot_be(move: Move, why: str) -> None:
    pos = board({13: 2}, {5: 2})  # the opponent holds our 5-point
    with pytest.raises(PositionError, match=why):
        pos.apply(move)
