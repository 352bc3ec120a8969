"""A tournament survives a restart mid-round (docs/CLUB.md): a real ``chicago serve`` on a
SQLite file is killed with SIGKILL while a round is being played; started again, it resumes
the round's tables where they were, the player takes the seat back with the profile, the
round ends, the next one starts exactly once. The organizer then ends the three-round
tournament after round 2 and the server is killed again: started again, it keeps the early
end, and the tournament finishes after round 2 with no round 3."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import Server
from test_restart import Client

from chicago.server.storage import Store
from chicago.server.storage.club import ClubStore

pytestmark = pytest.mark.timeout(240)

def _post(server: Server, path: str, body: Any = None, **headers: str) -> Any:
    response = httpx.post(server.http + path, json=body, headers=headers, timeout=30)
    assert response.status_code in (200, 201), response.text
    return response.json()


def _state(server: Server, tid: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.http}/api/tournaments/{tid}", timeout=30).json()
    return data


def _until(server: Server, tid: str, test: Any) -> dict[str, Any]:
    # a tournament in a child process moves on by itself and tells no socket of it: asked
    # again after each answer (the pause only spares the cores) until a deadline for a hang
    deadline = time.monotonic() + 60
    while True:
        current = _state(server, tid)
        if test(current):
            return current
        assert time.monotonic() < deadline, current
        time.sleep(0.1)


def _play(human: Client, seat: int, rng: random.Random, actions: int | None = None) -> None:
    """The seat's turns at random until the game is over (or ``actions`` were made)."""
    made = 0
    while not human.over and (actions is None or made < actions):
        view = human.view
        assert view is not None
        if view["to_act"] == seat:
            human.conn.send(json.dumps({"type": "act", "action": rng.choice(
                view["legal_actions"]), "seq": human.seq}))
            made += 1
        human.until(lambda f: f["type"] in ("update", "game_over"))


def _take_seat(server: Server, tid: str, secret: str) -> tuple[Client, int]:
    seat = _post(server, f"/api/tournaments/{tid}/seat", **{"X-Chicago-Profile": secret})
    return Client(server, seat["table"], seat["token"]), seat["seat"]


def test_sigkill_mid_round_and_restart(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    server = Server(db)
    try:
        secret = _post(server, "/api/profiles", {"name": "Anna"})["secret"]
        created = _post(server, "/api/tournaments", {
            "name": "Restart cup", "tables": 2, "table_size": 2, "rounds": 3, "deals": 2,
            "duplicate": True, "bot": "basic", "clock": None, "bot_delay": 0})
        tid, organizer = created["tournament"]["id"], created["organizer_secret"]
        _post(server, f"/api/tournaments/{tid}/join", **{"X-Chicago-Profile": secret})
        _post(server, f"/api/tournaments/{tid}/start", **{"X-Chicago-Organizer": organizer})
        human, seat = _take_seat(server, tid, secret)
        rng = random.Random(3)
        _play(human, seat, rng, actions=3)
        assert not human.over
        human.conn.close()
    finally:
        server.kill()  # SIGKILL mid-round: the human's table waits for the human

    server = Server(db)
    try:
        during = _state(server, tid)
        assert during["status"] == "playing" and during["round"] == 1
        human, seat = _take_seat(server, tid, secret)  # a new token from the profile
        assert human.view is not None and not human.view["over"]
        _play(human, seat, rng)
        second = _until(server, tid, lambda s: s["round"] == 2)
        assert [r["status"] for r in second["rounds_played"]] == ["finished", "playing"]
        human, seat = _take_seat(server, tid, secret)
        _play(human, seat, rng, actions=2)
        assert not human.over
        human.conn.close()
        ending = _post(server, f"/api/tournaments/{tid}/end-after-round",
                       **{"X-Chicago-Organizer": organizer})
        assert ending["ends_after"] == 2 and ending["rounds"] == 2
    finally:
        server.kill()  # SIGKILL after the early end was stored, mid-round 2

    server = Server(db)
    try:
        during = _state(server, tid)
        assert (during["status"], during["round"], during["ends_after"]) == ("playing", 2, 2)
        human, seat = _take_seat(server, tid, secret)
        _play(human, seat, rng)
        final = _until(server, tid, lambda s: s["status"] == "finished")
        assert [s["games"] for s in final["standings"]] == [2, 2, 2, 2]
        assert final["rounds"] == 2 and len(final["rounds_played"]) == 2
    finally:
        server.kill()
    store = Store(f"sqlite:///{db}")
    club = ClubStore(store)
    assert [r.number for r in club.rounds(tid)] == [1, 2]
    assert len(club.tournament_tables(tid)) == 4
    store.close()
