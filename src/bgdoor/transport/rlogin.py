"""RLogin entry (RFC 1282) for callers a member BBS sends over: no login screen, the BBS vouches.

The handshake is `\\0client-user-name\\0server-user-name\\0terminal-type/speed\\0`, and the
server answers one `\\0`.  Two forms of it come from BBS gateways:
- Synchronet's: the BBS's secret in client-user-name and `[TAG]alias` in server-user-name;
- DoorParty's: the alias in client-user-name and `[TAG]alias` in server-user-name, trusted by
  the address it comes from alone (`auth = address` in the BBS's section).
Every refusal is one line to the caller, then the connection closes, and a log line with the
address.  RLogin negotiates no echo: nothing is echoed but what a screen draws.  The window
size comes as RFC 1282 has it: after the handshake the server sends the urgent (out-of-band)
byte 0x80, and a client that can answers with 12-byte window-change messages in the data
(0xFF 0xFF 's' 's', then rows, columns and two pixel sizes, 16 bits big-endian each), again
on every resize.  They are taken out of the input here; until one comes the screen is 80x24,
or the size the terminal type names.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import re
import socket
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bgdoor.config import Config, MemberBBS, printable_problem
from bgdoor.service import MAX_BBS_ALIAS, PlayerInfo, ServiceError
from bgdoor.term.charset import Charset
from bgdoor.term.wrap import wrap
from bgdoor.transport.link import CallerServer, WriterLink, callers
from bgdoor.transport.proxy import HEADER_TIMEOUT, ProxyGate, ProxyRefused, looks_like_proxy
from bgdoor.transport.telnet import charset_for
from bgdoor.ui.console import Console
from bgdoor.ui.runtime import Runtime
from bgdoor.ui.session import Session

log = logging.getLogger("bgdoor.rlogin")

MAX_HANDSHAKE = 1024
HANDSHAKE_TIMEOUT = 10.0
_TAGGED = re.compile(r"\[([^\]]*)\](.*)", re.DOTALL)
_SIZE = re.compile(r"(\d{2,3})x(\d{2,3})$")
WINDOW_REQUEST = b"\x80"  # urgent control byte: "send me your window sizes"
WINDOW_MAGIC = b"\xff\xffss"
WINDOW_MESSAGE = 12
# A message cut short by the network waits this long for its rest; then the bytes held back
# are taken as keys after all (0xFF is a key in CP437).
WINDOW_WAIT = 0.5


class Refused(Exception):
    """A caller turned away: `line` is what they are told, `reason` what the log says."""

    def __init__(self, line: str, reason: str | None = None) -> None:
        super().__init__(line)
        self.line = line
        self.reason = reason or line


@dataclass(frozen=True)
class Handshake:
    client_user: str
    server_user: str
    terminal: str  # the terminal type without its speed; "" when none or Synchronet's xtrn=CODE
    rest: bytes  # bytes the caller sent after the handshake


@dataclass(frozen=True)
class Entry:
    """Who the handshake says is calling."""

    bbs: MemberBBS
    alias: str
    terminal: str
    charset: Charset
    rows: int
    cols: int = 80


def _text(field: bytes) -> str:
    # BBS aliases are often CP437 bytes rather than UTF-8.
    try:
        return field.decode("utf-8")
    except UnicodeDecodeError:
        return field.decode("cp437")


def parse_handshake(data: bytes) -> Handshake | None:
    """The handshake in `data`, or None while it is still incomplete; Refused when malformed."""
    if not data:
        return None
    if data[0] != 0:
        if looks_like_proxy(data):
            raise Refused("Malformed RLogin handshake: a PROXY header, not taken from this address.",
                          "a PROXY header, but this address is not in proxy_from")
        # Why, as the log says it: the gateway's sysop reads it on the caller's screen.
        raise Refused("Malformed RLogin handshake: it does not start with a NUL.",
                      "malformed handshake: it does not start with a NUL")
    parts = data[1:].split(b"\0", 3)
    if len(parts) < 4:
        if len(data) > MAX_HANDSHAKE:
            raise Refused("Malformed RLogin handshake: over 1 KB without its NULs.",
                          "malformed handshake: over 1 KB without its NULs")
        return None
    client, server, term, rest = parts
    if len(data) - len(rest) > MAX_HANDSHAKE:
        raise Refused("Malformed RLogin handshake: over 1 KB.", "malformed handshake: over 1 KB")
    terminal = _text(term).split("/", 1)[0].strip()
    if terminal.lower().startswith("xtrn="):
        terminal = ""  # Synchronet names the door to run; there is only one here
    return Handshake(_text(client), _text(server), terminal, rest)


def terminal_size(terminal: str) -> tuple[int, int]:
    """Columns and rows: 80x24 unless the terminal type ends in a size such as `-40x25` (a
    gateway that relays bytes only never answers the window-size request)."""
    size = _SIZE.search(terminal)
    if size is None:
        return 80, 24
    return int(size.group(1)), 25 if int(size.group(2)) >= 25 else 24


def terminal_rows(terminal: str) -> int:
    """24 unless the terminal type ends in a size such as `-80x25`."""
    return terminal_size(terminal)[1]


def authorize(hs: Handshake, address: str, config: Config) -> Entry:
    """The member BBS and alias the handshake names, checked against door.cfg; Refused if not."""
    tagged = _TAGGED.fullmatch(hs.server_user)
    if tagged is None:
        raise Refused(
            "No BBS tag: this server takes callers sent by member BBSes only.", f"no [TAG] in {hs.server_user[:60]!r}"
        )
    tag, alias = tagged.group(1).strip().upper(), tagged.group(2).strip()
    bbs = config.bbses.get(tag)
    if bbs is None:
        # Named on the screen too, as the log names it (the caller's sysop needs which tag
        # was sent); it comes from the network, so printable ASCII only, and cut.
        shown = "".join(c if c.isascii() and c.isprintable() else "?" for c in tag[:16])
        shown = f"{shown}..." if len(tag) > 16 else shown
        said = f"Unknown BBS tag {shown}" if shown else "Empty BBS tag"
        raise Refused(f"{said}; ask your sysop to register the board.", f"unknown tag {tag[:16]!r}")
    if not bbs.allows(address):
        raise Refused(f"BBS {tag} does not call from this address.", f"{tag}: address not in its list")
    if bbs.auth == "secret":
        # The secret never reaches a log; compare_digest does not tell how much of it matched.
        if not hmac.compare_digest(hs.client_user.encode("utf-8"), bbs.secret.encode("utf-8")):
            raise Refused(f"Wrong secret for BBS {tag}.", f"{tag}: wrong secret")
    if not alias:
        raise Refused("No alias given: the BBS sent an empty name.", f"{tag}: empty alias")
    # Each problem said as what it is: 'control characters or is too long' left the BBS's sysop
    # guessing which.
    if len(alias) > MAX_BBS_ALIAS:
        raise Refused(f"That alias cannot be used here: it is longer than {MAX_BBS_ALIAS} characters.",
                      f"{tag}: alias too long {alias[:60]!r}")
    if printable_problem(alias):
        raise Refused("That alias cannot be used here: it has control characters in it.",
                      f"{tag}: alias unusable {alias[:60]!r}")
    terminal = hs.terminal
    charset = charset_for(terminal or "ansi-bbs", None)
    cols, rows = terminal_size(terminal)
    return Entry(bbs=bbs, alias=alias, terminal=terminal, charset=charset, rows=rows, cols=cols)


class CallerLines(Protocol):
    """The callers counted across transports, so max_callers holds for telnet and RLogin together."""

    active: int


class _OwnLines:
    def __init__(self) -> None:
        self.active = 0


class WindowSizes:
    """Takes RFC 1282 window-change messages out of a caller's input, wherever reads split them."""

    def __init__(self) -> None:
        self.held = b""  # the start of what may be a message, waiting for the rest

    def feed(self, data: bytes) -> tuple[bytes, list[tuple[int, int]]]:
        """The input without its window-change messages, and the (columns, rows) they gave."""
        data = self.held + data
        self.held = b""
        out = bytearray()
        sizes: list[tuple[int, int]] = []
        i = 0
        while i < len(data):
            at = data.find(b"\xff", i)
            if at < 0:
                out += data[i:]
                break
            out += data[i:at]
            rest = data[at : at + WINDOW_MESSAGE]
            if rest[:4] == WINDOW_MAGIC and len(rest) == WINDOW_MESSAGE:
                rows, cols = int.from_bytes(rest[4:6], "big"), int.from_bytes(rest[6:8], "big")
                sizes.append((cols, rows))
                i = at + WINDOW_MESSAGE
            elif WINDOW_MAGIC.startswith(rest[:4]) and len(rest) < WINDOW_MESSAGE and at + len(rest) == len(data):
                self.held = rest  # perhaps a message whose rest is still on its way
                break
            else:
                out.append(0xFF)
                i = at + 1
        return bytes(out), sizes

    def release(self) -> bytes:
        """What was held back, as input after all: the rest never came."""
        held, self.held = self.held, b""
        return held


