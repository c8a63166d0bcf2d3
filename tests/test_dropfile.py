"""Drop files: each format from generated samples, and every way one can be wrong."""

from __future__ import annotations

import builtins
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from bgdoor.transport.dropfile import DropFileError, DropInfo, parse_dropfile, read_dropfile

ENDINGS = {"crlf": "\r\n", "lf": "\n", "cr": "\r"}


def door32_lines(**over: str) -> list[str]:
    fields = {
        "comm": "2", "handle": "7", "baud": "38400", "bbs": "Mystic 1.12 A48", "record": "5",
        "real": "John Smith", "alias": "Gammon Joe", "security": "20", "minutes": "58",
        "emulation": "1", "node": "3",
    }  # fmt: skip
    fields.update(over)
    return list(fields.values())


def doorsys_lines(count: int = 52, **over: str) -> list[str]:
    lines = [
        "COM1:", "2400", "8", "4", "19200", "Y", "Y", "Y", "Y", "Rick Greer", "Lewisville, Tx.",
        "214 221-7814", "214 221-7814", "PASSWORD", "110", "1456", "03/14/88", "7560", "126", "GR",
        "23", "Y", "1,2,3,4,5,6,7", "7", "01/01/99", "1", "Y", "0", "0", "0", "999999",
        # the 52-line form's additions: line 35 is the sysop's name, 36 the alias
        "10/22/88", "G:\\GAP\\MAIN", "G:\\GAP\\GEN", "Michael", "Stud", "00:05", "Y", "N", "Y",
        "14", "0", "07/07/90", "12:00", "11:00", "9999", "0", "0", "0", "None", "0", "0",
    ]  # fmt: skip
    assert len(lines) == 52
    fields = {"port": 1, "baud": 2, "node": 4, "name": 10, "security": 15, "minutes": 19, "graphics": 20, "alias": 36}
    for key, value in over.items():
        lines[fields[key] - 1] = value
    return lines[:count]


def dorinfo_lines(count: int = 13, **over: str) -> list[str]:
    fields = {
        "bbs": "Dix Bates Gates BBS", "sysop_first": "Dick", "sysop_last": "Dennison", "port": "COM1",
        "baud": "2400 BAUD,N,8,1", "network": "0", "first": "Jose", "last": "Canseco",
        "location": "Middletown NY", "graphics": "1", "security": "10", "minutes": "60", "fossil": "-1",
    }  # fmt: skip
    fields.update(over)
    return list(fields.values())[:count]


def chain_lines(count: int = 31, **over: str) -> list[str]:
    fields = {
        "number": "1", "alias": "MRBILL", "real": "Bill", "callsign": "", "age": "21", "sex": "M",
        "gold": "  16097.00", "laston": "05/19/89", "columns": "80", "lines": "25", "security": "255",
        "cosysop": "1", "sysop": "1", "ansi": "1", "remote": "1", "seconds": "    2225.78",
        "gfiles": "F:\\WWIV\\GFILES\\", "data": "F:\\WWIV\\DATA\\", "log": "890519.LOG", "baud": "2400",
        "port": "2", "bbs": "MrBill's Abode", "sysop_name": "MrBill", "logon": "83680", "secs_on": "554",
        "up_k": "5050", "uploads": "22", "down_k": "42", "downloads": "1", "parity": "8N1",
        "port_baud": "2400",
    }  # fmt: skip
    fields.update(over)
    return list(fields.values())[:count]


def write(tmp_path: Path, name: str, lines: list[str], ending: str = "\r\n", *, final: bool = True) -> Path:
    path = tmp_path / name
    text = ending.join(lines) + (ending if final else "")
    path.write_bytes(text.encode("cp437"))
    return path


def error_of(path: Path) -> str:
    with pytest.raises(DropFileError) as info:
        read_dropfile(path)
    message = str(info.value)
    assert "\n" not in message
    assert str(path) in message
    return message


# ------------------------------------------------------------------ DOOR32.SYS


@pytest.mark.parametrize("ending", ENDINGS.values(), ids=ENDINGS.keys())
def test_door32_sys(tmp_path: Path, ending: str) -> None:
    info = read_dropfile(write(tmp_path, "door32.sys", door32_lines(), ending))
    assert info == DropInfo(
        kind="DOOR32.SYS",
        alias="Gammon Joe",
        real_name="John Smith",
        comm_type="telnet",
        handle=7,
        baud=38400,
        node=3,
        minutes_left=58,
        emulation="ansi",
        bbs_name="Mystic 1.12 A48",
        security=20,
        path=str(tmp_path / "door32.sys"),
    )
    assert info.charset == "cp437"
    assert not info.local


