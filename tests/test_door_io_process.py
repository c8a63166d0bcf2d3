"""A door process as a BBS runs it: on a cooked pty (ENiGMA½, Mystic) or with an inherited socket."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import termios
import textwrap
import time
from pathlib import Path

# A tiny door: reads the drop file, opens its link the way `bgdoor door` will, answers each
# chunk of input with its repr, and quits on 'q'.
DOOR = textwrap.dedent(
    """
    import asyncio, sys
    from bgdoor.transport.dropfile import read_dropfile
    from bgdoor.transport.door_io import open_link, install_hangup

    info = read_dropfile(sys.argv[1])
    link = open_link(info)  # before the event loop opens descriptors of its own

    async def main():
        install_hangup(asyncio.get_running_loop(), link.hang_up)
        link.write(f"hello {info.alias} via {type(link).__name__}\\r\\n".encode())
        await link.drain()
        while True:
            data = await link.read()
            if not data:
                break
            link.write(repr(data).encode() + b"\\r\\n")
            await link.drain()
            if b"q" in data:
                break
        link.close()

    asyncio.run(main())
    """
)


def door32(path: Path, comm: int, handle: int) -> Path:
    lines = [str(comm), str(handle), "115200", "Test BBS", "1", "Joe Bloggs", "Joe", "20", "60", "1", "1"]
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    return path


def read_until(fd: int, marker: bytes, timeout: float = 10.0) -> bytes:
    got = b""
    deadline = time.monotonic() + timeout
    while marker not in got and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
    return got


def test_stdio_door_on_a_cooked_pty(tmp_path: Path) -> None:
    # ENiGMA½: comm type 2, handle -1, the door's stdin and stdout a pty in cooked mode.
    dropfile = door32(tmp_path / "door32.sys", 2, -1)
    master, slave = os.openpty()
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen(
        [sys.executable, "-c", DOOR, str(dropfile)], stdin=slave, stdout=slave, stderr=subprocess.PIPE
    )
    try:
        assert b"hello Joe via StdioLink\r\n" in read_until(master, b"StdioLink\r\n")
        os.write(master, b"\r")
        reply = read_until(master, b"\r\n")
        assert reply == b"b'\\r'\r\n"  # no echo, CR not turned into LF, no CR added by the pty
        os.write(master, b"q")
        assert read_until(master, b"\r\n") == b"b'q'\r\n"
        assert proc.wait(10) == 0, proc.stderr.read() if proc.stderr else b""
        assert termios.tcgetattr(slave) == before  # the terminal is given back cooked
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()
        os.close(master)
        os.close(slave)


def test_socket_door_with_an_inherited_handle(tmp_path: Path) -> None:
    # Synchronet / Maximus: the caller's socket is passed down and named in DOOR32.SYS.
    caller, door_end = socket.socketpair()
    dropfile = door32(tmp_path / "door32.sys", 2, door_end.fileno())
    proc = subprocess.Popen(
        [sys.executable, "-c", DOOR, str(dropfile)],
        pass_fds=[door_end.fileno()],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    door_end.close()
    try:
        assert b"hello Joe via SocketLink\r\n" in read_until(caller.fileno(), b"SocketLink\r\n")
        caller.sendall(b"\x1b[A")
        assert read_until(caller.fileno(), b"\r\n") == b"b'\\x1b[A'\r\n"
        caller.sendall(b"q")
        assert read_until(caller.fileno(), b"\r\n") == b"b'q'\r\n"
        assert proc.wait(10) == 0
        assert proc.stdout is not None and proc.stdout.read() == b""  # nothing went to stdout
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()
        caller.close()


def test_stdio_door_hung_up_by_sighup(tmp_path: Path) -> None:
    dropfile = door32(tmp_path / "door32.sys", 2, -1)
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", DOOR, str(dropfile)], stdin=slave, stdout=slave, stderr=subprocess.PIPE
    )
    try:
        read_until(master, b"StdioLink\r\n")
        proc.send_signal(1)  # SIGHUP
        assert proc.wait(10) == 0  # a clean exit through the link's EOF, not death by signal
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()
        os.close(master)
        os.close(slave)