class StreamLink(WriterLink):
    """An RLogin connection: bytes both ways, window-change messages taken out of the input."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, stall_timeout: float, pending: bytes = b""
    ) -> None:
        super().__init__(writer, stall_timeout)
        self.reader = reader
        self.pending = pending
        self.windows = WindowSizes()
        self.size: tuple[int, int] | None = None  # (columns, rows) the caller last told
        self._size_listener: Callable[[int, int], None] | None = None

    def listen_for_size(self, listener: Callable[[int, int], None]) -> None:
        """Tell `listener` (columns, rows) on every window change, and now if one came already."""
        self._size_listener = listener
        if self.size is not None:
            listener(*self.size)

    def ask_window_size(self) -> bool:
        """Send RFC 1282's urgent 0x80 after what was written so far; False if it could not be."""
        transport = self.writer.transport
        sock = self.writer.get_extra_info("socket")
        if sock is None or transport is None or transport.get_write_buffer_size():
            return False  # urgent data passes the buffered bytes; it must not pass the NUL
        try:
            with socket.socket(sock.family, sock.type, fileno=os.dup(sock.fileno())) as out:
                return out.send(WINDOW_REQUEST, socket.MSG_OOB) == 1
        except OSError:
            return False

    async def read(self) -> bytes:
        while True:
            if self.pending:
                raw, self.pending = self.pending, b""
            else:
                try:
                    if self.windows.held:
                        try:
                            raw = await asyncio.wait_for(self.reader.read(1024), WINDOW_WAIT)
                        except TimeoutError:
                            return self.windows.release()
                    else:
                        raw = await self.reader.read(1024)
                except (ConnectionError, OSError):
                    return b""
                if not raw:
                    return self.windows.release()  # b"" unless a cut-short message was held
            data, sizes = self.windows.feed(raw)
            known = [(cols, rows) for cols, rows in sizes if cols and rows]  # 0: the client does not know
            # Only the last of a read's sizes: a flood of window messages costs one resize a read.
            if known and known[-1] != self.size:
                self.size = known[-1]
                if self._size_listener is not None:
                    self._size_listener(*self.size)
            if data:
                return data


