"""FIBS ratings: pure arithmetic on two ratings and a match length."""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0


@dataclass(frozen=True)
class RatingChange:
    winner_gain: float  # added to the winner's rating
    loser_loss: float  # taken from the loser's rating


def upset_chance(rating_diff: float, length: int) -> float:
    """The underdog's chance of winning a match of `length` points."""
    return 1.0 / (10 ** (abs(rating_diff) * math.sqrt(length) / 2000) + 1)


def k_factor(experience: int) -> float:
    return max(1.0, 5.0 - experience / 100)


def rating_change(winner: float, loser: float, length: int, winner_exp: int, loser_exp: int) -> RatingChange:
    upset = upset_chance(winner - loser, length)
    # The underdog winning is worth more: P is the favourite's chance of having won.
    p = 1 - upset if winner < loser else upset
    base = 4 * math.sqrt(length) * p
    return RatingChange(base * k_factor(winner_exp), base * k_factor(loser_exp))