def test_door32_upper_case_name_and_no_final_newline(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "DOOR32.SYS", door32_lines(), final=False))
    assert info.kind == "DOOR32.SYS" and info.node == 3


@pytest.mark.parametrize(
    ("comm", "comm_type", "handle"), [("0", "local", None), ("1", "serial", 7), ("2", "telnet", 7)]
)
def test_door32_comm_types(tmp_path: Path, comm: str, comm_type: str, handle: int | None) -> None:
    info = read_dropfile(write(tmp_path, "door32.sys", door32_lines(comm=comm)))
    assert info.comm_type == comm_type
    assert info.handle == handle
    assert info.local == (comm_type == "local")


def test_door32_enigma_stdio_handle(tmp_path: Path) -> None:
    # ENiGMA½ runs stdio doors and writes comm type 2 with handle -1.
    info = read_dropfile(write(tmp_path, "door32.sys", door32_lines(comm="2", handle="-1", baud="115200")))
    assert info.comm_type == "telnet"
    assert info.handle == -1


@pytest.mark.parametrize(
    ("emulation", "expected"), [("0", "ascii"), ("1", "ansi"), ("2", "ansi"), ("3", "ansi"), ("4", "ansi")]
)
def test_door32_emulation(tmp_path: Path, emulation: str, expected: str) -> None:
    info = read_dropfile(write(tmp_path, "door32.sys", door32_lines(emulation=emulation)))
    assert info.emulation == expected
    assert info.charset == ("ascii" if expected == "ascii" else "cp437")


def test_door32_alias_falls_back_to_real_name(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "door32.sys", door32_lines(alias="")))
    assert info.alias == "John Smith"
    assert info.real_name == "John Smith"


def test_door32_real_name_falls_back_to_alias(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "door32.sys", door32_lines(real="  ")))
    assert info.alias == "Gammon Joe"
    assert info.real_name == "Gammon Joe"


def test_door32_trailing_whitespace_and_cp437_name(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "door32.sys", door32_lines(alias="Ümlaut ░▒▓  ", minutes="58   ")))
    assert info.alias == "Ümlaut ░▒▓"
    assert info.minutes_left == 58


def test_control_characters_are_removed_from_names_but_the_alias_is_kept_exactly(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "door32.sys", door32_lines(alias="\x1b[2JEvil\x07", bbs="Board\x1b")))
    # The alias is the caller's identity: kept exactly (the service makes the handle shown).
    assert info.alias == "\x1b[2JEvil\x07" and info.real_name == "John Smith"
    assert info.bbs_name == "Board"


def test_door32_latin1_bytes_are_read_as_cp437(tmp_path: Path) -> None:
    path = tmp_path / "door32.sys"
    data = "\r\n".join(door32_lines(alias="X")).encode() + b"\r\n"
    path.write_bytes(data.replace(b"\r\nX\r\n", b"\r\nJos\xe9\r\n"))  # latin-1 é
    assert read_dropfile(path).alias == "Jos\u0398"  # the same byte in CP437


def test_door32_ctrl_z_end_of_file(tmp_path: Path) -> None:
    path = tmp_path / "door32.sys"
    path.write_bytes(("\r\n".join(door32_lines()) + "\r\n").encode() + b"\x1a")
    assert read_dropfile(path).node == 3


def test_door32_negative_minutes_are_zero(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "door32.sys", door32_lines(minutes="-5")))
    assert (info.minutes_left, info.minutes_written) == (0, -5)  # -5 kept for the log


# ------------------------------------------------------------------ DOOR.SYS


@pytest.mark.parametrize("ending", ENDINGS.values(), ids=ENDINGS.keys())
def test_door_sys_52_lines(tmp_path: Path, ending: str) -> None:
    info = read_dropfile(write(tmp_path, "DOOR.SYS", doorsys_lines(), ending))
    assert info.kind == "DOOR.SYS"
    assert info.real_name == "Rick Greer"
    assert info.alias == "Stud"  # line 36
    assert info.comm_type == "serial"
    assert info.handle is None
    assert info.baud == 2400
    assert info.node == 4
    assert info.security == 110  # line 15
    assert info.minutes_left == 126  # line 19, not the seconds on line 18
    assert info.emulation == "ansi"
    assert info.bbs_name is None


