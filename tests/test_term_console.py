"""The terminal console on its own: keys, line input, fewest bytes, bell, limits; no board, no service."""

from __future__ import annotations

import asyncio
import re
import time

import pyte
import pytest

from bgdoor.term import console as console_mod
from bgdoor.term.console import PLAIN_STYLES, Console, Hangup
from bgdoor.term.screen import Canvas


class FakeLink:
    """A caller typing `send`s and a terminal collecting what the console writes."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[bytes] = asyncio.Queue()
        self.out = bytearray()

    def send(self, data: bytes) -> None:
        self.incoming.put_nowait(data)

    async def read(self) -> bytes:
        return await self.incoming.get()

    def write(self, data: bytes) -> None:
        self.out += data

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        self.incoming.put_nowait(b"")


def shown(data: bytes, cols: int = 80, rows: int = 25) -> list[str]:
    screen = pyte.Screen(cols, rows)
    pyte.ByteStream(screen).feed(data)
    return list(screen.display)


async def started(
    *,
    width: int = 80,
    height: int = 25,
    idle_timeout: float = 600.0,
    deadline: float | None = None,
    time_warning: float = 120.0,
) -> tuple[Console, FakeLink]:
    link = FakeLink()
    con = Console(
        link,
        charset="utf8",
        width=width,
        height=height,
        idle_timeout=idle_timeout,
        deadline=deadline,
        time_warning=time_warning,
    )
    await con.start()
    return con, link


async def test_the_last_notice_and_the_fresh_line_after_it_do_not_scroll_a_24_row_screen() -> None:
    """The idle and time-up notices sat on the bottom row, and stop()'s fresh line (CR LF) then
    scrolled the whole screen up a line: a title left row 1, the notice left the bottom."""
    for kwargs, words in (({"idle_timeout": 0.2}, "for too long"), ({"deadline": time.monotonic() + 0.2}, "used up")):
        con, link = await started(height=24, time_warning=0.1, **kwargs)
        con.put(1, 1, "Who's online: 4 callers")
        await con.show()
        with pytest.raises(Hangup):
            await con.key()
        await con.stop()
        screen = shown(bytes(link.out), rows=24)
        # The goodbye stands alone (the screen it ended is cleared), and where it was drawn.
        assert not any(line.strip() for line in screen[:21]), screen
        assert words in screen[22], screen
        assert not screen[23].strip(), screen


async def test_keys_come_in_order_and_a_timeout_gives_none() -> None:
    con, link = await started()
    link.send(b"ab\x1b[A\r")
    assert [(await con.key()).name for _ in range(4)] == ["a", "b", "up", "enter"]
    assert await con.key(timeout=0.05) is None
    await con.stop()


async def test_a_line_is_edited_echoed_and_escaped() -> None:
    con, link = await started()
    link.send(b"abx\x7fc\r")
    assert await con.line(3, 5, 10) == "abc"
    assert shown(bytes(link.out))[2][4:7] == "abc"
    link.send(b"pw\r")
    assert await con.line(4, 5, 10, secret=True) == "pw"
    assert shown(bytes(link.out))[3][4:6] == "**"
    link.send(b"zz\x1b")
    assert await con.line(5, 5, 10) is None
    await con.stop()


async def test_an_accent_typed_after_its_letter_joins_it() -> None:
    """'Ame' + U+0301 + 'lie', as some input methods send 'Amélie': echoed 'Ame?lie' (the accent
    in a cell of its own) and asked 'Create it?' of that, then created as Amélie."""
    con, link = await started()
    link.send("Ame\u0301lie\r".encode())
    assert await con.line(3, 5, 16) == "Amélie"
    assert shown(bytes(link.out))[2][4:10] == "Amélie"
    link.send("\u0301ab\r".encode())  # an accent that joins nothing is not taken
    assert await con.line(4, 5, 16) == "ab"
    link.send("abcde\u0301\r".encode())  # a full field: the accent joins its last letter
    assert await con.line(5, 5, 5) == "abcdé"
    await con.stop()


async def test_an_answer_typed_ahead_for_a_skipped_question_is_dropped_and_the_rest_kept() -> None:
    con, link = await started()
    link.send(b"12\rPx")
    await asyncio.sleep(0.05)
    assert con.discard_answer() == 3
    assert [(await con.key()).name for _ in range(2)] == ["p", "x"]
    link.send(b"\r7")  # no answer first: nothing goes
    await asyncio.sleep(0.05)
    assert con.discard_answer() == 0
    assert [(await con.key()).char or "enter" for _ in range(2)] == ["enter", "7"]
    await con.stop()


async def test_a_full_field_rings_for_a_character_it_does_not_take() -> None:
    """A field at its width took no more characters and said nothing: typing on looked accepted."""
    con, link = await started()
    con.sound = True
    link.send(b"abc")
    reading = asyncio.ensure_future(con.line(3, 5, 3))
    await asyncio.sleep(0.05)
    assert b"\x07" not in link.out
    link.send(b"defg")
    await asyncio.sleep(0.05)
    assert link.out.count(b"\x07") == 1  # once for the lot
    link.send(b"\r")
    assert await reading == "abc"
    await con.stop()


async def test_a_change_of_one_cell_sends_a_few_bytes() -> None:
    con, link = await started()
    con.put(1, 1, "Hello, world")
    await con.show()
    before = len(link.out)
    con.put(1, 8, "W")
    await con.show()
    step = bytes(link.out[before:])
    assert b"W" in step and len(step) < 16
    assert shown(bytes(link.out))[0].startswith("Hello, World")
    await con.show()
    assert len(link.out) == before + len(step)  # nothing changed, nothing sent
    await con.stop()


async def test_wrapped_text_and_a_loaded_canvas_fit_the_terminal() -> None:
    con, link = await started(width=30, height=12)
    assert (con.width, con.height) == (30, 12)
    used = con.put_wrapped(2, 1, "one two three four five six seven eight nine ten eleven twelve")
    assert used == 3
    big = Canvas(25, 80)
    big.put(1, 1, "x" * 80)
    con.load(big)
    await con.show()
    assert shown(bytes(link.out), 30, 12)[0] == "x" * 30
    await con.stop()


async def test_the_bell_follows_the_sound_setting() -> None:
    con, link = await started()
    start = len(link.out)
    con.sound = False
    con.bell("your_turn")
    assert len(link.out) == start
    con.sound = True
    con.bell("your_turn")
    await asyncio.sleep(0)  # sent in a moment where no screen follows it at once
    assert bytes(link.out[start:]) == b"\x07"
    # With the next screen, in its write: not a send of its own.
    con.bell("error")
    con.put(1, 1, "x")
    await con.show()
    assert link.out[start + 1:].startswith(b"\x07") and len(link.out) > start + 2
    await asyncio.sleep(0)
    assert link.out.count(b"\x07") == 2
    await con.stop()


async def test_the_styles_are_plain_until_a_layer_above_maps_them() -> None:
    con, _ = await started()
    assert con.style("title") == PLAIN_STYLES["title"]
    assert con.style("no such style") == PLAIN_STYLES["normal"]
    await con.stop()


async def test_idle_time_and_hangups_end_the_wait() -> None:
    con, link = await started(idle_timeout=0.2)
    with pytest.raises(Hangup, match="idle"):
        await con.key()
    assert "no key was pressed for too long" in "".join(shown(bytes(link.out))).lower()
    await con.stop()

    con, link = await started(deadline=time.monotonic() + 0.2, time_warning=0.1)
    with pytest.raises(Hangup, match="time"):
        await con.key(timeout=5)
    assert "used up" in "".join(shown(bytes(link.out)))
    await con.stop()

    con, link = await started()
    link.close()
    with pytest.raises(Hangup, match="eof"):
        await con.key()
    with pytest.raises(Hangup):
        await con.key()  # and stays hung up
    await con.stop()


async def test_a_call_closed_by_the_bbs_says_so_before_keys_typed_ahead() -> None:
    """SIGTERM's close_call: the caller is still there, so the wait ends with words and the
    terminal given back (it had been made a hang-up, and nothing was written)."""
    con, link = await started()
    waiting = asyncio.ensure_future(con.key())
    await asyncio.sleep(0)
    con.close_call()
    with pytest.raises(Hangup, match="closed"):
        await waiting
    link.send(b"q")
    await asyncio.sleep(0.01)
    with pytest.raises(Hangup, match="closed"):
        await con.key()  # not the q typed after it
    await con.stop()
    said = " ".join("".join(shown(bytes(link.out))).split())
    assert said.count("The BBS is closing the door. Goodbye!") == 1, said
    assert bytes(link.out).endswith(b"\x1b[?25h")


async def test_keys_share_one_timer_and_a_short_wait_still_ends_on_time() -> None:
    """The idle deadline moves with every key; the console keeps one timer for it rather than
    setting one per key.  A shorter wait sets it sooner; a pause is not cut short when it rings."""
    con, link = await started(idle_timeout=600.0)
    link.send(b"a")
    assert (await con.key()).name == "a"
    alarm = con._alarm
    assert alarm is not None
    for ch in b"bcdefgh":
        link.send(bytes([ch]))
        assert (await con.key()).name == chr(ch)
    assert con._alarm is alarm, "a key set a timer of its own"
    start = time.monotonic()
    assert await con.key(timeout=0.1) is None
    assert 0.09 <= time.monotonic() - start < 1.0
    con._set_alarm(asyncio.get_running_loop().time() + 0.02)
    start = time.monotonic()
    await con.pause(0.15)
    assert time.monotonic() - start >= 0.14, "the pause ended when the alarm rang"
    link.send(b"z")
    assert (await con.key()).name == "z"
    await con.stop()
    assert con._alarm is None, "a stopped console keeps a timer holding it"


async def test_the_time_warning_counts_minutes_in_words() -> None:
    """The door's warning read 'You have 1 minute(s) left on this call.'"""
    for left, door, words in (
        (60.5, True, "You have 1 minute left on this call; then you go back to the BBS."),
        (110.0, False, "You have 2 minutes left on this call."),
    ):
        con, link = await started(deadline=time.monotonic() + left, time_warning=120.0)
        con.door = door
        assert await con.key(timeout=0.2) is None
        screen = " ".join(line.strip() for line in shown(bytes(link.out)))
        assert words in screen and "(s)" not in screen
        await con.stop()


