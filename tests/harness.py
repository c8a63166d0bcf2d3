"""Drive a real telnet server over sockets and read what a caller sees on an 80x25 screen."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
from collections.abc import AsyncIterator

import pyte
import telnetlib3
from menus import (
    begin,
    login as login,  # the tests log in through harness as well
    open_game,
)
from screenwait import ScreenWaits

from bgdoor.config import Config
from bgdoor.rules.dice import DiceSource
from bgdoor.service import Service
from bgdoor.transport.telnet import TelnetDoorServer
from bgdoor.ui.runtime import Runtime


class Caller(ScreenWaits):
    """A telnet caller with a pyte screen."""

    WAIT = 10.0

    def __init__(self, reader: telnetlib3.TelnetReader, writer: telnetlib3.TelnetWriter, charset: str,
                 cols: int = 80, rows: int = 25) -> None:
        self.reader = reader
        self.writer: telnetlib3.TelnetWriter = writer
        self.charset = charset
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)
        self.received = bytearray()
        self.closed = False
        self._pump = asyncio.ensure_future(self._read())
        self.changed = asyncio.Event()

    async def _read(self) -> None:
        decoder = "cp437" if self.charset == "cp437" else "utf-8"
        inc = codecs.getincrementaldecoder(decoder)(errors="replace")
        while True:
            data = await self.reader.read(4096)
            if not data:
                self.closed = True
                self.changed.set()
                return
            self.received += data
            self.stream.feed(inc.decode(bytes(data)))
            self.changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def send(self, data: bytes | str) -> None:
        if isinstance(data, str):
            data = data.encode("latin-1")
        self.writer.write(data)

    async def wait_closed(self, timeout: float = 10.0) -> bool:
        """Raises TimeoutError if the server has not closed the connection within `timeout`."""
        await asyncio.wait_for(self._pump, timeout=timeout)
        return self.closed


@contextlib.asynccontextmanager
async def running_server(
    db_url: str, dice: DiceSource | None = None, bot: bool = False, **config: object
) -> AsyncIterator[TelnetDoorServer]:
    settings = Config(host="127.0.0.1", port=0, negotiation_wait=0.5, poll_interval=0.5, login_delay=0.05)
    for key, value in config.items():
        setattr(settings, key, value)
    service = Service(db_url, dice=dice)
    runner = None
    if bot:
        from bgdoor.bot.runner import BotRunner  # noqa: PLC0415 - numpy loads only for tests with a bot

        runner = BotRunner(service, seed=1)
    runtime = Runtime(service, settings, bot=runner)
    if runner is not None:
        runner.start(runtime)
    server = TelnetDoorServer(runtime)
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.close()
        if runner is not None:
            await runner.stop()
        runtime.service.close()
        service.close()


async def call(port: int, term: str = "xterm", charset: str = "utf8", cols: int = 80, rows: int = 25) -> Caller:
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", port, encoding=False, term=term, cols=cols, rows=rows, connect_maxwait=1.0
    )
    return Caller(reader, writer, charset, cols, rows)


async def seated(port: int) -> tuple[Caller, Caller]:
    """alice begins a 3-point match as White and bob joins it; returns once bob's board asks for
    the opening roll and alice has been told he joined."""
    alice = await call(port)
    await login(alice, "alice", "alice-pw", new=True)
    await begin(alice, 3)
    bob = await call(port)
    await login(bob, "bob", "bob-pw", new=True)
    await open_game(bob, expect="Join it?")
    bob.send("Y")
    await bob.wait_for("roll for who starts")
    await alice.wait_for("bob joined")
    return alice, bob
