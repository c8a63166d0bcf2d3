"""Bytes on the wire for the board screen: what a 2400-baud caller waits for.

Prints (a) moving the cursor by one point, (b) a full board in CP437 and
(c) the update a player sees when the opponent commits a turn, per charset.
Targets: (a) at most 40, (b) at most 3,000, (c) at most 600.  Each figure is
measured as tests/test_board_bytes.py measures it, replayed on an emulated
terminal that must end up showing the board.

    python bench/screen_bytes.py
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from boardbytes import BASE, BLACK_TO_PLAY, Caller, black_played

from bgdoor.rules import legal_plays
from bgdoor.term.charset import CHARSETS
from bgdoor.ui.board import move_cursor


def main() -> None:
    play = legal_plays(BLACK_TO_PLAY.position, (5, 3))[0]
    print(f"{'':34}" + "".join(f"{cs:>8}" for cs in CHARSETS) + "   target")
    rows: list[tuple[str, list[int], str]] = []
    for label, start, step in (
        ("(a) cursor one point right", 13, "right"),
        ("(a) cursor one point left", 14, "left"),
        ("(a) cursor to the facing point", 13, "down"),
    ):
        moved = replace(BASE, cursor=move_cursor(start, step))
        rows.append((label, [Caller(replace(BASE, cursor=start), cs).show(moved) for cs in CHARSETS], "40"))
    rows.append(("(b) full board", [Caller(BASE, cs).full for cs in CHARSETS], "3000 (cp437)"))
    figures = [Caller(BLACK_TO_PLAY, cs).show(black_played(play)) for cs in CHARSETS]
    rows.append(("(c) opponent commits a turn", figures, "600"))
    for label, figures, target in rows:
        print(f"{label:34}" + "".join(f"{n:>8}" for n in figures) + f"   {target}")
    print(f"\nopponent's play in (c): {play}")


if __name__ == "__main__":
    main()
