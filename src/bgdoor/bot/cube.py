"""Cube decisions from cubeless probabilities, for money and for matches.

The built-in levels have only cubeless win and gammon chances from the net.
To turn them into cube actions we use Janowski's idea: a cube's real value
lies between the dead-cube value (nobody can ever double again) and the
fully live value (every double comes exactly at the take point), weighted by
a cube efficiency.  The live values are straight lines between the take and
cash points of each cube level, found from the highest cube down.  Values are
utilities: points for money, match-winning chances for a match, so the same
arithmetic serves both.

Match-winning chances come from a small match equity table built here from
a simple model (see `MatchTable`), good to a few per cent, which is all a
cubeless evaluator's decisions can use.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

MAX_CUBE = 64
CONTACT_EFFICIENCY = 0.68
# A game's gammon share as a match model sees it: of the games won, how many are gammons.
GAMMON_SHARE = 0.20
CRAWFORD_GAMMON_SHARE = 0.25


class Owner(Enum):
    """Who holds the cube, from the bot's side."""

    CENTRED = "centred"
    ME = "me"
    OPPONENT = "opponent"


@dataclass(frozen=True)
class CubeContext:
    """Cube and match, from one side's view (the bot's, unless said otherwise).

    `length` 0 means a money game.  `crawford` is true during the Crawford
    game itself; `post_crawford` once it has been played.
    """

    cube: int = 1
    owner: Owner = Owner.CENTRED
    length: int = 0
    my_score: int = 0
    their_score: int = 0
    crawford: bool = False
    post_crawford: bool = False

    @property
    def money(self) -> bool:
        return self.length == 0

    @property
    def cube_in_play(self) -> bool:
        return self.length != 1 and not self.crawford

    def flipped(self) -> CubeContext:
        """The same from the other side's view."""
        owner = {Owner.CENTRED: Owner.CENTRED, Owner.ME: Owner.OPPONENT, Owner.OPPONENT: Owner.ME}[self.owner]
        return CubeContext(
            self.cube, owner, self.length, self.their_score, self.my_score, self.crawford, self.post_crawford
        )

    def may_double(self) -> bool:
        """May the side whose view this is double now (rules, not wisdom)?"""
        return self.cube_in_play and self.cube < MAX_CUBE and self.owner is not Owner.OPPONENT


# ------------------------------------------------------------- match table


@cache
def _post_crawford(need: int) -> float:
    """The trailer's chance, needing `need`, against a leader needing 1 after the Crawford game.

    The trailer doubles at once, so every game is worth two points, four with a gammon.
    """
    if need <= 0:
        return 1.0
    if need == 1:
        return 0.5
    g = GAMMON_SHARE
    return 0.5 * ((1 - g) * _post_crawford(need - 2) + g * _post_crawford(need - 4))


def _crawford(need: int) -> float:
    """The trailer's chance, needing `need`, in the Crawford game (no cube)."""
    g = CRAWFORD_GAMMON_SHARE
    return 0.5 * ((1 - g) * _post_crawford(need - 1) + g * _post_crawford(need - 2))


@cache
def match_winning_chance(me: int, them: int, post_crawford: bool = False) -> float:
    """The chance to win the match, needing `me` points against `them`, before a game starts.

    When someone is 1 away it is the Crawford game unless it has been played.
    Scores where both need 2 or more come from `_game_value`: a game with a
    centred cube and even chances, valued with the same cube model the bot
    uses for its decisions, over the table for lower scores.
    """
    if me <= 0:
        return 1.0
    if them <= 0:
        return 0.0
    if me == 1 and them == 1:
        return 0.5
    if me == 1:
        return 1.0 - (_post_crawford(them) if post_crawford else _crawford(them))
    if them == 1:
        return _post_crawford(me) if post_crawford else _crawford(me)
    return _game_value(me, them)


