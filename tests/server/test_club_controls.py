"""The tournament controls (docs/CLUB.md "Tournaments", docs/PROTOCOL.md "Club"): a player
leaves before the start; the organizer removes an entrant, cancels the tournament, or ends
it after the current round. Every refusal is a typed error reply, and the tournament's
state after it is the state before it."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from club_support import (
    ORGANIZER,
    PROFILE,
    controls_of,
    error_reply,
    hand_standings,
    make_profile,
    make_tournament,
    play_round,
    state,
    wait_for,
)
from starlette.testclient import TestClient

from chicago.server.storage.club import ClubStore

pytestmark = pytest.mark.timeout(300)


def _post(client: TestClient, tid: str, what: str, body: Any = None,
          **headers: str) -> Any:
    return client.post(f"/api/tournaments/{tid}/{what}", json=body, headers=headers)


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def _entrant_ids(current: dict[str, Any]) -> list[str]:
    return [e["id"] for e in current["entrants"]]


def test_a_player_leaves_before_the_start_and_each_refusal_changes_nothing(
        client: TestClient) -> None:
    """Leaving takes the profile out (its number is not handed out again: the next joiner
    gets a new one, and so does the player joining again); leaving twice, a profile that
    never joined, a forged or missing secret, an unknown tournament, and leaving after the
    start are refused with their codes, the state unchanged."""
    created, organizer = make_tournament(client, tables=1, table_size=3, rounds=1)
    tid = created["id"]
    (a, a_secret), (b, b_secret), (_, c_secret) = (make_profile(client, n)
                                                   for n in ("Anna", "Bo", "Cilla"))
    for secret in (a_secret, b_secret):
        _ok(_post(client, tid, "join", **{PROFILE: secret}))
    left = _ok(_post(client, tid, "leave", **{PROFILE: b_secret}))
    assert left["entrant"] == "e2"
    assert _entrant_ids(left["tournament"]) == ["e1"]
    before = controls_of(client, tid)
    assert before == left["tournament"]
    error_reply(_post(client, tid, "leave", **{PROFILE: b_secret}), 404, "not_entered")
    error_reply(_post(client, tid, "leave", **{PROFILE: c_secret}), 404, "not_entered")
    error_reply(_post(client, tid, "leave", **{PROFILE: "F" * 32}), 401, "bad_profile")
    error_reply(_post(client, tid, "leave"), 401, "bad_profile")
    error_reply(_post(client, "nope", "leave", **{PROFILE: a_secret}), 404,
                "unknown_tournament")
    error_reply(_post(client, tid, "end-after-round", **{ORGANIZER: organizer}), 409,
                "not_playing")
    assert controls_of(client, tid) == before
    assert _ok(_post(client, tid, "join", **{PROFILE: c_secret}))["entrant"] == "e3"
    assert _ok(_post(client, tid, "join", **{PROFILE: b_secret}))["entrant"] == "e4"
    started = _ok(_post(client, tid, "start", **{ORGANIZER: organizer}))
    assert _entrant_ids(started) == ["e1", "e3", "e4"]
    assert [e["order"] for e in started["entrants"]] == [0, 2, 3]
    assert {e["profile"] for e in started["entrants"]} >= {a}
    before = controls_of(client, tid)
    message = error_reply(_post(client, tid, "leave", **{PROFILE: a_secret}), 409,
                          "tournament_started")
    assert "started" in message
    error_reply(_post(client, tid, "cancel", **{ORGANIZER: organizer}), 409,
                "tournament_started")
    assert controls_of(client, tid) == before
    assert b in {e["profile"] for e in before["entrants"]}


def test_the_organizer_removes_entrants_before_the_start(client: TestClient) -> None:
    """The organizer takes out a no-show by its entrant id ("e2") or number (3); without or
    with a wrong organizer secret, for an unknown entrant, with a body that names none, and
    after the start, the removal is refused and nothing changes. At the start bots fill
    the seats the removed entrants left."""
    created, organizer = make_tournament(client, tables=1, table_size=4, rounds=1)
    tid = created["id"]
    people = [make_profile(client, name) for name in ("Anna", "Bo", "Cilla")]
    for _, secret in people:
        _ok(_post(client, tid, "join", **{PROFILE: secret}))
    before = controls_of(client, tid)
    error_reply(_post(client, tid, "remove", {"entrant": "e2"}), 401, "bad_organizer")
    error_reply(_post(client, tid, "remove", {"entrant": "e2"}, **{ORGANIZER: "G" * 32}),
                403, "bad_organizer")
    assert "e9" in error_reply(_post(client, tid, "remove", {"entrant": "e9"},
                                     **{ORGANIZER: organizer}), 404, "unknown_entrant")
    for bad in ({"entrant": "Bo"}, {"entrant": 0}, {"entrant": True}, {},
                {"entrant": "e2", "also": 1}):
        message = error_reply(_post(client, tid, "remove", bad, **{ORGANIZER: organizer}),
                              400, "bad_request")
        assert "entrant" in message or "also" in message, (bad, message)
    assert controls_of(client, tid) == before
    removed = _ok(_post(client, tid, "remove", {"entrant": "e2"}, **{ORGANIZER: organizer}))
    assert removed["entrant"] == "e2"
    assert _entrant_ids(removed["tournament"]) == ["e1", "e3"]
    again = _ok(_post(client, tid, "remove", {"entrant": 3}, **{ORGANIZER: organizer}))
    assert _entrant_ids(again["tournament"]) == ["e1"]
    error_reply(_post(client, tid, "leave", **{PROFILE: people[1][1]}), 404, "not_entered")
    started = _ok(_post(client, tid, "start", **{ORGANIZER: organizer}))
    assert [e["kind"] for e in started["entrants"]] == ["profile", "bot", "bot", "bot"]
    before = controls_of(client, tid)
    error_reply(_post(client, tid, "remove", {"entrant": "e1"}, **{ORGANIZER: organizer}),
                409, "tournament_started")
    assert controls_of(client, tid) == before


def test_a_cancelled_tournament_refuses_joins_and_starts_and_shows_as_cancelled(
        client: TestClient) -> None:
    """Cancelling needs the organizer secret; a cancelled tournament refuses joins, starts,
    leaving, removals, another cancel and an early end with ``tournament_cancelled``
    (state unchanged), and is listed and shown as cancelled."""
    created, organizer = make_tournament(client, tables=1, table_size=2, rounds=1)
    tid = created["id"]
    (_, a_secret), (_, b_secret) = make_profile(client, "Anna"), make_profile(client, "Bo")
    _ok(_post(client, tid, "join", **{PROFILE: a_secret}))
    before = controls_of(client, tid)
    error_reply(_post(client, tid, "cancel"), 401, "bad_organizer")
    error_reply(_post(client, tid, "cancel", **{ORGANIZER: "G" * 32}), 403, "bad_organizer")
    assert controls_of(client, tid) == before
    cancelled = _ok(_post(client, tid, "cancel", **{ORGANIZER: organizer}))
    assert cancelled["status"] == "cancelled" and not cancelled["final"]
    assert _entrant_ids(cancelled) == ["e1"]
    listed = client.get("/api/tournaments").json()["tournaments"]
    assert next(x for x in listed if x["id"] == tid)["status"] == "cancelled"
    before = controls_of(client, tid)
    for what, body, headers in [
            ("join", None, {PROFILE: b_secret}), ("start", None, {ORGANIZER: organizer}),
            ("leave", None, {PROFILE: a_secret}), ("cancel", None, {ORGANIZER: organizer}),
            ("remove", {"entrant": "e1"}, {ORGANIZER: organizer}),
            ("end-after-round", None, {ORGANIZER: organizer})]:
        message = error_reply(_post(client, tid, what, body, **headers), 409,
                              "tournament_cancelled")
        assert "cancelled" in message, what
    assert controls_of(client, tid) == before
    assert client.app.state.club.store.rounds(tid) == []  # type: ignore[attr-defined]


def test_a_tournament_ended_after_round_one_of_three_finishes_with_round_one_standings(
        client: TestClient) -> None:
    """The organizer ends a three-round duplicate tournament during round 1: the round's
    scores stay hidden until the round is over, no round 2 starts, and the tournament is
    finished with standings equal to a hand computation over round 1's records. Asking
    again changes nothing; afterwards every control is refused with ``tournament_over``."""
    pid, secret = make_profile(client, "Anna")
    created, organizer = make_tournament(client)  # 2 tables of 4, 3 rounds, duplicate
    tid = created["id"]
    _ok(_post(client, tid, "join", **{PROFILE: secret}))
    _ok(_post(client, tid, "start", **{ORGANIZER: organizer}))
    before = controls_of(client, tid)
    error_reply(_post(client, tid, "end-after-round", **{ORGANIZER: "G" * 32}), 403,
                "bad_organizer")
    error_reply(_post(client, tid, "end-after-round"), 401, "bad_organizer")
    assert controls_of(client, tid) == before
    ending = _ok(_post(client, tid, "end-after-round", **{ORGANIZER: organizer}))
    assert ending["ends_after"] == 1 and ending["rounds"] == 1
    assert ending["spec"]["rounds"] == 3 and ending["status"] == "playing"
    assert _ok(_post(client, tid, "end-after-round", **{ORGANIZER: organizer}))["ends_after"] \
        == 1
    # the bots' table finishes first: a duplicate round still hides its result
    during = wait_for(client, tid, lambda s: any(
        t["status"] == "finished" for t in s["rounds_played"][0]["tables"]))
    assert during["status"] == "playing"
    assert all(t["scores"] is None for t in during["rounds_played"][0]["tables"])
    assert all(s["games"] == 0 for s in during["standings"])
    play_round(client, tid, {pid: secret}, random.Random(11))
    final = wait_for(client, tid, lambda s: s["status"] == "finished")
    assert final["final"] and final["rounds"] == 1 and final["round"] == 1
    assert [r["status"] for r in final["rounds_played"]] == ["finished"]
    records = {t["table"]: client.get(t["record"]).json()
               for t in final["rounds_played"][0]["tables"]}
    hand = hand_standings(final["rounds_played"], records, final["entrants"])
    shown = [(s["entrant"]["id"], s["game_points"], s["duplicate"], s["score"])
             for s in final["standings"]]
    assert [r[0] for r in shown] == [r[0] for r in hand]
    for mine, theirs in zip(shown, hand, strict=True):
        assert mine[1] == theirs[1] and mine[3] == theirs[3]
        assert abs(mine[2] - theirs[2]) < 1e-9
    assert all(s["games"] == 1 for s in final["standings"])
    store: ClubStore = client.app.state.club.store  # type: ignore[attr-defined]
    assert [r.number for r in store.rounds(tid)] == [1]
    listed = client.get("/api/tournaments").json()["tournaments"]
    assert next(x for x in listed if x["id"] == tid)["rounds"] == 1
    after = _ok(_post(client, tid, "advance", **{ORGANIZER: organizer}))
    assert not after["advanced"]
    before = controls_of(client, tid)
    for what, body, headers in [
            ("end-after-round", None, {ORGANIZER: organizer}),
            ("cancel", None, {ORGANIZER: organizer}), ("leave", None, {PROFILE: secret}),
            ("remove", {"entrant": "e1"}, {ORGANIZER: organizer})]:
        error_reply(_post(client, tid, what, body, **headers), 409, "tournament_over")
    assert controls_of(client, tid) == before


def test_a_join_racing_the_start_waits_for_it_and_is_refused(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A join that arrives while the organizer's start has read the entrants but not yet
    stored round one waits for the start (the tournament's lock) and is refused
    ``tournament_started``: before, it was stored in between and its player was an entrant
    with no seat in any round."""
    created, organizer = make_tournament(client, tables=1, table_size=3, rounds=1)
    tid = created["id"]
    (_, a_secret), (b, b_secret) = (make_profile(client, n) for n in ("Anna", "Bo"))
    _ok(_post(client, tid, "join", **{PROFILE: a_secret}))
    store: ClubStore = client.app.state.club.director.store  # type: ignore[attr-defined]
    start_read, join_entered, join_done = (threading.Event() for _ in range(3))
    read_entrants, add_entrant = store.entrants, store.add_entrant

    def entrants_then_let_a_join_in(tournament_id: str) -> Any:
        rows = read_entrants(tournament_id)
        if not start_read.is_set():  # the start's read (the first after arming)
            start_read.set()
            if join_entered.wait(2.0):  # no lock: the join reaches the store meanwhile
                join_done.wait(10.0)
        return rows

    def add_entrant_noted(*args: Any, **kwargs: Any) -> Any:
        join_entered.set()
        try:
            return add_entrant(*args, **kwargs)
        finally:
            join_done.set()

    monkeypatch.setattr(store, "entrants", entrants_then_let_a_join_in)
    monkeypatch.setattr(store, "add_entrant", add_entrant_noted)
    started: list[Any] = []
    starter = threading.Thread(target=lambda: started.append(
        _post(client, tid, "start", **{ORGANIZER: organizer})))
    starter.start()
    assert start_read.wait(30.0)
    late = _post(client, tid, "join", **{PROFILE: b_secret})
    starter.join(30.0)
    _ok(started[0])
    error_reply(late, 409, "tournament_started")
    after = state(client, tid)
    assert b not in {e["profile"] for e in after["entrants"]}
    seated = {seat["entrant"] for table in after["rounds_played"][0]["tables"]
              for seat in table["seats"]}
    assert {e["id"] for e in after["entrants"]} <= seated
