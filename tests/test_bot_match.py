"""Bots play whole matches through the rules engine's state machine, cube and all."""

from __future__ import annotations

import random

import pytest

from bgdoor.bot.brain import Bot, Level, context_of
from bgdoor.rules.game import Color, Double, Drop, MatchState, Move, OpeningRoll, Phase, Roll, Take, apply, new_match


def play_match(length: int, bots: dict[Color, Bot], seed: int) -> tuple[MatchState, int]:
    dice = random.Random(seed)
    state = new_match(length)
    doubles = 0
    for _ in range(5000):
        if state.phase is Phase.OVER:
            return state, doubles
        if state.phase is Phase.OPENING:
            event = OpeningRoll(dice.randint(1, 6), dice.randint(1, 6))
        elif state.phase is Phase.ROLL:
            assert state.turn is not None
            if state.can_double() and bots[state.turn].should_double(state, state.turn):
                event, doubles = Double(), doubles + 1
            else:
                event = Roll((dice.randint(1, 6), dice.randint(1, 6)))
        elif state.phase is Phase.DOUBLED:
            assert state.turn is not None
            taker = state.turn.other
            event = Take() if bots[taker].should_take(state, taker) else Drop()
        else:
            assert state.phase is Phase.MOVE and state.turn is not None and state.dice is not None
            play = bots[state.turn].choose_play(state.position, state.dice, context_of(state, state.turn))
            event = Move(str(play) if play else "", play.position.id if play else state.position.swap().id)
        state, _ = apply(state, event)
    raise AssertionError("the match did not finish")


@pytest.mark.parametrize("seed", [1, 2])
def test_built_in_bots_finish_a_match(seed: int) -> None:
    bots = {
        Color.WHITE: Bot(Level.INTERMEDIATE, rng=random.Random(seed)),
        Color.BLACK: Bot(Level.BEGINNER, rng=random.Random(seed)),
    }
    state, doubles = play_match(7, bots, seed)
    assert state.winner is not None and max(state.score) >= 7
    assert doubles > 0  # seven points take a few games, and some of them a double


def test_expert_finishes_a_match() -> None:
    pytest.importorskip("gnubg")
    bots = {Color.WHITE: Bot(Level.EXPERT), Color.BLACK: Bot(Level.INTERMEDIATE)}
    state, _ = play_match(3, bots, 3)
    assert state.winner is not None
