"""Text broken into lines that fit a width, at word boundaries, and lines into pages.

Every piece of prose a screen shows goes through `wrap`, so no screen writes past the caller's
width and no word is cut in two (unless a single word is wider than the whole line; then a name
such as handle@TAG breaks before its '@').
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["fit", "fit_name", "pages", "sentence", "shared", "wrap"]

# A lone key label and its word are one: 'X) drop' had broken into 'X)' over 'drop'.
_TOKENS = re.compile(r"(?<!\S)\S\) \S+|\S+|\s+")
# 'V)iew   games in progress': a one-word label (or a key's two words, 'W)ho's online'), two or
# more spaces, then text.
_LABEL = re.compile(r"( *)(\S{1,16}|\S{0,3}\)\S{0,10} \S{1,10})( {2,})\S")
# A line that begins an item of its own: a key ('Q)uit ...'), a bullet, a number.
_ITEM = re.compile(r" *(\S\)\S|[-*] |\d+[.)] )")
# An indented item that begins with a key and one space ('  D)ouble offers the cube'): its text
# hangs after the key's word, like a label's, so the key stands out in a list of them.
_KEY_ITEM = re.compile(r"( +)(\S\)\S*) (?=\S)")
# The end of a sentence at the end of a line: '... as the table stands).'
_SENTENCE_END = re.compile(r"[.!?][)\"']?$")


def _text_column(line: str, indent: int) -> int:
    """Where a line's text starts after its label or key, if it has one, else its indent."""
    m = _LABEL.match(line)
    if m:
        return m.end() - 1
    m = _KEY_ITEM.match(line)
    return m.end() if m else indent


