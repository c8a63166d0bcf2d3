"""Board updates on the wire: correct when replayed, and small enough for 2400 baud.

Budgets: moving the cursor one point at most 40 bytes, a full CP437 board at
most 3,000, the update after the opponent commits a turn at most 600.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from boardbytes import BASE, BLACK_TO_PLAY, Caller, black_played

from bgdoor.rules import legal_plays
from bgdoor.term.charset import Charset
from bgdoor.ui.board import Loc, move_cursor


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
def test_full_board_size(charset: Charset) -> None:
    caller = Caller(BASE, charset)
    if charset == "cp437":
        assert caller.full <= 3000
    assert caller.full <= 3200


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
@pytest.mark.parametrize("theme", ["classic", "felt", "mono", "wood"])
def test_cursor_walk_costs_tens_of_bytes(charset: Charset, theme: str) -> None:
    view = replace(BASE, theme=theme)
    caller = Caller(view, charset)
    loc: Loc = 13
    worst = 0
    for step in ["right"] * 13 + ["down"] + ["left"] * 13 + ["up", "pgdn", "home", "end", "pgup"]:
        loc = move_cursor(loc, step)
        view = replace(view, cursor=loc)
        cost = caller.show(view)
        if step in ("left", "right") and charset == "cp437":
            assert cost <= 40, (loc, cost)
        worst = max(worst, cost)
    assert worst <= 48


def test_pick_up_and_drop_replays_exactly() -> None:
    caller = Caller(BASE, "utf8")
    view = replace(BASE, cursor=8, in_hand=8, sources=frozenset(), destinations=frozenset({2, 4}))
    assert caller.show(view) < 120
    view = replace(view, cursor=4)
    assert caller.show(view) < 60
    play = [p for p in legal_plays(BASE.position, (6, 4)) if str(p) == "8/2 6/2"]
    assert play
    moved = replace(BASE, position=play[0].position.swap(), cursor=2, dice_left=(), sources=frozenset())
    assert caller.show(moved) < 250


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
def test_opponent_commits_a_turn(charset: Charset) -> None:
    caller = Caller(BLACK_TO_PLAY, charset)
    for play in legal_plays(BLACK_TO_PLAY.position, (5, 3)):
        assert caller.show(black_played(play)) <= 600
        assert caller.show(BLACK_TO_PLAY) <= 600


def test_redraw_after_every_theme_change() -> None:
    caller = Caller(BASE, "cp437")
    for theme in ("felt", "mono", "wood", "classic"):
        assert caller.show(replace(BASE, theme=theme)) <= 3000
