"""A turn is not mailed to someone with a page of the site open on another worker (issue 26;
docs/SERVER.md, "Mail"): two ``chicago serve`` workers on one PostgreSQL and one Redis, with
mail to a real SMTP server the test starts (aiosmtpd). Anna's site socket is open on worker
A; her turn at a correspondence table comes on worker B, which hears from A that her page
is open: no mail, the page is told. Once she closed it (and B heard so), her next turn is
mailed. Before, B saw only its own sockets and mailed her."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from scale_fixtures import (  # noqa: F401 (fixtures)
    pg_url_fixture,
    redis_url_fixture,
    two_workers,
)
from scale_support import WAIT, Worker, create_table
from websockets.sync.client import ClientConnection, connect

from smtp_inbox import Inbox
from smtp_inbox import inbox as inbox

pytestmark = pytest.mark.timeout(240)

PROFILE = "X-Chicago-Profile"
PAGES_WAIT = 4 * WAIT
"""Seconds a worker gets to hear another's note (a bound for a hang, not a pace)."""


@pytest.fixture
def mailing_workers(pg_url: str, redis_url: str,
                    inbox: tuple[Inbox, int]) -> Iterator[tuple[Worker, Worker]]:
    """Two workers on one database and Redis that mail through the test's SMTP server."""
    with two_workers(pg_url, redis_url, "--smtp", f"smtp://127.0.0.1:{inbox[1]}",
                     "--public-origin", "https://chicago.example") as workers:
        yield workers


def _call(worker: Worker, method: str, path: str, body: Any = None, **headers: str) -> Any:
    response = httpx.request(method, worker.url + path, json=body, headers=headers,
                             timeout=WAIT)
    assert response.status_code in (200, 201), response.text
    return response.json()


def _pages(worker: Worker, count: int) -> None:
    """Wait until ``worker`` knows of ``count`` profiles with a page open (it heard the
    other worker's note on Redis).

    What a worker heard lives in its process, and it pushes nothing when it changes (the
    ``people`` frames of its site sockets follow another topic's notes, in no promised order
    with these), so its ``/api/health`` is the only observable: it is asked again after each
    answer, with a pause that only spares the machine's cores, until a deadline for a hang
    (:data:`PAGES_WAIT`), never for a number of looks."""
    deadline = time.monotonic() + PAGES_WAIT
    while (pages := _call(worker, "GET", "/api/health")["pages"]) != count:
        assert time.monotonic() < deadline, (
            f"{worker.url} still saw {pages} pages open, not {count}, after {PAGES_WAIT} s")
        time.sleep(0.02)  # spares the cores between two looks; the deadline is the bound


def _turns(site: ClientConnection) -> list[dict[str, Any]]:
    """The next ``turns`` frame's list (a signed-in page's ``invites`` and ``people``
    frames, of who is online and invitations, are skipped)."""
    while (frame := json.loads(site.recv(WAIT)))["type"] in ("invites", "people"):
        pass
    assert frame["type"] == "turns", frame
    turns: list[dict[str, Any]] = frame["turns"]
    return turns


def _anna_to_act(worker: Worker, secret: str, name: str) -> str:
    """A correspondence table on ``worker``: Anna (the profile) at seat 0, Bo at seat 1, who
    moves until it is Anna's turn; the table's id."""
    table = create_table(worker, ["open", "open"], clock_days=2, deal_pause=None,
                         name=name)["id"]
    _call(worker, "POST", f"/api/tables/{table}/join", {"seat": 0}, **{PROFILE: secret})
    bo = _call(worker, "POST", f"/api/tables/{table}/join", {"seat": 1})["token"]
    with connect(f"{worker.ws}/ws/{table}", open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": bo}))
        state: dict[str, Any] = {}
        while True:
            frame = json.loads(ws.recv(WAIT))
            if frame["type"] == "snapshot":
                state = {**frame["view"], "seq": frame["seq"]}
            elif frame["type"] == "update" and frame.get("state"):
                state = {**frame["state"], "seq": frame["seq"]}
            elif frame["type"] == "error":
                raise AssertionError(frame)
            else:
                continue
            if state["to_act"] == 0:
                return table
            ws.send(json.dumps({"type": "act", "action": state["legal_actions"][0],
                                "seq": state["seq"]}))


def test_a_page_open_on_another_worker_stops_the_turn_mail(
        mailing_workers: tuple[Worker, Worker], inbox: tuple[Inbox, int]) -> None:
    a, b = mailing_workers
    mails = inbox[0]
    secret = _call(a, "POST", "/api/profiles", {"name": "Anna"})["secret"]
    _call(a, "PUT", "/api/profiles/me/mail", {"address": "anna@example.org"},
          **{PROFILE: secret})
    to, mail = mails.next()
    assert to == ["anna@example.org"] and "Confirm your address" in mail["Subject"]
    payload = mail.get_payload(decode=True)
    assert isinstance(payload, bytes)
    token = re.search(r"#/confirm/([A-Za-z0-9_-]+)", payload.decode())
    assert token is not None
    _call(a, "POST", f"/api/mail/confirm?token={token.group(1)}")
    with connect(f"{a.ws}/ws/site", open_timeout=WAIT) as site:
        site.send(json.dumps({"type": "hello", "profile": secret, "tokens": []}))
        assert _turns(site) == []
        _pages(b, 1)  # B heard that Anna has a page open at A
        letters = _anna_to_act(b, secret, "Letters")
        while not _turns(site):
            pass  # the page is told, through A
    _pages(b, 0)  # and heard that she closed it
    _anna_to_act(b, secret, "Away")
    to, mail = mails.next()  # mails go out in the order they are queued
    assert to == ["anna@example.org"]
    assert mail["Subject"] == "Your turn at Away / Din tur vid Away", letters