def _hang(line: str, indent: int, width: int, column: int | None = None) -> int:
    """How far a line's continuation lines are indented: `column` (its paragraph's, see
    _paragraphs), else where its text starts."""
    hang = _text_column(line, indent) if column is None else column
    if width - hang < max(12, width // 2):  # too little room left: fall back to the line's indent
        hang = indent if width - indent >= max(12, width // 2) else 0
    return hang


def _wrap_line(line: str, width: int, column: int | None = None) -> list[str]:
    line = line.rstrip()
    if len(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    hang = _hang(line, indent, width, column)
    if indent >= width // 2:
        indent = hang = 0
        line = line.lstrip(" ")
    out: list[str] = []
    current = " " * indent
    fresh = True  # nothing but indentation on the current line yet
    gap = ""
    for token in _TOKENS.findall(line[indent:]):
        if token.isspace():
            gap = token
            continue
        if not fresh and len(current) + len(gap) + len(token) <= width:
            current += gap + token
        else:
            if not fresh:
                out.append(current)
                current = " " * hang
            room = width - len(current)
            while len(token) > room:  # a word wider than a whole line: the only thing ever split
                # A member board's player, handle@TAG, breaks before the '@': the tag whole, and
                # the handle's end not left dangling over the rest of the word.
                # Else after its last hyphen that fits ('...expialidocious-' over 'words!').
                cut = token.rfind("@", 1, room + 1)
                cut = cut if cut > 0 else token.rfind("-", 1, room) + 1 or room
                out.append(current + token[:cut])
                token = token[cut:]
                current = " " * hang
                room = width - hang
            current += token
            fresh = False
        gap = ""
    out.append(current)
    return out


def _preformatted(line: str) -> bool:
    """A table row or a figure: columns lined up with runs of spaces, never joined or reflowed."""
    m = _LABEL.match(line)
    body = line[m.end() - 1 :] if m else line.lstrip(" ")
    return "   " in body


def _ends_sentence(line: str) -> bool:
    return _SENTENCE_END.search(line) is not None


def _paragraphs(lines: list[str]) -> list[tuple[list[str], int]]:
    """Source lines grouped: a line, then the lines that continue it; with each group, the column
    its continuation lines hang at.

    A line continues the one before at the column its text starts (a label's or key's text), or,
    after a key, anywhere from its indent to there: then the source's own continuation says where
    the entry's text hangs.  A key's entry of one line hangs its text where the entry before it at
    that indent did (the list's column), so that a short key ('T)ake') does not hang it two columns
    left of its neighbours'.  A line that begins a sentence after one that ended one begins a
    paragraph of its own, as it does where the text is shown as written."""
    out: list[tuple[list[str], int]] = []
    low = high = -1  # a line indented from low to high continues the last paragraph
    entry = -1  # the indent of the last paragraph's first line, if it is an entry (a label or a key)
    columns: dict[int, int] = {}  # the hang of the last entry at each indent, since a blank line
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip():
            out.append(([line], 0))
            low = high = entry = -1
            columns.clear()
            continue
        if (
            out
            and low <= indent <= high
            and not _ITEM.match(line)
            and not _preformatted(line)
            and not _preformatted(out[-1][0][0])
            and not (_ends_sentence(out[-1][0][-1]) and line.lstrip()[:1].isupper())
        ):
            para, hang = out[-1]
            if indent != hang:
                hang = indent  # where the source's own continuation starts
                out[-1] = (para, hang)
                if entry >= 0:
                    columns[entry] = hang
            para.append(line)
            low = high = hang
            continue
        column = _text_column(line, indent)
        if column == indent:
            low = high = hang = column  # a plain line: continued at its own indent
            entry = -1
        else:
            key = _LABEL.match(line) is None
            hang = columns.get(indent, column) if key else column
            columns[indent] = hang
            low, high, entry = indent + 1, max(column, hang), indent
        out.append(([line], hang))
    return out


T = TypeVar("T")

_WRAPPED: dict[tuple[str, int], tuple[str, ...]] = {}
WRAPPED_KEPT = 1024  # short texts (messages, help lines) kept wrapped: a board wraps them on every key
WRAPPED_LONGEST = 300  # a longer text (a page of a file) is wrapped afresh each time


def wrap(text: str, width: int) -> list[str]:
    """`text` as lines of at most `width` characters, broken at spaces (see _wrap)."""
    if len(text) > WRAPPED_LONGEST:
        return _wrap(text, width)
    found = _WRAPPED.get((text, width))
    if found is None:
        if len(_WRAPPED) >= WRAPPED_KEPT:
            _WRAPPED.clear()
        found = _WRAPPED[(text, width)] = tuple(_wrap(text, width))
    return list(found)


def _wrap(text: str, width: int) -> list[str]:
    """`text` as lines of at most `width` characters, broken at spaces.

    A paragraph whose lines all fit is kept as written, so a sysop's layout survives. One that
    does not is joined and broken again at word boundaries; its continuation lines are indented
    like its first line, or, for a 'label   text' line or an indented '  K)ey text' one, as far as
    the text after the label or the key's word.
    A paragraph is a line and the lines after it indented to where its text starts; a line with
    columns (three spaces in a row) stands alone, and one that begins with a key ('Q)uit'), a
    bullet or a number begins a paragraph of its own. Blank lines stay. Tabs count as spaces to the
    next multiple of eight.
    """
    width = max(1, width)
    if "(" in text:
        # A short aside is not broken: '(4 of 4).' and '(N changes it)' had been split as
        # '(4' / 'of 4).' and '(N' / 'changes it)'.
        text = _ASIDE.sub(lambda m: m.group().replace(" ", _KEPT_SPACE), text)
    if '"' in text:
        text = _QUOTED.sub(lambda m: m.group().replace(" ", _KEPT_SPACE), text)  # a quoted handle
    if "? " in text:
        # A key named alone stays with the words after it: '... must fit. ?' over 'lists the keys.'
        text = _LONE_KEY.sub("?" + _KEPT_SPACE, text)
    if "." in text:
        # A number that ends a sentence stays with the word before it: 'Score: dave 2, carol' over
        # '1. Next is the Crawford game' read as a numbered item.
        text = _SENTENCE_NUMBER.sub(_KEPT_SPACE, text)
    lines = [line.replace("\r", "").rstrip() for line in text.expandtabs(8).split("\n")]
    out: list[str] = []
    for para, column in _paragraphs(lines):
        if all(len(line) <= width for line in para):
            out.extend(para)
        else:
            out.extend(_wrap_line(" ".join([para[0]] + [line.strip() for line in para[1:]]), width, column))
    return [line.replace(_KEPT_SPACE, " ") for line in out] if _KEPT_SPACE in text else out


_ASIDE = re.compile(r"\((?=\S)[^()\n]{1,14}(?<=\S)\)")  # '(4 of 4)', '(T changes it)': 16 columns at most
_QUOTED = re.compile(r'"(?=\S)[^"\n]{1,16}(?<=\S)"')  # '"ed smith"': a handle, as long as one can be
_LONE_KEY = re.compile(r"(?<!\S)\? (?=\S)")  # "? lists the keys": the key and its first word
_SENTENCE_NUMBER = re.compile(r"(?<=\S) (?=\d{1,4}\.(?:\s|$))")  # 'carol 1.': the space before it
_KEPT_SPACE = "\ue000"  # a space no line breaks at, while wrapping (not whitespace to re)


def fit(text: str, width: int) -> str:
    """One line of at most `width` characters; a cut is marked with '~' (for names in a column)."""
    if len(text) <= width:
        return text
    return text[: max(0, width - 1)] + "~" if width > 0 else ""


def fit_name(name: str, width: int) -> str:
    """A name in a column of `width`, cut as fit() cuts it, but what tells two players apart kept
    whole: a member board's '@TAG' and a handle's number ('~3'), the cut marked '..' before them
    ('SixteenC..~3@TAG', where 'SixteenCharA~@TAG' read as a handle of its own and lost the
    number that told it from '~4')."""
    if len(name) <= width:
        return name
    handle, at, tag = name.rpartition("@")
    if not at or not handle:
        handle, at, tag = name, "", ""
    number = re.search(r"~\d+$", handle)
    base, kept = (handle[: number.start()], number.group() + at + tag) if number else (handle, at + tag)
    room = width - len(kept) - 2
    if kept and room in (0, -1) and base:
        # One letter and one dot before them, or the letter alone: a watcher's narrow title had
        # cut 'Maximilian Ale~2@BETA' to 'Maximili~', a handle of its own, beside 'Ma..@ALPHA'
        # (and with a five-letter tag, 'Maximilian_Lon~2@ALPHA' to 'Maximili~' still).
        return base[:1] + "." * (room + 1) + kept
    if not kept or room < 1:
        return fit(name, width)
    if not number and room >= 7:
        # Its last letters too: two aliases of one board alike at the start ('Maximilian_Schmi',
        # 'Maximilian_Schne') had both been 'Maximilian..@ALPHA', one game's two players as one.
        return base[: room - 3] + ".." + base[-3:] + kept
    return base[:room] + ".." + kept


def shared(first: int, second: int, room: int) -> tuple[int, int]:
    """Widths for two columns that want `first` and `second` and have `room` between them: each
    its own if both fit, else the narrower its own up to half the room, and the wider the rest."""
    if first + second <= room:
        return first, second
    half = room // 2
    if first <= second:
        a = min(first, max(half, room - second))
        return a, room - a
    b = min(second, max(room - half, room - first))
    return room - b, b


def first_fitting(candidates: Sequence[str], width: int, otherwise: str) -> str:
    """The first of `candidates` (the fullest wording first) at most `width` long; `otherwise`
    when none is."""
    return next((text for text in candidates if len(text) <= width), otherwise)


def shorten(text: str, width: int, rows: int, more: str, tail: str = "") -> str:
    """`text` and `tail` if they wrap to at most `rows` lines of `width`; else as many of the
    text's words as fit there with `more` after them (which says that it was cut, and where the
    rest is)."""
    if len(wrap(text + tail, width)) <= rows:
        return text + tail
    words = text.split()
    while words and len(wrap(" ".join(words) + more, width)) > rows:
        words.pop()
    kept = " ".join(words)
    if more.startswith("...") and kept.endswith(".") and not kept.endswith(".."):
        kept = kept[:-1]  # cut after a sentence: 'the match 1-0... (? shows all)', not '1-0....'
    elif more.startswith("..."):
        kept = kept.rstrip(",;:")  # 'Opening roll,... (N: all)' read as a broken sentence
    return kept + more


_SENTENCE_BREAK = re.compile(r"[.!?](?=\s)")  # a sentence's end where another follows


def first_sentence(text: str) -> str:
    """`text` up to the end of its first sentence; all of it where no other follows."""
    found = _SENTENCE_BREAK.search(text)
    return text[: found.end()] if found else text


def shorten_whole(text: str, width: int, rows: int, more: str, tail: str = "") -> str:
    """As shorten, but cut after the last whole sentence that fits with `more`, where one does:
    cut between words, a headline had read 'Score: ida 2,... (N: all)', half a score."""
    if len(wrap(text + tail, width)) <= rows:
        return text + tail
    for end in reversed([m.end() for m in _SENTENCE_BREAK.finditer(text)]):
        kept = text[:end]
        if more.startswith("...") and kept.endswith(".") and not kept.endswith(".."):
            kept = kept[:-1]
        if len(wrap(kept + more, width)) <= rows:
            return kept + more
    return shorten(text, width, rows, more, tail)


def paged(blocks: Sequence[Sequence[T]], per: int) -> list[list[T]]:
    """Blocks of lines (a paragraph, a news item) on pages of `per` lines: a block that fits on a
    page is not split between two; one empty page for none."""
    book: list[list[T]] = [[]]
    for block in blocks:
        if book[-1] and len(book[-1]) + len(block) > per >= len(block):
            book.append([])
        for line in block:
            if len(book[-1]) >= per:
                book.append([])
            book[-1].append(line)
    return book


def pages(lines: list[str], height: int) -> list[list[str]]:
    """`lines` cut into pages of at most `height` lines, preferring a break at a blank line."""
    height = max(1, height)
    out: list[list[str]] = []
    start = 0
    while start < len(lines):
        end = min(start + height, len(lines))
        if end < len(lines):
            # A paragraph break in the last third of the page is a better place to turn over.
            for cut in range(end, start + (2 * height) // 3, -1):
                if not lines[cut - 1].strip():
                    end = cut
                    break
        out.append(lines[start:end])
        start = end
        while start < len(lines) and not lines[start].strip() and out:  # no page begins blank
            start += 1
    return out or [[]]


def sentence(text: str) -> str:
    """A reason as the layers below word it ('point 1 is blocked') as a sentence on the screen."""
    text = text.strip()
    if not text:
        return text
    # A first word with a slash is written notation ('bar/22 is 3 pips'): kept as it is written.
    head = text[:1] if "/" in text.split(" ", 1)[0] else text[:1].upper()
    return head + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
