"""Pairing, "Play now with people" (issue 26): places in a queue by preset and number of
players, tables that form as people arrive, bots after the wait each chose (the clock moved
forward, never slept on), leaving, the grace after a socket closed, a restart mid-queue,
and the hostile messages of the new socket."""

from __future__ import annotations

import json
import threading
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from club_support import make_profile
from server_support import WsPlayer, close_all
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from chicago.server import Settings, create_app
from chicago.server.clock import ShiftedClock
from chicago.server.storage.pairing import PairingStore

pytestmark = pytest.mark.timeout(180)


class Waiter:
    """One pairing socket of a test."""

    def __init__(self, client: TestClient, stack: ExitStack) -> None:
        self.ws: WebSocketTestSession = stack.enter_context(
            client.websocket_connect("/ws/pairing"))
        self.frames: list[dict[str, Any]] = []

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def until(self, *kinds: str) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.ws.receive_text())
            self.frames.append(frame)
            if frame["type"] in kinds:
                return frame

    def queue(self, **fields: Any) -> dict[str, Any]:
        message = {"preset": "pagat", "players": 4, "wait": 60, "rated": False,
                   "name": None, **fields}
        self.send(type="queue", **message)
        return self.until("queued", "error")


def counts(client: TestClient) -> list[dict[str, Any]]:
    queues: list[dict[str, Any]] = client.get("/api/pairing").json()["queues"]
    return queues


def profile(client: TestClient, name: str) -> str:
    return make_profile(client, name)[1]


def test_three_people_and_a_bot_after_the_wait(clocked_client: TestClient,
                                               clock: ShiftedClock) -> None:
    client = clocked_client
    with ExitStack() as stack:
        people = [Waiter(client, stack) for _ in range(3)]
        queued = [w.queue(name=f"P{i}") for i, w in enumerate(people)]
        assert [q["type"] for q in queued] == ["queued"] * 3
        assert queued[2]["waiting"] == 3 and queued[0]["wait"] == 60
        assert len({q["ticket"] for q in queued}) == 3
        assert set(queued[0]) == {"type", "ticket", "preset", "players", "rated", "wait",
                                  "since", "waiting"}  # nothing about the others but a count
        assert counts(client) == [{"preset": "pagat", "players": 4, "rated": False,
                                   "waiting": 3}]
        assert "ticket" not in json.dumps(counts(client))
        clock.advance(61)
        paired = [w.until("paired") for w in people]
    assert len({p["table"] for p in paired}) == 1
    assert sorted(p["seat"] for p in paired) == [0, 1, 2]
    assert [p["token"] for p in paired] == [q["ticket"] for q in queued]
    assert {key for p in paired for key in p} == {"type", "table", "seat", "token"}
    frames = [f for w in people for f in w.frames]
    for waiter, ticket in zip(people, (q["ticket"] for q in queued), strict=True):
        others = {q["ticket"] for q in queued} - {ticket}
        assert not any(o in json.dumps(waiter.frames) for o in others)  # no one else's ticket
    assert {f["type"] for f in frames} <= {"queued", "waiting", "paired"}
    info = client.get(f"/api/tables/{paired[0]['table']}").json()
    assert info["status"] == "playing" and info["private"] is True
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "human", "bot"]
    assert [s["name"] for s in info["seats"]][:3] == ["P0", "P1", "P2"]
    seat = WsPlayer(client, paired[1]["table"], paired[1]["token"])  # the ticket: seat token
    assert seat.you == paired[1]["seat"]
    assert counts(client) == []
    close_all()


def test_the_first_four_make_a_table_at_once_and_the_fifth_waits(client: TestClient) -> None:
    with ExitStack() as stack:
        people = [Waiter(client, stack) for _ in range(5)]
        queued = [w.queue(wait=None) for w in people[:4]]
        paired = [w.until("paired") for w in people[:4]]
        assert {p["table"] for p in paired} == {paired[0]["table"]}
        assert sorted(p["seat"] for p in paired) == [0, 1, 2, 3]
        assert [p["seat"] for p in paired] == [0, 1, 2, 3]  # seated in arrival order
        fifth = people[4].queue(wait=None)
        assert fifth["type"] == "queued" and fifth["waiting"] == 1
        assert fifth["ticket"] not in {q["ticket"] for q in queued}


