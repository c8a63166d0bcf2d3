"""The private telnetlib3 and asyncio attributes the telnet server relies on, in one place.

Neither library offers these publicly.  telnetlib3 is pinned below its next major version
(pyproject.toml), and tests/test_telnet_internals.py fails if any of these changes, so an
upgrade that moves one is caught before it ships.
"""

from __future__ import annotations

import asyncio

import telnetlib3
from telnetlib3.stream_reader import TelnetReader
from telnetlib3.stream_writer import TelnetWriter


def protocol_transport(protocol: telnetlib3.TelnetServer) -> asyncio.Transport | None:
    """The server protocol's transport (telnetlib3's `_transport`), to pause reading a flood.

    None before the connection is made and after it is lost.
    """
    transport = protocol._transport  # typed Any by telnetlib3
    return transport if isinstance(transport, asyncio.Transport) else None


def reader_paused(reader: TelnetReader | None) -> bool:
    """Whether telnetlib3's reader has paused the transport itself (`_paused`): given the
    transport, it pauses it while its buffer is full and resumes it once the buffer drains, so
    nobody else may resume it then.  (telnetlib3 5's server never gives its reader the
    transport, so there this stays False; the check keeps the meter right if that changes.)"""
    return bool(getattr(reader, "_paused", False))


def connection_lost(transport: asyncio.BaseTransport) -> bool:
    """Whether asyncio already counts the connection as lost (`_conn_lost`, set by close() and
    abort() on socket transports), so a close will never finish sending."""
    return bool(getattr(transport, "_conn_lost", 0))


def stop_line_editing_snoop(writer: TelnetWriter) -> None:
    """Turn off telnetlib3's simulated line editing (`slc_simulated`), whose handlers only log but
    cost a Python step for every byte received; every key is the console's to read."""
    writer.slc_simulated = False


def writer_transport(writer: TelnetWriter) -> object:
    """The transport telnetlib3's writer writes through (`_transport`, also its `transport`)."""
    return writer._transport


def set_writer_transport(writer: TelnetWriter, transport: object) -> None:
    """Make telnetlib3's writer write through `transport` (`_transport`): the server batches the
    writes of negotiation this way (with an object that is not an asyncio.Transport, only
    writes like one: hence setattr)."""
    setattr(writer, "_transport", transport)  # noqa: B010 - typed as a Transport by telnetlib3
