"""Drop files: what a BBS tells its door about the caller.

Four formats are read, found by file name and, failing that, by content:

DOOR32.SYS (11 lines; Mystic, Synchronet, EleBBS, Maximus, ENiGMA½)
     1 comm type: 0 local, 1 serial, 2 telnet (3 rlogin, 4 websocket
       in some newer BBSes)      2 comm or socket handle
     3 baud rate                 4 BBS id (software name and version)
     5 user record number        6 real name        7 alias/handle
     8 security level            9 minutes left
    10 emulation: 0 ASCII, 1 ANSI, 2 AVATAR, 3 RIP, 4 Max Graphics
    11 node number

DOOR.SYS (GAP; 52 lines, or the original 31, or fewer)
     1 COM port, "COM0:" = local (OpenDoors also knows "COM0:STDIO" and
       "COM0:SOCKETn")           2 baud (DCE) rate     4 node number
    10 user's full name         15 security level     18 seconds left
    19 minutes left             20 graphics: GR, NG, 7E (7-bit even), RIP
    21 page (screen) length
    36 alias (52-line form only)

DORINFOx.DEF (RBBS and many others; x is the node: 1-9, 0 for 10)
     1 BBS name   2-3 sysop first/last name   4 COM port ("COM0" or "0" = local)
     5 "2400 BAUD,N,8,1"   6 network type (0)   7-8 user first/last name
     9 location  10 graphics: 0 ASCII, 1 or 2 ANSI   11 security level
    12 minutes left   13 FOSSIL flag (-1; often missing)

CHAIN.TXT (WWIV)
     1 user number   2 alias   3 real name   4 callsign   5 age   6 sex
     7 gold   8 last on   9 columns   10 lines   11 security level
    12 co-sysop   13 sysop   14 ANSI (1/0)   15 remote (1/0)
    16 seconds left (a decimal number)   17 gfiles dir   18 data dir
    19 log file   20 baud ("KB" at the local keyboard)   21 COM port
    22 BBS name   23 sysop name   ... (31 or more lines in all)

Bytes are read as CP437, the character set BBSes write them in; lines may
end in CR LF, LF or CR alone, and a DOS end-of-file mark (Ctrl-Z) is ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from bgdoor.term.charset import Charset

__all__ = ["DropFileError", "DropInfo", "read_dropfile", "parse_dropfile", "KINDS"]

Kind = Literal["DOOR32.SYS", "DOOR.SYS", "DORINFO", "CHAIN.TXT"]
CommType = Literal["local", "serial", "telnet"]
Emulation = Literal["ansi", "ascii"]

KINDS: tuple[Kind, ...] = ("DOOR32.SYS", "DOOR.SYS", "DORINFO", "CHAIN.TXT")

MAX_SIZE = 64 * 1024  # a drop file is a few hundred bytes; anything huge is not one
DOOR32_LINES = 11
DOORSYS_MIN_LINES = 20  # up to the graphics mode; the 31- and 52-line forms add to it
DORINFO_MIN_LINES = 12  # the FOSSIL flag on line 13 is often left out
CHAIN_MIN_LINES = 16  # up to the seconds left; the BBS name is on line 22

_LINE_END = re.compile(r"\r\n|\r|\n")
_LEADING_INT = re.compile(r"\s*([+-]?\d+)")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class DropFileError(ValueError):
    """A drop file that is missing, unreadable or not as its format says, in one line."""


@dataclass(frozen=True)
class DropInfo:
    kind: Kind
    # The caller's name here, exactly as the BBS wrote it but for the padding around it (control
    # characters too): the alias, or the real name where there is none.  Never shown as it is.
    alias: str
    real_name: str
    comm_type: CommType
    handle: int | None  # the socket (or comm) handle a DOOR32.SYS or DOOR.SYS names
    baud: int
    node: int | None  # None where the format does not say (CHAIN.TXT)
    minutes_left: int
    emulation: Emulation
    bbs_name: str | None
    security: int
    path: str = ""
    rows: int | None = None  # the caller's screen length, where the format gives it
    cols: int | None = None
    minutes_written: int | None = None  # the minutes the file gave where below 0 (kept as 0), for the log

    @property
    def charset(self) -> Charset:
        """ANSI callers (and AVATAR and RIP, which fall back to it) use CP437; ASCII is plain text."""
        return "cp437" if self.emulation == "ansi" else "ascii"

    @property
    def local(self) -> bool:
        return self.comm_type == "local"


def read_dropfile(path: str | Path, node: int | None = None) -> DropInfo:
    """Read and parse the drop file at `path`; raises DropFileError on any problem.  A `node`
    given (the door's --node) is the caller's node, whatever the file's node line says."""
    path = Path(path)
    name = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_SIZE + 1)
    except FileNotFoundError:
        raise DropFileError(f"{name}: no such drop file") from None
    except IsADirectoryError:
        raise DropFileError(f"{name}: is a directory, not a drop file") from None
    except PermissionError:
        raise DropFileError(f"{name}: cannot read the drop file: permission denied") from None
    except OSError as exc:
        raise DropFileError(f"{name}: cannot read the drop file: {exc.strerror or exc}") from None
    if len(data) > MAX_SIZE:
        raise DropFileError(f"{name}: too large for a drop file (over {MAX_SIZE // 1024} KiB)")
    return parse_dropfile(data, path.name, source=name, node=node)


