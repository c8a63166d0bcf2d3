"""`bgdoor board POSITION_ID`: draw the door's board for a position on stdout.

Colours: the side on roll in the Position ID is White.  The viewer is White,
the side on roll, unless `--as black`, which shows the same position from
Black's seat (Black is then the side not on roll).  Point numbers are always
counted from the viewer's side.

The output is exactly what the door sends a caller for a full redraw (clear
screen, draw, cursor parked on row 24), in the chosen charset: CP437 bytes,
UTF-8, or plain ASCII without colour.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bgdoor.rules import Position, PositionError
from bgdoor.term.charset import CHARSETS
from bgdoor.term.screen import Screen
from bgdoor.ui import keys
from bgdoor.ui.board import PROMPT_ROW, THEMES, BoardView, render_board


def _dice(text: str) -> tuple[int, int]:
    text = text.strip().replace("-", "")
    if len(text) != 2 or not all("1" <= c <= "6" for c in text):
        raise argparse.ArgumentTypeError(f"dice are two digits from 1 to 6, like 53: {text!r}")
    return int(text[0]), int(text[1])


def add_board_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `board` command to the main parser's subparsers."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "board",
        help="draw the board for a position",
        description="Draw the door's 80x25 board for a position, as the door would send it. "
        "The side on roll in the Position ID is White; the viewer is White unless --as black.",
    )
    p.add_argument("position", help="GNU Backgammon Position ID (its side on roll is White)")
    p.add_argument(
        "--as",
        dest="viewer",
        choices=("white", "black"),
        default="white",
        help="whose seat to draw from (default white, the side on roll)",
    )
    p.add_argument("--charset", choices=CHARSETS, default="utf8", help="output bytes (default utf8)")
    p.add_argument("--theme", choices=sorted(THEMES), default="classic", help="colour scheme (default classic)")
    p.add_argument("--dice", type=_dice, help="show White's roll, like 53")
    p.add_argument(
        "--orientation",
        choices=("own", "table"),
        default="own",
        help="own: home board bottom right for both (default); table: Black sees the table turned round",
    )
    p.set_defaults(func=cmd_board)
    return p


def cmd_board(args: argparse.Namespace) -> int:
    try:
        pos = Position.from_id(args.position)
    except PositionError as exc:
        print(f"bgdoor board: {exc}", file=sys.stderr)
        return 2
    view = BoardView(
        pos,
        on_roll="white",
        viewer=args.viewer,
        dice=args.dice,
        help=keys.help_line(keys.State.MOVING),  # the game screen's own, for a player moving
        theme=args.theme,
        orientation=args.orientation,
        spectator=True,
        message=f"Position ID {pos.id}",
    )
    screen = Screen(args.charset)
    screen.load(render_board(view, args.charset))
    screen.cursor = (PROMPT_ROW, 1)
    data = screen.full_redraw()
    if args.charset != "ascii":
        data += b"\x1b[0m"
    out = sys.stdout.buffer
    out.write(data)
    out.flush()
    return 0