async def read_proxy_header(reader: asyncio.StreamReader, gate: ProxyGate) -> tuple[str, bytes]:
    """The caller's address, and the bytes after the PROXY header a trusted balancer sends
    (nothing is read from anyone else); ProxyRefused when it is malformed, missing or late."""
    if not gate.expected:
        return gate.peer, b""
    loop = asyncio.get_running_loop()
    end = loop.time() + HEADER_TIMEOUT
    rest = b""
    while not gate.done:
        try:
            chunk = await asyncio.wait_for(reader.read(1024), max(0.0, end - loop.time()))
        except TimeoutError:
            raise ProxyRefused("no PROXY header within 10 s") from None
        except (ConnectionError, OSError):
            chunk = b""
        if not chunk:
            raise ProxyRefused("connection closed before its PROXY header")
        rest = gate.feed(chunk)
    return gate.address or gate.peer, rest


def _late(data: bytes, timeout: float) -> Refused:
    """No whole handshake in time: none at all, or one cut short (a gateway's fields missing)."""
    why = f"no complete handshake within {timeout:.0f} s"
    if data:
        return Refused(f"The RLogin handshake was cut short: not all of it came within {timeout:.0f} seconds.", why)
    return Refused(f"No RLogin handshake within {timeout:.0f} seconds.", why)


