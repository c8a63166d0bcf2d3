"""Jellyfish .mat export, read back by GNU Backgammon itself."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bgdoor.records.mat import export_mat, mat_name, turn_text
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
    Take,
    Win,
    apply,
    new_match,
    replay,
)
from bgdoor.rules.moves import legal_plays
from bgdoor.rules.position import Position

GNUBG_PLAYER = {Color.WHITE: "X", Color.BLACK: "O"}  # the left column is gnubg's player 0, shown as X


# ------------------------------------------------------------ random matches


@dataclass
class Seen:
    """What the generated matches exercised, so the test knows its coverage."""

    counts: Counter[str] = field(default_factory=Counter)


def random_match(
    length: int,
    seed: int,
    seen: Seen,
    *,
    forfeit_after: int | None = None,
    p_resign: float = 0.005,
    p_double: float = 0.03,
) -> list[Event]:
    """A whole match of random legal actions; plays lean towards racing so games end."""
    rng = random.Random(seed)
    state = new_match(length)
    events: list[Event] = []

    def do(event: Event) -> None:
        nonlocal state
        state, out = apply(state, event)
        events.extend(out)
        for e in out:
            seen.counts[e.type] += 1
            if isinstance(e, GameWon):
                seen.counts[f"{e.how}-{e.win.value}"] += 1

    steps = 0
    while not state.over:
        steps += 1
        if forfeit_after is not None and steps >= forfeit_after:
            do(Forfeit(rng.choice([Color.WHITE, Color.BLACK])))
            break
        phase = state.phase
        if phase is Phase.OPENING:
            do(OpeningRoll(rng.randint(1, 6), rng.randint(1, 6)))
        elif phase is Phase.ROLL:
            r = rng.random()
            if r < p_resign:
                do(Resign(rng.choice([Color.WHITE, Color.BLACK]), rng.choice(list(Win))))
            elif r < p_resign + p_double and state.can_double():
                do(Double())
            else:
                do(Roll((rng.randint(1, 6), rng.randint(1, 6))))
        elif phase is Phase.MOVE:
            plays = state.plays()
            if not plays:
                seen.counts["no-play"] += 1
                do(Move("", ""))
                continue
            if rng.random() < p_resign / 2:
                do(Resign(state.turn or Color.WHITE, rng.choice(list(Win))))  # resigning with the dice rolled
                continue
            pick = min(rng.sample(plays, min(3, len(plays))), key=lambda p: p.position.pips()[1])
            if "*" in str(pick):
                seen.counts["hit"] += 1
            if "bar/" in str(pick):
                seen.counts["enter"] += 1
            if "/off" in str(pick):
                seen.counts["bear-off"] += 1
            do(Move(str(pick), pick.position.id))
        elif phase is Phase.DOUBLED:
            do(Take() if rng.random() < 0.6 else Drop())
        elif phase is Phase.RESIGNED:
            do(AcceptResign() if rng.random() < 0.5 else RejectResign())
    return events


# --------------------------------------------------- what gnubg should show


@dataclass
class ExpectedGame:
    score: tuple[int, int]
    cube: int = 1
    records: list[dict[str, Any]] = field(default_factory=list)
    result: GameWon | None = None


def expected_games(length: int, events: list[Event]) -> list[ExpectedGame]:
    """Our record, game by game, in the terms of gnubg.match()."""
    state: MatchState = new_match(length)
    games: list[ExpectedGame] = []
    for event in events:
        if event.derived:
            continue
        before = state
        if not games or games[-1].result is not None:
            games.append(ExpectedGame(before.score))
        game = games[-1]
        state, out = apply(before, event)
        actor = before.turn
        if isinstance(event, Move):
            assert actor is not None and before.dice is not None
            plays = legal_plays(before.position, before.dice)
            moved = out[0]
            assert isinstance(moved, Move)
            after = Position.from_id(moved.position) if plays else None
            # gnubg keeps a play's moves in its own canonical order.
            played = (p for p in plays if p.position == after)
            moves = next((tuple(sorted(((m.src, m.dst) for m in p.moves), reverse=True)) for p in played), ())
            game.records.append(
                {
                    "action": "move",
                    "player": GNUBG_PLAYER[actor],
                    "dice": before.dice,
                    "board": before.position.id,
                    "move": moves,
                }
            )
        elif isinstance(event, Double):
            assert actor is not None
            game.records.append({"action": "double", "player": GNUBG_PLAYER[actor], "board": before.position.id})
        elif isinstance(event, (Take, Drop)):
            assert actor is not None
            game.records.append({"action": event.type, "player": GNUBG_PLAYER[actor.other]})
        game.cube = state.cube if not any(isinstance(e, GameWon) for e in out) else before.cube
        for e in out:
            if isinstance(e, GameWon):
                game.result = e
                if not game.records and before.dice is not None and actor is not None:
                    # Given up on the opening roll: the roll stands alone, then the resignation.
                    game.records.append({"action": "set", "player": GNUBG_PLAYER[actor], "dice": before.dice})
    return games


def resign_level(points: int, cube: int) -> int:
    """How gnubg reads a `Wins N points` line in a running game: the smallest resignation worth N."""
    return 1 if points <= cube else 2 if points <= 2 * cube else 3


def check_against_gnubg(
    gnubg: Any, capfd: pytest.CaptureFixture[str], path: Path, length: int, events: list[Event]
) -> None:
    text = export_mat("alice", "bob", length, events)
    path.write_text(text, encoding="ascii")
    capfd.readouterr()
    gnubg.command(f"import mat {path}")
    said = capfd.readouterr().out
    for trouble in ("WARNING", "Unrecognised", "not a valid", "Illegal", "doesn't follow"):
        assert trouble not in said, f"gnubg: {trouble} importing\n{text}"

    match = gnubg.match()
    info = match["match-info"]
    assert info["X"]["name"] == "alice" and info["O"]["name"] == "bob"
    assert info["match-length"] == length

    wanted = expected_games(length, events)
    games = match["games"]
    assert len(games) == len(wanted), text
    final = replay(length, events)
    for number, (got, want) in enumerate(zip(games, wanted, strict=True), start=1):
        where = f"game {number}:\n{text}"
        assert (got["info"]["score-X"], got["info"]["score-O"]) == want.score, where
        records = [dict(r, move=tuple(sorted(r["move"], reverse=True))) if "move" in r else r for r in got["game"]]
        result = want.result
        if result is not None and result.how in ("resign", "forfeit") and records:
            resign = records.pop()
            assert resign["action"] == "resign", where
            assert resign["player"] == GNUBG_PLAYER[result.winner.other], where
            assert resign["points"] == resign_level(result.points, want.cube), where
        assert [{k: r.get(k) for k in w} for r, w in zip(records, want.records, strict=False)] == want.records, where
        assert len(records) == len(want.records), where

        if result is None:
            assert got["info"]["winner"] is None, where
        elif result.how == "forfeit" and not records:
            # A forfeit before the game's first roll: gnubg has no game under way to resign.
            assert got["info"]["winner"] is None, where
        else:
            assert got["info"]["winner"] == GNUBG_PLAYER[result.winner], where
            points = result.points
            if result.how == "forfeit":
                points = resign_level(points, want.cube) * want.cube  # at most a backgammon at this cube
            assert got["info"]["points-won"] == points, where
    if not any(isinstance(e, Forfeit) for e in events):
        last = games[-1]["info"]
        won = last.get("points-won", 0)
        add = won if last["winner"] == "X" else 0, won if last["winner"] == "O" else 0
        assert (last["score-X"] + add[0], last["score-O"] + add[1]) == final.score
        if final.over:
            assert final.winner is not None and GNUBG_PLAYER[final.winner] == last["winner"]


@pytest.fixture(scope="module")
def gnubg() -> Any:
    module = pytest.importorskip("gnubg")
    # No questions and no noise: overwrite and abandon without asking, no sound.
    for command in ("set confirm new off", "set confirm save off", "set sound enable off", "set display off"):
        module.command(command)
    return module


# ----------------------------------------------------------------- the tests


def test_matches_read_back_by_gnubg(gnubg: Any, capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    seen = Seen()
    plans: list[tuple[int, int, dict[str, Any]]] = [
        (1, 11, {}),
        (1, 12, {"p_resign": 0.05}),
        (3, 21, {}),
        (3, 22, {"p_resign": 0.05, "p_double": 0.2}),
        (5, 31, {}),
        (5, 32, {"p_double": 0.2}),
        (5, 33, {"p_double": 0.3}),
        (7, 41, {}),
        (7, 43, {"p_double": 0.1}),
        (7, 42, {"forfeit_after": 150}),  # forfeited mid-game
        (3, 23, {"forfeit_after": 2}),  # forfeited on the opening roll
        (3, 24, {"forfeit_after": 1}),  # forfeited before any roll
    ]
    for length, seed, options in plans:
        events = random_match(length, seed, seen, **options)
        check_against_gnubg(gnubg, capfd, tmp_path / f"m{length}-{seed}.mat", length, events)
    # The random matches must have met every case the format has to say.
    for case in (
        "double",
        "take",
        "drop",
        "hit",
        "enter",
        "bear-off",
        "no-play",
        "bearoff-single",
        "accept_resign",
        "reject_resign",
        "forfeit",
    ):
        assert seen.counts[case], f"no {case} in the generated matches: {seen.counts}"
    assert seen.counts["bearoff-gammon"] + seen.counts["bearoff-backgammon"] + seen.counts["resign-gammon"], seen.counts


def columns(line: str) -> tuple[str, str, str]:
    """A move line cut where GNU Backgammon writes it: number, left turn, right turn."""
    assert line[3:5] == ") " or not line[:5].strip(), line
    return line[:5].strip(), line[5:33].strip(), line[33:].strip()


def play_out(length: int, events: list[Event], *, plays: dict[int, str] | None = None) -> list[Event]:
    """Apply `events`; a Move is played as the notation given for its index (or the first play)."""
    state = new_match(length)
    record: list[Event] = []
    for i, event in enumerate(events):
        if isinstance(event, Move):
            options = state.plays()
            want = (plays or {}).get(i)
            play = next(p for p in options if str(p) == want) if want else options[0]
            event = Move(str(play), play.position.id)
        state, out = apply(state, event)
        record += out
    return record


def test_awkward_endings_read_back_by_gnubg(gnubg: Any, capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    white_takes_then_black_resigns = [
        OpeningRoll(3, 1),
        Move("", ""),
        Double(),
        Take(),
        Resign(Color.BLACK, Win.GAMMON),
        AcceptResign(),
    ]
    cases: list[tuple[int, list[Event]]] = [
        (5, white_takes_then_black_resigns),
        (5, [OpeningRoll(1, 3), Move("", ""), Double(), Take(), Resign(Color.BLACK, Win.SINGLE), AcceptResign()]),
        (3, [OpeningRoll(5, 2), Resign(Color.WHITE, Win.BACKGAMMON), AcceptResign()]),  # on the opening roll
        (3, [OpeningRoll(2, 5), Resign(Color.WHITE, Win.SINGLE), RejectResign(), Move("", ""), Double(), Drop()]),
        (5, [OpeningRoll(3, 1), Move("", ""), Double(), Drop()]),  # Black wins on White's drop line
        (3, [OpeningRoll(6, 6), OpeningRoll(6, 1), Move("", ""), Forfeit(Color.WHITE)]),
    ]
    for number, (length, events) in enumerate(cases):
        record = play_out(length, events)
        check_against_gnubg(gnubg, capfd, tmp_path / f"case{number}.mat", length, record)


def test_black_opening_leaves_the_left_column_empty() -> None:
    record = play_out(3, [OpeningRoll(1, 3), Move("", "")], plays={1: "8/5 6/5"})  # Black opens with 31
    lines = export_mat("alice", "bob", 3, record).splitlines()
    assert lines[:4] == [" 3 point match", "", " Game 1", " alice : 0                      bob : 0"]
    assert lines[4] == "  1)" + " " * 29 + "31: 8/5 6/5"
    assert columns(lines[4]) == ("1)", "", "31: 8/5 6/5")


def test_cube_lines_and_drop_layout() -> None:
    moves = {1: "8/5 6/5"}
    record = play_out(
        5,
        [OpeningRoll(3, 1), Move("", ""), Double(), Take(), Roll((6, 6)), Move("", ""), Double(), Drop()],
        plays=moves,
    )
    lines = export_mat("alice", "bob", 5, record).splitlines()
    assert columns(lines[4]) == ("1)", "31: 8/5 6/5", "Doubles => 2")
    assert lines[4][34:] == "Doubles => 2"  # a cube action is indented one more, as gnubg writes it
    number, left, right = columns(lines[5])
    assert (number, left) == ("2)", "Takes") and right.startswith("66: ") and lines[5][33:35] == "66"
    assert columns(lines[6]) == ("3)", "Doubles => 4", "Drops")
    assert lines[7] == "      Wins 2 points"  # White's column, on a line of its own
    assert lines[8:] == [""]  # game 2 has not started


def test_white_drop_puts_the_win_on_the_same_line() -> None:
    record = play_out(5, [OpeningRoll(3, 1), Move("", ""), Double(), Drop()], plays={1: "8/5 6/5"})
    lines = export_mat("alice", "bob", 5, record).splitlines()
    assert columns(lines[4]) == ("1)", "31: 8/5 6/5", "Doubles => 2")
    assert columns(lines[5]) == ("2)", "Drops", "Wins 1 point")
    assert lines[5].index("Wins") == 34


def test_wins_lines_are_in_the_winners_column() -> None:
    # Black resigns a gammon on White's turn; then White forfeits game 2 (3 more points is the match).
    record = play_out(
        5,
        [OpeningRoll(3, 1), Move("", ""), Roll((2, 1)), Move("", ""), Resign(Color.BLACK, Win.GAMMON), AcceptResign()],
    )
    record += [Forfeit(Color.WHITE), GameWon(Color.BLACK, 5, Win.SINGLE, "forfeit"), MatchWon(Color.BLACK)]
    replay(5, record)
    lines = export_mat("alice", "bob", 5, record).splitlines()
    game2 = lines.index(" Game 2")
    assert lines[game2 - 2] == "      Wins 2 points"
    assert lines[game2 + 2] == " " * 34 + "Wins 5 points and the match"


def test_resigning_on_the_opening_roll_keeps_the_roll() -> None:
    record = play_out(3, [OpeningRoll(1, 3), Resign(Color.BLACK, Win.SINGLE), AcceptResign()])
    lines = export_mat("alice", "bob", 3, record).splitlines()
    assert columns(lines[4]) == ("1)", "", "31:")
    assert lines[5] == "      Wins 1 point"


def test_numbered_lines_are_padded_like_gnubgs() -> None:
    # A short line would let the importer read the end of the line before it again.
    record = play_out(
        5, [OpeningRoll(3, 1), Move("", ""), Double(), Take(), Resign(Color.BLACK, Win.SINGLE), AcceptResign()]
    )
    lines = export_mat("alice", "bob", 5, record).splitlines()
    assert lines[5] == "  2)  Takes" + " " * 22
    assert all(len(line) >= 33 for line in lines if re.match(r"\s*\d+\) ", line))


def test_no_play_bar_and_bear_off_notation() -> None:
    # On the bar against a closed board: the roll alone.
    closed = Position((0,) * 24 + (1,), (2, 2, 2, 2, 2, 2) + (0,) * 17 + (3, 0))
    assert not legal_plays(closed, (6, 2))
    assert turn_text((6, 2), ()) == "62:"
    # Bearing off is to 0, entering from 25, one die per move.
    home = Position((1, 0, 0, 0, 0, 1) + (0,) * 19, (2,) + (0,) * 23 + (1,))
    moves = {str(p): p.moves for p in legal_plays(home, (6, 5))}
    assert turn_text((6, 5), moves["6/off 1/off"]) == "65: 6/0 1/0"
    entering = Position((0,) * 24 + (1,), (0, 1) + (0,) * 23)
    moves = {str(p): p.moves for p in legal_plays(entering, (1, 2))}
    assert turn_text((1, 2), moves["bar/23*/22"]) == "12: 25/23* 23/22"


def test_names_are_made_safe() -> None:
    assert mat_name("bob: the,\tbuilder", "x") == "bob; the; builder"
    assert mat_name("   ", "White") == "White"
    assert len(mat_name("n" * 40, "x")) == 31
    text = export_mat("same", "same", 1, [OpeningRoll(3, 1)])
    assert " same : 0                       same (2) : 0\n" in text  # the importer needs two names


def test_forfeit_is_noted_in_a_header_comment() -> None:
    events = [Forfeit(Color.BLACK, "time"), GameWon(Color.WHITE, 3, Win.SINGLE, "forfeit"), MatchWon(Color.WHITE)]
    text = export_mat("alice", "bob", 3, events)
    assert text.startswith("; bob forfeited the match in game 1 (no move in time)\n\n 3 point match\n")
    assert "      Wins 3 points and the match" in text
