"""Salted, slow password hashes (scrypt) and the handle rules."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from concurrent.futures import ThreadPoolExecutor

from bgdoor.store import handles

# About 16 MiB and some tens of milliseconds per hash: slow for a guesser, fine for a login.
N, R, P = 2**14, 8, 1
DKLEN = 32
MIN_PASSWORD = 4
MAX_PASSWORD = 128


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _scrypt_here(password: str, salt: bytes, n: int, r: int, p: int, dklen: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=256 * 1024 * 1024, dklen=dklen)


# Every hash runs on one thread of its own.  scrypt takes 16 MiB, which the C allocator then
# keeps in the arena of the thread that asked, so hashing on each database thread held 16 MiB
# on every one of them (65 MB of a server's memory); and a crowd logging in at once, or a
# guesser, can take at most one core.
_hasher: tuple[int, ThreadPoolExecutor] | None = None


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int, dklen: int) -> bytes:
    global _hasher
    if _hasher is None or _hasher[0] != os.getpid():  # a forked child has no such thread
        _hasher = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="scrypt"))
    return _hasher[1].submit(_scrypt_here, password, salt, n, r, p, dklen).result()


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = _scrypt(password, salt, N, R, P, DKLEN)
    # The parameters travel with the hash, so they can be raised later without breaking old ones.
    return f"scrypt${N}${R}${P}${_b64(salt)}${_b64(digest)}"


def check_password(password: str, stored: str | None) -> bool:
    if not stored:
        # Spend the same time as a real check, so a missing account is not told by the clock.
        _scrypt(password, b"\0" * 16, N, R, P, DKLEN)
        return False
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest)
        actual = _scrypt(password, base64.b64decode(salt), int(n), int(r), int(p), len(expected))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


def handle_problem(handle: str) -> str | None:
    """Why `handle` is not the form of any handle, old or new (length, control characters,
    spaces), or None.  Whether a new player may take it (drawable, unlike anyone's) is the
    service's new_handle_problem: a handle from before that rule still logs in."""
    return handles.form_problem(handle)


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
