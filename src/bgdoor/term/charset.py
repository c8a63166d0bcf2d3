"""Character sets: which glyphs a caller's terminal can show, and how to encode them.

Three charsets: CP437 (SyncTERM, NetRunner, DOS-era terminals), UTF-8
(xterm and friends) and ASCII (anything; no colour at all).  The screen grid
holds Unicode characters; the glyph table picks, per charset, characters that
charset can show, and `encode` turns grid text into bytes, falling back to
plain ASCII look-alikes for anything the charset lacks.

CP437 glyphs are all printable code points (0x20-0x7E, 0x80-0xFE): 0x01-0x1F
would be the classic smiley faces on a BBS terminal, but they are control
characters to everything else (and to Python's cp437 codec).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from bgdoor.letters import ascii_char

Charset = Literal["cp437", "utf8", "ascii"]
CHARSETS: tuple[Charset, ...] = get_args(Charset)


def charset_named(name: str | None) -> Charset | None:
    """The charset called `name`; None for any other name."""
    for charset in CHARSETS:
        if charset == name:
            return charset
    return None


@dataclass(frozen=True, slots=True)
class Glyphs:
    # Outer frame (double lines where the charset has them).
    h: str
    v: str
    tl: str
    tr: str
    bl: str
    br: str
    t_down: str  # outer top edge meeting an inner vertical line
    t_up: str  # outer bottom edge meeting an inner vertical line
    t_right: str  # outer left edge meeting an inner horizontal line
    t_left: str  # outer right edge meeting an inner horizontal line
    # Inner single lines.
    ih: str
    iv: str
    ij_right: str  # inner vertical line meeting an inner horizontal line on its right
    ij_left: str  # ... on its left
    # Small boxes (dice, cube).
    sh: str
    sv: str
    stl: str
    str_: str
    sbl: str
    sbr: str
    # Checkers, by colour.
    white: str
    black: str
    # An empty place on a point.
    point: str
    # Markers after a point number.
    cursor: str
    source: str
    dest: str
    # Panel decoration.
    turn: str  # marks whose turn it is
    dot: str  # separator in the title line


GLYPHS: dict[str, Glyphs] = {
    "utf8": Glyphs(
        h="═", v="║", tl="╔", tr="╗", bl="╚", br="╝", t_down="╤", t_up="╧", t_right="╟", t_left="╢",
        ih="─", iv="│", ij_right="├", ij_left="┤",
        sh="─", sv="│", stl="┌", str_="┐", sbl="└", sbr="┘",
        white="○", black="●",
        point="┊",
        cursor="◄", source="•", dest="+",
        turn="►", dot="·",
    ),
    "cp437": Glyphs(
        h="═", v="║", tl="╔", tr="╗", bl="╚", br="╝", t_down="╤", t_up="╧", t_right="╟", t_left="╢",
        ih="─", iv="│", ij_right="├", ij_left="┤",
        sh="─", sv="│", stl="┌", str_="┐", sbl="└", sbr="┘",
        white="O", black="■",
        point="·",
        cursor="«", source="∙", dest="+",
        turn="»", dot="·",
    ),
    "ascii": Glyphs(
        h="=", v="|", tl="+", tr="+", bl="+", br="+", t_down="+", t_up="+", t_right="+", t_left="+",
        ih="-", iv="|", ij_right="+", ij_left="+",
        sh="-", sv="|", stl="+", str_="+", sbl="+", sbr="+",
        white="O", black="X",
        point=":",
        cursor="<", source="*", dest="+",
        turn=">", dot="-",
    ),
}


def glyphs(charset: str) -> Glyphs:
    try:
        return GLYPHS[charset]
    except KeyError:
        raise ValueError(f"unknown charset {charset!r}; one of {', '.join(CHARSETS)}") from None


def encode(text: str, charset: str) -> bytes:
    """Text to the caller's bytes; anything the charset lacks becomes a look-alike."""
    if charset == "utf8":
        return text.encode("utf-8")
    codec = "cp437" if charset == "cp437" else "ascii"
    try:
        return text.encode(codec)
    except UnicodeEncodeError:
        return "".join(_encodable(ch, codec) for ch in text).encode(codec)


def shown_everywhere(ch: str) -> bool:
    """Whether every terminal shows `ch` as itself or a look-alike: CP437 has it, or it has a
    plain form; not '?'."""
    try:
        ch.encode("cp437")
        return True
    except UnicodeEncodeError:
        return ascii_char(ch) != "?"


def _encodable(ch: str, codec: str) -> str:
    try:
        ch.encode(codec)
        return ch
    except UnicodeEncodeError:
        return ascii_char(ch)  # a look-alike, else '?'
