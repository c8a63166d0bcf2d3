"""The pure rules engine: no I/O, no clock, no randomness but injected dice."""

from bgdoor.rules.moves import Move, Play, legal_plays, notation, roll_text
from bgdoor.rules.parse import IllegalPlay, no_play, parse_play
from bgdoor.rules.position import BAR, CHECKERS, OFF, Position, PositionError
from bgdoor.rules.turn import Turn

__all__ = [
    "BAR", "CHECKERS", "OFF", "IllegalPlay", "Move", "Play", "Position", "PositionError", "Turn",
    "no_play", "legal_plays", "notation", "parse_play", "roll_text",
]
