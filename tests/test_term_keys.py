"""The key decoder: every form of every key, split reads, the Esc pause, garbage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from bgdoor.term.charset import Charset
from bgdoor.term.keys import DA_REQUEST, MAX_SEQUENCE, Key, KeyDecoder, is_cterm_reply


def keys(data: bytes, charset: Charset = "cp437") -> list[Key]:
    return KeyDecoder(charset).feed(data)


def names(data: bytes, charset: Charset = "cp437") -> list[str]:
    return [k.name for k in keys(data, charset)]


def fed_in_pieces(data: bytes, cuts: list[int], charset: Charset = "cp437") -> list[Key]:
    d = KeyDecoder(charset)
    out: list[Key] = []
    last = 0
    for cut in sorted(set(cuts)) + [len(data)]:
        out += d.feed(data[last:cut])
        last = cut
    return out


# -- NUM LOCK keypad ------------------------------------------------------------


@pytest.mark.parametrize(
    "digit, meaning",
    [("8", "up"), ("2", "down"), ("4", "left"), ("6", "right"), ("7", "home"), ("9", "pgup"),
     ("1", "end"), ("3", "pgdn"), ("5", "act")],
)
def test_keypad_digits_carry_meaning_and_char(digit: str, meaning: str) -> None:
    assert keys(digit.encode()) == [Key(meaning, digit)]


def test_zero_is_just_a_digit() -> None:
    assert keys(b"0") == [Key("0", "0")]


def test_digits_still_type_text() -> None:
    assert "".join(k.char for k in keys(b"1234567890")) == "1234567890"


def test_enter_and_five_both_act() -> None:
    assert [k.acts for k in keys(b"5\r8")] == [True, True, False]


# -- letters and text ----------------------------------------------------------


def test_letters_are_case_insensitive_but_keep_the_char() -> None:
    assert keys(b"uU") == [Key("u", "u"), Key("u", "U")]


def test_punctuation_and_space() -> None:
    assert keys(b"? ") == [Key("?", "?"), Key(" ", " ")]


def test_special_keys_are_not_text() -> None:
    for k in keys(b"\r\x08\x1b[A\x0c"):
        assert not k.is_text


# -- arrows and cursor keys ----------------------------------------------------


@pytest.mark.parametrize("final, name", [("A", "up"), ("B", "down"), ("C", "right"), ("D", "left")])
def test_arrows_in_both_forms(final: str, name: str) -> None:
    assert names(b"\x1b[" + final.encode()) == [name]
    assert names(b"\x1bO" + final.encode()) == [name]


def test_arrows_with_modifiers_still_move() -> None:
    assert names(b"\x1b[1;5A\x1b[1;2D") == ["up", "left"]


@pytest.mark.parametrize(
    "seq, name",
    [
        # SyncTERM's own
        (b"\x1b[H", "home"),
        (b"\x1b[K", "end"),
        (b"\x1b[V", "pgup"),
        (b"\x1b[U", "pgdn"),
        (b"\x1b[@", "insert"),
        # VT220 / xterm / PuTTY / rxvt
        (b"\x1b[1~", "home"),
        (b"\x1b[2~", "insert"),
        (b"\x1b[3~", "delete"),
        (b"\x1b[4~", "end"),
        (b"\x1b[5~", "pgup"),
        (b"\x1b[6~", "pgdn"),
        (b"\x1b[7~", "home"),
        (b"\x1b[8~", "end"),
        (b"\x1b[F", "end"),
        (b"\x1bOH", "home"),
        (b"\x1bOF", "end"),
        (b"\x1b[5;5~", "pgup"),
        # keypad 5 with NUM LOCK off
        (b"\x1b[E", "act"),
        (b"\x1bOE", "act"),
        (b"\x1b[G", "act"),
        # function keys
        (b"\x1bOP", "f1"),
        (b"\x1b[11~", "f1"),
        (b"\x1b[15~", "f5"),
        (b"\x1b[17~", "f6"),
        (b"\x1b[24~", "f12"),
        (b"\x1b[Z", "backtab"),
    ],
)
def test_escape_sequences(seq: bytes, name: str) -> None:
    assert names(seq) == [name]


@pytest.mark.parametrize(
    "final, digit, meaning",
    [("x", "8", "up"), ("r", "2", "down"), ("t", "4", "left"), ("v", "6", "right"), ("u", "5", "act"),
     ("w", "7", "home"), ("y", "9", "pgup"), ("q", "1", "end"), ("s", "3", "pgdn"), ("p", "0", "0")],
)
def test_keypad_in_application_mode_is_the_same_as_digits(final: str, digit: str, meaning: str) -> None:
    assert keys(b"\x1bO" + final.encode()) == [Key(meaning, digit)]


def test_keypad_enter_in_application_mode() -> None:
    assert names(b"\x1bOM") == ["enter"]


# -- Enter ------------------------------------------------------------------------


@pytest.mark.parametrize("seq", [b"\r", b"\r\x00", b"\r\n", b"\n"])
def test_each_enter_form_is_one_enter(seq: bytes) -> None:
    assert names(seq) == ["enter"]
    assert names(seq * 3) == ["enter"] * 3


def test_cr_and_lf_in_separate_reads_are_one_enter() -> None:
    d = KeyDecoder()
    assert [k.name for k in d.feed(b"\r")] == ["enter"]
    assert d.feed(b"\n") == []
    assert [k.name for k in d.feed(b"\r")] == ["enter"]
    assert d.feed(b"\x00") == []
    assert [k.name for k in d.feed(b"a")] == ["a"]


def test_enter_then_text() -> None:
    assert names(b"\ra\n\nb") == ["enter", "a", "enter", "enter", "b"]


def test_two_carriage_returns_are_two_enters() -> None:
    assert names(b"\r\r\n") == ["enter", "enter"]


# -- editing and control keys --------------------------------------------------


@pytest.mark.parametrize("byte", [b"\x08", b"\x7f"])
def test_backspace_both_ways(byte: bytes) -> None:
    assert names(byte) == ["backspace"]


def test_ctrl_l_redraws() -> None:
    assert names(b"\x0c") == ["redraw"]


def test_other_controls() -> None:
    assert names(b"\x03\t\x00\x1c") == ["ctrl-c", "tab"]


# -- Esc and the pause --------------------------------------------------------------


def test_lone_esc_waits_for_the_pause() -> None:
    d = KeyDecoder()
    assert d.feed(b"\x1b") == []
    assert d.pending
    assert d.flush_timeout() == [Key("esc")]
    assert not d.pending
    assert d.flush_timeout() == []


def test_nothing_pending_after_complete_keys() -> None:
    d = KeyDecoder()
    d.feed(b"a\x1b[A\r")
    assert not d.pending


def test_sequence_split_across_reads() -> None:
    d = KeyDecoder()
    assert d.feed(b"\x1b") == []
    assert d.feed(b"[") == []
    assert d.pending
    assert d.feed(b"5") == []
    assert [k.name for k in d.feed(b"~")] == ["pgup"]
    assert not d.pending


def test_a_sequence_unfinished_at_the_pause_was_typed() -> None:
    d = KeyDecoder()
    d.feed(b"\x1b[1")
    assert d.flush_timeout() == [Key("esc"), Key("[", "["), Key("end", "1")]
    assert [k.name for k in d.feed(b"8")] == ["up"]


@pytest.mark.parametrize("second", ["O", "P", "X", "]", "_", "^", "["])
def test_esc_then_a_key_that_begins_a_sequence_gives_both_keys_at_the_pause(second: str) -> None:
    """Esc then O (Options) a tenth of a second apart: both keys were lost, and nothing was said.
    ESC O began an SS3 key, ESC P, X, ], _ and ^ a terminal's string, swallowed to its end."""
    d = KeyDecoder()
    assert d.feed(b"\x1b") == []
    assert d.feed(second.encode()) == []  # the line has not gone quiet yet: maybe the terminal
    assert d.pending
    assert d.flush_timeout() == [Key("esc"), Key(second.lower(), second)]
    assert not d.pending
    assert d.feed(b"q") == [Key("q", "q")], "the next key is read as itself"


