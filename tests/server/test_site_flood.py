"""The site socket ``/ws/site`` (issue 26) against a hostile client, held to the table
socket's standard (tests/server/test_bad_input.py): too many messages are answered
``rate_limited`` once a second and a flood closes the socket (1008), the same replies as a
table socket gives to the same messages; an oversized message (counted in UTF-8 bytes, also
as a binary frame) gets ``too_large`` and malformed ones their error, and the socket stays
up; others are served all along.

Before, the site socket answered every dropped message with an error, never closed a flood,
and counted a message's size in characters (9,000 two-byte characters passed a 16 KiB
limit).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from server_support import close_all, create_table
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chicago.server import Settings, create_app, sockets

pytestmark = pytest.mark.timeout(120)

PING = '{"type": "ping"}'


@dataclass
class Strict:
    """A test client of the strict server, and its rate clock (seconds, moved by hand)."""

    client: TestClient
    clock: list[float]


@pytest.fixture
def strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Strict]:
    """A server with tight limits (1 message a second, bursts of 5, closed after 60
    dropped in a row) whose rate clock stands still unless a test moves it: however slowly
    a busy machine handles the messages, no token comes back meanwhile."""
    clock = [1000.0]
    monkeypatch.setattr(sockets, "rate_clock", lambda: clock[0])
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'strict.sqlite3'}", static_dir=None,
                        seed=7, rate=1.0, burst=5, flood_close=60)
    with TestClient(create_app(settings)) as test_client:
        try:
            yield Strict(test_client, clock)
        finally:
            close_all()


def _kinds_until(ws: Any, last: str, kinds: list[str] | None = None) -> list[str]:
    """The frames' types (an error's code after it) up to the first of type ``last``,
    added to ``kinds``."""
    kinds = [] if kinds is None else kinds
    while True:
        frame = json.loads(ws.receive_text())
        kinds.append(frame["type"] if frame["type"] != "error" else f"error:{frame['code']}")
        if frame["type"] == last:
            return kinds


def _flooded(clock: list[float], ws: Any, hello: str, answer: str) -> list[str]:
    """Six pings at once (one over the burst) and their replies, then (a second later)
    ``hello`` and the replies up to its ``answer``; then 200 pings more: the replies until
    the socket is closed, and its close code. Each step starts once the replies show the
    server handled the last one, so the rate clock moves between them only."""
    for _ in range(6):
        ws.send_text(PING)
    kinds = _kinds_until(ws, "error")  # the sixth's, the last
    clock[0] += 1.2  # one token comes back: the socket still works
    ws.send_text(hello)
    kinds += _kinds_until(ws, answer)
    for _ in range(200):
        ws.send_text(PING)
    with pytest.raises(WebSocketDisconnect) as closed:
        _kinds_until(ws, "none comes", kinds)
    kinds.append(f"closed:{closed.value.code}")
    return kinds


def test_a_flood_of_the_site_socket_is_answered_and_closed_as_a_table_sockets(
        strict: Strict) -> None:
    client, clock = strict.client, strict.clock
    table = create_table(client, ["open", "open"])
    with client.websocket_connect(f"/ws/{table['id']}") as ws:
        at_table = _flooded(clock, ws, '{"type": "hello", "token": null}', "snapshot")
    with client.websocket_connect("/ws/site") as ws, \
            client.websocket_connect("/ws/site") as other:
        at_site = _flooded(clock, ws, '{"type": "hello", "profile": null}', "turns")
        # another person's socket is served as before
        other.send_text('{"type": "hello", "profile": null, "tokens": []}')
        assert json.loads(other.receive_text()) == {"type": "turns", "turns": []}
    expected = (["pong"] * 5 + ["error:rate_limited"] + ["snapshot"]
                + ["error:rate_limited", "closed:1008"])
    assert at_table == expected
    assert at_site == [{"snapshot": "turns"}.get(k, k) for k in expected]


def test_the_site_socket_counts_size_in_bytes_and_refuses_bad_frames(
        strict: Strict) -> None:
    """Under 16 KiB of characters but over 16 KiB of UTF-8 is too large, as at a table; a
    binary frame is read as the same text; the socket answers afterwards."""
    client, clock = strict.client, strict.clock
    wide = '{"type": "ping", "pad": "' + "é" * 9000 + '"}'
    assert len(wide) < 16384 < len(wide.encode())
    cases: list[tuple[str | bytes, str]] = [
        (wide, "too_large"),
        (wide.encode(), "too_large"),
        (b"\xff\xfe not utf-8", "bad_json"),
        ("[" * 5000 + "]" * 5000, "bad_json"),
        ('{"type": "hello", "profile": "\\ud800"}', "bad_message"),
    ]
    with client.websocket_connect("/ws/site") as ws:
        for raw, code in cases:
            clock[0] += 1
            if isinstance(raw, bytes):
                ws.send_bytes(raw)
            else:
                ws.send_text(raw)
            frame = json.loads(ws.receive_text())
            assert frame["type"] == "error" and frame["code"] == code, (raw[:40], frame)
        clock[0] += 1
        ws.send_text(PING)
        assert json.loads(ws.receive_text()) == {"type": "pong"}
    table = create_table(client, ["open", "open"])
    with client.websocket_connect(f"/ws/{table['id']}") as ws:  # the table's the same
        clock[0] += 1
        ws.send_text(wide)
        assert json.loads(ws.receive_text())["code"] == "too_large"
