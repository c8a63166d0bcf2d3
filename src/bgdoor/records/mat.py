"""Matches as Jellyfish `.mat` text, the exchange format GNU Backgammon imports.

The layout follows what GNU Backgammon writes and reads back (`export match
mat` / `import mat`):

     5 point match

     Game 1
     alice : 0                      bob : 0
      1) 31: 8/5 6/5                 42: 8/4 6/4
      2)  Doubles => 2                Takes
      3) 62: 25/23 13/7*             ...
                                      Wins 2 points

White is the left column (GNU Backgammon's player 0), Black the right one.
A move line is `%3d) ` then the left turn in 27 columns, a space, and the
right turn; when Black opens, the first line has only the right column.
Each turn is written as the single checker moves in the order played, with
points from the mover's own side, 25 for the bar and 0 for off, and `*`
for a hit: unabbreviated, so no importer has to guess how `9/off` or `13/4`
was played.  A turn without a legal play is the roll alone (`62:`).

The importer tells the player who wins from the column of the `Wins` line,
and a `Wins` line while the game is still on means the loser resigned: it
counts the resignation as a single, gammon or backgammon from the points and
the cube.  Resignations and forfeits are written that way.  The format has
no word for a forfeit, so:
- a forfeit is also named in a `;` comment at the top, which the importer
  keeps as the match's comment;
- one that awards more than a backgammon at the current cube is read as a
  backgammon (the `Wins` line still carries the points awarded);
- one before a game's first roll is not read at all: the importer counts a
  resignation only in a game under way, and shows an empty game.
A player's note to the opponent, left with a turn, is a `;` comment at the top
too (`; Note from alice, game 1 move 3: ...`); the importer keeps every such
line in the match's comment.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bgdoor.rules.game import (
    FORFEIT_WHY,
    AcceptResign,
    Color,
    Double,
    Drop,
    Event,
    Forfeit,
    GameWon,
    MatchWon,
    Move,
    OpeningRoll,
    RejectResign,
    Resign,
    Roll,
    Take,
    apply,
    new_match,
)
from bgdoor.rules.moves import Move as CheckerMove, legal_plays
from bgdoor.rules.position import Position

LEFT_WIDTH = 27  # the left turn's field after "%3d) "
RIGHT_COLUMN = 33  # where the right turn's dice start
MAX_NAME = 31  # GNU Backgammon keeps names up to 31 characters


@dataclass
class _Row:
    cells: list[str] = field(default_factory=lambda: ["", ""])
    numbered: bool = True


@dataclass
class _Game:
    number: int
    score: tuple[int, int]
    rows: list[_Row] = field(default_factory=list)

    def add(self, color: Color, text: str) -> None:
        """Put a turn in `color`'s column, on the current line if it is still free there."""
        col = 0 if color is Color.WHITE else 1
        row = self.rows[-1] if self.rows else None
        if row is None or not row.numbered or row.cells[col] or (col == 0 and row.cells[1]):
            row = _Row()
            self.rows.append(row)
        row.cells[col] = text

    def add_win(self, color: Color, text: str) -> None:
        col = 0 if color is Color.WHITE else 1
        row = self.rows[-1] if self.rows else None
        # A drop by White leaves Black's cell free on the same line: GNU Backgammon puts the win there.
        if row is not None and row.numbered and col == 1 and not row.cells[1] and row.cells[0] == " Drops":
            row.cells[1] = " " + text
            return
        line = _Row(numbered=False)
        line.cells[col] = text
        self.rows.append(line)

    def lines(self, white: str, black: str) -> list[str]:
        left = f"{white} : {self.score[0]}"
        out = [f" Game {self.number}", f" {left:<30} {black} : {self.score[1]}"]
        number = 0
        for row in self.rows:
            left_text, right_text = row.cells
            if row.numbered:
                number += 1
                # Padded even when the right cell is empty, as GNU Backgammon writes it: its
                # importer looks for the right column from the 16th character, and on a
                # shorter line it finds what was left there from the line before.
                out.append(f"{number:3d}) {left_text:<{LEFT_WIDTH}} {right_text}")
            elif left_text:
                out.append(" " * 6 + left_text)
            else:
                out.append(" " * (RIGHT_COLUMN + 1) + right_text)
        return out


def mat_name(name: str, fallback: str) -> str:
    """A name the format can carry: one line, at most 31 characters, no colon (it ends a name)
    and no comma (the importer reads what follows one as a rating)."""
    clean = "".join(ch if ch.isprintable() else " " for ch in name).replace(":", ";").replace(",", ";")
    clean = re.sub(r"\s+", " ", clean).strip()
    return clean[:MAX_NAME].rstrip() or fallback


def _comment(text: str) -> str:
    """Text for one comment line: printable, on one line."""
    return re.sub(r"\s+", " ", "".join(ch if ch.isprintable() else " " for ch in text)).strip()


