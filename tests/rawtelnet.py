"""A light telnet caller on a bare socket, for hostile-caller tests and the load bench.

It answers option negotiation the way a plain BBS terminal does (a terminal
type, a window size, no to everything else), keeps the data bytes it receives
with telnet commands taken out, and can feed them to a pyte screen.  Unlike
telnetlib3's client it sends exactly the bytes it is given, so a test can
send broken option sequences, and it costs little CPU per caller.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import socket
import time

import menus
import pyte
from screenwait import ScreenWaits

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
BINARY, ECHO, SGA, TTYPE, NAWS = 0, 1, 3, 24, 31

# Options a plain terminal agrees to when the server offers them.
_ACCEPT_WILL = {BINARY, ECHO, SGA}

# Traceback text that must never reach a caller.
LEAKS = (b"Traceback", b'File "', b"Error:")


def escape_iac(data: bytes) -> bytes:
    return data.replace(b"\xff", b"\xff\xff")


class RawCaller(ScreenWaits):
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, term: str, screen: bool,
                 size: tuple[int, int] = (80, 25), glass: tuple[int, int] | None = None) -> None:
        """size: the (columns, rows) told by NAWS; glass: the pyte screen's, when it should be larger
        than that, so that anything drawn past the told size shows."""
        self.size = size
        self.glass = glass or size
        self.reader = reader
        self.writer: asyncio.StreamWriter = writer
        self.term = term
        self.data = bytearray()  # every data byte received, telnet commands taken out
        self.closed = False
        self.changed = asyncio.Event()
        self.last_data = 0.0  # time.monotonic() of the last data byte
        self.connected_at = time.monotonic()
        self.first_data: float | None = None
        self.answered_at = 0.0  # time.monotonic() at which the bytes after a mark (see mark()) came
        self._mark: int | None = None
        self._answers: bytearray | None = None  # answers to the packet being read, sent together
        self._screen = pyte.Screen(*self.glass) if screen else None
        self._stream = pyte.Stream(self._screen) if screen else None
        self._text = codecs.getincrementaldecoder("utf-8" if term.startswith("xterm") else "cp437")("replace")
        self._state = 0  # 0 data, 1 after IAC, 2 option verb, 3 in SB, 4 IAC in SB
        self._verb = 0
        self._sb = bytearray()
        self._pump = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(cls, port: int, host: str = "127.0.0.1", *, term: str = "ansi", screen: bool = True,
                      timeout: float = 30.0, source: str | None = None, rcvbuf: int | None = None,
                      size: tuple[int, int] = (80, 25), glass: tuple[int, int] | None = None) -> RawCaller:
        """source: a local address to call from (any of 127.0.0.0/8 works on Linux);
        rcvbuf: a small receive buffer, for a caller whose terminal takes little."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if source is not None:
            sock.bind((source, 0))
        sock.setblocking(False)
        try:
            await asyncio.wait_for(asyncio.get_running_loop().sock_connect(sock, (host, port)), timeout)
        except BaseException:
            sock.close()
            raise
        reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 20)
        return cls(reader, writer, term, screen, size, glass)

    # ------------------------------------------------------------ receiving

    async def _read(self) -> None:
        try:
            while True:
                chunk = await self.reader.read(65536)
                if not chunk:
                    break
                self._feed(chunk)
        except (ConnectionError, OSError):
            pass
        finally:
            self.closed = True
            self.changed.set()

    def _feed(self, chunk: bytes) -> None:
        # The answers to one packet's commands go back in one write, as a terminal's would.
        self._answers = bytearray()
        try:
            self._parse(chunk)
        finally:
            answers, self._answers = self._answers, None
            if answers:
                self._raw(bytes(answers))

    def _parse(self, chunk: bytes) -> None:
        out = bytearray()
        for b in chunk:
            st = self._state
            if st == 0:
                if b == IAC:
                    self._state = 1
                else:
                    out.append(b)
            elif st == 1:
                if b == IAC:
                    out.append(IAC)
                    self._state = 0
                elif b in (DO, DONT, WILL, WONT):
                    self._verb, self._state = b, 2
                elif b == SB:
                    self._sb.clear()
                    self._state = 3
                else:
                    self._state = 0
            elif st == 2:
                self._answer(self._verb, b)
                self._state = 0
            elif st == 3:
                if b == IAC:
                    self._state = 4
                else:
                    self._sb.append(b)
            else:  # IAC inside SB
                if b == SE:
                    self._subneg(bytes(self._sb))
                    self._state = 0
                else:
                    self._sb.append(b)
                    self._state = 3
        if out:
            now = time.monotonic()
            if self.first_data is None:
                self.first_data = now
            self.last_data = now
            self.data += out
            if self._mark is not None and len(self.data) > self._mark:
                self.answered_at, self._mark = now, None
            if self._stream is not None:
                self._stream.feed(self._text.decode(bytes(out)))
            self.changed.set()

    def _answer(self, verb: int, opt: int) -> None:
        if verb == DO:
            if opt == TTYPE:
                self._raw(bytes([IAC, WILL, TTYPE]))
            elif opt == BINARY:
                self._raw(bytes([IAC, WILL, BINARY]))  # 8-bit clean, as BBS terminals are
            elif opt == NAWS:
                self._raw(bytes([IAC, WILL, NAWS]))
                self.send_size(*self.size)
            else:
                self._raw(bytes([IAC, WONT, opt]))
        elif verb == WILL:
            self._raw(bytes([IAC, DO if opt in _ACCEPT_WILL else DONT, opt]))

    def send_size(self, cols: int, rows: int) -> None:
        """NAWS: the window is this big (now, or after a resize)."""
        self.size = (cols, rows)
        self._raw(bytes([IAC, SB, NAWS, *cols.to_bytes(2, "big"), *rows.to_bytes(2, "big"), IAC, SE]))

    def lines(self) -> list[str]:
        """The pyte screen's lines (as wide as the glass)."""
        assert self._screen is not None, "this caller keeps no screen"
        return list(self._screen.display)

    def cursor(self) -> tuple[int, int]:
        """Where the terminal's own cursor is: (row, column), from 0."""
        assert self._screen is not None, "this caller keeps no screen"
        return self._screen.cursor.y, self._screen.cursor.x

    def _subneg(self, body: bytes) -> None:
        if body[:2] == bytes([TTYPE, 1]):  # SEND: answer IS <term>
            self._raw(bytes([IAC, SB, TTYPE, 0]) + self.term.encode("ascii") + bytes([IAC, SE]))

    # ------------------------------------------------------------ sending

    def _raw(self, data: bytes) -> None:
        if self._answers is not None:
            self._answers += data
        elif not self.writer.is_closing():
            self.writer.write(data)

    def send_raw(self, data: bytes) -> None:
        """Exactly these bytes, telnet commands and all."""
        self._raw(data)

    def send(self, text: str | bytes) -> None:
        """Keys as a terminal sends them: a data byte 255 is doubled."""
        data = text.encode("latin-1") if isinstance(text, str) else text
        self._raw(escape_iac(data))

    async def drain(self) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.drain()

    # ------------------------------------------------------------ looking

    @property
    def text(self) -> str:
        assert self._screen is not None, "this caller keeps no screen"
        return "\n".join(self._screen.display)

    def leaked(self) -> bytes | None:
        """Traceback text that reached this caller, if any."""
        for needle in LEAKS:
            if needle in self.data:
                return needle
        return None

    def mark(self) -> int:
        """Note the time the next data byte arrives (as `answered_at`); the data bytes so far."""
        self._mark = len(self.data)
        return self._mark

    async def wait_data(self, since: int, timeout: float = 20.0) -> bool:
        """Wait until more than `since` data bytes have arrived; False on timeout or close."""
        deadline = time.monotonic() + timeout
        while len(self.data) <= since:
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                return False
            self.changed.clear()
            # A timeout scope, not wait_for: no task of its own for every wait (the load bench
            # waits a thousand times a second).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await self.changed.wait()
        return True

    def start_screen(self) -> None:
        """Begin keeping a pyte screen now (a caller made with screen=False), from every byte so far."""
        if self._screen is None:
            self._screen = pyte.Screen(*self.glass)
            self._stream = pyte.Stream(self._screen)
            self._stream.feed(self._text.decode(bytes(self.data)))

    def drop_screen(self) -> None:
        """Stop feeding the pyte screen (it costs CPU); data bytes are still kept."""
        self._stream = None

    def stop_reading(self) -> None:
        """Read nothing more: the terminal has stopped taking output (the window closes)."""
        transport = self.writer.transport
        assert isinstance(transport, asyncio.ReadTransport)  # a socket's transport reads as well as writes
        transport.pause_reading()

    def abort(self) -> None:
        """Drop the connection without a FIN handshake (a caller whose line went dead)."""
        transport = self.writer.transport
        with contextlib.suppress(Exception):
            transport.abort()
        self._pump.cancel()