@cache
def _game_value(me: int, them: int) -> float:
    g = GAMMON_SHARE
    probs = (0.5, 0.5 * g, 0.0, 0.5 * g, 0.0)
    ctx = CubeContext(1, Owner.CENTRED, max(me, them) + 1, 0, 0)
    util = _Utility(ctx, need=(me, them))
    return _cubeful(probs, util, 1, Owner.CENTRED, CONTACT_EFFICIENCY)


# ------------------------------------------------------------------- utility


class _Utility:
    """What winning or losing k points is worth: points for money, match chances in a match."""

    def __init__(self, ctx: CubeContext, need: tuple[int, int] | None = None) -> None:
        self.money = ctx.money
        if need is None:
            need = (ctx.length - ctx.my_score, ctx.length - ctx.their_score)
        self.need_me, self.need_them = need
        # After this game: the Crawford game comes when someone first reaches 1 away.
        self.post = ctx.post_crawford or ctx.crawford

    def __call__(self, k: int) -> float:
        if self.money:
            return float(k)
        me, them = self.need_me, self.need_them
        if k > 0:
            me -= k
        else:
            them += k
        # A side reaching 1 away now makes the next game the Crawford game, unless that was this one.
        return match_winning_chance(me, them, self.post)

    def live_for_me(self, cube: int, ctx_crawford: bool) -> bool:
        """Can I still gain by doubling a cube of this value?"""
        if ctx_crawford or cube >= MAX_CUBE:
            return False
        return self.money or cube < self.need_me

    def live_for_them(self, cube: int, ctx_crawford: bool) -> bool:
        if ctx_crawford or cube >= MAX_CUBE:
            return False
        return self.money or cube < self.need_them


@dataclass
class _Level:
    win: float  # average utility of a win at this cube
    loss: float  # average utility of a loss
    take: float  # my take point: the least winning chance at which I take a double from here
    cash: float  # my cash point: beyond it the opponent should pass my double
    live_me: bool
    live_them: bool


def _levels(probs: tuple[float, ...], util: _Utility, cube: int, crawford: bool) -> dict[int, _Level]:
    """Take and cash points for this cube and every higher one."""
    p, wg, wbg, lg, lbg = (min(max(x, 0.0), 1.0) for x in probs)
    p = min(max(p, 1e-6), 1 - 1e-6)
    wg, lg = min(wg, p), min(lg, 1 - p)
    wbg, lbg = min(wbg, wg), min(lbg, lg)
    levels: dict[int, _Level] = {}
    values = []
    c = cube
    while True:
        values.append(c)
        if c >= MAX_CUBE:
            break
        c *= 2
    for c in reversed(values):
        win = ((p - wg) * util(c) + (wg - wbg) * util(2 * c) + wbg * util(3 * c)) / p
        loss = ((1 - p - lg) * util(-c) + (lg - lbg) * util(-2 * c) + lbg * util(-3 * c)) / (1 - p)
        lm, lt = util.live_for_me(c, crawford), util.live_for_them(c, crawford)
        up = levels.get(2 * c)
        if up is None or not lm:
            cash = 1.0
        else:
            # The opponent, owning 2c, is indifferent between taking and passing my double.
            lo = util(-2 * c)
            hi_line = up.win if up.live_them else None
            if hi_line is not None:
                cash = up.take + (1 - up.take) * _ratio(util(c) - lo, up.win - lo)
            else:
                cash = _ratio(util(c) - up.loss, up.win - up.loss)
        if up is None or not lt:
            take = 0.0
        else:
            # I, owning 2c after taking, am indifferent between taking and passing.
            if up.live_me:
                take = up.cash * _ratio(util(-c) - up.loss, util(2 * c) - up.loss)
            else:
                take = _ratio(util(-c) - up.loss, up.win - up.loss)
        take = min(max(take, 0.0), 1.0)
        cash = min(max(cash, take), 1.0)
        levels[c] = _Level(win, loss, take, cash, lm, lt)
    return levels


def _ratio(a: float, b: float) -> float:
    return a / b if abs(b) > 1e-12 else 1.0


