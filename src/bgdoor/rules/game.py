"""Games and matches as a state machine driven by explicit events.

`apply(state, event)` returns the new state and the events to record: the
event itself, then any that follow from it (a game won, the match won).
`replay(length, events)` rebuilds a state from a recorded list, so a store
can keep an append-only log and trust it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar

from bgdoor.rules.moves import Play, legal_plays
from bgdoor.rules.position import Position, PositionError

MAX_CUBE = 64
LONGEST_MATCH = 25  # points; the longest match anyone may begin


class RuleError(ValueError):
    """An event that the rules do not allow now; the reason is readable by a player."""


class Color(StrEnum):
    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE


class Phase(StrEnum):
    OPENING = "opening"  # the opening roll is due
    ROLL = "roll"  # the player on turn may double, or roll
    MOVE = "move"  # the dice are rolled and must be played
    DOUBLED = "doubled"  # the opponent must take or drop
    RESIGNED = "resigned"  # the opponent must accept or reject a resignation
    OVER = "over"  # the match is over


class Win(StrEnum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def multiplier(self) -> int:
        return {"single": 1, "gammon": 2, "backgammon": 3}[self.value]


# -------------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    type: ClassVar[str] = ""
    derived: ClassVar[bool] = False  # follows from another event; never submitted

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for name, value in self.__dict__.items():
            data[name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class OpeningRoll(Event):
    type: ClassVar[str] = "opening_roll"
    white: int
    black: int


@dataclass(frozen=True)
class Roll(Event):
    type: ClassVar[str] = "roll"
    dice: tuple[int, int]


@dataclass(frozen=True)
class Move(Event):
    """A whole turn: its notation ("" when nothing was legal) and the resulting Position ID."""

    type: ClassVar[str] = "play"
    notation: str
    position: str
    # The single moves as the player made them (source, destination; 25 the bar, 0 off), where
    # they were given: V)iew last replays them in that order.  Not part of the play: two records
    # of one play compare equal whatever order they were made in.
    path: tuple[tuple[int, int], ...] = field(default=(), compare=False)

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        if self.path:
            data["path"] = [list(hop) for hop in self.path]
        else:
            del data["path"]  # the records written before it are the same
        return data


@dataclass(frozen=True)
class Double(Event):
    type: ClassVar[str] = "double"


@dataclass(frozen=True)
class Take(Event):
    type: ClassVar[str] = "take"


@dataclass(frozen=True)
class Drop(Event):
    type: ClassVar[str] = "drop"


@dataclass(frozen=True)
class Resign(Event):
    type: ClassVar[str] = "resign"
    by: Color
    win: Win  # what the resigner offers the opponent


@dataclass(frozen=True)
class AcceptResign(Event):
    type: ClassVar[str] = "accept_resign"


@dataclass(frozen=True)
class RejectResign(Event):
    type: ClassVar[str] = "reject_resign"


@dataclass(frozen=True)
class Forfeit(Event):
    """The match is lost by `loser`, for example for not moving in time."""

    type: ClassVar[str] = "forfeit"
    loser: Color
    reason: str = "time"


# A forfeit's recorded reason in the words of records and the sysop's tables: '(time)' alone did
# not say that nobody had moved.
FORFEIT_WHY = {"time": "no move in time", "sysop": "ended by the sysop"}


@dataclass(frozen=True)
class GameWon(Event):
    type: ClassVar[str] = "win"
    derived: ClassVar[bool] = True
    winner: Color
    points: int
    win: Win
    how: str  # "bearoff", "drop", "resign" or "forfeit"


@dataclass(frozen=True)
class MatchWon(Event):
    type: ClassVar[str] = "match_won"
    derived: ClassVar[bool] = True
    winner: Color


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        OpeningRoll,
        Roll,
        Move,
        Double,
        Take,
        Drop,
        Resign,
        AcceptResign,
        RejectResign,
        Forfeit,
        GameWon,
        MatchWon,
    )
}


def event_from_dict(data: dict[str, Any]) -> Event:
    data = dict(data)
    try:
        cls = EVENT_TYPES[data.pop("type")]
    except KeyError as exc:
        raise RuleError(f"unknown event {exc}") from None
    if cls is Roll:
        data["dice"] = tuple(data["dice"])
    if "path" in data:
        data["path"] = tuple((int(a), int(b)) for a, b in data["path"])
    for key in ("by", "winner", "loser"):
        if key in data:
            data[key] = Color(data[key])
    if "win" in data:
        data["win"] = Win(data["win"])
    return cls(**data)


# --------------------------------------------------------------------- state


@dataclass(frozen=True)
class GameResult:
    game: int
    winner: Color
    points: int
    win: Win
    how: str


@dataclass(frozen=True)
class MatchState:
    length: int
    score: tuple[int, int] = (0, 0)  # white, black
    game: int = 1
    crawford: bool = False  # this game is the Crawford game
    crawford_done: bool = False
    phase: Phase = Phase.OPENING
    turn: Color | None = None  # whose turn; the side on roll in `position`
    position: Position = field(default_factory=Position.start)
    dice: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: Color | None = None
    resign_by: Color | None = None
    resign_win: Win | None = None
    resume_phase: Phase | None = None
    winner: Color | None = None
    results: tuple[GameResult, ...] = ()

    # ---- questions the UI and service ask

    @property
    def actor(self) -> Color | None:
        """Who must act next; None for the opening roll (nobody in particular) and a finished match."""
        if self.phase in (Phase.ROLL, Phase.MOVE):
            return self.turn
        if self.phase is Phase.DOUBLED:
            return self.turn.other if self.turn else None
        if self.phase is Phase.RESIGNED:
            return self.resign_by.other if self.resign_by else None
        return None

    @property
    def cube_in_use(self) -> bool:
        return self.length > 1 and not self.crawford

    def can_double(self, color: Color | None = None) -> bool:
        color = color or self.turn
        return (
            self.phase is Phase.ROLL
            and color is self.turn
            and self.cube_in_use
            and self.cube < MAX_CUBE
            and self.cube_owner in (None, color)
        )

    def plays(self) -> list[Play]:
        if self.phase is not Phase.MOVE or self.dice is None:
            return []
        return legal_plays(self.position, self.dice)

    def score_of(self, color: Color) -> int:
        return self.score[0] if color is Color.WHITE else self.score[1]

    def sides(self, color: Color) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(color's checkers, the other's), each from its own side's view."""
        if self.turn in (color, None):
            return self.position.player, self.position.opponent
        return self.position.opponent, self.position.player

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER


def new_match(length: int) -> MatchState:
    if not isinstance(length, int) or not 1 <= length <= LONGEST_MATCH:
        raise RuleError(f"a match is 1 to {LONGEST_MATCH} points, not {length}")
    return MatchState(length=length)


# --------------------------------------------------------------- transitions


def _result_of_bearoff(pos: Position) -> Win:
    """`pos.player` has just borne off its last checker."""
    loser = pos.opponent
    if sum(loser) < 15:
        return Win.SINGLE
    # The loser's points 19..24 are the winner's home board.
    if loser[24] or any(loser[18:24]):
        return Win.BACKGAMMON
    return Win.GAMMON


def _end_game(
    state: MatchState, winner: Color, win: Win, how: str, points: int | None = None
) -> tuple[MatchState, list[Event]]:
    pts = state.cube * win.multiplier if points is None else points
    white, black = state.score
    if winner is Color.WHITE:
        white += pts
    else:
        black += pts
    result = GameResult(state.game, winner, pts, win, how)
    events: list[Event] = [GameWon(winner, pts, win, how)]
    ended = replace(
        state,
        score=(white, black),
        results=state.results + (result,),
        dice=None,
        resign_by=None,
        resign_win=None,
        resume_phase=None,
    )
    if max(white, black) >= state.length:
        events.append(MatchWon(winner))
        return replace(ended, phase=Phase.OVER, winner=winner), events
    at_point = state.length - 1
    crawford = not state.crawford_done and at_point in (white, black) and min(white, black) < at_point
    return (
        replace(
            ended,
            game=state.game + 1,
            crawford=crawford,
            crawford_done=state.crawford_done or crawford,
            phase=Phase.OPENING,
            turn=None,
            position=Position.start(),
            cube=1,
            cube_owner=None,
        ),
        events,
    )


def _check_die(d: Any) -> None:
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
        raise RuleError(f"a die shows 1 to 6, not {d!r}")


