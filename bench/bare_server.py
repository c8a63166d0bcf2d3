"""The load bench's baseline: a bare telnetlib3 server that answers each key with SIZE bytes.

    python bench/bare_server.py PORT_FILE SIZE [FIRST_SIZE]

It negotiates as bgdoor's server does (binary both ways, no line mode), sends FIRST_SIZE bytes
at once, then answers every key it reads with a screen update of SIZE bytes (cursor moves and
text, as a changed screen would be), and does nothing else: no database, no screens.  The
bench runs it beside `bgdoor serve` with the same callers, so bgdoor's figures are ratios.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from pathlib import Path
from typing import Any

import telnetlib3


def update(size: int, n: int) -> bytes:
    """SIZE bytes of cursor positioning and text, different each time."""
    out = bytearray()
    row = 1
    while len(out) < size:
        out += f"\x1b[{row};{(n + row) % 60 + 1}H\x1b[1;3{row % 8}m{n:08d}".encode()
        row = row % 24 + 1
    return bytes(out[:size])


async def main() -> None:
    port_file, size = Path(sys.argv[1]), int(sys.argv[2])
    first = int(sys.argv[3]) if len(sys.argv) > 3 else size
    gc.set_threshold(10_000, 10, 10)  # as bgdoor's server sets it

    async def shell(reader: Any, writer: Any) -> None:
        writer.write(update(first, 0))
        n = 0
        while True:
            data = await reader.read(1024)
            if not data:
                break
            for _ in data:
                n += 1
                writer.write(update(size, n))
            await writer.drain()
        writer.close()

    def factory() -> asyncio.Protocol:
        return telnetlib3.TelnetServer(
            shell=shell, encoding=False, force_binary=True, connect_maxwait=2.0, timeout=0, term="unknown"
        )

    # As bgdoor's server: a backlog for a thousand callers dialling at once.
    server = await asyncio.get_running_loop().create_server(factory, "127.0.0.1", 0, backlog=2048)
    port_file.write_text(str(server.sockets[0].getsockname()[1]))
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