@pytest.mark.parametrize("count", [31, 20])
def test_door_sys_short_forms_use_the_real_name(tmp_path: Path, count: int) -> None:
    info = read_dropfile(write(tmp_path, "door.sys", doorsys_lines(count)))
    assert info.alias == "Rick Greer"
    assert info.real_name == "Rick Greer"
    assert info.minutes_left == 126


def test_door_sys_empty_alias_uses_the_real_name(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "door.sys", doorsys_lines(alias="")))
    assert info.alias == "Rick Greer"


@pytest.mark.parametrize(
    ("graphics", "emulation"), [("GR", "ansi"), ("gr", "ansi"), ("RIP", "ansi"), ("NG", "ascii"), ("7E", "ascii")]
)
def test_door_sys_graphics(tmp_path: Path, graphics: str, emulation: str) -> None:
    assert read_dropfile(write(tmp_path, "door.sys", doorsys_lines(graphics=graphics))).emulation == emulation


@pytest.mark.parametrize(
    ("port", "comm_type", "handle"),
    [
        ("COM0:", "local", None),
        ("COM0", "local", None),  # WWIV leaves the colon out
        ("COM2:", "serial", None),
        ("COM0:STDIO", "telnet", None),
        ("COM0:SOCKET12", "telnet", 12),
    ],
)
def test_door_sys_ports(tmp_path: Path, port: str, comm_type: str, handle: int | None) -> None:
    info = read_dropfile(write(tmp_path, "door.sys", doorsys_lines(port=port)))
    assert (info.comm_type, info.handle) == (comm_type, handle)


# ------------------------------------------------------------------ DORINFOx.DEF


@pytest.mark.parametrize("ending", ENDINGS.values(), ids=ENDINGS.keys())
def test_dorinfo(tmp_path: Path, ending: str) -> None:
    info = read_dropfile(write(tmp_path, "DORINFO2.DEF", dorinfo_lines(), ending))
    assert info.kind == "DORINFO"
    assert info.alias == "Jose Canseco"
    assert info.real_name == "Jose Canseco"
    assert info.bbs_name == "Dix Bates Gates BBS"
    assert info.comm_type == "serial"
    assert info.baud == 2400
    assert info.node == 2
    assert info.security == 10
    assert info.minutes_left == 60
    assert info.emulation == "ansi"


@pytest.mark.parametrize(
    ("name", "node"), [("dorinfo1.def", 1), ("DORINFO9.DEF", 9), ("DORINFO0.DEF", 10), ("DORINFOA.DEF", None)]
)
def test_dorinfo_node_from_name(tmp_path: Path, name: str, node: int | None) -> None:
    assert read_dropfile(write(tmp_path, name, dorinfo_lines())).node == node


@pytest.mark.parametrize(("graphics", "emulation"), [("0", "ascii"), ("1", "ansi"), ("2", "ansi")])
def test_dorinfo_graphics(tmp_path: Path, graphics: str, emulation: str) -> None:
    assert read_dropfile(write(tmp_path, "dorinfo1.def", dorinfo_lines(graphics=graphics))).emulation == emulation


@pytest.mark.parametrize("port", ["COM0", "0", "COM0:"])
def test_dorinfo_local(tmp_path: Path, port: str) -> None:
    info = read_dropfile(write(tmp_path, "dorinfo1.def", dorinfo_lines(port=port, baud="0 BAUD,N,8,1")))
    assert info.comm_type == "local"
    assert info.baud == 0


def test_dorinfo_twelve_lines_and_alias_on_first_name_line(tmp_path: Path) -> None:
    # WWIV writes 12 lines, and an alias as the first name with an empty last name.
    info = read_dropfile(write(tmp_path, "dorinfo1.def", dorinfo_lines(12, first="Gammon", last="", sysop_last="")))
    assert info.alias == "Gammon"


# ------------------------------------------------------------------ CHAIN.TXT


@pytest.mark.parametrize("ending", ENDINGS.values(), ids=ENDINGS.keys())
def test_chain_txt(tmp_path: Path, ending: str) -> None:
    info = read_dropfile(write(tmp_path, "CHAIN.TXT", chain_lines(), ending))
    assert info.kind == "CHAIN.TXT"
    assert info.alias == "MRBILL"
    assert info.real_name == "Bill"
    assert info.security == 255
    assert info.emulation == "ansi"
    assert info.comm_type == "telnet"
    assert info.minutes_left == 37  # 2225.78 seconds
    assert info.baud == 2400
    assert info.bbs_name == "MrBill's Abode"
    assert info.node is None


