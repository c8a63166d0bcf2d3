"""Run `bgdoor door` as a BBS would: a subprocess on a pty (or a socket), read through pyte."""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte


def door32(
    path: Path, alias: str, *, comm: int = 2, handle: int = -1, minutes: int = 60, emulation: int = 1, node: int = 1
) -> Path:
    lines = [
        str(comm),
        str(handle),
        "38400",
        "Mystic 1.12",
        "7",
        f"{alias} Realname",
        alias,
        "20",
        str(minutes),
        str(emulation),
        str(node),
    ]
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("ascii"))
    return path


class Screen:
    def __init__(self, charset: str = "cp437", cols: int = 80, rows: int = 25) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)
        self.decoder = codecs.getincrementaldecoder("cp437" if charset == "cp437" else "utf-8")(errors="replace")
        self.raw = bytearray()

    def feed(self, data: bytes) -> None:
        self.raw += data
        self.stream.feed(self.decoder.decode(data))

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)


def _take_terminal() -> None:
    """In the child, after setsid: standard input's pty becomes the controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyDoor:
    """`bgdoor door` with its stdin and stdout on a pty, as ENiGMA and Synchronet run stdio doors."""

    def __init__(self, dropfile: Path, db_url: str | None, log: Path | None, *extra: str, charset: str = "cp437",
                 cwd: Path | None = None, size: tuple[int, int] | None = None, controlling: bool = False,
                 glass: tuple[int, int] | None = None) -> None:
        """db_url, log None: leave --db, --log out; size: (columns, rows) of the pty and the screen;
        controlling: the pty is the door's controlling terminal (as a BBS's forkpty makes it), so
        a resize sends it SIGWINCH; glass: the screen's (columns, rows), when larger than size."""
        self.master, slave = pty.openpty()
        if size is not None:
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        where = [*(["--db", db_url] if db_url is not None else []), *(["--log", str(log)] if log is not None else [])]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bgdoor", "door", "--dropfile", str(dropfile), *where, *extra],
            stdin=slave,
            stdout=slave,
            stderr=subprocess.PIPE,
            close_fds=True,
            cwd=cwd,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=controlling,
            preexec_fn=_take_terminal if controlling else None,
        )
        os.close(slave)
        self.view = Screen(charset, *(glass or size or (80, 25)))

    def resize(self, cols: int, rows: int) -> None:
        """The caller's window changes size: the pty says so (and the kernel sends SIGWINCH)."""
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def pump(self, timeout: float = 0.1) -> None:
        r, _, _ = select.select([self.master], [], [], timeout)
        if r:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            self.view.feed(data)

    def wait_for(self, needle: str, timeout: float = 15.0) -> str:
        end = time.monotonic() + timeout
        while needle not in self.view.text:
            if time.monotonic() > end:
                raise AssertionError(f"{needle!r} never appeared; the screen shows:\n{self.view.text}")
            if self.proc.poll() is not None:
                self.pump(0)
                if needle in self.view.text:
                    break
                raise AssertionError(
                    f"the door exited ({self.proc.returncode}) before {needle!r}:\n{self.view.text}\n"
                    f"{self.proc.stderr.read().decode() if self.proc.stderr else ''}"
                )
            self.pump()
        return self.view.text

    def send(self, data: str) -> None:
        os.write(self.master, data.encode("latin-1"))

    def enter_game(self, board_text: str, timeout: float = 15.0) -> None:
        """P from the menu; a "Since you last looked" news page, when one comes first, is dismissed."""
        self.send("P")
        end = time.monotonic() + timeout
        while board_text not in self.view.text:
            if "Since you last looked" in self.view.text:
                self.send(" ")
                while "Since you last looked" in self.view.text and time.monotonic() < end:
                    self.pump()
                continue
            if time.monotonic() > end:
                raise AssertionError(f"{board_text!r} never appeared; the screen shows:\n{self.view.text}")
            self.pump()

    def begin_open_seat(self) -> None:
        """From the menu: B)egin a match of the default length as White with an open seat, to
        its board ('W)ithdraw' offered), as menus.begin does for a telnet caller."""
        for key, then in (("B", "Match length"), ("\r", "Play as"), ("W", "Opponent"), ("O", "W)ithdraw")):
            self.send(key)
            self.wait_for(then)

    def settle(self, quiet: float = 0.4) -> None:
        end = time.monotonic() + quiet
        while time.monotonic() < end:
            before = len(self.view.raw)
            self.pump(0.05)
            if len(self.view.raw) != before:
                end = time.monotonic() + quiet

    def wait_exit(self, timeout: float = 15.0) -> int:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self.pump(0.05)
        return self.proc.wait(timeout=max(0.1, end - time.monotonic()))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        try:
            os.close(self.master)
        except OSError:
            pass
