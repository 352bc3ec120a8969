"""DNS rebinding: a server on the loopback answers only the hosts it is meant for.

A page of ``http://evil.example`` whose name is pointed at 127.0.0.1 after it loaded sends
the server ``Host: evil.example`` (and ``Origin: http://evil.example``, which then looks like
the server's own). With ``Settings.allowed_hosts`` set, as ``chicago serve`` on a loopback
address sets it, such a request (HTTP or a websocket handshake) gets 400 ``bad_host`` with a
message naming ``--allow-host``, changes nothing, and is logged once per name
(docs/SERVER.md, "Hosts")."""

from __future__ import annotations

import dataclasses
import json
import logging
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_support import Server, close_all, create_table
from starlette.testclient import TestClient, WebSocketDenialResponse
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from chicago.server import Settings, create_app
from chicago.server.hosts import AllowedHosts, host_name, host_pattern, is_loopback_address

pytestmark = pytest.mark.timeout(120)

EVIL = "evil.example:8000"


@pytest.mark.parametrize(("header", "allowed"), [
    ("127.0.0.1:8000", True), ("[::1]:8000", True), ("192.0.2.7", True),
    ("localhost:8000", True), ("LocalHost", True), ("table.localhost:8000", True),
    ("chicago.example.org", True), ("Chicago.Example.org.:443", True),
    ("club.example", True), ("a.b.club.example:8000", True),
    ("evil.example:8000", False), ("chicago.example.org.evil.example", False),
    ("xclub.example", False), ("localhost.evil.example", False), ("127.0.0.1.nip.io", False),
    ("", False), ("a b", False), ("evil.example:80x", False), ("[::1", False),
    ("[::1]x", False), ("user@chicago.example.org", False), ("a" * 300, False),
])
def test_allowed_hosts_are_addresses_localhost_and_the_named_ones(header: str,
                                                                  allowed: bool) -> None:
    hosts = AllowedHosts(["chicago.example.org", ".club.example"])
    assert hosts.allows(header) is allowed, header


def test_a_star_allows_any_host_and_no_host_header_is_no_browser() -> None:
    assert AllowedHosts(["*"]).allows("evil.example")
    assert AllowedHosts([]).allows(None)
    assert not AllowedHosts([]).allows("evil.example")


@pytest.mark.parametrize("value", ["https://chicago.example.org", "chicago.example.org:8000",
                                   "a b", "", "..", "exa_mple.org", "/x"])
def test_a_bad_allow_host_value_is_refused_naming_the_forms(value: str) -> None:
    with pytest.raises(ValueError, match=r"not a host name such as chicago\.example\.org"):
        host_pattern(value)


def test_host_names_and_loopback_addresses() -> None:
    assert host_name("[2001:DB8::1]:8000") == "2001:db8::1"
    assert host_name("::1") == "::1"
    assert [is_loopback_address(a) for a in ("127.0.0.2", "[::1]", "0.0.0.0", "::",
                                             "192.0.2.1", "chicago.example.org")] == [
        True, True, False, False, False, False]


@pytest.fixture
def guarded(settings: Settings) -> Iterator[TestClient]:
    """An app that answers only ``testserver`` (the test client's own name) and the
    addresses, as a server on the loopback does."""
    app = create_app(dataclasses.replace(settings, allowed_hosts=["testserver"]))
    with TestClient(app) as client:
        try:
            yield client
        finally:
            close_all()


def _tables(client: TestClient) -> list[str]:
    answer = client.get("/api/tables")
    assert answer.status_code == 200
    return [t["id"] for t in answer.json()["tables"]]


