"""Dice sources: the only randomness the engine sees, injected by the caller."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Protocol


class DiceSource(Protocol):
    def die(self) -> int: ...


class SystemDice:
    """Cryptographic dice, for production: callers cannot predict them."""

    def die(self) -> int:
        return secrets.randbelow(6) + 1


class ScriptedDice:
    """Dice from a list, for tests: `ScriptedDice([3, 1, 6, 6])` gives 3, 1, 6, 6."""

    def __init__(self, dice: Iterable[int]) -> None:
        self._dice = list(dice)
        for d in self._dice:
            if not 1 <= d <= 6:
                raise ValueError(f"a die shows 1 to 6, not {d}")
        self._next = 0

    def die(self) -> int:
        if self._next >= len(self._dice):
            raise IndexError("the scripted dice have run out")
        d = self._dice[self._next]
        self._next += 1
        return d


def roll(source: DiceSource) -> tuple[int, int]:
    return source.die(), source.die()
