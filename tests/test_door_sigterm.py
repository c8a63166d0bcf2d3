"""A BBS closing a door with SIGTERM (the sysop's 'kick node', a shutdown): the half-played turn
is kept as a hang-up keeps it, and the door ends cleanly."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from doorharness import PtyDoor, door32
from test_door_e2e import game_waiting_for

from bgdoor.service import Service

pytestmark = pytest.mark.timeout(120)


def test_sigterm_keeps_the_turn_half_played_and_ends_the_door(tmp_path: Path) -> None:
    """SIGTERM had killed the door outright: the moves on the board went with it."""
    url = f"sqlite:///{tmp_path}/bg.db"
    game_id = game_waiting_for(url, "Termed")
    door = PtyDoor(door32(tmp_path / "door32.sys", "Termed"), url, tmp_path / "door.log")
    try:
        door.wait_for("1 game waiting")
        door.send("P")
        door.wait_for("Your turn 3-1")
        door.send("\r2" + "6" * 2 + "\r")  # the cursor starts on 13: 13 to 10
        door.wait_for("Moved 13/10")
        door.proc.send_signal(signal.SIGTERM)
        assert door.wait_exit(timeout=10) == 0
    finally:
        door.close()
    with Service(url) as svc:
        player = svc.enter_from_door("Termed").id
        draft = svc.draft(player, game_id)
    assert draft is not None and draft.moves == ((13, 10),), draft
