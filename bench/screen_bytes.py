"""Bytes on the wire for the board screen: what a 2400-baud caller waits for.

Prints (a) moving the cursor by one point, (b) a full board in CP437 and
(c) the update a player sees when the opponent commits a turn, per charset.
Targets: (a) at most 40, (b) at most 3,000, (c) at most 600.

    python bench/screen_bytes.py
"""

from __future__ import annotations

from dataclasses import replace

from bgdoor.rules import Position, legal_plays
from bgdoor.term.screen import Screen
from bgdoor.ui.board import BoardView, move_cursor, render_board

HELP = "8 2 4 6 move  5/Enter pick up/drop  U undo  D double  R resign  ? help"


def _screen(view: BoardView, charset: str) -> tuple[Screen, int]:
    screen = Screen(charset)  # type: ignore[arg-type]
    screen.load(render_board(view, charset))  # type: ignore[arg-type]
    return screen, len(screen.full_redraw())


def _update(screen: Screen, view: BoardView, charset: str) -> int:
    screen.load(render_board(view, charset))  # type: ignore[arg-type]
    return len(screen.render())


def main() -> None:
    base = BoardView(
        Position.start(),
        on_roll="white",
        viewer="white",
        white_name="Alice",
        black_name="Bob",
        white_score=2,
        black_score=4,
        match_length=7,
        dice=(6, 4),
        cursor=13,
        sources=frozenset({24, 13, 8, 6}),
        message="Alice rolled 6-4.",
        help=HELP,
    )
    # Black to play 5-3 from the start, then commits; White then sees her own roll.
    before = replace(base, on_roll="black", dice=(5, 3), cursor=None, sources=frozenset(), message="Bob rolled 5-3.")
    play = legal_plays(before.position, (5, 3))[0]
    after = replace(
        base,
        position=play.position,
        on_roll="white",
        dice=(6, 4),
        cursor=None,
        sources=frozenset(),
        message=f"Bob played {play}.",
    )
    print(f"{'':34}{'cp437':>8}{'utf8':>8}{'ascii':>8}   target")
    rows: list[tuple[str, list[int], str]] = []
    for label, step, target in (
        ("(a) cursor one point right", "right", "40"),
        ("(a) cursor one point left", "left", "40"),
        ("(a) cursor to the facing point", "down", "40"),
    ):
        figures = []
        for cs in ("cp437", "utf8", "ascii"):
            screen, _ = _screen(base, cs)
            nxt = move_cursor(14, step) if step == "left" else move_cursor(13, step)
            start = replace(base, cursor=14) if step == "left" else base
            screen, _ = _screen(start, cs)
            figures.append(_update(screen, replace(base, cursor=nxt), cs))
        rows.append((label, figures, target))
    rows.append(("(b) full board", [_screen(base, cs)[1] for cs in ("cp437", "utf8", "ascii")], "3000 (cp437)"))
    figures = []
    for cs in ("cp437", "utf8", "ascii"):
        screen, _ = _screen(before, cs)
        figures.append(_update(screen, after, cs))
    rows.append(("(c) opponent commits a turn", figures, "600"))
    for label, figures, target in rows:
        print(f"{label:34}" + "".join(f"{n:>8}" for n in figures) + f"   {target}")
    print(f"\nopponent's play in (c): {play}")


if __name__ == "__main__":
    main()
