"""The board renderer: a pure function from game state and viewer to screen cells.

Colours and sides
-----------------
A Position is seen from the side on roll (`position.player`).  `BoardView`
says which colour that side is (`on_roll`) and which colour is looking
(`viewer`).  The viewer's checkers are `position.player` when the viewer is
on roll, else `position.opponent`; either way every point number on the
screen is counted from the viewer's own side: the viewer's point p holds
the viewer's side[p - 1] and the other side's side[24 - p].

Layout (80x24 and 80x25)
------------------------
By default ("own" orientation) every player sees the board from their own
seat with their home board at the bottom right: 1..6 bottom right, 7..12
bottom left, 13..18 top left, 19..24 top right; the viewer's checkers travel
24 -> 1 counter-clockwise.  From White's seat this is the UltraSoft figure:
White moves counter-clockwise and Black clockwise.  The "table" orientation
instead shows Black the same table turned round, as in the UltraSoft
figure's Black view: Black's home at the bottom left, Black moving clockwise.

    row 1       title bar: match length, Crawford
    row 2       point numbers 13..24 (viewer numbering), BAR
    row 3       frame
    rows 4-8    top points, checkers stacked from the edge (row 4) inwards
    rows 9-11   middle: dice of the side to play (viewer's in the home half)
    rows 12-16  bottom points, checkers stacked from row 16 upwards
    row 17      frame
    row 18      point numbers 12..1, OFF
    rows 20-21  message (wrapped to the caller's width; from row 19 if it needs three lines)
    rows 22-23  key help (likewise; narrower than 80 columns, row 24 too);  row 24 (and 25) free for
                prompts and notices
Nothing is drawn below row 24, so the same board fits a 24-line terminal.

Columns: cube 1-5 (rows 4-6 opponent owns it, 9-11 centred, 14-16 viewer
owns it); frame 7-53 with the bar at 27-29 and the trays at 50-52 (the
opponent's borne-off checkers top, the viewer's bottom, three to a row);
names, scores and pip counts at 56-80.  A point is three columns with its
checkers in the middle one; a stack taller than five shows four checkers
and then its count.  The viewer's checkers on the bar sit in the top half of
the bar (next to the points they enter on), the opponent's in the bottom half.

Each point number is followed by a marker column: the cursor (and the
checker in hand), legal sources and legal destinations are marked there,
so they show even in ASCII where there is no colour.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache, lru_cache
from operator import attrgetter
from typing import Literal, get_args

from bgdoor.rules import Position, roll_text
from bgdoor.rules.game import MatchState
from bgdoor.term.charset import Charset, Glyphs, glyphs
from bgdoor.term.screen import (
    BLACK,
    BLUE,
    CYAN,
    GREEN,
    RED,
    WHITE,
    YELLOW,
    Attr,
    Canvas,
)
from bgdoor.term.wrap import fit_name, shared, wrap

Colour = Literal["white", "black"]
Orientation = Literal["own", "table"]
Loc = int | Literal["bar", "off"]
Direction = Literal["up", "down", "left", "right", "home", "end", "pgup", "pgdn"]
ORIENTATIONS: tuple[Orientation, ...] = get_args(Orientation)

CHECKERS = 15
POINT_HEIGHT = 5

TITLE_ROW = 1
TOP_LABEL_ROW = 2
TOP_FRAME_ROW = 3
TOP_ROWS = (4, 5, 6, 7, 8)  # from the edge inwards
MIDDLE_ROWS = (9, 10, 11)
BOTTOM_ROWS = (16, 15, 14, 13, 12)  # from the edge inwards
BOTTOM_FRAME_ROW = 17
BOTTOM_LABEL_ROW = 18
MESSAGE_ROW = 20
HELP_ROW = 22
PROMPT_ROW = 24
TEXT_ROWS = range(MESSAGE_ROW - 1, HELP_ROW + 3)  # the message's and the help's, nothing else's
PANEL_COL = 58


def last_text_row(height: int) -> int:
    """Under 22 lines the message ends on the screen's last (BoardView.last_row): a question's
    '(Y/N)', the end of a note, a review step's '? shows all', had been below the screen's bottom
    (the keys under it still are: ? lists them).  0: where it always goes."""
    return height if height < MESSAGE_ROW + 2 else 0


def message_top(lines: int, last_row: int = 0) -> int:
    """The row a board's message of `lines` lines begins on: row 20 (19 for three), or higher, to
    end by `last_row` (see BoardView.last_row)."""
    top = MESSAGE_ROW - (lines >= 3)
    if last_row and top + lines - 1 > last_row:
        top = max(1, last_row - lines + 1)
    return top


def board_rows(width: int) -> int:
    """The rows the board takes on a screen `width` columns wide: down to its help line, which
    narrower than 80 columns breaks into three lines."""
    return HELP_ROW + (1 if width >= 80 else 2)


# Columns in the "own" layout; the "table" layout mirrors them around the bar.
_MIRROR = 56
_CUBE_COLS = (1, 5)
_OUTER_LEFT, _OUTER_RIGHT = 7, 53
_BAR_LEFT, _BAR_RIGHT = 26, 30
_TRAY_LINE = 49
BAR_COL = 28
_TRAY_COLS = (50, 51, 52)


def other(colour: Colour) -> Colour:
    return "black" if colour == "white" else "white"


@dataclass(frozen=True, slots=True)
class Theme:
    name: str
    title: Attr
    frame: Attr
    board: Attr  # the inside of the board; only its background shows
    point_a: Attr  # empty places on odd points
    point_b: Attr  # ... on even points
    white: Attr  # White's checkers
    black: Attr  # Black's checkers
    label: Attr  # point numbers
    cursor: Attr
    source: Attr
    dest: Attr
    in_hand: Attr
    die: Attr
    die_used: Attr
    cube: Attr
    heading: Attr  # names in the panel
    text: Attr
    message: Attr
    help: Attr


_CLASSIC = Theme(
    name="classic",
    title=Attr(WHITE, BLUE, True),
    frame=Attr(YELLOW),
    board=Attr(),
    point_a=Attr(RED),
    point_b=Attr(CYAN),
    white=Attr(WHITE, None, True),
    black=Attr(RED, None, True),
    label=Attr(WHITE),
    cursor=Attr(BLACK, WHITE),
    source=Attr(YELLOW, None, True),
    dest=Attr(GREEN, None, True),
    in_hand=Attr(YELLOW, None, True),
    die=Attr(WHITE, None, True),
    die_used=Attr(BLUE, None, True),
    cube=Attr(YELLOW, None, True),
    heading=Attr(YELLOW, None, True),
    text=Attr(WHITE),
    message=Attr(GREEN, None, True),
    help=Attr(CYAN),
)

_FELT = Theme(
    name="felt",
    title=Attr(WHITE, GREEN, True),
    frame=Attr(YELLOW, GREEN, True),
    board=Attr(None, GREEN),
    point_a=Attr(RED, GREEN),
    point_b=Attr(WHITE, GREEN),
    white=Attr(WHITE, GREEN, True),
    black=Attr(BLACK, GREEN),
    label=Attr(GREEN, None, True),
    cursor=Attr(BLACK, WHITE),
    source=Attr(YELLOW, None, True),
    dest=Attr(CYAN, None, True),
    in_hand=Attr(YELLOW, GREEN, True),
    die=Attr(BLACK, WHITE),
    die_used=Attr(WHITE, GREEN),
    cube=Attr(BLACK, WHITE),
    heading=Attr(GREEN, None, True),
    text=Attr(WHITE),
    message=Attr(YELLOW, None, True),
    help=Attr(GREEN),
)

_AMBER = Attr(YELLOW)
_AMBER_BOLD = Attr(YELLOW, None, True)
_MONO = Theme(
    name="mono",
    title=Attr(BLACK, YELLOW),
    frame=_AMBER,
    board=Attr(),
    point_a=_AMBER,
    point_b=_AMBER,
    white=_AMBER_BOLD,
    black=_AMBER,
    label=_AMBER,
    cursor=Attr(BLACK, YELLOW),
    source=_AMBER_BOLD,
    dest=_AMBER_BOLD,
    in_hand=Attr(BLACK, YELLOW),
    die=_AMBER_BOLD,
    die_used=_AMBER,
    cube=_AMBER_BOLD,
    heading=_AMBER_BOLD,
    text=_AMBER,
    message=_AMBER_BOLD,
    help=_AMBER,
)

_WOOD = Theme(
    name="wood",
    title=Attr(YELLOW, RED, True),
    frame=Attr(RED, YELLOW),
    board=Attr(None, YELLOW),
    point_a=Attr(RED, YELLOW),
    point_b=Attr(BLACK, YELLOW),
    white=Attr(WHITE, YELLOW, True),
    black=Attr(BLACK, YELLOW),
    label=Attr(YELLOW),
    cursor=Attr(BLACK, WHITE),
    source=Attr(WHITE, None, True),
    dest=Attr(GREEN, None, True),
    in_hand=Attr(CYAN, YELLOW, True),
    die=Attr(BLACK, WHITE),
    die_used=Attr(WHITE, YELLOW),
    cube=Attr(YELLOW, RED, True),
    heading=Attr(YELLOW, None, True),
    text=Attr(WHITE),
    message=Attr(WHITE, None, True),
    help=Attr(YELLOW),
)

# The themes a player chooses among, in the order O)ptions' T goes round them.
THEME_CHOICES: tuple[str, ...] = tuple(t.name for t in (_CLASSIC, _FELT, _MONO, _WOOD))
THEMES: dict[str, Theme] = {t.name: t for t in (_CLASSIC, _FELT, _MONO, _WOOD)}
# Other names for those, still read (a saved choice, --theme): never offered, since T going round
# them changed nothing on the board.
THEMES["green"] = _FELT
THEMES["tournament"] = _FELT
THEMES["amber"] = _MONO


def theme(name: str) -> Theme:
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; one of {', '.join(sorted(THEMES))}") from None


_COLOURS, _ORIENTATIONS = get_args(Colour), get_args(Orientation)  # asked on every key's board


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything the board shows, for one viewer.

    Locations (cursor, sources, destinations, in_hand) are the viewer's point
    numbers 1..24, 'bar' (the viewer's checkers on the bar) or 'off' (the
    viewer's tray).  `in_hand` is where the picked-up checker came from; the
    position still counts it there.
    """

    position: Position
    on_roll: Colour = "white"
    viewer: Colour = "white"
    white_name: str = "White"
    black_name: str = "Black"
    white_score: int = 0
    black_score: int = 0
    match_length: int = 0  # 0: unlimited / money session
    crawford: bool = False
    cube_value: int | None = 1  # None: no cube on the board (Crawford game, cubeless)
    cube_owner: Colour | None = None  # None: centred
    # A double not yet answered: the cube shows its new value before the side doubled, whose it
    # becomes if they take (it had stayed at its old value, centred, while the message said 'doubles').
    cube_offered: bool = False
    dice: tuple[int, int] | None = None
    dice_left: tuple[int, ...] | None = None  # dice still to play (none once the play is complete); None: all
    turn: Colour | None = None  # whose turn it is; None: the side on roll
    status: str | None = None  # said instead of 'Your turn' / 'X to play' (an open seat, a replay, the end)
    marker: bool = True  # the panel marks whose turn it is; False while it is nobody's (open seat, opening roll)
    cursor: Loc | None = None
    sources: frozenset[Loc] = field(default_factory=frozenset)
    destinations: frozenset[Loc] = field(default_factory=frozenset)
    in_hand: Loc | None = None
    message: str = ""
    help: str = ""
    theme: str = "classic"
    orientation: Orientation = "own"
    spectator: bool = False  # the viewer only watches: no "you"
    show_pips: bool = True
    width: int = 80  # the caller's columns: the message and help lines are wrapped to fit
    # The message ends by this row, over the board's foot if need be (0: where it always goes):
    # what a caller types on a screen too short for the message's rows, under 22 lines, had
    # gone below its bottom unseen.
    last_row: int = 0
    game_id: int = 0  # said on the title row where it fits (0: none, a board drawn alone)

    def __post_init__(self) -> None:
        for name in ("on_roll", "viewer"):
            if getattr(self, name) not in _COLOURS:
                raise ValueError(f"{name} must be 'white' or 'black'")
        if self.orientation not in _ORIENTATIONS:
            raise ValueError("orientation must be 'own' or 'table'")

    @property
    def mine(self) -> tuple[int, ...]:
        """The viewer's 25 counts, in the viewer's numbering."""
        p = self.position
        return p.player if self.viewer == self.on_roll else p.opponent

    @property
    def theirs(self) -> tuple[int, ...]:
        """The other side's 25 counts, in their own numbering."""
        p = self.position
        return p.opponent if self.viewer == self.on_roll else p.player

    def checkers_on(self, point: int) -> tuple[Colour | None, int]:
        """Who has how many checkers on the viewer's point 1..24."""
        n = self.mine[point - 1]
        if n:
            return self.viewer, n
        n = self.theirs[24 - point]
        if n:
            return other(self.viewer), n
        return None, 0

    def name_of(self, colour: Colour) -> str:
        return self.white_name if colour == "white" else self.black_name

    def score_of(self, colour: Colour) -> int:
        return self.white_score if colour == "white" else self.black_score

    def pips_of(self, colour: Colour) -> int:
        side = self.mine if colour == self.viewer else self.theirs
        return sum(n * (i + 1) for i, n in enumerate(side))

    def off_of(self, colour: Colour) -> int:
        side = self.mine if colour == self.viewer else self.theirs
        return CHECKERS - sum(side)


