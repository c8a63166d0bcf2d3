"""The PROXY protocol, as HAProxy's `send-proxy` (v1, text) and `send-proxy-v2` (binary) send it.

Behind a TCP load balancer every caller comes from the balancer's address, so the per-address
caps, the login throttling and the RLogin address checks would all see one address.  A
balancer door.cfg trusts (`proxy_from`) puts a header before the caller's bytes naming the
real address; it is used from then on.  From a trusted address the header is required; from
any other it is refused, since anyone could write one.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from bgdoor.config import IPNetwork, address_in

V1_PREFIX = b"PROXY "
V1_MAX = 107  # the longest v1 line the specification allows, CR LF included
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
V2_MAX = 4096  # addresses and TLVs; HAProxy sends far less
HEADER_TIMEOUT = 10.0  # seconds a trusted balancer has to send the header


class ProxyRefused(Exception):
    """A connection turned away for its PROXY header (or the lack of one): the log's reason."""


@dataclass(frozen=True)
class ProxyHeader:
    source: str | None  # the caller's address; None: the balancer speaks for itself (a health check)
    length: int  # bytes the header took


def looks_like_proxy(data: bytes) -> bool:
    return data.startswith(V1_PREFIX) or data.startswith(V2_SIGNATURE)


def _plain(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def _v1(data: bytes) -> ProxyHeader | None:
    end = data.find(b"\r\n", 0, V1_MAX)
    if end < 0:
        if len(data) >= V1_MAX:
            raise ProxyRefused("malformed PROXY v1 header: no CR LF within 107 bytes")
        return None
    try:
        words = data[:end].decode("ascii").split(" ")
    except UnicodeDecodeError:
        raise ProxyRefused("malformed PROXY v1 header: not ASCII") from None
    if len(words) >= 2 and words[1] == "UNKNOWN":
        return ProxyHeader(None, end + 2)
    if len(words) != 6 or words[1] not in ("TCP4", "TCP6"):
        raise ProxyRefused(f"malformed PROXY v1 header: {data[:end][:60]!r}")
    try:
        source = ipaddress.ip_address(words[2])
        ipaddress.ip_address(words[3])
        ports = [int(word) for word in words[4:]]
    except ValueError:
        raise ProxyRefused(f"malformed PROXY v1 header: {data[:end][:60]!r}") from None
    if source.version != (4 if words[1] == "TCP4" else 6) or not all(0 <= p <= 65535 for p in ports):
        raise ProxyRefused(f"malformed PROXY v1 header: {data[:end][:60]!r}")
    return ProxyHeader(_plain(source), end + 2)


def _v2(data: bytes) -> ProxyHeader | None:
    if len(data) < 16:
        return None
    version, command = data[12] >> 4, data[12] & 0x0F
    if version != 2 or command not in (0, 1):
        raise ProxyRefused(f"malformed PROXY v2 header: version/command byte {data[12]:#04x}")
    length = int.from_bytes(data[14:16], "big")
    if length > V2_MAX:
        raise ProxyRefused(f"malformed PROXY v2 header: {length} bytes of addresses")
    if len(data) < 16 + length:
        return None
    family = data[13] >> 4
    body = data[16 : 16 + length]
    if command == 0 or family not in (1, 2):
        return ProxyHeader(None, 16 + length)  # LOCAL (a health check), or UNSPEC/UNIX addresses
    need = 12 if family == 1 else 36
    if length < need:
        raise ProxyRefused(f"malformed PROXY v2 header: {length} bytes for the addresses, not {need}")
    source = ipaddress.IPv4Address(body[:4]) if family == 1 else ipaddress.IPv6Address(body[:16])
    return ProxyHeader(_plain(source), 16 + length)


def parse_proxy(data: bytes) -> ProxyHeader | None:
    """The header at the start of `data`, or None while it is incomplete; ProxyRefused if it is
    none or malformed."""
    if not data:
        return None
    if data[:1] == b"\r":
        if not V2_SIGNATURE.startswith(data[:12]):
            raise ProxyRefused("no PROXY header from the trusted balancer")
        return _v2(data) if len(data) >= 12 else None
    if not V1_PREFIX.startswith(data[:6]):
        raise ProxyRefused("no PROXY header from the trusted balancer")
    return _v1(data) if len(data) >= 6 else None


class ProxyGate:
    """One connection's PROXY header: required from a trusted peer, refused from any other."""

    def __init__(self, peer: str, trusted: tuple[IPNetwork, ...]) -> None:
        self.peer = peer
        self.expected = address_in(peer, trusted)
        self.done = False
        self.address: str | None = None if self.expected else peer  # the caller's, once known
        self._buffer = b""
        self._untrusted_only = not trusted

    def feed(self, data: bytes) -> bytes:
        """The bytes after the header (b"" while it is incomplete); ProxyRefused when it is
        malformed, missing, or sent by a peer not trusted to send one."""
        if self.done:
            return data
        if not self.expected:
            self.done = True
            if looks_like_proxy(data):
                why = "door.cfg trusts no address to send one (proxy_from)" if self._untrusted_only else (
                    "this address is not in proxy_from"
                )
                raise ProxyRefused(f"a PROXY header, but {why}")
            return data
        self._buffer += data
        header = parse_proxy(self._buffer)
        if header is None:
            return b""
        self.done = True
        self.address = header.source or self.peer
        rest, self._buffer = self._buffer[header.length :], b""
        return rest
