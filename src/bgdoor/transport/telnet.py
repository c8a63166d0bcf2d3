"""The telnet server: many callers at once, each session its own asyncio task."""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import telnetlib3
from telnetlib3.stream_reader import TelnetReader
from telnetlib3.telopt import NAWS

from bgdoor.config import IPNetwork
from bgdoor.term.charset import Charset
from bgdoor.term.console import Link
from bgdoor.transport import telnet_internals as internals
from bgdoor.transport.link import CallerServer, WriterLink, callers
from bgdoor.transport.memory import Collector, Trimmer
from bgdoor.transport.proxy import HEADER_TIMEOUT, ProxyGate, ProxyRefused
from bgdoor.ui.console import Console
from bgdoor.ui.runtime import Runtime
from bgdoor.ui.session import LOGIN_TIME_UP, Session

log = logging.getLogger("bgdoor.telnet")

CP437_TERMS = ("syncterm", "ansi", "ansi-bbs", "pcansi", "pc-ansi", "netrunner", "cterm", "qodem")
UTF8_TERMS = (
    "xterm",
    "rxvt",
    "screen",
    "tmux",
    "linux",
    "vt",
    "putty",
    "konsole",
    "gnome",
    "alacritty",
    "kitty",
    "foot",
    "wezterm",
    "st-",
)


# A screen size a gateway adds to the type for callers it cannot ask (`dumb-80x25`): it says
# how big, not which characters.
_SIZE_SUFFIX = re.compile(r"-?\d{2,3}x\d{2,3}$")


def terminal_name(term: str | None) -> str:
    """The terminal type in lower case, without a screen size it ends in."""
    return _SIZE_SUFFIX.sub("", (term or "").strip().lower())


def named_charset(term: str | None) -> Charset | None:
    """The character set a terminal type names, if it is one we know."""
    t = terminal_name(term)
    if any(t == name or t.startswith(name + "-") for name in CP437_TERMS) or t.startswith("syncterm"):
        return "cp437"
    if any(t.startswith(name) for name in UTF8_TERMS):
        return "utf8"
    return None


def charset_for(term: str | None, lang: str | None) -> Charset:
    """The character set a terminal type most likely wants."""
    known = named_charset(term)
    if known is not None:
        return known
    t = terminal_name(term)
    if lang and "utf-8" in lang.lower().replace("utf8", "utf-8"):
        return "utf8"
    if t in ("dumb", "tty", "ascii"):
        return "ascii"
    return "cp437"  # a BBS terminal that does not say is most likely ANSI-BBS


class ProtocolNoise(logging.Filter):
    """Keeps telnetlib3's complaints about malformed client negotiation to a trickle.

    It logs each one as a warning, and an exception in one a traceback line at a time,
    so a hostile caller could write megabytes of log a second.  Traceback lines are
    dropped, and at most `burst` warnings pass per `window` seconds across all callers.
    """

    def __init__(self, burst: int = 20, window: float = 60.0) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self.started = time.monotonic()
        self.passed = 0
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        text = record.getMessage()
        if text.startswith(" ") or text.startswith("Traceback"):
            return False  # a line of a traceback about a client's malformed bytes
        now = time.monotonic()
        if now - self.started >= self.window:
            if self.dropped:
                record.msg, record.args = f"{text} ({self.dropped} more telnet protocol warnings not logged)", ()
            self.started, self.passed, self.dropped = now, 0, 0
        if self.passed >= self.burst:
            self.dropped += 1
            return False
        self.passed += 1
        return True


_noise = ProtocolNoise()


def quiet_protocol_warnings() -> None:
    """Put the noise filter on every telnetlib3 logger (a logger's filters do not reach its children)."""
    names = [
        name for name in logging.Logger.manager.loggerDict if name == "telnetlib3" or name.startswith("telnetlib3.")
    ]
    for name in names:
        logger = logging.getLogger(name)
        if _noise not in logger.filters:
            logger.addFilter(_noise)


# Bytes a second a caller may send for long, after a burst: far beyond keys and negotiation.
# Past it the connection is not read for a while, so a flood of any bytes at all, telnet
# commands included (which never reach the console's key rate), waits in TCP.
READ_RATE = 32 * 1024
READ_BURST = 128 * 1024


