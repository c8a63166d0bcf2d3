"""The terminal layer: bytes in, keys out; cells in, fewest bytes out.

Nothing here knows about backgammon, storage or networking.
"""

from bgdoor.term.charset import CHARSETS, GLYPHS, Charset, Glyphs, encode, glyphs
from bgdoor.term.keys import DA_REQUEST, KEYPAD, Key, KeyDecoder, is_cterm_reply
from bgdoor.term.screen import (
    BLACK,
    BLUE,
    COLS,
    CYAN,
    DEFAULT,
    GREEN,
    HIDE_CURSOR,
    MAGENTA,
    RED,
    ROWS,
    SHOW_CURSOR,
    WHITE,
    YELLOW,
    Attr,
    Canvas,
    Cell,
    Screen,
    sgr,
)
from bgdoor.term.sound import TUNES, sound_bytes

__all__ = [
    "BLACK", "BLUE", "CHARSETS", "COLS", "CYAN", "DA_REQUEST", "DEFAULT", "GLYPHS", "GREEN", "HIDE_CURSOR",
    "KEYPAD", "MAGENTA", "RED", "ROWS", "SHOW_CURSOR", "TUNES", "WHITE", "YELLOW",
    "Attr", "Canvas", "Cell", "Charset", "Glyphs", "Key", "KeyDecoder", "Screen",
    "encode", "glyphs", "is_cterm_reply", "sgr", "sound_bytes",
]
