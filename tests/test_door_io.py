"""The door's byte links: stdio over a pty and over pipes, an inherited socket, and the choice."""

from __future__ import annotations

import asyncio
import fcntl
import os
import select
import signal
import socket
import subprocess
import sys
import termios
import textwrap
import threading
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from bgdoor.transport.door_io import SocketLink, StdioLink, install_hangup, is_socket_fd, open_link
from bgdoor.transport.dropfile import CommType, DropInfo

T = TypeVar("T")


def drop(comm_type: CommType = "telnet", handle: int | None = -1) -> DropInfo:
    return DropInfo(
        kind="DOOR32.SYS",
        alias="Joe",
        real_name="Joe Bloggs",
        comm_type=comm_type,
        handle=handle,
        baud=115200,
        node=1,
        minutes_left=60,
        emulation="ansi",
        bbs_name="Test BBS",
        security=20,
    )


def run(coro: Awaitable[T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, timeout=10))


def nonblocking(fd: int) -> bool:
    return bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK)


def readable(fd: int, timeout: float = 0.2) -> bool:
    return bool(select.select([fd], [], [], timeout)[0])


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, int]]:
    master, slave = os.openpty()
    yield master, slave
    for fd in (master, slave):
        try:
            os.close(fd)
        except OSError:
            pass


@pytest.fixture
def pipes() -> Iterator[tuple[int, int, int, int]]:
    """(caller_writes, door_reads, door_writes, caller_reads)"""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    yield in_w, in_r, out_w, out_r
    for fd in (in_r, in_w, out_r, out_w):
        try:
            os.close(fd)
        except OSError:
            pass


# ------------------------------------------------------------------ stdio over a pty


def test_pty_raw_mode_set_and_restored(pty_pair: tuple[int, int]) -> None:
    master, slave = pty_pair
    before = termios.tcgetattr(slave)
    assert before[3] & termios.ECHO and before[3] & termios.ICANON  # a fresh pty is cooked
    link = StdioLink(slave, slave)
    raw = termios.tcgetattr(slave)
    assert link.raw
    assert not raw[3] & (termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN)
    assert not raw[0] & (termios.ICRNL | termios.IXON | termios.INLCR | termios.IGNCR)
    assert not raw[1] & termios.OPOST
    assert raw[2] & termios.CSIZE == termios.CS8
    assert raw[6][termios.VMIN] == 1 and raw[6][termios.VTIME] == 0
    assert nonblocking(slave)
    link.close()
    assert termios.tcgetattr(slave) == before
    assert not nonblocking(slave)
    link.close()  # twice is harmless


def test_pty_as_separate_stdin_and_stdout(pty_pair: tuple[int, int]) -> None:
    # A BBS dups one pty onto fds 0, 1 and 2: two numbers, one terminal, one file description.
    master, slave = pty_pair
    out = os.dup(slave)
    try:
        before = termios.tcgetattr(slave)
        link = StdioLink(slave, out)
        assert nonblocking(slave) and nonblocking(out)
        link.close()
        assert termios.tcgetattr(slave) == before
        assert not nonblocking(slave) and not nonblocking(out)
    finally:
        os.close(out)


def test_pty_bytes_pass_unchanged(pty_pair: tuple[int, int]) -> None:
    # ENiGMA½'s cooked pty would turn CR into LF and echo every key; raw mode stops both.
    master, slave = pty_pair

    async def main() -> None:
        with StdioLink(slave, slave) as link:
            os.write(master, b"\r\x03\x11\x13\xb0")
            assert await link.read() == b"\r\x03\x11\x13\xb0"
            assert not readable(master, 0.1)  # nothing echoed
            link.write(b"A\r\nB\n\xdb")
            await link.drain()
            await asyncio.sleep(0.05)
            assert os.read(master, 100) == b"A\r\nB\n\xdb"  # no CR added before LF

    run(main())


def test_pty_restored_after_an_exception(pty_pair: tuple[int, int]) -> None:
    master, slave = pty_pair
    before = termios.tcgetattr(slave)
    with pytest.raises(RuntimeError), StdioLink(slave, slave):
        assert termios.tcgetattr(slave) != before
        raise RuntimeError("boom")
    assert termios.tcgetattr(slave) == before


