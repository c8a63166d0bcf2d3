"""`bgdoor serve` as a real subprocess: a door.cfg of the test's own, the port from the ready file,
its stderr kept in a file, and its memory and descriptors read from /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

# Settings every fault test wants: quick negotiation, quick polling, short login delays.
BASE_CONFIG: dict[str, dict[str, object]] = {
    "server": {"host": "127.0.0.1", "port": 2323, "negotiation_wait": 0.5, "login_delay": 0.05},
    "session": {"poll_interval": 0.5},
}


def write_config(path: Path, **overrides: Mapping[str, object]) -> Path:
    sections = {name: dict(keys) for name, keys in BASE_CONFIG.items()}
    for name, keys in overrides.items():
        sections.setdefault(name, {}).update(keys)
    lines = []
    for name, keys in sections.items():
        lines.append(f"[{name}]")
        lines += [f"{key} = {value}" for key, value in keys.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


class ServerProcess:
    """One `python -m bgdoor serve`; start() may be called again after kill() (same database)."""

    def __init__(self, folder: Path, db_url: str, *, env: dict[str, str] | None = None, user: list[str] | None = None,
                 args: list[str] | None = None, **config: dict[str, object]) -> None:
        self.folder = folder
        self.db_url = db_url
        self.config_path = write_config(folder / "door.cfg", **config)
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.user = user or []  # e.g. setpriv ... --
        self.args = args or []  # more `bgdoor serve` options, such as -v
        self.rlogin_port = 0  # the RLogin listener's, where args give one
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.starts = 0
        self.stderr_path = folder / "server-stderr-0.log"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        self.starts += 1
        ready = self.folder / f"ready-{self.starts}"
        ready.unlink(missing_ok=True)  # another ServerProcess may have used this folder
        self.stderr_path = self.folder / f"server-stderr-{self.starts}.log"
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(
                [*self.user, sys.executable, "-m", "bgdoor", "serve", "--config", str(self.config_path),
                 "--db", self.db_url, "--port", "0", "--host", "127.0.0.1", "--ready-file", str(ready), *self.args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                cwd=self.folder,
                env=self.env,
            )
        end = time.monotonic() + timeout
        while not (ready.exists() and ready.read_text().strip()):
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode}:\n{self.stderr()}")
            if time.monotonic() > end:
                raise AssertionError(f"the server did not start:\n{self.stderr()}")
            time.sleep(0.05)
        self.port = int(ready.read_text())
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace") if self.stderr_path.exists() else ""

    def all_stderr(self) -> str:
        return "".join(p.read_text(errors="replace") for p in sorted(self.folder.glob("server-stderr-*.log")))

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def fd_count(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def socket_count(self) -> int:
        """Open sockets (the listener and callers; database files come and go with the pool)."""
        count = 0
        for fd in os.listdir(f"/proc/{self.pid}/fd"):
            try:
                count += os.readlink(f"/proc/{self.pid}/fd/{fd}").startswith("socket:")
            except OSError:
                pass
        return count

    def kill(self) -> None:
        """SIGKILL: no cleanup, no flush, exactly as a power-cut of the process."""
        if self.alive():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> int:
        if self.proc is None:
            return 0
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)
        return self.proc.returncode