async def test_the_time_warning_comes_again_in_the_last_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warning went at the next key and nothing said the time again until 'Your time for this
    call is used up'; a caller with less than a minute left read '1 minute', and the menu '0 minutes'."""
    assert console_mod.time_words(59.0) == "less than a minute"
    assert console_mod.time_words(61.0) == "1 minute" and console_mod.time_words(3540.0) == "59 minutes"
    monkeypatch.setattr(console_mod, "LAST_WARNING", 0.4)  # the last minute, made short
    con, link = await started(deadline=time.monotonic() + 1.0, time_warning=0.8)
    con.door = True
    assert await con.key(timeout=0.3) is None
    said = " ".join(line.strip() for line in shown(bytes(link.out)))
    assert "You have less than a minute left on this call; then you go back to the BBS." in said, said
    link.send(b"x")
    assert (await con.key()).name == "x"
    await con.show()
    assert "left on this call" not in "".join(shown(bytes(link.out)))
    assert await con.key(timeout=0.4) is None  # into the last 0.4 s
    assert "left on this call" in "".join(shown(bytes(link.out))), "not warned again"
    await con.stop()


async def test_the_time_warning_gives_back_what_it_covered_at_the_next_key() -> None:
    """A door caller's 'You have 2 minutes left on this call' was drawn over the bottom line
    (W)ho's 'Enter looks again; Q goes back.') and stayed there: the key hint was gone."""
    con, link = await started(deadline=time.monotonic() + 110.0, time_warning=120.0)
    con.put(24, 3, "Enter looks again; Q goes back.")
    await con.show()
    assert await con.key(timeout=0.2) is None
    assert "minutes left on this call" in "".join(shown(bytes(link.out)))
    link.send(b"x")
    assert (await con.key()).name == "x"
    await con.show()
    screen = shown(bytes(link.out))
    assert "left on this call" not in "".join(screen) and "Enter looks again" in screen[23], screen[23]
    await con.stop()


