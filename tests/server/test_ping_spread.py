"""Keep-alive pings spread over the interval (issue 28, fifty-second pass; docs/SERVER.md,
"What the loop's lags are made of"): connections opened together no longer ping together
(uvicorn pinged each one ``ws_ping_interval`` after its handshake, so a ramp's step of
people pinged, and got their pongs, in clumps, and every ping delayed by a lag of the loop
stayed with the others it was sent with); each connection pings at a moment of its own in
the interval, deterministically, at most one interval after its handshake or its last pong,
so a dead peer is still dropped within ``ws_ping_interval + ws_ping_timeout``.

Every wait is on an event, never a time: the timers' due times are read, not waited for."""

from __future__ import annotations

import asyncio
import math
import struct
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_direct_messages import client_frame
from test_socket_layer import HANDSHAKE, FakeTransport
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import Opcode

from chicago.server.transport import PING_SPREAD, ping_delay, protocol_classes

pytestmark = pytest.mark.timeout(60)

INTERVAL = 20.0
TIMEOUT = 20.0


async def _open(count: int, ws_protocol: type[Any] | None = None
                ) -> tuple[list[Any], list[FakeTransport], asyncio.Event]:
    """``count`` connections of ``chicago serve``'s websocket protocol (pings every 20 s,
    20 s to answer), their handshakes accepted in this one turn: (protocols, transports,
    done: set it to let their applications end). The loop's clock stands still from here
    on (no timer is waited for), so every due time read is measured from the moment the
    connections were made, however long a busy machine takes to make 200 of them (CI once
    took longer than the first connection's wait)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    loop.time = lambda: start  # type: ignore[method-assign]
    if ws_protocol is None:
        _, ws_protocol = protocol_classes()
    done = asyncio.Event()
    accepted = 0
    all_in = asyncio.Event()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        nonlocal accepted
        await receive()
        await send({"type": "websocket.accept"})
        accepted += 1
        if accepted == count:
            all_in.set()
        await done.wait()

    config = Config(app, ws=ws_protocol, ws_ping_interval=INTERVAL, ws_ping_timeout=TIMEOUT,
                    lifespan="off")
    config.load()
    protocols, transports = [], []
    for _ in range(count):
        protocol = ws_protocol(config=config, server_state=ServerState(), app_state={})
        transport = FakeTransport()
        protocol.connection_made(transport)
        protocol.data_received(HANDSHAKE)
        protocols.append(protocol)
        transports.append(transport)
    await all_in.wait()
    for transport in transports:
        transport.take()  # the handshakes' answers
    return protocols, transports, done


def _first_pings(protocols: list[Any]) -> list[float]:
    """Seconds from now to each connection's first ping."""
    now = asyncio.get_running_loop().time()
    return [p.ping_timer.when() - now for p in protocols]


def test_connections_opened_together_ping_spread_over_the_interval() -> None:
    """200 connections opened in one turn: their first pings fall in every second of the
    interval, at most a few more than the 10 a second an even spread gives (uvicorn's: all
    200 in the same moment), and each within one interval of its handshake."""
    async def main() -> None:
        protocols, _, done = await _open(200)
        waits = _first_pings(protocols)
        assert all(0 < w <= INTERVAL for w in waits)
        per_second = Counter(math.floor(w) % int(INTERVAL) for w in waits)
        assert len(per_second) == INTERVAL
        assert max(per_second.values()) <= 13
        done.set()

    asyncio.run(main())


def test_the_spread_is_deterministic() -> None:
    """The moments come from the order the connections are made, not from chance: a new
    server (a new protocol class) gives its connections the same ones."""
    async def phases() -> list[float]:
        protocols, _, done = await _open(50)
        done.set()
        return [p.ping_phase for p in protocols]

    first, second = asyncio.run(phases()), asyncio.run(phases())
    assert first == second
    assert first[:3] == [0.0, PING_SPREAD, (2 * PING_SPREAD) % 1.0]


def _pong(transport: FakeTransport) -> bytes:
    """The client's pong to the ping the server just wrote to ``transport``."""
    sent = transport.take()
    assert sent[0] == 0x89  # a ping frame, unmasked, its payload after two bytes
    return client_frame(Opcode.PONG, sent[2:2 + sent[1]])


def test_after_a_pong_the_next_ping_is_at_the_connections_moment() -> None:
    """A ping sent late (as after a lag of the loop) and answered: the next one is back at
    the connection's own moment, at most one interval after the pong, not one interval
    after the late ping."""
    async def main() -> None:
        protocols, transports, done = await _open(3)
        loop = asyncio.get_running_loop()
        for protocol, transport in zip(protocols, transports, strict=True):
            protocol.ping_timer.cancel()
            protocol.send_keepalive_ping()  # due later: sent now, as a lag would
            assert protocol.pong_timer is not None
            protocol.data_received(_pong(transport))
            assert protocol.pong_timer is None
            wait = protocol.ping_timer.when() - loop.time()
            assert 0 < wait <= INTERVAL
            place = (protocol.ping_timer.when() / INTERVAL) % 1.0
            assert min(abs(place - protocol.ping_phase),
                       1 - abs(place - protocol.ping_phase)) < 1e-6
        done.set()

    asyncio.run(main())


def test_a_dead_peer_is_still_dropped() -> None:
    """No pong: the ping's timeout (``ws_ping_timeout`` after it) closes the connection with
    1011, as uvicorn's does; the ping itself is due within one interval of the handshake."""
    async def main() -> None:
        protocols, transports, done = await _open(1)
        protocol, transport = protocols[0], transports[0]
        loop = asyncio.get_running_loop()
        assert protocol.ping_timer.when() - loop.time() <= INTERVAL
        protocol.ping_timer.cancel()
        protocol.send_keepalive_ping()
        transport.take()
        assert protocol.pong_timer.when() - loop.time() == pytest.approx(TIMEOUT, abs=0.5)
        protocol.pong_timer.cancel()
        protocol.keepalive_timeout()  # what the pong timer calls
        written = transport.take()
        assert written[0] == 0x88  # a close frame
        assert struct.unpack("!H", written[2:4])[0] == 1011
        assert transport.is_closing()
        done.set()

    asyncio.run(main())


@given(now=st.floats(0, 1e7), interval=st.floats(0.5, 600), phase=st.floats(0, 1,
                                                                            exclude_max=True))
def test_ping_delay_lands_on_the_phase_within_one_interval(now: float, interval: float,
                                                            phase: float) -> None:
    wait = ping_delay(now, interval, phase)
    assert 0 < wait <= interval
    place = ((now + wait) / interval - phase) % 1.0
    assert min(place, 1 - place) < 1e-6 * max(1.0, now / interval)
