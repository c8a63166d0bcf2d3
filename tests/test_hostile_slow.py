"""Slowloris callers, payloads split at every byte, and a read-only database under a non-root user.

- 40 callers each send one byte every 10 s: each is hung up on at the login timeout, and a
  well-behaved caller logs in promptly all the while.
- Hostile payloads (escape sequences, UTF-8, C1 controls, telnet commands, NULs) split at every
  byte position decode to the same keys as whole; over telnet, a typed handle with a UTF-8
  letter, a telnet command and an arrow key split at every byte gets the same answer.
- The database file is read-only and the server runs as `nobody` (not root, so the permission
  binds): the log says so at start, logging in works, a change says the database is
  read-only, nothing is changed, and once the sysop fixes the permission the same server
  saves again, no restart.  (SQLite keeps the process's shared-memory index of a WAL file it
  first opened read-only read-only while any connection to the file is open: every connection
  is closed and opened afresh for it.)
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from rawtelnet import IAC, RawCaller, login
from serverproc import ServerProcess
from test_faults_storage import READ_ONLY, no_leaks

from bgdoor.service import Service
from bgdoor.term.charset import Charset
from bgdoor.term.keys import KeyDecoder

pytestmark = pytest.mark.timeout(180)

NOBODY = 65534


async def test_slowloris_callers_are_cut_at_the_login_timeout(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bg.db"
    with Service(url) as svc:
        svc.register("keeper", "keeper-pw")
    login_timeout = 20.0
    srv = ServerProcess(tmp_path, url, server={"login_timeout": login_timeout, "max_per_address": 8}).start()
    slow: list[RawCaller] = []
    try:
        listening = srv.socket_count()
        start = time.monotonic()
        for i in range(40):
            slow.append(await RawCaller.connect(srv.port, source=f"127.0.3.{1 + i}", screen=False))
        closed_at: dict[int, float] = {}

        async def trickle(n: int, c: RawCaller) -> None:
            while not c.closed and time.monotonic() - start < login_timeout + 15:
                c.send_raw(b"a")
                for _ in range(100):  # ten seconds, watching for the hang-up
                    if c.closed:
                        break
                    await asyncio.sleep(0.1)
            closed_at[n] = time.monotonic() - start

        trickling = [asyncio.ensure_future(trickle(n, c)) for n, c in enumerate(slow)]
        logins = []
        for _ in range(2):  # a caller who types at a human pace gets in meanwhile
            await asyncio.sleep(5)
            c = await RawCaller.connect(srv.port, source="127.0.4.1")
            t0 = time.monotonic()
            await login(c, "keeper", "keeper-pw", new=False)
            logins.append(time.monotonic() - t0)
            c.close()
        await asyncio.gather(*trickling)
        cut = sorted(closed_at.values())
        print(
            f"\n40 callers at 1 byte per 10 s: hung up after {cut[0]:.1f}-{cut[-1]:.1f} s "
            f"(login_timeout {login_timeout:.0f} s); a caller meanwhile logged in in "
            f"{', '.join(f'{t:.2f}' for t in logins)} s"
        )
        assert all(c.closed for c in slow)
        assert cut[-1] <= login_timeout + 11  # the check comes with the next 10 s byte at worst
        assert max(logins) < 5
        end = time.monotonic() + 20
        while srv.socket_count() > listening and time.monotonic() < end:
            await asyncio.sleep(0.2)
        assert srv.socket_count() == listening and srv.alive()
    finally:
        for c in slow:
            c.close()
        srv.kill()


PAYLOADS = [
    b"\x1b[A\x1b[B\x1b[C\x1b[D",  # arrow keys
    b"\x1bOP\x1b[11~\x1b[1;5C",  # function keys, a modified arrow
    b"\x1b[2J\x1b]0;title\x07x",  # a screen clear and an OSC, typed
    b"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2",  # UTF-8 of 2, 3 and 4 bytes
    b"\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc",  # invalid UTF-8
    b"\x9b31m\x9d0;t\x9c",  # C1 controls
    b"a\x00b\r\x00c\r\nd\n",  # NULs and every line ending
    b"\x1b[" + b"9" * 40 + b"m",  # an overlong parameter
    b"\x1b\x1b\x1b[\x1b[[",  # escapes inside escapes
    b"\x7f\x08\x15\x17\x0c",  # erase, backspace, kill, word, redraw
]


@pytest.mark.parametrize("charset", ["utf8", "cp437"])
def test_payloads_split_at_every_byte_decode_the_same(charset: Charset) -> None:
    splits = 0
    for payload in PAYLOADS:
        whole = KeyDecoder(charset)
        expected = whole.feed(payload) + whole.flush_timeout()
        for k in range(1, len(payload)):
            d = KeyDecoder(charset)
            got = d.feed(payload[:k]) + d.feed(payload[k:]) + d.flush_timeout()
            assert got == expected, (payload, k)
            splits += 1
    # And every payload one byte at a time.
    for payload in PAYLOADS:
        whole = KeyDecoder(charset)
        expected = whole.feed(payload) + whole.flush_timeout()
        d = KeyDecoder(charset)
        got = [key for i in range(len(payload)) for key in d.feed(payload[i : i + 1])] + d.flush_timeout()
        assert got == expected, payload
    print(f"\n{len(PAYLOADS)} payloads split at all {splits} positions ({charset}): the same keys as whole")


async def test_a_typed_line_split_at_every_byte_over_telnet(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bg.db"
    srv = ServerProcess(tmp_path, url, server={"max_per_address": 50}).start()
    # "Zoë", a telnet NOP in the middle, a left arrow and an "x" (where the line editor puts
    # it), then Enter: whatever the editor makes of it, it must make the same of every split.
    payload = b"Zo\xc3\xab" + bytes([IAC, 241]) + b"\x1b[Dx\r"
    try:

        async def answer(parts: list[bytes]) -> str:
            c = await RawCaller.connect(srv.port, term="xterm")
            try:
                await c.wait_for("Handle:")
                await c.settle(0.05)
                for part in parts:
                    c.send_raw(part)
                    await asyncio.sleep(0.03)  # well under the lone-ESC pause
                text = await c.wait_until(lambda t: "Create it?" in t or "Try another" in t, "an answer")
                return next(line.strip() for line in text.splitlines() if "Create it?" in line or "Try" in line)
            finally:
                c.close()

        expected = await answer([payload])
        for k in range(1, len(payload)):
            assert await answer([payload[:k], payload[k:]]) == expected, k
        print(f"\na typed line split at all {len(payload) - 1} positions over telnet: always {expected!r}")
        assert srv.alive()
    finally:
        srv.kill()


def _as_nobody() -> list[str]:
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root (to become nobody) and setpriv")
    return [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]


async def test_a_read_only_database_under_a_non_root_user() -> None:
    user = _as_nobody()
    # Not under pytest's own tmp folder, which only root may enter.
    folder = Path(tempfile.mkdtemp(prefix="bgdoor-ro-"))
    try:
        db_file = folder / "bg.db"
        url = f"sqlite:///{db_file}"
        with Service(url) as svc:
            svc.register("alice", "alice-pw")
        for path in [folder, *folder.iterdir()]:
            os.chown(path, NOBODY, NOBODY)
        os.chmod(folder, 0o755)
        os.chmod(db_file, 0o444)
        srv = ServerProcess(folder, url, user=user).start()
        owner = subprocess.run(["stat", "-c", "%u", f"/proc/{srv.pid}"], capture_output=True, text=True)
        assert owner.stdout.strip() == str(NOBODY)
        said = f"the database file {db_file} is read-only for this process: callers can log in and look around"
        assert said in srv.stderr(), srv.stderr()[-2000:]
        callers: list[RawCaller] = []
        try:
            a = await RawCaller.connect(srv.port)
            callers.append(a)
            t0 = time.monotonic()
            await login(a, "alice", "alice-pw", new=False)  # reading works; last-seen is not essential
            took = time.monotonic() - t0
            b = await RawCaller.connect(srv.port)
            callers.append(b)
            await b.wait_for("Handle:")
            b.send("carol\r")
            await b.wait_for("Create it?")
            b.send("Y")
            await b.wait_for("Choose a password")
            b.send("carol-pw\r")
            await b.wait_for("Type it again")
            b.send("carol-pw\r")
            await b.wait_for(READ_ONLY)
            with Service(url) as svc:
                assert not svc.handle_exists("carol")
            assert srv.alive()
            no_leaks(*callers)
            # The sysop fixes the permission; no restart.
            os.chmod(db_file, 0o644)
            c = await RawCaller.connect(srv.port)
            callers.append(c)
            t0 = time.monotonic()
            await login(c, "carol", "carol-pw", new=True)
            saved = time.monotonic() - t0
            with Service(url) as svc:
                assert svc.handle_exists("carol")
            assert srv.starts == 1 and srv.alive()
            print(
                f"\nread-only database as uid {NOBODY}: login in {took:.2f} s, a registration told "
                f"{READ_ONLY!r}, nothing changed; saved again after the fix, same server ({saved:.2f} s)"
            )
        finally:
            for c in callers:
                c.close()
            srv.kill()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