async def test_the_time_warning_at_40_columns_keeps_to_one_row_and_the_margin_and_goes_by_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 40x24 the warning took rows 23-24 from column 1, over the board's key help ('?)help',
    'Q)uit'), said nothing of how it would go, and went only at a key, which acted as well."""
    monkeypatch.setattr(console_mod, "TIME_WARNING_SHOWN", 0.4)
    con, link = await started(width=40, height=24, deadline=time.monotonic() + 110.0, time_warning=120.0)
    con.door = True
    help_rows = ["P)lay or Enter: roll  D)ouble", "G)ive up  V)iew last  I)D  ?)help", "Q)uit"]
    for row, text in enumerate(help_rows, start=22):
        con.put(row, 2, text)
    await con.show()
    assert await con.key(timeout=0.1) is None
    screen = shown(bytes(link.out), cols=40, rows=24)
    # On the free row over the help, which stays whole (it had covered Q)uit for ten seconds).
    assert screen[20].rstrip() == " You go back to the BBS in 2 minutes.", screen
    assert [line.strip() for line in screen[21:24]] == help_rows, screen
    assert await con.key(timeout=0.5) is None  # no key: the warning's time passes
    screen = shown(bytes(link.out), cols=40, rows=24)
    assert [line.strip() for line in screen[21:24]] == help_rows, screen
    await con.stop()

    for left, door, words in (
        (50.0, True, " Back to the BBS in less than a minute."),
        (50.0, False, " Less than a minute left on this call."),
        (110.0, False, " You have 2 minutes left on this call."),
    ):
        con, link = await started(width=40, height=24, deadline=time.monotonic() + left, time_warning=120.0)
        con.door = door
        assert await con.key(timeout=0.1) is None
        assert shown(bytes(link.out), cols=40, rows=24)[23].rstrip() == words
        await con.stop()


async def test_the_time_warning_covers_no_page_s_keys_where_a_row_is_free() -> None:
    """At 80x25 the warning went over row 24, an I)nstructions page's keys ('Page 1 of 6. Enter/Space:
    next page  Q: menu'), with row 25 free under it; on a screen full to the bottom it takes the
    bottom row, as before."""
    con, link = await started(width=80, height=25, deadline=time.monotonic() + 110.0, time_warning=120.0)
    con.put(24, 2, "Page 1 of 6.  Enter/Space: next page  Q: menu")
    await con.show()
    assert await con.key(timeout=0.1) is None
    screen = shown(bytes(link.out), cols=80, rows=25)
    assert screen[23].strip() == "Page 1 of 6.  Enter/Space: next page  Q: menu", screen
    assert screen[24].strip() == "You have 2 minutes left on this call.", screen
    await con.stop()
    con, link = await started(width=80, height=24, deadline=time.monotonic() + 110.0, time_warning=120.0)
    for row in range(1, 25):
        con.put(row, 2, f"row {row}")
    await con.show()
    assert await con.key(timeout=0.1) is None
    screen = shown(bytes(link.out), cols=80, rows=24)
    assert screen[23].strip() == "You have 2 minutes left on this call." and screen[22].strip() == "row 23", screen
    await con.stop()


async def test_the_idle_warning_keeps_the_margin_and_the_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console_mod, "IDLE_WARNING", 0.15)
    con, link = await started(width=40, height=24, idle_timeout=0.3)
    con.door = True
    waiting = asyncio.ensure_future(con.key())
    while "Press a key within" not in "".join(shown(bytes(link.out), cols=40, rows=24)):
        await asyncio.sleep(0.02)
    screen = shown(bytes(link.out), cols=40, rows=24)
    said = [line for line in screen if line.strip()]
    # One row, in fewer words (the whole sentence took two rows of a 40-column board's key help).
    assert [line.rstrip() for line in said] == [" Press a key within a minute to stay."], said
    link.send(b"x")
    assert (await waiting).name == "x"
    await con.show()
    assert not any(line.strip() for line in shown(bytes(link.out), cols=40, rows=24))
    await con.stop()


async def test_the_idle_notice_goes_once_a_key_answers_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a prompt that only echoes what is typed (B)egin's match length), 'Are you there? Press a
    key within a minute...' stayed on the screen after the key that answered it."""
    monkeypatch.setattr("bgdoor.term.console.IDLE_WARNING", 0.15)
    con, link = await started(idle_timeout=0.3)
    con.put(24, 1, "what was under it")
    con.put(5, 3, "Match length: ")
    await con.show()
    reading = asyncio.ensure_future(con.line(5, 17, 2))
    while "Are you there?" not in "".join(shown(bytes(link.out))):
        await asyncio.sleep(0.02)
    link.send(b"2")
    link.send(b"\r")
    assert await reading == "2"
    await con.show()
    screen = shown(bytes(link.out))
    assert "Are you there?" not in "".join(screen)
    assert screen[23].startswith("what was under it") and "Match length: 2" in screen[4]
    await con.stop()

    # A screen drawn again while the notice showed keeps what it drew: nothing old comes back.
    con, link = await started(idle_timeout=0.3)
    con.put(24, 1, "old line")
    await con.show()
    waiting = asyncio.ensure_future(con.key())
    while "Are you there?" not in "".join(shown(bytes(link.out))):
        await asyncio.sleep(0.02)
    con.clear()
    con.put(24, 1, "new line")
    link.send(b"x")
    await waiting
    await con.show()
    assert shown(bytes(link.out))[23].startswith("new line")
    await con.stop()