def test_keys_typed_on_after_esc_p_come_back_in_order_at_the_pause() -> None:
    d = KeyDecoder()
    assert d.feed(b"\x1bP") == [] and d.feed(b"1") == [] and d.feed(b"w") == []
    assert d.flush_timeout() == [Key("esc"), Key("p", "P"), Key("end", "1"), Key("w", "w")]


def test_enter_or_esc_after_esc_o_or_esc_p_is_typing_at_once() -> None:
    assert keys(b"\x1bO\r") == [Key("esc"), Key("o", "O"), Key("enter")]
    assert keys(b"\x1bPx\x08") == [Key("esc"), Key("p", "P"), Key("x", "x"), Key("backspace")]
    d = KeyDecoder()
    assert d.feed(b"\x1b]\x1bv") == [Key("esc"), Key("]", "]"), Key("esc"), Key("v", "v")]
    assert d.feed(b"\x1bX\x1b") == []  # the ESC might begin the string's terminator
    assert d.flush_timeout() == [Key("esc"), Key("x", "X"), Key("esc")]


def test_real_sequences_arriving_together_or_split_within_the_pause_are_still_keys() -> None:
    assert keys(b"\x1bOP\x1bOA\x1bOq\x1bOM") == [Key("f1"), Key("up"), Key("end", "1"), Key("enter")]
    d = KeyDecoder()
    # Each part within the pause (no flush_timeout between): F1, as if in one read.
    assert d.feed(b"\x1b") == [] and d.feed(b"O") == [] and d.feed(b"P") == [Key("f1")]
    assert not d.pending
    d = KeyDecoder()
    assert d.feed(b"\x1b]11;rgb:00") == [] and d.feed(b"00/0000/0000\x07") == []
    assert d.feed(b"\x1bP1$r0") == [] and d.feed(b"m\x1b") == [] and d.feed(b"\\") == []
    assert not d.pending and d.flush_timeout() == []


