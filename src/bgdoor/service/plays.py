"""Turning what a player typed into the one legal play it means."""

from __future__ import annotations

from bgdoor.rules.game import MatchState, RuleError
from bgdoor.rules.moves import Play
from bgdoor.rules.position import Position, PositionError


def _words(text: str) -> list[str]:
    return sorted(text.lower().replace(",", " ").split())


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
    parsed = _parse(state, text)
    if parsed is not None:
        return parsed
    words = _words(text)
    for play in plays:
        if _words(str(play)) == words:
            return play
    raise RuleError(f"{text!r} is not a legal play of {state.dice[0]}-{state.dice[1]}" if state.dice else "not a legal play")


def _parse(state: MatchState, text: str) -> Play | None:
    """The rules' own notation parser, once it exists; None while it does not."""
    try:
        from bgdoor.rules.parse import parse_play  # written alongside; optional until it lands
    except ImportError:
        return None
    assert state.dice is not None
    try:
        return parse_play(state.position, state.dice, text)
    except ValueError as exc:  # IllegalPlay is a ValueError
        raise RuleError(str(exc)) from None