# -- geometry -----------------------------------------------------------------


def _mirrored(viewer: Colour, orientation: Orientation) -> bool:
    return orientation == "table" and viewer == "black"


def _x(col: int, mirrored: bool) -> int:
    return _MIRROR - col if mirrored else col


def point_column(point: int, viewer: Colour = "white", orientation: Orientation = "own") -> tuple[int, str]:
    """Screen column of a point's checkers and whether it is in the 'top' or 'bottom' half."""
    if not 1 <= point <= 24:
        raise ValueError(f"no point {point}")
    if point <= 6:
        col, half = 32 + 3 * (6 - point), "bottom"
    elif point <= 12:
        col, half = 9 + 3 * (12 - point), "bottom"
    elif point <= 18:
        col, half = 9 + 3 * (point - 13), "top"
    else:
        col, half = 32 + 3 * (point - 19), "top"
    return _x(col, _mirrored(viewer, orientation)), half


def tray_columns(viewer: Colour = "white", orientation: Orientation = "own") -> tuple[int, int, int]:
    m = _mirrored(viewer, orientation)
    cols = sorted(_x(c, m) for c in _TRAY_COLS)
    return cols[0], cols[1], cols[2]


def label_cell(loc: Loc, viewer: Colour = "white", orientation: Orientation = "own") -> tuple[int, int]:
    """(row, first column) of a location's 3-column label; its marker column follows it."""
    if loc == "bar":
        return TOP_LABEL_ROW, BAR_COL - 1
    if loc == "off":
        return BOTTOM_LABEL_ROW, tray_columns(viewer, orientation)[0]
    col, half = point_column(loc, viewer, orientation)
    return (TOP_LABEL_ROW if half == "top" else BOTTOM_LABEL_ROW), col - 1


