"""The private telnetlib3 and asyncio attributes bgdoor relies on are still there and still mean
what transport/telnet_internals.py says.  If telnetlib3 or Python moves one, this fails, loudly,
rather than the server silently reading floods unmetered or leaving dead sockets open."""

from __future__ import annotations

import asyncio

import telnetlib3
from telnetlib3.stream_reader import TelnetReader
from telnetlib3.stream_writer import TelnetWriter

from bgdoor.transport import telnet_internals as internals
from bgdoor.transport.telnet import MeteredTelnetServer, OfferingReader


class FakeTransport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.paused = False

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False


async def test_the_attributes_exist_where_the_adapter_reads_them() -> None:
    assert "_paused" in vars(TelnetReader()), "telnetlib3's TelnetReader no longer has _paused"
    assert hasattr(TelnetWriter, "slc_simulated"), "telnetlib3's TelnetWriter no longer has slc_simulated"
    assert hasattr(telnetlib3.TelnetServer(), "_transport"), "telnetlib3's TelnetServer no longer has _transport"


async def test_a_reader_with_the_transport_pauses_and_resumes_it_itself() -> None:
    reader = TelnetReader(limit=16)
    transport = FakeTransport()
    reader.set_transport(transport)
    assert internals.reader_paused(reader) is False
    reader.feed_data(b"x" * 40)  # past twice the limit
    assert transport.paused and internals.reader_paused(reader) is True
    assert await reader.read(30) == b"x" * 30
    assert not transport.paused and internals.reader_paused(reader) is False


async def test_the_server_protocol_and_transport_attributes_behave_as_the_server_needs() -> None:
    seen: dict[str, object] = {}
    ready = asyncio.Event()
    done = asyncio.Event()

    async def shell(reader: TelnetReader, writer: TelnetWriter) -> None:
        protocol = writer.protocol
        assert isinstance(protocol, MeteredTelnetServer)
        seen["transport"] = internals.protocol_transport(protocol)
        await asyncio.sleep(0)  # the first step writes with negotiation's last batch
        seen["writer_transport"] = writer.transport
        seen["slc_simulated"] = writer.slc_simulated  # the server turned the snoop off
        seen["reader_paused"] = internals.reader_paused(reader)
        ready.set()
        await done.wait()

    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: MeteredTelnetServer(shell=shell, encoding=False, connect_maxwait=0.2, timeout=0),
        "127.0.0.1",
        0,
    )
    port = server.sockets[0].getsockname()[1]
    _, client = await asyncio.open_connection("127.0.0.1", port)
    try:
        await asyncio.wait_for(ready.wait(), 10)
        transport = seen["transport"]
        assert isinstance(transport, asyncio.Transport), "telnetlib3's server protocol no longer keeps _transport"
        assert transport is seen["writer_transport"]
        assert seen["slc_simulated"] is False
        assert seen["reader_paused"] is False

        assert internals.connection_lost(transport) is False
        transport.close()
        assert internals.connection_lost(transport) is True, "asyncio no longer counts a closed transport as lost"
    finally:
        done.set()
        client.close()
        server.close()
        await server.wait_closed()


class RecordingTransport(FakeTransport):
    """Keeps each write as it was made."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 4000) if name == "peername" else default


async def test_negotiation_commands_made_together_leave_in_one_write_and_the_shell_writes_directly() -> None:
    started = asyncio.Event()
    shell_transport: list[object] = []

    async def shell(reader: TelnetReader, writer: TelnetWriter) -> None:
        writer.write(b"FIRST SCREEN")
        await asyncio.sleep(0)
        shell_transport.append(writer.transport)
        writer.write(b"NEXT")
        started.set()

    transport = RecordingTransport()
    protocol = MeteredTelnetServer(shell=shell, encoding=False, force_binary=True, connect_maxwait=5.0, timeout=0)
    protocol.connection_made(transport)
    assert protocol.writer is not None
    assert internals.writer_transport(protocol.writer) is not transport  # negotiation is batched
    await asyncio.sleep(0.05)
    assert transport.writes == [b"\xff\xfd\x18"]  # DO TTYPE
    # The terminal agrees to the terminal type: the server asks its name, and then offers its
    # further options (SGA, BINARY, NAWS) in one write, not one write each.
    protocol.data_received(b"\xff\xfb\x18")
    await asyncio.sleep(0.05)
    assert transport.writes[1:] == [b"\xff\xfa\x18\x01\xff\xf0", b"\xff\xfb\x03\xff\xfb\x00\xff\xfd\x1f"]
    before = len(transport.writes)
    protocol.data_received(b"\xff\xfa\x18\x00ansi\xff\xf0\xff\xfd\x03\xff\xfd\x00\xff\xfb\x1f\xff\xfa\x1f\x00P\x00\x19\xff\xf0")
    await asyncio.wait_for(started.wait(), 5)
    # The answers (the terminal type asked again, ECHO, NEW_ENVIRON) and the first screen, in one
    # write: a crowd dialling in costs a send a caller less.
    first, *rest = transport.writes[before:]
    assert first.startswith(b"\xff") and first.endswith(b"FIRST SCREEN"), transport.writes[before:]
    assert b"\xff\xfa\x18\x01\xff\xf0" in first
    # Then the session writes straight to the caller's transport, as the server's flow control
    # expects.
    assert shell_transport == [transport]
    assert rest == [b"NEXT"]
    protocol.connection_lost(None)


async def test_the_offering_reader_keeps_the_order_of_what_it_was_given() -> None:
    """What the sink takes never overtakes what waits unread in the buffer."""
    reader = OfferingReader()
    taken: list[bytes] = []
    willing = True

    def sink(data: bytes) -> bool:
        if willing:
            taken.append(data)
        return willing

    reader.sink = sink
    reader.feed_data(b"a")
    assert taken == [b"a"]
    willing = False
    reader.feed_data(b"b")  # refused: kept for read()
    willing = True
    reader.feed_data(b"c")  # the sink would take it, but b is still unread
    assert taken == [b"a"]
    assert await reader.read(1024) == b"bc"
    reader.feed_data(b"d")
    assert taken == [b"a", b"d"]
    reader.sink = None
    reader.feed_data(b"e")
    assert await reader.read(1024) == b"e"