def test_bots_at_once_and_no_bots_ever(client: TestClient) -> None:
    with ExitStack() as stack:
        never, now = Waiter(client, stack), Waiter(client, stack)
        assert never.queue(players=2, wait=None)["type"] == "queued"
        # a wait of 0 is over at once: with the other place, which never wants bots, it
        # makes a full table of people first
        now.queue(players=3, wait=0)
        paired = now.until("paired")
        info = client.get(f"/api/tables/{paired['table']}").json()
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
        assert counts(client) == [{"preset": "pagat", "players": 2, "rated": False,
                                   "waiting": 1}]


def test_leave_and_the_grace_after_a_closed_socket(clocked_client: TestClient,
                                                  clock: ShiftedClock) -> None:
    client = clocked_client
    with ExitStack() as stack:
        person = Waiter(client, stack)
        person.queue(wait=None)
        person.send(type="leave")
        assert person.until("left", "error")["type"] == "left"
        assert counts(client) == []
        person.send(type="leave")
        assert person.until("left", "error")["code"] == "no_place"
        ticket = person.queue(wait=None)["ticket"]
    with ExitStack() as stack:  # the page closed, and came back within the grace
        back = Waiter(client, stack)
        back.send(type="resume", ticket=ticket)
        assert back.until("queued", "error")["ticket"] == ticket
    with ExitStack() as stack:
        other = Waiter(client, stack)  # waits on, in the same queue: it hears the counts
        assert other.queue(wait=None)["waiting"] == 2
        clock.advance(client.app.state.settings.pairing_grace + 1)  # type: ignore[attr-defined]
        while other.until("waiting")["waiting"] != 1:
            pass
        late = Waiter(client, stack)
        late.send(type="resume", ticket=ticket)
        frame = late.until("queued", "error")
        assert frame["type"] == "error" and frame["code"] == "no_place"
        assert counts(client) == [{"preset": "pagat", "players": 4, "rated": False,
                                   "waiting": 1}]


BAD: list[tuple[dict[str, Any], str]] = [
    ({"preset": "nope"}, "preset"),
    ({"preset": 3}, "preset"),
    ({"players": 5}, "players"),
    ({"players": 1}, "players"),
    ({"players": "4"}, "players"),
    ({"players": True}, "players"),
    ({"players": 4.0}, "players"),
    ({"wait": -1}, "wait"),
    ({"wait": 601}, "wait"),
    ({"wait": "60"}, "wait"),
    ({"wait": True}, "wait"),
    ({"rated": "yes"}, "rated"),
    ({"rated": True}, "profile"),  # rated needs a profile
    ({"name": "a\u0007b"}, "name"),
    ({"name": "x" * 41}, "name"),
    ({"name": 7}, "name"),
    ({"profile": "no spaces"}, "profile"),
    ({"seat": 1}, "seat"),
]


@pytest.mark.parametrize(("fields", "field"), BAD, ids=[f for _, f in BAD])
def test_a_bad_field_is_named_and_changes_nothing(client: TestClient, fields: dict[str, Any],
                                                  field: str) -> None:
    with ExitStack() as stack:
        person = Waiter(client, stack)
        frame = person.queue(**fields)
        assert frame["type"] == "error" and frame["field"] == field, frame
        assert frame["message"].startswith(f"{field}:")
        assert counts(client) == []
        assert person.queue()["type"] == "queued"  # the socket goes on


