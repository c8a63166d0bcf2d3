"""GNU Backgammon Match IDs: the cube, score, dice and turn beside a Position ID.

White is gnubg's player 0 and Black its player 1.
"""

from __future__ import annotations

import base64

from bgdoor.rules.game import Color, MatchState, Phase

_RESIGN = {"single": 1, "gammon": 2, "backgammon": 3}


def _player(color: Color | None) -> int:
    return 1 if color is Color.BLACK else 0


def match_id(state: MatchState) -> str:
    fields: list[tuple[int, int]] = []  # (value, width), least significant first

    def put(value: int, width: int) -> None:
        fields.append((value, width))

    put(state.cube.bit_length() - 1, 4)
    put(3 if state.cube_owner is None else _player(state.cube_owner), 2)
    put(_player(state.turn), 1)
    put(int(state.crawford), 1)
    put(2 if state.over else 1, 3)
    put(_player(state.actor if state.actor is not None else state.turn), 1)
    put(int(state.phase is Phase.DOUBLED), 1)
    put(_RESIGN.get(state.resign_win.value, 0) if state.phase is Phase.RESIGNED and state.resign_win else 0, 2)
    dice = state.dice if state.phase is Phase.MOVE and state.dice else (0, 0)
    put(max(dice), 3)
    put(min(dice), 3)
    put(state.length, 15)
    put(state.score[0], 15)
    put(state.score[1], 15)
    put(1, 1)  # "no Jacoby rule": always so in match play
    bits = 0
    shift = 0
    for value, width in fields:
        bits |= (value & ((1 << width) - 1)) << shift
        shift += width
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")
