"""Turning what a player typed into the one legal play it means."""

from __future__ import annotations

from bgdoor.rules.game import MatchState, RuleError
from bgdoor.rules.moves import Play
from bgdoor.rules.parse import parse_play
from bgdoor.rules.position import Position, PositionError


def find_play(state: MatchState, text: str) -> Play | None:
    """The legal play `text` names (notation or a resulting Position ID); None passes a turn with no play.

    Raises RuleError with a reason a player can read.
    """
    plays = state.plays()
    text = (text or "").strip()
    if not plays:
        if text:
            raise RuleError("no play is legal with this roll; the turn passes")
        return None
    if not text:
        raise RuleError("the dice must be played: give a play such as 13/7 8/7")
    if len(text) == 14 and " " not in text:
        try:
            wanted = Position.from_id(text)
        except PositionError:
            pass
        else:
            for play in plays:
                if play.position == wanted:
                    return play
            raise RuleError("that position cannot be reached with this roll")
    assert state.dice is not None
    try:
        return parse_play(state.position, state.dice, text)
    except ValueError as exc:  # IllegalPlay is a ValueError
        raise RuleError(str(exc)) from None