async def test_a_charset_change_starts_a_fresh_screen() -> None:
    con, link = await started()
    con.set_charset("ascii")
    assert con.charset == "ascii" and con.screen.charset == "ascii"
    con.put(1, 1, "plain")
    await con.show()
    assert shown(bytes(link.out))[0].startswith("plain")
    await con.stop()


class OfferingFakeLink(FakeLink):
    """A link that offers what arrives to the console first, as telnet's does."""

    def __init__(self) -> None:
        super().__init__()
        self.sink: object = None

    def offer_to(self, sink: object) -> None:
        self.sink = sink

    def arrive(self, data: bytes) -> bool:
        """Bytes off the wire: taken by the console at once (True), or queued for read()."""
        assert callable(self.sink)
        if self.incoming.empty() and self.sink(data):
            return True
        self.send(data)
        return False


async def offering_console() -> tuple[Console, OfferingFakeLink]:
    link = OfferingFakeLink()
    con = Console(link, charset="utf8")
    await con.start()
    await asyncio.sleep(0)  # the read loop gets to its read
    return con, link


async def test_keys_offered_as_they_arrive_are_queued_at_once_and_in_order() -> None:
    con, link = await offering_console()
    assert link.arrive(b"6")
    assert con.keys.qsize() == 1, "the key is there before any other task has run"
    assert link.arrive(b"4q")
    assert [(await con.key()).char for _ in range(3)] == ["6", "4", "q"]
    await con.stop()
    assert link.sink is None, "a stopped console takes nothing more"