def turn_text(dice: tuple[int, int], moves: Iterable[CheckerMove]) -> str:
    """`62: 24/18 13/11*`: each checker move by one die, as played."""
    # Numbers as GNU Backgammon writes them: the bar is 25 and off is 0.
    played = " ".join(f"{m.src}/{m.dst}{'*' if m.hit else ''}" for m in moves)
    return f"{dice[0]}{dice[1]}: {played}".rstrip()


def _wins(points: int, final: bool) -> str:
    return f"Wins {points} point{'' if points == 1 else 's'}{' and the match' if final else ''}"


def export_mat(
    white_name: str,
    black_name: str,
    length: int,
    events: Iterable[Event],
    *,
    site: str | None = None,
    date: dt.date | None = None,
    notes: dict[int, str] | None = None,
) -> str:
    """The match in `events` (as recorded, derived events included or not) as `.mat` text.

    The events are replayed through the rules, so a record that does not
    follow raises RuleError.  An unfinished match is written as far as it
    went.  Dice rolled but not played are left out (the importer would
    play a forced move by itself), except on a game's first roll, where the
    importer needs them to see the game begun.

    notes: a player's note to the opponent, by the index in `events` of the play (or double,
    take, drop, resignation or answer) it went with; each becomes a `;` comment at the top,
    naming the player, game and move.
    """
    white = mat_name(white_name, "White")
    black = mat_name(black_name, "Black")
    if white == black:
        black = mat_name(black + " (2)", "Black")  # the importer tells the players apart by name

    state = new_match(length)
    games: list[_Game] = []
    game: _Game | None = None
    notes_list: list[str] = []
    notes_text: list[str] = []

    for index, event in enumerate(events):
        if event.derived:
            continue  # rebuilt below from the events they follow from
        before = state
        if game is None:
            game = _Game(before.game, before.score)
            games.append(game)
        current = game
        state, out = apply(before, event)

        if isinstance(event, Move):
            mover = before.turn
            assert mover is not None and before.dice is not None
            game.add(mover, turn_text(before.dice, _checker_moves(before.position, before.dice, event.position)))
            note = (notes or {}).get(index)
            if note:
                writer = white if mover is Color.WHITE else black
                number = sum(1 for row in game.rows if row.numbered)
                notes_text.append(f"; Note from {writer}, game {before.game} move {number}: {_comment(note)}")
        elif isinstance(event, Double):
            assert before.turn is not None
            game.add(before.turn, f" Doubles => {before.cube * 2}")
        elif isinstance(event, Take):
            assert before.turn is not None
            game.add(before.turn.other, " Takes")
        elif isinstance(event, Drop):
            assert before.turn is not None
            game.add(before.turn.other, " Drops")
        elif isinstance(event, Forfeit):
            # The format has no word for it; the importer keeps a header comment with the match.
            loser = white if event.loser is Color.WHITE else black
            reason = mat_name(FORFEIT_WHY.get(event.reason, event.reason), "forfeit")
            notes_list.append(f"; {loser} forfeited the match in game {before.game} ({reason})")
        elif isinstance(event, (OpeningRoll, Roll, Resign, RejectResign, AcceptResign)):
            pass  # dice show with the move; a resignation only by its result
        note = (notes or {}).get(index)
        if note and not isinstance(event, Move):
            # A note with a double, a take, a drop or a resignation: named by the move it followed.
            actor = event.by if isinstance(event, Resign) else before.actor
            if actor is not None:
                writer = white if actor is Color.WHITE else black
                number = sum(1 for row in current.rows if row.numbered)
                notes_text.append(f"; Note from {writer}, game {before.game} move {number}: {_comment(note)}")

        for follow in out:
            if isinstance(follow, GameWon):
                if not current.rows and before.dice is not None and before.turn is not None:
                    # Resigned or forfeited on the opening roll: the importer only counts a
                    # resignation in a game under way, and the roll is what gets it under way.
                    current.add(before.turn, turn_text(before.dice, ()))
                final = any(isinstance(e, MatchWon) for e in out)
                current.add_win(follow.winner, _wins(follow.points, final))
                game = None

    lines: list[str] = []
    if site:
        lines.append(f'; [Site "{mat_name(site, "")}"]')
    if date:
        lines.append(f'; [EventDate "{date.year:04d}.{date.month:02d}.{date.day:02d}"]')
    lines += notes_list
    lines += notes_text
    if lines:
        lines.append("")
    lines += [f" {length} point match", ""]
    for g in games:
        lines += g.lines(white, black)
        lines.append("")
    return "\n".join(lines) + "\n"


def _checker_moves(position: Position, dice: tuple[int, int], after_id: str) -> tuple[CheckerMove, ...]:
    """The single moves of the legal play that leads to `after_id` (none when nothing was legal)."""
    plays = legal_plays(position, dice)
    if not plays:
        return ()
    after = Position.from_id(after_id)
    for play in plays:
        if play.position == after:
            return play.moves
    raise AssertionError("apply accepted a play that legal_plays does not list")
