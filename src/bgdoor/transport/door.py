"""Door mode: one caller handed over by a BBS, on the same session code as the server."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import select
import sys
import termios
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from bgdoor.app import open_service
from bgdoor.config import Config, log_path
from bgdoor.service import Service
from bgdoor.term.wrap import wrap
from bgdoor.transport.door_io import FdLink, StdioLink, install_hangup, install_resize
from bgdoor.transport.dropfile import DropInfo
from bgdoor.ui.console import Console
from bgdoor.ui.runtime import Runtime
from bgdoor.ui.session import Session

log = logging.getLogger("bgdoor.door")

# How long a SIGTERM waits for a SIGHUP sent with it (see _Closing).
HANGUP_GRACE = 0.2


def _log_to_file(path: str) -> None:
    # Standard output is the caller's screen, and stderr may be too: log to a file only.
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    logging.getLogger("telnetlib3").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)


def callers_terminal(fd: int) -> bool:
    """Whether `fd` is the terminal standard output is: a pty BBS gives the door's standard
    error to the caller too."""
    try:
        return os.isatty(fd) and os.isatty(1) and os.fstat(fd).st_rdev == os.fstat(1).st_rdev
    except OSError:
        return False


def sorry(what: str, width: int) -> bytes:
    """What a caller is told when the door cannot start, wrapped to their width."""
    said = wrap(f"Sorry, the backgammon door cannot start: {what}. The sysop can see why in the door's log.",
                max(20, width - 1))
    return ("\r\n" + "\r\n".join(said) + "\r\n").encode("ascii", "replace")


def drop_file_refused(problem: str, config: Config | None, log_file: str | None,
                      what: str = "the BBS's drop file could not be read",
                      logged: str = "cannot read the drop file") -> None:
    """A drop file (or, `what` says, door.cfg) the door cannot read: the sysop finds why in the
    door's log (many BBSes throw a door's standard error away), and a caller whose terminal is
    standard output a line."""
    try:
        _log_to_file(log_file or str(log_path(config or Config())))
        log.error("%s: %s", logged, problem)
    except OSError:
        pass
    if os.isatty(1):
        # A pipe or a file may be the BBS's own: only a terminal is surely the caller's.
        try:
            width = os.get_terminal_size(1).columns or 80
        except OSError:
            width = 80
        # Wrapped to the caller's width: a 40-column terminal broke the one long line mid-word.
        # The BBS's next screen would wipe the line at once: left up for a moment, as the goodbye
        # is (a terminal only: a BBS reading a pipe is not kept waiting).
        notice(sorry(what, width), max(0.0, (config or Config()).door_goodbye_wait))


def notice(said: bytes, seconds: float) -> None:
    """`said` on the caller's terminal, left up `seconds` or until a key, which is not echoed, as
    the goodbye's wait ends at a key (the terminal still cooked, a key had been echoed under the
    notice, and ignored).  Quiet before the notice goes: a key sent as it showed was echoed."""
    cooked = None  # not a terminal (a socket, a pipe): nothing echoes there
    with contextlib.suppress(termios.error, OSError):
        cooked = termios.tcgetattr(0)
    try:
        if cooked is not None:
            quiet = termios.tcgetattr(0)
            quiet[3] &= ~(termios.ICANON | termios.ECHO)
            termios.tcsetattr(0, termios.TCSANOW, quiet)
        with contextlib.suppress(OSError):
            os.write(1, said)
        if cooked is None:
            time.sleep(seconds)
        else:
            select.select([0], [], [], seconds)
            termios.tcflush(0, termios.TCIFLUSH)  # the key goes no further: not to the BBS's menu
    except (termios.error, OSError):
        pass
    finally:
        if cooked is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(0, termios.TCSANOW, cooked)


# Builds the application for one caller (bgdoor.app.running).
App = Callable[[Config, Service], AbstractAsyncContextManager[Runtime]]


def _node(info: DropInfo) -> str:
    """The caller's node as the log names it: 'node 3', or 'node ?' where nothing says which."""
    return f"node {'?' if info.node is None else info.node}"


