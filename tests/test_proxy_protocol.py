"""Behind a TCP load balancer: the PROXY protocol header (HAProxy's send-proxy and send-proxy-v2)
from a trusted address names the real caller, whose address the caps, the login throttling,
the RLogin address checks and the logs then use.  A real `bgdoor serve`; the "balancer" is a
raw client calling from 127.0.0.5 and writing the header HAProxy would write first."""

from __future__ import annotations

import asyncio
import ipaddress
from pathlib import Path

import pytest
from rawtelnet import RawCaller, login
from rloginplay import RLoginCaller, handshake
from serverproc import ServerProcess
from test_rlogin_serve import SECRET, rlogin_server

from bgdoor.config import ConfigError, load_config
from bgdoor.transport.proxy import ProxyHeader, ProxyRefused, parse_proxy

pytestmark = pytest.mark.timeout(180)

BALANCER = "127.0.0.5"
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"


def v1(source: str, port: int = 40000) -> bytes:
    family = "TCP6" if ":" in source else "TCP4"
    return f"PROXY {family} {source} 127.0.0.1 {port} 2323\r\n".encode()


def v2(source: str, port: int = 40000) -> bytes:
    ip = ipaddress.ip_address(source)
    family = 0x11 if ip.version == 4 else 0x21
    dest = ipaddress.ip_address("127.0.0.1" if ip.version == 4 else "::1")
    body = ip.packed + dest.packed + port.to_bytes(2, "big") + (2323).to_bytes(2, "big")
    tlv = b"\x05\x00\x04abcd"  # a TLV (HAProxy's unique id) after the addresses is skipped
    return V2_SIGNATURE + bytes([0x21, family]) + (len(body) + len(tlv)).to_bytes(2, "big") + body + tlv


async def telnet_via(port: int, header: bytes, source: str = BALANCER) -> RawCaller:
    """A telnet caller whose first bytes are `header`, as the balancer relays it."""
    caller = await RawCaller.connect(port, source=source)
    caller.send_raw(header)  # before the caller answers any negotiation: the header comes first
    return caller


async def closed(caller: RawCaller | RLoginCaller, timeout: float = 15.0) -> bool:
    end = asyncio.get_running_loop().time() + timeout
    while not caller.closed and asyncio.get_running_loop().time() < end:
        await asyncio.sleep(0.05)
    return caller.closed


async def test_telnet_callers_behind_a_trusted_balancer_count_by_their_own_address(tmp_path: Path) -> None:
    srv = ServerProcess(
        tmp_path,
        f"sqlite:///{tmp_path / 'bg.db'}",
        server={"host": "127.0.0.1", "max_per_address": 2, "proxy_from": f"{BALANCER}, 10.9.0.0/16"},
    ).start()
    callers: list[RawCaller] = []
    try:
        # Two callers from one real address get in; a third from it is refused, as it would be
        # if it called direct.  The balancer's own address counts for nothing.
        for n in range(2):
            callers.append(await telnet_via(srv.port, v1("203.0.113.7", 40000 + n)))
            await callers[-1].wait_for("Handle:")
        third = await telnet_via(srv.port, v1("203.0.113.7", 40002))
        callers.append(third)
        await third.wait_for("Too many connections from your address.")
        # Other real addresses, in the binary v2 form (IPv4 and IPv6), still get in.
        other = await telnet_via(srv.port, v2("198.51.100.20"))
        six = await telnet_via(srv.port, v2("2001:db8::5"))
        callers += [other, six]
        await other.wait_for("Handle:")
        await six.wait_for("Handle:")
        # A wrong password is held against the real address, not the balancer's.
        await login(callers[0], "alice", "alice-secret", new=True)
        other.send("alice\r")
        await other.wait_for("Password:")
        other.send("wrong-guess\r")
        await other.wait_for("Handle:")
        # A caller who calls direct, without a header, is served as always.
        direct = await RawCaller.connect(srv.port)
        callers.append(direct)
        await direct.wait_for("Handle:")
        # Refused with a log line: a header from an address not trusted to send one, a
        # malformed header from the balancer, and the balancer sending no header at all.
        forged = await telnet_via(srv.port, v1("192.0.2.99"), source="127.0.0.1")
        garbled = await telnet_via(srv.port, b"PROXY TCP4 203.0.113.8 nonsense\r\n")
        headerless = await telnet_via(srv.port, b"\xff\xfb\x18")  # IAC WILL TTYPE: a client's bytes
        callers += [forged, garbled, headerless]
        for caller in (forged, garbled, headerless):
            assert await closed(caller), caller.text
            assert "Handle:" not in caller.text
        await asyncio.sleep(0.3)
        log = srv.stderr()
        for line in (
            "connect 203.0.113.7 ",
            "refused 203.0.113.7: 2 connections from that address",
            "connect 198.51.100.20 ",
            "connect 2001:db8::5 ",
            "failed login for 'alice' from 198.51.100.20",
            "refused 127.0.0.1: a PROXY header, but this address is not in proxy_from",
            f"refused {BALANCER}: malformed PROXY v1 header",
            f"refused {BALANCER}: no PROXY header from the trusted balancer",
        ):
            assert line in log, f"{line!r} not in the log:\n{log[-3000:]}"
        assert f"connect {BALANCER} " not in log
    finally:
        for c in callers:
            c.close()
        srv.stop()


