"""RLogin handshakes and door.cfg's [rlogin] and [bbs TAG] sections, without a server."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgdoor.config import ConfigError, load_config
from bgdoor.transport.rlogin import (
    MAX_HANDSHAKE,
    Handshake,
    Refused,
    WindowSizes,
    authorize,
    parse_handshake,
    terminal_rows,
    terminal_size,
)

CFG = """
[rlogin]
port = 5513
host = 127.0.0.1
show_board = always

[bbs DEMO]
name = Demo Board
secret = change-me
addresses = 127.0.0.0/8, 192.0.2.10

[bbs dp]
name = DoorParty
auth = address
addresses = 198.51.100.0/24
"""


@pytest.fixture
def config(tmp_path: Path):
    path = tmp_path / "door.cfg"
    path.write_text(CFG)
    return load_config(path)


def test_config_reads_rlogin_and_member_bbses(config) -> None:
    assert (config.rlogin_port, config.rlogin_host, config.show_board) == (5513, "127.0.0.1", "always")
    assert set(config.bbses) == {"DEMO", "DP"}  # tags are upper case, whatever the section says
    demo = config.bbses["DEMO"]
    assert (demo.name, demo.secret, demo.auth) == ("Demo Board", "change-me", "secret")
    assert demo.allows("127.0.0.5") and demo.allows("192.0.2.10") and not demo.allows("192.0.2.11")
    assert demo.allows("::ffff:127.0.0.1")  # an IPv4 caller on a dual-stack socket
    assert config.bbses["DP"].auth == "address" and config.bbses["DP"].secret == ""
    # No max_callers of its own: only the server's limits the board's callers.
    assert demo.max_callers is None


def test_a_member_bbs_may_have_its_own_max_callers(tmp_path: Path) -> None:
    path = tmp_path / "door.cfg"
    path.write_text("[bbs DEMO]\nsecret = x\naddresses = 127.0.0.1\nmax_callers = 20\n")
    assert load_config(path).bbses["DEMO"].max_callers == 20


def test_rlogin_is_off_by_default(tmp_path: Path) -> None:
    path = tmp_path / "door.cfg"
    path.write_text("[server]\nport = 2323\n")
    config = load_config(path)
    assert config.rlogin_port == 0 and config.bbses == {}


@pytest.mark.parametrize(
    "section, says",
    [
        ("[bbs DEMO]\naddresses = 127.0.0.1\n", "needs a secret"),
        ("[bbs DEMO]\nsecret = x\n", "addresses"),
        ("[bbs DEMO]\nsecret = x\naddresses = not-an-ip\n", "not an address"),
        ("[bbs TOOLONGTAG]\nsecret = x\naddresses = 127.0.0.1\n", "1 to 8"),
        ("[bbs DEMO]\nsecret = x\naddresses = 127.0.0.1\nauth = magic\n", "auth is"),
        ("[bbs DEMO]\nsecret = x\naddresses = 127.0.0.1\ncolour = red\n", "unknown key"),
        ("[bbs DEMO]\nsecret = x\naddresses = 127.0.0.1\nmax_callers = 0\n", "max_callers must be at least 1"),
        ("[bbs DEMO]\nsecret = x\naddresses = 127.0.0.1\nmax_callers = lots\n", "whole number"),
        ("[bbs]\nsecret = x\n", "[bbs TAG]"),
        ("[rlogin]\nshow_board = sometimes\n", "show_board"),
        (
            "[bbs DEMO]\nsecret = x\naddresses = 127.0.0.1\n[bbs demo]\nsecret = y\naddresses = 127.0.0.1\n",
            "two sections",
        ),
    ],
)
def test_bad_sections_are_refused_with_the_reason(tmp_path: Path, section: str, says: str) -> None:
    path = tmp_path / "door.cfg"
    path.write_text(section)
    with pytest.raises(ConfigError, match=None) as err:
        load_config(path)
    assert says in str(err.value)


def test_handshake_fields_and_what_follows() -> None:
    hs = parse_handshake(b"\0change-me\0[DEMO]alice\0ansi-bbs/115200\0keys")
    assert hs == Handshake("change-me", "[DEMO]alice", "ansi-bbs", b"keys")
    assert parse_handshake(b"\0alice\0[DP]alice\0xtrn=BGDOOR\0") == Handshake("alice", "[DP]alice", "", b"")
    # Incomplete: more is to come.
    assert parse_handshake(b"\0change-me\0[DEMO]al") is None
    assert parse_handshake(b"") is None


def test_a_cp437_alias_is_read_as_cp437() -> None:
    hs = parse_handshake(b"\0s\0[DEMO]J\x81rgen\0ansi-bbs/9600\0")
    assert hs is not None and hs.server_user == "[DEMO]Jürgen"


@pytest.mark.parametrize(
    "data",
    [b"alice\0bob\0ansi\0", b"\0" + b"a" * (MAX_HANDSHAKE + 10), b"\0a\0b\0" + b"t" * MAX_HANDSHAKE + b"\0"],
)
def test_malformed_handshakes(data: bytes) -> None:
    with pytest.raises(Refused, match="Malformed"):
        parse_handshake(data)


def test_terminal_size() -> None:
    assert terminal_rows("ansi-bbs") == 24
    assert terminal_rows("ansi-bbs-80x25") == 25
    assert terminal_rows("xterm-80x50") == 25
    assert terminal_rows("") == 24
    # The columns too: a 40-column caller's gateway that never answers the window request.
    assert terminal_size("ansi-bbs-40x24") == (40, 24)
    assert terminal_size("ansi-bbs") == (80, 24)


def test_accepted_forms_and_charsets(config) -> None:
    sync = authorize(Handshake("change-me", "[DEMO]alice", "ansi-bbs", b""), "127.0.0.1", config)
    assert (sync.bbs.tag, sync.alias, sync.charset, sync.rows) == ("DEMO", "alice", "cp437", 24)
    door_party = authorize(Handshake("bob", "[dp]bob", "", b""), "198.51.100.7", config)
    assert (door_party.bbs.tag, door_party.alias, door_party.charset) == ("DP", "bob", "cp437")
    assert authorize(Handshake("change-me", "[DEMO]carol", "xterm", b""), "127.0.0.1", config).charset == "utf8"
    assert authorize(Handshake("change-me", "[DEMO]dave", "syncterm", b""), "127.0.0.1", config).charset == "cp437"


@pytest.mark.parametrize(
    "terminal, charset, cols",
    [
        ("dumb-80x25", "ascii", 80),
        ("ascii-80x25", "ascii", 80),
        ("TTY-40x24", "ascii", 40),
        ("dumb", "ascii", 80),
        ("ansi-bbs-80x25", "cp437", 80),
        ("syncterm-80x25", "cp437", 80),
        ("xterm-80x25", "utf8", 80),
        ("80x25", "cp437", 80),
    ],
)
def test_a_size_after_the_terminal_type_leaves_the_charset(config, terminal: str, charset: str, cols: int) -> None:
    entry = authorize(Handshake("change-me", "[DEMO]erin", terminal, b""), "127.0.0.1", config)
    assert (entry.charset, entry.cols) == (charset, cols)


@pytest.mark.parametrize(
    "hs, address, line",
    [
        (Handshake("change-me", "[NOPE]alice", "ansi", b""), "127.0.0.1", "Unknown BBS tag"),
        (Handshake("wrong", "[DEMO]alice", "ansi", b""), "127.0.0.1", "Wrong secret"),
        (Handshake("change-me", "[DEMO]alice", "ansi", b""), "203.0.113.9", "does not call from this address"),
        (Handshake("bob", "[DP]bob", "ansi", b""), "127.0.0.1", "does not call from this address"),
        (Handshake("change-me", "alice", "ansi", b""), "127.0.0.1", "No BBS tag"),
        (Handshake("change-me", "[DEMO]", "ansi", b""), "127.0.0.1", "No alias"),
        (Handshake("change-me", "[DEMO]al\x1bice", "ansi", b""), "127.0.0.1", "it has control characters in it"),
        # Said apart: 'control characters or is too long' left the sysop guessing which.
        (Handshake("change-me", "[DEMO]" + "L" * 300, "ansi", b""), "127.0.0.1", "it is longer than 40 characters"),
    ],
)
def test_refusals(config, hs: Handshake, address: str, line: str) -> None:
    with pytest.raises(Refused) as err:
        authorize(hs, address, config)
    assert line in err.value.line
    assert "\n" not in err.value.line and len(err.value.line) <= 79
    assert "change-me" not in err.value.reason  # the secret never reaches the log


@pytest.mark.parametrize(
    "server_user, said",
    [
        ("[ZZZ]bob", "Unknown BBS tag ZZZ; "),
        ("[zz z]bob", "Unknown BBS tag ZZ Z; "),
        ("[A\x1b[2J\x07é]bob", "Unknown BBS tag A?[2J??; "),
        ("[" + "Q" * 300 + "]bob", "Unknown BBS tag " + "Q" * 16 + "...; "),
        ("[]bob", "Empty BBS tag; "),
    ],
)
def test_an_unknown_tag_is_named_to_the_caller_safely(config, server_user: str, said: str) -> None:
    """A play-tester's caller was told 'Unknown BBS tag' with no word of which, though the log
    named it; the tag comes from the network, so it is shown printable and cut."""
    with pytest.raises(Refused) as err:
        authorize(Handshake("change-me", server_user, "ansi", b""), "127.0.0.1", config)
    assert err.value.line.startswith(said) and err.value.line.isprintable() and err.value.line.isascii()
    assert len(err.value.line) <= 79


def _window(cols: int, rows: int) -> bytes:
    return b"\xff\xffss" + rows.to_bytes(2, "big") + cols.to_bytes(2, "big") + bytes(4)


def test_window_messages_are_taken_out_of_the_input_wherever_reads_split_them() -> None:
    stream = b"ab" + _window(60, 20) + b"c\xffd" + _window(132, 50) + b"\xff"
    for cut in range(len(stream) + 1):
        sizes = WindowSizes()
        first, got = sizes.feed(stream[:cut])
        second, more = sizes.feed(stream[cut:])
        # A 0xFF key at the very end waits for what may follow it, then is a key after all.
        assert first + second + sizes.release() == b"abc\xffd\xff", cut
        assert got + more == [(60, 20), (132, 50)], cut


def test_bytes_that_only_look_like_a_window_message_are_keys() -> None:
    sizes = WindowSizes()
    data, got = sizes.feed(b"\xff\xffsx\xff\xff\xffss")
    assert got == []
    assert data + sizes.release() == b"\xff\xffsx\xff\xff\xffss"
