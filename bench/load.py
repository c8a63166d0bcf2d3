"""Many telnet callers at once against a real server subprocess.

    python bench/load.py [--callers 300] [--seconds 60] [--idle 30] [--alternate N] [--json FILE]

Each caller dials in from an address of its own (127.1.x.y, so door.cfg's
max_per_address holds as for real callers), registers, and sits down at a game:
callers go in pairs, one begins a match naming the other, the other opens it
from P)lay, and the opening roll is made.  Then, for --seconds, every caller
presses a key once a second: the player on roll moves the keypad cursor
(6 and 4 in turn); the other presses I and 6 in turn (the Position ID, then
"not your turn"), so each key changes the screen.

Reported: time from dialling to the first screen (p50/p99, all callers dialling
at once), keypress-to-screen latency (from sending a key to the first byte of the
screen update; p50/p99, cursor moves alone too), errors (no answer within 5 s,
traceback text) and dropped connections, and the server's resident memory (VmRSS)
idle, with everyone playing, and per caller.  The server runs with door.cfg's
defaults.

Idle cost: once everyone is seated, nobody presses anything for --idle seconds, and
the server's own count of SQL statements (BGDOOR_STATS_SECONDS) gives the queries a
second it makes for callers who sit on their game screens.

Baseline: in the same run, after bgdoor, the same callers dial bench/bare_server.py,
a bare telnetlib3 server that answers each key with as many bytes as bgdoor's screen
updates averaged, and press keys the same way; bgdoor's keypress figures are also
given as ratios to it.  With --redial N, after the main figures every caller dials bgdoor
afresh and then the bare server, N times in turn (redial_* figures, the first screen side by
side).  With --alternate N, after the main figures the two servers are pressed
in turn as well, N windows each, so that a slow spell of the machine falls on both
(alternating_* figures).

The callers use a light client of their own (tests/rawtelnet.py: a bare socket,
and a pyte screen only while they find their way to the board), since they share
the machine with the server.  Before they press keys, for bgdoor and for the bare
server alike, the bench freezes what it holds (gc.freeze), so that its own garbage
collector does not stop every caller in the middle of one server's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from menus import begin  # noqa: E402 - imported after sys.path is set above
from rawtelnet import RawCaller, login  # noqa: E402 - imported after sys.path is set above
from serverproc import ServerProcess  # noqa: E402 - imported after sys.path is set above

ANSWER_TIMEOUT = 5.0
STATS = re.compile(r"stats: statements (\d+)")


def last_stat(log: str) -> int | None:
    found = STATS.findall(log)
    return int(found[-1]) if found else None
ROLLED = re.compile(r"(Your turn|to play) [1-6]-[1-6]")


def settle_client() -> None:
    """Before the callers press keys: what the bench holds by then (a thousand callers' pyte
    screens from sitting down, over a million objects) is kept out of its own collector's sight,
    whose full collections otherwise stopped every caller for up to 0.45 s in the middle of
    bgdoor's keypress figures (and not of the bare server's, which come after).  The collector
    then stays off until the next settle: even its youngest pass took 2-12 ms of the bench's
    event loop twice a second, about 1% of all keys, so the bench's own pauses were the
    p99 it reported for both servers."""
    gc.enable()
    gc.collect()
    gc.freeze()
    gc.disable()


PIN = True  # --no-pin: let the scheduler place the servers and the callers anywhere
CPUS = sorted(os.sched_getaffinity(0))


def pin(pid: int | None) -> None:
    """A server on the first CPU, every thread it has (the ones it makes later inherit it); with
    None, this process, the callers, on the others.  Two processes sharing two CPUs otherwise
    take turns on both, and a server's key waits while the callers' process runs in its place."""
    if not PIN or len(CPUS) < 2:
        return
    target = pid if pid is not None else os.getpid()
    want = {CPUS[0]} if pid is not None else set(CPUS[1:])
    for task in os.listdir(f"/proc/{target}/task"):
        try:
            os.sched_setaffinity(int(task), want)
        except OSError:
            pass  # a thread that just ended


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def source(i: int) -> str:
    return f"127.1.{i // 250}.{i % 250 + 1}"


class Bench:
    def __init__(self, port: int, n: int) -> None:
        self.port = port
        self.n = n
        self.callers: list[RawCaller | None] = [None] * n
        self.first_screen: list[float] = []
        self.first_screen_resumed: list[float] = []
        self.latency: list[float] = []
        self.resumed: list[float] = []  # the same keys, until the pressing task ran again
        self.cursor_latency: list[float] = []
        self.errors: list[str] = []
        self.movers: set[int] = set()
        self.update_bytes: list[int] = []  # bytes each key brought back
        self.first_bytes: list[int] = []  # bytes up to the end of the first screen

    async def dial(self, i: int) -> None:
        start = time.monotonic()
        try:
            c = await RawCaller.connect(self.port, source=source(i), timeout=60, screen=False)
        except OSError as err:
            self.errors.append(f"caller {i}: cannot connect: {err}")
            return
        self.callers[i] = c
        if not await self.first_screen_shown(c):
            self.errors.append(f"caller {i}: no first screen")
            return
        # When the screen's last bytes reached the caller's socket reader, not when this task got
        # to run again (a thousand callers share one event loop here).
        self.first_screen.append(c.last_data - start)
        self.first_bytes.append(len(c.data))
        self.first_screen_resumed.append(time.monotonic() - start)

    async def first_screen_shown(self, c: RawCaller) -> bool:
        """bgdoor's first screen has come: it asks for the handle."""
        return await c.wait_data(0, timeout=60) and await self._until(c, b"Handle:", 60)

    @staticmethod
    async def _until(c: RawCaller, needle: bytes, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while needle not in c.data:
            if not await c.wait_data(len(c.data), timeout=max(0.0, end - time.monotonic())):
                return needle in c.data
        return True

    async def seat_pair(self, a: int, b: int) -> None:
        ca, cb = self.callers[a], self.callers[b]
        if ca is None or cb is None:
            return
        for c in (ca, cb):
            c.start_screen()  # pyte only now, so that dialling measures the server, not the screens
        try:
            # Registering hashes each password on the server's one scrypt thread: a thousand
            # callers queue there for minutes, so the waits (and login_timeout) are long.
            await login(cb, f"load{b}", "load-password", new=True, timeout=1200)
            await login(ca, f"load{a}", "load-password", new=True, timeout=1200)
            await begin(ca, opponent=f"load{b}", timeout=60)
            await ca.wait_for("roll for who starts", 60)
            cb.send("P")
            await cb.wait_for("roll for who starts", 60)
            ca.send("P")  # the opening roll
            for i, c in ((a, ca), (b, cb)):
                # The dice are on both boards once the opening roll is made ("Your turn" alone
                # shows for White before it, too).
                text = await c.wait_until(lambda t: ROLLED.search(t) is not None, "the opening roll", 120)
                rolled = ROLLED.search(text)
                if rolled is not None and rolled.group(1) == "Your turn":
                    self.movers.add(i)
        except AssertionError as err:
            self.errors.append(f"pair {a},{b}: could not sit down: {str(err).splitlines()[0]}")

    async def press(self, i: int, seconds: float) -> None:
        c = self.callers[i]
        if c is None:
            return
        c.drop_screen()  # from here on only bytes are counted: the client stays light
        mover = i in self.movers
        keys = ["6", "4"] if mover else ["I", "6"]
        # Each caller keeps a second of its own, spread over the second, whatever the answers or
        # the bench's own event loop do.  (Counting each second from when the caller's task woke
        # let the callers held up by one stall drift into step with each other, so that pressing
        # came in ever larger bursts: in one 1,000-caller run the server's own time from a key to
        # its answer grew from p50 0.5 ms, p99 2 ms in the first second to 4 and 25 in the last.)
        first = time.monotonic() + random.uniform(0, 1)
        k = 0
        previous = 0
        while (due := first + k) < first + seconds:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if c.closed:
                self.errors.append(f"caller {i}: dropped")
                return
            before = c.mark()
            if k:
                self.update_bytes.append(before - previous)
            previous = before
            c.send(keys[k % 2])
            sent = time.monotonic()
            if await c.wait_data(before, timeout=ANSWER_TIMEOUT):
                # Until the answer's first byte reached the caller's socket reader; the time until
                # this task runs again, which adds the bench's own event loop, is kept beside it.
                self.resumed.append(time.monotonic() - sent)
                took = c.answered_at - sent
                self.latency.append(took)
                if mover:
                    self.cursor_latency.append(took)
            else:
                self.errors.append(f"caller {i}: no answer to {keys[k % 2]!r} in {ANSWER_TIMEOUT:.0f} s")
            k += 1


class Baseline(Bench):
    """The same callers against the bare server: dial, then press keys (all of them 'movers')."""

    async def dial(self, i: int) -> None:
        self.movers.add(i)
        await super().dial(i)

    async def first_screen_shown(self, c: RawCaller) -> bool:
        """The bare server's first screen is any byte at all."""
        return await c.wait_data(0, timeout=60)


class BareServer:
    def __init__(self, folder: Path, size: int, first: int) -> None:
        ready = folder / "bare-port"
        ready.unlink(missing_ok=True)  # an earlier bare server's, in the same run
        command = [sys.executable, str(ROOT / "bench" / "bare_server.py"), str(ready), str(size), str(first)]
        self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + 30
        while not (ready.exists() and ready.read_text().strip()):
            if time.monotonic() > end or self.proc.poll() is not None:
                raise RuntimeError("the bare telnetlib3 server did not start")
            time.sleep(0.05)
        self.port = int(ready.read_text())
        self.pid = self.proc.pid

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


async def baseline(n: int, seconds: float, folder: Path, size: int, first: int) -> dict[str, float]:
    bare = BareServer(folder, size, first)
    pin(bare.pid)
    try:
        await asyncio.sleep(1)
        rss_idle = bare.rss_kb()
        bench = Baseline(bare.port, n)
        await asyncio.gather(*(bench.dial(i) for i in range(n)))
        settle_client()
        rss_samples: list[int] = []

        async def sample() -> None:
            while True:
                rss_samples.append(bare.rss_kb())
                await asyncio.sleep(1)

        sampler = asyncio.ensure_future(sample())
        cpu = cpu_seconds(bare.pid)
        await asyncio.gather(*(bench.press(i, seconds) for i in range(n)))
        cpu = cpu_seconds(bare.pid) - cpu
        sampler.cancel()
        for c in bench.callers:
            if c is not None:
                c.close()
        return {
            "bare_first_screen_p99_ms": round(1000 * pct(bench.first_screen, 99), 1),
            "bare_key_p50_ms": round(1000 * pct(bench.latency, 50), 2),
            "bare_key_p99_ms": round(1000 * pct(bench.latency, 99), 2),
            "bare_key_resumed_p99_ms": round(1000 * pct(bench.resumed, 99), 2),
            "bare_cpu_us_per_key": round(1e6 * cpu / max(1, len(bench.latency))),
            "bare_first_screen_resumed_p99_ms": round(1000 * pct(bench.first_screen_resumed, 99), 1),
            "bare_errors": len(bench.errors),
            "bare_rss_per_caller_kb": round((max(rss_samples, default=rss_idle) - rss_idle) / max(1, n), 1),
        }
    finally:
        bare.stop()


async def alternation(bench: Bench, n: int, seconds: float, folder: Path, windows: int) -> dict[str, object]:
    """Both servers pressed in turn: `windows` windows of bgdoor's keys, each followed by one of
    the bare server's (the same number of callers dialled to it), `seconds` in all for each.
    A slow spell of the machine then falls on both, where the main figures put bgdoor's minute
    and the bare server's minutes apart."""
    size = round(statistics.mean(bench.update_bytes)) if bench.update_bytes else 200
    bare = BareServer(folder, size, size)
    pin(bare.pid)
    ours = Bench(bench.port, n)
    ours.callers, ours.movers = bench.callers, bench.movers
    try:
        await asyncio.sleep(1)
        base = Baseline(bare.port, n)
        await asyncio.gather(*(base.dial(i) for i in range(n)))
        settle_client()
        await asyncio.sleep(2)
        for _ in range(windows):
            await asyncio.gather(*(ours.press(i, seconds / windows) for i in range(n)))
            await asyncio.gather(*(base.press(i, seconds / windows) for i in range(n)))
        for c in base.callers:
            if c is not None:
                c.close()
    finally:
        bare.stop()
    p99, bare_p99 = 1000 * pct(ours.latency, 99), 1000 * pct(base.latency, 99)
    return {
        "alternating_windows": windows,
        "alternating_key_p50_ms": round(1000 * pct(ours.latency, 50), 2),
        "alternating_key_p99_ms": round(p99, 2),
        "alternating_bare_key_p50_ms": round(1000 * pct(base.latency, 50), 2),
        "alternating_bare_key_p99_ms": round(bare_p99, 2),
        "alternating_key_p99_ratio": round(p99 / bare_p99, 2) if bare_p99 else float("nan"),
        "alternating_errors": len(ours.errors) + len(base.errors),
    }


async def redialling(port: int, n: int, folder: Path, rounds: int, first: int) -> dict[str, object]:
    """The first screen again, `rounds` times for each server in turn: every caller hangs up, then
    all dial bgdoor at once (to its login screen), hang up, and all dial the bare server, which
    sends as many bytes at once as bgdoor's first screen had.  Both are dialled with the bench in
    the same state and a slow spell of the machine falls on both, where the main figures dial
    bgdoor first thing and the bare server minutes later."""
    bare = BareServer(folder, 42, first)
    pin(bare.pid)
    ours_p99: list[float] = []
    bare_p99: list[float] = []
    errors = 0
    try:
        for _ in range(rounds):
            for server, port_, into in ((Bench, port, ours_p99), (Baseline, bare.port, bare_p99)):
                bench = server(port_, n)
                settle_client()
                await asyncio.gather(*(bench.dial(i) for i in range(n)))
                into.append(1000 * pct(bench.first_screen, 99))
                errors += len(bench.errors)
                for c in bench.callers:
                    if c is not None:
                        c.close()
                # Every session ends, and the server gives back memory 2 s after the last caller.
                await asyncio.sleep(6)
    finally:
        bare.stop()
    ratios = sorted(a / b for a, b in zip(ours_p99, bare_p99, strict=True) if b)
    return {
        "redial_rounds": rounds,
        "redial_first_bytes": first,
        "redial_first_screen_p99_ms": [round(v, 1) for v in ours_p99],
        "redial_bare_first_screen_p99_ms": [round(v, 1) for v in bare_p99],
        "redial_first_screen_p99_median_ms": round(statistics.median(ours_p99), 1) if ours_p99 else float("nan"),
        "redial_ratio_median": round(statistics.median(ratios), 2) if ratios else float("nan"),
        "redial_errors": errors,
    }


async def run(n: int, seconds: float, folder: Path, profile: str | None = None,
              idle: float = 30.0, alternate: int = 0, redial: int = 0) -> dict[str, object]:
    url = f"sqlite:///{folder}/load.db"
    # door.cfg defaults throughout, but for room for more callers than the default 300.
    srv = ServerProcess(folder, url, server={"max_callers": max(300, n), "negotiation_wait": 2.0, "login_delay": 1.0,
                                             "login_timeout": 1800},
                        env={"BGDOOR_STATS_SECONDS": "1"}).start()
    report: dict[str, object] = {"callers": n, "seconds": seconds, "pinned": PIN and len(CPUS) > 1}
    pin(None)
    try:
        pin(srv.pid)
        await asyncio.sleep(2)  # the bot and the database settle
        rss_idle = srv.rss_kb()
        bench = Bench(srv.port, n)
        settle_client()  # as before the bare server's dial: the bench's collector off for both
        t0 = time.monotonic()
        await asyncio.gather(*(bench.dial(i) for i in range(n)))
        dial_time = time.monotonic() - t0
        t0 = time.monotonic()
        # Seated 50 pairs at a time: a setup step, not the thing measured (a write waits 3 s at
        # most, and a thousand new players at once would queue longer than that).
        gate = asyncio.Semaphore(50)

        async def seat(i: int) -> None:
            async with gate:
                await bench.seat_pair(i, i + 1)

        await asyncio.gather(*(seat(i) for i in range(0, n - 1, 2)))
        seat_time = time.monotonic() - t0
        settle_client()
        await asyncio.sleep(2)
        rss_seated = srv.rss_kb()
        seated = sum(1 for c in bench.callers if c is not None and not c.closed)
        print(f"{seated} callers seated ({len(bench.movers)} on roll) in {seat_time:.1f} s; idle for {idle:.0f} s...",
              flush=True)
        # Idle: everyone on a game screen, nobody pressing anything.
        await asyncio.sleep(1.5)
        idle_from, idle_start = last_stat(srv.stderr()), time.monotonic()
        await asyncio.sleep(idle)
        await asyncio.sleep(1.1)  # the next stats line
        idle_to, idle_took = last_stat(srv.stderr()), time.monotonic() - idle_start
        idle_qps = (idle_to - idle_from) / idle_took if idle_from is not None and idle_to is not None else float("nan")
        print(f"idle: {idle_qps:.1f} queries a second; playing for {seconds:.0f} s...", flush=True)
        rss_samples: list[int] = []

        async def sample() -> None:
            while True:
                rss_samples.append(srv.rss_kb())
                await asyncio.sleep(1)

        sampler = asyncio.ensure_future(sample())
        spy = None
        if profile:
            # Sampling profile of the server while everyone plays (py-spy must be installed).
            spy = await asyncio.create_subprocess_exec(
                "py-spy", "record", "--nonblocking", "-r", "100", "-d", str(int(seconds)), "-f", "raw",
                "-o", profile, "-p", str(srv.pid), stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        cpu = cpu_seconds(srv.pid)
        await asyncio.gather(*(bench.press(i, seconds) for i in range(n)))
        cpu = cpu_seconds(srv.pid) - cpu  # the server's, the computer opponent's and the feed's threads too
        sampler.cancel()
        if spy is not None:
            await spy.wait()
        if alternate:
            report.update(await alternation(bench, n, seconds, folder, alternate))
        dropped = sum(1 for c in bench.callers if c is None or c.closed)
        leaks = [i for i, c in enumerate(bench.callers) if c is not None and c.leaked()]
        first_bytes = round(statistics.median(bench.first_bytes)) if bench.first_bytes else 2000
        for c in bench.callers:
            if c is not None:
                c.close()
        await asyncio.sleep(3)
        if redial:
            report.update(await redialling(srv.port, n, folder, redial, first_bytes))
        log = srv.stderr()
        rss_playing = max(rss_samples) if rss_samples else rss_seated
        key_p99_ms = round(1000 * pct(bench.latency, 99), 2)
        update_bytes_mean = round(statistics.mean(bench.update_bytes)) if bench.update_bytes else 0
        report.update(
            dial_seconds=round(dial_time, 2),
            seat_seconds=round(seat_time, 1),
            first_screen_p50_ms=round(1000 * pct(bench.first_screen, 50), 1),
            first_screen_p99_ms=round(1000 * pct(bench.first_screen, 99), 1),
            first_screen_max_ms=round(1000 * max(bench.first_screen, default=float("nan")), 1),
            keypresses=len(bench.latency),
            key_p50_ms=round(1000 * pct(bench.latency, 50), 2),
            key_p99_ms=key_p99_ms,
            key_max_ms=round(1000 * max(bench.latency, default=float("nan")), 1),
            cpu_us_per_key=round(1e6 * cpu / max(1, len(bench.latency))),
            key_resumed_p50_ms=round(1000 * pct(bench.resumed, 50), 2),
            key_resumed_p99_ms=round(1000 * pct(bench.resumed, 99), 2),
            first_screen_resumed_p99_ms=round(1000 * pct(bench.first_screen_resumed, 99), 1),
            cursor_keypresses=len(bench.cursor_latency),
            cursor_p50_ms=round(1000 * pct(bench.cursor_latency, 50), 2),
            cursor_p99_ms=round(1000 * pct(bench.cursor_latency, 99), 2),
            errors=len(bench.errors),
            error_samples=bench.errors[:10],
            dropped=dropped,
            traceback_leaks=len(leaks),
            server_tracebacks=log.count("Traceback"),
            rss_idle_mb=round(rss_idle / 1024, 1),
            rss_seated_mb=round(rss_seated / 1024, 1),
            rss_playing_max_mb=round(rss_playing / 1024, 1),
            rss_playing_mean_mb=round(statistics.mean(rss_samples) / 1024, 1) if rss_samples else None,
            rss_per_caller_kb=round((rss_playing - rss_idle) / max(1, n), 1),
            rss_after_mb=round(srv.rss_kb() / 1024, 1),
            server_alive=srv.alive(),
            idle_queries_per_second=round(idle_qps, 1),
            update_bytes_mean=update_bytes_mean,
        )
    finally:
        srv.stop()
    size = update_bytes_mean or 200
    print(f"baseline: a bare telnetlib3 server answering each key with {size} bytes...", flush=True)
    bare = await baseline(n, seconds, folder, size, first=size)
    report.update(bare)
    bare_p99 = bare["bare_key_p99_ms"]
    report["key_p99_ratio"] = round(key_p99_ms / bare_p99, 2) if bare_p99 else float("nan")
    resumed, bare_resumed = report["key_resumed_p99_ms"], bare["bare_key_resumed_p99_ms"]
    assert isinstance(resumed, float)
    report["key_resumed_p99_ratio"] = round(resumed / bare_resumed, 2) if bare_resumed else float("nan")
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of nobody pressing, for the idle query rate")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--no-pin", action="store_true",
                        help="do not keep each server on the first CPU and the callers on the others")
    parser.add_argument("--profile", help="py-spy the server while everyone plays; collapsed stacks to this file")
    parser.add_argument("--alternate", type=int, default=0, metavar="WINDOWS",
                        help="after the main figures, press keys on bgdoor and the bare server in turn, "
                             "in this many windows each (--seconds in all for each)")
    parser.add_argument("--redial", type=int, default=0, metavar="ROUNDS",
                        help="after the main figures, every caller dials bgdoor afresh and then the bare "
                             "server, this many times, for the first screen side by side")
    args = parser.parse_args()
    global PIN
    PIN = not args.no_pin
    if args.callers < 2 or args.callers % 2:
        parser.error("--callers is an even number, two to a game")
    with tempfile.TemporaryDirectory(prefix="bgdoor-load-") as folder:
        report = asyncio.run(run(args.callers, args.seconds, Path(folder), args.profile, args.idle, args.alternate,
                                 args.redial))
    goals = {
        "first_screen_p99_ms": ("<=", 1000.0),
        "redial_first_screen_p99_median_ms": ("<=", 1000.0),
        "key_p99_ratio": ("<=", 2.0),
        "errors": ("==", 0),
        "dropped": ("==", 0),
        "rss_per_caller_kb": ("<=", 150.0),
        "idle_queries_per_second": ("<=", 20.0),
    }
    width = max(len(k) for k in report)
    for key, value in report.items():
        goal = goals.get(key)
        mark = ""
        if goal is not None and isinstance(value, (int, float)):
            op, target = goal
            ok = {"<=": value <= target, "<": value < target, "==": value == target}[op]
            mark = f"   goal {op} {target:g}: {'met' if ok else 'MISSED'}"
        print(f"{key:<{width}}  {value}{mark}")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