async def test_an_escape_sequence_split_or_alone_still_becomes_its_key() -> None:
    con, link = await offering_console()
    assert link.arrive(b"\x1b[")  # the first half of an arrow key
    assert not link.arrive(b"A"), "the rest goes the read loop's way, after the first half"
    assert (await con.key(timeout=2)).name == "up"
    await asyncio.sleep(0)
    assert link.arrive(b"\x1b")  # a lone Esc: a key once the line has been quiet a moment
    start = time.monotonic()
    key = await con.key(timeout=2)
    assert key is not None and key.name == "esc"
    assert time.monotonic() - start >= 0.2
    await con.stop()


async def test_esc_then_o_or_p_a_moment_apart_are_both_keys_and_f1_still_comes_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Esc then O (Options) a tenth of a second apart: both keys were lost, nothing said; ESC O
    had begun a keypad key, ESC P a terminal's string.  The pause is made short here."""
    monkeypatch.setattr(console_mod, "ESC_PAUSE", 0.1)
    for second in (b"O", b"P", b"]"):
        for con, link in (await started(), await offering_console()):
            offering = isinstance(link, OfferingFakeLink)
            (link.arrive if offering else link.send)(b"\x1b")
            await asyncio.sleep(0.05)  # within the pause
            (link.arrive if offering else link.send)(second)
            got = [await con.key(timeout=1) for _ in range(2)]
            assert [k.name if k else None for k in got] == ["esc", second.decode().lower()], (second, offering)
            link.send(b"\x1bOP")  # a real F1 in one read
            key = await con.key(timeout=1)
            assert key is not None and key.name == "f1"
            await con.stop()


async def test_a_paste_or_a_flood_is_left_to_the_paced_read_loop() -> None:
    con, link = await offering_console()
    assert not link.arrive(b"x" * 100), "more keys than the allowance: the read loop paces them"
    first = await con.key(timeout=2)
    assert first is not None and first.char == "x"
    assert not link.arrive(b"y"), "keys are held back: what comes next waits its turn"
    keys = [await con.key(timeout=5) for _ in range(100)]
    assert [k.char for k in keys if k is not None] == ["x"] * 99 + ["y"]
    await con.stop()