@cache  # asked on every arrow key; four answers in all
def _cursor_rows(viewer: Colour, orientation: Orientation) -> tuple[tuple[Loc, ...], tuple[Loc, ...]]:
    """The cursor's stops, left to right on screen: (top row, bottom row)."""
    top: list[tuple[int, Loc]] = [(BAR_COL, "bar")]
    bottom: list[tuple[int, Loc]] = [(tray_columns(viewer, orientation)[1], "off")]
    for p in range(1, 25):
        col, half = point_column(p, viewer, orientation)
        (top if half == "top" else bottom).append((col, p))
    return tuple(loc for _, loc in sorted(top, key=lambda t: t[0])), tuple(
        loc for _, loc in sorted(bottom, key=lambda t: t[0])
    )


_DIAGONALS: dict[str, tuple[str, str]] = {
    "home": ("up", "left"),
    "pgup": ("up", "right"),
    "end": ("down", "left"),
    "pgdn": ("down", "right"),
}


def move_cursor(loc: Loc, direction: str, viewer: Colour = "white", orientation: Orientation = "own") -> Loc:
    """Where the cursor goes from `loc` on a keypad move.

    left/right step along the row of points on screen (the top row has the
    bar between 18 and 19, the bottom row ends in the tray right of point 1)
    and stop at the ends; up/down jump to the facing point in the other row
    (the bar faces the viewer's 6-point side, the tray the 24-point); the
    keypad diagonals (7 9 1 3 = home pgup end pgdn) do both.
    """
    if direction in _DIAGONALS:
        vertical, horizontal = _DIAGONALS[direction]
        return move_cursor(move_cursor(loc, vertical, viewer, orientation), horizontal, viewer, orientation)
    top, bottom = _cursor_rows(viewer, orientation)
    row = top if loc in top else bottom
    if loc not in row:
        raise ValueError(f"no cursor location {loc!r}")
    i = row.index(loc)
    if direction == "left":
        return row[max(0, i - 1)]
    if direction == "right":
        return row[min(len(row) - 1, i + 1)]
    if direction in ("up", "down"):
        going_up = direction == "up"
        if (row is top) == going_up:
            return loc  # already in that row
        if loc == "bar":
            return 6  # the bar sits between 7 and 6 below it; 6 is the home side
        if loc == "off":
            return 24
        return 25 - loc if isinstance(loc, int) else loc
    raise ValueError(f"unknown direction {direction!r}")


# -- drawing ------------------------------------------------------------------


def _cube_text(value: int) -> str:
    if value <= 1:
        return "64"
    if value < 1000:
        return str(value)
    return f"{value // 1024}K"


HELP_GAP = "  "  # between the help line's keys ('U)ndo  M)ove typed  ...')


def turn_line(v: BoardView) -> str:
    """The panel's line for whose turn it is: 'Your turn 6-5', 'bob to play', or the status."""
    turn = v.turn or v.on_roll
    if v.status is not None:
        line = v.status
    elif turn == v.viewer and not v.spectator:
        line = "Your turn"
    else:
        line = f"{v.name_of(turn)} to play"
    # Not "bob to answer 4-3" (the dice are not bob's), nor "Your answer 5-1" to a resignation
    # offered mid-turn, as if 5-1 were the answer.
    if v.dice is not None and turn == v.on_roll and not line.endswith("answer"):
        line += f" {roll_text(v.dice)}"
        left = to_play(v.dice, v.dice_left) if v.dice_left is not None else ""
        if left:
            line += f", {left}"
    return line


_HOW_MANY = {1: "one", 2: "two", 3: "three"}