def _line(x0: float, y0: float, x1: float, y1: float, x: float) -> float:
    if x1 - x0 < 1e-9:
        return y1 if x >= x1 else y0
    x = min(max(x, x0), x1)
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def _cubeful(
    probs: tuple[float, ...], util: _Utility, cube: int, owner: Owner, efficiency: float, crawford: bool = False
) -> float:
    """The value of the position before the roll, for the side on roll, with this cube."""
    lv = _levels(probs, util, cube, crawford)[cube]
    p = min(max(probs[0], 0.0), 1.0)
    dead = p * lv.win + (1 - p) * lv.loss
    lose, win = util(-cube), util(cube)
    if owner is Owner.ME:
        live = _line(0.0, lv.loss, lv.cash, win, p) if lv.live_me else dead
    elif owner is Owner.OPPONENT:
        live = _line(lv.take, lose, 1.0, lv.win, p) if lv.live_them else dead
    elif lv.live_me and lv.live_them:
        live = _line(lv.take, lose, lv.cash, win, p)
    elif lv.live_me:
        live = _line(0.0, lv.loss, lv.cash, win, p)
    elif lv.live_them:
        live = _line(lv.take, lose, 1.0, lv.win, p)
    else:
        live = dead
    return efficiency * live + (1 - efficiency) * dead


@dataclass(frozen=True)
class CubeValues:
    """Values for the side on roll: no double, double and take, double and pass."""

    no_double: float
    double_take: float
    double_pass: float

    @property
    def should_double(self) -> bool:
        # On a tie (a sure single win) double: the opponent passes and the game is over sooner.
        return min(self.double_take, self.double_pass) >= self.no_double - 1e-9

    @property
    def should_take(self) -> bool:
        """For the side doubled: taking leaves the doubler no more than passing would."""
        return self.double_take <= self.double_pass


def cube_values(probs: tuple[float, ...], ctx: CubeContext, efficiency: float = CONTACT_EFFICIENCY) -> CubeValues:
    """Cube values for the side on roll, whose view `ctx` and `probs` are from.

    Money values are in points (times the cube); match values are match-winning chances.
    """
    util = _Utility(ctx)
    c = ctx.cube
    p = probs[0]
    lv = _levels(probs, util, c, ctx.crawford)[c]
    dead = p * lv.win + (1 - p) * lv.loss
    nd = _cubeful(probs, util, c, ctx.owner, efficiency, ctx.crawford)
    win_now = util(c)
    if dead > win_now:
        nd = max(nd, dead)  # too good to double: playing on for the gammon is worth more than a cash
    dt = _cubeful(probs, util, 2 * c, Owner.OPPONENT, efficiency, ctx.crawford)
    return CubeValues(nd, dt, win_now)


def efficiency_for(pips_on_roll: int, contact: bool) -> float:
    """Cube efficiency: lower in short races, where a double leaves less time to use the cube."""
    if contact:
        return CONTACT_EFFICIENCY
    return min(0.72, max(0.55, 0.55 + pips_on_roll * 0.0015))


def outcome_values(probs: np.ndarray, ctx: CubeContext | None) -> np.ndarray:
    """Cubeless value of each row of five probabilities, for their side.

    With no context: money equity per point.  Otherwise what the outcomes are
    worth with the cube as it stands: points for money, match-winning chances
    for a match (so gammons count only as far as the score lets them).
    """
    import numpy as np  # noqa: PLC0415 - the match table above needs no numpy

    p, wg, wbg, lg, lbg = (probs[:, i].astype(np.float64) for i in range(5))
    if ctx is None:
        return 2 * p - 1 + wg + wbg - lg - lbg
    util = _Utility(ctx)
    c = ctx.cube
    return (
        (p - wg) * util(c)
        + (wg - wbg) * util(2 * c)
        + wbg * util(3 * c)
        + (1 - p - lg) * util(-c)
        + (lg - lbg) * util(-2 * c)
        + lbg * util(-3 * c)
    )


def points_value(points: int, ctx: CubeContext) -> float:
    """What winning (positive) or losing (negative) `points` now is worth."""
    return _Utility(ctx)(points)
