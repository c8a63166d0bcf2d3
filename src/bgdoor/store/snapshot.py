"""MatchState to JSON and back, for the games row's cached snapshot.

The snapshot only saves replaying the events on every request; the events
stay the record (see tests: replay(events) == snapshot for every game).
"""

from __future__ import annotations

from typing import Any

from bgdoor.rules.game import Color, GameResult, MatchState, Phase, Win
from bgdoor.rules.position import Position

FORMAT = 1


def _color(value: str | None) -> Color | None:
    return None if value is None else Color(value)


def state_to_dict(state: MatchState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "length": state.length,
        "score": list(state.score),
        "game": state.game,
        "crawford": state.crawford,
        "crawford_done": state.crawford_done,
        "phase": state.phase.value,
        "turn": state.turn and state.turn.value,
        # A Position ID keeps who is on roll: from_id gives back the same player/opponent.
        "position": state.position.id,
        "dice": list(state.dice) if state.dice else None,
        "cube": state.cube,
        "cube_owner": state.cube_owner and state.cube_owner.value,
        "resign_by": state.resign_by and state.resign_by.value,
        "resign_win": state.resign_win and state.resign_win.value,
        "resume_phase": state.resume_phase and state.resume_phase.value,
        "winner": state.winner and state.winner.value,
        "results": [[r.game, r.winner.value, r.points, r.win.value, r.how] for r in state.results],
    }


def state_from_dict(data: dict[str, Any]) -> MatchState:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown snapshot format {data.get('format')!r}")
    white, black = data["score"]
    return MatchState(
        length=data["length"],
        score=(white, black),
        game=data["game"],
        crawford=data["crawford"],
        crawford_done=data["crawford_done"],
        phase=Phase(data["phase"]),
        turn=_color(data["turn"]),
        position=Position.from_id(data["position"]),
        dice=(data["dice"][0], data["dice"][1]) if data["dice"] else None,
        cube=data["cube"],
        cube_owner=_color(data["cube_owner"]),
        resign_by=_color(data["resign_by"]),
        resign_win=None if data["resign_win"] is None else Win(data["resign_win"]),
        resume_phase=None if data["resume_phase"] is None else Phase(data["resume_phase"]),
        winner=_color(data["winner"]),
        results=tuple(GameResult(g, Color(w), p, Win(win), how) for g, w, p, win, how in data["results"]),
    )