def parse_dropfile(data: bytes, filename: str, *, source: str | None = None, node: int | None = None) -> DropInfo:
    """Parse drop-file bytes; `filename` (its base name) picks the kind, else the content does."""
    source = source or filename
    if not data.strip(b" \t\r\n\x1a"):
        raise DropFileError(f"{source}: the drop file is empty")
    if b"\x00" in data:
        raise DropFileError(f"{source}: binary data, not a drop file")
    lines = _split_lines(data)
    kind = kind_from_name(filename) or kind_from_content(lines)
    if kind is None:
        raise DropFileError(
            f"{source}: unknown drop file kind (expected DOOR32.SYS, DOOR.SYS, DORINFOx.DEF or CHAIN.TXT)"
        )
    parser = _Lines(lines, kind, source, node)
    if kind == "DOOR32.SYS":
        return _parse_door32(parser)
    if kind == "DOOR.SYS":
        return _parse_doorsys(parser)
    if kind == "DORINFO":
        return _parse_dorinfo(parser, _dorinfo_node(filename) if node is None else node)
    return _parse_chain(parser)


def kind_from_name(filename: str) -> Kind | None:
    name = Path(filename).name.upper()
    if name == "DOOR32.SYS":
        return "DOOR32.SYS"
    if name == "DOOR.SYS":
        return "DOOR.SYS"
    if name == "CHAIN.TXT":
        return "CHAIN.TXT"
    if re.fullmatch(r"DORINFO[0-9A-Z]?\.DEF", name):
        return "DORINFO"
    return None


def kind_from_content(lines: list[str]) -> Kind | None:
    """Guess the format of a drop file whose name says nothing (a sysop renamed it)."""

    def is_int(i: int) -> bool:
        return i < len(lines) and re.fullmatch(r"[+-]?\d+", lines[i].strip()) is not None

    def is_port(i: int) -> bool:
        return i < len(lines) and re.fullmatch(r"(?i)COM\d+:?.*|\d+", lines[i].strip()) is not None

    if lines and re.match(r"(?i)COM\d+:", lines[0].strip()) and len(lines) >= DOORSYS_MIN_LINES:
        return "DOOR.SYS"
    # Comm type, handle and baud rate first, in 10-12 lines: no other kind is that short, so a
    # bad line further down is reported as what it is, not as an unknown kind.
    if 10 <= len(lines) <= 12 and all(is_int(i) for i in (0, 1, 2)):
        return "DOOR32.SYS"
    if len(lines) >= DORINFO_MIN_LINES and is_port(3) and re.match(r"\s*\d+", lines[4]) and is_int(10):
        return "DORINFO"
    if len(lines) >= CHAIN_MIN_LINES and is_int(0) and is_int(10) and is_int(13) and is_int(14):
        return "CHAIN.TXT"
    return None


# ------------------------------------------------------------------ helpers


def _split_lines(data: bytes) -> list[str]:
    text = data.decode("cp437")
    end = text.find("\x1a")  # DOS editors and BBSes may end a file with Ctrl-Z
    if end >= 0:
        text = text[:end]
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":  # the terminator of the last line
        lines.pop()
    return [line.rstrip(" \t") for line in lines]


