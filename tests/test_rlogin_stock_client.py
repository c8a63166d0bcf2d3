"""The handshake as a stock client sends it: Debian's `rlogin` (rsh-redone-client or rsh-client)
against a real `bgdoor serve`.  Skipped where no rlogin client is installed (CI may have none).

A stock client sends the local login name as client-user-name, so the member BBS here uses it
as its secret, and $TERM with the line speed as the terminal type.  Asked for its window size
(RFC 1282's urgent 0x80), it sends its terminal's: here a 60-column pty.
"""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import pwd
import select
import shutil
import struct
import subprocess
import termios
import time
from pathlib import Path

import pyte
import pytest
from test_rlogin_serve import rlogin_server

pytestmark = pytest.mark.timeout(120)

# rsh-redone-client's and rsh-client's (netkit) binaries; `rlogin` is whichever the system chose.
CLIENTS = sorted(
    {
        os.path.realpath(path)
        for name in ("rsh-redone-rlogin", "netkit-rlogin", "rlogin")
        if (path := shutil.which(name))
    }
)


@pytest.mark.skipif(not CLIENTS, reason="no rlogin client installed (apt-get install rsh-redone-client)")
@pytest.mark.parametrize("client", CLIENTS or ["none"])
def test_debians_rlogin_client_reaches_the_menu(tmp_path: Path, client: str) -> None:
    # netkit's client is 7-bit unless told -8, and knows no -4.
    options = ["-8"] if "netkit" in client else ["-4"]
    local_user = pwd.getpwuid(os.getuid()).pw_name
    srv = rlogin_server(
        tmp_path,
        f"sqlite:///{tmp_path / 'bg.db'}",
        **{"bbs STOCK": {"name": "Stock Client Board", "secret": local_user, "addresses": "127.0.0.1"}},
    ).start()
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))
    proc = subprocess.Popen(
        [client, *options, "-l", "[STOCK]alice", "-p", str(srv.rlogin_port), "127.0.0.1"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
        env={**os.environ, "TERM": "ansi-bbs"},
        start_new_session=True,
    )
    os.close(slave)
    screen = pyte.Screen(80, 24)  # wider than the pty, so anything drawn past 60 columns shows
    stream = pyte.Stream(screen)
    decode = codecs.getincrementaldecoder("cp437")("replace")

    def pump_until(needle: str, timeout: float = 30.0, at: int | None = None) -> str:
        """Until `needle` is on the screen (starting at column `at`, 1-based, if given)."""
        end = time.monotonic() + timeout
        while True:
            text = "\n".join(screen.display)
            if needle in text and (at is None or any(line.find(needle) == at - 1 for line in screen.display)):
                return text
            if time.monotonic() > end or proc.poll() is not None:
                raise AssertionError(
                    f"{needle!r} never appeared (rlogin exit {proc.poll()}):\n{text}\n"
                    f"server log:\n{srv.stderr()[-1500:]}"
                )
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    stream.feed(decode.decode(os.read(master, 65536)))
                except OSError:
                    pass

    try:
        text = pump_until("Your choice")
        assert "Welcome, alice." in text
        log = srv.stderr()
        assert "alice@STOCK term=ansi-bbs charset=cp437" in log, log[-1500:]
        # The client told its 60 columns: the menu is laid out narrow, and nothing passes them.
        menu = pump_until("V)iew games", at=2)
        assert all(not line[60:].strip() for line in screen.display), menu
        os.write(master, b"W")
        text = pump_until("Who's online")
        assert "STOCK" in text
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        os.close(master)
        srv.stop()