def test_hostile_messages_and_caps(tmp_path: Path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'caps.sqlite3'}", static_dir=None,
                        seed=7, review_workers=0, max_pairing_per_address=2, max_pairing=3)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        person = Waiter(client, stack)
        for raw in ["{", "[]", json.dumps({"type": "hello"}), "x" * 20000,
                    json.dumps({"type": "resume", "ticket": "a b"}),
                    json.dumps({"type": "resume"}),
                    json.dumps({"type": "resume", "ticket": "unknown-ticket"}),
                    json.dumps({"type": "leave"})]:
            person.ws.send_text(raw)
            assert person.until("error")["code"] in {
                "bad_json", "bad_message", "too_large", "bad_request", "no_place"}
        assert counts(client) == []
        assert person.queue(players=2, wait=None)["type"] == "queued"
        again = person.queue(players=3, wait=None)  # one place per socket
        assert again["type"] == "error" and again["code"] == "already_queued"
        second = Waiter(client, stack)
        assert second.queue(players=3, wait=None)["type"] == "queued"
        third = Waiter(client, stack)
        capped = third.queue(players=4, wait=None)  # a third place from one address
        assert capped["type"] == "error" and capped["code"] == "too_many_places"
        assert sum(q["waiting"] for q in counts(client)) == 2
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
                "/ws/pairing", headers={"origin": "https://evil.example"}):
            pass
        assert refused.value.code == 1008
    site = Settings(db_url=f"sqlite:///{tmp_path / 'site.sqlite3'}", static_dir=None, seed=7,
                    review_workers=0, max_pairing=2)
    with TestClient(create_app(site)) as client, ExitStack() as stack:
        for players in (2, 3):
            assert Waiter(client, stack).queue(players=players, wait=None)["type"] == "queued"
        full = Waiter(client, stack).queue(players=4, wait=None)
        assert full["type"] == "error" and full["code"] == "queue_full"


def test_one_profile_one_place_and_signing_out_ends_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One place per profile; signing out everywhere ends it, and by the time the page is
    told (``left``) the store has ended the place (CI once saw it still counted after
    ``left``). The store's ending is held until the test waits for ``left``, and records
    when it is done: the page must not hear ``left`` before that, whatever the speed."""
    revoke = PairingStore.revoke
    release, done = threading.Event(), threading.Event()

    def held_revoke(self: PairingStore, profile_id: str, grant: str) -> int:
        release.wait()
        ended = revoke(self, profile_id, grant)
        done.set()
        return ended

    monkeypatch.setattr(PairingStore, "revoke", held_revoke)
    secret = profile(client, "Rut")
    with ExitStack() as stack:
        one, two = Waiter(client, stack), Waiter(client, stack)
        assert one.queue(profile=secret, wait=None)["type"] == "queued"
        twice = two.queue(profile=secret, wait=None, players=3)
        assert twice["type"] == "error" and twice["code"] == "already_queued"
        unknown = two.queue(profile="no-such-profile-secret", wait=None, players=3)
        assert unknown["type"] == "error" and unknown["code"] == "bad_profile"
        response = client.post("/api/profiles/me/rotate", headers={"X-Chicago-Profile": secret})
        assert response.status_code == 200, response.text
        release.set()
        assert one.until("left")["reason"] == "signed_out"
        assert done.is_set()
    assert counts(client) == []


def test_signing_out_ends_the_socket_even_when_the_store_fails(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Revoking a credential ends what it opened: with the database refusing to end the
    place, the page is still told ``left`` and its socket closes (4401); the place goes
    when its grace is over (no socket holds it)."""
    def failing(self: PairingStore, profile_id: str, grant: str) -> int:
        raise RuntimeError("the database is away")

    monkeypatch.setattr(PairingStore, "revoke", failing)
    secret = profile(client, "Siv")
    with ExitStack() as stack:
        one = Waiter(client, stack)
        assert one.queue(profile=secret, wait=None)["type"] == "queued"
        response = client.post("/api/profiles/me/rotate", headers={"X-Chicago-Profile": secret})
        assert response.status_code == 200, response.text
        assert one.until("left")["reason"] == "signed_out"
        with pytest.raises(WebSocketDisconnect) as closed:
            one.until("never")
        assert closed.value.code == 4401


def test_rated_pairs_profiles_close_in_rating(client: TestClient) -> None:
    anna, bo = profile(client, "Anna"), profile(client, "Bo")
    with ExitStack() as stack:
        a, b = Waiter(client, stack), Waiter(client, stack)
        assert a.queue(players=2, rated=True, profile=anna, wait=None)["type"] == "queued"
        b.queue(players=2, rated=True, profile=bo, wait=None)
        paired = [a.until("paired"), b.until("paired")]
    info = client.get(f"/api/tables/{paired[0]['table']}").json()
    assert info["rated"] is True and [s["name"] for s in info["seats"]] == ["Anna", "Bo"]
    assert paired[0]["table"] == paired[1]["table"]


