"""The board adapter: a terminal console that also draws the board and wears the player's theme.

The terminal itself (keys, cells, line input, wrapping, bell, charset, size, idle and time
limits) is bgdoor.term.console; this adds what only a backgammon screen needs.
"""

from __future__ import annotations

from typing import Any

from bgdoor.rules.game import Color, MatchState, Phase
from bgdoor.service import GameView, Preferences
from bgdoor.term.charset import charset_named, glyphs
from bgdoor.term.console import WAKE, Console as Terminal, Hangup, Key, Link, Woken
from bgdoor.term.screen import Attr
from bgdoor.ui import board as boardmod
from bgdoor.ui.board import Loc, Orientation

__all__ = ["WAKE", "Console", "Hangup", "Key", "Link", "Woken"]

# The terminal's named styles, taken from the board theme's attributes.
_STYLE_FIELDS = {
    "normal": "text",
    "title": "title",
    "hot": "heading",
    "dim": "help",
    "error": "message",
    "prompt": "heading",
    "input": "heading",
    "frame": "frame",
}


class Console(Terminal):
    """A caller's terminal with their theme and board orientation, which can draw the board."""

    theme: str = "classic"  # a name in board.THEMES
    orientation: Orientation = "own"

    def style(self, name: str) -> Attr:
        attr: Attr = getattr(boardmod.theme(self.theme), _STYLE_FIELDS.get(name, "text"))
        return attr

    def apply_preferences(self, prefs: Preferences) -> None:
        """Take on a player's sound, orientation, theme and charset (None: the terminal's own)."""
        self.sound = prefs.sound
        for orientation in boardmod.ORIENTATIONS:
            if prefs.orientation == orientation:
                self.orientation = orientation
        if prefs.theme in boardmod.THEMES:
            self.theme = prefs.theme
        wanted = charset_named(prefs.charset) or self.detected_charset
        if wanted != self.charset:
            self.set_charset(wanted)
        self.redraw()

    def put_sample(self, row: int, col: int) -> None:
        """A few of the charset's frame, checker and mark glyphs in the theme's colours, as the
        board draws them: drawn in plain colours, it had looked the same in every theme."""
        g, t = glyphs(self.charset), boardmod.theme(self.theme)
        for text, attr in ((f"{g.tl}{g.h * 3}{g.tr}", t.frame), (" ", t.board), (g.white, t.white), (" ", t.board),
                           (g.black, t.black), (" ", t.board), (g.cursor, t.cursor), (g.source, t.source),
                           (g.dest, t.dest)):
            self.screen.canvas.put(row, col, text, attr)
            col += len(text)

    def board(self, game: GameView, match: MatchState, *, on_roll: Color, turn: Color | None, **fields: Any) -> None:
        """The whole screen becomes the board of `game` at `match` (the game's state now, or a step
        of its record), drawn from the viewer's side in the player's theme; a spectator sees it
        from white's.

        `fields` are further BoardView fields (the position, dice, cursor, notes).
        """
        self.show_board(self.board_view(game, match, on_roll=on_roll, turn=turn, **fields))

    def show_board(self, view: boardmod.BoardView) -> None:
        """The whole screen becomes the board `view` (see board_view)."""
        self.show_whole(boardmod.render_board(view, self.charset, into=self.whole_canvas()))

    def board_view(self, game: GameView, match: MatchState, *, on_roll: Color, turn: Color | None,
                   **fields: Any) -> boardmod.BoardView:
        """The board `board` would draw, to draw with show_board."""
        crawford = match.crawford
        offered = match.phase is Phase.DOUBLED and match.turn is not None
        owner = match.turn.other if offered and match.turn else match.cube_owner
        return boardmod.BoardView(
            on_roll=on_roll.value,
            viewer=(game.viewer_color or Color.WHITE).value,
            white_name=game.name(Color.WHITE),
            black_name=game.name(Color.BLACK),
            white_score=match.score[0],
            black_score=match.score[1],
            match_length=match.length,
            crawford=crawford and not match.over,  # the note is for the Crawford game while it is played
            cube_value=None if crawford or match.length == 1 else match.cube * (2 if offered else 1),
            cube_owner=owner.value if owner else None,
            cube_offered=offered,
            turn=turn.value if turn else None,
            spectator=game.viewer_color is None,
            theme=self.theme,
            orientation=self.orientation,
            width=self.width,
            game_id=game.id,
            **fields,
        )

    def in_sight(self, loc: Loc, viewer: Color) -> bool:
        """Is the label of `loc` (where the board's cursor shows) within the caller's width?"""
        _, col = boardmod.label_cell(loc, viewer.value, self.orientation)
        return col + 3 <= self.width

    def move_cursor(self, loc: Loc, direction: str, viewer: Color) -> Loc:
        """Where the board cursor goes from `loc` on an arrow key, as this player sees the board."""
        return boardmod.move_cursor(loc, direction, viewer.value, self.orientation)