async def test_a_pasted_note_of_140_characters_keeps_its_end_and_its_enter() -> None:
    """A 135-character paste and its Enter in one read lost everything past the 128th key:
    the note editor stayed open with the note cut short, and nothing said so."""
    con, link = await started()
    note = "".join(str(i % 10) for i in range(1, 141))
    link.send(note.encode() + b"\r")
    keys = [await con.key(timeout=5) for _ in range(141)]
    assert "".join(k.char or "" for k in keys if k is not None and k.name != "enter") == note
    assert keys[-1] is not None and keys[-1].name == "enter"
    assert con.dropped_keys == 0
    await con.stop()


async def test_a_short_idle_timeout_warns_halfway_with_the_time_really_left() -> None:
    """With a sysop's `idle_timeout = 30` the warning said 'Press a key within a minute' with 20 s
    left after a key, and with no key at all none came before the caller was sent back."""
    con, link = await started(idle_timeout=4.0)
    con.door = True
    begun = time.monotonic()
    waiting = asyncio.ensure_future(con.key())
    while "Are you there?" not in "".join(shown(bytes(link.out))):
        assert not waiting.done() and time.monotonic() - begun < 3.9, "no warning before the timeout"
        await asyncio.sleep(0.02)
    assert time.monotonic() - begun >= 1.9  # halfway, not at once
    screen = " ".join(line.strip() for line in shown(bytes(link.out)))
    assert "Are you there? Press a key within 2 seconds or you will go back to the BBS." in screen, screen
    with pytest.raises(Hangup, match="idle"):
        await waiting
    await con.stop()

    # The usual ten minutes: still a minute's warning, worded as before.
    con, link = await started(idle_timeout=600.0)
    assert con._idle_lead() == 60.0
    await con.stop()


async def test_a_resize_counts_as_someone_there() -> None:
    """A resize laid the screen out afresh, wiping 'Are you there?', while the countdown ran on
    to the goodbye with nothing shown in between."""
    con, link = await started(idle_timeout=1.0)
    waiting = asyncio.ensure_future(con.key(idle=True, wake=True))
    await asyncio.sleep(0.7)  # past the warning (half the timeout)
    assert "Are you there?" in "".join(shown(bytes(link.out)))
    con.resize(60, 24)
    assert (await waiting).name == "wake"
    waiting = asyncio.ensure_future(con.key(idle=True))
    await asyncio.sleep(0.6)  # 1.3 s after the last key, 0.6 s after the resize: still here
    assert not waiting.done(), waiting
    waiting.cancel()
    await con.stop()


async def test_the_idle_warning_counts_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """'Press a key within 45 seconds to stay.' stood 20 s later, when 25 were left."""
    monkeypatch.setattr(console_mod, "IDLE_STEP", 1.0)
    con, link = await started(width=80, height=24, idle_timeout=8.0)
    con.door = True
    waiting = asyncio.ensure_future(con.key())
    counts: list[int] = []
    while not waiting.done():
        found = re.search(r"within (\d+) second", " ".join(shown(bytes(link.out), cols=80, rows=24)))
        if found and (not counts or int(found[1]) != counts[-1]):
            counts.append(int(found[1]))
        await asyncio.sleep(0.05)
    with pytest.raises(Hangup, match="idle"):
        await waiting
    assert len(counts) >= 3 and counts == sorted(counts, reverse=True), counts
    await con.stop()


async def test_the_time_warning_waits_while_the_idle_warning_ends_the_call_first() -> None:
    """'Press a key within 25 seconds to stay.' gave way to 'You go back to the BBS in 2 minutes.',
    and the caller was sent back 25 s later by the idle timeout, the screen promising 2 minutes."""
    con, link = await started(idle_timeout=4.0, deadline=time.monotonic() + 6.0, time_warning=3.5)
    con.door = True
    waiting = asyncio.ensure_future(con.key())
    seen: set[str] = set()
    while not waiting.done():
        bottom = " ".join(line.strip() for line in shown(bytes(link.out)) if line.strip())
        if "Press a key within" in bottom:
            seen.add("idle")
        if "left on this call" in bottom or "back to the BBS in" in bottom:
            seen.add("time")
        await asyncio.sleep(0.05)
    with pytest.raises(Hangup, match="idle"):
        await waiting
    assert seen == {"idle"}, seen
    await con.stop()


