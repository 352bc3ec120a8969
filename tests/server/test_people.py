"""Who is online, follows and invitations (issue 26, docs/SERVER.md "People"), with the
hostile requests of each new surface: who may call it, strict types, the caps per client,
per profile and per site, what it reveals and when (an opted-out profile is never shown
online; a private table is never named but to its invitee), and that signing out
everywhere ends the invitations it made. The grace after a page closed runs on the
server's clock, moved forward here (never slept on)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from server_support import WsPlayer, create_table, play_out
from starlette.testclient import TestClient

from chicago.server.clock import ShiftedClock
from chicago.server.together import people as people_module
from chicago.server.together.online import GRACE

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def client(clocked_client: TestClient) -> TestClient:
    return clocked_client


def profile(client: TestClient, name: str) -> tuple[str, str]:
    """A new profile: (id, secret)."""
    response = client.post("/api/profiles", json={"name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["profile"]["id"], body["secret"]


def auth(secret: str) -> dict[str, str]:
    return {"X-Chicago-Profile": secret}


def show(client: TestClient, secret: str, on: bool = True) -> None:
    response = client.put("/api/profiles/me/online", json={"show": on}, headers=auth(secret))
    assert response.status_code == 200 and response.json() == {"show": on}, response.text


def people(client: TestClient, secret: str | None = None) -> dict[str, Any]:
    response = client.get("/api/people", headers=auth(secret) if secret else {})
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def follow(client: TestClient, secret: str, who: str, on: bool = True) -> Any:
    return client.post("/api/profiles/me/follows", json={"profile": who, "follow": on},
                       headers=auth(secret))


@contextmanager
def page(client: TestClient, secret: str | None) -> Iterator[Any]:
    """An open page: a site socket that said hello (its first frames read)."""
    with client.websocket_connect("/ws/site") as site:
        site.send_text(json.dumps({"type": "hello", "profile": secret, "tokens": []}))
        until(site, "turns")
        if secret is not None:
            until(site, "invites")
        yield site


def until(site: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        frame: dict[str, Any] = json.loads(site.receive_text())
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def seated(client: TestClient, secret: str, **options: Any) -> tuple[str, str]:
    """A table with two open seats and a bot, the profile at seat 0: (table id, token)."""
    info = create_table(client, ["open", "open", "bot:basic"], name="Kvällsbordet", **options)
    response = client.post(f"/api/tables/{info['id']}/join", json={"seat": 0},
                           headers=auth(secret))
    assert response.status_code == 200, response.text
    return info["id"], response.json()["token"]


# ---------------------------------------------------------------------- who is online
def test_only_a_profile_that_opted_in_is_shown_online_and_at_its_public_table(
        client: TestClient) -> None:
    anna, anna_secret = profile(client, "Anna")
    bo, bo_secret = profile(client, "Bo")
    assert client.get("/api/profiles/me/online", headers=auth(bo_secret)).json() == {
        "show": False}  # off until the profile says so
    with page(client, anna_secret) as anna_page, page(client, bo_secret):
        assert people(client)["online"] == []  # Bo is online but did not opt in
        show(client, bo_secret)
        until(anna_page, "people")
        listed = people(client)["online"]
        assert listed == [{"profile": bo, "name": "Bo", "online": True, "table": None}]
        table_id, token = seated(client, bo_secret)
        player = WsPlayer(client, table_id, token)
        until(anna_page, "people")
        assert people(client)["online"][0]["table"] == {"id": table_id, "name": "Kvällsbordet"}
        player.close()
        show(client, bo_secret, False)
        until(anna_page, "people")
        assert people(client)["online"] == []
    assert anna not in {p["profile"] for p in people(client)["online"]}


def test_a_private_table_is_never_named_not_even_to_followers(client: TestClient) -> None:
    _anna, anna_secret = profile(client, "Anna")
    bo, bo_secret = profile(client, "Bo")
    show(client, bo_secret)
    assert follow(client, anna_secret, bo).status_code == 200
    table_id, token = seated(client, bo_secret, private=True)
    with page(client, anna_secret) as anna_page:
        player = WsPlayer(client, table_id, token)
        until(anna_page, "people")
        for secret in (None, anna_secret):
            body = people(client, secret)
            assert table_id not in json.dumps(body) and "Kvällsbordet" not in json.dumps(body)
        assert people(client, anna_secret)["following"] == [
            {"profile": bo, "name": "Bo", "online": True, "table": None}]
        player.close()


def test_offline_after_the_grace_on_the_server_clock(client: TestClient,
                                                     clock: ShiftedClock) -> None:
    _anna, anna_secret = profile(client, "Anna")
    bo, bo_secret = profile(client, "Bo")
    show(client, bo_secret)
    with page(client, anna_secret) as anna_page:
        with page(client, bo_secret):
            until(anna_page, "people")
        assert [p["profile"] for p in people(client)["online"]] == [bo]  # a reload's grace
        with page(client, bo_secret):  # he came back within it: still one online
            assert [p["profile"] for p in people(client)["online"]] == [bo]
        clock.advance(GRACE - 1)
        assert [p["profile"] for p in people(client)["online"]] == [bo]
        clock.advance(2)
        until(anna_page, "people")
        assert people(client)["online"] == []


# ---------------------------------------------------------------------- follows
def test_follows_are_stored_capped_and_checked(client: TestClient,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    anna, anna_secret = profile(client, "Anna")
    bo, _ = profile(client, "Bo")
    cy, _ = profile(client, "Cy")
    assert follow(client, anna_secret, bo).json() == {"profile": bo, "following": True}
    assert follow(client, anna_secret, bo).status_code == 200  # twice: one follow
    following = people(client, anna_secret)["following"]
    assert following == [{"profile": bo, "name": "Bo", "online": False, "table": None}]
    refused = follow(client, anna_secret, anna)
    assert refused.status_code == 400 and "itself" in refused.json()["error"]["message"]
    unknown = follow(client, anna_secret, "nobody")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_profile"
    monkeypatch.setattr(people_module, "MAX_FOLLOWS", 1)
    capped = follow(client, anna_secret, cy)
    assert capped.status_code == 409 and capped.json()["error"]["code"] == "follow_limited"
    assert [p["profile"] for p in people(client, anna_secret)["following"]] == [bo]
    assert follow(client, anna_secret, bo, False).status_code == 200
    assert people(client, anna_secret)["following"] == []


@pytest.mark.parametrize("body", [
    {}, {"profile": 5}, {"profile": "a b"}, {"profile": "x" * 33}, {"profile": "bo", "follow": 1},
    {"profile": "bo", "follow": "yes"}, {"profile": "bo", "extra": True}, [], "bo",
])
def test_a_follow_request_of_the_wrong_shape_is_refused(client: TestClient,
                                                        body: Any) -> None:
    _anna, anna_secret = profile(client, "Anna")
    response = client.post("/api/profiles/me/follows", json=body, headers=auth(anna_secret))
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"
    assert people(client, anna_secret)["following"] == []


@pytest.mark.parametrize(("method", "path", "body"), [
    ("get", "/api/profiles/me/online", None), ("put", "/api/profiles/me/online", {"show": True}),
    ("post", "/api/profiles/me/follows", {"profile": "abc"}), ("get", "/api/invites", None),
    ("post", "/api/tables/abc/invite", {"profile": "abc"}),
    ("post", "/api/invites/abc/accept", None), ("post", "/api/invites/abc/decline", None),
    ("post", "/api/invites/abc/withdraw", None),
])
@pytest.mark.parametrize("secret", [None, "not a secret", "x" * 40])
def test_who_may_call_a_profiles_people_routes(client: TestClient, method: str, path: str,
                                               body: Any, secret: str | None) -> None:
    headers = auth(secret) if secret is not None else {}
    response = client.request(method.upper(), path, json=body, headers=headers)
    assert response.status_code == 401 and response.json()["error"]["code"] == "bad_profile"


def test_a_strict_online_choice(client: TestClient) -> None:
    _bo, bo_secret = profile(client, "Bo")
    for body in ({"show": 1}, {"show": "true"}, {}, {"show": True, "who": "x"}):
        response = client.put("/api/profiles/me/online", json=body, headers=auth(bo_secret))
        assert response.status_code == 400, body
    assert client.get("/api/profiles/me/online", headers=auth(bo_secret)).json() == {
        "show": False}


# ---------------------------------------------------------------------- invitations
def invited(client: TestClient) -> tuple[str, str, str, str]:
    """Anna, seated at a table with an open seat, follows Bo and invites him: her secret,
    his, the table's id and the invitation's."""
    _anna, anna_secret = profile(client, "Anna")
    bo, bo_secret = profile(client, "Bo")
    table_id, _ = seated(client, anna_secret)
    assert follow(client, anna_secret, bo).status_code == 200
    response = client.post(f"/api/tables/{table_id}/invite", json={"profile": bo},
                           headers=auth(anna_secret))
    assert response.status_code == 201, response.text
    invite_id: str = response.json()["invite"]["id"]
    return anna_secret, bo_secret, table_id, invite_id


def test_an_invitation_reaches_the_invitees_pages_and_accept_leads_to_the_seat(
        client: TestClient) -> None:
    _anna, anna_secret = profile(client, "Anna")
    bo, bo_secret = profile(client, "Bo")
    table_id, _token = seated(client, anna_secret, private=True)
    assert follow(client, anna_secret, bo).status_code == 200
    with page(client, bo_secret) as bo_page, page(client, anna_secret) as anna_page:
        response = client.post(f"/api/tables/{table_id}/invite", json={"profile": bo},
                               headers=auth(anna_secret))
        assert response.status_code == 201, response.text
        invite = response.json()["invite"]
        frame = until(bo_page, "invites")
        assert [i["id"] for i in frame["invites"]] == [invite["id"]]
        assert frame["invites"][0]["table"] == table_id  # the invitee may know it
        assert frame["invites"][0]["by"]["name"] == "Anna"
        assert [i["id"] for i in until(anna_page, "invites")["sent"]] == [invite["id"]]
        again = client.post(f"/api/tables/{table_id}/invite", json={"profile": bo},
                            headers=auth(anna_secret))
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_invited"
        accepted = client.post(f"/api/invites/{invite['id']}/accept", headers=auth(bo_secret))
        assert accepted.json() == {"id": invite["id"], "table": table_id}
        frame = until(bo_page, "invites")
        assert frame["invites"] == [] and frame["ended"] == [{"id": invite["id"],
                                                               "outcome": "accepted"}]
        joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1},
                             headers=auth(bo_secret))
        assert joined.status_code == 200
        ended = client.post(f"/api/invites/{invite['id']}/decline", headers=auth(bo_secret))
        assert ended.status_code == 409 and ended.json()["error"]["code"] == "invite_ended"


def test_decline_withdraw_and_who_may_answer(client: TestClient) -> None:
    anna, anna_secret = profile(client, "Anna")
    bo, bo_secret = profile(client, "Bo")
    _cy, cy_secret = profile(client, "Cy")
    table_id, _ = seated(client, anna_secret)
    follow(client, anna_secret, bo)
    first = client.post(f"/api/tables/{table_id}/invite", json={"profile": bo},
                        headers=auth(anna_secret)).json()["invite"]["id"]
    for secret, answer in ((cy_secret, "decline"), (cy_secret, "accept"),
                           (anna_secret, "decline"), (bo_secret, "withdraw")):
        response = client.post(f"/api/invites/{first}/{answer}", headers=auth(secret))
        assert response.status_code == 404, (secret, answer)  # not theirs: not even named
        assert response.json()["error"]["code"] == "unknown_invite"
    with page(client, anna_secret) as anna_page:
        assert client.post(f"/api/invites/{first}/decline", headers=auth(bo_secret)).json() \
            == {"id": first}
        assert until(anna_page, "invites")["ended"] == [{"id": first, "outcome": "declined"}]
    second = client.post(f"/api/tables/{table_id}/invite", json={"profile": bo},
                         headers=auth(anna_secret)).json()["invite"]["id"]
    assert client.post(f"/api/invites/{second}/withdraw",
                       headers=auth(anna_secret)).status_code == 200
    assert client.get("/api/invites", headers=auth(bo_secret)).json() == {"invites": [],
                                                                         "sent": []}
    assert anna != bo


def test_who_may_invite_whom(client: TestClient) -> None:
    _anna, anna_secret = profile(client, "Anna")
    bo, bo_secret = profile(client, "Bo")
    cy, _ = profile(client, "Cy")
    table_id, _ = seated(client, anna_secret)

    def invite(secret: str, who: str, table: str = table_id) -> tuple[int, str]:
        response = client.post(f"/api/tables/{table}/invite", json={"profile": who},
                               headers=auth(secret))
        return response.status_code, response.json().get("error", {}).get("code", "")

    assert invite(bo_secret, cy) == (403, "not_seated")  # Bo does not sit there
    assert invite(anna_secret, cy) == (403, "not_invitable")  # not followed, not shown
    with page(client, bo_secret):
        assert invite(anna_secret, bo) == (403, "not_invitable")  # online, not shown
        show(client, bo_secret)
        assert invite(anna_secret, bo)[0] == 201  # online and shown: may be invited
    assert invite(anna_secret, "nobody") == (404, "unknown_profile")
    assert invite(anna_secret, "nosuchtable", "nosuchtable") == (404, "unknown_table")
    for body in ({}, {"profile": 3}, {"profile": cy, "seat": 1}, {"profile": "../x"}):
        response = client.post(f"/api/tables/{table_id}/invite", json=body,
                               headers=auth(anna_secret))
        assert response.status_code == 400, body


def test_the_caps_on_invitations(client: TestClient,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _anna, anna_secret = profile(client, "Anna")
    friends = [profile(client, f"Vän {i}")[0] for i in range(4)]
    table_id, _ = seated(client, anna_secret)
    for friend in friends:
        follow(client, anna_secret, friend)
    monkeypatch.setattr(people_module, "OPEN_INVITES", 2)
    codes = [client.post(f"/api/tables/{table_id}/invite", json={"profile": f},
                         headers=auth(anna_secret)).status_code for f in friends[:3]]
    assert codes == [201, 201, 429]
    monkeypatch.setattr(people_module, "OPEN_INVITES", 10)
    monkeypatch.setattr(people_module, "SITE_INVITES_PER_HOUR", 2)
    refused = client.post(f"/api/tables/{table_id}/invite", json={"profile": friends[3]},
                          headers=auth(anna_secret))
    assert refused.status_code == 429 and "site" in refused.json()["error"]["message"]
    assert len(client.get("/api/invites", headers=auth(anna_secret)).json()["sent"]) == 2


def test_requests_per_client_are_capped(client: TestClient) -> None:
    codes = [client.get("/api/people").status_code
             for _ in range(people_module.REQUESTS_BURST + 1)]
    assert codes[:-1] == [200] * people_module.REQUESTS_BURST and codes[-1] == 429


def test_an_invitation_ends_when_the_table_fills(client: TestClient) -> None:
    _anna_secret, bo_secret, table_id, invite = invited(client)
    with page(client, bo_secret) as bo_page:
        taken = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Gäst"})
        assert taken.status_code == 200
        assert until(bo_page, "invites")["ended"] == [{"id": invite, "outcome": "full"}]
    late = client.post(f"/api/invites/{invite}/accept", headers=auth(bo_secret))
    assert late.status_code == 409 and late.json()["error"]["code"] == "invite_ended"


def test_signing_out_everywhere_ends_the_inviters_invitations(client: TestClient) -> None:
    anna_secret, bo_secret, _table_id, invite = invited(client)
    with page(client, bo_secret) as bo_page:
        assert client.post("/api/profiles/me/rotate", headers=auth(anna_secret)) \
            .status_code == 200
        assert until(bo_page, "invites")["ended"] == [{"id": invite, "outcome": "withdrawn"}]
    assert client.get("/api/invites", headers=auth(bo_secret)).json()["invites"] == []


def test_an_invitation_to_a_table_whose_game_is_over_says_so(client: TestClient) -> None:
    _anna, anna_secret = profile(client, "Anna")
    bo, bo_secret = profile(client, "Bo")
    follow(client, anna_secret, bo)
    info = create_table(client, ["open", "bot:basic"], name="Kort", rules={"max_deals": 1})
    response = client.post(f"/api/tables/{info['id']}/join", json={"seat": 0},
                           headers=auth(anna_secret))
    token = response.json()["token"]
    refused = client.post(f"/api/tables/{info['id']}/invite", json={"profile": bo},
                          headers=auth(anna_secret))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "no_open_seat"
    player = WsPlayer(client, info["id"], token)
    play_out({0: player}, player, random.Random(26))
    over = client.post(f"/api/tables/{info['id']}/invite", json={"profile": bo},
                       headers=auth(anna_secret))
    assert over.status_code == 409 and over.json()["error"]["code"] == "invite_ended"
    assert client.get("/api/invites", headers=auth(bo_secret)).json()["invites"] == []
