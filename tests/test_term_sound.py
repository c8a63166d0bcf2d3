"""Sound: nothing when off, BEL for attention elsewhere, ANSI music only for SyncTERM."""

from __future__ import annotations

import re

import pytest

from bgdoor.term.sound import TUNES, sound_bytes

# CTerm's music string alphabet; anything else voids the tune.
MUSIC_RE = re.compile(rb"\A\x1b\[\|[aAbBcCdDeEfFgGlLmMnNoOpPsStT0-9.\-+#<> ]+\x0e\Z")


@pytest.mark.parametrize("effect", sorted(TUNES))
def test_sound_off_is_silent(effect: str) -> None:
    assert sound_bytes(effect, False, True) == b""
    assert sound_bytes(effect, False, False) == b""


@pytest.mark.parametrize("effect", sorted(TUNES))
def test_syncterm_gets_background_music(effect: str) -> None:
    data = sound_bytes(effect, True, True)
    assert MUSIC_RE.match(data), data
    assert data[3:5] == b"MB"  # background: the screen keeps drawing


@pytest.mark.parametrize("effect", sorted(TUNES))
def test_other_terminals_get_at_most_a_bell(effect: str) -> None:
    assert sound_bytes(effect, True, False) in (b"", b"\x07")


def test_attention_effects_ring() -> None:
    assert sound_bytes("your_turn", True, False) == b"\x07"
    assert sound_bytes("move", True, False) == b""


def test_unknown_effect() -> None:
    with pytest.raises(ValueError):
        sound_bytes("fanfare", True, True)
