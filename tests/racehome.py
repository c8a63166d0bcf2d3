"""alice and bob race home through the service: for tests that need a bear-off or a game's end."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bgdoor.rules.game import Color, MatchState, Phase
from bgdoor.rules.moves import Play, legal_plays
from bgdoor.service import Service
from bgdoor.service.types import GameView

T = TypeVar("T")


def fastest(plays: list[Play]) -> Play | None:
    """The play leaving the mover the fewest pips (None: no legal play)."""
    return min(plays, key=lambda p: sum(n * (i + 1) for i, n in enumerate(p.position.opponent)), default=None)


def race_home(
    svc: Service, length: int, stop: Callable[[MatchState, list[Play]], T | None]
) -> tuple[dict[Color, int], GameView, MatchState, T]:
    """alice (White) begins a `length`-point match against bob; both make the fastest play until
    `stop(state, plays)`, asked before each play, returns something: (ids, view, state, that)."""
    ids = {Color.WHITE: svc.register("alice", "alice-pw").id, Color.BLACK: svc.register("bob", "bob-pw").id}
    v = svc.begin_game(ids[Color.WHITE], length, Color.WHITE, "bob")
    v = svc.roll(ids[Color.WHITE], v.id, v.version)
    while True:
        st = v.state
        assert st.turn is not None and not st.over
        if st.phase is Phase.ROLL:
            v = svc.roll(ids[st.turn], v.id, v.version)
            continue
        assert st.dice is not None
        plays = legal_plays(st.position, st.dice)
        found = stop(st, plays)
        if found is not None:
            return ids, v, st, found
        play = fastest(plays)
        v = svc.submit_turn(ids[st.turn], v.id, v.version, str(play) if play is not None else "")
