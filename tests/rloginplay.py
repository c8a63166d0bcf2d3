"""A raw RLogin caller (RFC 1282) on a bare socket, as a member BBS's gateway sends one.

It sends exactly the handshake bytes it is given, keeps every byte it receives, and feeds
what follows the server's NUL to a pyte screen (80x24 unless told otherwise).  Like a client
that supports RFC 1282's window sizes, it can look for the server's urgent 0x80 request and
send the 12-byte window-change message.
"""

from __future__ import annotations

import asyncio
import codecs
import select
import socket
import time

import pyte
from screenwait import ScreenWaits


def handshake(client_user: str, server_user: str, terminal: str = "ansi-bbs/115200") -> bytes:
    return b"\0" + client_user.encode() + b"\0" + server_user.encode() + b"\0" + terminal.encode() + b"\0"


class RLoginCaller(ScreenWaits):
    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, charset: str, rows: int, cols: int = 80
    ) -> None:
        self.reader = reader
        self.writer: asyncio.StreamWriter = writer
        self.data = bytearray()
        self.closed = False
        self.changed = asyncio.Event()
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)
        self._text = codecs.getincrementaldecoder("utf-8" if charset == "utf8" else "cp437")("replace")
        self._pump = asyncio.ensure_future(self._read())
        self.urgent: int | None = None  # the urgent byte the server sent, when asked to wait for one

    @classmethod
    async def connect(
        cls,
        port: int,
        data: bytes | None = None,
        *,
        charset: str = "cp437",
        rows: int = 24,
        cols: int = 80,
        source: str | None = None,
        urgent_wait: float = 0.0,
    ) -> RLoginCaller:
        """Connect and send `data` (a whole handshake, or any bytes at all); rows x cols: the pyte
        screen, which may be larger than the window the server is told of, so overflow shows.

        urgent_wait: first wait up to this long for an urgent (out-of-band) byte, kept in
        `urgent`.  It must be read before the data after it is, or the kernel drops it."""
        if not urgent_wait:
            local = (source, 0) if source is not None else None
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local)
            caller = cls(reader, writer, charset, rows, cols)
            if data:
                caller.send(data)
            return caller
        sock = socket.socket()
        if source is not None:
            sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(data or b"")
        got = await asyncio.to_thread(_urgent_byte, sock, urgent_wait)
        reader, writer = await asyncio.open_connection(sock=sock)
        caller = cls(reader, writer, charset, rows, cols)
        caller.urgent = got
        return caller

    async def _read(self) -> None:
        try:
            while True:
                chunk = await self.reader.read(65536)
                if not chunk:
                    break
                start = len(self.data)
                self.data += chunk
                # The screen begins after the server's NUL, the first byte it sends.
                shown = chunk if start else chunk[1:] if chunk[:1] == b"\0" else chunk
                self.stream.feed(self._text.decode(bytes(shown)))
                self.changed.set()
        except (ConnectionError, OSError):
            pass
        finally:
            self.closed = True
            self.changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    @property
    def acknowledged(self) -> bool:
        return self.data[:1] == b"\0"

    def send_window(self, cols: int, rows: int, split: int = 12) -> None:
        """RFC 1282's window-change message (0xFF 0xFF 's' 's', rows, cols, pixels), sent as two
        writes at `split` when below 12, as a slow link may deliver it."""
        message = b"\xff\xffss" + rows.to_bytes(2, "big") + cols.to_bytes(2, "big") + bytes(4)
        self.send(message[:split])
        if split < len(message):
            asyncio.get_running_loop().call_later(0.1, self.send, message[split:])

    def send(self, data: bytes | str) -> None:
        self.writer.write(data.encode("latin-1") if isinstance(data, str) else data)


def _urgent_byte(sock: socket.socket, timeout: float) -> int | None:
    """The urgent byte, once the kernel flags one (select's exceptional condition)."""
    end = time.monotonic() + timeout
    while (left := end - time.monotonic()) > 0:
        _, _, flagged = select.select([], [], [sock], left)
        if flagged:
            try:
                return sock.recv(1, socket.MSG_OOB)[0]
            except OSError:  # flagged before the byte itself arrived
                time.sleep(0.01)
    return None
