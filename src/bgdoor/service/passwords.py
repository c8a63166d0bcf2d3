"""Salted, slow password hashes (scrypt) and the handle rules."""

from __future__ import annotations

import base64
import hashlib
import heapq
import hmac
import itertools
import os
import threading
from concurrent.futures import Future

from bgdoor import workers
from bgdoor.store import handles

# About 16 MiB and some tens of milliseconds per hash: slow for a guesser, fine for a login.
N, R, P = 2**14, 8, 1
DKLEN = 32
MIN_PASSWORD = 4
MAX_PASSWORD = 128
HANDLE_LIMIT = handles.MAX_LENGTH  # characters a handle has at most
HANDLE_LEAST = handles.MIN_LENGTH  # and at least


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _scrypt_here(password: str, salt: bytes, n: int, r: int, p: int, dklen: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=256 * 1024 * 1024, dklen=dklen)


class _Hasher:
    """Every hash runs on one thread of its own, in order of urgency.

    scrypt takes 16 MiB, which the C allocator then keeps in the arena of the thread that
    asked, so hashing on each database thread held 16 MiB on every one of them (65 MB of a
    server's memory); and a crowd logging in at once, or a guesser, can take at most one core.

    A login from an address with no recent wrong password is urgent, and of urgent ones the
    newest goes first: a burst of guesses queued before the owner's try (each a fresh
    address's one unthrottled try; every later one is throttled before it is hashed) does not
    hold the owner back.  Everything else (registering, throttled tries) goes in order.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._jobs: list[tuple[int, int, Future[bytes], tuple[str, bytes, int, int, int, int]]] = []
        self._ready = threading.Condition()
        self._order = itertools.count()
        threading.Thread(target=self._run, name="scrypt", daemon=True).start()

    def submit(self, args: tuple[str, bytes, int, int, int, int], urgent: bool) -> Future[bytes]:
        done: Future[bytes] = Future()
        seq = next(self._order)
        with self._ready:
            heapq.heappush(self._jobs, (0 if urgent else 1, -seq if urgent else seq, done, args))
            self._ready.notify()
        return done

    def _run(self) -> None:
        workers.leave_signals()
        while True:
            with self._ready:
                while not self._jobs:
                    self._ready.wait()
                _, _, done, args = heapq.heappop(self._jobs)
            if not done.set_running_or_notify_cancel():
                continue
            try:
                done.set_result(_scrypt_here(*args))
            except BaseException as err:  # noqa: BLE001 - handed to the caller, who raises it
                done.set_exception(err)


_hasher: _Hasher | None = None
_hasher_lock = threading.Lock()


def _submit(password: str, salt: bytes, n: int, r: int, p: int, dklen: int, urgent: bool = False) -> Future[bytes]:
    global _hasher
    with _hasher_lock:
        if _hasher is None or _hasher.pid != os.getpid():  # a forked child has no such thread
            _hasher = _Hasher()
        return _hasher.submit((password, salt, n, r, p, dklen), urgent)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int, dklen: int) -> bytes:
    return _submit(password, salt, n, r, p, dklen).result()


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = _scrypt(password, salt, N, R, P, DKLEN)
    # The parameters travel with the hash, so they can be raised later without breaking old ones.
    return f"scrypt${N}${R}${P}${_b64(salt)}${_b64(digest)}"


def check_password(password: str, stored: str | None) -> bool:
    return start_check(password, stored).result()


def start_check(password: str, stored: str | None, urgent: bool = False) -> Future[bool]:
    """check_password without waiting: the answer comes when the hashing thread gets to it."""
    answer: Future[bool] = Future()
    answer.set_running_or_notify_cancel()
    expected = b""
    try:
        if not stored:
            raise ValueError("no password")
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            raise ValueError("not scrypt")
        expected = base64.b64decode(digest)
        job = _submit(password, base64.b64decode(salt), int(n), int(r), int(p), len(expected), urgent)
    except (ValueError, TypeError):
        # Spend the same time as a real check, so a missing account is not told by the clock.
        job = _submit(password, b"\0" * 16, N, R, P, DKLEN, urgent)
        expected = b""

    def compare(done: Future[bytes]) -> None:
        err = done.exception()
        if err is not None:
            answer.set_exception(err)
        else:
            answer.set_result(bool(expected) and hmac.compare_digest(done.result(), expected))

    job.add_done_callback(compare)
    return answer


def handle_problem(handle: str) -> str | None:
    """Why `handle` is not the form of any handle, old or new (length, control characters,
    spaces), or None.  Whether a new player may take it (drawable, unlike anyone's) is the
    service's new_handle_problem: a handle from before that rule still logs in."""
    return handles.form_problem(handle)


def tidy_handle(handle: str) -> str:
    """`handle` as a new player's is kept: its runs of spaces made one (`a  b` is `a b`)."""
    return handles.tidy(handle)


def password_problem(password: str) -> str | None:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    if not password.isprintable():
        return "a password cannot contain control characters"
    return None


def handle_key(handle: str) -> str:
    """The handle as the unique index sees it: without regard to case."""
    return handles.key(handle)
