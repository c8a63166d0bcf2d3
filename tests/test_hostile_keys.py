"""Hostile bytes through the key decoder and hostile text through the screen, as properties.

The decoder must take any bytes, in any split, without error, in bounded memory,
giving keys whose text is printable; garbage must never wedge it.  The screen
must turn any text at all into only the server's own escape sequences and
printable characters, in each character set: what one caller types cannot put
control bytes on another caller's screen.
"""

from __future__ import annotations

import time
import tracemalloc

from hypothesis import HealthCheck, given, settings, strategies as st
from rawtelnet import screen_bytes_problem

from bgdoor.service.passwords import handle_problem
from bgdoor.term.charset import CHARSETS, Charset
from bgdoor.term.keys import MAX_SEQUENCE, Key, KeyDecoder
from bgdoor.term.screen import Screen

# Bytes a hostile caller likes: escape and telnet bytes, C1 controls, broken UTF-8, bidi overrides.
_NASTY = [
    b"\x1b", b"\x1b[", b"\x1b]", b"\x1bP", b"\x1b[?", b"\x1b[99999999;", b"\x9b", b"\x9d", b"\xc2\x9b", b"\xc2\x85",
    b"\xff", b"\xff\xfa", b"\xff\xf0", b"\x00", b"\r", b"\n", b"\x07", b"\x08", b"\x7f", b"\xe2\x80\xae",
    b"\xe2\x81\xa6", b"\xef\xbb\xbf", b"\xe2\x80\x8b", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"8", b"A",
]
hostile_bytes = st.lists(st.one_of(st.sampled_from(_NASTY), st.binary(max_size=8)), max_size=60).map(b"".join)


def feed_in_pieces(data: bytes, cuts: list[int], charset: Charset) -> list[Key]:
    d = KeyDecoder(charset)
    out: list[Key] = []
    last = 0
    for cut in sorted(set(c for c in cuts if 0 < c < len(data))):
        out += d.feed(data[last:cut])
        last = cut
    return out + d.feed(data[last:])


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_bytes, st.lists(st.integers(min_value=0, max_value=500), max_size=20), st.sampled_from(CHARSETS))
def test_any_bytes_in_any_split_give_the_same_keys(data: bytes, cuts: list[int], charset: Charset) -> None:
    whole = KeyDecoder(charset).feed(data)
    assert feed_in_pieces(data, cuts, charset) == whole


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(hostile_bytes, st.binary(max_size=400)), st.sampled_from(CHARSETS))
def test_keys_carry_only_printable_text(data: bytes, charset: Charset) -> None:
    d = KeyDecoder(charset)
    found = d.feed(data) + d.flush_timeout()
    assert len(found) <= len(data) + 1
    for key in found:
        assert key.char == "" or (len(key.char) == 1 and key.char.isprintable()), key
        if key.name == "report":
            assert key.data.startswith("\x1b[") and key.data[2:].isprintable(), key
        else:
            assert key.data == ""
    assert len(d._params) <= MAX_SEQUENCE and not d.pending


@settings(max_examples=300)
@given(hostile_bytes, st.sampled_from(CHARSETS))
def test_garbage_never_wedges_the_decoder(garbage: bytes, charset: Charset) -> None:
    d = KeyDecoder(charset)
    d.feed(garbage)
    d.flush_timeout()  # the line goes quiet for a moment
    assert d.feed(b"8")[-1:] == [Key("up", "8")]
    assert d.feed(b"\x1b[A") == [Key("up")]


def test_endless_input_costs_bounded_memory_and_time() -> None:
    floods = {
        "an endless CSI": b"\x1b[" + b"1;" * 50_000,
        "an endless OSC": b"\x1b]0;" + b"x" * 100_000,
        "endless ESCs": b"\x1b" * 100_000,
        "NULs": b"\x00" * 100_000,
        "IAC bytes": b"\xff" * 100_000,
        "C1 controls": b"\xc2\x9b" * 50_000,
        "bidi overrides": "\u202e".encode() * 33_000,
    }
    for what, flood in floods.items():
        for charset in CHARSETS:
            d = KeyDecoder(charset)
            tracemalloc.start()
            start = time.perf_counter()
            total = 0
            for i in range(0, len(flood), 4096):
                total += len(d.feed(flood[i : i + 4096]))  # keys are counted, not kept, as the console's cap does
            seconds = time.perf_counter() - start
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            assert len(d._params) <= MAX_SEQUENCE, (what, charset)
            assert peak < 1_000_000, f"{what} ({charset}) peaked at {peak} bytes"
            assert seconds < 20, f"{what} ({charset}) took {seconds:.1f} s"
            d.flush_timeout()
            assert d.feed(b"8") == [Key("up", "8")], (what, charset)


# ------------------------------------------------------------ the screen side

any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)  # controls, C1, bidi, surrogates...
injections = st.sampled_from([
    "\x1b[2J", "\x1b]0;owned\x07", "\x9b31m", "\x1bP+q\x1b\\", "\u202eevil", "\u2066x\u2069", "\x07\x07", "\x00",
    "\r\n", "\x08\x08", "\u0085", "\u2028", "\ufeff", "\x1b[6n", "\x0e", "\x1b(0", "\udc80",
])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.integers(1, 25), st.integers(1, 80), st.one_of(any_text, injections)), min_size=1, max_size=8
    ),
    st.sampled_from(CHARSETS),
)
def test_nothing_put_on_the_screen_can_inject(puts: list[tuple[int, int, str]], charset: Charset) -> None:
    screen = Screen(charset=charset)
    out = screen.full_redraw()
    for row, col, text in puts:
        screen.canvas.put(row, col, text)
        out += screen.render()
    problem = screen_bytes_problem(out, charset)
    assert problem is None, problem


@given(st.one_of(any_text, injections.map(lambda s: "ab" + s + "cd")))
def test_a_handle_with_anything_unprintable_is_refused(handle: str) -> None:
    if handle_problem(handle) is None:
        assert all(ch.isprintable() for ch in handle)