def test_a_request_for_another_host_gets_400_and_changes_nothing(
        guarded: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    table = create_table(guarded, ["open", "open"])["id"]
    before = _tables(guarded)
    with caplog.at_level(logging.WARNING, logger="chicago.server"):
        for method, path, body in (("GET", "/api/tables", None), ("GET", "/", None),
                                   ("POST", "/api/tables", {"seats": ["open", "open"]}),
                                   ("POST", f"/api/tables/{table}/join", {"seat": 0})):
            answer = guarded.request(method, path, json=body, headers={"host": EVIL})
            assert answer.status_code == 400, (method, path)
            error = answer.json()["error"]
            assert error["code"] == "bad_host"
            assert "'evil.example'" in error["message"]
            assert "--allow-host evil.example" in error["message"]
            assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert _tables(guarded) == before
    info = guarded.get(f"/api/tables/{table}").json()
    assert all(seat["kind"] == "open" for seat in info["seats"])  # nobody joined
    refused = [r for r in caplog.records if "--allow-host evil.example" in r.getMessage()]
    assert len(refused) == 1  # once per name, not once per request
    for header in ("127.0.0.1:8000", "localhost:8000", "testserver"):
        assert guarded.get("/api/tables", headers={"host": header}).status_code == 200
    garbled = guarded.get("/api/tables", headers={"host": "a b"})
    assert garbled.status_code == 400
    assert "Host header is not a host name" in garbled.json()["error"]["message"]
    # a second Host header (no browser sends one) does not smuggle a name past the check
    twice = httpx.Headers([("host", "testserver"), ("host", EVIL)])
    assert guarded.get("/api/tables", headers=twice).status_code == 400


def test_a_websocket_handshake_for_another_host_is_refused(guarded: TestClient) -> None:
    """The rebound page's origin agrees with its Host, so the origin check alone would
    let it in: the host check refuses the handshake first."""
    table = create_table(guarded, ["open", "open"])["id"]
    with pytest.raises(WebSocketDenialResponse) as denied, guarded.websocket_connect(
            f"/ws/{table}", headers={"host": EVIL, "origin": f"http://{EVIL}"}):
        pass
    assert denied.value.status_code == 400
    assert denied.value.json()["error"]["code"] == "bad_host"
    with guarded.websocket_connect(f"/ws/{table}",
                                   headers={"origin": "http://testserver"}) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "snapshot"


def test_without_allowed_hosts_any_host_is_answered(client: TestClient) -> None:
    """``Settings.allowed_hosts`` None (the library's default, and ``chicago serve`` on a
    network address without ``--allow-host``): the check is off."""
    assert client.get("/api/tables", headers={"host": EVIL}).status_code == 200


@pytest.fixture(scope="module")
def loopback(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``chicago serve`` on 127.0.0.1 (its default), admitting one name and the host
    of another front end."""
    running = Server(tmp_path_factory.mktemp("hosts") / "hosts.sqlite3",
                     "--allow-host", "chicago.example.org",
                     "--allow-origin", "https://front.example")
    try:
        yield running
    finally:
        running.kill()


def test_chicago_serve_on_the_loopback_answers_only_its_hosts(loopback: Server) -> None:
    """`make run`'s server: the addresses, localhost, --allow-host and the hosts of
    --allow-origin are answered; a rebound name is not, over HTTP or a websocket."""
    for header in ("127.0.0.1", "localhost:8000", "chicago.example.org", "front.example"):
        answer = httpx.get(f"{loopback.http}/api/info", headers={"host": header})
        assert answer.status_code == 200, header
    answer = httpx.get(f"{loopback.http}/api/info", headers={"host": EVIL})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_host"
    table = loopback.post("/api/tables", {"seats": ["open", "open"]})["id"]
    with pytest.raises(InvalidStatus) as refused:
        address = loopback.http.removeprefix("http://").rpartition(":")
        sock = socket.create_connection((address[0], int(address[2])), timeout=10)
        connect(f"ws://{EVIL}/ws/{table}", sock=sock, open_timeout=10)
    assert refused.value.response.status_code == 400
    assert json.loads(refused.value.response.body or b"{}")["error"]["code"] == "bad_host"
    assert any("--allow-host evil.example" in line for line in loopback.output)


def _serve(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chicago.cli", "serve", *options],
                          capture_output=True, text=True, timeout=60)


def test_a_bad_allow_host_stops_chicago_serve_before_it_listens(tmp_path: Path) -> None:
    done = _serve("--port", "0", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}",
                  "--allow-host", "https://chicago.example.org")
    assert done.returncode == 2
    assert "chicago serve: --allow-host: 'https://chicago.example.org' is not a host name" \
        in done.stderr
    assert not (tmp_path / "x.sqlite3").exists()


def test_settings_of_chicago_serve() -> None:
    """On a network address the check is off unless --allow-host names hosts."""
    from chicago.commands.serve import _allowed_hosts

    origins = ["http://[::1]:8000", "https://chicago.example.org", "http://192.0.2.1"]
    assert _allowed_hosts("127.0.0.1", [], origins) == ["chicago.example.org"]
    assert _allowed_hosts("::1", [".Club.example"], []) == [".club.example"]
    assert _allowed_hosts("0.0.0.0", [], origins) is None
    assert _allowed_hosts("0.0.0.0", ["*"], []) == ["*"]
    assert _allowed_hosts("192.0.2.1", ["chicago.lan"], origins) == [
        "chicago.lan", "chicago.example.org"]