def run_door(
    info: DropInfo, link: FdLink, config: Config, app: App, *, node: int | None = None, log_file: str | None = None
) -> int:
    started = time.monotonic() - _process_age()  # the caller's time runs from the BBS's start of us
    if info.node is None and node is not None:
        info = dataclasses.replace(info, node=node)  # the login and the session's end said 'node None'
    try:
        _log_to_file(log_file or str(log_path(config)))
    except OSError:
        logging.getLogger().handlers[:] = [logging.NullHandler()]
    log.info(
        "door start: %r (%s) %s, %d minute%s%s, %s", info.alias, info.kind, _node(info), info.minutes_left,
        "" if info.minutes_left == 1 else "s",
        # '0 minutes' alone had hidden a BBS writing -5 (some write a negative for 'no limit').
        "" if info.minutes_written is None else f" (the drop file says {info.minutes_written})", info.charset,
    )
    if info.node is None:
        # Said once at start: 'node ?' in the log had been all there was to see --node missing.
        log.warning("the drop file (%s) does not say which node this is, so the log names it "
                    "'node ?': give the door --node N", info.kind)
    if info.comm_type == "telnet" and info.handle not in (None, -1) and isinstance(link, StdioLink):
        # Documented, but a sysop chasing lost keys needs to see it happened.
        log.warning("the drop file names socket handle %s, which is not an open socket here: "
                    "using standard input and output", info.handle)
    try:
        service = open_service(config)
    except Exception as exc:  # noqa: BLE001 - a ServiceError, or a URL SQLAlchemy cannot use
        # As a drop file that cannot be read: a URL with a mistyped scheme had ended in a traceback
        # on a blank screen, and the caller had been shown the storage's words cut mid-word.
        log.error("cannot open the database: %s", exc)
        if not callers_terminal(2):
            print(f"bgdoor door: cannot open the database: {exc}", file=sys.stderr)
        link.write(sorry("its database cannot be opened", 80))
        time.sleep(max(0.0, config.door_goodbye_wait))  # before the BBS's next screen wipes it
        link.close()
        return 1
    try:
        asyncio.run(_session(info, link, config, service, app, started))
    finally:
        service.close()
        link.close()
        log.info("door end: %r", info.alias)
    return 0


class _Closing:
    """SIGTERM's errand: the BBS closes the door with the caller still on the line, who is told
    so by the console (close_call), the terminal given back as on any way out.  Done a moment
    later, and not after a hang-up: a BBS that sends SIGHUP and SIGTERM together as the carrier
    drops (the SIGTERM often handled first) had had the log say 'closed by the BBS' of a caller
    who hung up."""

    def __init__(self, link: FdLink) -> None:
        self.link = link
        self.asked = False
        self.console: Console | None = None

    def __call__(self) -> None:
        asyncio.get_running_loop().call_later(HANGUP_GRACE, self.close)

    def close(self) -> None:
        if self.link.hung_up or self.asked:
            return
        self.asked = True
        if self.console is not None:
            self.console.close_call()

    def watch(self, console: Console | None) -> None:
        """`console` is the caller's from now on (None: none is)."""
        self.console = console
        if console is not None and self.asked:
            console.close_call()  # asked before the console was there


async def _session(info: DropInfo, link: FdLink, config: Config, service: Service, app: App, started: float) -> None:
    loop = asyncio.get_running_loop()
    closing = _Closing(link)
    remove_hangup = install_hangup(loop, link.hang_up, closing)
    try:
        async with app(config, service) as runtime:
            await _caller(info, link, config, runtime, started, closing)
    finally:
        remove_hangup()


def _process_age() -> float:
    """Seconds since this process started (Linux; 0 elsewhere): Python's start and our imports
    come out of the caller's time too."""
    try:
        stat = Path("/proc/self/stat").read_text()
        ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, starttime, in clock ticks since boot
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def door_deadline(now: float, minutes_left: int, goodbye_wait: float) -> float:
    """When the caller's time is up, early enough that the goodbye after it (`goodbye_wait`
    seconds on screen) ends when the BBS's time for the call does, not that much past it."""
    return now + max(0.0, minutes_left * 60 - max(0.0, goodbye_wait))


async def _caller(
    info: DropInfo, link: FdLink, config: Config, runtime: Runtime, started: float, closing: _Closing
) -> None:
    # The pseudo-terminal's size where it has one, else the drop file's, else 80x25: a DOOR.SYS
    # page length of 25 on a 24-line pty drew a notice below the bottom and scrolled the screen.
    tty_cols, tty_rows = link.terminal_size() if isinstance(link, StdioLink) else (0, 0)
    if info.minutes_left <= 0:
        log.warning("the drop file gives %s no time left on this call: back to the BBS at once", info.alias)
    console = Console(
        link,
        charset=info.charset,
        idle_timeout=config.door_idle_timeout,
        deadline=door_deadline(started, info.minutes_left, config.door_goodbye_wait),
        time_warning=config.time_warning * 60,
        width=tty_cols or info.cols or 0,
        height=tty_rows or info.rows or 0,
        door=True,
    )
    # The BBS's terminal resized during the call (the pty's size is the truth now, drop file or not).
    remove_resize = install_resize(asyncio.get_running_loop(), link, console.resize)
    console.sized_live = tty_cols > 0  # SIGWINCH tells the pty's new size
    closing.watch(console)
    try:
        await console.start()
        await Session(console, runtime, peer=_node(info), door_alias=info.alias).run()
    finally:
        remove_resize()
        await console.stop()
        closing.watch(None)