class _Lines:
    """Numbered access to a drop file's lines, with errors that name the file and the line."""

    def __init__(self, lines: list[str], kind: Kind, source: str, node: int | None = None) -> None:
        self.lines = lines
        self.kind = kind
        self.source = source
        self.given_node = node  # the door's --node: the file's node line is not read

    def fail(self, message: str, lineno: int | None = None) -> DropFileError:
        where = f"{self.kind} line {lineno}" if lineno is not None else self.kind
        return DropFileError(f"{self.source}: {where}: {message}")

    def need(self, count: int) -> None:
        if len(self.lines) < count:
            raise self.fail(f"too few lines: {len(self.lines)}, need at least {count}")

    def has(self, lineno: int) -> bool:
        return lineno <= len(self.lines)

    def text(self, lineno: int) -> str:
        return self.lines[lineno - 1].strip() if self.has(lineno) else ""

    def exact(self, lineno: int) -> str:
        """A caller's name as the BBS wrote it, without the padding around it: their identity
        here, so nothing in it is dropped (two aliases that differ only by a control character
        are two people); the service derives a handle that is safe to show."""
        return self.lines[lineno - 1].strip(" \t") if self.has(lineno) else ""

    def name(self, lineno: int) -> str:
        """A name or other free text: control characters (an ESC that would start a screen
        sequence, say) are removed, since it goes on the caller's screen and other players'."""
        return _CONTROL.sub("", self.text(lineno)).strip()

    def number(self, lineno: int, what: str) -> int:
        raw = self.text(lineno)
        if re.fullmatch(r"[+-]?\d+", raw) is None:
            raise self.fail(f"{what} must be a number, got {raw!r}", lineno)
        return int(raw)

    def node(self, lineno: int) -> int:
        """The node line, unless the sysop gave the node: a line reading 'one' had refused the
        caller even with --node 3, which is there for a node line that is wrong."""
        return self.number(lineno, "node number") if self.given_node is None else self.given_node

    def screen_size(self, lineno: int) -> int | None:
        """A screen length or width: a nicety, so a missing or odd value is ignored, not an error."""
        match = _LEADING_INT.match(self.text(lineno)) if self.has(lineno) else None
        value = int(match.group(1)) if match else 0
        return value if 10 <= value <= 255 else None

    def leading_int(self, lineno: int, what: str) -> int:
        """A number at the start of the line, as in '2400 BAUD,N,8,1'."""
        raw = self.text(lineno)
        match = _LEADING_INT.match(raw)
        if match is None:
            raise self.fail(f"{what} must start with a number, got {raw!r}", lineno)
        return int(match.group(1))

    def decimal(self, lineno: int, what: str) -> float:
        raw = self.text(lineno)
        if re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)", raw) is None:
            raise self.fail(f"{what} must be a number, got {raw!r}", lineno)
        return float(raw)

    def names(self, real: str, alias: str, real_line: int, alias_line: int | None) -> tuple[str, str]:
        """(alias exactly, real name cleaned) from the exact lines: each falls back to the other;
        both empty is an error."""
        where = real_line if alias_line is None else min(real_line, alias_line)
        if not real and not alias:
            raise self.fail("the caller's name is empty", where)
        shown = _CONTROL.sub("", real).strip() or _CONTROL.sub("", alias).strip()
        if not shown:
            raise self.fail("the caller's name has no printable character", where)
        return alias or real, shown


def _com_port(raw: str) -> int | None:
    """The port number in 'COM1:', 'COM1', '1' or '0'; None when it is none of these."""
    match = re.fullmatch(r"(?i)(?:COM)?(\d+):?", raw.strip())
    return int(match.group(1)) if match else None


def _dorinfo_node(filename: str) -> int | None:
    # DORINFO1.DEF .. DORINFO9.DEF name their node; ENiGMA½ writes DORINFO0.DEF for
    # node 10, and letters beyond that are numbered differently by different BBSes.
    match = re.fullmatch(r"DORINFO([0-9])\.DEF", Path(filename).name.upper())
    if match is None:
        return None
    digit = int(match.group(1))
    return 10 if digit == 0 else digit


def _minutes(value: int) -> int:
    return max(0, value)


# ------------------------------------------------------------------ formats


def _parse_door32(d: _Lines) -> DropInfo:
    d.need(DOOR32_LINES)
    comm = d.number(1, "comm type")
    if comm not in (0, 1, 2, 3, 4):
        raise d.fail(f"comm type must be 0 (local), 1 (serial), 2 (telnet), 3 (rlogin) or 4 (websocket), got {comm}", 1)
    handle = d.number(2, "comm or socket handle")
    baud = d.number(3, "baud rate")
    bbs = d.name(4) or None
    security = d.number(8, "security level")
    minutes = d.number(9, "minutes left")
    emulation = d.number(10, "emulation")
    node = d.node(11)
    alias, real = d.names(d.exact(6), d.exact(7), 6, 7)
    comm_type: CommType = "local" if comm == 0 else "serial" if comm == 1 else "telnet"
    return DropInfo(
        kind="DOOR32.SYS",
        alias=alias,
        real_name=real,
        comm_type=comm_type,
        handle=None if comm == 0 else handle,
        baud=baud,
        node=node,
        minutes_left=_minutes(minutes),
        minutes_written=minutes if minutes < 0 else None,
        emulation="ascii" if emulation == 0 else "ansi",  # AVATAR, RIP and Max Graphics fall back to ANSI
        bbs_name=bbs,
        security=security,
        path=d.source,
    )