def test_an_overlong_unfinished_sequence_is_not_given_back() -> None:
    d = KeyDecoder()
    d.feed(b"\x1b]" + b"x" * (MAX_SEQUENCE + 1))
    assert d.flush_timeout() == []
    d.feed(b"\x1b[" + b"1" * (MAX_SEQUENCE + 1) + b"\r")
    assert d.feed(b"") == [] and not d.pending


def test_esc_esc() -> None:
    d = KeyDecoder()
    assert [k.name for k in d.feed(b"\x1b\x1b")] == ["esc"]
    assert d.pending
    assert [k.name for k in d.feed(b"[B")] == ["down"]


def test_esc_then_letter_is_both() -> None:
    assert keys(b"\x1bq") == [Key("esc"), Key("q", "q")]


def test_sequence_broken_by_a_control_character_was_typed() -> None:
    assert names(b"\x1b[12\r") == ["esc", "[", "end", "down", "enter"]
    assert names(b"\x1bO\r") == ["esc", "o", "enter"]


# -- garbage ---------------------------------------------------------------------


def test_unknown_sequences_are_swallowed() -> None:
    assert names(b"\x1b[99~\x1b[2;5x\x1b[?1049h\x1bOz\x1b[>0;1q8") == ["up"]


def test_endless_sequence_is_capped() -> None:
    d = KeyDecoder()
    for _ in range(1000):
        assert d.feed(b"1;2;3;4;5;6;7;8;9;" * 10 if d.pending else b"\x1b[") == []
        assert len(d._params) <= MAX_SEQUENCE
    # The overlong sequence is dropped whole when it ends, and input goes on.
    assert d.feed(b"A") == []
    assert [k.name for k in d.feed(b"\x1b[A")] == ["up"]


