"""The computer opponent's levels and decisions.

Beginner and Intermediate use the built-in net (numpy only); Beginner adds
deliberate noise to its judgement.  Expert and World Class ask GNU
Backgammon's engine (0-ply and 2-ply), and are offered only when the gnubg
module imports.  Every decision has the same shape whatever the level:

    bot = Bot(Level.INTERMEDIATE, rng=random.Random(7))
    play = bot.choose_play(position, (6, 1), ctx)      # a Play from legal_plays, or None
    bot.should_double(position, ctx)                    # position: the bot on roll
    bot.should_take(position, ctx)                      # position: the doubler on roll
    bot.should_accept_resign(position, ctx, points)     # points the resigner gives up

`ctx` is a `CubeContext` from the bot's side (cube, owner, match length and
score, Crawford).  The cube methods also take a rules `MatchState` and the
bot's `Color` in place of the position and context.
"""

from __future__ import annotations

import atexit
import importlib
import logging
import random
import threading
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from bgdoor.bot.cube import CubeContext, CubeValues, Owner, cube_values, efficiency_for, outcome_values, points_value
from bgdoor.bot.gnubg_engine import CubeSpec, GnubgEngine, GnubgError
from bgdoor.bot.net import Floats, Net, boards_of
from bgdoor.rules.moves import Move, Play, legal_plays
from bgdoor.rules.position import Position, PositionError

if TYPE_CHECKING:
    from bgdoor.rules.game import Color, MatchState

__all__ = [
    "Bot",
    "CubeContext",
    "Level",
    "Owner",
    "available_levels",
    "context_of",
    "gnubg_unavailable_reason",
    "unavailable_reason",
]

log = logging.getLogger("bgdoor.bot")

# Beginner: noise on each play's value (money equity units) and on its sense of winning chances at the cube.
BEGINNER_PLAY_NOISE = 0.12
BEGINNER_CUBE_NOISE = 0.06


class Level(Enum):
    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    EXPERT = "expert"
    WORLD_CLASS = "world class"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def handle(self) -> str:
        """The computer player's handle for this level (2 to 16 characters)."""
        return _HANDLES[self]

    @property
    def uses_gnubg(self) -> bool:
        return self in (Level.EXPERT, Level.WORLD_CLASS)

    @property
    def plies(self) -> int:
        """gnubg's search depth for plays."""
        return 2 if self is Level.WORLD_CLASS else 0


_LABELS = {
    Level.BEGINNER: "Beginner",
    Level.INTERMEDIATE: "Intermediate",
    Level.EXPERT: "Expert (GNU Backgammon 0-ply)",
    Level.WORLD_CLASS: "World Class (GNU Backgammon 2-ply)",
}
_HANDLES = {
    Level.BEGINNER: "Beginner Bot",
    Level.INTERMEDIATE: "Intermediate Bot",
    Level.EXPERT: "Expert Bot",
    Level.WORLD_CLASS: "World Class Bot",
}


# -------------------------------------------------------------------- levels


def gnubg_unavailable_reason() -> str | None:
    """None when `import gnubg` works; otherwise why the gnubg levels are not offered."""
    try:
        importlib.import_module("gnubg")
    except Exception as exc:  # noqa: BLE001 - a broken install counts as missing
        return (
            "The Expert and World Class levels need GNU Backgammon's engine "
            f"(the Python module gnubg, the bgdoor[gnubg] extra): {exc or type(exc).__name__}"
        )
    return None


def unavailable_reason() -> str | None:
    return gnubg_unavailable_reason()


def available_levels() -> list[Level]:
    """The levels on offer now: the built-in ones always, gnubg's when it imports."""
    if gnubg_unavailable_reason() is None:
        return list(Level)
    return [level for level in Level if not level.uses_gnubg]


@lru_cache(maxsize=1)
def built_in_net() -> Net:
    return Net.load()


_engine: GnubgEngine | None = None
_engine_lock = threading.Lock()


def gnubg_engine() -> GnubgEngine:
    """The process's one gnubg child, started on first use."""
    global _engine
    with _engine_lock:
        if _engine is None:
            _engine = GnubgEngine()
            atexit.register(_engine.close)
        return _engine


# ------------------------------------------------------------------ contexts