def test_a_restart_mid_queue_loses_nothing(db_url: str) -> None:
    """On SQLite and on PostgreSQL: the place, its ticket and its time survive."""
    settings = Settings(db_url=db_url, static_dir=None, seed=11, review_workers=0)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        first = Waiter(client, stack).queue(players=2, wait=None)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        back = Waiter(client, stack)
        back.send(type="resume", ticket=first["ticket"])
        again = back.until("queued", "error")
        assert again["type"] == "queued" and again["since"] == first["since"]
        other = Waiter(client, stack)
        other.queue(players=2, wait=None)
        paired = back.until("paired")
        assert other.until("paired")["table"] == paired["table"]
        assert paired["token"] == first["ticket"]


def test_places_count_against_the_lobby_limits_on_starting_tables(tmp_path: Path) -> None:
    """A place may start a table, so it takes one from the address's bucket of table
    creations (rate_limited beyond), and none is taken while the site runs as many tables
    as it may (too_many_tables)."""
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'rate.sqlite3'}", static_dir=None,
                        seed=5, review_workers=0, create_burst=2, create_rate=0.001)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        for players in (2, 3):
            assert Waiter(client, stack).queue(players=players, wait=None)["type"] == "queued"
        refused = Waiter(client, stack).queue(players=4, wait=None)
        assert refused["type"] == "error" and refused["code"] == "rate_limited"
        assert sum(q["waiting"] for q in counts(client)) == 2
    full = Settings(db_url=f"sqlite:///{tmp_path / 'full.sqlite3'}", static_dir=None, seed=5,
                    review_workers=0, max_running_tables=0)
    with TestClient(create_app(full)) as client, ExitStack() as stack:
        refused = Waiter(client, stack).queue(wait=0)
        assert refused["type"] == "error" and refused["code"] == "too_many_tables"
        assert counts(client) == []


def test_after_a_restart_the_wait_goes_on_from_the_stored_time(tmp_path: Path) -> None:
    """Half of a place's minute passes before a restart and the other half after: bots
    fill its table then (the wait counts from when the place came, not from the restart)."""
    clock = ShiftedClock()
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'waits.sqlite3'}", static_dir=None,
                        seed=13, review_workers=0)
    with TestClient(create_app(settings, clock=clock)) as client, ExitStack() as stack:
        first = Waiter(client, stack).queue(players=2, wait=60)
    clock.advance(30)
    with TestClient(create_app(settings, clock=clock)) as client, ExitStack() as stack:
        back = Waiter(client, stack)
        back.send(type="resume", ticket=first["ticket"])
        assert back.until("queued", "error")["since"] == first["since"]
        clock.advance(31)
        paired = back.until("paired")
        info = client.get(f"/api/tables/{paired['table']}").json()
        assert [s["kind"] for s in info["seats"]] == ["human", "bot"]


def test_a_place_paired_before_its_socket_listens_is_told_queued_then_paired(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another worker's pass may pair a new place between its join and its socket
    listening (a rush on two workers did, in CI): the page is still answered ``queued``
    with its ticket first, then ``paired``; before, it got only ``paired``."""
    pairing = client.app.state.pairing  # type: ignore[attr-defined]
    join = pairing.join

    async def join_then_a_pass(request: Any, address: str) -> Any:
        joined = await join(request, address)
        await pairing.run_pass()  # as another worker's pass would, before take() listens
        return joined

    with ExitStack() as stack:
        first, second = Waiter(client, stack), Waiter(client, stack)
        assert first.queue(players=2, wait=None)["type"] == "queued"
        monkeypatch.setattr(pairing, "join", join_then_a_pass)
        second.send(type="queue", preset="pagat", players=2, wait=None, rated=False, name=None)
        told = second.until("queued", "paired", "error")
        assert told["type"] == "queued", told
        paired = second.until("paired", "error")
        assert paired["type"] == "paired" and paired["token"] == told["ticket"]
        assert first.until("paired")["table"] == paired["table"]
