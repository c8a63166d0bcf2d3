"""The computer's plays: always legal, repeatable with a seeded rng, and the levels differ."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings, strategies as st
from test_rules_support import board, dice_rolls, positions, random_game_positions

from bgdoor.bot.brain import Bot, CubeContext, Level, built_in_net
from bgdoor.bot.net import N_INPUTS, boards_of, encode
from bgdoor.rules.moves import legal_plays
from bgdoor.rules.position import Position

BUILT_IN = [Level.BEGINNER, Level.INTERMEDIATE]


@given(positions(), dice_rolls, st.sampled_from(BUILT_IN), st.integers(0, 2**32 - 1), st.booleans())
@settings(max_examples=300, deadline=None)
def test_play_is_always_legal(pos: Position, dice: tuple[int, int], level: Level, seed: int, match: bool) -> None:
    ctx = CubeContext(cube=2, length=7, my_score=3, their_score=5) if match else None
    plays = legal_plays(pos, dice)
    play = Bot(level, rng=random.Random(seed)).choose_play(pos, dice, ctx)
    if not plays:
        assert play is None
    else:
        assert play is not None
        assert any(play == p and play.moves == p.moves for p in plays)


def test_same_seed_same_plays() -> None:
    items = random_game_positions(11, 80)
    for level in BUILT_IN:
        a, b = Bot(level, rng=random.Random(3)), Bot(level, rng=random.Random(3))
        assert [str(a.choose_play(p, d)) for p, d in items] == [str(b.choose_play(p, d)) for p, d in items]


def test_beginner_differs_from_intermediate_sometimes() -> None:
    items = random_game_positions(12, 150)
    beginner, intermediate = Bot(Level.BEGINNER, rng=random.Random(1)), Bot(Level.INTERMEDIATE, rng=random.Random(1))
    differ = sum(beginner.choose_play(p, d) != intermediate.choose_play(p, d) for p, d in items)
    assert 0 < differ < len(items)


def test_bears_off_the_last_checkers_when_it_can() -> None:
    pos = board({1: 1, 2: 1}, {20: 2, 6: 13})
    play = Bot(Level.INTERMEDIATE).choose_play(pos, (2, 1))
    assert play is not None and play.position.opponent_off == 15


def test_hits_and_makes_points_in_the_opening() -> None:
    bot = Bot(Level.INTERMEDIATE)
    assert str(bot.choose_play(Position.start(), (3, 1))) == "8/5 6/5"
    assert str(bot.choose_play(Position.start(), (6, 1))) == "13/7 8/7"


def test_batched_evaluation_matches_one_at_a_time() -> None:
    net = built_in_net()
    items = [p for p, _ in random_game_positions(13, 40)]
    together = net.probabilities(boards_of(items))
    alone = np.vstack([net.probabilities(boards_of([p])) for p in items])
    assert np.allclose(together, alone, atol=1e-5)
    assert encode(boards_of(items)).shape == (40, N_INPUTS)
    # A backgammon is a gammon is a win, for each side.
    assert np.all(together[:, 2] <= together[:, 1] + 1e-6) and np.all(together[:, 1] <= together[:, 0] + 1e-6)
    assert np.all(together[:, 4] <= together[:, 3] + 1e-6) and np.all(together[:, 3] <= 1 - together[:, 0] + 1e-6)


def test_finished_games_are_scored_exactly() -> None:
    net = built_in_net()
    # The side not on roll has borne off everything; the side on roll has none off.
    backgammoned = Position((0,) * 5 + (14,) + (0,) * 13 + (1,) + (0,) * 5, (0,) * 25)
    gammoned = Position((0,) * 5 + (15,) + (0,) * 19, (0,) * 25)
    single = Position((0,) * 5 + (14,) + (0,) * 19, (0,) * 25)
    probs = net.probabilities(boards_of([backgammoned, gammoned, single]))
    assert np.array_equal(probs, [[0, 0, 0, 1, 1], [0, 0, 0, 1, 0], [0, 0, 0, 0, 0]])


def test_in_a_match_gammons_count_for_the_score() -> None:
    # At double match point only winning matters; with money the gammon counts too.
    bot = Bot(Level.INTERMEDIATE)
    items = random_game_positions(14, 60)
    money = [bot.choose_play(p, d) for p, d in items]
    dmp = [bot.choose_play(p, d, CubeContext(length=7, my_score=6, their_score=6)) for p, d in items]
    assert money != dmp