async def test_rlogin_behind_a_trusted_balancer_checks_the_real_address(tmp_path: Path) -> None:
    srv = rlogin_server(
        tmp_path,
        f"sqlite:///{tmp_path / 'bg.db'}",
        rlogin={"host": "127.0.0.1", "proxy_from": BALANCER},
        # A member BBS trusted by its address alone, which is not the balancer's.
        **{"bbs FAR": {"name": "Far Board", "auth": "address", "addresses": "198.51.100.0/24"}},
    ).start()
    port = srv.rlogin_port
    callers: list[RLoginCaller | RawCaller] = []
    try:
        far = await RLoginCaller.connect(port, v1("198.51.100.9") + handshake("Zed", "[FAR]Zed"), source=BALANCER)
        callers.append(far)
        screen = await far.wait_for("Your choice")
        assert "Welcome, Zed." in screen
        # DEMO's gateway calls from 127.0.0.0/8; this caller's real address is elsewhere.
        stray = await RLoginCaller.connect(
            port, v2("203.0.113.1") + handshake(SECRET, "[DEMO]Amy"), source=BALANCER
        )
        callers.append(stray)
        assert await stray.wait_closed(15)
        assert "BBS DEMO does not call from this address." in " ".join(stray.text.split())
        # A header from an address not in proxy_from, and a malformed one from the balancer.
        forged = await RLoginCaller.connect(port, v1("198.51.100.9") + handshake("Zed", "[FAR]Zed"))
        garbled = await RLoginCaller.connect(port, V2_SIGNATURE + b"\x99\x11\x00\x0c", source=BALANCER)
        callers += [forged, garbled]
        assert await forged.wait_closed(15) and await garbled.wait_closed(15)
        assert "Welcome" not in forged.text
        # The telnet listener has no proxy_from here: a header there is refused too.
        telnet = await telnet_via(srv.port, v1("198.51.100.9"), source=BALANCER)
        callers.append(telnet)
        assert await closed(telnet)
        await asyncio.sleep(0.3)
        log = srv.stderr()
        for line in (
            "rlogin connect 198.51.100.9 Zed@FAR",
            "rlogin refused 203.0.113.1: DEMO: address not in its list",
            "rlogin refused 127.0.0.1: a PROXY header, but this address is not in proxy_from",
            f"rlogin refused {BALANCER}: malformed PROXY v2 header",
            f"refused {BALANCER}: a PROXY header, but door.cfg trusts no address to send one",
        ):
            assert line in log, f"{line!r} not in the log:\n{log[-3000:]}"
    finally:
        for c in callers:
            c.close()
        srv.stop()


def test_headers_parse_whole_or_wait_for_the_rest() -> None:
    for header, source in ((v1("203.0.113.7"), "203.0.113.7"), (v2("2001:db8::5"), "2001:db8::5")):
        data = header + b"keys"
        for cut in range(len(header)):
            assert parse_proxy(data[:cut]) is None, cut
        found = parse_proxy(data)
        assert found == ProxyHeader(source, len(header))
    assert parse_proxy(b"PROXY UNKNOWN\r\n") == ProxyHeader(None, 15)
    local = V2_SIGNATURE + bytes([0x20, 0x00, 0, 0])  # LOCAL: the balancer's own health check
    assert parse_proxy(local) == ProxyHeader(None, 16)
    mapped = v1("::ffff:192.0.2.1")
    assert parse_proxy(mapped) == ProxyHeader("192.0.2.1", len(mapped))


@pytest.mark.parametrize(
    "data",
    [
        b"GET / HTTP/1.0\r\n",
        b"PROXY TCP4 203.0.113.7 127.0.0.1 70000 2323\r\n",
        b"PROXY TCP4 2001:db8::1 127.0.0.1 1 2323\r\n",
        b"PROXY TCP4 " + b"9" * 120,
        V2_SIGNATURE + bytes([0x31, 0x11, 0, 12]) + bytes(12),
        V2_SIGNATURE + bytes([0x21, 0x11, 0, 4]) + bytes(4),
        V2_SIGNATURE + bytes([0x21, 0x11, 0xFF, 0xFF]),
    ],
)
def test_malformed_headers_are_refused(data: bytes) -> None:
    with pytest.raises(ProxyRefused):
        parse_proxy(data)


def test_proxy_from_must_be_addresses(tmp_path: Path) -> None:
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[server]\nproxy_from = 10.0.0.5, 10.1.0.0/16\n[rlogin]\nproxy_from = ::1\n")
    config = load_config(cfg)
    assert [str(n) for n in config.proxy_trusted] == ["10.0.0.5/32", "10.1.0.0/16"]
    assert [str(n) for n in config.rlogin_proxy_trusted] == ["::1/128"]
    assert load_config(None).proxy_trusted == ()  # off unless configured
    cfg.write_text("[server]\nproxy_from = haproxy.local\n")
    with pytest.raises(ConfigError, match="proxy_from: 'haproxy.local' is not an address"):
        load_config(cfg)
