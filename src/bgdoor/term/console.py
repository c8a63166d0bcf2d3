"""A caller's terminal: keys from a byte link, and an off-screen grid sent as the fewest bytes.

Transports give a Link (telnet, stdio, an inherited socket); everything above talks to a
Console: keys (paced, with the idle and time limits), line input, cells in named styles,
wrapped text, the bell, the charset and the terminal's size.  It knows nothing of what the
screens show; bgdoor.ui.console adds the board and the player's theme.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
import time
import unicodedata
from collections.abc import Callable, Mapping
from typing import Protocol, cast, overload

from bgdoor.term import screen as colours
from bgdoor.term.charset import Charset, glyphs
from bgdoor.term.keys import DA_REQUEST, Key, KeyDecoder, is_cterm_reply, untyped_said
from bgdoor.term.screen import COLS, HIDE_CURSOR, ROWS, SHOW_CURSOR, Attr, Canvas, Cell, Screen
from bgdoor.term.sound import sound_bytes
from bgdoor.term.wrap import wrap

__all__ = ["PLAIN_STYLES", "Console", "Hangup", "Key", "Link", "fit_canvas", "fit_size"]

ESC_PAUSE = 0.25  # a lone ESC is a key once the line is quiet this long
MAX_QUEUED_KEYS = 64  # keys waiting for the session; past this the console reads no more
# Keys a second a caller may keep up, beyond a burst of MAX_QUEUED_KEYS (a pasted line): more
# than typing or key repeat.  Past it the console reads more slowly, so a flood waits in TCP
# rather than costing the server a decode and a screen update for every byte.  No key is lost.
KEY_RATE = 30.0
QUEUE_FULL_WAIT = 0.05
# Decoded keys held back for room in the queue: a whole read's worth (no link reads more than
# 4,096 bytes at a time, and none reads again while any are held), so a pasted note of 140
# characters keeps its end and its Enter.
MAX_HELD_KEYS = 4096
IDLE_WARNING = 60.0
IDLE_STEP = 5.0  # the idle warning's count, said again as it runs down
LAST_WARNING = 60.0  # a door caller is warned again when a minute is left on the call
# Seconds the time warning stays up (a key takes it away sooner, and acts as ever): it covers
# the bottom row, often the board's key help, and a caller was left to guess a key would clear it.
TIME_WARNING_SHOWN = 10.0
MIN_COLS, MIN_ROWS = 20, 10  # smaller terminals are drawn as if this big
WAKE = Key("wake")
RESIZED = Key("resized")  # queued by resize(): the waiting screen is shown again at the new size
ALARM = Key("alarm")  # queued by the console's alarm: a wait's time may be up (key() looks)

# The named styles text is put in, until a screen layer maps them to a theme of its own.
PLAIN_STYLES: Mapping[str, Attr] = {
    "normal": Attr(colours.WHITE),
    "title": Attr(colours.WHITE, colours.BLUE, True),
    "hot": Attr(colours.YELLOW, None, True),
    "dim": Attr(colours.CYAN),
    "error": Attr(colours.GREEN, None, True),
    "prompt": Attr(colours.YELLOW, None, True),
    "input": Attr(colours.YELLOW, None, True),
    "frame": Attr(colours.YELLOW),
}


DAY = 24 * 60 * 60


def time_words(seconds: float) -> str:
    """The time left on a call as a caller reads it: '59 minutes', '1 minute', 'less than a minute'
    (the menu said '0 minutes' with most of a minute left)."""
    if seconds < 60:
        return "less than a minute"
    if seconds >= DAY:
        # A drop file's 99999999999999999999 minutes had read '100000000000000000000 minutes'.
        return "more than a day"
    minutes = round(seconds / 60)
    return f"{minutes} minute{'' if minutes == 1 else 's'}"


def _seconds(left: float) -> str:
    n = max(1, math.ceil(left))
    return f"{n} second{'' if n == 1 else 's'}"


def fit_size(width: int, height: int) -> tuple[int, int]:
    """The screen drawn for a terminal of width x height: at most 80x25, since every layout is
    made for that; an unknown size (0) counts as 80x25."""
    width = COLS if width <= 0 else max(MIN_COLS, min(COLS, width))
    height = ROWS if height <= 0 else max(MIN_ROWS, min(ROWS, height))
    return width, height


def fit_canvas(canvas: Canvas, rows: int, cols: int) -> Canvas:
    """`canvas` cut or padded to rows x cols."""
    if (canvas.rows, canvas.cols) == (rows, cols):
        return canvas
    out = Canvas(rows, cols)
    for r in range(min(rows, canvas.rows)):
        n = min(cols, canvas.cols)
        out.cells[r][:n] = canvas.cells[r][:n]
    return out


class Hangup(Exception):
    """The caller went away (EOF, broken pipe, idle timeout, time used up)."""


class Woken(Exception):
    """A line being typed was interrupted by a wake (a resize): lay the screen out again and ask
    again from `text`, what had been typed."""

    def __init__(self, text: str) -> None:
        super().__init__("woken")
        self.text = text


class Link(Protocol):
    async def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...

    async def drain(self) -> None: ...

    def close(self) -> None: ...


class OfferingLink(Link, Protocol):
    """A link that can hand over bytes as they arrive, to a sink that may take them (True) or
    leave them to read() (False)."""

    def offer_to(self, sink: Callable[[bytes], bool] | None) -> None: ...


def _offering(link: Link) -> OfferingLink | None:
    """`link` as an OfferingLink, if it is one.  By its method, not isinstance: against a Protocol
    that checks every method of Link too, about 4% of the server's time with a crowd dialling in."""
    return cast(OfferingLink, link) if callable(getattr(link, "offer_to", None)) else None


