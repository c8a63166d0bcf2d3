"""The door's byte link to its one caller: standard I/O, or a socket the BBS handed down.

Both links satisfy the Console's Link protocol (read, write, drain, close).
Reads return b'' once the caller is gone (EOF, hang-up, broken pipe) and for
ever after; writes after that are dropped, so the session winds down through
its normal EOF path instead of an exception in the middle of drawing.

open_link() should run before the door opens anything else (event loop,
database, log file): a DOOR32.SYS handle number is only trusted while every
descriptor above 2 can only have come from the BBS.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import fcntl
import os
import signal
import socket
import stat
import termios
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bgdoor.transport.dropfile import DropInfo

__all__ = [
    "FdLink",
    "StdioLink",
    "SocketLink",
    "open_link",
    "is_socket_fd",
    "install_hangup",
    "install_resize",
    "raw_attributes",
]

READ_SIZE = 4096


class FdLink:
    """Non-blocking reads and writes on file descriptors, driven by the asyncio loop."""

    def __init__(self, in_fd: int, out_fd: int) -> None:
        self.in_fd = in_fd
        self.out_fd = out_fd
        self._out = bytearray()
        self._eof = False
        self._closed = False
        self._writing = False  # a writer callback is registered for out_fd
        self._loop: asyncio.AbstractEventLoop | None = None
        self._read_waiter: asyncio.Future[None] | None = None
        self._drain_waiters: list[asyncio.Future[None]] = []
        self._saved_flags: list[tuple[int, int]] = []

    # -------------------------------------------------- descriptor flags

    def _set_nonblocking(self, *fds: int) -> None:
        """O_NONBLOCK on each fd, remembering the old flags: the file description may be shared
        with the BBS (or the sysop's shell), which must get it back as it was."""
        seen: set[int] = set()
        for fd in fds:
            if fd in seen:
                continue
            seen.add(fd)
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
            self._saved_flags.append((fd, flags))
            if not flags & os.O_NONBLOCK:
                fcntl.fcntl(fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)

    def _restore_flags(self) -> None:
        for fd, flags in reversed(self._saved_flags):
            with contextlib.suppress(OSError):
                fcntl.fcntl(fd, fcntl.F_SETFL, flags)
        self._saved_flags.clear()

    # -------------------------------------------------- raw I/O (sockets override)

    def _raw_read(self, size: int) -> bytes:
        return os.read(self.in_fd, size)

    def _raw_write(self, data: bytearray) -> int:
        return os.write(self.out_fd, data)

    # -------------------------------------------------- state

    @property
    def hung_up(self) -> bool:
        return self._eof

    def hang_up(self) -> None:
        """The caller is gone: wake a pending read (it returns b'') and drop unsent output."""
        self._eof = True
        self._out.clear()
        self._stop_writing()
        self._wake_reader()
        self._wake_drainers()

    def _get_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    # -------------------------------------------------- reading

    async def read(self) -> bytes:
        while not self._eof:
            try:
                data = self._raw_read(READ_SIZE)
            except (BlockingIOError, InterruptedError):
                await self._wait_readable()
                continue
            except OSError:
                # EIO: the pty's far side closed; ECONNRESET; EBADF once closed.
                data = b""
            if not data:
                self.hang_up()
                return b""
            return data
        return b""

    async def _wait_readable(self) -> None:
        loop = self._get_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        self._read_waiter = waiter
        loop.add_reader(self.in_fd, self._wake_reader)
        try:
            await waiter  # a cancelled wait has read nothing, so no input is lost
        finally:
            self._read_waiter = None
            if not self._closed:
                loop.remove_reader(self.in_fd)

    def _wake_reader(self) -> None:
        waiter = self._read_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    # -------------------------------------------------- writing

    def write(self, data: bytes) -> None:
        if self._eof or self._closed or not data:
            return
        self._out += data
        if not self._writing:
            self._flush()

    def _flush(self) -> None:
        while self._out:
            try:
                sent = self._raw_write(self._out)
            except (BlockingIOError, InterruptedError):
                self._start_writing()
                return
            except OSError:
                # EPIPE (the reader closed), EIO (pty gone), ECONNRESET: a hang-up.
                self.hang_up()
                return
            del self._out[:sent]
        self._stop_writing()
        self._wake_drainers()

    def _start_writing(self) -> None:
        if self._writing:
            return
        try:
            loop = self._get_loop()
        except RuntimeError:
            return  # no loop yet: drain() flushes the rest
        loop.add_writer(self.out_fd, self._flush)
        self._writing = True

    def _stop_writing(self) -> None:
        if self._writing and self._loop is not None:
            self._loop.remove_writer(self.out_fd)
        self._writing = False

    def _wake_drainers(self) -> None:
        for waiter in self._drain_waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._drain_waiters.clear()

    async def drain(self) -> None:
        loop = self._get_loop()
        if self._out and not self._writing:
            self._flush()
        while self._out and not self._eof and not self._closed:
            waiter: asyncio.Future[None] = loop.create_future()
            self._drain_waiters.append(waiter)
            try:
                await waiter
            finally:
                if waiter in self._drain_waiters:
                    self._drain_waiters.remove(waiter)

    # -------------------------------------------------- closing

    def close(self) -> None:
        if self._closed:
            return
        if self._out and not self._eof:
            self._flush_once()
        self._closed = True
        self._stop_writing()
        if self._loop is not None and self._read_waiter is not None:
            self._loop.remove_reader(self.in_fd)
        self._eof = True
        self._out.clear()
        self._wake_reader()
        self._wake_drainers()
        self._release()

    def _flush_once(self) -> None:
        """One last try at unsent output, without waiting for the caller."""
        with contextlib.suppress(OSError):
            while self._out:
                sent = self._raw_write(self._out)
                if sent <= 0:
                    break
                del self._out[:sent]

    def _release(self) -> None:
        self._restore_flags()

    def __enter__(self) -> FdLink:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def raw_attributes(attrs: list[Any]) -> list[Any]:
    """termios attributes for a raw byte link, as cfmakeraw would set them.

    Input: no CR-to-LF (ENiGMA½'s cooked pty turns the caller's Enter into LF),
    no echo, no line editing, no signals from ^C/^Z/^\\, no XON/XOFF (^S and ^Q
    are keys). Output: no post-processing; the door sends its own CR LF, and
    ONLCR would double the CR.
    """
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = attrs
    iflag &= ~(
        termios.IGNBRK | termios.BRKINT | termios.PARMRK | termios.ISTRIP
        | termios.INLCR | termios.IGNCR | termios.ICRNL | termios.IXON | termios.IXOFF
    )
    oflag &= ~termios.OPOST
    lflag &= ~(termios.ECHO | termios.ECHONL | termios.ICANON | termios.ISIG | termios.IEXTEN)
    cflag &= ~(termios.CSIZE | termios.PARENB)
    cflag |= termios.CS8
    cc = list(cc)
    cc[termios.VMIN] = 1
    cc[termios.VTIME] = 0
    return [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]


class StdioLink(FdLink):
    """The caller on standard input and output, as most Linux BBSes run a door.

    A terminal (the BBS's pty, or the sysop's console in local mode) is put in
    raw mode and given back as it was on close(), on leaving a `with` block,
    and, failing both, at interpreter exit.
    """

    def __init__(self, in_fd: int = 0, out_fd: int = 1, *, raw: bool = True) -> None:
        super().__init__(in_fd, out_fd)
        self._saved_tty: list[tuple[int, list[Any]]] = []
        try:
            if raw:
                self._make_raw()
            self._set_nonblocking(in_fd, out_fd)
        except BaseException:
            self._restore()
            raise
        atexit.register(self._restore)

    def terminal_size(self) -> tuple[int, int]:
        """(columns, rows) of the terminal on standard output, (0, 0) when it is no terminal."""
        try:
            size = os.get_terminal_size(self.out_fd)
        except OSError:
            return 0, 0
        return size.columns, size.lines

    def _make_raw(self) -> None:
        devices: set[int] = set()
        for fd in (self.in_fd, self.out_fd):
            if not os.isatty(fd):
                continue
            device = os.fstat(fd).st_rdev
            if device in devices:
                continue
            devices.add(device)
            attrs = termios.tcgetattr(fd)
            self._saved_tty.append((fd, attrs))
            # TCSANOW, not TCSAFLUSH: keys the caller typed ahead must not be thrown away.
            termios.tcsetattr(fd, termios.TCSANOW, raw_attributes(attrs))

    @property
    def raw(self) -> bool:
        return bool(self._saved_tty)

    def _restore(self) -> None:
        for fd, attrs in reversed(self._saved_tty):
            with contextlib.suppress(OSError, termios.error):
                termios.tcsetattr(fd, termios.TCSANOW, attrs)
        self._saved_tty.clear()
        self._restore_flags()

    def _release(self) -> None:
        self._restore()
        atexit.unregister(self._restore)


class SocketLink(FdLink):
    """A connected socket the BBS let the door inherit (DOOR32.SYS comm type 2).

    The BBS still holds the connection: closing the link closes only the
    door's descriptor (no shutdown), and the descriptor's blocking mode is put
    back first because the BBS shares it.
    """

    def __init__(self, sock: socket.socket, *, close_socket: bool = True) -> None:
        fd = sock.fileno()
        super().__init__(fd, fd)
        self.sock = sock
        self._close_socket = close_socket
        self._set_nonblocking(fd)
        sock.settimeout(0.0)  # the object's own idea of blocking, to match the descriptor
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            with contextlib.suppress(OSError):  # keystrokes and small screen updates go out at once
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    @classmethod
    def from_fd(cls, fd: int) -> SocketLink:
        return cls(socket.socket(fileno=fd))

    def _raw_read(self, size: int) -> bytes:
        return self.sock.recv(size)

    def _raw_write(self, data: bytearray) -> int:
        return self.sock.send(data)

    def _release(self) -> None:
        self._restore_flags()
        if self._close_socket:
            with contextlib.suppress(OSError):
                self.sock.close()


def is_socket_fd(fd: int | None) -> bool:
    """Whether fd is an open, connected stream socket that this process may use."""
    if fd is None or fd < 0:
        return False
    try:
        if not stat.S_ISSOCK(os.fstat(fd).st_mode):
            return False
    except OSError:  # EBADF: not open in this process (the BBS did not pass it down)
        return False
    try:
        probe = socket.socket(fileno=fd)
    except OSError:
        return False
    try:
        if probe.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE) != socket.SOCK_STREAM:
            return False
        probe.getpeername()  # ENOTCONN for a listening or unconnected socket
        return True
    except OSError:
        return False
    finally:
        probe.detach()  # only looked at it: the descriptor stays open


