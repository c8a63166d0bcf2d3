"""The pause-before-commit fault hook, loaded at start-up by a bgdoor process a fault test starts.

The test puts this folder on the child's PYTHONPATH (see tests/test_faults_kill.py), so Python
imports this module before bgdoor runs.  While the file that BGDOOR_TEST_PAUSE_BEFORE_COMMIT
names exists, every write transaction waits (the seconds written in the file; 5 if it is empty)
after its last statement and before COMMIT, and logs that it does, so the test can kill the
process with a turn half-committed.  The production code knows nothing of it.
"""

from __future__ import annotations

import logging
import os
import time

_PATH = os.environ.get("BGDOOR_TEST_PAUSE_BEFORE_COMMIT")

if _PATH:
    from sqlalchemy import Connection, Engine, event

    from bgdoor.store.db import WRITE

    def _pause_before_commit(conn: Connection) -> None:
        if not conn.get_execution_options().get(WRITE):
            return
        try:
            with open(str(_PATH)) as f:
                seconds = float(f.read().strip() or 5)
        except (OSError, ValueError):
            return
        logging.getLogger("bgdoor.service").warning("test hook: pausing %.1f s before commit", seconds)
        time.sleep(seconds)

    event.listen(Engine, "commit", _pause_before_commit)
