"""Revoked credentials end what they opened on every worker (issue 23; docs/SERVER.md,
"Credentials"): two ``chicago serve`` workers on one PostgreSQL and one Redis. A profile's
seat socket is open on worker B; the profile claims its seat, then signs out everywhere,
through worker A. B closes the old socket at once each time (4409, then 4401), the old
tokens are refused by ``hello`` on both workers, and nothing the old socket sent is
stored."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from scale_fixtures import (  # noqa: F401 (fixtures)
    pg_url_fixture,
    redis_url_fixture,
    workers_fixture,
)
from scale_support import WAIT, Worker, create_table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from chicago.server.storage import Store

pytestmark = pytest.mark.timeout(240)

PROFILE = "X-Chicago-Profile"


def _post(worker: Worker, path: str, body: Any = None, **headers: str) -> Any:
    response = httpx.post(worker.url + path, json=body, headers=headers, timeout=WAIT)
    assert response.status_code in (200, 201), response.text
    return response.json()


async def _hello(worker: Worker, table_id: str, token: str) -> tuple[ClientConnection,
                                                                       dict[str, Any]]:
    ws = await connect(f"{worker.ws}/ws/{table_id}", open_timeout=WAIT)
    await ws.send(json.dumps({"type": "hello", "token": token, "last_seq": None}))
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if frame["type"] in ("snapshot", "resumed", "error"):
            return ws, frame


async def _closed(ws: ClientConnection) -> tuple[int, str]:
    """Read until the server closes the socket: its close code and reason."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), WAIT)
    except ConnectionClosed as exc:
        assert exc.rcvd is not None, "closed without a close frame"
        return exc.rcvd.code, exc.rcvd.reason


def _log(pg_url: str, table_id: str) -> list[tuple[int, str]]:
    store = Store(pg_url)
    try:
        loaded = store.load(table_id)
        assert loaded is not None
        return [(e.seq, e.kind) for e in loaded.entries]
    finally:
        store.close()


def _seat(worker: Worker, secret: str) -> tuple[str, str]:
    table = create_table(worker, ["open", "bot:random"], bot_delay=5)
    joined = _post(worker, f"/api/tables/{table['id']}/join", {"seat": 0},
                   **{PROFILE: secret})
    return table["id"], joined["token"]


def test_a_claim_and_a_rotation_on_one_worker_close_the_old_socket_on_the_other(
        workers: tuple[Worker, Worker], pg_url: str) -> None:
    a, b = workers
    secret = _post(a, "/api/profiles", {"name": "Anna"})["secret"]
    first_table, first_token = _seat(a, secret)
    second_table, second_token = _seat(a, secret)

    async def scenario() -> None:
        old, hello = await _hello(b, first_table, first_token)
        assert hello["type"] == "snapshot" and hello["you"] == 0
        before = _log(pg_url, first_table)
        _post(a, f"/api/tables/{first_table}/claim", **{PROFILE: secret})
        assert await _closed(old) == (4409, "seat taken on another device")
        after = _log(pg_url, first_table)
        assert after[:len(before)] == before
        assert [kind for _, kind in after[len(before):]] == ["join"]
        for worker in (a, b):
            again, refused = await _hello(worker, first_table, first_token)
            assert refused["type"] == "error" and refused["code"] == "bad_token", refused
            await again.close()

        other, hello = await _hello(b, second_table, second_token)
        assert hello["type"] == "snapshot"
        before = _log(pg_url, second_table)
        fresh = _post(a, "/api/profiles/me/rotate", **{PROFILE: secret})["secret"]
        assert await _closed(other) == (4401, "signed out everywhere")
        for worker in (a, b):
            again, refused = await _hello(worker, second_table, second_token)
            assert refused["type"] == "error" and refused["code"] == "bad_token", refused
            await again.close()
        assert _log(pg_url, second_table) == before
        token = _post(b, f"/api/tables/{second_table}/claim", **{PROFILE: fresh})["token"]
        back, hello = await _hello(a, second_table, token)
        assert hello["type"] == "snapshot" and hello["you"] == 0
        await back.close()

    asyncio.run(scenario())
