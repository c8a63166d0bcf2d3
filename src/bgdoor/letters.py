"""Letters' plain ASCII look-alikes: for a terminal that cannot draw a letter, for a name from
elsewhere made a handle, and for a name typed on a terminal that shows only the look-alike.

Pure text, one character for one (the screen counts a cell each), used by the terminal layer
and by the store and service alike, so that all three agree on what 'Søren' looks like plain.
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


def plain_letter(ch: str) -> str | None:
    """An ASCII letter that looks like `ch` (itself when it is one): its nearest, else its base
    letter ('é' -> 'e'); None when it has neither."""
    if ch in NEAREST:
        return NEAREST[ch]
    base = unicodedata.normalize("NFKD", ch)[:1]
    return base if base.isascii() and base.isalpha() else None


def plain(text: str) -> str:
    """`text` with each letter as an ASCII terminal shows it ('Émile_Zola' -> 'Emile_Zola');
    anything else as it is."""
    if text.isascii():
        return text
    return "".join(plain_letter(c) or c if c.isalpha() else c for c in text)
