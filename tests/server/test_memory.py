"""Memory under hostile input (issue 14): after 10,000 bad requests a real ``chicago serve``
process holds at most a few MB more than before them (its resident set, read from /proc;
printed with ``-s``). Bad requests: create bodies out of range, of the wrong types, with
unknown keys, not JSON, too large (with and without Content-Length), creations beyond the
rate limit, unknown tables and games, bad paths, and websockets from other origins."""

from __future__ import annotations

import itertools
from pathlib import Path

import httpx
import pytest
from server_support import Server
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

REQUESTS = 10_000
WARM_UP = 2_000
ALLOWED_GROWTH = 4 * 1024 * 1024


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def _bad_requests(server: Server, client: httpx.Client, table: str, count: int) -> int:
    """Send ``count`` bad requests of every kind, in turn; how many answered < 500."""
    json_headers = {"content-type": "application/json"}
    bodies = [
        b'{"rules": {"target": 100000000000000000000000000000}}',
        b'{"rules": {"points": {"PAIR": 1e400}}}', b'{"rules": {"stake": NaN}}',
        b'{"rules": {"preset_name": "x"}}', b'{"colour": "red", "seats": ["open"]}',
        b'{"seats": ["open", "bot:genius"]}', b'{"variations": ["V-NOPE"]}', b"{nope",
        b"[" * 4000 + b"]" * 4000, b'{"name": "' + b"x" * 20000 + b'"}',
    ]
    kinds = itertools.cycle(range(len(bodies) + 6))
    ok = 0
    for _ in range(count):
        kind = next(kinds)
        if kind < len(bodies):
            response = client.post("/api/tables", content=bodies[kind], headers=json_headers)
        elif kind == len(bodies):  # too large, chunked, without Content-Length
            response = client.post("/api/tables", headers=json_headers,
                                   content=iter([b"x" * 12000, b"x" * 12000]))
        elif kind == len(bodies) + 1:  # beyond the rate limit (valid, but too many)
            response = client.post("/api/tables", json={"seats": ["open", "open"]})
        elif kind == len(bodies) + 2:
            response = client.get(f"/api/tables/{'z' * 30}")
        elif kind == len(bodies) + 3:
            response = client.get(f"/api/games/{table}/{2**40}")
        elif kind == len(bodies) + 4:
            response = client.get("/no/such/../../file")
        else:
            try:
                connect(f"{server.ws}/ws/{table}", origin="http://evil.example",  # type: ignore[arg-type]
                        open_timeout=10).close()
            except InvalidStatus:
                ok += 1
            continue
        ok += response.status_code < 500
    return ok


def test_ten_thousand_bad_requests_cost_no_memory(tmp_path: Path) -> None:
    server = Server(tmp_path / "memory.sqlite3")
    try:
        with httpx.Client(base_url=server.http, timeout=30) as client:
            table = client.post("/api/tables", json={"seats": ["open", "open"]}).json()["id"]
            assert _bad_requests(server, client, table, WARM_UP) == WARM_UP
            before = _rss(server.proc.pid)
            assert _bad_requests(server, client, table, REQUESTS) == REQUESTS
            after = _rss(server.proc.pid)
            listed = client.get("/api/tables")
            assert listed.status_code == 200
            assert table in [t["id"] for t in listed.json()["tables"]]
        growth = after - before
        print(f"\nRSS after {WARM_UP} bad requests {before / 2**20:.1f} MiB, after "
              f"{REQUESTS} more {after / 2**20:.1f} MiB: {growth / 2**20:+.2f} MiB")
        assert growth <= ALLOWED_GROWTH, f"RSS grew by {growth / 2**20:.1f} MiB"
    finally:
        server.kill()