def context_of(state: MatchState, me: Color) -> CubeContext:
    """A rules MatchState as seen by `me`."""
    if state.cube_owner is None:
        owner = Owner.CENTRED
    else:
        owner = Owner.ME if state.cube_owner is me else Owner.OPPONENT
    return CubeContext(
        cube=state.cube,
        owner=owner,
        length=state.length,
        my_score=state.score_of(me),
        their_score=state.score_of(me.other),
        crawford=state.crawford,
        post_crawford=state.crawford_done and not state.crawford,
    )


def _unpack(where: Position | MatchState, ctx: CubeContext | Color | None) -> tuple[Position, CubeContext]:
    if isinstance(where, Position):
        return where, ctx if isinstance(ctx, CubeContext) else CubeContext()
    if ctx is None or isinstance(ctx, CubeContext):
        raise TypeError("with a MatchState, give the bot's Color")
    return where.position, context_of(where, ctx)


def _flip(probs: np.ndarray) -> np.ndarray:
    """Probabilities for the other side: its wins are our losses."""
    out = np.empty_like(probs)
    out[:, 0] = 1.0 - probs[:, 0]
    out[:, 1] = probs[:, 3]
    out[:, 2] = probs[:, 4]
    out[:, 3] = probs[:, 1]
    out[:, 4] = probs[:, 2]
    return out


def _spec(ctx: CubeContext) -> CubeSpec:
    owner = {Owner.CENTRED: -1, Owner.ME: 0, Owner.OPPONENT: 1}[ctx.owner]
    return CubeSpec(ctx.cube, owner, ctx.length, (ctx.my_score, ctx.their_score), ctx.crawford)


def _contact(pos: Position) -> bool:
    mine = max((i + 1 for i, n in enumerate(pos.player) if n), default=0)
    theirs = max((i + 1 for i, n in enumerate(pos.opponent) if n), default=0)
    return mine + theirs > 25


# ----------------------------------------------------------------------- bot


