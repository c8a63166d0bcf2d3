"""The `bgdoor` command."""

from __future__ import annotations

import argparse
import sys

from bgdoor.rules import Position, PositionError, legal_plays


def _parse_dice(text: str) -> tuple[int, int]:
    text = text.strip().replace("-", "")
    if len(text) != 2 or not text.isdigit() or not all("1" <= c <= "6" for c in text):
        raise ValueError(f"dice are two digits from 1 to 6, like 31: {text!r}")
    return int(text[0]), int(text[1])


def cmd_plays(args: argparse.Namespace) -> int:
    if args.batch:
        out = sys.stdout
        for lineno, line in enumerate(sys.stdin, 1):
            fields = line.split()
            if not fields:
                continue
            try:
                if len(fields) != 3:
                    raise ValueError("expected POSITION_ID D1 D2")
                pos = Position.from_id(fields[0])
                dice = _parse_dice(fields[1] + fields[2])
            except (ValueError, PositionError) as exc:
                print(f"bgdoor plays: line {lineno}: {exc}", file=sys.stderr)
                return 2
            ids = sorted(p.position.id for p in legal_plays(pos, dice))
            out.write((" ".join(ids) if ids else "-") + "\n")
        return 0
    if args.position is None or args.dice is None:
        print("bgdoor plays: give POSITION_ID DICE, or --batch", file=sys.stderr)
        return 2
    try:
        pos = Position.from_id(args.position)
        dice = _parse_dice(args.dice)
    except (ValueError, PositionError) as exc:
        print(f"bgdoor plays: {exc}", file=sys.stderr)
        return 2
    for play in legal_plays(pos, dice):
        print(f"{play}\t{play.position.id}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bgdoor", description="A backgammon door for bulletin-board systems.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plays", help="list the legal plays of a roll in a position")
    p.add_argument("position", nargs="?", help="GNU Backgammon Position ID")
    p.add_argument("dice", nargs="?", help="the roll, like 31")
    p.add_argument("--batch", action="store_true", help="read 'POSITION_ID D1 D2' lines from stdin")
    p.set_defaults(func=cmd_plays)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)