def open_link(info: DropInfo, local: bool = False, *, stdin_fd: int = 0, stdout_fd: int = 1) -> FdLink:
    """The link for this door run.

    Local mode (the drop file says so, or --local): standard I/O, where the
    sysop sits at the console. A telnet comm type whose handle is a real
    connected socket in this process: that socket (Synchronet's socket I/O,
    Maximus, Mystic on some systems). Anything else, including ENiGMA½'s
    comm type 2 with handle -1 and a handle number that is closed or not a
    socket here: standard I/O, in raw mode when it is a terminal.
    """
    if local or info.comm_type == "local":
        return StdioLink(stdin_fd, stdout_fd)
    if info.comm_type == "telnet" and is_socket_fd(info.handle):
        assert info.handle is not None
        return SocketLink.from_fd(info.handle)
    return StdioLink(stdin_fd, stdout_fd)


def install_hangup(
    loop: asyncio.AbstractEventLoop, callback: Callable[[], object], closing: Callable[[], object] | None = None
) -> Callable[[], None]:
    """Call `callback` on SIGHUP (the BBS or the terminal hung up), and `closing` (else `callback`)
    on SIGTERM (the BBS closing the door: a sysop's 'kick node', a shutdown, the caller still
    on the line); SIGTERM had killed the door outright.  Returns the undo, which leaves both
    signals ignored, not at their default: the door is on its way out, and a second SIGHUP (the
    pty closing after the BBS's) had killed it after its log said it ended cleanly.

    Where signals cannot be handled (not the main thread), this does nothing:
    the link still sees the hang-up as EOF or EIO on its next read.
    """
    undo = [_on_signal(loop, signal.SIGHUP, callback, ignore_after=True),
            _on_signal(loop, signal.SIGTERM, closing or callback, ignore_after=True)]

    def remove() -> None:
        for each in undo:
            each()

    return remove


