"""A play-tester's findings: rating changes that add up, the notice of a turn in another game and
P)lay's list, and what the help says a note goes with."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import MatchRating, Service
from bgdoor.ui.news import rating_text

pytestmark = pytest.mark.timeout(120)


# ------------------------------------------------------------------ ratings


def test_the_rating_change_shown_is_the_difference_of_the_ratings_shown(tmp_path):
    """bob went 1500 -> 1522.36 -> 1538.74: told '1522.4 (+22.4)', then '1538.7 (+16.4)', and
    1522.4 + 16.4 is not 1538.7.  Each change is now that of the ratings as shown."""
    with Service(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([3, 1] * 5)) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        view = svc.begin_game(alice, 1, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.resign(alice, view.id, view.version, Win.SINGLE)
        view = svc.answer_resign(bob, view.id, view.version, True)
        log = svc.game_log(view.id, bob)
    ratings = (MatchRating("bob", 1522.36, 1538.74), MatchRating("alice", 1477.64, 1461.26))
    second = dataclasses.replace(log, ratings=ratings)
    assert rating_text(second) == "Ratings: bob 1538.7 (+16.3), alice 1461.3 (-16.3)."

    # A player adding up the changes over many matches lands on the rating shown.
    ratings = [1500.0, 1522.36, 1538.74, 1530.05, 1530.049, 1512.951, 1550.55]
    shown_total = 0.0
    for before, after in zip(ratings, ratings[1:], strict=False):
        text = rating_text(dataclasses.replace(log, ratings=(MatchRating("bob", before, after),)))
        m = re.fullmatch(r"Ratings: bob (\d+\.\d) \(([+-]\d+\.\d)\)\.", text)
        assert m, text
        shown_total += float(m.group(2))
        assert f"{1500 + shown_total:.1f}" == m.group(1), (text, shown_total)