def test_chain_txt_local_keyboard(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "chain.txt", chain_lines(remote="0", baud="KB", ansi="0")))
    assert info.comm_type == "local"
    assert info.baud == 0
    assert info.emulation == "ascii"


def test_chain_txt_alias_fallback(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "chain.txt", chain_lines(alias="")))
    assert info.alias == "Bill"


def test_chain_txt_short_form(tmp_path: Path) -> None:
    info = read_dropfile(write(tmp_path, "chain.txt", chain_lines(16)))
    assert info.bbs_name is None and info.baud == 0 and info.minutes_left == 37


# ------------------------------------------------------------------ kind by content


@pytest.mark.parametrize(
    ("lines", "kind"),
    [
        (door32_lines(), "DOOR32.SYS"),
        (doorsys_lines(), "DOOR.SYS"),
        (doorsys_lines(31), "DOOR.SYS"),
        (dorinfo_lines(), "DORINFO"),
        (chain_lines(), "CHAIN.TXT"),
    ],
)
def test_kind_from_content(tmp_path: Path, lines: list[str], kind: str) -> None:
    assert read_dropfile(write(tmp_path, "dropfile.txt", lines)).kind == kind


def test_a_renamed_door32_with_a_bad_line_says_which_line(tmp_path: Path) -> None:
    """Named noperm.sys, a DOOR32.SYS whose minutes line read 'abc' got 'unknown drop file kind';
    named door32.sys it got 'line 9: minutes left must be a number'."""
    message = error_of(write(tmp_path, "noperm.sys", door32_lines(minutes="abc")))
    assert "line 9" in message and "minutes left must be a number" in message, message


def test_unknown_kind(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, "notes.txt", ["hello", "world"]))
    assert "unknown drop file kind" in message


# ------------------------------------------------------------------ malformed files


def test_missing_file(tmp_path: Path) -> None:
    assert "no such drop file" in error_of(tmp_path / "door32.sys")


def test_directory_is_not_a_drop_file(tmp_path: Path) -> None:
    (tmp_path / "door32.sys").mkdir()
    assert "directory" in error_of(tmp_path / "door32.sys")


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests may run as root, where chmod 000 does not stop a read: fake the refusal.
    path = write(tmp_path, "door32.sys", door32_lines())
    real_open = builtins.open

    def refusing_open(file: Any, *args: Any, **kwargs: Any) -> Any:  # open()'s overloads, passed on as they are
        if os.fspath(file) == str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refusing_open)
    assert "permission denied" in error_of(path)


def test_other_read_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "door32.sys", door32_lines())
    real_open = builtins.open

    def failing_open(file: Any, *args: Any, **kwargs: Any) -> Any:  # open()'s overloads, passed on as they are
        if os.fspath(file) == str(path):
            raise OSError(5, "Input/output error")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", failing_open)
    assert "Input/output error" in error_of(path)


