"""Which levels are offered, and the gnubg levels: through the child engine, or falling back without it."""

from __future__ import annotations

import random
import sys
import threading

import pytest
from test_rules_support import board, random_game_positions

from bgdoor.bot import brain, gnubg_engine as gnubg_engine_module
from bgdoor.bot.brain import Bot, CubeContext, Level, available_levels, unavailable_reason
from bgdoor.bot.gnubg_engine import CubeSpec, GnubgEngine, GnubgError
from bgdoor.rules.moves import legal_plays
from bgdoor.rules.position import Position


def test_without_gnubg_only_the_built_in_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gnubg", None)  # makes `import gnubg` fail
    assert available_levels() == [Level.BEGINNER, Level.INTERMEDIATE]
    reason = unavailable_reason()
    assert reason is not None and "gnubg" in reason


def test_with_gnubg_every_level() -> None:
    pytest.importorskip("gnubg")
    assert available_levels() == list(Level)
    assert unavailable_reason() is None


def test_levels_have_handles_and_labels() -> None:
    handles = [level.handle for level in Level]
    assert len(set(h.casefold() for h in handles)) == len(handles)
    assert all(2 <= len(h) <= 16 and h == h.strip() for h in handles)
    assert all(level.label for level in Level)


class _BrokenEngine:
    def __getattr__(self, name: str) -> object:
        def fail(*args: object, **kwargs: object) -> object:
            raise GnubgError("no engine here")

        return fail


def test_gnubg_levels_fall_back_to_the_net(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(brain, "gnubg_engine", lambda: _BrokenEngine())
    bot = Bot(Level.WORLD_CLASS, rng=random.Random(1))
    for pos, dice in random_game_positions(21, 20):
        play = bot.choose_play(pos, dice)
        assert (play is None) == (not legal_plays(pos, dice))
    assert isinstance(bot.should_double(Position.start(), CubeContext()), bool)
    assert bot.should_take(Position.start(), CubeContext())


# ------------------------------------------------------------ with gnubg


@pytest.fixture(scope="module")
def gnubg_present() -> None:
    pytest.importorskip("gnubg")


@pytest.mark.usefixtures("gnubg_present")
def test_expert_plays_are_legal_including_bear_offs() -> None:
    bot = Bot(Level.EXPERT)
    items = random_game_positions(22, 40)
    items += [
        (board({1: 2, 2: 2, 6: 1}, {18: 2}), (6, 1)),
        (board({1: 1, 5: 2}, {20: 3}), (5, 1)),
        (board({3: 3}, {20: 3}), (4, 4)),
    ]
    for pos, dice in items:
        plays = legal_plays(pos, dice)
        play = bot.choose_play(pos, dice)
        assert (play is None) == (not plays)
        if play is not None:
            assert play in plays


@pytest.mark.usefixtures("gnubg_present")
def test_expert_plays_the_book_opening() -> None:
    bot = Bot(Level.EXPERT)
    assert str(bot.choose_play(Position.start(), (3, 1))) == "8/5 6/5"


@pytest.mark.usefixtures("gnubg_present")
@pytest.mark.parametrize("level", [Level.EXPERT, Level.WORLD_CLASS])
def test_gnubg_cube(level: Level) -> None:
    bot = Bot(level)
    sure = board({1: 2}, {19: 5, 20: 5})
    assert bot.should_double(sure, CubeContext())
    assert not bot.should_take(sure, CubeContext())
    double_take = Position.from_id("cdtEAA2G7z4AAA")
    too_good = Position.from_id("eA94AHDbtjkAAA")
    for ctx in (CubeContext(), CubeContext(length=9, my_score=2, their_score=2)):
        assert bot.should_double(double_take, ctx) and bot.should_take(double_take, ctx)
        assert not bot.should_double(too_good, ctx) and not bot.should_take(too_good, ctx)
    assert not bot.should_double(Position.start(), CubeContext())
    assert bot.should_take(Position.start(), CubeContext(length=7, my_score=2, their_score=3))


@pytest.mark.usefixtures("gnubg_present")
def test_world_class_plays() -> None:
    bot = Bot(Level.WORLD_CLASS)
    pos = board({1: 2, 2: 2, 6: 1}, {18: 2})
    assert bot.choose_play(pos, (6, 1)) in legal_plays(pos, (6, 1))
    assert str(bot.choose_play(Position.start(), (3, 1))) == "8/5 6/5"


@pytest.mark.usefixtures("gnubg_present")
def test_engine_works_from_another_thread_and_survives_a_crash() -> None:
    # gnubg itself crashes when called from a thread other than its importer's; the child process avoids that.
    bot = Bot(Level.EXPERT)
    out: list[object] = []
    worker = threading.Thread(target=lambda: out.append(bot.choose_play(Position.start(), (6, 5))))
    worker.start()
    worker.join(timeout=60)
    assert [str(p) for p in out] == ["24/13"]
    engine = brain.gnubg_engine()
    assert engine._proc is not None
    engine._proc.kill()
    engine._proc.wait()
    assert str(bot.choose_play(Position.start(), (6, 5))) == "24/13"


@pytest.mark.usefixtures("gnubg_present")
def test_a_stuck_engine_is_killed_and_restarted(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = GnubgEngine()
    try:
        engine.request({"op": "hello"})
        monkeypatch.setattr(gnubg_engine_module, "REQUEST_TIMEOUT", 0.001)
        with pytest.raises(GnubgError):
            engine.cube_values(Position.start().to_gnubg(), CubeSpec(), 1)
        assert engine._proc is None
        monkeypatch.setattr(gnubg_engine_module, "REQUEST_TIMEOUT", 60.0)
        assert engine.probabilities(Position.start().to_gnubg())[0] == pytest.approx(0.52, abs=0.02)
    finally:
        engine.close()
