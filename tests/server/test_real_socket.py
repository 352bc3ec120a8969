"""Bad input through a real ``chicago serve`` process (uvicorn and its websocket
implementation, not the framework's test client): oversized messages up to the transport's
limit, JSON nested deeper than the parser goes and lone surrogates get an error naming the
problem, and the connection stays up with the table unchanged. Only a frame over the
transport limit (1 MiB, far above the application's 16 KiB) is refused by the transport
itself, which closes the socket with code 1009 (docs/PROTOCOL.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_support import Server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from chicago.server.settings import Settings

pytestmark = pytest.mark.timeout(120)

APP_LIMIT = Settings().max_message
TRANSPORT_LIMIT = Settings().ws_max_size


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One real server for the module."""
    running = Server(tmp_path_factory.mktemp("real") / "real.sqlite3")
    try:
        yield running
    finally:
        running.kill()


def _seated(server: Server) -> tuple[str, ClientConnection, dict[str, Any]]:
    """A new two-seat table, seat 0 joined and greeted: (table id, socket, snapshot)."""
    table = server.post("/api/tables", {"seats": ["open", "open"], "bot_delay": 0})["id"]
    token = server.post(f"/api/tables/{table}/join", {"seat": 0})["token"]
    ws = connect(f"{server.ws}/ws/{table}", open_timeout=10, max_size=None,
                 legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return table, ws, _until(ws, "snapshot")


def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(10))
        if frame["type"] == kind:
            return frame


def _still_up(server: Server, ws: ClientConnection, table: str, seq: int) -> None:
    """The connection answers, and the table did not move."""
    ws.send(json.dumps({"type": "ping"}))
    assert _until(ws, "pong")["seq"] == seq
    assert httpx.get(f"{server.http}/api/tables/{table}").json()["seq"] == seq


@pytest.mark.parametrize("size", [APP_LIMIT + 1, 70_000, 500_000, TRANSPORT_LIMIT - 100])
def test_oversized_message_gets_too_large_and_the_connection_stays(server: Server,
                                                                   size: int) -> None:
    table, ws, snap = _seated(server)
    with ws:
        head = '{"type": "chat", "id": "big", "text": "'
        raw = head + "x" * (size - len(head) - 2) + '"}'
        assert len(raw.encode()) == size
        ws.send(raw)
        error = _until(ws, "error")
        assert error["code"] == "too_large" and "id" not in error  # (never parsed)
        assert f"at most {APP_LIMIT} bytes" in error["message"]
        _still_up(server, ws, table, snap["seq"])
        ws.send(raw.encode())  # the same as a binary frame
        assert _until(ws, "error")["code"] == "too_large"
        _still_up(server, ws, table, snap["seq"])


def test_a_frame_over_the_transport_limit_closes_with_1009(server: Server) -> None:
    table, ws, snap = _seated(server)
    with ws:
        ws.send("x" * (TRANSPORT_LIMIT + 1))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert httpx.get(f"{server.http}/api/tables/{table}").json()["seq"] == snap["seq"]


@pytest.mark.parametrize(("raw", "code", "words"), [
    ("[" * 5000 + "]" * 5000, "bad_json", "nested too deeply"),
    ('{"type": "ping", "id": ' + "[" * 3000 + "]" * 3000 + "}", "bad_json",
     "nested too deeply"),
    (r'{"type": "hello", "token": "\ud800"}', "bad_message", '"token" must be a seat token'),
    (r'{"type": "chat", "text": "\ud800 hi"}', "bad_message", "lone surrogates"),
    (r'{"type": "act", "action": "keep\u0000"}', "bad_message", "control characters"),
])
def test_malformed_messages_get_an_error_and_the_connection_stays(
        server: Server, raw: str, code: str, words: str) -> None:
    table, ws, snap = _seated(server)
    with ws:
        ws.send(raw)
        error = _until(ws, "error")
        assert error["code"] == code and words in error["message"]
        _still_up(server, ws, table, snap["seq"])