@pytest.mark.parametrize("name", ["door32.sys", "door.sys", "dorinfo1.def", "chain.txt", "drop.txt"])
def test_empty_file(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_bytes(b"")
    assert "empty" in error_of(tmp_path / name)


def test_blank_lines_only(tmp_path: Path) -> None:
    (tmp_path / "door32.sys").write_bytes(b"\r\n\r\n  \r\n")
    assert "empty" in error_of(tmp_path / "door32.sys")


@pytest.mark.parametrize("name", ["door32.sys", "door.sys", "drop.txt"])
def test_binary_garbage(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_bytes(bytes(range(256)) * 4)
    assert "binary" in error_of(tmp_path / name)


def test_binary_garbage_without_nul(tmp_path: Path) -> None:
    (tmp_path / "door32.sys").write_bytes(bytes(range(1, 256)) * 3)
    message = error_of(tmp_path / "door32.sys")
    assert "DOOR32.SYS" in message


def test_huge_file(tmp_path: Path) -> None:
    (tmp_path / "door32.sys").write_bytes(b"1\r\n" * 40000)
    assert "too large" in error_of(tmp_path / "door32.sys")


@pytest.mark.parametrize(
    ("name", "lines", "needed"),
    [
        ("door32.sys", door32_lines()[:10], 11),
        ("door.sys", doorsys_lines(19), 20),
        ("dorinfo1.def", dorinfo_lines(11), 12),
        ("chain.txt", chain_lines(15), 16),
    ],
)
def test_too_few_lines(tmp_path: Path, name: str, lines: list[str], needed: int) -> None:
    message = error_of(write(tmp_path, name, lines))
    assert f"too few lines: {len(lines)}, need at least {needed}" in message


@pytest.mark.parametrize(
    ("field", "lineno", "what"),
    [
        ("comm", 1, "comm type"),
        ("handle", 2, "comm or socket handle"),
        ("baud", 3, "baud rate"),
        ("security", 8, "security level"),
        ("minutes", 9, "minutes left"),
        ("emulation", 10, "emulation"),
        ("node", 11, "node number"),
    ],
)
def test_door32_non_numeric(tmp_path: Path, field: str, lineno: int, what: str) -> None:
    path = write(tmp_path, "door32.sys", door32_lines(**{field: "abc"}))
    assert error_of(path) == f"{path}: DOOR32.SYS line {lineno}: {what} must be a number, got 'abc'"


def test_door32_bad_comm_type(tmp_path: Path) -> None:
    said = error_of(write(tmp_path, "door32.sys", door32_lines(comm="9")))
    assert "comm type must be 0" in said and "4 (websocket)" in said, said  # every type taken is named


def test_door32_empty_names(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, "door32.sys", door32_lines(real="", alias="")))
    assert "DOOR32.SYS line 6: the caller's name is empty" in message


@pytest.mark.parametrize(("field", "lineno"), [("baud", 2), ("node", 4), ("security", 15), ("minutes", 19)])
def test_door_sys_non_numeric(tmp_path: Path, field: str, lineno: int) -> None:
    message = error_of(write(tmp_path, "door.sys", doorsys_lines(**{field: "x1"})))
    assert f"DOOR.SYS line {lineno}:" in message and "must be a number, got 'x1'" in message


@pytest.mark.parametrize("port", ["LPT1:", "", "COMX:", "COM0:SOCKETx"])
def test_door_sys_bad_port(tmp_path: Path, port: str) -> None:
    assert "DOOR.SYS line 1:" in error_of(write(tmp_path, "door.sys", doorsys_lines(port=port)))


def test_door_sys_empty_names(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, "door.sys", doorsys_lines(name="", alias="")))
    assert "DOOR.SYS line 10: the caller's name is empty" in message


@pytest.mark.parametrize(
    ("field", "lineno"), [("port", 4), ("baud", 5), ("graphics", 10), ("security", 11), ("minutes", 12)]
)
def test_dorinfo_malformed(tmp_path: Path, field: str, lineno: int) -> None:
    message = error_of(write(tmp_path, "dorinfo1.def", dorinfo_lines(**{field: "none"})))
    assert f"DORINFO line {lineno}:" in message


def test_dorinfo_empty_name(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, "dorinfo1.def", dorinfo_lines(first="", last="")))
    assert "DORINFO line 7: the caller's name is empty" in message


@pytest.mark.parametrize(
    ("field", "lineno"), [("number", 1), ("security", 11), ("ansi", 14), ("remote", 15), ("seconds", 16), ("baud", 20)]
)
def test_chain_non_numeric(tmp_path: Path, field: str, lineno: int) -> None:
    message = error_of(write(tmp_path, "chain.txt", chain_lines(**{field: "lots"})))
    assert f"CHAIN.TXT line {lineno}:" in message and "'lots'" in message


def test_chain_empty_names(tmp_path: Path) -> None:
    assert "the caller's name is empty" in error_of(write(tmp_path, "chain.txt", chain_lines(alias="", real="")))


def test_dropfile_error_is_a_value_error() -> None:
    assert issubclass(DropFileError, ValueError)


# ------------------------------------------------------------------ any bytes at all


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(max_size=600), name=st.sampled_from(["door32.sys", "DOOR.SYS", "dorinfo1.def", "chain.txt", "x.txt"])
)
def test_any_bytes_parse_or_raise_drop_file_error(data: bytes, name: str) -> None:
    try:
        info = parse_dropfile(data, name)
    except DropFileError as exc:
        assert "\n" not in str(exc)
    else:
        assert info.alias and info.real_name
        assert info.alias == info.alias.strip(" \t") and not any(c in info.alias for c in "\r\n\x1a")
        assert not any(ord(c) < 32 or ord(c) == 127 for c in info.real_name)
        assert info.minutes_left >= 0
        assert info.emulation in ("ansi", "ascii")
        assert info.comm_type in ("local", "serial", "telnet")
