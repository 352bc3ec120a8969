"""A hostile client against the club layer (issue 23): each finding, one test against the
real app, asserting the reply and that nothing changed.

1. a revoked credential ends what it opened: the socket of a seat token closes at once when
   the profile claims the seat on another device, or signs out everywhere, and the old token
   neither says ``hello`` again nor authenticates a request (the two-worker version is in
   tests/scale/test_revocation_workers.py);
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from club_support import PROFILE, error_reply, make_profile
from server_support import WsPlayer, create_table
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chicago.server.storage import Store

pytestmark = pytest.mark.timeout(180)


def _store(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


def _closed(player: WsPlayer) -> tuple[int, str]:
    """Read until the server closes the socket: its close code and reason."""
    while True:
        try:
            player.ws.receive_text()
        except WebSocketDisconnect as exc:
            player.close()
            return exc.code, exc.reason


def _seated(client: TestClient, secret: str) -> tuple[str, str, WsPlayer]:
    """A table of a profile and a bot that waits for the profile (its turn first or the
    bot's: the bot moves at once); the profile's seat token and its open socket."""
    info = create_table(client, ["open", "bot:random"], bot_delay=5)
    joined = client.post(f"/api/tables/{info['id']}/join", json={"seat": 0},
                         headers={PROFILE: secret})
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]
    return info["id"], token, WsPlayer(client, info["id"], token)


def _log(client: TestClient, table_id: str) -> list[tuple[int, str]]:
    loaded = _store(client).load(table_id)
    assert loaded is not None
    return [(e.seq, e.kind) for e in loaded.entries]


def test_a_claim_closes_the_old_seat_tokens_socket_at_once(client: TestClient) -> None:
    """The profile takes its seat on another device: the first device's socket is closed
    (4409, in words), its token says hello no more, and nothing it sent is applied."""
    _, secret = make_profile(client, "Anna")
    table_id, old, first = _seated(client, secret)
    before = _log(client, table_id)
    claimed = client.post(f"/api/tables/{table_id}/claim", headers={PROFILE: secret})
    assert claimed.status_code == 200, claimed.text
    assert _closed(first) == (4409, "seat taken on another device")
    after = _log(client, table_id)
    assert after[:len(before)] == before and [k for _, k in after[len(before):]] == ["join"]

    again = WsPlayer(client, table_id, old, hello=False)
    again.send(type="hello", token=old, last_seq=None)
    assert again.recv()["code"] == "bad_token"
    again.send(type="chat", text="still here?")
    assert again.recv()["code"] == "hello_required"
    assert _log(client, table_id) == after
    new = WsPlayer(client, table_id, claimed.json()["token"])
    assert new.you == 0


def test_signing_out_everywhere_closes_every_socket_of_the_old_secret(
        client: TestClient) -> None:
    """``POST /api/profiles/me/rotate``: the sockets of seat tokens issued under the old
    secret close (4401), those tokens are refused by hello and by HTTP, the old secret signs
    in no more; the new secret takes the seat again."""
    _, secret = make_profile(client, "Anna")
    table_id, old, first = _seated(client, secret)
    second_id, other, second = _seated(client, secret)
    guest_table = create_table(client, ["open", "bot:random"], bot_delay=5)
    guest = client.post(f"/api/tables/{guest_table['id']}/join", json={"seat": 0}).json()
    guest_ws = WsPlayer(client, guest_table["id"], guest["token"])
    before = (_log(client, table_id), _log(client, second_id))

    rotated = client.post("/api/profiles/me/rotate", headers={PROFILE: secret})
    assert rotated.status_code == 200, rotated.text
    fresh = rotated.json()["secret"]
    assert _closed(first) == (4401, "signed out everywhere")
    assert _closed(second) == (4401, "signed out everywhere")
    guest_ws.send(type="ping")  # another person's socket is untouched
    guest_ws.until(lambda f: f["type"] == "pong")

    for table, token in ((table_id, old), (second_id, other)):
        again = WsPlayer(client, table, token, hello=False)
        again.send(type="hello", token=token, last_seq=None)
        reply = again.recv()
        assert reply["type"] == "error" and reply["code"] == "bad_token", reply
        hint = client.post(f"/api/web/hint/{table}", json={},
                           headers={"Authorization": f"Bearer {token}"})
        error_reply(hint, 401, "bad_token")
    error_reply(client.get("/api/profiles/me", headers={PROFILE: secret}), 401, "bad_profile")
    assert (_log(client, table_id), _log(client, second_id)) == before

    claimed = client.post(f"/api/tables/{table_id}/claim", headers={PROFILE: fresh})
    assert claimed.status_code == 200, claimed.text
    assert WsPlayer(client, table_id, claimed.json()["token"]).you == 0


def test_an_action_racing_the_claim_is_refused(client: TestClient) -> None:
    """The old socket's messages after the claim's entry are not applied: the manager
    refuses a request of a connection whose token no longer holds the seat."""
    from chicago.server.credentials import require_holder
    from chicago.server.protocol import TableError

    _, secret = make_profile(client, "Anna")
    table_id, _old, first = _seated(client, secret)
    manager: Any = client.app.state.manager  # type: ignore[attr-defined]
    table = manager.tables[table_id]
    (conn,) = list(table.conns)
    client.post(f"/api/tables/{table_id}/claim", headers={PROFILE: secret})
    _closed(first)
    with pytest.raises(TableError) as refused:
        require_holder(table, 0, conn)
    assert refused.value.code == "revoked" and refused.value.status == 401
    assert json.loads(json.dumps(table.info()))["seats"][0]["profile"] is not None