def apply(state: MatchState, event: Event) -> tuple[MatchState, list[Event]]:
    """The state after `event`, and the events to record. Raises RuleError if not allowed now."""
    if event.derived:
        raise RuleError(f"'{event.type}' follows from other events and cannot be submitted")
    phase = state.phase
    if isinstance(event, Forfeit):
        if phase is Phase.OVER:
            raise RuleError("the match is already over")
        winner = event.loser.other
        needed = state.length - state.score_of(winner)
        new, more = _end_game(state, winner, Win.SINGLE, "forfeit", points=max(needed, 1))
        return new, [event, *more]
    if phase is Phase.OVER:
        raise RuleError("the match is over")

    if isinstance(event, OpeningRoll):
        if phase is not Phase.OPENING:
            raise RuleError("the opening roll has been made")
        _check_die(event.white)
        _check_die(event.black)
        if event.white == event.black:
            return state, [event]  # a tie is rolled again
        first = Color.WHITE if event.white > event.black else Color.BLACK
        dice = (max(event.white, event.black), min(event.white, event.black))
        return replace(state, phase=Phase.MOVE, turn=first, dice=dice), [event]

    if isinstance(event, Roll):
        if phase is not Phase.ROLL:
            raise RuleError(_not_now(state, "roll"))
        if not isinstance(event.dice, tuple) or len(event.dice) != 2:
            raise RuleError("a roll is two dice")
        for d in event.dice:
            _check_die(d)
        return replace(state, phase=Phase.MOVE, dice=event.dice), [event]

    if isinstance(event, Move):
        if phase is not Phase.MOVE or state.dice is None or state.turn is None:
            raise RuleError(_not_now(state, "move"))
        plays = legal_plays(state.position, state.dice)
        if not plays:
            if event.notation:
                raise RuleError("no play is legal with this roll; the turn passes")
            after = state.position.swap()
            notation = ""
        else:
            try:
                wanted = Position.from_id(event.position)
            except PositionError as exc:
                raise RuleError(str(exc)) from None
            match = next((p for p in plays if p.position == wanted), None)
            if match is None:
                raise RuleError("that play is not legal with this roll")
            after, notation = match.position, str(match)
        mover = state.turn
        recorded = Move(notation, after.id, event.path)  # the order the moves were made in goes with it
        if after.opponent_off == 15:
            # The final board is the one after this play, not before it.
            final = replace(state, position=after, turn=mover.other)
            new, more = _end_game(final, mover, _result_of_bearoff(after.swap()), "bearoff")
            return new, [recorded, *more]
        return replace(state, phase=Phase.ROLL, turn=mover.other, position=after, dice=None), [recorded]

    if isinstance(event, Double):
        if not state.can_double():
            raise RuleError(_why_no_double(state))
        return replace(state, phase=Phase.DOUBLED), [event]

    if isinstance(event, Take):
        if phase is not Phase.DOUBLED or state.turn is None:
            raise RuleError("there is no double to take")
        return replace(state, phase=Phase.ROLL, cube=state.cube * 2, cube_owner=state.turn.other), [event]

    if isinstance(event, Drop):
        if phase is not Phase.DOUBLED or state.turn is None:
            raise RuleError("there is no double to drop")
        new, more = _end_game(state, state.turn, Win.SINGLE, "drop")
        return new, [event, *more]

    if isinstance(event, Resign):
        if phase not in (Phase.ROLL, Phase.MOVE):
            raise RuleError(_not_now(state, "resign"))
        return replace(
            state, phase=Phase.RESIGNED, resign_by=event.by, resign_win=Win(event.win), resume_phase=phase
        ), [event]

    if isinstance(event, AcceptResign):
        if phase is not Phase.RESIGNED or state.resign_by is None or state.resign_win is None:
            raise RuleError("there is no resignation to accept")
        new, more = _end_game(state, state.resign_by.other, state.resign_win, "resign")
        return new, [event, *more]

    if isinstance(event, RejectResign):
        if phase is not Phase.RESIGNED:
            raise RuleError("there is no resignation to reject")
        return replace(
            state, phase=state.resume_phase or Phase.ROLL, resign_by=None, resign_win=None, resume_phase=None
        ), [event]

    raise RuleError(f"unknown event {event!r}")


def _not_now(state: MatchState, what: str) -> str:
    return {
        Phase.OPENING: f"cannot {what}: the opening roll comes first",
        Phase.ROLL: f"cannot {what}: roll the dice first",
        Phase.MOVE: f"cannot {what}: the dice are rolled; play them",
        Phase.DOUBLED: f"cannot {what}: a double must be taken or dropped",
        Phase.RESIGNED: f"cannot {what}: a resignation must be accepted or rejected",
        Phase.OVER: f"cannot {what}: the match is over",
    }[state.phase]


def _why_no_double(state: MatchState) -> str:
    if state.phase is not Phase.ROLL:
        return _not_now(state, "double")
    if state.length == 1:
        return "the cube is not used in a 1-point match"
    if state.crawford:
        return "no doubling in the Crawford game"
    if state.cube >= MAX_CUBE:
        return f"the cube is at {MAX_CUBE}"
    return "your opponent owns the cube"


def replay(length: int, events: list[Event]) -> MatchState:
    """Rebuild a match from its record; derived events are checked, not applied."""
    state = new_match(length)
    expected: list[Event] = []
    for event in events:
        if event.derived:
            if not expected or expected.pop(0) != event:
                raise RuleError(f"the record does not follow: unexpected {event.type}")
            continue
        if expected:
            raise RuleError(f"the record does not follow: missing {expected[0].type}")
        state, out = apply(state, event)
        expected = [e for e in out if e.derived]
        # A recorded move keeps its canonical notation; compare what the rules produce.
        if isinstance(event, Move) and out[0] != event:
            raise RuleError(f"the record does not follow: play {event.notation!r} recorded as {out[0]}")
    if expected:
        raise RuleError(f"the record does not follow: missing {expected[0].type}")
    return state