class Console:
    def __init__(
        self,
        link: Link,
        *,
        charset: Charset = "cp437",
        syncterm: bool = False,
        idle_timeout: float = 600.0,
        deadline: float | None = None,
        time_warning: float = 120.0,
        width: int = COLS,
        height: int = ROWS,
        door: bool = False,
    ) -> None:
        self.link = link
        self.door = door  # a caller who leaves goes back to their BBS, not off the line
        self.detected_charset = charset  # what the terminal asked for; a player's "automatic"
        self.width, self.height = fit_size(width, height)  # the caller's terminal
        self.charset = charset
        self.syncterm = syncterm
        self.idle_timeout = idle_timeout
        self.idle_notice: str | None = None  # said instead of the idle notice (e.g. while logging in)
        # Said in the goodbye of a call its clock ends (time used up, idle), before where the caller
        # goes: the screens' word on what is kept ('Your time ... is used up. Back to the BBS.'
        # had said nothing of the turn half played, kept for the next call).
        self.parting = ""
        self.deadline = deadline  # time.monotonic() at which the caller's time is up (doors)
        self._closing = False  # the BBS is closing the door (see close_call)
        self._closing_said = False
        self.time_warning = time_warning
        # Seconds left at which the caller is warned (again): the sysop's warning, then the last
        # minute.  Once, the warning went at the next key and nothing said the time again.
        self._warn_at = [time_warning, *([LAST_WARNING] if LAST_WARNING < time_warning else [])]
        self.sound = True
        self._bell = b""  # a sound effect to go with the next show (see bell)
        self.decoder = KeyDecoder(charset)
        self.screen = Screen(charset=charset, rows=self.height, cols=self.width)
        self.keys: asyncio.Queue[Key | None] = asyncio.Queue()  # None: the caller hung up
        self._reader: asyncio.Task[None] | None = None
        self._full = True
        self._closed = False
        self._cursor_hidden = False  # the terminal's cursor is ours to hide and show (not on ASCII)
        self._cursor_off = True  # while _cursor_hidden: it is hidden now
        self._typing = False  # a field is being typed in: the cursor shows there
        self._early: Key | None = None  # a key that ended a pause, for the next read
        self._last_key = time.monotonic()
        self._warned = False
        self._idle_said = ""  # the idle warning as shown now
        self._under: list[tuple[int, list[Cell]]] = []  # the rows the idle notice covers, as they were
        self._notice: list[list[Cell]] = []  # those rows with the notice on them
        self._notice_text = ""  # what the notice says, put back over a screen redrawn under it
        self._notice_lasting = False  # the time warning: a key or its time takes it away, not a resize
        self._notice_until = 0.0  # time.monotonic() at which the time warning goes by itself
        self._whole: Canvas | None = None  # see whole_canvas()
        self._held: collections.deque[Key] = collections.deque()  # decoded, waiting for room in the queue
        self.dropped_keys = 0
        self._tokens = float(MAX_QUEUED_KEYS)
        self._refilled = time.monotonic()
        self._resize_queued = False
        self._greeting = b""  # sent with the first screen (see start())
        self._parked = False  # the read loop waits in link.read() with nothing half-decoded
        self._fed = 0  # reads decoded so far (an escape's timer checks nothing came after it)
        # A wake-up read by a wait that does not take them (a help page, a question): kept for
        # the next wait that does, which would otherwise go on showing what it drew before.
        self._woken = False
        self.resizes = 0  # new window sizes a wait has taken in (key_or_resize tells them apart)
        # The terminal tells its new size when it changes (telnet's NAWS agreed, an RLogin window
        # message, a door's pty): set by the transport, or by the first size told.
        self.sized_live = False
        # One timer a console, not one a key: a key moves the idle deadline later, and the alarm
        # set for the old one rings early, key() finds time left and sets it again.
        self._alarm: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------ input

    async def start(self) -> None:
        self._reader = asyncio.ensure_future(self._read_loop())
        if (offering := _offering(self.link)) is not None:
            offering.offer_to(self.offer)
        if self.charset != "ascii":
            # Ask who the terminal is (SyncTERM answers as CTerm) and hide its cursor, in one
            # write with the first screen (a crowd dialling in costs a send a caller less).
            self._greeting = DA_REQUEST + HIDE_CURSOR
            self._cursor_hidden = True

    async def stop(self) -> None:
        """Leave the terminal as it was found: attributes reset, the cursor shown, on a fresh line."""
        if not self._closed:
            # A fresh line under what the screen shows, without scrolling it where there is room
            # (CR LF from the bottom row moved a 24-row screen's last notice, and all, up a line).
            # The cursor is shown last: nothing after it may hide it again.  Plain ASCII too
            # (no colour, no hidden cursor): its goodbye had left the cursor where the menu's
            # prompt was, for the BBS to write over.
            used = max((r for r in range(1, self.screen.rows + 1) if self.screen.canvas.row_text(r).strip()), default=0)
            fresh = f"\x1b[{used + 1}H".encode() if 0 < used < self.screen.rows else b"\r\n"
            self.link.write(b"\x1b[0m" + fresh + SHOW_CURSOR if self._cursor_hidden else fresh)
            with contextlib.suppress(ConnectionError, OSError, asyncio.TimeoutError):
                await asyncio.wait_for(self.link.drain(), timeout=2.0)
        self._closed = True
        if self._alarm is not None:
            self._alarm.cancel()  # it holds this console: not kept until it would ring
            self._alarm = None
        if (offering := _offering(self.link)) is not None:
            offering.offer_to(None)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(float(MAX_QUEUED_KEYS), self._tokens + (now - self._refilled) * KEY_RATE)
        self._refilled = now

    def _queue(self, keys: list[Key]) -> None:
        """Keys decoded from one read: queued as far as there is room, the rest held.

        Only a read larger than a link makes could lose keys: beyond MAX_QUEUED_KEYS queued
        and MAX_HELD_KEYS held, and nothing more is read while any are held.
        """
        room = MAX_QUEUED_KEYS + MAX_HELD_KEYS - self.keys.qsize() - len(self._held)
        if len(keys) > room:
            self.dropped_keys += len(keys) - max(0, room)
            keys = keys[: max(0, room)]
        self._held.extend(keys)
        self._refill()
        while self._held and self.keys.qsize() < MAX_QUEUED_KEYS:
            self.keys.put_nowait(self._held.popleft())
            self._tokens -= 1  # below zero after a burst: the next read waits the longer

    def _gone(self) -> bool:
        # A link that can tell (telnet) says so once the line is closed; bytes of a flood still
        # buffered from a caller who has hung up are not worth pacing through.
        return bool(getattr(self.link, "gone", False))

    async def _pace(self) -> None:
        """Wait, before reading more, while keys are held or this caller is over the key rate."""
        while not self._closed and not self._gone():
            self._queue([])
            if not self._held and self._tokens >= 1:
                return
            wait = (1 - self._tokens) / KEY_RATE if self._tokens < 1 else 0.0
            await asyncio.sleep(max(wait, QUEUE_FULL_WAIT if self._held else 0.0))

    async def _read_loop(self) -> None:
        try:
            while True:
                await self._pace()
                if self._gone():
                    break
                if self.decoder.pending:
                    try:
                        # asyncio.timeout, not wait_for: 3.11's wait_for drops a cancel that comes
                        # as the read ends, and stop() then waited for ever on this loop.
                        async with asyncio.timeout(ESC_PAUSE):
                            data = await self.link.read()
                    except TimeoutError:
                        self._queue(self.decoder.flush_timeout())
                        continue
                else:
                    self._parked = True
                    try:
                        data = await self.link.read()
                    finally:
                        self._parked = False
                if not data:
                    break
                self._take(data)
        except (ConnectionError, OSError):
            pass
        finally:
            # Wake whoever waits for a key: the caller has gone.
            self.keys.put_nowait(None)

    def _take(self, data: bytes) -> None:
        self._fed += 1
        keys = self.decoder.feed(data)
        if any(k.name == "report" for k in keys):
            # Terminal reports are answers, not keys: SyncTERM says who it is this way.
            self.syncterm = self.syncterm or any(is_cterm_reply(k) for k in keys)
            keys = [k for k in keys if k.name != "report"]
        self._queue(keys)

    def offer(self, data: bytes) -> bool:
        """Bytes the link has just received, taken as keys at once if the read loop is only
        waiting for them: the screen waiting for a key then runs at the event loop's next turn,
        not one later, after the read loop's own.  False (the link keeps them for read()) while
        keys are held back or paced (or these could be), or an escape sequence is half read, or
        after stop()."""
        if self._closed or not self._parked or self.decoder.pending or self._held:
            return False
        self._refill()
        if len(data) > min(self._tokens, MAX_QUEUED_KEYS - self.keys.qsize()):
            return False  # keys might be held back, and only the read loop lets them go in time
        self._take(data)
        if self.decoder.pending:
            # The read loop waits with no time limit: a lone ESC still has to become a key.
            asyncio.get_running_loop().call_later(ESC_PAUSE, self._escape_due, self._fed)
        return True

    def _escape_due(self, fed: int) -> None:
        if fed == self._fed and self.decoder.pending and not self._closed:
            self._queue(self.decoder.flush_timeout())

    async def pause(self, seconds: float) -> None:
        """Leave the screen up for `seconds`, or until a key or a hang-up; never raises Hangup.

        The key that ends it is kept for the next read: a caller typing on is not cut short.
        """
        if seconds <= 0 or self._closed or self._early is not None:
            return
        until = time.monotonic() + seconds
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                key = await self.keys.get()
            while key is ALARM:  # meant for key(), which sets it again
                async with asyncio.timeout(max(0.0, until - time.monotonic())):
                    key = await self.keys.get()
            if key is None:
                self.keys.put_nowait(None)
            elif key is RESIZED:
                self._resize_queued = False  # the next show() sends the whole screen anyway
            elif key is WAKE:
                self._woken = True
            else:
                self._early = key

    def _set_alarm(self, when: float) -> None:
        """Have ALARM queued at `when` (loop time) at the latest."""
        if self._alarm is not None:
            if self._alarm.when() <= when:
                return  # rings first; key() sets it again if there is time left then
            self._alarm.cancel()
        self._alarm = asyncio.get_running_loop().call_at(when, self._ring)

    def _ring(self) -> None:
        self._alarm = None
        self.keys.put_nowait(ALARM)

    def discard_typed(self) -> int:
        """Throw away the keys typed ahead (queued, held, or kept by pause()); the hang-up, wake,
        resize and alarm marks stay.  How many went.  A password typed on before its handle was
        refused would otherwise be read as the next handle, and echoed."""
        kept: list[Key | None] = []
        dropped = len(self._held)
        self._held.clear()
        while not self.keys.empty():
            key = self.keys.get_nowait()
            if key is None or key is ALARM or key is RESIZED or key is WAKE:
                kept.append(key)
            else:
                dropped += 1
        for key in kept:
            self.keys.put_nowait(key)
        if self._early is not None:
            self._early = None
            dropped += 1
        return dropped

    def discard_answer(self, chars: str = "0123456789#") -> int:
        """Throw away an answer typed ahead for a question the screen skipped: leading keys among
        `chars` and the Enter after them (the rest, and the hang-up, wake, resize and alarm
        marks, stay in order).  How many went."""
        typed: list[Key | None] = [] if self._early is None else [self._early]
        self._early = None
        while not self.keys.empty():
            typed.append(self.keys.get_nowait())
        typed += self._held
        self._held.clear()
        kept: list[Key | None] = []
        answering, dropped = True, 0
        for key in typed:
            if key is None or key is ALARM or key is RESIZED or key is WAKE or not answering:
                kept.append(key)
            elif key.char and key.char in chars:
                dropped += 1
            else:
                answering = False
                if dropped and key.name == "enter":
                    dropped += 1
                else:
                    kept.append(key)
        for key in kept:
            self.keys.put_nowait(key)
        return dropped

    def close_call(self) -> None:
        """The BBS closes the door (SIGTERM) with the caller still on the line: the next key()
        says so and raises Hangup('closed'), before any key typed ahead.  A hang-up had been
        made of it, and the door left without a word, its colours on and the cursor hidden."""
        self._closing = True
        self.keys.put_nowait(None)  # wakes a wait; taken as the end as a hang-up is

    def wake(self) -> None:
        """Make a waiting key(wake=True) return Key('wake'), or the next one if a wait without
        `wake` reads it first: another task has news for this screen."""
        self.keys.put_nowait(WAKE)

    @overload
    async def key_or_resize(self, timeout: None = None) -> Key: ...

    @overload
    async def key_or_resize(self, timeout: float) -> Key | None: ...

    async def key_or_resize(self, timeout: float | None = None) -> Key | None:
        """The next key (the idle timeout applies), or WAKE once the window has changed size, for
        the screen to lay itself out again; None when `timeout` passes first.  A wake for anything
        else is kept for the screen beneath, which reads it at its next key(wake=True)."""
        # A size taken in during this wait: one taken in before it came (while the screen was
        # drawn) still reaches this wait as its wake, so the count, not the size, tells.
        resizes = self.resizes
        until = None if timeout is None else time.monotonic() + timeout
        woken = False
        try:
            while True:
                left = None if until is None else max(0.0, until - time.monotonic())
                key = await (self.key(idle=True, wake=True) if left is None else self.key(left, idle=True, wake=True))
                if key is None:
                    return None
                if key is not WAKE:
                    return key
                if self.resizes != resizes:
                    return WAKE
                woken = True
        finally:
            self._woken = self._woken or woken

    async def end_if_time_is_up(self) -> None:
        """Hangup('time'), said as the call's clock says it, when its time is used up already (a
        BBS that gives a door caller no time left)."""
        if self.deadline is not None and self.deadline <= time.monotonic():
            self.last_words(self._timed_out("Your time for this call is used up"))
            await self.show()
            raise Hangup("time")

    @overload
    async def key(self, timeout: None = None, idle: bool = False, wake: bool = False) -> Key: ...

    @overload
    async def key(self, timeout: float, idle: bool = False, wake: bool = False) -> Key | None: ...

    async def key(self, timeout: float | None = None, idle: bool = False, wake: bool = False) -> Key | None:
        """The next key; None when `timeout` passes first.

        Waiting without a timeout, or with `idle`, is subject to the idle timeout (with a
        warning a minute before); a door caller's time limit applies always.  Raises Hangup
        when the caller has gone, waited too long, or used up their time.
        """
        use_idle = idle or timeout is None
        start = time.monotonic()
        if wake and self._woken:
            self._woken = False
            return WAKE
        while True:
            if self._closing:
                self._end_closed()
                await self.show()
                raise Hangup("closed")
            now = time.monotonic()
            waits: list[float] = []
            if timeout is not None:
                waits.append(start + timeout - now)
            if use_idle:
                idle_left = self.idle_timeout - (now - self._last_key)
                if idle_left <= 0:
                    self.last_words(self.idle_notice or self._timed_out("No key was pressed for too long"))
                    await self.show()
                    raise Hangup("idle")
                warn_in = idle_left - self._idle_lead()
                waits.append(warn_in if not self._warned and warn_in > 0 else idle_left)
                if self._warned and idle_left > IDLE_STEP:
                    waits.append(idle_left % IDLE_STEP or IDLE_STEP)  # its count said again as it runs down
            if self.deadline is not None:
                time_left = self.deadline - now
                if time_left <= 0:
                    self.last_words(self._timed_out("Your time for this call is used up"))
                    await self.show()
                    raise Hangup("time")
                # Not while keys typed ahead wait: the first of them would take the warning away
                # before it was seen (a caller who typed P at once met none on the board).
                # Nor over the idle warning when that ends the call first: it had covered 'Press a
                # key within 25 seconds' with '... in 2 minutes', and the caller went 25 s later.
                idle_first = use_idle and self._warned and self.idle_timeout - (now - self._last_key) < time_left
                if idle_first:
                    waits.append(time_left)  # told after the next key, which ends the idle warning
                elif self._warn_at and time_left <= self._warn_at[0] and self._early is None and self.keys.empty():
                    while self._warn_at and time_left <= self._warn_at[0]:
                        self._warn_at.pop(0)
                    self._cover(self._time_warning(time_left), lasting=True)
                    self._notice_until = now + TIME_WARNING_SHOWN
                    self.bell("error")
                    await self.show()
                elif self._under and self._notice_lasting and now >= self._notice_until:
                    await self.show()  # the warning's time is up: what it covered comes back
                if not idle_first:
                    waits.append(time_left - self._warn_at[0] if self._warn_at else time_left)
                if self._under and self._notice_lasting:
                    waits.append(self._notice_until - now)
            key: Key | None
            if self._early is not None:
                key, self._early = self._early, None
            elif not self.keys.empty():
                key = self.keys.get_nowait()
            else:
                if waits:
                    self._set_alarm(asyncio.get_running_loop().time() + max(0.0, min(waits)))
                key = await self.keys.get()
            if key is ALARM:
                now = time.monotonic()
                if timeout is not None and now - start >= timeout:
                    return None
                idle_left = self.idle_timeout - (now - self._last_key)
                # Not when the call's time ends first: 'Press a key within 40 seconds to stay'
                # had stood 3 s before 'Your time for this call is used up'.
                time_first = self.deadline is not None and self.deadline - now < idle_left
                if use_idle and not self._warned and idle_left <= self._idle_lead() and not time_first:
                    if self._under and self._notice_lasting and self.deadline is not None:
                        # It covers the time warning, up for a moment only: that is said again
                        # after the key that answers this one (it had been lost for good).
                        self._warn_at.insert(0, self.deadline - now)
                    self._warned = True
                    self._idle_said = self._idle_warning(idle_left)
                    self._cover(self._idle_said)
                    self.bell("error")
                    await self.show()
                elif use_idle and self._warned and self._under and not self._notice_lasting \
                        and idle_left > IDLE_STEP / 10 and (said := self._idle_warning(idle_left)) \
                        != self._idle_said:
                    # 'within 45 seconds' had stood 20 s later, when 25 were left.
                    self._idle_said = said
                    self._cover(said)
                    await self.show()
                continue
            if key is None:
                self.keys.put_nowait(None)  # stay hung up for every later reader
                if self._closing:
                    continue  # said above
                raise Hangup("eof")
            if key is RESIZED:
                # The screen as it stands, fitted to the new size, all sent again; a screen that
                # waits with `wake` is woken to lay itself out for the new size.
                self._resize_queued = False
                # Someone is there, as with a key.  (A screen laid out afresh wiped the 'Are you
                # there?' warning while its countdown ran on to the goodbye.)  The time warning
                # stays: the time runs out all the same.
                self._someone_there(resized=True)
                self.resizes += 1
                self._full = True
                await self.show()
                if wake:
                    return WAKE
                continue
            if key is WAKE:
                if wake:
                    return key
                self._woken = True
                continue
            self._someone_there()
            if key.name == "redraw":
                # Ctrl-L anywhere: send the whole screen again, then keep waiting.
                self._full = True
                await self.show()
                continue
            return key

    def _someone_there(self, resized: bool = False) -> None:
        """A key (or a resize): the idle count starts again, and the notice goes, with what it
        covered back (a screen that only echoes what is typed, like a prompt, would otherwise keep
        asking 'Are you there?'); the time warning only at a key."""
        self._last_key = time.monotonic()
        self._warned = False
        if not (resized and self._notice_lasting):
            self._uncover()

    def _idle_warning(self, idle_left: float) -> str:
        """'Are you there?', on one line where a shorter sentence fits (at 40 columns the whole
        one took two rows of the board's key help)."""
        gone = "go back to the BBS" if self.door else "be disconnected"
        # In steps of IDLE_STEP seconds, down: the count is said again at each (see key).
        # The alarm comes a hair before each step: 44.99 s is said as 45 (it had read 40, a step
        # low all the way down, and 'within 5 seconds' had stood 10 s).
        within = "a minute" if idle_left > IDLE_WARNING - 1 else _seconds(
            idle_left if idle_left < IDLE_STEP else IDLE_STEP * ((idle_left + IDLE_STEP / 10) // IDLE_STEP))
        said = [f"Are you there? Press a key within {within} or you will {gone}.",
                f"Are you there? Press a key within {within}.", f"Press a key within {within} to stay.",
                f"Press a key within {within}."]
        return next((text for text in said if len(text) <= self.width - 2), said[0])

    def _time_warning(self, time_left: float) -> str:
        """The time warning, on one line where a shorter sentence fits (at 40 columns the whole
        one took two rows, the board's key help among them)."""
        words = time_words(time_left)
        if self.door:
            said = [
                f"You have {words} left on this call; then you go back to the BBS.",
                f"You go back to the BBS in {words}.",
                f"Back to the BBS in {words}.",
            ]
        else:
            said = [f"You have {words} left on this call.", f"{words[:1].upper()}{words[1:]} left on this call."]
        return next((text for text in said if len(text) <= self.width - 2), said[-1])

    def _idle_lead(self) -> float:
        """How long before the idle timeout the warning comes: a minute, or half the timeout when
        that is two minutes or less (a sysop's 30 s timeout would otherwise never warn)."""
        return min(IDLE_WARNING, self.idle_timeout / 2)

    def _cover(self, text: str, lasting: bool = False) -> None:
        """A notice over the bottom rows (message_line); what it covers comes back at the next key
        (which acts as ever), or for a `lasting` one (the time warning) also once its time is up."""
        self._uncover()  # a notice already up gives way: what it covered is what this one covers
        self._notice_lasting = lasting
        cells = self.screen.canvas.cells
        under = [(r, cells[r - 1][:]) for r in range(1, len(cells) + 1)]
        rows = self.message_line(text)
        self._notice_text = text
        self._under = [(r, line) for r, line in under if r in rows]
        self._notice = [cells[r - 1][:] for r in rows]  # restored over only while still shown

    def _keep_cover(self) -> None:
        """A notice up until the next key stays up over a screen redrawn meanwhile (a menu or a
        board redrawn for a change elsewhere wiped the time warning before it was read)."""
        if not self._under:
            return
        if self._notice_lasting and time.monotonic() >= self._notice_until:
            self._uncover()
            return
        cells = self.screen.canvas.cells
        rows = [cells[r - 1] if r <= len(cells) else [] for r, _ in self._under]
        if rows != self._notice:
            text = self._notice_text
            if self._notice_lasting and self.deadline is not None:
                # In the words that fit the width as it is now: made at 80 columns and kept over
                # a resize to 40, the time warning took three rows, the board's keys among them.
                text = self._time_warning(self.deadline - time.monotonic())
            self._cover(text, self._notice_lasting)  # (its time runs on)

    def _uncover(self) -> None:
        if not self._under:
            return
        cells = self.screen.canvas.cells
        shown = [cells[r - 1] if r <= len(cells) else [] for r, _ in self._under]
        if shown == self._notice:  # not drawn over meanwhile (a redrawn screen needs nothing)
            for r, line in self._under:
                cells[r - 1] = line
        self._under, self._notice, self._notice_lasting = [], [], False

    async def line(
        self, row: int, col: int, width: int, *, secret: bool = False, initial: str = "", idle: bool = False,
        wake: bool = False, full: Callable[[bool], None] | None = None, any_wake: bool = False,
        allowed: Callable[[str], bool] | None = None, refused: Callable[[str | None], None] | None = None,
        replace_from: int | None = None,
    ) -> str | None:
        """Read a line with echo at (row, col); None when the caller presses Esc.

        It shows the screen with its field drawn: a show() just before it would only send the
        same screen twice (for a crowd dialling in, a second write a caller).  With `wake`, a new
        window size raises Woken, for a screen that lays itself out again; any other wake is
        kept for the screen's own next wait (key_or_resize).  `full(True)`: a character was
        refused, the field being full (for the screen to say why; the bell alone told nothing);
        `full(False)`: a backspace after that, for the screen to take it back.  `any_wake`: every
        wake raises Woken, for a screen that looks at what woke it (a game changed meanwhile).
        `allowed`: which characters the field takes; another is not taken, and `refused(char)`
        lets the screen say why as it is typed (not only at Enter); `refused(None)`: the next key
        taken after that, for the screen to take it back.  `replace_from`: `initial` from there on is
        a line kept to put right, which Backspace edits and a character typed first replaces."""
        text = initial
        rang = False
        barred = False  # the last character typed was not allowed
        try:
            while True:
                shown = ("*" * len(text)) if secret else text
                # The field as far as the screen has room (the bottom-right cell is never
                # written); a longer text scrolls, its end and the cursor in sight.
                room = max(1, min(width, self.width - col + (0 if row >= self.height else 1)))
                if len(shown) > room:
                    shown = shown[len(shown) - room + 1 :] if room > 1 else ""
                self.put(row, col, shown.ljust(room), "input")
                self.text_cursor((row, col + min(len(shown), room - 1)))
                await self.show()
                if any_wake:
                    key = await self.key(idle=True, wake=True)
                else:
                    key = await (self.key_or_resize() if wake else self.key(idle=True))
                if key is WAKE or key.name == "wake":
                    raise Woken(text)
                if key.name == "enter":
                    return text
                if key.name == "esc":
                    return None
                if key.name == "backspace":
                    text, replace_from = text[:-1], None
                    if rang and full is not None:
                        full(False)
                    rang = False
                    if barred and refused is not None:
                        refused(None)
                    barred = False
                elif key.char and key.char.isprintable() and allowed is not None and not allowed(key.char):
                    if not barred:
                        self.bell("error")  # once for a paste of them, as for a full field
                    barred = True
                    if refused is not None:
                        refused(key.char)
                elif key.char and key.char.isprintable():
                    # An accent typed after its letter (as some input methods send 'é') joins
                    # it: alone in a cell of its own it had shown as '?'.  One that joins
                    # nothing is not taken.
                    if replace_from is not None:
                        text, replace_from = text[:replace_from], None
                    typed = unicodedata.normalize("NFC", text + key.char)
                    if unicodedata.combining(typed[-1]):
                        continue
                    if len(typed) <= width:
                        text = typed
                        if barred and refused is not None:
                            refused(None)
                        barred = False
                    elif not rang:
                        # The field is full: the character was not taken.  One ring for a paste
                        # that runs on, not one a character.
                        self.bell("error")
                        rang = True
                        if full is not None:
                            full(True)
                elif (said := untyped_said(key)) is not None:
                    # An arrow, Tab or F-key types nothing: it had done nothing without a word.
                    # Said over the bottom line until the next key, as the idle warning is.
                    self.bell("error")
                    self._cover(f"{said} nothing while you type: Backspace rubs out, Enter ends.")
        finally:
            self.text_cursor(None)

    def text_cursor(self, at: tuple[int, int] | None) -> None:
        """Show the terminal's cursor at `at`, where the next typed character goes, from the next
        show() on; None hides it again (it is hidden everywhere else: the board has its own)."""
        self.screen.cursor = at
        self._typing = at is not None

    # ------------------------------------------------------------ output

    def clear(self) -> None:
        self.screen.canvas.clear()

    def style(self, name: str) -> Attr:
        """The attribute text in the named style is shown with."""
        return PLAIN_STYLES.get(name, PLAIN_STYLES["normal"])

    def put(self, row: int, col: int, text: str, style: str = "normal") -> None:
        self.screen.canvas.put(row, col, text, self.style(style))

    def box(self, top: int, left: int, bottom: int, right: int, style: str = "frame") -> None:
        g = glyphs(self.charset)
        attr = self.style(style)
        width = right - left - 1
        self.screen.canvas.put(top, left, g.tl + g.h * width + g.tr, attr)
        for row in range(top + 1, bottom):
            self.screen.canvas.put(row, left, g.v, attr)
            self.screen.canvas.put(row, right, g.v, attr)
        self.screen.canvas.put(bottom, left, g.bl + g.h * width + g.br, attr)

    def put_wrapped(self, row: int, col: int, text: str, style: str = "normal", *,
                    right: int | None = None, rows: int | None = None) -> int:
        """Write `text` broken at word boundaries to fit columns col..right (default: the last).

        Returns how many lines the text needs; with `rows`, only that many are drawn.
        """
        lines = wrap(text, (right or self.width) - col + 1)
        for i, line in enumerate(lines[:rows] if rows is not None else lines):
            self.put(row + i, col, line, style)
        return len(lines)

    def message_line(self, text: str, *, last: bool = False) -> range:
        """A notice across the bottom of whatever screen is showing, wrapped to fit; the rows it took.

        It keeps the margin of one column every screen's text has (it had started at column 1).
        `last`: the call's last words, kept off the screen's bottom row, so the fresh line stop()
        leaves the terminal on does not scroll them (and the screen) up."""
        lines = wrap(text, self.width - 2)
        bottom = self.height - 1 if last and self.height > 2 else self.height
        top = self._free_row(min(24, bottom), bottom) if len(lines) == 1 else max(1, bottom - len(lines) + 1)
        for i, line in enumerate(lines):
            self.put(top + i, 1, (" " + line).ljust(self.width - 1), "error")
        return range(top, top + len(lines))

    def _free_row(self, row: int, bottom: int) -> int:
        """`row`, or a row near it where a one-row notice covers nothing: one below it (the 25th
        of a 25-row screen, where the 24th holds a page's keys), else one of the three above it.
        The time warning had covered a page's keys, or a field being typed in, for ten seconds."""
        canvas = self.screen.canvas
        near: list[int] = [row, *range(row + 1, bottom + 1), *range(row - 1, max(0, row - 4), -1)]
        for r in near:
            if not canvas.row_text(r).strip():
                return r
        return row

    def _end_closed(self) -> None:
        """The door closed by the BBS: said once, as a goodbye the call's clock makes."""
        if not self._closing_said:
            self._closing_said = True
            self.last_words(self._timed_out("The BBS is closing the door"))

    def _timed_out(self, why: str) -> str:
        """The goodbye of a call ended by its clock: why, the screens' `parting` word, where to."""
        gone = "Back to the BBS." if self.door else "Goodbye!"
        return f"{why}. {self.parting} {gone}" if self.parting else f"{why}. {gone}"

    def last_words(self, text: str) -> None:
        """The call's goodbye (time used up, idle too long, the server going down), alone on the
        screen from the next show().  Drawn over the screen it ended, it left that screen's keys
        (a help line, a half-typed play) offered beside it while the goodbye waited."""
        self._under, self._notice, self._notice_lasting = [], [], False  # a warning up goes with the rest
        self.text_cursor(None)
        self.clear()
        self.message_line(text, last=True)

    def redraw(self) -> None:
        """Send the whole screen at the next show(), not only what changed."""
        self._full = True

    async def show(self) -> None:
        """Send what changed on the grid since the last show(), in the fewest bytes."""
        if self._closed:
            return
        self._keep_cover()
        data = self.screen.full_redraw() if self._full else self.screen.render()
        self._full = False
        if self._cursor_hidden and self._typing == self._cursor_off:
            # A field being typed in shows the cursor, after the bytes that put it there.
            data += SHOW_CURSOR if self._typing else HIDE_CURSOR
            self._cursor_off = not self._typing
        if self._greeting:
            data, self._greeting = self._greeting + data, b""
        if self._bell:
            data, self._bell = self._bell + data, b""
        if data:
            self.link.write(data)
            with contextlib.suppress(ConnectionError, OSError):
                await self.link.drain()

    def bell(self, effect: str = "your_turn") -> None:
        """A sound effect, sent with the next show() (one write, not a send of its own for a
        byte), or on its own in a moment where none follows; one effect at a time, the first."""
        data = sound_bytes(effect, self.sound, self.syncterm)
        if not data or self._bell:
            return
        self._bell = data
        try:
            asyncio.get_running_loop().call_soon(self._send_bell)
        except RuntimeError:
            self._send_bell()

    def _send_bell(self) -> None:
        if self._bell and not self._closed:
            self.link.write(self._bell)
        self._bell = b""

    def set_charset(self, charset: Charset) -> None:
        self.charset = charset
        self.decoder = KeyDecoder(charset)
        self.screen = Screen(charset=charset, rows=self.height, cols=self.width)
        self._full = True

    def resize(self, width: int, height: int) -> None:
        """The caller's terminal changed size (NAWS, RLogin's window message, SIGWINCH): keep what
        is drawn, and redraw it all now if a screen waits for a key, else at the next show."""
        self.sized_live = True
        width, height = fit_size(width, height)
        if (width, height) == (self.width, self.height):
            return
        self.width, self.height = width, height
        old = self.screen.canvas
        self.screen = Screen(charset=self.screen.charset, rows=height, cols=width)
        self.screen.load(fit_canvas(old, height, width), copy=False)
        self._full = True
        if not self._resize_queued and not self._closed:
            self._resize_queued = True  # a window dragged wider sends many sizes: one redraw
            self.keys.put_nowait(RESIZED)

    def whole_canvas(self) -> Canvas:
        """A ROWS x COLS canvas to draw a whole screen on for show_whole(): the screen's own when
        the terminal is that big, else one kept for this."""
        if (self.height, self.width) == (ROWS, COLS):
            return self.screen.canvas
        if self._whole is None:
            self._whole = Canvas()
        return self._whole

    def show_whole(self, canvas: Canvas) -> None:
        """Make the whole_canvas() drawn on the picture to show next, fitted to the terminal."""
        if canvas is self.screen.canvas:
            return
        cells = self.screen.canvas.cells
        for r in range(min(self.height, canvas.rows)):
            n = min(self.width, canvas.cols)
            cells[r][:n] = canvas.cells[r][:n]

    def load(self, canvas: Canvas) -> None:
        """Show a whole canvas drawn elsewhere, fitted to the terminal (made for this call: not copied)."""
        self.screen.load(fit_canvas(canvas, self.height, self.width), copy=False)