class NegotiationBatch:
    """A caller's transport while telnet negotiation goes on, for telnetlib3's writer alone.

    telnetlib3 sends each option command as a write of its own: nine sends a caller before the
    first screen, each a system call here and a read for the caller.  Here the commands made in
    one go (one packet's answers, one round of requests) leave as one write, at the end of that
    go or, at the latest, at the next turn of the event loop.  Once negotiation has what the
    first screen needs, the batch is held for the shell's first step, so that the last answers
    and the first screen leave as one write; then the shell gets the real transport.
    """

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self._pending = bytearray()
        self.held = False  # flushes wait for release()

    def write(self, data: bytes) -> None:
        if not data:
            return
        if not self._pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self._pending += data

    def release(self) -> None:
        self.held = False
        self.flush()

    def close(self) -> None:
        self.release()
        self.transport.close()

    def flush(self) -> None:
        if self._pending and not self.held:
            data = bytes(self._pending)
            self._pending.clear()
            if not self.transport.is_closing():
                self.transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class MeteredTelnetServer(telnetlib3.TelnetServer):
    """telnetlib3's server protocol, reading each caller at most READ_RATE bytes a second."""

    size_listener: Callable[[int, int], None] | None = None  # told (cols, rows) when NAWS changes
    proxy_trusted: tuple[IPNetwork, ...] = ()  # balancers whose PROXY header names the caller

    window_told = False  # a NAWS subnegotiation has come
    _batch: NegotiationBatch | None = None  # the writer's transport while negotiation goes on
    # Told of the connection once it is made, and once more when its shell begins or it is lost:
    # counted from connection_made, which asyncio always follows with connection_lost, so no
    # connection is counted for good (a factory call can come without either).
    collector: Collector | None = None
    _negotiating = False

    def _settle(self) -> None:
        if self._negotiating and self.collector is not None:
            self._negotiating = False
            self.collector.settled()

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        self.window_told = True
        if self.size_listener is not None:
            self.size_listener(cols, rows)

    def check_negotiation(self, final: bool = False) -> bool:
        done = bool(super().check_negotiation(final)) or self.enough_to_start()
        if done and self._batch is not None:
            self._batch.held = True  # until the shell's first screen is in it too (begin_shell)
        return done

    def enough_to_start(self) -> bool:
        """Whether the first screen can be drawn: it needs the terminal type (the charset) and
        the window size, or their refusal.  ECHO, NEW_ENVIRON and the rest of the terminal type
        cycle settle while the caller reads it, rather than cost every caller another round trip
        first (a terminal that never answers ECHO used to wait out negotiation_wait for it).
        A terminal type we do not know waits for all of it: its LANG may tell the charset."""
        assert self.writer is not None
        term = self.get_extra_info("ttype1")
        if not term or named_charset(term) is None:
            return False
        naws = self.writer.remote_option.get(NAWS)
        return naws is False or (naws is True and self.window_told)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._allowance = float(READ_BURST)
        self._metered_at = time.monotonic()
        self._resume: asyncio.TimerHandle | None = None
        peer = transport.get_extra_info("peername") or ("-", 0)
        self.proxy = ProxyGate(str(peer[0]), self.proxy_trusted)
        loop = asyncio.get_running_loop()
        # The caller's address: the peer's, or the one a trusted balancer's header names; None
        # when the connection was refused for its header.
        self.caller_address: asyncio.Future[str | None] = loop.create_future()
        self._proxy_late: asyncio.TimerHandle | None = None
        if self.proxy.expected:
            self._proxy_late = loop.call_later(HEADER_TIMEOUT, self._refuse_proxy, "no PROXY header within 10 s")
        else:
            self.caller_address.set_result(self.proxy.peer)
        if self.collector is not None:
            self._negotiating = True
            self.collector.connected()
        super().connection_made(transport)
        assert self.writer is not None  # connection_made made it
        internals.stop_line_editing_snoop(self.writer)
        if isinstance(transport, asyncio.Transport):
            self._batch = NegotiationBatch(transport)
            internals.set_writer_transport(self.writer, self._batch)

    def _flush_negotiation(self) -> None:
        if self._batch is not None:
            self._batch.flush()

    def begin_negotiation(self) -> None:
        super().begin_negotiation()
        self._flush_negotiation()

    def begin_advanced_negotiation(self) -> None:
        super().begin_advanced_negotiation()
        self._flush_negotiation()

    def begin_shell(self, future: asyncio.Future[None]) -> None:
        """The session starts: what negotiation wrote goes first, with what the shell writes in
        its first step (the first screen), and then the shell (and the rest of negotiation,
        which goes on meanwhile) writes through the real transport."""
        self._settle()
        super().begin_shell(future)  # the shell's first step is the next callback queued
        if self._batch is not None:
            self._batch.held = True
            asyncio.get_running_loop().call_soon(self._hand_over)

    def _hand_over(self) -> None:
        batch, self._batch = self._batch, None
        if batch is None:
            return
        batch.release()
        if self.writer is not None and internals.writer_transport(self.writer) is batch:
            internals.set_writer_transport(self.writer, batch.transport)

    def _refuse_proxy(self, why: str) -> None:
        log.warning("refused %s: %s", self.proxy.peer, why)
        if not self.caller_address.done():
            self.caller_address.set_result(None)
        transport = internals.protocol_transport(self)
        if transport is not None:
            transport.abort()

    def data_received(self, data: bytes) -> None:
        if not self.proxy.done:
            try:
                data = self.proxy.feed(data)
            except ProxyRefused as why:
                self._refuse_proxy(str(why))
                return
            if self.proxy.done:
                if self._proxy_late is not None:
                    self._proxy_late.cancel()
                if not self.caller_address.done():
                    self.caller_address.set_result(self.proxy.address)
            if not data:
                return
        now = time.monotonic()
        self._allowance = min(float(READ_BURST), self._allowance + (now - self._metered_at) * READ_RATE) - len(data)
        self._metered_at = now
        super().data_received(data)
        self._flush_negotiation()  # this packet's answers, in one write
        transport = internals.protocol_transport(self)
        if self._allowance < 0 and transport is not None and not transport.is_closing():
            transport.pause_reading()
            if self._resume is None:
                self._resume = asyncio.get_running_loop().call_later(-self._allowance / READ_RATE, self._read_again)

    def _read_again(self) -> None:
        self._resume = None
        transport = internals.protocol_transport(self)
        if transport is not None and not transport.is_closing() and not internals.reader_paused(self.reader):
            transport.resume_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self._settle()
        if self._batch is not None:
            # Closed in the shell's first step ('all lines are busy'): the reason goes first.
            self._batch.release()
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None
        if self._proxy_late is not None:
            self._proxy_late.cancel()
        if not self.caller_address.done():
            self.caller_address.set_result(None)
        super().connection_lost(exc)


