"""Shared fixtures.

Databases for store and service tests: `db_url` runs a test on a SQLite file, on
in-memory SQLite and on PostgreSQL; `shared_db_url` only where a second
connection must see the same data (file and PostgreSQL).  PostgreSQL is a
throwaway server started with the Debian binaries in /usr/lib/postgresql/*/bin
(skipped when they or psycopg are missing); as root it runs as `nobody`,
because initdb refuses root.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Generator, Iterator
from typing import Any

import pytest
from ports import free_port


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A PostgreSQL server for this test run; yields its URL without a database name."""
    bins = [b for b in sorted(glob.glob("/usr/lib/postgresql/*/bin")) if os.path.exists(os.path.join(b, "initdb"))]
    if not bins:
        pytest.skip("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin")
    pytest.importorskip("psycopg")
    bindir = bins[-1]
    base = tempfile.mkdtemp(prefix="bgdoor-pg-")
    as_user: list[str] = []
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL")
        nobody = pwd.getpwnam("nobody")
        os.chown(base, nobody.pw_uid, nobody.pw_gid)
        as_user = [runuser, "-u", "nobody", "--"]
    data, port = os.path.join(base, "data"), free_port()

    def run(*args: str) -> None:
        done = subprocess.run([*as_user, *args], cwd=base, capture_output=True, text=True, timeout=120)
        if done.returncode:
            log = open(os.path.join(base, "log")).read() if os.path.exists(os.path.join(base, "log")) else ""
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}{log}")

    run(f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
    # -F: no fsync; a test database need not survive a power cut.
    opts = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -F"
    run(f"{bindir}/pg_ctl", "-D", data, "-l", os.path.join(base, "log"), "-o", opts, "-w", "-t", "60", "start")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/"
    finally:
        run(f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)


_pg_names = itertools.count(1)


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """A fresh, empty PostgreSQL schema: a database of its own, as far as bgdoor can tell.

    (Schemas rather than databases: each new database copies megabytes of template.)
    """
    import psycopg  # noqa: PLC0415 - optional: only the PostgreSQL tests need it

    name = f"bgdoor_test_{next(_pg_names)}"
    with psycopg.connect(pg_server.replace("postgresql+psycopg", "postgresql") + "postgres", autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return f"{pg_server}postgres?options=-csearch_path%3D{name}"


@pytest.fixture(params=["sqlite-file", "sqlite-memory", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite-file":
        return f"sqlite:///{tmp_path}/bgdoor.db"
    if request.param == "sqlite-memory":
        return "sqlite://"
    return request.getfixturevalue("pg_url")


@pytest.fixture(params=["sqlite-file", "postgres"])
def shared_db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite-file":
        return f"sqlite:///{tmp_path}/bgdoor.db"
    return request.getfixturevalue("pg_url")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A failed test that ran a server process shows the end of that server's log: in CI the
    log is the only witness of what the server did."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    folder = getattr(item, "funcargs", {}).get("tmp_path")
    if folder is None:
        return
    for log in sorted(folder.glob("**/server-stderr-*.log")):
        text = log.read_text(errors="replace")
        report.sections.append((f"server log {log.relative_to(folder)}", text[-6000:]))
