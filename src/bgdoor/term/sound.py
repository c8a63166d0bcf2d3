"""Sound effects: a BEL for any terminal, "ANSI music" for SyncTERM only.

CTerm (SyncTERM's terminal) documents three music introducers: CSI M (which
every other terminal reads as Delete Line), CSI N (BananaCom's), and its own
standard-conforming CSI |, which SyncTERM accepts by default.  A music string
uses the BASIC PLAY language (MB = play in the background, Tn tempo, On
octave, Ln note length, A-G notes, P pause, < > octave down/up) and ends with
SO (0x0E).  To any other terminal SO means "shift to the G1 character set"
and garbles the screen, so music is only ever sent once the terminal has
identified itself as CTerm (see keys.DA_REQUEST / keys.is_cterm_reply);
everyone else gets at most a BEL.
"""

from __future__ import annotations

BEL = b"\x07"
_MUSIC_INTRO = b"\x1b[|"
_MUSIC_END = b"\x0e"
# The characters CTerm accepts in a music string; anything else voids it.
_MUSIC_CHARS = frozenset("aAbBcCdDeEfFgGlLmMnNoOpPsStT0123456789.-+#<> ")

# Background play (MB) so the board keeps drawing while the tune runs.
TUNES: dict[str, str] = {
    "roll": "MBT255L64O3CEDFEG",
    "move": "MBT255L64O5C",
    "hit": "MBT200L32O4G<GE",
    "bearoff": "MBT220L32O4CEG",
    "your_turn": "MBT180L16O4CG",
    "double": "MBT160L8O4GP16G",
    "win": "MBT150L8O4CEG>C4",
    "lose": "MBT120L8O4GE-C4",
    "error": "MBT255L32O2CP32C",
    "chat": "MBT200L32O5EC",
}

# Effects worth a plain beep on terminals without music: they ask for attention.
_BEEPS = frozenset({"your_turn", "double", "win", "lose", "error", "chat"})

for _name, _tune in TUNES.items():
    assert set(_tune) <= _MUSIC_CHARS, _name


def sound_bytes(effect: str, sound_on: bool, is_syncterm: bool) -> bytes:
    """Bytes to send for a sound effect; empty when sound is off or the effect is silent here."""
    if effect not in TUNES:
        raise ValueError(f"unknown sound effect {effect!r}; one of {', '.join(sorted(TUNES))}")
    if not sound_on:
        return b""
    if is_syncterm:
        return _MUSIC_INTRO + TUNES[effect].encode("ascii") + _MUSIC_END
    return BEL if effect in _BEEPS else b""