async def read_handshake(
    reader: asyncio.StreamReader, timeout: float = HANDSHAKE_TIMEOUT, data: bytes = b""
) -> Handshake:
    """The handshake, within `timeout` seconds in all, after `data` already read; Refused when
    malformed, late or cut short."""
    if data:
        found = parse_handshake(data)
        if found is not None:
            return found
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        left = end - loop.time()
        if left <= 0:
            raise _late(data, timeout)
        try:
            chunk = await asyncio.wait_for(
                reader.read(MAX_HANDSHAKE + 1 - len(data) if len(data) <= MAX_HANDSHAKE else 1), left
            )
        except TimeoutError:
            raise _late(data, timeout) from None
        except (ConnectionError, OSError):
            chunk = b""
        if not chunk:
            raise Refused("Malformed RLogin handshake.", "connection closed in the handshake")
        data += chunk
        found = parse_handshake(data)
        if found is not None:
            return found


class RLoginServer(CallerServer):
    def __init__(
        self, runtime: Runtime, lines: CallerLines | None = None, handshake_timeout: float = HANDSHAKE_TIMEOUT
    ) -> None:
        super().__init__(runtime)
        self.lines: CallerLines = lines if lines is not None else _OwnLines()
        # Every caller of a member BBS comes from its gateway's one address, so an address counts
        # only the connections no BBS has vouched for yet (max_per_address of them); a caller
        # in counts against their board (its max_callers), and with telnet's in lines.active.
        self.unvouched: Counter[str] = Counter()
        self.per_board: Counter[str] = Counter()
        self.handshake_timeout = handshake_timeout

    async def start(self, host: str | None = None, port: int | None = None) -> asyncio.Server:
        host = host if host is not None else self.config.rlogin_host
        port = port if port is not None else self.config.rlogin_port
        self.server = await asyncio.start_server(
            self._connected, host or None, port, backlog=1024, reuse_address=True, limit=4096
        )
        for sock in self.server.sockets:
            log.info("rlogin listening on %s", sock.getsockname()[:2])
        return self.server

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await self.tracked(self._serve(reader, writer))
        except asyncio.CancelledError:
            # The way down cancels every session, which has said goodbye by then; asyncio's
            # streams would log a cancelled connection task as an error with its traceback.
            return

    async def _refuse(self, link: StreamLink, addr: str, refusal: Refused, cols: int = 40) -> None:
        """Before the terminal type names a width, 40 columns, the narrowest a caller may have
        (at 80, a 40-column caller read 'Please call a' over 'gain later.')."""
        log.warning("rlogin refused %s: %s", addr, refusal.reason)
        text = "\r\n".join(wrap(refusal.line, max(cols - 1, 20)))
        # The NUL first: a client shows nothing the server sends before it.
        link.write(b"\0\r\n" + text.encode("ascii", "replace") + b"\r\n")
        await link.drain()
        link.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername") or ("-", 0)
        config = self.config
        link = StreamLink(reader, writer, stall_timeout=config.idle_timeout)
        try:
            # Behind a trusted balancer the caller's own address is in the PROXY header.
            addr, early = await read_proxy_header(reader, ProxyGate(str(peer[0]), config.rlogin_proxy_trusted))
        except ProxyRefused as why:
            log.warning("rlogin refused %s: %s", peer[0], why)
            link.close()
            return
        lines = self.lines
        if lines.active >= config.max_callers:
            await self._refuse(
                link,
                addr,
                Refused("Sorry, all lines are busy. Please call again later.",
                        f"all lines busy (max_callers = {config.max_callers})"),
            )
            return
        if self.unvouched[addr] >= config.max_per_address:
            await self._refuse(
                link,
                addr,
                Refused(
                    "Too many connections from this address at once.",
                    f"{self.unvouched[addr]} connections from that address still in their handshake",
                ),
            )
            return
        lines.active += 1
        self.unvouched[addr] += 1
        board: str | None = None  # the member BBS whose line the caller holds, once it vouched
        connected = False  # logged as connected: a refused handshake's 'disconnect' had no 'connect'
        try:
            cols = 40  # until the handshake names a width
            try:
                hs = await read_handshake(reader, self.handshake_timeout, early)
                entry = authorize(hs, addr, config)
                if _SIZE.search(entry.terminal):
                    # Else 40 still: a board's lines in use, or the board suspended, had been laid
                    # out for 80 ('...in use. Ple' over 'ase call again later.').
                    cols = entry.cols
                board = self._take_board_line(entry.bbs, addr)
                player = await self._enter(entry)
            except Refused as refusal:
                await self._refuse(link, addr, refusal, cols)
                return
            link.pending = hs.rest
            link.write(b"\0")
            await link.drain()
            asked = link.ask_window_size()
            log.info(
                "rlogin connect %s %s@%s term=%s charset=%s (%s)%s",
                addr,
                entry.alias,
                entry.bbs.tag,
                entry.terminal or "-",
                entry.charset,
                callers(lines.active),
                "" if asked else "; window size not asked",
            )
            connected = True
            console = Console(
                link,
                charset=entry.charset,
                syncterm=entry.terminal.lower().startswith("syncterm"),
                idle_timeout=config.idle_timeout,
                width=entry.cols,
                height=entry.rows,
            )
            link.listen_for_size(console.resize)
            session = Session(console, self.runtime, peer=addr, player=player, board=entry.bbs.tag)
            self.consoles.add(console)
            try:
                await console.start()
                await session.run()
            finally:
                self.consoles.discard(console)
                await console.stop()
        finally:
            lines.active -= 1
            if board is None:
                _give_back(self.unvouched, addr)
            else:
                _give_back(self.per_board, board)
            link.close()
            if connected:
                log.info("rlogin disconnect %s (%s)", addr, callers(lines.active))

    def _take_board_line(self, bbs: MemberBBS, addr: str) -> str:
        """Count the caller against their BBS instead of its gateway's address (which all its
        callers share); Refused when the board has all its lines in use."""
        most = bbs.max_callers
        if most is not None and self.per_board[bbs.tag] >= most:
            said = f"its {most} lines here are all" if most > 1 else "its one line here is"
            raise Refused(
                f"BBS {bbs.tag}: {said} in use. Please call again later.", f"{bbs.tag}: all {most} of its lines in use"
            )
        _give_back(self.unvouched, addr)
        self.per_board[bbs.tag] += 1
        return bbs.tag

    async def _enter(self, entry: Entry) -> PlayerInfo:
        svc = self.runtime.service
        try:
            await svc.admit_bbs(entry.bbs.tag)
            info: PlayerInfo = await svc.enter_from_bbs(entry.bbs.tag, entry.alias)
        except ServiceError as exc:
            raise Refused(_sentence(str(exc)), f"{entry.bbs.tag}: {exc}") from None
        return info



def _give_back(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else "Refused."