async def test_the_idle_count_is_the_time_really_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """The alarm comes a hair before each step of the count, and 44.99 s was said as 40: the count
    read a step low all the way down, and 'within 5 seconds' stood for 10 s."""
    monkeypatch.setattr(console_mod, "IDLE_STEP", 1.0)
    con, link = await started(width=80, height=24, idle_timeout=8.0)
    con.door = True
    begun = time.monotonic()
    waiting = asyncio.ensure_future(con.key())
    counts: list[tuple[int, float]] = []  # each count as it first showed, and the time really left then
    while not waiting.done():
        found = re.search(r"within (\d+) second", " ".join(shown(bytes(link.out), cols=80, rows=24)))
        if found and (not counts or int(found[1]) != counts[-1][0]):
            counts.append((int(found[1]), begun + 8.0 - time.monotonic()))
        await asyncio.sleep(0.02)
    with pytest.raises(Hangup, match="idle"):
        await waiting
    assert len(counts) >= 3, counts
    assert all(left - 0.5 <= n <= left + 0.2 for n, left in counts), counts
    await con.stop()


async def test_no_idle_warning_when_the_call_s_time_ends_first() -> None:
    """'Press a key within 40 seconds to stay.' came 3 s before 'Your time for this call is used
    up': no key would have kept the call."""
    con, link = await started(idle_timeout=4.0, deadline=time.monotonic() + 3.0)
    con.door = True
    waiting = asyncio.ensure_future(con.key())
    seen = False
    while not waiting.done():
        seen = seen or "Press a key within" in " ".join(shown(bytes(link.out)))
        await asyncio.sleep(0.05)
    with pytest.raises(Hangup, match="time"):
        await waiting
    assert not seen
    assert "Your time for this call is used up" in " ".join(" ".join(shown(bytes(link.out))).split())
    await con.stop()


async def test_a_time_warning_covered_by_the_idle_warning_is_said_again_after_the_key() -> None:
    """'Back to the BBS in less than a minute.' stood 0.4 s before 'Press a key within 45 seconds
    to stay.' covered it, and after the key that answered that, nothing said the time again."""
    con, link = await started(width=40, height=24, idle_timeout=4.0, deadline=time.monotonic() + 12.0,
                              time_warning=11.0)
    con.door = True
    waiting = asyncio.ensure_future(con.key())
    while "Press a key within" not in " ".join(shown(bytes(link.out), cols=40, rows=24)):
        assert not waiting.done()
        await asyncio.sleep(0.05)
    assert "Back to the BBS in" in bytes(link.out).decode("utf-8", "replace")  # it had come first
    link.send(b"x")
    assert (await waiting) is not None
    waiting = asyncio.ensure_future(con.key())
    await asyncio.sleep(0.3)
    bottom = " ".join(" ".join(shown(bytes(link.out), cols=40, rows=24)).split())
    assert "Back to the BBS in" in bottom, bottom
    waiting.cancel()
    await con.stop()


async def test_the_time_warning_is_worded_for_the_width_after_a_resize() -> None:
    """Made at 80 columns, 'You have less than a minute left on this call; then you go back to the
    BBS.' stayed in that form after a resize to 40, over three rows, the board's keys among them."""
    con, link = await started(width=80, height=24, deadline=time.monotonic() + 30.0, time_warning=40.0)
    con.door = True
    waiting = asyncio.ensure_future(con.key())
    while "left on this call" not in " ".join(shown(bytes(link.out), cols=80, rows=24)):
        await asyncio.sleep(0.05)
    link.out.clear()
    con.resize(40, 24)
    await asyncio.sleep(0.3)
    lines = [line.strip() for line in shown(bytes(link.out), cols=40, rows=24) if line.strip()]
    assert "Back to the BBS in less than a minute." in lines, lines
    waiting.cancel()
    await con.stop()


def test_a_time_left_of_more_than_a_day_is_said_so() -> None:
    """A drop file's 99999999999999999999 minutes read '100000000000000000000 minutes left' on the
    menu, a number the file never said."""
    assert console_mod.time_words(99999999999999999999 * 60.0) == "more than a day"
    assert console_mod.time_words(console_mod.DAY) == "more than a day"
    assert console_mod.time_words(console_mod.DAY - 60) == "1439 minutes"
