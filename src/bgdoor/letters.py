"""Plain ASCII look-alikes: what an ASCII terminal shows for a character it cannot draw.

One character for one (the screen counts a cell each).  Used by the terminal layer to draw, and
by the store and service to keep two players from looking the same on such a terminal and to
find a player by the name it shows, so that all three agree on what 'Søren' looks like plain.
"""

from __future__ import annotations

import unicodedata

# Letters Unicode gives no base letter: the nearest one ('Strauß' had read 'Strau?', the same as
# a player called 'Strau?'; 'Øystein' had been made 'ystein').
NEAREST: dict[str, str] = {}
for _chars, _plain in (
    ("ßſ", "s"), ("Æ", "A"), ("æ", "a"), ("ŒØ", "O"), ("œø", "o"), ("ĐÐ", "D"), ("đð", "d"),
    ("Ł", "L"), ("ł", "l"), ("Þ", "P"), ("þ", "p"), ("Ħ", "H"), ("ħ", "h"), ("ı", "i"), ("Ŧ", "T"), ("ŧ", "t"),
):
    for _c in _chars:
        NEAREST[_c] = _plain

# The board's glyphs and typography, drawn plain.
_GLYPHS: dict[str, str] = {}
for _chars, _plain in (
    ("─━═┄┈╌", "-"),
    ("│┃║┆┊╎", "|"),
    ("┌┐└┘├┤┬┴┼╔╗╚╝╠╣╦╩╬╤╧╟╢╒╕╘╛╓╖╙╜╞╡╥╨╪╫", "+"),
    ("○◯", "O"),
    ("●■◆", "X"),
    ("•∙·", "."),
    ("◄←«", "<"),
    ("►→»", ">"),
    ("▲↑", "^"),
    ("▼↓", "v"),
    ("░▒▓█▀▄▌▐", "#"),
    ("“”", '"'),
    ("‘’", "'"),
    ("–—", "-"),
):
    for _c in _chars:
        _GLYPHS[_c] = _plain


def plain_letter(ch: str) -> str | None:
    """An ASCII letter that looks like `ch` (itself when it is one): its nearest, else its base
    letter ('é' -> 'e'); None when it has neither."""
    if ch in NEAREST:
        return NEAREST[ch]
    base = unicodedata.normalize("NFKD", ch)[:1]
    return base if base.isascii() and base.isalpha() else None


def ascii_char(ch: str) -> str:
    """What an ASCII terminal shows for `ch`: itself, a glyph's plain form, a letter's look-alike
    ('Jörg' had read 'J?rg'), else '?'."""
    if ch.isascii():
        return ch
    return _GLYPHS.get(ch) or plain_letter(ch) or "?"


def ascii_form(text: str) -> str:
    """`text` as an ASCII terminal shows it ('Émile_Zola' -> 'Emile_Zola', 'Σam' -> '?am')."""
    return text if text.isascii() else "".join(map(ascii_char, text))
