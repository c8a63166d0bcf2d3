"""The match state machine, Match IDs and ratings."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bgdoor.rules.dice import ScriptedDice, SystemDice, roll
from bgdoor.rules.game import (
    AcceptResign,
    Color,
    Double,
    Drop,
    Event,
    Forfeit,
    GameWon,
    MatchState,
    MatchWon,
    Move,
    OpeningRoll,
    Phase,
    RejectResign,
    Resign,
    Roll,
    RuleError,
    Take,
    Win,
    apply,
    event_from_dict,
    new_match,
    replay,
)
from bgdoor.rules.matchid import match_id
from bgdoor.rules.moves import legal_plays
from bgdoor.rules.position import Position
from bgdoor.rules.rating import rating_change, upset_chance

EMPTY = (0,) * 25


def side(**points: int) -> tuple[int, ...]:
    """side(p6=5, bar=1): counts by point name."""
    counts = [0] * 25
    for name, n in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(counts)


def test_opening_roll_higher_die_plays_both():
    s = new_match(3)
    s, ev = apply(s, OpeningRoll(white=2, black=5))
    assert ev == [OpeningRoll(2, 5)]
    assert s.phase is Phase.MOVE and s.turn is Color.BLACK and s.dice == (5, 2)
    assert s.position == Position.start()


def test_opening_roll_tie_rolls_again():
    s = new_match(3)
    s2, ev = apply(s, OpeningRoll(4, 4))
    assert s2 == s and ev == [OpeningRoll(4, 4)]
    with pytest.raises(RuleError):
        apply(s, Roll((3, 1)))


def test_turns_alternate_and_position_swaps():
    s, _ = apply(new_match(3), OpeningRoll(3, 1))
    play = next(p for p in legal_plays(s.position, (3, 1)) if str(p) == "8/5 6/5")
    s, ev = apply(s, Move("whatever the caller typed", play.position.id))
    assert ev == [Move("8/5 6/5", play.position.id)]
    assert s.turn is Color.BLACK and s.phase is Phase.ROLL and s.position == play.position
    with pytest.raises(RuleError, match="roll the dice first"):
        apply(s, Move("", play.position.id))


def test_illegal_play_is_refused():
    s, _ = apply(new_match(3), OpeningRoll(3, 1))
    with pytest.raises(RuleError, match="not legal"):
        apply(s, Move("", Position.start().id))


def test_no_legal_play_passes_the_turn():
    # White is on the bar against a closed board.
    closed = side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, p13=3)
    pos = Position(side(bar=1, p6=14), closed)
    s = replace(new_match(3), phase=Phase.MOVE, turn=Color.WHITE, dice=(6, 6), position=pos)
    assert s.plays() == []
    with pytest.raises(RuleError):
        apply(s, Move("bar/19", ""))
    s2, ev = apply(s, Move("", ""))
    assert s2.turn is Color.BLACK and s2.position == pos.swap() and ev == [Move("", pos.swap().id)]


def _bearing_off(loser: tuple[int, ...]) -> Position:
    return Position(side(p1=1), loser)


@pytest.mark.parametrize(
    ("loser", "win", "points"),
    [
        (side(p1=14), Win.SINGLE, 1),  # has borne off one
        (side(p1=15), Win.GAMMON, 2),
        (side(p1=14, p19=1), Win.BACKGAMMON, 3),  # a checker in the winner's home board
        (side(p1=14, bar=1), Win.BACKGAMMON, 3),
    ],
)
def test_bearoff_results_and_cube(loser, win, points):
    s = replace(
        new_match(7),
        phase=Phase.MOVE,
        turn=Color.WHITE,
        dice=(2, 1),
        position=_bearing_off(loser),
        cube=2,
        cube_owner=Color.BLACK,
    )
    (play,) = legal_plays(s.position, (2, 1))
    s2, ev = apply(s, Move(str(play), play.position.id))
    assert ev[1] == GameWon(Color.WHITE, points * 2, win, "bearoff")
    assert s2.score == (points * 2, 0) and s2.phase is Phase.OPENING and s2.game == 2
    assert s2.cube == 1 and s2.cube_owner is None and s2.position == Position.start()


def test_match_won_by_bearing_off_keeps_the_final_board():
    """The finished match shows the board after the winning play: the winner has all 15 off."""
    s = replace(new_match(1), phase=Phase.MOVE, turn=Color.WHITE, dice=(2, 1), position=_bearing_off(side(p1=14)))
    (play,) = legal_plays(s.position, (2, 1))
    s2, ev = apply(s, Move(str(play), play.position.id))
    assert s2.over and s2.winner is Color.WHITE and ev[-1] == MatchWon(Color.WHITE)
    white, black = s2.sides(Color.WHITE)
    assert sum(white) == 0 and sum(black) == 14
    assert s2.position == play.position and s2.turn is Color.BLACK and s2.position.opponent_off == 15


def test_double_take_gives_cube_to_taker():
    s = replace(new_match(5), phase=Phase.ROLL, turn=Color.WHITE)
    assert s.can_double()
    s, _ = apply(s, Double())
    assert s.phase is Phase.DOUBLED and s.actor is Color.BLACK
    s, _ = apply(s, Take())
    assert s.cube == 2 and s.cube_owner is Color.BLACK and s.phase is Phase.ROLL and s.turn is Color.WHITE
    assert not s.can_double()  # White no longer owns the cube
    with pytest.raises(RuleError, match="opponent owns the cube"):
        apply(s, Double())


def test_drop_scores_the_cube_before_doubling():
    s = replace(new_match(5), phase=Phase.ROLL, turn=Color.BLACK, cube=2, cube_owner=Color.BLACK)
    s, _ = apply(s, Double())
    s, ev = apply(s, Drop())
    assert ev[-1] == GameWon(Color.BLACK, 2, Win.SINGLE, "drop")
    assert s.score == (0, 2)


def test_cube_limits():
    assert not replace(new_match(1), phase=Phase.ROLL, turn=Color.WHITE).can_double()
    assert not replace(new_match(5), phase=Phase.ROLL, turn=Color.WHITE, cube=64).can_double()
    crawford = replace(new_match(5), phase=Phase.ROLL, turn=Color.WHITE, crawford=True)
    with pytest.raises(RuleError, match="Crawford"):
        apply(crawford, Double())
    with pytest.raises(RuleError, match="1-point match"):
        apply(replace(new_match(1), phase=Phase.ROLL, turn=Color.WHITE), Double())


def test_crawford_game_follows_reaching_match_point_once():
    s = replace(new_match(3), phase=Phase.ROLL, turn=Color.WHITE, cube=2, cube_owner=Color.WHITE)
    s, _ = apply(s, Double())
    s, _ = apply(s, Drop())  # White 2 of 3: the next game is the Crawford game
    assert s.score == (2, 0) and s.crawford and s.crawford_done
    s = replace(s, phase=Phase.ROLL, turn=Color.BLACK)
    assert not s.can_double()
    s, _ = apply(s, Resign(Color.WHITE, Win.SINGLE))
    s, _ = apply(s, AcceptResign())  # Black wins the Crawford game: 2-1
    assert s.score == (2, 1) and not s.crawford  # post-Crawford: the cube is back
    assert replace(s, phase=Phase.ROLL, turn=Color.BLACK).can_double()


def test_match_ends_at_length():
    s = replace(new_match(3), score=(2, 1), phase=Phase.ROLL, turn=Color.WHITE)
    s, _ = apply(s, Resign(Color.BLACK, Win.GAMMON))
    s, ev = apply(s, AcceptResign())
    assert ev[-2:] == [GameWon(Color.WHITE, 2, Win.GAMMON, "resign"), MatchWon(Color.WHITE)]
    assert s.over and s.winner is Color.WHITE and s.score == (4, 1)
    with pytest.raises(RuleError, match="over"):
        apply(s, Roll((1, 2)))


def test_rejected_resignation_resumes():
    s = replace(new_match(3), phase=Phase.MOVE, turn=Color.WHITE, dice=(3, 1))
    s2, _ = apply(s, Resign(Color.BLACK, Win.SINGLE))
    assert s2.actor is Color.WHITE  # the one offered the resignation answers
    s3, _ = apply(s2, RejectResign())
    assert s3.phase is Phase.MOVE and s3.dice == (3, 1)


def test_forfeit_awards_the_match():
    s = replace(new_match(5), score=(1, 3), phase=Phase.ROLL, turn=Color.BLACK)
    s, ev = apply(s, Forfeit(Color.BLACK))
    assert s.over and s.winner is Color.WHITE and s.score == (5, 3)
    assert ev[0] == Forfeit(Color.BLACK) and isinstance(ev[-1], MatchWon)
    opened, first = apply(new_match(5), OpeningRoll(3, 1))
    _, out = apply(opened, Forfeit(Color.BLACK))
    assert replay(5, first + out).score == (5, 0)


def test_derived_events_cannot_be_submitted():
    with pytest.raises(RuleError):
        apply(new_match(3), GameWon(Color.WHITE, 1, Win.SINGLE, "bearoff"))


def test_bad_lengths_and_dice():
    for bad in (0, 26, -1):
        with pytest.raises(RuleError):
            new_match(bad)
    with pytest.raises(RuleError):
        apply(new_match(3), OpeningRoll(0, 7))
    s = replace(new_match(3), phase=Phase.ROLL, turn=Color.WHITE)
    with pytest.raises(RuleError):
        apply(s, Roll((7, 1)))


def _random_match(rng: random.Random, length: int) -> tuple[MatchState, list[Event]]:
    s = new_match(length)
    log: list[Event] = []
    ev: Event
    while not s.over:
        if s.phase is Phase.OPENING:
            ev = OpeningRoll(rng.randint(1, 6), rng.randint(1, 6))
        elif s.phase is Phase.ROLL:
            assert s.turn is not None  # someone is always to roll
            if s.can_double() and rng.random() < 0.05:
                ev = Double()
            elif rng.random() < 0.003:
                ev = Resign(s.turn, rng.choice(list(Win)))
            else:
                ev = Roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif s.phase is Phase.DOUBLED:
            ev = Take() if rng.random() < 0.7 else Drop()
        elif s.phase is Phase.RESIGNED:
            ev = AcceptResign() if rng.random() < 0.5 else RejectResign()
        else:
            plays = s.plays()
            p = rng.choice(plays) if plays else None
            ev = Move(str(p), p.position.id) if p else Move("", "")
        s, out = apply(s, ev)
        log.extend(out)
    return s, log


def test_replay_of_recorded_events_gives_the_same_state():
    rng = random.Random(7)
    for length in (1, 3, 5):
        for _ in range(5):
            final, log = _random_match(rng, length)
            stored = [e.to_dict() for e in log]
            assert replay(length, [event_from_dict(d) for d in stored]) == final
            assert final.winner is not None
            assert sum(r.points for r in final.results if r.winner is final.winner) == final.score_of(final.winner)


def test_replay_rejects_a_tampered_record():
    _, log = _random_match(random.Random(3), 3)
    first, won = next((i, e) for i, e in enumerate(log) if isinstance(e, GameWon))
    tampered = list(log)
    tampered[first] = replace(won, points=won.points + 1)
    with pytest.raises(RuleError):
        replay(3, tampered)
    with pytest.raises(RuleError):
        replay(3, [e for e in log if not isinstance(e, GameWon)])


def test_dice_sources():
    dice = ScriptedDice([3, 1, 6])
    assert roll(dice) == (3, 1) and dice.die() == 6
    with pytest.raises(IndexError):
        dice.die()
    with pytest.raises(ValueError):
        ScriptedDice([0])
    seen = {SystemDice().die() for _ in range(500)}
    assert seen == {1, 2, 3, 4, 5, 6}


# ------------------------------------------------------------------ Match IDs


def test_match_id_known_answer():
    s = replace(
        new_match(5), score=(1, 3), cube=2, cube_owner=Color.WHITE, phase=Phase.MOVE, turn=Color.BLACK, dice=(3, 1)
    )
    assert match_id(s) == "QYmlABAAGAAE"


def test_match_id_against_gnubg():
    gnubg = pytest.importorskip("gnubg")
    rng = random.Random(1)
    resign = {None: 0, Win.SINGLE: 1, Win.GAMMON: 2, Win.BACKGAMMON: 3}

    def p(c: Color) -> int:
        return 1 if c is Color.BLACK else 0

    for _ in range(300):
        length = rng.randint(1, 25)
        turn = rng.choice(list(Color))
        owner = rng.choice([None, Color.WHITE, Color.BLACK])
        phase = rng.choice([Phase.ROLL, Phase.MOVE, Phase.DOUBLED, Phase.RESIGNED])
        dice = (rng.randint(1, 6), rng.randint(1, 6)) if phase is Phase.MOVE else None
        score = (rng.randint(0, length - 1), rng.randint(0, length - 1))
        cube = 2 ** rng.randint(0, 6)
        crawford = rng.random() < 0.2
        win = rng.choice(list(Win)) if phase is Phase.RESIGNED else None
        s = replace(
            new_match(length),
            score=score,
            cube=cube,
            cube_owner=owner,
            phase=phase,
            turn=turn,
            dice=dice,
            crawford=crawford,
            resign_win=win,
            resign_by=turn if win else None,
        )
        cubeinfo = gnubg.cubeinfo(cube, -1 if owner is None else p(owner), p(turn), length, score, int(crawford))
        posinfo = gnubg.posinfo(p(s.actor), resign[win], int(phase is Phase.DOUBLED), 1, dice or (0, 0))
        assert match_id(s) == gnubg.matchid(cubeinfo, posinfo)


# -------------------------------------------------------------------- ratings


def test_fibs_rating_formula():
    even = rating_change(1500, 1500, 1, 0, 0)
    assert even.winner_gain == pytest.approx(10.0) and even.loser_loss == pytest.approx(10.0)
    # Underdog (1400) beats favourite (1600) in a 5-point match; experience sets each K.
    d, n = 200, 5
    upset = 1 / (10 ** (d * n**0.5 / 2000) + 1)
    assert upset_chance(-200, 5) == pytest.approx(upset)
    ch = rating_change(1400, 1600, 5, 0, 500)
    assert ch.winner_gain == pytest.approx(4 * 5 * n**0.5 * (1 - upset))
    assert ch.loser_loss == pytest.approx(4 * 1 * n**0.5 * (1 - upset))
    fav = rating_change(1600, 1400, 5, 200, 0)
    assert fav.winner_gain == pytest.approx(4 * 3 * n**0.5 * upset)
    assert fav.winner_gain < ch.winner_gain