def test_pty_restored_at_exit_without_close(tmp_path: Path) -> None:
    # The atexit safety net: a door that dies without closing its link still gives the
    # terminal back. The check runs in an exit handler registered first, so it runs last.
    script = textwrap.dedent(
        """
        import atexit, os, termios, sys
        from bgdoor.transport.door_io import StdioLink
        master, slave = os.openpty()
        before = termios.tcgetattr(slave)
        def check():
            ok = termios.tcgetattr(slave) == before
            sys.stdout.write("restored" if ok else "still raw")
            sys.stdout.flush()
        atexit.register(check)
        link = StdioLink(slave, slave)
        assert termios.tcgetattr(slave) != before
        raise SystemExit(3)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    assert result.returncode == 3, result.stderr
    assert result.stdout == "restored"


def test_pty_hang_up_reads_eof(pty_pair: tuple[int, int]) -> None:
    master, slave = pty_pair

    async def main() -> None:
        link = StdioLink(slave, slave)
        reader = asyncio.ensure_future(link.read())
        await asyncio.sleep(0.05)
        os.close(master)  # the BBS's side of the pty goes away
        assert await reader == b""
        assert link.hung_up
        assert await link.read() == b""
        link.write(b"into the void")  # dropped, no exception
        await link.drain()
        link.close()

    run(main())


def test_local_mode_on_a_terminal_is_raw(pty_pair: tuple[int, int]) -> None:
    master, slave = pty_pair
    link = open_link(drop(comm_type="local", handle=None), stdin_fd=slave, stdout_fd=slave)
    assert isinstance(link, StdioLink) and link.raw
    link.close()


def test_enigma_stdio_door_gets_raw_stdio(pty_pair: tuple[int, int]) -> None:
    # ENiGMA½: DOOR32.SYS comm type 2 with handle -1, the door on a cooked pty.
    master, slave = pty_pair
    before = termios.tcgetattr(slave)
    link = open_link(drop(comm_type="telnet", handle=-1), stdin_fd=slave, stdout_fd=slave)
    assert isinstance(link, StdioLink)
    assert not termios.tcgetattr(slave)[0] & termios.ICRNL
    link.close()
    assert termios.tcgetattr(slave) == before


# ------------------------------------------------------------------ stdio over pipes


def test_pipes_read_write_and_eof(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes

    async def main() -> None:
        link = StdioLink(door_r, door_w)
        assert not link.raw  # pipes are not terminals
        os.write(caller_w, b"hello")
        assert await link.read() == b"hello"
        link.write(b"\x1b[2Jworld")
        await link.drain()
        assert os.read(caller_r, 100) == b"\x1b[2Jworld"
        os.close(caller_w)
        assert await link.read() == b""
        assert await link.read() == b""
        link.close()

    run(main())
    assert not nonblocking(door_r) and not nonblocking(door_w)


def test_pipes_large_write_drains_in_order(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes
    payload = bytes(range(256)) * 4096  # 1 MiB, far beyond a pipe's buffer

    async def main() -> None:
        link = StdioLink(door_r, door_w)
        loop = asyncio.get_running_loop()
        received = bytearray()
        done = asyncio.Event()

        def on_readable() -> None:
            received.extend(os.read(caller_r, 65536))
            if len(received) >= len(payload):
                done.set()

        os.set_blocking(caller_r, False)
        loop.add_reader(caller_r, on_readable)
        link.write(payload[:300_000])
        link.write(payload[300_000:])
        await link.drain()
        await asyncio.wait_for(done.wait(), 5)
        loop.remove_reader(caller_r)
        link.close()
        assert bytes(received) == payload

    run(main())


def test_pipes_broken_pipe_is_a_hang_up(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes

    async def main() -> None:
        link = StdioLink(door_r, door_w)
        reader = asyncio.ensure_future(link.read())
        await asyncio.sleep(0.02)
        os.close(caller_r)  # the BBS stopped reading: EPIPE on the next write
        link.write(b"anyone there?")
        await link.drain()
        assert link.hung_up
        assert await reader == b""
        assert await link.read() == b""
        link.close()

    run(main())


def test_pipes_drain_waits_for_a_slow_reader(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes

    async def main() -> None:
        link = StdioLink(door_r, door_w)
        link.write(b"x" * 200_000)
        drained = asyncio.ensure_future(link.drain())
        await asyncio.sleep(0.05)
        assert not drained.done()  # the pipe is full and nobody reads
        total = 0
        os.set_blocking(caller_r, False)
        while total < 200_000:
            await asyncio.sleep(0.001)
            try:
                total += len(os.read(caller_r, 65536))
            except BlockingIOError:
                pass
        await drained
        link.close()

    run(main())


def test_cancelled_read_loses_nothing(pipes: tuple[int, int, int, int]) -> None:
    # The console waits for a key with a timeout (a lone ESC); a cancelled read must not eat input.
    caller_w, door_r, door_w, caller_r = pipes

    async def main() -> None:
        link = StdioLink(door_r, door_w)
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(link.read(), 0.05)
        os.write(caller_w, b"k")
        assert await asyncio.wait_for(link.read(), 1) == b"k"
        link.close()

    run(main())


def test_close_wakes_a_pending_read(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes

    async def main() -> None:
        link = StdioLink(door_r, door_w)
        reader = asyncio.ensure_future(link.read())
        await asyncio.sleep(0.02)
        link.close()
        assert await reader == b""

    run(main())


def test_regular_file_as_stdin(tmp_path: Path, pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes
    path = tmp_path / "keys"
    path.write_bytes(b"abc")
    fd = os.open(path, os.O_RDONLY)
    try:

        async def main() -> None:
            link = StdioLink(fd, door_w)
            assert await link.read() == b"abc"
            assert await link.read() == b""
            link.close()

        run(main())
    finally:
        os.close(fd)


def test_hang_up_method(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes

    async def main() -> None:
        link = StdioLink(door_r, door_w)
        reader = asyncio.ensure_future(link.read())
        await asyncio.sleep(0.02)
        link.hang_up()
        assert await reader == b""
        link.close()

    run(main())


# ------------------------------------------------------------------ inherited socket


def test_socket_link_over_socketpair() -> None:
    caller, door = socket.socketpair()
    fd = door.detach()  # the door process knows only the number, as in DOOR32.SYS

    async def main() -> None:
        link = open_link(drop(handle=fd))
        assert isinstance(link, SocketLink)
        caller.sendall(b"\r")
        assert await link.read() == b"\r"
        link.write(b"\x1b[1;1H" + b"\xcd" * 5000)
        await link.drain()
        got = b""
        caller.settimeout(2)
        while len(got) < 5006:
            got += caller.recv(65536)
        assert got == b"\x1b[1;1H" + b"\xcd" * 5000
        caller.close()
        assert await link.read() == b""
        assert link.hung_up
        link.close()

    try:
        run(main())
    finally:
        caller.close()
    with pytest.raises(OSError):
        os.fstat(fd)  # the door's copy is closed


def test_socket_link_puts_blocking_mode_back() -> None:
    # The BBS shares the descriptor: after the door it must find it as it left it.
    caller, door = socket.socketpair()
    try:
        assert door.getblocking()
        link = SocketLink(socket.socket(fileno=os.dup(door.fileno())))
        assert nonblocking(door.fileno())
        link.close()
        assert not nonblocking(door.fileno())
    finally:
        caller.close()
        door.close()


def test_socket_link_peer_reset_is_a_hang_up() -> None:
    caller, door = socket.socketpair()
    fd = door.detach()

    async def main() -> None:
        link = SocketLink.from_fd(fd)
        caller.close()
        link.write(b"x" * 100_000)
        await link.drain()
        assert link.hung_up
        assert await link.read() == b""
        link.close()

    run(main())


# ------------------------------------------------------------------ choosing the link


def test_open_link_handle_minus_one_is_stdio(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes
    link = open_link(drop(handle=-1), stdin_fd=door_r, stdout_fd=door_w)
    assert isinstance(link, StdioLink)
    link.close()


def test_open_link_closed_fd_is_stdio(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes
    fd = os.open(os.devnull, os.O_RDONLY)
    os.close(fd)
    assert not is_socket_fd(fd)
    link = open_link(drop(handle=fd), stdin_fd=door_r, stdout_fd=door_w)
    assert isinstance(link, StdioLink)
    link.close()


def test_open_link_regular_file_fd_is_stdio(tmp_path: Path, pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes
    fd = os.open(tmp_path / "f", os.O_RDWR | os.O_CREAT)
    try:
        assert not is_socket_fd(fd)
        link = open_link(drop(handle=fd), stdin_fd=door_r, stdout_fd=door_w)
        assert isinstance(link, StdioLink)
        link.close()
        os.fstat(fd)  # left open: not ours to close
    finally:
        os.close(fd)


def test_open_link_listening_socket_is_stdio(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert not is_socket_fd(listener.fileno())
        link = open_link(drop(handle=listener.fileno()), stdin_fd=door_r, stdout_fd=door_w)
        assert isinstance(link, StdioLink)
        link.close()


def test_open_link_tcp_socket(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        caller = socket.create_connection(listener.getsockname())
        accepted, _ = listener.accept()
        fd = accepted.detach()

        async def main() -> None:
            link = open_link(drop(handle=fd), stdin_fd=door_r, stdout_fd=door_w)
            assert isinstance(link, SocketLink)
            caller.sendall(b"hi")
            assert await link.read() == b"hi"
            link.write(b"ok")
            await link.drain()
            caller.settimeout(2)
            assert caller.recv(10) == b"ok"
            link.close()

        try:
            run(main())
        finally:
            caller.close()


def test_open_link_local_ignores_a_socket(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes
    a, b = socket.socketpair()
    try:
        for info, local in ((drop(handle=b.fileno()), True), (drop(comm_type="local", handle=b.fileno()), False)):
            link = open_link(info, local, stdin_fd=door_r, stdout_fd=door_w)
            assert isinstance(link, StdioLink)
            link.close()
        assert is_socket_fd(b.fileno())
    finally:
        a.close()
        b.close()


def test_open_link_serial_is_stdio(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes
    a, b = socket.socketpair()
    try:
        link = open_link(drop(comm_type="serial", handle=b.fileno()), stdin_fd=door_r, stdout_fd=door_w)
        assert isinstance(link, StdioLink)
        link.close()
    finally:
        a.close()
        b.close()


def test_is_socket_fd_edge_cases() -> None:
    assert not is_socket_fd(None)
    assert not is_socket_fd(-1)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        assert not is_socket_fd(udp.fileno())
        os.fstat(udp.fileno())  # still open after the look
    finally:
        udp.close()


# ------------------------------------------------------------------ SIGHUP


def test_install_hangup() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        heard = asyncio.Event()
        remove = install_hangup(loop, heard.set)
        try:
            os.kill(os.getpid(), signal.SIGHUP)
            await asyncio.wait_for(heard.wait(), 2)
        finally:
            remove()

    previous = signal.getsignal(signal.SIGHUP)
    try:
        run(main())
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_install_hangup_wakes_the_link(pipes: tuple[int, int, int, int]) -> None:
    caller_w, door_r, door_w, caller_r = pipes

    async def main() -> None:
        loop = asyncio.get_running_loop()
        link = StdioLink(door_r, door_w)
        remove = install_hangup(loop, link.hang_up)
        try:
            reader = asyncio.ensure_future(link.read())
            await asyncio.sleep(0.02)
            os.kill(os.getpid(), signal.SIGHUP)
            assert await asyncio.wait_for(reader, 2) == b""
        finally:
            remove()
            link.close()

    previous = signal.getsignal(signal.SIGHUP)
    try:
        run(main())
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_install_hangup_off_the_main_thread_is_a_no_op() -> None:
    results: list[object] = []

    def worker() -> None:
        async def main() -> None:
            remove = install_hangup(asyncio.get_running_loop(), lambda: None)
            remove()
            results.append("ok")

        asyncio.run(main())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(10)
    assert results == ["ok"]


def test_install_hangup_undo_leaves_the_signals_ignored() -> None:
    """The door is on its way out: a SIGHUP or SIGTERM then (the pty closing) had killed it."""

    async def main() -> None:
        remove = install_hangup(asyncio.get_running_loop(), lambda: None)
        remove()
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGHUP)  # ignored, not the end of this process

    previous = signal.getsignal(signal.SIGHUP), signal.getsignal(signal.SIGTERM)
    try:
        run(main())
    finally:
        signal.signal(signal.SIGHUP, previous[0])
        signal.signal(signal.SIGTERM, previous[1])
