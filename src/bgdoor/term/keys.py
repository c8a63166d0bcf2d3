"""Keyboard input: raw bytes from the caller's terminal in, Key events out.

The decoder is pure and incremental: `feed()` takes whatever one read
returned and gives back the keys completed so far, keeping half-received
escape sequences, UTF-8 characters and CR/LF pairs for the next read.  A lone
ESC cannot be told from the start of a sequence until the line goes quiet, so
the caller arms a short timer while `pending` is true and calls
`flush_timeout()` when it fires.  A terminal sends a sequence (and a report
string) in one go; one still unfinished when the line goes quiet, or broken
off by a control character, was typed: Esc, then O (or P, X, [...]) and
whatever followed, each given back as its key.  Only what is too long for
anyone's typing (MAX_SEQUENCE) is dropped.

Digits carry two meanings at once: with NUM LOCK on, the keypad is the
door's cursor pad (8 up, 2 down, 4 left, 6 right, 7 9 1 3 diagonals, 5 acts),
but prompts need the digit itself.  So '8' arrives as Key('up', '8') and the
UI decides which half to use: `key.char` for text, `key.name` for meaning.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from bgdoor.term.charset import Charset

# A sequence or string longer than this is neither a key nor typing: keep
# swallowing it, but stop storing it (nothing of it is given back).
MAX_SEQUENCE = 32

# Ask the terminal who it is; CTerm (SyncTERM) answers CSI = 67;84;101;114;109;... c
DA_REQUEST = b"\x1b[c"
_CTERM_DA_PREFIX = "\x1b[=67;84;101;114;109"

# NUM LOCK keypad: digit -> meaning.
KEYPAD: dict[str, str] = {
    "8": "up",
    "2": "down",
    "4": "left",
    "6": "right",
    "7": "home",
    "9": "pgup",
    "1": "end",
    "3": "pgdn",
    "5": "act",
}

# CSI <n> ~ forms (VT220, xterm, PuTTY, rxvt).
_TILDE: dict[int, str] = {
    1: "home",
    2: "insert",
    3: "delete",
    4: "end",
    5: "pgup",
    6: "pgdn",
    7: "home",
    8: "end",
    11: "f1",
    12: "f2",
    13: "f3",
    14: "f4",
    15: "f5",
    17: "f6",
    18: "f7",
    19: "f8",
    20: "f9",
    21: "f10",
    23: "f11",
    24: "f12",
}

# CSI <final> forms; K, V and U are SyncTERM's End, PgUp and PgDn.
_CSI_FINAL: dict[str, str] = {
    "A": "up",
    "B": "down",
    "C": "right",
    "D": "left",
    "H": "home",
    "F": "end",
    "K": "end",
    "V": "pgup",
    "U": "pgdn",
    "E": "act",  # keypad 5 with NUM LOCK off (xterm)
    "G": "act",  # keypad 5 with NUM LOCK off (Linux console)
    "Z": "backtab",
    "@": "insert",
}

# ESC O <final> forms: cursor keys in application mode, F1-F4, keypad in
# application mode (digits come back through KEYPAD so they keep both halves).
_SS3_FINAL: dict[str, str] = {
    "A": "up",
    "B": "down",
    "C": "right",
    "D": "left",
    "H": "home",
    "F": "end",
    "E": "act",
    "P": "f1",
    "Q": "f2",
    "R": "f3",
    "S": "f4",
}
_SS3_KEYPAD_TEXT: dict[str, str] = {"k": "+", "m": "-", "j": "*", "o": "/", "n": ".", "l": ","}


@dataclass(frozen=True, slots=True)
class Key:
    """One key press.

    name: what it means - 'up', 'enter', 'backspace', 'redraw', 'esc', ... for
      special keys; the lower-cased character for plain text ('u' for U or u).
    char: the printable character typed, if any ('8' for keypad up, 'U');
      empty for keys that are not text (Enter, arrows, Backspace).
    data: the raw sequence of a terminal report (name 'report'), else empty.
    """

    name: str
    char: str = ""
    data: str = ""

    @property
    def acts(self) -> bool:
        """Enter or keypad 5: pick up or drop a checker, choose a menu item."""
        return self.name in ("enter", "act")

    @property
    def is_text(self) -> bool:
        return bool(self.char)


def is_cterm_reply(key: Key) -> bool:
    """True if the key is CTerm's answer to DA_REQUEST: the caller runs SyncTERM."""
    return key.name == "report" and key.data.startswith(_CTERM_DA_PREFIX)


