"""The pure rules engine: no I/O, no clock, no randomness but injected dice."""

from bgdoor.rules.moves import Move, Play, legal_plays, notation
from bgdoor.rules.position import BAR, CHECKERS, OFF, Position, PositionError

__all__ = ["BAR", "CHECKERS", "OFF", "Move", "Play", "Position", "PositionError", "legal_plays", "notation"]