# The oldest generation is the Collector's to look at (transport/memory.py): it sets the
# survivors aside every few seconds and sweeps them all every ten minutes.  Left to its counts,
# a collection of it came in the middle of 1,000 callers dialling at once and walked all they
# had made, 70-120 ms of a second in which every one of them waited for a first screen.
GC_THRESHOLDS = (10_000, 10, 1_000_000)


class OfferingReader(TelnetReader):
    """telnetlib3's reader, offering what the caller types to a sink (the console) first, as it
    arrives, while nothing received before waits unread; what the sink leaves is read as usual.
    A key then reaches its screen one turn of the event loop sooner: the bare server's two turns
    (bytes in, screen out), not three."""

    sink: Callable[[bytes], bool] | None = None
    unread = 0  # bytes fed to the buffer and not yet returned by read()

    def feed_data(self, data: bytes) -> None:
        if data and self.sink is not None and not self.unread and self.sink(bytes(data)):
            return
        self.unread += len(data)
        super().feed_data(data)

    async def read(self, n: int = -1) -> bytes:
        data = await super().read(n)
        self.unread = max(0, self.unread - len(data))
        return data


class TelnetLink(WriterLink, Link):
    def __init__(self, reader: Any, writer: Any, stall_timeout: float = 600.0) -> None:
        super().__init__(writer, stall_timeout)
        self.reader = reader

    async def read(self) -> bytes:
        try:
            data = await self.reader.read(1024)
        except (ConnectionError, asyncio.IncompleteReadError):
            return b""
        return bytes(data) if data else b""

    def offer_to(self, sink: Callable[[bytes], bool] | None) -> None:
        if isinstance(self.reader, OfferingReader):
            self.reader.sink = sink


def _size(writer: Any, name: str) -> int:
    """The caller's terminal size as NAWS gave it (0, unknown, when it did not)."""
    try:
        return int(writer.get_extra_info(name) or 0)
    except (TypeError, ValueError):
        return 0


