"""Display handles: what makes one drawable, and the skeleton two look-alikes share.

Pure text, no database: the service applies these rules, and a migration uses
them to fill the skeletons of players that existed before the rule.

A handle is shown on every caller's terminal, so it must be printable and
CP437-encodable (the charset of a BBS door; ASCII callers get the charset's
plain fallbacks).  Two handles that look alike on some terminal must not both
exist, so uniqueness is by skeleton: NFKC, casefold, accents stripped, and
Unicode's confusable mapping (UTS #39, confusables.txt, as the
confusable-homoglyphs package ships it), repeated until nothing changes, with runs of
spaces made one (`a  b` and `a b` are hard to tell apart in a list).  A handle as typed is
tidied the same way (see tidy), so a new one never has such a run; players from before that
keep theirs, and their stored skeleton with it (the service looks for those apart).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources

from bgdoor.letters import NEAREST

MIN_LENGTH = 2
MAX_LENGTH = 16
SKELETON_LENGTH = 64  # the column's width; a 16-character handle's skeleton fits (a few map to 2-3 characters)
RESERVED = frozenset({"(deleted)", "(open seat)", "(open)"})  # names the door itself shows
SUFFIX_MARK = "~"  # LongAliasName1~2: the second identity whose name cleans to the same handle
_SPACES = re.compile(" {2,}")  # a run of spaces, which a handle as typed has as one (tidy)


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """One code point -> the sequence it is confusable with (its prototype), per confusables.txt.

    The package keeps each line of confusables.txt as links both ways (source <-> prototype).
    Sources are single code points and map to exactly one prototype; prototypes never map on.
    So a character with several links is a prototype (its links are its sources), one whose
    single link is a sequence is a source, and so is one whose single link has links of its
    own.  A pair linked only to each other is a prototype with one source: either may stand for
    both, so the smaller code point does.
    """
    # The package's data file (its functions answer other questions than a skeleton's).
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    data: dict[str, list[dict[str, str]]] = json.loads(raw)
    table: dict[str, str] = {}
    for char, links in data.items():
        if len(char) != 1 or len(links) != 1:
            continue
        target = links[0]["c"].replace("\u200e", "")  # the data marks right-to-left glyphs so they print
        if not target or target == char:
            continue
        if len(target) > 1 or len(data.get(target, ())) > 1 or target < char:
            table[char] = target
    return table


def _plain(text: str) -> str:
    """NFKC with the accents stripped (decomposed, and the combining marks dropped)."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    return "".join(c for c in text if not unicodedata.combining(c))


def skeleton(handle: str) -> str:
    """What `handle` looks like, as a key: two handles with one skeleton look alike.

    `alice`, `Alice`, `аlice` (Cyrillic a), `alıce` (dotless i), `ａlice` (fullwidth), `alicé`
    and `alice` with a combining accent all have the skeleton of `alice`.
    """
    table = _prototypes()
    # Mapped before casefolding too: capital I looks like l, which its lower case does not.
    text = _plain(handle)
    for _ in range(8):  # the mapping settles in one or two rounds; the bound is only a guard
        mapped = _plain("".join(table.get(c, c) for c in text).casefold())
        if mapped == text:
            break
        text = mapped
    return tidy(text)


def tidy(handle: str) -> str:
    """`handle` with its runs of spaces made one: how a typed handle is taken and kept.

    Only spaces: any other blank is unprintable, so refused, not quietly made a space.
    """
    return _SPACES.sub(" ", handle)


def drawable(text: str) -> bool:
    """Whether every caller's terminal can draw `text`: printable CP437 (ASCII has fallbacks)."""
    if not text.isprintable():
        return False
    try:
        text.encode("cp437")
    except UnicodeEncodeError:
        return False
    return True


def problem(handle: object) -> str | None:
    """Why `handle` can never be a handle (whoever else exists), or None if it could be one."""
    if not isinstance(handle, str):
        return "a handle is text"
    return form_problem(handle) or draw_problem(handle)


def form_problem(handle: object) -> str | None:
    """Length, control characters, spaces: checked before whether it looks like another player."""
    if not isinstance(handle, str):
        return "a handle is text"
    if len(handle) < MIN_LENGTH:
        return f"that handle is too short: a handle is {MIN_LENGTH} to {MAX_LENGTH} characters long"
    if len(handle) > MAX_LENGTH:
        return f"that handle is too long: a handle is {MIN_LENGTH} to {MAX_LENGTH} characters long"
    if not handle.isprintable():
        return "a handle cannot contain control or other unprintable characters"
    if handle != handle.strip():
        return "a handle cannot start or end with a space"
    if "@" in handle:
        # alias@TAG is how the league shows a member BBS's player: nobody else may look like one.
        return "a handle cannot contain @: it marks the players of other boards"
    return None


def draw_problem(handle: str) -> str | None:
    """Whether every terminal can draw it, and whether the door itself uses the name."""
    if not drawable(handle):
        bad = next(c for c in handle if not drawable(c))
        name = f"U+{ord(bad):04X} {unicodedata.name(bad, '')}".rstrip()
        return f"a handle must be drawable on every terminal (CP437), and {name} is not"
    if handle.casefold() in RESERVED or skeleton(handle) in {skeleton(r) for r in RESERVED}:
        return f"{handle!r} is a name the door itself shows, so it cannot be a handle"
    return None


def normal(handle: str) -> str:
    """The handle as stored: NFC (a decomposed é and the one-character é are the same handle)."""
    return unicodedata.normalize("NFC", handle)


def key(handle: str) -> str:
    """The handle as the case-blind index sees it."""
    return normal(handle).casefold()


def clean(name: str, cut: bool = True) -> str:
    """A name from elsewhere (a BBS alias) made into a drawable handle, or "" if nothing is left.

    Control and other unprintable characters are dropped; a character CP437 lacks becomes its
    compatibility form, its look-alike or its base letter where one of those is drawable, and is
    dropped otherwise; runs of spaces become one; the result is cut to MAX_LENGTH.
    """
    out: list[str] = []
    for c in normal(name):
        if c.isspace():
            c = " "
        elif c == "@":
            c = "_"  # @ marks another board's players (handles.form_problem)
        elif not drawable(c):
            c = _stand_in(c)
        if c == " " and (not out or out[-1] == " "):
            continue
        out.append(c)
    text = "".join(out).strip()
    return text[:MAX_LENGTH].rstrip() if cut else text


def _stand_in(c: str) -> str:
    """A drawable character for `c`: its compatibility form, its look-alike, its base letter, or
    the nearest letter where Unicode gives none ('Ø' -> 'O': 'Øystein' had been made 'ystein');
    or ""."""
    compat = unicodedata.normalize("NFKC", c)
    base = unicodedata.normalize("NFD", c)[:1]
    for candidate in (compat, _prototypes().get(c, ""), base, NEAREST.get(c, "")):
        if candidate and drawable(candidate):
            return candidate
    return ""


def numbered(base: str, n: int) -> str:
    """`base` with the mark and number n, cut so the whole is at most MAX_LENGTH."""
    tail = f"{SUFFIX_MARK}{n}"
    return base[: MAX_LENGTH - len(tail)].rstrip() + tail