class Bot:
    """One computer player.  Deterministic for a given level, rng state and inputs."""

    def __init__(self, level: Level, rng: random.Random | None = None, *, net: Net | None = None) -> None:
        self.level = level
        self.rng = rng if rng is not None else random.Random()
        self._net = net
        self._warned = False

    @property
    def net(self) -> Net:
        if self._net is None:
            self._net = built_in_net()
        return self._net

    def __repr__(self) -> str:
        return f"Bot({self.level.label})"

    # -------------------------------------------------------------- plays

    def choose_play(self, position: Position, dice: tuple[int, int], ctx: CubeContext | None = None) -> Play | None:
        """The play to make; None when the roll cannot be played.

        `ctx` None means cubeless money play; give it in a match so gammons
        are valued for the score.
        """
        plays = legal_plays(position, dice)
        if not plays:
            return None
        if len(plays) == 1:
            return plays[0]
        if self.level.uses_gnubg:
            try:
                return self._gnubg_play(position, dice, plays, ctx)
            except GnubgError as exc:
                self._fallback(exc)
        values = self.play_values(plays, ctx)
        if self.level is Level.BEGINNER:
            scale = 1.0 if ctx is None or ctx.money else _match_scale(ctx)
            values = values + np.array([self.rng.gauss(0.0, BEGINNER_PLAY_NOISE * scale) for _ in plays])
        return plays[int(np.argmax(values))]

    def play_values(self, plays: list[Play], ctx: CubeContext | None = None) -> np.ndarray:
        """The built-in net's value of each play for the side playing it, in one batch."""
        theirs = self.net.probabilities(boards_of([p.position for p in plays]))
        return outcome_values(_flip(theirs), ctx)

    def _gnubg_play(
        self, position: Position, dice: tuple[int, int], plays: list[Play], ctx: CubeContext | None
    ) -> Play:
        engine = gnubg_engine()
        spec = None if ctx is None else _spec(ctx)
        move = engine.best_move(position.to_gnubg(), dice, self.level.plies, spec)
        if move is not None:
            after = _apply_gnubg_move(position, move)
            if after is not None:
                for p in plays:
                    if p.position == after:
                        return p
        # gnubg's move tuple cannot name every play (it ends at the first checker borne off): rank ours instead.
        equities = engine.rank([p.position.to_gnubg() for p in plays], self.level.plies)
        return plays[max(range(len(plays)), key=equities.__getitem__)]

    # --------------------------------------------------------------- cube

    def cube_values(self, position: Position, ctx: CubeContext) -> CubeValues:
        """No double, double/take and double/pass for the side on roll in `position`, whose view `ctx` is."""
        if self.level.uses_gnubg:
            try:
                return self._gnubg_cube(position, ctx)
            except GnubgError as exc:
                self._fallback(exc)
        probs = self.net.probabilities(boards_of([position]))[0]
        if self.level is Level.BEGINNER:
            probs = _blur(probs, self.rng.gauss(0.0, BEGINNER_CUBE_NOISE))
        pips = sum(n * (i + 1) for i, n in enumerate(position.player))
        return cube_values(tuple(float(x) for x in probs), ctx, efficiency_for(pips, _contact(position)))

    def _gnubg_cube(self, position: Position, ctx: CubeContext) -> CubeValues:
        engine = gnubg_engine()
        board = position.to_gnubg()
        nd, dt, dp = engine.cube_values(board, _spec(ctx), 0)
        if self.level.plies >= 2:
            # Look deeper only when the quick look finds the decision close.
            margin = 0.12 * ctx.cube if ctx.money else 0.03
            if abs(min(dt, dp) - nd) < margin or abs(dt - dp) < margin:
                nd, dt, dp = engine.cube_values(board, _spec(ctx), 1)
        return CubeValues(nd, dt, dp)

    def should_double(self, where: Position | MatchState, ctx: CubeContext | Color | None = None) -> bool:
        """Double now?  `where` has the bot on roll (or is a MatchState, with the bot's Color)."""
        position, c = _unpack(where, ctx)
        if not c.may_double():
            return False
        return self.cube_values(position, c).should_double

    def should_take(self, where: Position | MatchState, ctx: CubeContext | Color | None = None) -> bool:
        """Take the double just offered?

        `where` has the doubler on roll; `ctx` is the bot's view, cube not yet turned.
        """
        position, c = _unpack(where, ctx)
        return self.cube_values(position, c.flipped()).should_take

    def should_accept_resign(
        self, where: Position | MatchState, ctx: CubeContext | Color | None = None, points: int | None = None
    ) -> bool:
        """Accept a resignation that gives the bot `points` (a MatchState carries its own)?

        Accept when the points are worth at least what playing on is expected
        to win, cubelessly.  `where` may have either side on roll; with a
        Position, the bot is the side on roll.
        """
        position, c = _unpack(where, ctx)
        bot_on_roll = True
        if not isinstance(where, Position):
            bot_on_roll = where.turn is None or where.turn is ctx
            if points is None:
                mult = where.resign_win.multiplier if where.resign_win is not None else 1
                points = where.cube * mult
        if points is None:
            points = c.cube
        probs = self._probabilities(position)
        if not bot_on_roll:
            probs = _flip(probs[None, :])[0]
        expected = float(outcome_values(probs[None, :], c)[0])
        return points_value(points, c) >= expected - 1e-9

    def _probabilities(self, position: Position) -> Floats:
        if self.level.uses_gnubg:
            try:
                return np.asarray(gnubg_engine().probabilities(position.to_gnubg()), dtype=np.float32)
            except GnubgError as exc:
                self._fallback(exc)
        probs: Floats = self.net.probabilities(boards_of([position]))[0]  # numpy types a row as Any
        return probs

    def _fallback(self, exc: Exception) -> None:
        if not self._warned:
            log.warning("%s: gnubg failed (%s); playing with the built-in net", self.level.label, exc)
            self._warned = True


def _match_scale(ctx: CubeContext) -> float:
    """How much match-winning chance one point of money equity is worth here, roughly."""
    return max((points_value(ctx.cube, ctx) - points_value(-ctx.cube, ctx)) / 2.0, 1e-3)


def _blur(probs: np.ndarray, shift: float) -> np.ndarray:
    """Shift the winning chance, scaling the gammon chances along with it."""
    p = float(probs[0])
    q = min(max(p + shift, 0.01), 0.99)
    out = probs.astype(np.float64).copy()
    out[0] = q
    if p > 0:
        out[1:3] *= q / p
    if p < 1:
        out[3:5] *= (1 - q) / (1 - p)
    return out


def _apply_gnubg_move(position: Position, move: tuple[int, ...]) -> Position | None:
    """The position after gnubg's (from, to, ...) move, the other side on roll; None if it cannot tell."""
    if len(move) % 2:
        return None
    try:
        for k in range(0, len(move), 2):
            position = position.apply(Move(move[k], move[k + 1]))
    except PositionError:
        return None
    return position.swap()
