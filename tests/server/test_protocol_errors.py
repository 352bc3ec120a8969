"""Protocol errors against a real ``chicago serve`` (issue 23, findings 7 and 8):

- 300 websocket text frames that are not UTF-8 (each closed with 1007, as before) add a few
  lines to the server's log, without a traceback (before: an ERROR with a traceback each,
  150,900 bytes for 300 frames);
- a request uvicorn's own parser refuses (a method such as ``BREW``, a broken request line,
  a websocket handshake it cannot read) is answered 400 with the five safe headers every
  answer of the app carries (before: a plain 400 without them).
"""

from __future__ import annotations

import base64
import os
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import Server

from chicago.server.headers import SAFE_HEADERS
from chicago.server.transport import LOG_BURST, ProtocolErrorLog

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("protocol") / "protocol.sqlite3")
    try:
        yield running
    finally:
        running.kill()


def _address(server: Server) -> tuple[str, int]:
    host, port = server.http.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def _exchange(server: Server, raw: bytes) -> bytes:
    """Send ``raw`` on a new connection; everything the server answers until it closes."""
    with socket.create_connection(_address(server), timeout=10) as sock:
        sock.sendall(raw)
        answer = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return answer
            answer += chunk


def _masked_text_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


def _bad_frame(server: Server, table: str, source: str | None = None) -> int:
    """Open a websocket (from the loopback address ``source``, if given), send a text
    frame that is not UTF-8: the close code received."""
    host, port = _address(server)
    key = base64.b64encode(os.urandom(16)).decode()
    bind = (source, 0) if source is not None else None
    with socket.create_connection((host, port), timeout=10, source_address=bind) as sock:
        sock.sendall(f"GET /ws/{table} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                     f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                     .encode())
        handshake = b""
        while b"\r\n\r\n" not in handshake:
            handshake += sock.recv(4096)
        assert handshake.startswith(b"HTTP/1.1 101"), handshake
        rest = handshake.split(b"\r\n\r\n", 1)[1]
        sock.sendall(_masked_text_frame(b'{"type": "ping", "x": "\xff"}'))
        while len(rest) < 4:
            chunk = sock.recv(4096)
            if not chunk:
                break
            rest += chunk
    assert rest[0] == 0x88, rest  # a close frame
    code: int = struct.unpack(">H", rest[2:4])[0]
    return code


MARKS = iter(range(2, 250))
"""The last byte of the loopback addresses (127.0.0.N) that mark the log."""


def _mark(server: Server, table: str) -> int:
    """Mark the log once the server has written all it was made to write so far: a frame
    that is not UTF-8 from a loopback address of its own (so its line budget is full and
    its line is always written) is logged after every earlier line; the index of that line
    in the output."""
    source = f"127.0.0.{next(MARKS)}"
    assert _bad_frame(server, table, source) == 1007
    return server.printed(f"protocol error from {source}:")


def test_300_bad_frames_add_a_few_lines_without_a_traceback(server: Server) -> None:
    table = server.post("/api/tables", {"seats": ["open", "open"]})["id"]
    before = _mark(server, table)
    codes = {_bad_frame(server, table) for _ in range(300)}
    assert codes == {1007}
    after = _mark(server, table)
    grown = sum(len(line.encode()) for line in server.output[before + 1:after])
    added = "".join(server.output)
    assert "Traceback" not in added and "UnicodeDecodeError" not in added
    lines = [line for line in server.output if "protocol error from 127.0.0.1" in line]
    assert 1 <= len(lines) <= LOG_BURST + 1, lines
    assert all("not UTF-8" in line and "127.0.0.1" in line for line in lines)
    assert grown < 1000, grown  # before: 150,900 bytes


def _headers(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    return {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head[1:])}


@pytest.mark.parametrize("raw", [
    b"BREW /pot HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Line\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http at all\r\n\r\n",
])
def test_a_request_the_parser_refuses_gets_the_safe_headers(server: Server,
                                                             raw: bytes) -> None:
    answer = _exchange(server, raw)
    assert answer.startswith(b"HTTP/1.1 400"), answer
    headers = _headers(answer)
    for name, value in SAFE_HEADERS:
        assert headers.get(name.decode()) == value.decode(), (name, answer)


def test_a_handshake_websockets_cannot_read_gets_the_safe_headers(server: Server) -> None:
    host, port = _address(server)
    answer = _exchange(server, f"GET /ws/x HTTP/1.1\r\nHost: {host}:{port}\r\n"
                       "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                       "Sec-WebSocket-Version: 13\r\n\r\n".encode())  # no key
    assert answer.startswith(b"HTTP/1.1 400"), answer
    headers = _headers(answer)
    for name, value in SAFE_HEADERS:
        assert headers.get(name.decode()) == value.decode(), (name, answer)


def test_the_error_log_budget_per_address(caplog: pytest.LogCaptureFixture,
                                          tmp_path: Path) -> None:
    """LOG_BURST lines at once per address, then one a minute, saying how many it left out;
    other addresses have their own budget."""
    errors = ProtocolErrorLog(burst=2, every=60.0)
    caplog.set_level("WARNING", logger="chicago.server")
    written = [errors.report("192.0.2.1", "bad frame", at=0.0) for _ in range(5)]
    assert written == [True, True, False, False, False]
    assert errors.report("192.0.2.2", "bad frame", at=0.0)
    assert not errors.report("192.0.2.1", "bad frame", at=30.0)
    assert errors.report("192.0.2.1", "bad frame", at=61.0)
    assert caplog.messages[-1] == ("protocol error from 192.0.2.1: bad frame "
                                   "(4 more from this address not logged)")
    assert len(caplog.messages) == 4
