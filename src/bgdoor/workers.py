"""Worker threads that leave signals to the main thread.

A signal sent to the process goes to any one of its threads that does not block it.  The event
loop takes signals on the main thread, and the door, on its way out, has a signal's default
action back for a moment before ignoring it, with the signal blocked on the main thread: a
SIGHUP that a worker thread took in that moment killed the door after its log said it had
ended cleanly.  So every thread bgdoor starts blocks the signals it handles.
"""

from __future__ import annotations

import contextlib
import signal
from concurrent.futures import ThreadPoolExecutor

SIGNALS = frozenset({signal.SIGHUP, signal.SIGTERM, signal.SIGINT, signal.SIGWINCH})


def leave_signals() -> None:
    """Block, on the calling thread, the signals the main thread handles."""
    with contextlib.suppress(AttributeError, OSError, ValueError):  # no pthread_sigmask
        signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)


def pool(workers: int | None, name: str) -> ThreadPoolExecutor:
    """A thread pool whose threads leave signals to the main thread (None: Python's default size)."""
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name, initializer=leave_signals)