def test_endless_sequence_ends_at_the_pause() -> None:
    d = KeyDecoder()
    d.feed(b"\x1b[" + b"7" * 100_000)
    assert d.pending
    d.flush_timeout()
    assert [k.name for k in d.feed(b"7")] == ["home"]


def test_strings_from_the_terminal_are_swallowed() -> None:
    assert names(b"\x1b]11;rgb:0000/0000/0000\x07a") == ["a"]
    assert names(b"\x1bP1$r0m\x1b\\b") == ["b"]


def test_endless_string_costs_no_memory_and_ends_at_the_pause() -> None:
    d = KeyDecoder()
    d.feed(b"\x1b]")
    for _ in range(100):
        assert d.feed(b"x" * 10_000) == []
    assert d.pending
    assert d.flush_timeout() == []
    assert names(b"y") == ["y"]
    assert [k.name for k in d.feed(b"y")] == ["y"]


@settings(max_examples=300)
@given(st.binary(max_size=300), st.sampled_from(["cp437", "utf8", "ascii"]))
def test_any_bytes_decode_without_error_and_in_bounded_memory(data: bytes, charset: Charset) -> None:
    d = KeyDecoder(charset)
    d.feed(data)
    assert len(d._params) <= MAX_SEQUENCE
    d.flush_timeout()
    assert not d.pending


# -- charsets --------------------------------------------------------------------


def test_cp437_high_bytes() -> None:
    assert keys(b"\x82\x81", "cp437") == [Key("é", "é"), Key("ü", "ü")]


def test_utf8_split_across_reads() -> None:
    d = KeyDecoder("utf8")
    assert d.feed(b"\xc3") == []
    assert d.feed(b"\xa9") == [Key("é", "é")]
    assert d.feed(b"\xe2\x82") == []
    assert d.feed(b"\xac8") == [Key("€", "€"), Key("up", "8")]


def test_utf8_errors_replaced() -> None:
    assert [k.char for k in keys(b"\xffa", "utf8")] == ["\ufffd", "a"]


def test_ascii_high_bytes_replaced() -> None:
    assert [k.char for k in keys(b"\xe9", "ascii")] == ["\ufffd"]


def test_uppercase_non_ascii_letter() -> None:
    assert keys("É".encode(), "utf8") == [Key("é", "É")]


# -- reports ------------------------------------------------------------------------


def test_cterm_device_attributes_reply_identifies_syncterm() -> None:
    assert DA_REQUEST == b"\x1b[c"
    (k,) = keys(b"\x1b[=67;84;101;114;109;1;316c")
    assert k.name == "report" and is_cterm_reply(k)
    (k,) = keys(b"\x1b[?1;2c")
    assert k.name == "report" and not is_cterm_reply(k)
    assert not is_cterm_reply(Key("c", "c"))


def test_cursor_position_report() -> None:
    assert keys(b"\x1b[25;80R") == [Key("report", data="\x1b[25;80R")]


# -- any split gives the same keys ----------------------------------------------------

_SAMPLES = [
    b"\x1b[A", b"\x1bOB", b"\x1b[5~", b"\x1b[K", b"\x1b[V", b"\x1b[U", b"\x1b[H", b"\r\n", b"\r\x00", b"\r",
    b"\n", b"8", b"5", b"u", b"Q", b"\x08", b"\x7f", b"\x0c", b"\x1bOx", b"\x1b[11~", b"\x1b[99~",
    "é".encode(), "€".encode(),
]


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(_SAMPLES), max_size=20),
    st.lists(st.integers(min_value=0, max_value=200), max_size=12),
)
def test_any_split_gives_the_same_keys(parts: list[bytes], cuts: list[int]) -> None:
    data = b"".join(parts)
    whole = KeyDecoder("utf8").feed(data)
    assert fed_in_pieces(data, [c for c in cuts if c <= len(data)], "utf8") == whole
