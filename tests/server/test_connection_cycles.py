"""A connection that ended is freed by reference counting (issue 28, "finished tables leave
memory once stored"; docs/SERVER.md, "Connections without cycles"): with the garbage
collector off, nothing of ``chicago serve``'s protocol objects for a websocket (uvicorn's
HTTP protocol that read the upgrade, the websocket protocol, their parser, logger and
frame writer) outlives the connection and the application's task.

Before, each spectator's connection left about 135 objects in reference cycles, which wait
for the collector: under ``chicago serve``'s tuned collector (a young generation of 10,000
allocations, the survivors of full collections frozen) long enough to add megabytes.

Every test waits for events (the application's end), never for a time."""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

import pytest
from test_socket_layer import HANDSHAKE, FakeTransport
from uvicorn.config import Config
from uvicorn.server import ServerState

from chicago.server.transport import DIRECT_FRAMES, protocol_classes


class UpgradingTransport(FakeTransport):
    """A fake transport that, like uvloop's, hands its connection to the protocol set on it
    (the websocket protocol, after the upgrade) and lets go of it once it has told it the
    connection is lost."""

    def __init__(self) -> None:
        super().__init__()
        self.protocol: Any = None

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol

    def get_protocol(self) -> Any:
        return self.protocol

    def lose(self) -> None:
        """The connection is gone: its protocol is told so and let go."""
        self.protocol.connection_lost(None)
        self.protocol = None




async def _one_connection(close: bool) -> tuple[weakref.ref[Any], weakref.ref[Any]]:
    """A websocket connection through ``chicago serve``'s HTTP protocol (the upgrade) and
    websocket protocol, whose application accepts, writes a frame at once and ends when the
    client goes (``close``: the client's close frame first; else the connection is just
    lost): weak references to the two protocol objects, once the application has ended."""
    http_protocol, ws_protocol = protocol_classes()
    accepted, ended = asyncio.Event(), asyncio.Event()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        assert scope["extensions"][DIRECT_FRAMES].write_text('{"type": "hello"}')
        accepted.set()
        message = await receive()
        assert message["type"] == "websocket.disconnect"
        ended.set()

    config = Config(app, http=http_protocol, ws=ws_protocol, ws_ping_interval=None,
                    lifespan="off", log_level="error")
    config.load()
    state = ServerState()
    http = http_protocol(config=config, server_state=state, app_state={})
    transport = UpgradingTransport()
    http.connection_made(transport)
    http.data_received(HANDSHAKE)
    websocket = transport.protocol
    assert isinstance(websocket, ws_protocol)
    await accepted.wait()
    assert transport.take().startswith(b"HTTP/1.1 101 ")
    if close:  # a masked close frame, code 1000
        websocket.data_received(bytes([0x88, 0x82, 1, 2, 3, 4, 0x03 ^ 1, 0xE8 ^ 2]))
    transport.lose()
    await ended.wait()
    while state.tasks:  # the application's task is done when its callbacks have run
        await asyncio.gather(*state.tasks)
    refs = weakref.ref(http), weakref.ref(websocket)
    del http, websocket, transport, state, config
    return refs


@pytest.mark.parametrize("close", [True, False], ids=["closed", "lost"])
def test_a_websocket_connection_that_ended_leaves_no_cycle(collector_off: None,
                                                            close: bool) -> None:
    http, websocket = asyncio.run(_one_connection(close))
    kept = [name for name, ref in [("uvicorn's HTTP protocol of the upgrade", http),
                                   ("the websocket protocol", websocket)] if ref() is not None]
    assert kept == [], f"{' and '.join(kept)} stayed (in a reference cycle)"
