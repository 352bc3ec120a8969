"""Who is online and invitations across workers (issue 26; docs/SERVER.md, "People"): two
``chicago serve`` workers on one PostgreSQL and one Redis. Bo's page is open on worker B and
he chose (through B) to be shown online; Anna, whose page is on worker A, sees him online
through A, invites him through A to her table, and his page on B gets the invitation; he
declines through A and her page on A hears it."""

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

pytestmark = pytest.mark.timeout(240)

PROFILE = "X-Chicago-Profile"


def _call(worker: Worker, method: str, path: str, body: Any = None, **headers: str) -> Any:
    response = httpx.request(method, worker.url + path, json=body, headers=headers,
                             timeout=WAIT)
    assert response.status_code in (200, 201), response.text
    return response.json()


async def _page(worker: Worker, secret: str) -> ClientConnection:
    ws = await connect(f"{worker.ws}/ws/site", open_timeout=WAIT)
    await ws.send(json.dumps({"type": "hello", "profile": secret, "tokens": []}))
    await _until(ws, "invites")
    return ws


async def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if frame["type"] == kind:
            return frame


def test_online_and_invitations_travel_between_workers(
        workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    anna = _call(a, "POST", "/api/profiles", {"name": "Anna"})
    bo = _call(b, "POST", "/api/profiles", {"name": "Bo"})
    bo_id = bo["profile"]["id"]
    table = create_table(a, ["open", "open", "bot:random"], bot_delay=5)
    _call(a, "POST", f"/api/tables/{table['id']}/join", {"seat": 0},
          **{PROFILE: anna["secret"]})
    _call(a, "POST", "/api/profiles/me/follows", {"profile": bo_id},
          **{PROFILE: anna["secret"]})

    async def run() -> None:
        anna_page = await _page(a, anna["secret"])
        bo_page = await _page(b, bo["secret"])
        _call(b, "PUT", "/api/profiles/me/online", {"show": True}, **{PROFILE: bo["secret"]})
        while True:  # each people frame: ask again, until worker A knows B's word
            await _until(anna_page, "people")
            listed = _call(a, "GET", "/api/people", **{PROFILE: anna["secret"]})
            if [p["profile"] for p in listed["online"]] == [bo_id]:
                break
        assert listed["following"][0]["online"] is True
        invite = _call(a, "POST", f"/api/tables/{table['id']}/invite", {"profile": bo_id},
                       **{PROFILE: anna["secret"]})["invite"]
        frame = await _until(bo_page, "invites")
        assert [i["id"] for i in frame["invites"]] == [invite["id"]]
        _call(a, "POST", f"/api/invites/{invite['id']}/decline", **{PROFILE: bo["secret"]})
        while not (frame := await _until(anna_page, "invites"))["ended"]:
            pass
        assert frame["ended"] == [{"id": invite["id"], "outcome": "declined"}]
        await anna_page.close()
        await bo_page.close()

    asyncio.run(run())