def to_play(dice: tuple[int, int], left: tuple[int, ...]) -> str:
    """What is left of a roll part played: 'three 5s to play' (doubles: two dice drawn for four moves,
    how many are left shows nowhere else until the last), 'the 2 to play' (a greyed die shows
    little on a plain terminal); '' before the first move and once nothing is left."""
    if dice[0] == dice[1]:
        # 'three 5s', not '3': beside 'Your turn 3-3' a bare number read as a die ('a 2 to play').
        n = len(left)
        return f"{_HOW_MANY[n]} {dice[0]}{'s' if n > 1 else ''} to play" if 0 < n < 4 else ""
    return f"the {left[0]} to play" if len(left) == 1 else ""


def _phrased(text: str, width: int) -> list[str]:
    """`text` wrapped to `width`, broken after its commas first when it needs more than one line:
    'Your turn 4-4,' over '3 to play', not 'Your turn 4-4, 3 to' over 'play'."""
    if len(text) <= width or ", " not in text:
        lines = wrap(text, width)
        if len(lines) > 1 and lines[0].endswith(" to") and len(lines[1]) + 3 <= width:
            # 'UrsulaTheGreat16' over 'to answer', not 'UrsulaTheGreat16 to' over 'answer'.
            lines[:2] = [lines[0].removesuffix(" to"), f"to {lines[1]}"]
        return lines
    phrases = text.split(", ")
    return [line for phrase in [p + "," for p in phrases[:-1]] + phrases[-1:] for line in wrap(phrase, width)]


def cube_words(v: BoardView) -> str:
    """'Cube 2 yours', 'Cube 4 alice's', 'Cube 2 offered to you'; '' while the cube is at 1 (or
    there is none)."""
    if v.cube_value is None or v.cube_value <= 1:
        return ""
    if v.cube_offered and v.cube_owner is not None:
        to = "you" if v.cube_owner == v.viewer and not v.spectator else v.name_of(v.cube_owner)
        return f"Cube {v.cube_value} offered to {to}"
    if v.cube_owner is None:
        owner = "centred"
    elif v.cube_owner == v.viewer and not v.spectator:
        owner = "yours"
    else:
        owner = f"{v.name_of(v.cube_owner)}'s"  # 'Cube 2 bob' did not say bob owned it
    return f"Cube {v.cube_value} {owner}"


def score_line(v: BoardView) -> str:
    """The score as the panel and title show it: 'Score: alice 0, bob 1 (match to 5).'"""
    return score_words(v.white_name, v.white_score, v.black_name, v.black_score, v.match_length, v.crawford)


def leader_first(white: str, white_score: int, black: str, black_score: int) -> str:
    """'alice 2, bob 1': the score as players say it, the one ahead first (White on a tie).  White
    first had told a Black winner 'Score: bob 0, alice 4', and the next game's heading had put
    the players the other way round from the result above it."""
    if black_score > white_score:
        return f"{black} {black_score}, {white} {white_score}"
    return f"{white} {white_score}, {black} {black_score}"


def score_words(white: str, white_score: int, black: str, black_score: int, length: int, crawford: bool) -> str:
    of = f"match to {length}" if length else "unlimited match"
    score = leader_first(white, white_score, black, black_score)
    return f"Score: {score} ({of}{', Crawford game' if crawford else ''})."


def match_score(white: str, black: str, st: MatchState) -> str:
    """score_words for a match as it stands, its players named."""
    return score_words(white, st.score[0], black, st.score[1], st.length, st.crawford)


def game_heading(white: str, black: str, st: MatchState) -> str:
    """'Game 2 of the match. Score: alice 1, bob 0 (match to 3).': a game after the first, before
    its opening roll is told (the game screen, and R)eview)."""
    return f"Game {st.game} of the match. {match_score(white, black, st)}"


def _help_room(width: int) -> int:
    return 2 if width >= 80 else 3


def message_rows(help: str, width: int) -> int:
    """The lines a board's message has with `help` under it: three, and those of the help's rows
    its keys leave free (a held result's one line of help had left two rows empty under it at 40
    columns, while the result was cut, its ratings on the ? page)."""
    rows = _help_room(width)
    return 3 + rows - (len(help_rows(help, min(80, width) - 2, rows)) if help else 0)


def help_rows(text: str, width: int, rows: int = 2) -> list[str]:
    """The help line in `rows` rows of `width`, broken between keys, never inside one ('V)iew'
    on one row and 'last' on the next).  Keys that do not fit (a narrow terminal) are left out
    from the middle: the last two (?)help and Q)uit) stay, and the ? page lists them all."""
    return list(_help_rows(text, width, rows))


@lru_cache(maxsize=512)
def _help_rows(text: str, width: int, rows: int) -> tuple[str, ...]:
    # A board lays out its help line again whenever its message changes: a few lines, many times.
    return tuple(_lay_out_help(text, width, rows))


def _lay_out_help(text: str, width: int, rows: int) -> list[str]:
    items = [item for item in text.split(HELP_GAP) if item.strip()]
    if len(items) <= 1:
        return wrap(text, width)[:rows]  # a sentence, not keys
    for n in range(len(items), 0, -1):
        keep = items if n == len(items) else items[: max(0, n - 2)] + items[-2:]
        packed = _pack(keep, width)
        if packed is not None and len(packed) <= rows:
            return packed
    return wrap(text, width)[:rows]


def _pack(items: list[str], width: int) -> list[str] | None:
    """Items on as few rows as they fit, in order; None if one is wider than a row."""
    out: list[str] = []
    for item in items:
        if len(item) > width:
            return None
        if out and len(out[-1]) + len(HELP_GAP) + len(item) <= width:
            out[-1] += HELP_GAP + item
        else:
            out.append(item)
    return out


