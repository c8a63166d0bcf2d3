"""A database that is locked, read-only or out of space, under a live server subprocess.

Each time: the caller who tries to save gets a sentence saying what is wrong and
that nothing was changed; the other callers are still served; and once the
condition ends the same server saves again, with no restart.

- locked: another program holds SQLite's write lock (BEGIN EXCLUSIVE) while six
  callers try to register; BGDOOR_BUSY_TIMEOUT_MS is cut to 500 ms so the wait
  the service allows (5 s at least) is short.
- read-only: the database file is chmod 444 and the server runs without
  CAP_DAC_OVERRIDE (setpriv), so root is refused writing as anyone else is.
- full: the database lives on its own 4 MB tmpfs, filled up by a test file
  (real ENOSPC); skipped where mounting is not allowed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Awaitable, Iterator
from pathlib import Path

import pytest
from dbcheck import check_games, records, sqlite_integrity
from rawtelnet import RawCaller, login
from serverproc import ServerProcess
from telnetplay import Table

from bgdoor.rules.game import Phase
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(180)

# As the screens say them: a sentence ('The database ...') on the board, a clause after a prompt.
BUSY = "database is busy; nothing was changed"
READ_ONLY = "database is read-only, so nothing can be saved"
FULL = "disk holding the database is full, so nothing was saved"


def no_leaks(*callers: RawCaller) -> None:
    for c in callers:
        assert c.leaked() is None, f"traceback text reached a caller:\n{bytes(c.data)[-2000:]!r}"


async def type_all_but_the_second_password(c: RawCaller, handle: str) -> None:
    """At a fresh Handle prompt: a new handle, Y to create it, the password once."""
    c.send(handle + "\r")
    await c.wait_for("Create it?")
    c.send("Y")
    await c.wait_for("Choose a password")
    c.send("secret-pw\r")
    await c.wait_for("Type it again")


async def start_registering(port: int, handle: str) -> RawCaller:
    """A new caller who has typed everything but the second password."""
    c = await RawCaller.connect(port)
    await c.wait_for("Handle:")
    await type_all_but_the_second_password(c, handle)
    return c


def at_fresh_handle_prompt(text: str) -> bool:
    """Back at the Handle prompt with the last try's questions and refusal gone (a refusal
    stays up for a few seconds over the old answers, and a key typed then would read them)."""
    return "Handle:" in text and "Create it?" not in text


async def register_again(c: RawCaller, handle: str, still_refused: str | None = None, within: float = 30.0) -> int:
    """After a refused registration the caller is back at the Handle prompt: try once more.

    With `still_refused`, a try refused with those words is made again until `within` seconds
    have passed (the server may need a moment to notice the fix); returns how many were.
    """
    end = time.monotonic() + within
    refused = 0
    while True:
        await c.wait_until(at_fresh_handle_prompt, "a fresh Handle prompt", 30)
        await type_all_but_the_second_password(c, handle)
        c.send("secret-pw\r")
        if still_refused is None:
            await c.wait_for("Your choice", 30)
            return refused
        text = await c.wait_until(lambda t: "Your choice" in t or still_refused in t, "the menu or the refusal", 30)
        if "Your choice" in text:
            return refused
        refused += 1
        assert time.monotonic() < end, (
            f"still refused ({still_refused!r}) {within:.0f} s after the fix: {refused} tries")



async def timed(coro: Awaitable[object]) -> float:
    start = time.monotonic()
    await coro
    return time.monotonic() - start


async def test_a_locked_database(tmp_path):
    db_file = tmp_path / "bg.db"
    url = f"sqlite:///{db_file}"
    srv = ServerProcess(tmp_path, url, env={"BGDOOR_BUSY_TIMEOUT_MS": "500"}).start()
    callers: list[RawCaller] = []
    try:
        browser = await RawCaller.connect(srv.port)
        callers.append(browser)
        await login(browser, "browser", "browser-pw", new=True)
        writers = [await start_registering(srv.port, f"writer{i}") for i in range(6)]
        callers += writers

        hog = sqlite3.connect(str(db_file), isolation_level=None, check_same_thread=False)
        hog.execute("BEGIN EXCLUSIVE")  # a backup tool, or the sqlite3 shell, holding the file
        try:
            for w in writers:
                w.send("secret-pw\r")
            await asyncio.sleep(0.2)
            # Others are served while the writers wait: a list to read, a new caller's first screen.
            browser.send("R")
            rankings = await timed(browser.wait_for("The top players", 60))
            newcomer = await RawCaller.connect(srv.port)
            callers.append(newcomer)
            first_screen = await timed(newcomer.wait_for("Handle:", 60))
            told = await timed(asyncio.gather(*(w.wait_for(BUSY, 60) for w in writers)))
        finally:
            hog.execute("ROLLBACK")
            hog.close()
        print(f"\nlocked: rankings in {rankings:.2f} s, a new caller's first screen in {first_screen:.2f} s, "
              f"all six writers told in {told:.2f} s")
        assert srv.alive()
        with Service(url) as svc:
            assert not any(svc.handle_exists(f"writer{i}") for i in range(6))  # nothing half-saved
        # The lock is gone: the same server saves again.
        await asyncio.gather(*(register_again(w, f"writer{i}") for i, w in enumerate(writers)))
        browser.send("\r")
        await browser.wait_for("Your choice")
        no_leaks(*callers)
        assert sqlite_integrity(str(db_file)) == "ok"
    finally:
        for c in callers:
            c.close()
        srv.kill()


def _without_root_override() -> list[str]:
    """A command prefix under which file permissions bind this process too."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot make a file read-only for the server")
    probe = subprocess.run(
        [setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--", "true"], capture_output=True
    )
    if probe.returncode:
        pytest.skip(f"setpriv cannot drop capabilities here: {probe.stderr.decode().strip()}")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--"]


async def test_a_read_only_database(tmp_path):
    db_file = tmp_path / "bg.db"
    url = f"sqlite:///{db_file}"
    prefix = _without_root_override()
    # A server has run here before: the schema is current and alice has a game waiting.
    first = ServerProcess(tmp_path, url, user=prefix).start()
    table = Table(url, seed=2)
    try:
        await table.seat(first.port)
        await table.step()  # the opening roll
    finally:
        table.hang_up()
        first.stop()
    before = records(table.db)
    os.chmod(db_file, 0o444)
    srv = ServerProcess(tmp_path, url, user=prefix).start()
    callers: list[RawCaller] = []
    try:
        # Logging in still works (the last-seen time is not essential) and the game can be seen.
        await table.rejoin(srv.port)
        callers += table.callers.values()
        st = table.db.game(table.game_id).state
        assert st.phase is Phase.MOVE and st.actor is not None
        mover = table.caller(st.actor)
        await table.send_play(mover, table.choose())
        await mover.wait_for(READ_ONLY)
        stranger = await start_registering(srv.port, "carol")
        callers.append(stranger)
        stranger.send("secret-pw\r")
        await stranger.wait_for(READ_ONLY)
        assert records(table.db) == before
        # The sysop puts the permissions right; no restart.
        os.chmod(db_file, 0o644)
        fixed = time.monotonic()
        refused = await register_again(stranger, "carol", still_refused=READ_ONLY)
        print(f"\nsaved {time.monotonic() - fixed:.1f} s after the file was made writable ({refused} tries refused)")
        await table.send_play(mover, table.choose())
        await table.wait_version(before[table.game_id].version)
        assert srv.alive()
        no_leaks(*callers)
        assert check_games(url) == 1 and sqlite_integrity(str(db_file)) == "ok"
    finally:
        os.chmod(db_file, 0o644)
        table.close()
        for c in callers:
            c.close()
        srv.kill()


async def test_a_read_only_database_the_server_never_wrote(tmp_path):
    """A database made by another program (no computer players yet) and then made read-only:
    the sysop is told at start, in plain words, that nothing can be saved and that no restart
    is needed; once the file is writable the computer opponent comes back by itself."""
    db_file = tmp_path / "bg.db"
    url = f"sqlite:///{db_file}"
    prefix = _without_root_override()
    with Service(url):
        pass  # the schema, and nobody in it
    os.chmod(db_file, 0o444)
    srv = ServerProcess(tmp_path, url, user=prefix).start()
    callers: list[RawCaller] = []
    try:
        await asyncio.sleep(0.5)
        log = srv.stderr()
        assert f"the database file {db_file} is read-only for this process" in log, log[-3000:]
        assert "no restart is needed" in log
        assert "Traceback" not in log, log[-3000:]
        stranger = await start_registering(srv.port, "carol")
        callers.append(stranger)
        stranger.send("secret-pw\r")
        await stranger.wait_for(READ_ONLY)
        os.chmod(db_file, 0o644)
        fixed = time.monotonic()
        refused = await register_again(stranger, "carol", still_refused=READ_ONLY)
        print(f"\nsaved {time.monotonic() - fixed:.1f} s after the file was made writable ({refused} tries refused)")
        end = time.monotonic() + 60
        while "the computer opponent is available now" not in srv.stderr():
            assert time.monotonic() < end, f"the computer opponent never came back:\n{srv.stderr()[-3000:]}"
            await asyncio.sleep(0.5)
        # B)egin offers the computer again.
        stranger.send("B")
        await stranger.wait_for("Match length")
        stranger.send("1\r")
        await stranger.wait_for("Play as")
        stranger.send("W")
        await stranger.wait_for("C)omputer")
        assert srv.alive()
        no_leaks(*callers)
    finally:
        os.chmod(db_file, 0o644)
        for c in callers:
            c.close()
        srv.kill()


async def test_a_read_only_folder_is_named_at_start(tmp_path):
    """SQLite makes its -wal and -shm files beside the database: a folder the server cannot
    write stops it at start, with a message that names the folder, not the (writable) file."""
    folder = tmp_path / "data"
    folder.mkdir()
    db_file = folder / "bg.db"
    url = f"sqlite:///{db_file}"
    prefix = _without_root_override()
    with Service(url):
        pass
    for side in folder.glob("bg.db-*"):
        side.unlink()
    os.chmod(folder, 0o555)
    try:
        srv = ServerProcess(tmp_path, url, user=prefix)
        with pytest.raises(AssertionError, match="the server exited with 2") as failed:
            srv.start(timeout=30)
        message = str(failed.value)
        assert f"the folder {folder} is not writable" in message, message
        assert "make it writable and start bgdoor again" in message, message
        assert "Traceback" not in message
    finally:
        os.chmod(folder, 0o755)


@contextlib.contextmanager
def small_disk(path: Path, size: str) -> Iterator[Path]:
    path.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill(folder: Path) -> Path:
    """Write a file until the disk says it is full."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as fh:
        chunk = b"\0" * 65536
        try:
            while True:
                fh.write(chunk)
        except OSError:
            pass
        try:
            while True:  # the last crumbs
                fh.write(b"\0" * 512)
        except OSError:
            pass
    return filler


async def test_a_full_disk(tmp_path):
    with small_disk(tmp_path / "disk", "4m") as disk:
        db_file = disk / "bg.db"
        url = f"sqlite:///{db_file}"
        srv = ServerProcess(tmp_path, url).start()
        table = Table(url, seed=6)
        callers: list[RawCaller] = []
        try:
            await table.seat(srv.port)
            callers += table.callers.values()
            await table.step()  # the opening roll
            roller = await table.until_roll_phase()
            before = records(table.db)
            filler = fill(disk)
            caller = table.caller(roller)
            caller.send("P")
            await caller.wait_for(FULL, 60)
            # The other player still sees the board and can look at the rankings.
            other = table.caller(roller.other)
            other.send("Q")
            await other.wait_for("Your choice")
            other.send("R")
            await other.wait_for("Nobody has finished a match yet")
            assert records(table.db) == before  # no roll was recorded, so none was shown
            filler.unlink()
            caller.send("P")
            await table.wait_version(before[table.game_id].version)
            assert srv.alive()
            no_leaks(*callers)
            assert check_games(url) == 1 and sqlite_integrity(str(db_file)) == "ok"
        finally:
            table.close()
            srv.kill()