_TEXT_KEYS: dict[str, Key] = {}  # keys are immutable, so one per character serves every caller


def _text_key(ch: str) -> Key:
    key = _TEXT_KEYS.get(ch)
    if key is None:
        meaning = KEYPAD.get(ch)
        key = Key(meaning, ch) if meaning is not None else Key(ch.lower(), ch)
        if len(_TEXT_KEYS) < 4096:  # the characters people type; exotic floods are not kept
            _TEXT_KEYS[ch] = key
    return key


_GROUND, _ESC, _CSI, _SS3, _STRING, _STRING_ESC = range(6)


class KeyDecoder:
    """Incremental bytes -> keys for one connection."""

    def __init__(self, charset: Charset = "cp437") -> None:
        self.charset: Charset = charset
        if charset == "utf8":
            self._decoder: codecs.IncrementalDecoder | None = codecs.getincrementaldecoder("utf-8")("replace")
        else:
            self._decoder = None
        self._state = _GROUND
        self._intro = ""  # what followed the ESC: '[', 'O', or a string's ']', 'P', 'X', '_', '^'
        self._params: list[str] = []  # what came after it, for a CSI's meaning or to give back
        self._overflow = False
        self._after_cr = False

    @property
    def pending(self) -> bool:
        """An escape sequence is half-received: arm the pause timer."""
        return self._state != _GROUND

    def feed(self, data: bytes) -> list[Key]:
        if self._decoder is not None:
            text = self._decoder.decode(data)
        elif self.charset == "cp437":
            text = data.decode("cp437")
        else:
            text = data.decode("ascii", "replace")
        out: list[Key] = []
        for ch in text:
            self._step(ch, out)
        return out

    def flush_timeout(self) -> list[Key]:
        """The line went quiet: a lone ESC was the Esc key, and a sequence still unfinished was
        typed (Esc, then O within the pause had lost both keys): its keys are given back."""
        out: list[Key] = []
        while self._state != _GROUND:  # twice at most: a string, then the ESC that followed it
            self._give_back(out)
        return out

    def _give_back(self, out: list[Key]) -> None:
        """The sequence begun was the caller's typing, not the terminal's: Esc and each key after
        it, unless it grew too long for typing.  An ESC that followed a string begins anew."""
        was, overflow = self._state, self._overflow
        typed = self._intro + "".join(self._params)
        self._reset()
        if not overflow:
            out.append(Key("esc"))
            for ch in typed:
                self._ground(ch, out)
        if was == _STRING_ESC:
            self._state = _ESC

    def _reset(self) -> None:
        self._state = _GROUND
        self._intro = ""
        self._params.clear()
        self._overflow = False

    def _store(self, ch: str) -> None:
        if len(self._params) < MAX_SEQUENCE:
            self._params.append(ch)
        else:
            self._overflow = True

    def _step(self, ch: str, out: list[Key]) -> None:
        state = self._state
        if state == _GROUND:
            self._ground(ch, out)
        elif state == _ESC:
            if ch == "[":
                self._state, self._intro = _CSI, ch
            elif ch == "O":
                self._state, self._intro = _SS3, ch
            elif ch in "]P_^X":
                self._state, self._intro = _STRING, ch  # OSC, DCS, APC, PM, SOS: swallowed whole
            elif ch == "\x1b":
                out.append(Key("esc"))  # ESC ESC: the first was the key
            else:
                # Esc then a key (or Alt+key): both count.
                out.append(Key("esc"))
                self._reset()
                self._ground(ch, out)
        elif state == _CSI:
            if "0" <= ch <= "?" or " " <= ch <= "/":
                self._store(ch)
            elif "@" <= ch <= "~":
                if not self._overflow:
                    key = self._csi("".join(self._params), ch)
                    if key is not None:
                        out.append(key)
                self._reset()
            else:
                # A control or 8-bit character cannot be inside a CSI: it was
                # typed, as was what came before it.
                self._give_back(out)
                self._ground(ch, out)
        elif state == _SS3:
            if " " <= ch <= "~":
                self._reset()
                key = self._ss3(ch)
                if key is not None:
                    out.append(key)
            else:
                self._give_back(out)
                self._ground(ch, out)
        elif state == _STRING:
            # Only MAX_SEQUENCE characters are stored, so an endless string costs no memory.
            if ch in "\x07\x9c":
                self._reset()
            elif ch == "\x1b":
                self._state = _STRING_ESC
            elif ch < " ":
                # No terminal puts Enter or Backspace in a report: typed, all of it.
                self._give_back(out)
                self._ground(ch, out)
            else:
                self._store(ch)
        else:  # _STRING_ESC
            if ch == "\\":
                self._reset()
            else:
                # Not ST: the string was typed, and this ESC begins something new.
                self._give_back(out)
                self._step(ch, out)

    def _ground(self, ch: str, out: list[Key]) -> None:
        if self._after_cr:
            self._after_cr = False
            if ch in "\n\x00":
                return  # the second half of CR LF or CR NUL
        if ch == "\r":
            self._after_cr = True
            out.append(Key("enter"))
        elif ch == "\n":
            out.append(Key("enter"))
        elif ch == "\x1b":
            self._state = _ESC
        elif ch in "\x08\x7f":
            out.append(Key("backspace"))
        elif ch == "\t":
            out.append(Key("tab"))
        elif ch == "\x0c":
            out.append(Key("redraw"))
        elif ch < " ":
            if "\x01" <= ch <= "\x1a":
                out.append(Key("ctrl-" + chr(ord(ch) + 96)))
            # NUL and the rarely typed 0x1c-0x1f are ignored
        elif "\x80" <= ch <= "\x9f":
            pass  # C1 controls only reach us as UTF-8 noise
        elif not ch.isprintable():
            pass  # bidi overrides, zero-width and other format characters are nobody's key
        else:
            out.append(_text_key(ch))

    def _csi(self, params: str, final: str) -> Key | None:
        if final in "cnR":
            # Device attributes, status and cursor position reports.
            return Key("report", data="\x1b[" + params + final)
        if params[:1] in ("<", "=", ">", "?"):
            return None
        if final == "~":
            first = params.split(";", 1)[0]
            if first.isdigit():
                name = _TILDE.get(int(first))
                return Key(name) if name else None
            return None
        name = _CSI_FINAL.get(final)
        return Key(name) if name else None

    def _ss3(self, final: str) -> Key | None:
        if "p" <= final <= "y":
            return _text_key(chr(ord("0") + ord(final) - ord("p")))
        if final == "M":
            return Key("enter")
        text = _SS3_KEYPAD_TEXT.get(final)
        if text is not None:
            return _text_key(text)
        name = _SS3_FINAL.get(final)
        return Key(name) if name else None


_KEY_WORDS = {"home": "Home", "end": "End", "pgup": "Page Up", "pgdn": "Page Down", "insert": "Insert",
              "delete": "Delete", "tab": "Tab", "backtab": "Shift-Tab", "act": "Keypad 5"}


def untyped_said(key: Key) -> str | None:
    """A key that types nothing in a field, named to say so ('The arrow keys do', 'F1 does');
    None for one a field takes: a character (the keypad's 8 is 'up' with the character 8), Enter,
    Esc, Backspace."""
    if key.char:
        return None
    name = key.name
    if name in ("up", "down", "left", "right"):
        return "The arrow keys do"
    if name in _KEY_WORDS:
        return f"{_KEY_WORDS[name]} does"
    if name.startswith("f") and name[1:].isdigit():
        return f"{name.upper()} does"
    if name.startswith("ctrl-"):
        return f"Ctrl-{name[5:].upper()} does"
    return None
