"""Cube decisions: the built-in model's arithmetic, and the bots on positions whose answer is clear."""

from __future__ import annotations

import dataclasses
import random

import pytest
from test_rules_support import board

from bgdoor.bot.brain import Bot, CubeContext, Level, Owner, context_of
from bgdoor.bot.cube import cube_values, match_winning_chance
from bgdoor.rules.game import Color, Phase, Win, new_match
from bgdoor.rules.position import Position

MONEY = CubeContext()


def no_gammons(p: float) -> tuple[float, ...]:
    return (p, 0.0, 0.0, 0.0, 0.0)


# ------------------------------------------------------------------ the model


def test_money_doubling_window_without_gammons() -> None:
    # Janowski's model with a cube efficiency of 0.68: double from about 70%, take up to about 78%.
    assert not cube_values(no_gammons(0.60), MONEY).should_double
    assert cube_values(no_gammons(0.72), MONEY).should_double
    assert cube_values(no_gammons(0.72), MONEY).should_take
    assert cube_values(no_gammons(0.76), MONEY).should_take
    assert not cube_values(no_gammons(0.82), MONEY).should_take
    assert cube_values(no_gammons(0.90), MONEY).should_double  # and the opponent passes


def test_too_good_to_double_plays_on_for_the_gammon() -> None:
    gammonish = (0.90, 0.55, 0.02, 0.0, 0.0)
    assert not cube_values(gammonish, MONEY).should_double
    assert (
        cube_values(gammonish, dataclasses.replace(MONEY, length=5, my_score=0, their_score=3)).should_double is False
    )


def test_owning_the_cube_waits_longer_than_a_centred_cube() -> None:
    probs = no_gammons(0.69)
    centred = cube_values(probs, MONEY)
    owned = cube_values(probs, dataclasses.replace(MONEY, owner=Owner.ME, cube=2))
    assert owned.no_double / 2 > centred.no_double


def test_match_table_is_sensible() -> None:
    assert match_winning_chance(5, 5) == pytest.approx(0.5)
    assert match_winning_chance(3, 7) + match_winning_chance(7, 3) == pytest.approx(1.0)
    # Leading is good, and more so the closer the leader is to the end.
    assert 0.5 < match_winning_chance(3, 5) < match_winning_chance(2, 5) < match_winning_chance(1, 5) < 1.0
    # Crawford: the leader needing 1 against 2 wins about 70%.
    assert match_winning_chance(1, 2) == pytest.approx(0.69, abs=0.03)


def test_trailer_doubles_at_once_after_crawford() -> None:
    ctx = CubeContext(length=5, my_score=1, their_score=4, post_crawford=True)
    assert cube_values(no_gammons(0.40), ctx).should_double
    # The leader at 1-away never gains by doubling.
    lead = ctx.flipped()
    assert not cube_values(no_gammons(0.75), lead).should_double


def test_no_double_in_the_crawford_game() -> None:
    bot = Bot(Level.INTERMEDIATE)
    ctx = CubeContext(length=5, my_score=2, their_score=4, crawford=True)
    assert not bot.should_double(board({1: 2}, {6: 10}), ctx)


# ---------------------------------------------------------- on positions

# The side on roll bears off its last two checkers next roll for sure; the other side has ten left.
CERTAIN_WIN = board({1: 2}, {19: 5, 20: 5})
# About 72% to win, few gammons: double and take (gnubg agrees, for money and at 7-away 7-away).
DOUBLE_TAKE = Position.from_id("cdtEAA2G7z4AAA")
# Three checkers on the bar against a closed board: a gammon nine times in ten; play on, and pass if doubled.
TOO_GOOD = Position.from_id("eA94AHDbtjkAAA")
# The opening position: nobody doubles, anybody takes.
START = Position.start()


@pytest.mark.parametrize("level", [Level.BEGINNER, Level.INTERMEDIATE])
def test_doubles_a_clear_winner_and_drops_when_lost(level: Level) -> None:
    bot = Bot(level, rng=random.Random(1))
    assert bot.should_double(CERTAIN_WIN, MONEY)
    # Now the bot is doubled in the same position: it should pass.
    assert not bot.should_take(CERTAIN_WIN, MONEY)


@pytest.mark.parametrize("ctx", [MONEY, CubeContext(length=9, my_score=2, their_score=2)])
def test_intermediate_doubles_when_clearly_ahead_and_takes_it(ctx: CubeContext) -> None:
    bot = Bot(Level.INTERMEDIATE)
    assert bot.should_double(DOUBLE_TAKE, ctx)
    assert bot.should_take(DOUBLE_TAKE, ctx)


def test_too_good_to_double_and_a_pass() -> None:
    bot = Bot(Level.INTERMEDIATE)
    assert not bot.should_double(TOO_GOOD, MONEY)
    assert not bot.should_take(TOO_GOOD, MONEY)


def test_no_double_at_the_start_and_a_take_if_doubled() -> None:
    bot = Bot(Level.INTERMEDIATE)
    assert not bot.should_double(START, MONEY)
    assert bot.should_take(START, MONEY)


def test_cannot_double_a_cube_the_opponent_owns() -> None:
    bot = Bot(Level.INTERMEDIATE)
    assert not bot.should_double(CERTAIN_WIN, CubeContext(cube=2, owner=Owner.OPPONENT))


def test_match_state_adapter() -> None:
    state = dataclasses.replace(
        new_match(7), phase=Phase.ROLL, turn=Color.WHITE, position=CERTAIN_WIN, score=(2, 3), game=3
    )
    ctx = context_of(state, Color.WHITE)
    assert ctx == CubeContext(cube=1, owner=Owner.CENTRED, length=7, my_score=2, their_score=3)
    assert context_of(dataclasses.replace(state, cube=2, cube_owner=Color.BLACK), Color.WHITE).owner is Owner.OPPONENT
    bot = Bot(Level.INTERMEDIATE)
    assert bot.should_double(state, Color.WHITE)
    doubled = dataclasses.replace(state, phase=Phase.DOUBLED)
    assert not bot.should_take(doubled, Color.BLACK)


def test_accepts_a_resignation_worth_what_the_game_is() -> None:
    bot = Bot(Level.INTERMEDIATE)
    # The bot (on roll) is sure to win a single game: a single resignation is enough...
    assert bot.should_accept_resign(CERTAIN_WIN, MONEY, 1)
    # ...but not when it is sure of a gammon.
    gammon = board({1: 2}, {19: 8, 20: 7})
    assert not bot.should_accept_resign(gammon, MONEY, 1)
    assert bot.should_accept_resign(gammon, MONEY, 2)
    # Through a MatchState, with the resigner on roll.
    state = dataclasses.replace(
        new_match(7),
        phase=Phase.RESIGNED,
        turn=Color.BLACK,
        position=gammon.swap(),
        resign_by=Color.BLACK,
        resign_win=Win.SINGLE,
    )
    assert not bot.should_accept_resign(state, Color.WHITE)
    assert bot.should_accept_resign(dataclasses.replace(state, resign_win=Win.GAMMON), Color.WHITE)