async def login(caller: RawCaller, handle: str, password: str, new: bool, timeout: float = 30.0) -> None:
    """menus.login, with each step given 30 s: registering queues on the server's scrypt thread."""
    await menus.login(caller, handle, password, new, timeout)


# ---------------------------------------------------------------- what may reach a screen

# The only escape sequences the server itself sends: SGR, cursor moves and positioning,
# erase in line/display, the device-attributes request, hiding and showing the cursor.
_CSI_FINALS = frozenset(b"ABCDHJKmchl")
_CSI_PARAMS = frozenset(b"0123456789;?")


def screen_bytes_problem(data: bytes, charset: str, *, allow_bell: bool = False) -> str | None:
    """Why `data` (telnet commands already removed) could not all be the server's own drawing.

    Every ESC must start one of the server's own CSI sequences; the only other controls are
    CR, LF and backspace (and BEL, a sound, where allowed); the text itself must be printable
    in the caller's character set: no C1 controls, no bidi overrides, no zero-width tricks.
    """
    i, n = 0, len(data)
    text = bytearray()
    while i < n:
        b = data[i]
        if b == 0x1B:
            if i + 1 >= n or data[i + 1] != ord("["):
                return f"ESC not followed by [ at byte {i}: {data[i:i + 12]!r}"
            j = i + 2
            while j < n and data[j] in _CSI_PARAMS:
                j += 1
            if j >= n or data[j] not in _CSI_FINALS or j - i > 24:
                return f"a CSI the server never sends at byte {i}: {data[i:i + 24]!r}"
            i = j + 1
            continue
        if b in (0x0D, 0x0A, 0x08) or (allow_bell and b == 0x07):
            i += 1
            continue
        if b < 0x20 or b == 0x7F:
            return f"control byte {b:#04x} at byte {i}: {data[max(0, i - 12):i + 12]!r}"
        text.append(b)
        i += 1
    if charset == "utf8":
        try:
            decoded = bytes(text).decode("utf-8", "strict")
        except UnicodeDecodeError as err:
            return f"invalid UTF-8 on the screen: {err}"
    elif charset == "ascii":
        if any(b >= 0x80 for b in text):
            return "a byte above 127 on an ASCII screen"
        decoded = bytes(text).decode("ascii")
    else:
        return None  # every CP437 byte from 0x20 up is a glyph
    for ch in decoded:
        if ch != " " and not ch.isprintable():
            return f"non-printable character U+{ord(ch):04X} on the screen"
    return None