class TelnetDoorServer(CallerServer):
    def __init__(self, runtime: Runtime) -> None:
        super().__init__(runtime)
        self.active = 0
        self.per_address: Counter[str] = Counter()
        self.trimmer = Trimmer()
        self.collector = Collector()

    async def start(self, host: str | None = None, port: int | None = None) -> asyncio.Server:
        host = host if host is not None else self.config.host
        port = port if port is not None else self.config.port
        loop = asyncio.get_running_loop()
        quiet_protocol_warnings()
        # Every key redraws a screen of cells, so hundreds of sessions make objects fast; at the
        # default thresholds the collector ran dozens of times a second and its older passes held
        # every caller up for 100-300 ms (bench/load.py, 300 callers: keypress p99 125 ms, ~25 ms
        # with these).
        gc.set_threshold(*GC_THRESHOLDS)
        self.collector.start()

        def factory() -> asyncio.Protocol:
            protocol = MeteredTelnetServer(
                shell=self.shell,
                encoding=False,  # bytes both ways: the console does its own CP437/UTF-8
                # Bytes pass 8-bit either way, so a client that declines BINARY need not
                # make every caller wait out negotiation_wait for it.
                force_binary=True,
                connect_maxwait=self.config.negotiation_wait,
                timeout=0,  # the session has its own idle timeout with a warning
                term="unknown",
                reader_factory=OfferingReader,
            )
            protocol.proxy_trusted = self.config.proxy_trusted
            protocol.collector = self.collector
            return protocol

        # telnetlib3's create_server sets no backlog; hundreds of simultaneous connects need one.
        self.server = await loop.create_server(factory, host or None, port, backlog=2048, reuse_address=True)
        for sock in self.server.sockets:
            log.info("listening on %s", sock.getsockname()[:2])
        return self.server

    async def shell(self, reader: Any, writer: Any) -> None:
        await self.tracked(self._serve(reader, writer))

    async def _serve(self, reader: Any, writer: Any) -> None:
        peer = writer.get_extra_info("peername") or ("-", 0)
        addr: str | None = str(peer[0])
        link = TelnetLink(reader, writer, stall_timeout=self.config.idle_timeout)
        protocol = getattr(writer, "protocol", None)
        if isinstance(protocol, MeteredTelnetServer):
            # Behind a trusted balancer the caller's own address is in the PROXY header.
            addr = await protocol.caller_address
        if addr is None:
            link.close()
            return
        if self.active >= self.config.max_callers:
            log.info("refused %s: all lines busy (max_callers = %d)", addr, self.config.max_callers)
            # Two lines, before the caller's width is known: whole at 40 columns too.
            link.write(b"\r\nSorry, all lines are busy.\r\nPlease call again later.\r\n")
            await link.drain()
            link.close()
            return
        if self.per_address[addr] >= self.config.max_per_address:
            log.info("refused %s: %d connections from that address", addr, self.per_address[addr])
            link.write(b"\r\nToo many connections from your address.\r\n")
            await link.drain()
            link.close()
            return
        self.active += 1
        self.per_address[addr] += 1
        term = writer.get_extra_info("TERM") or writer.get_extra_info("term")
        lang = writer.get_extra_info("LANG")
        charset = charset_for(term, lang)
        log.info("connect %s term=%s charset=%s (%s)", addr, term, charset, callers(self.active))
        console = Console(
            link,
            charset=charset,
            syncterm=str(term or "").lower().startswith("syncterm"),
            idle_timeout=self.config.idle_timeout,
            width=_size(writer, "cols"),
            height=_size(writer, "rows"),
        )
        if isinstance(protocol, MeteredTelnetServer):
            protocol.size_listener = console.resize  # a window resized during the call
        console.sized_live = writer.remote_option.get(NAWS) is True
        session = Session(console, self.runtime, peer=addr)
        self.consoles.add(console)
        # The session's login timeout counts from the last key; a caller who keeps typing but
        # never logs in is cut off here, login_timeout after connecting.
        overdue = asyncio.get_running_loop().call_later(
            self.config.login_timeout, self._login_overdue, session, link, addr
        )
        try:
            await console.start()
            await session.run()
        finally:
            overdue.cancel()
            self.consoles.discard(console)
            self.active -= 1
            self.per_address[addr] -= 1
            if self.per_address[addr] <= 0:
                del self.per_address[addr]
            await console.stop()
            link.close()
            log.info("disconnect %s (%s)", addr, callers(self.active))
            self.trimmer.session_closed(self.active)

    def _login_overdue(self, session: Session, link: TelnetLink, addr: str) -> None:
        if session.player is None:
            log.info("hanging up on %s: not logged in after %.0f s", addr, self.config.login_timeout)
            link.write(f"\r\n\r\n{LOGIN_TIME_UP}\r\n".encode("ascii"))
            link.close()

    async def close(self) -> None:
        self.trimmer.cancel()
        self.collector.stop()
        if self.server is not None:
            self.server.close()
        for task in list(self.sessions):
            task.cancel()
        if self.server is not None:
            await self.server.wait_closed()
