"""A port for a server that must be told its number before it starts."""

from __future__ import annotations

import random
import socket

# Below Linux's ephemeral range (32768 and up): a port picked there and released
# can be handed out again by any bind to port 0, the server's own telnet
# listener among them, before the server binds it.
_LOW, _HIGH = 20000, 32767


def free_port() -> int:
    for _ in range(200):
        port = random.randint(_LOW, _HIGH)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port between {_LOW} and {_HIGH}")