def _on_signal(
    loop: asyncio.AbstractEventLoop, signum: int, callback: Callable[[], object], *, ignore_after: bool = False
) -> Callable[[], None]:
    """Call `callback` on `signum`; returns the undo, which puts back the default action, or with
    `ignore_after` SIG_IGN (nothing is done where signals cannot be handled)."""
    try:
        loop.add_signal_handler(signum, callback)
    except (NotImplementedError, RuntimeError, ValueError):
        return lambda: None

    def remove() -> None:
        mask: set[int | signal.Signals] | None = None
        if ignore_after:
            # Blocked while the loop's removal puts SIG_DFL back, for the moment before SIG_IGN.
            with contextlib.suppress(AttributeError, OSError, ValueError):
                mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signum})
        try:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signum)
            if ignore_after:
                with contextlib.suppress(OSError, ValueError):
                    signal.signal(signum, signal.SIG_IGN)
        finally:
            if mask is not None:
                with contextlib.suppress(OSError, ValueError):
                    signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    return remove


def install_resize(
    loop: asyncio.AbstractEventLoop, link: FdLink, resize: Callable[[int, int], object]
) -> Callable[[], None]:
    """Call `resize(columns, rows)` with the terminal's new size on SIGWINCH. Returns the undo.

    Only a StdioLink on a terminal has a size to read again; for anything else, and where
    signals cannot be handled, this does nothing.  A terminal that tells no size yet (0x0) is
    followed too: the size it gives later is taken (the door had drawn on at the drop file's).
    """
    if not isinstance(link, StdioLink) or not os.isatty(link.out_fd):
        return lambda: None

    def resized() -> None:
        cols, rows = link.terminal_size()
        if cols > 0 and rows > 0:
            resize(cols, rows)

    return _on_signal(loop, signal.SIGWINCH, resized)