def _parse_doorsys(d: _Lines) -> DropInfo:
    d.need(DOORSYS_MIN_LINES)
    port_line = d.text(1)
    match = re.fullmatch(r"(?i)COM(\d+):?(.*)", port_line)
    if match is None:
        raise d.fail(f"COM port must look like COM1: (COM0: for local), got {port_line!r}", 1)
    port, extra = int(match.group(1)), match.group(2).strip().upper()
    handle: int | None = None
    comm_type: CommType
    if extra.startswith("SOCKET"):  # OpenDoors' COM0:SOCKETn: an inherited socket
        digits = extra[len("SOCKET") :]
        if not digits.isdigit():
            raise d.fail(f"socket handle must be a number, got {port_line!r}", 1)
        comm_type, handle = "telnet", int(digits)
    elif extra == "STDIO":  # OpenDoors' COM0:STDIO: the caller is on standard I/O
        comm_type = "telnet"
    elif port == 0:
        comm_type = "local"
    else:
        comm_type = "serial"
    baud = d.number(2, "baud rate")
    node = d.node(4)
    security = d.number(15, "security level")
    minutes = d.number(19, "minutes left")
    graphics = d.text(20).upper()
    # GR (graphics) and RIP callers get ANSI; NG and 7E (7-bit, even parity) get plain text.
    # Anything else is left as ANSI, what nearly every caller today has.
    emulation: Emulation = "ascii" if graphics in ("NG", "7E") else "ansi"
    real = d.exact(10)
    alias = d.exact(36) if d.has(36) else ""
    alias, real = d.names(real, alias, 10, 36 if d.has(36) else None)
    return DropInfo(
        kind="DOOR.SYS",
        alias=alias,
        real_name=real,
        comm_type=comm_type,
        handle=handle,
        baud=baud,
        node=node,
        minutes_left=_minutes(minutes),
        minutes_written=minutes if minutes < 0 else None,
        emulation=emulation,
        bbs_name=None,
        security=security,
        path=d.source,
        rows=d.screen_size(21),  # the page (screen) length
    )


def _parse_dorinfo(d: _Lines, node: int | None) -> DropInfo:
    d.need(DORINFO_MIN_LINES)
    port_line = d.text(4)
    port = _com_port(port_line)
    if port is None:
        raise d.fail(f"COM port must look like COM1 (COM0 or 0 for local), got {port_line!r}", 4)
    baud = d.leading_int(5, "baud rate")
    graphics = d.number(10, "graphics mode")
    security = d.number(11, "security level")
    minutes = d.number(12, "minutes left")
    # The user's name is split in two; an alias is usually all on the first-name line.
    name = " ".join(part for part in (d.exact(7), d.exact(8)) if part)
    alias, real = d.names(name, "", 7, None)
    return DropInfo(
        kind="DORINFO",
        alias=alias,
        real_name=real,
        comm_type="local" if port == 0 else "serial",
        handle=None,
        baud=baud,
        node=node,
        minutes_left=_minutes(minutes),
        minutes_written=minutes if minutes < 0 else None,
        emulation="ascii" if graphics == 0 else "ansi",  # QuickBBS says 1 for ANSI, RBBS 2
        bbs_name=d.name(1) or None,
        security=security,
        path=d.source,
    )


def _parse_chain(d: _Lines) -> DropInfo:
    d.need(CHAIN_MIN_LINES)
    d.number(1, "user number")
    security = d.number(11, "security level")
    ansi = d.number(14, "ANSI flag")
    remote = d.number(15, "remote flag")
    seconds = d.decimal(16, "seconds left")
    baud = 0
    if d.has(20) and d.text(20).upper() not in ("", "KB"):  # KB: the sysop at the keyboard
        baud = d.number(20, "baud rate")
    alias, real = d.names(d.exact(3), d.exact(2), 3, 2)
    return DropInfo(
        kind="CHAIN.TXT",
        alias=alias,
        real_name=real,
        comm_type="telnet" if remote else "local",
        handle=None,
        baud=baud,
        node=d.given_node,
        minutes_left=_minutes(int(seconds // 60)),
        minutes_written=int(seconds // 60) if seconds < 0 else None,
        emulation="ansi" if ansi else "ascii",
        bbs_name=(d.name(22) or None) if d.has(22) else None,
        security=security,
        path=d.source,
        rows=d.screen_size(10),
        cols=d.screen_size(9),
    )