class _Painter:
    def __init__(self, view: BoardView, charset: Charset, canvas: Canvas | None = None) -> None:
        self.v = view
        self.g: Glyphs = glyphs(charset)
        self.colour = charset != "ascii"  # plain ASCII has no colour: a used die shows by its frame
        self.t = theme(view.theme)
        self.m = _mirrored(view.viewer, view.orientation)
        self.c = canvas if canvas is not None else Canvas()

    def x(self, col: int) -> int:
        return _x(col, self.m)

    def checker(self, colour: Colour) -> tuple[str, Attr]:
        if colour == "white":
            return self.g.white, self.t.white
        return self.g.black, self.t.black

    def paint(self) -> Canvas:
        """Everything, in drawing order, onto the canvas (a blank one)."""
        self.title_bar()
        self.title()
        self.frame()
        for p in range(1, 25):
            self.empty_point(p)
            self.checkers(p)
        self.bar()
        self.trays()
        for loc in LOCATIONS:
            self.label(loc)
        self.moving()
        return self.c

    def paint_static(self) -> Canvas:
        """What is the same on every board of this charset, theme and side: the title bar, the
        frame, the empty points and the unmarked point numbers."""
        self.title_bar()
        self.frame()
        for p in range(1, 25):
            self.empty_point(p)
        for loc in LOCATIONS:
            self.label(loc)
        return self.c

    def paint_over_static(self) -> Canvas:
        """The rest, onto a copy of paint_static's canvas: the same cells as paint(), since no two
        of these parts share a cell with a static part drawn after it."""
        v = self.v
        self.title()
        for p in range(1, 25):
            self.checkers(p)
        self.bar()
        self.trays()
        for loc in LOCATIONS:
            if loc == v.cursor or loc in v.destinations or loc in v.sources:
                self.label(loc)
        self.moving()
        return self.c

    def repaint_over(self, last: BoardView, static: Canvas) -> None:
        """Onto the canvas `last` was drawn on, when only the marks and texts differ (the cursor,
        sources, destinations, message, help): the labels that changed, and the text rows drawn
        again from the static layer's (nothing else is drawn in them)."""
        v = self.v
        changed = {last.cursor, v.cursor} | (last.sources ^ v.sources) | (last.destinations ^ v.destinations)
        for loc in LOCATIONS:
            if loc in changed:
                self.label(loc)
        if last.message != v.message or last.help != v.help:
            rows = self.c.cells
            for r in TEXT_ROWS:
                rows[r - 1][:] = static.cells[r - 1]
            self.texts()

    def moving(self) -> None:
        """The dice, the cube, the panel, the message and the help."""
        self.dice()
        self.cube()
        self.panel()
        self.texts()

    def texts(self) -> None:
        """The message and the help, in rows of their own (19-23)."""
        v, t = self.v, self.t
        # Broken between words within the caller's width: the message in rows 20-21 (from row 19,
        # the blank under the point numbers, when it needs three lines), the help in rows 22-23;
        # on a narrow screen in row 24 too, before any key that works is left out.
        room = min(80, v.width) - 2
        # Narrower than 80 columns the panel is cut: with nothing else to say, the message line
        # says whose turn it is, and the dice (a player's own roll was nowhere to be seen), and
        # the score.
        text = v.message
        if not text and v.width < 80:
            text = f"{turn_line(v)}. {score_line(v)}"
            if self.cube_left() + 4 > v.width and not self.cube_in_title() and (words := cube_words(v)):
                text += f" {words}."  # Black's board as the table stands has its cube at the right
        helps = help_rows(v.help, room, _help_room(v.width)) if v.help else []
        message = wrap(text, room)[: message_rows(v.help, v.width)] if text else []
        top = message_top(len(message), v.last_row)
        if top < message_top(len(message)):
            for row in range(top, v.last_row + 1):
                self.c.fill(row, 1, min(80, v.width), " ")  # over the board's foot: none of it left between
        for i, line in enumerate(message):
            self.c.put(top + i, 2, line, t.message)
        for i, line in enumerate(helps):
            self.c.put(max(HELP_ROW, top + len(message)) + i, 2, line, t.help)

    def title_bar(self) -> None:
        t, c = self.t, self.c
        c.fill(TITLE_ROW, 1, 80, " ", t.title)
        c.put(TITLE_ROW, 2, "BACKGAMMON", t.title)

    def title(self) -> None:
        v, t, c = self.v, self.t, self.c
        text, beside, _ = self.title_layout()
        width = min(80, v.width)
        if not beside:
            c.fill(TITLE_ROW, 1, width, " ", t.title)  # 'BACKGAMMON' gives way to what the player needs
        start = width - len(text)
        c.put(TITLE_ROW, start, text, t.title)
        for offset, colour in self.title_checkers(text):
            glyph, attr = self.checker(colour)
            c.put(TITLE_ROW, start + offset, glyph, attr)  # in the checker's own colours

    def whose(self, room: int = 80) -> tuple[str, list[tuple[int, Colour]]]:
        """Whose checkers are whose, for a board that cuts the panel that says it: 'You ○', and
        for a watcher 'alice ○ · bob ●' (a watcher at 40 columns had only the names in the
        messages), the names cut to go in `room` where need be; with where in it each checker
        stands.  ('', []) where the panel shows, or the names have no room."""
        v = self.v
        if v.width >= 80:
            return "", []
        # At 60 columns the panel shows only its first columns ('► ● a'): a name cut to a letter.
        if not v.spectator:
            return f"You {self.checker(v.viewer)[0]}", [(4, v.viewer)]
        names = (v.white_name, v.black_name)
        tags = {name[name.rfind("@"):] if "@" in name else "" for name in names}
        if len(tags) == 1 and (tag := tags.pop()) and sum(map(len, names)) > room - 7:
            # Both of one member board: the tag said twice had cut each name to 'Lo..@ADR'.
            names = (names[0][: -len(tag)], names[1][: -len(tag)])
        widths = shared(len(names[0]), len(names[1]), room - 7)  # ' ○', ' · ', ' ●'
        if min(widths) < min(8, *map(len, names)):
            return "", []
        white, black = (fit_name(name, w) for name, w in zip(names, widths, strict=True))
        first = f"{white} {self.checker('white')[0]}"
        text = f"{first} {self.g.dot} {black} {self.checker('black')[0]}"
        return text, [(len(first) - 1, "white"), (len(text) - 1, "black")]

    def title_checkers(self, text: str) -> list[tuple[int, Colour]]:
        game = next((g for g in (self.game_words(), self.game_words(short=True)) if g and text.startswith(g)), "")
        shift = len(game)
        for words, checkers in (self.whose(), self.whose(self.names_room())):
            if words and text[shift:].startswith(words):
                return [(shift + offset, colour) for offset, colour in checkers]
        return []

    def game_words(self, short: bool = False) -> str:
        return f"{'' if short else 'Game '}#{self.v.game_id} {self.g.dot} " if self.v.game_id else ""

    def names_room(self) -> int:
        """The columns a watcher's names and checkers have beside the match on the title row."""
        # From the first column to the one before the last ('bob ○ · ali~ ● · Match to 3 ·
        # Crawford' had been cut a column short of 'alice').
        return min(80, self.v.width) - 1 - len(f" {self.g.dot} {self.title_info()}")

    def title_layout(self) -> tuple[str, bool, str]:
        """The title row's words, the game's number before them where it fits: at 80 columns two
        matches against one opponent had looked alike, where the messages name games by number."""
        text, beside, cube = self.title_words()
        width = min(80, self.v.width)
        # Beside 'BACKGAMMON', else in its place (at 40 columns no board named its game), else
        # in fewer words.
        for game in (self.game_words(), self.game_words(short=True)):
            for room, at in ((width - 13, True), (width - 1, False)):
                if game and (beside or not at) and len(game + text) <= room:
                    return game + text, at, cube
        # Else the rest in fewer words, the number kept: at 40 columns, once the match had a
        # score, the title had lost it, with four games against one opponent and 'Your turn in
        # games #4, #5 too' on the lines.
        game = self.game_words(short=True)
        if game:
            fewer, _, cube = self.title_words(reserve=len(game))
            if len(game + fewer) <= width - 1:
                return game + fewer, len(game + fewer) <= width - 13, cube
        return text, beside, cube

    def title_words(self, reserve: int = 0) -> tuple[str, bool, str]:
        """The title row's words, whether they go beside 'BACKGAMMON' (else in its place), and
        what they say of the cube.  Narrower than the panel, whose checkers are whose ('You ○': the
        panel that shows it is past the edge); where the cube's box is out of sight (Black's board
        as the table stands), the cube, in fewer words where need be; then the match length.  At
        40 columns 'You ○' had given way to 'Crawford' or the cube, and an offered double to
        nothing at all.  `reserve`: columns kept free before them (the game's number)."""
        v = self.v
        width = min(80, v.width) - reserve
        info = self.title_info()
        you = list(dict.fromkeys([self.whose()[0], self.whose(self.names_room())[0], ""]))
        cubes = [""]
        if self.cube_left() + 4 > v.width and (words := cube_words(v)):
            short = f"Cube {v.cube_value} offered" if v.cube_offered else f"Cube {v.cube_value}"
            cubes = [words, short, ""] if short != words else [words, ""]
        sep = f" {self.g.dot} "
        # In a Crawford game 'Match to 3' goes before the score (at 40 columns its board had said
        # the score nowhere); 'Crawford' stays.
        matches = [info, "Crawford"] if v.crawford else [info]
        names = [mine for mine in you if mine]  # whose checkers are whose, as they fit
        # A watcher's names cut further to leave the score room: with long names it was never seen.
        shorter = [mine for mine in [self.whose(self.names_room() - 19)[0]] if mine] if v.spectator else []
        # The cube before the score (an offered double said nowhere else); whose checkers are
        # whose before it too, but for names cut further to leave it room.
        tries = [(mine, cube, scored) for cube in cubes
                 for mine, scored in [*((m, True) for m in dict.fromkeys([*names, *shorter])),
                                      *((m, False) for m in names)]]
        tries += [("", cube, scored) for scored in (True, False) for cube in cubes]
        for mine, cube, scored in tries:
            for match in matches if scored else [info]:
                rest = [part for part in (mine, match) if part]
                used = len(sep.join(part for part in (*rest, cube) if part))
                # The score in its fullest words beside 'BACKGAMMON', or in its place; else in
                # fewer words, the leader's name cut, in its place.
                for room, beside, whole in ((width - 13, True, True), (width - 1, False, True),
                                            (width - 1, False, False)):
                    score = self.title_score(room - used - len(sep), whole) if scored else ""
                    text = sep.join(part for part in (*rest, score, cube) if part)
                    if (score or not scored) and len(text) <= room:
                        return text, beside, cube
        return info, len(info) <= width - 13, ""

    def title_score(self, room: int, whole: bool = False) -> str:
        """The score for a title narrower than the panel that says it ('Score 3-1 to you'), in
        fewer words, and the leader's name cut, to go in `room`: a player at 60 columns, one turn a
        visit, whose message line always had news to give, never saw the score of the match at
        all.  `whole`: only the fullest form.  '' before either side has a point, or where no form
        fits."""
        v = self.v
        if v.width >= 80 or max(v.white_score, v.black_score) == 0:
            return ""
        hi, lo = sorted((v.white_score, v.black_score), reverse=True)
        if hi == lo:
            forms = [f"Score {hi}-{lo}", f"{hi}-{lo}"]
        else:
            leader: Colour = "white" if v.white_score > v.black_score else "black"
            who = "you" if leader == v.viewer and not v.spectator else v.name_of(leader)
            forms = [f"Score {hi}-{lo} to {who}", f"{hi}-{lo} to {who}"]
            left = room - len(f"{hi}-{lo} to ")
            # The name cut to the room there is, keeping a member board's number and tag
            # ('Christo~' of 'Christopher We~2@ALPHA' had been cut to eight columns, at 40 and 60).
            if len(who) > left >= min(6, len(who)):
                forms.append(f"{hi}-{lo} to {fit_name(who, left)}")
        return next((form for form in forms[: 1 if whole else None] if len(form) <= room), "")

    def title_info(self) -> str:
        v = self.v
        if not v.match_length:
            return "Unlimited match"
        return f"Match to {v.match_length}" + (f" {self.g.dot} Crawford" if v.crawford else "")

    def cube_in_title(self) -> bool:
        """The cube's box is past the caller's width, and the title row says it whole (a shorter
        'Cube 2' leaves the owner to the message line)."""
        words = self.title_layout()[2]
        return bool(words) and words == cube_words(self.v)

    def frame(self) -> None:
        g, t, c = self.g, self.t, self.c
        left, right = sorted((self.x(_OUTER_LEFT), self.x(_OUTER_RIGHT)))
        inner = [self.x(_BAR_LEFT), self.x(_BAR_RIGHT), self.x(_TRAY_LINE)]
        for row, corner_l, corner_r, tee in (
            (TOP_FRAME_ROW, g.tl, g.tr, g.t_down),
            (BOTTOM_FRAME_ROW, g.bl, g.br, g.t_up),
        ):
            c.put(row, left, corner_l + g.h * (right - left - 1) + corner_r, t.frame)
            for col in inner:
                c.put(row, col, tee, t.frame)
        for row in range(TOP_FRAME_ROW + 1, BOTTOM_FRAME_ROW):
            c.put(row, left, g.v, t.frame)
            c.put(row, right, g.v, t.frame)
            c.fill(row, left + 1, right - left - 1, " ", t.board)
            for col in inner:
                c.put(row, col, g.iv, t.frame)
        # The line between the two trays.
        mid = MIDDLE_ROWS[1]
        tray_line, outer = self.x(_TRAY_LINE), self.x(_OUTER_RIGHT)
        lo, hi = sorted((tray_line, outer))
        c.put(mid, lo + 1, g.ih * (hi - lo - 1), t.frame)
        if self.m:
            c.put(mid, outer, g.t_right, t.frame)
            c.put(mid, tray_line, g.ij_left, t.frame)
        else:
            c.put(mid, tray_line, g.ij_right, t.frame)
            c.put(mid, outer, g.t_left, t.frame)

    def stack(self, col: int, rows: tuple[int, ...], colour: Colour, n: int, highlight_top: bool) -> None:
        """n checkers of one colour in a column, from the edge inwards; a count past the fifth."""
        glyph, attr = self.checker(colour)
        if highlight_top and not self.colour:
            # Plain ASCII shows no colour: the checker in hand leaves its point (the cursor shows
            # it), where it had stayed drawn there too, one checker too many on the board.
            n, highlight_top = n - 1, False
        shown = n if n <= POINT_HEIGHT else POINT_HEIGHT - 1
        for i in range(shown):
            top = i == shown - 1 and n <= POINT_HEIGHT
            self.c.put(rows[i], col, glyph, self.t.in_hand if highlight_top and top else attr)
        if n > POINT_HEIGHT:
            count_attr = self.t.in_hand if highlight_top else attr
            self.c.put(rows[POINT_HEIGHT - 1], col - 1, f"{n:>2}", count_attr)

    def empty_point(self, p: int) -> None:
        v, g, t = self.v, self.g, self.t
        col, half = point_column(p, v.viewer, v.orientation)
        empty = t.point_a if p % 2 else t.point_b
        for row in TOP_ROWS if half == "top" else BOTTOM_ROWS:
            self.c.put(row, col, g.point, empty)

    def checkers(self, p: int) -> None:
        v = self.v
        owner, n = v.checkers_on(p)
        if owner is not None:
            col, half = point_column(p, v.viewer, v.orientation)
            self.stack(col, TOP_ROWS if half == "top" else BOTTOM_ROWS, owner, n, v.in_hand == p and owner == v.viewer)

    def bar(self) -> None:
        v = self.v
        mine, theirs = v.mine[24], v.theirs[24]
        if mine:
            self.stack(BAR_COL, TOP_ROWS, v.viewer, mine, v.in_hand == "bar")
        if theirs:
            self.stack(BAR_COL, tuple(reversed(BOTTOM_ROWS)), other(v.viewer), theirs, False)

    def trays(self) -> None:
        v = self.v
        cols = tray_columns(v.viewer, v.orientation)
        for colour, rows in ((other(v.viewer), TOP_ROWS), (v.viewer, BOTTOM_ROWS)):
            glyph, attr = self.checker(colour)
            n = v.off_of(colour)
            for i in range(n):
                self.c.put(rows[i // 3], cols[i % 3], glyph, attr)

    def label(self, loc: Loc) -> None:
        v, g, t = self.v, self.g, self.t
        row, col = label_cell(loc, v.viewer, v.orientation)
        text = f"{loc:>2} " if isinstance(loc, int) else ("BAR" if loc == "bar" else "OFF")
        attr, mark = t.label, " "
        if loc == v.cursor:
            attr = t.cursor
            if v.in_hand is not None:
                mark = self.checker(v.viewer)[0]
            else:
                mark = g.cursor
        elif loc in v.destinations:
            attr, mark = t.dest, g.dest
        elif loc in v.sources:
            attr, mark = t.source, g.source
        if isinstance(loc, int):
            self.c.put(row, col, text[:2] + mark, attr)
        else:
            self.c.put(row, col, text, attr)
            self.c.put(row, col + 3, mark, attr)

    def dice(self) -> None:
        v, g, t = self.v, self.g, self.t
        if v.dice is None:
            return
        # The dice lie in the home half of the side that rolled them (the viewer's is points 1-6),
        # even while the other side is to act: the answer to a resignation offered after a roll.
        starts = (35, 41) if v.on_roll == v.viewer else (12, 18)
        left = list(v.dice_left) if v.dice_left is not None else None
        cols = sorted(self.x(start + 2) if self.m else start for start in starts)
        # The higher die on the left, as the text says a roll ('6-2'), on either side of the table.
        for col, die in zip(cols, sorted(v.dice, reverse=True), strict=True):
            used = False
            if left is not None:
                if die in left:
                    left.remove(die)
                else:
                    used = True
            attr = t.die_used if used else t.die
            r0 = MIDDLE_ROWS[0]
            if used and not self.colour:
                self.c.put(r0, col, ".-.", attr)
                self.c.put(r0 + 1, col, f":{die}:", attr)
                self.c.put(r0 + 2, col, "'-'", attr)
                continue
            self.c.put(r0, col, g.stl + g.sh + g.str_, attr)
            self.c.put(r0 + 1, col, g.sv + str(die) + g.sv, attr)
            self.c.put(r0 + 2, col, g.sbl + g.sh + g.sbr, attr)

    def cube(self) -> None:
        v, g, t = self.v, self.g, self.t
        if v.cube_value is None:
            return
        if v.cube_owner is None:
            r0 = MIDDLE_ROWS[0]
        elif v.cube_owner == v.viewer:
            r0 = 14
        else:
            r0 = 4
        left = self.cube_left()
        if left + 4 > v.width:
            # Past the screen's edge, the box is left out whole (the title or message line says
            # the cube): at 50 columns its left edge had stood alone, frame pieces with no value.
            return
        self.c.put(r0, left, g.stl + g.sh * 3 + g.str_, t.cube)
        self.c.put(r0 + 1, left, g.sv + f"{_cube_text(v.cube_value):^3}" + g.sv, t.cube)
        self.c.put(r0 + 2, left, g.sbl + g.sh * 3 + g.sbr, t.cube)

    def cube_left(self) -> int:
        """The cube box's first column: at the left of the board, or the right as the table stands
        (against the frame: a column further right, it ran into the turn marker, '+---+> X bob')."""
        return self.x(_CUBE_COLS[1]) - 1 if self.m else _CUBE_COLS[0]

    def panel(self) -> None:
        v, g, t, c = self.v, self.g, self.t, self.c
        turn = v.turn or v.on_roll
        col = PANEL_COL
        room = 80 - col
        free = [0, 0]  # the first and last rows between the two players' blocks
        for colour, top_block in ((other(v.viewer), True), (v.viewer, False)):
            glyph, attr = self.checker(colour)
            name = v.name_of(colour)
            # A name wider than its 21 columns (a member board's handle@TAG) goes on two rows,
            # broken before the '@', not cut at the edge, where the tag that tells two players
            # apart was lost.
            names = [name] if len(name) <= room - 1 else wrap(name, room - 1)[:2]
            you = colour == v.viewer and not v.spectator
            # A name is never cut: "(you)" goes after the score when it does not fit after the name.
            mark_inline = you and len(names[-1]) + 6 <= room - 2
            # Each block from its side's edge of the board: the viewer's grows upwards.
            row = TOP_ROWS[0] if top_block else BOTTOM_ROWS[0] - len(names) - 1
            c.put(row, col, glyph, attr)
            for i, part in enumerate(names):
                last = i == len(names) - 1
                c.put(row + i, col + 2, part + (" (you)" if mark_inline and last else ""), t.heading)
            score = f"Score {v.score_of(colour)}"
            if v.match_length and max(v.white_score, v.black_score) <= v.match_length:
                # '4/3' read as a fraction: a match won past its length shows the points alone,
                # both sides alike ('Score 5' beside 'Score 0/3' had mixed two forms), beside the
                # title's 'Match to 3'.
                score += f"/{v.match_length}"
            below = row + len(names)
            c.put(below, col + 2, score + (" (you)" if you and not mark_inline else ""), t.text)
            extra = f"Off {v.off_of(colour)}"
            if v.show_pips:
                extra = f"Pips {v.pips_of(colour):<4}" + extra
            c.put(below + 1, col + 2, extra, t.text)
            if colour == turn and v.marker:
                c.put(row, col - 2, g.turn, t.heading)  # column 56, clear of a mirrored cube
            if top_block:
                free[0] = below + 2
            else:
                free[1] = row - 1
        # Whose turn, then the cube, wrapped between words in the panel's columns (rows 7-13 are
        # free between the two players' blocks, fewer under a name on two rows).
        lines = [(text, t.heading) for text in _phrased(turn_line(v), room)]
        if words := cube_words(v):
            cube = f"Cube {v.cube_value}"
            # Too long for a line: the owner's name whole under 'Cube 2' ('Cube 2 Intermediate'
            # over 'Bot' read as the cube's owner 'Intermediate').
            head, rest = cube, words.removeprefix(cube).strip()
            if rest.endswith("'s") and not v.cube_offered:
                # 'Cube 4' alone over 'kimberlyandersen's' read as two lines apart.
                head, rest = f"{cube} held by", rest.removesuffix("'s")
            parts = [words] if len(words) <= room else [head, rest]
            if len(rest) > room and v.cube_offered and v.status is not None \
                    and v.status.startswith(rest.removeprefix("offered to ")):
                # A long name: the line above says who is to answer, 'Cube 2 offered' (the name
                # again under it had run five rows on into the viewer's own name).
                parts = [f"{cube} offered"]
            owner = [(text, t.text) for part in parts for text in wrap(part, room)]
            if len(lines) + len(owner) > free[1] - free[0] + 1:
                # Two long names fill the panel: the cube's box on the board shows whose it is.
                owner = [(cube, t.text)]
            lines += owner
        top = max(free[0], min(MIDDLE_ROWS[1] - (len(lines) > 2), free[1] + 1 - len(lines)))
        for i, (text, attr) in enumerate(lines[: free[1] + 1 - top]):
            c.put(top + i, col, text, attr)


LOCATIONS: tuple[Loc, ...] = (*range(1, 25), "bar", "off")

_STATIC: dict[tuple[Charset, str, bool], Canvas] = {}  # paint_static's canvases, a few dozen at most


def _static(view: BoardView, charset: Charset) -> Canvas:
    """The static layer for this view's charset, theme and side, drawn once per process."""
    mirrored = _mirrored(view.viewer, view.orientation)
    key = (charset, theme(view.theme).name, mirrored)
    found = _STATIC.get(key)
    if found is None:
        side = BoardView(
            Position.start(),
            viewer="black" if mirrored else "white",
            orientation="table" if mirrored else "own",
            theme=view.theme,
        )
        found = _STATIC[key] = _Painter(side, charset).paint_static()
    return found


def render_board(view: BoardView, charset: Charset = "utf8", into: Canvas | None = None) -> Canvas:
    """The full 80x25 screen for one viewer: a fresh Canvas, or `into` (an 80x25 canvas) redrawn
    whole; nothing else touched.

    Drawn over a copy of the static layer (frame, points, numbers), as every key redraws it.
    """
    static = _static(view, charset)
    if into is None:
        canvas = static.copy()
    else:
        canvas = into
        last = canvas.painted
        # Most keys move the cursor or change a line of text: when the canvas still holds the
        # last board and nothing else differs, only those cells are drawn again.
        if isinstance(last, _Painted) and last.charset == charset and _same_ground(last.view, view):
            _Painter(view, charset, canvas).repaint_over(last.view, static)
            canvas.painted = _Painted(view, charset)
            return canvas
        canvas.take(static)
    _Painter(view, charset, canvas).paint_over_static()
    canvas.painted = _Painted(view, charset)
    return canvas


@dataclass(frozen=True, slots=True)
class _Painted:
    """The mark render_board leaves on a canvas it drew: the view and charset drawn."""

    view: BoardView
    charset: Charset


# The BoardView fields repaint_over does not redraw: all but the marks and the texts.
_MARKS_AND_TEXTS = {"cursor", "sources", "destinations", "message", "help"}
_GROUND = attrgetter(*(f.name for f in fields(BoardView) if f.name not in _MARKS_AND_TEXTS))


def _same_ground(a: BoardView, b: BoardView) -> bool:
    # A message over the board's foot (last_row, a short screen) is drawn whole: repaint_over
    # restores only the text rows, and a longer message's first line had stayed above a shorter one.
    return not b.last_row and bool(_GROUND(a) == _GROUND(b))


def paint_board(view: BoardView, charset: Charset = "utf8") -> Canvas:
    """render_board's screen drawn from nothing, part by part (what render_board must equal)."""
    return _Painter(view, charset).paint()
