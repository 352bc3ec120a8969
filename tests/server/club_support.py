"""Helpers of the club tests: profiles, tournaments and their tables, over HTTP and
websockets (the test client or a real server)."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from server_support import WsPlayer, play_out

from chicago import Game

if TYPE_CHECKING:
    from starlette.testclient import TestClient

PROFILE = "X-Chicago-Profile"
ORGANIZER = "X-Chicago-Organizer"


def make_profile(client: TestClient, name: str) -> tuple[str, str]:
    """A new profile: (id, secret)."""
    response = client.post("/api/profiles", json={"name": name})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["profile"]["id"], data["secret"]


def make_tournament(client: TestClient, **options: Any) -> tuple[dict[str, Any], str]:
    """A new tournament (fast bots, short games, no clock): (state, organizer secret)."""
    body: dict[str, Any] = {"name": "Club night", "tables": 2, "table_size": 4, "rounds": 3,
                            "deals": 1, "duplicate": True, "bot": "basic", "clock": None,
                            "bot_delay": 0}
    body.update(options)
    response = client.post("/api/tournaments", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["tournament"], data["organizer_secret"]


def started(client: TestClient, names: tuple[str, ...],
            **options: Any) -> tuple[str, dict[str, str], list[dict[str, Any]]]:
    """Profiles of ``names`` join a new tournament (``options``: its shape) that is then
    started: its id, the profiles' secrets by id, round one's tables."""
    people = dict(make_profile(client, name) for name in names)
    created, organizer = make_tournament(client, **options)
    tid = created["id"]
    for secret in people.values():
        joined = client.post(f"/api/tournaments/{tid}/join", headers={PROFILE: secret})
        assert joined.status_code == 200, joined.text
    begun = client.post(f"/api/tournaments/{tid}/start", headers={ORGANIZER: organizer})
    assert begun.status_code == 200, begun.text
    return tid, people, state(client, tid)["rounds_played"][0]["tables"]


def state(client: TestClient, tournament_id: str) -> dict[str, Any]:
    response = client.get(f"/api/tournaments/{tournament_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


PLAY_PROGRESS = ("status", "scores", "winners", "deals", "record", "replay")
"""The fields of a round's table that move as its game is played (its bots play on by
themselves between two reads of the tournament)."""


def controls_of(client: TestClient, tournament_id: str) -> dict[str, Any]:
    """The tournament's state without its tables' play progress: what a control (join,
    leave, start, remove, cancel, end after the round) changes, so that a refused control
    can be shown to change nothing while bot tables play on."""
    data = state(client, tournament_id)
    for played in data.get("rounds_played") or []:
        for table in played.get("tables") or []:
            for key in PLAY_PROGRESS:
                table.pop(key, None)
    return data


def wait_for(client: TestClient, tournament_id: str, test: Any,
             timeout: float = 60.0) -> dict[str, Any]:
    """Ask for the tournament until ``test(state)`` holds: the server moves it on by itself
    and no socket tells of it, so it is asked again after each answer (the pause only
    spares the cores) until ``timeout``, a bound for a hang."""
    deadline = time.monotonic() + timeout
    while True:
        current = state(client, tournament_id)
        if test(current):
            return current
        assert time.monotonic() < deadline, f"tournament never reached the state: {current}"
        time.sleep(0.05)


def play_round(client: TestClient, tournament_id: str, secrets: dict[str, str],
               rng: random.Random) -> dict[str, Any]:
    """Every person of the current round takes its seat (POST .../seat with its profile)
    and plays random legal actions until its table's game is over; the state after."""
    current = state(client, tournament_id)
    number = current["round"]
    this_round = current["rounds_played"][number - 1]
    for table in this_round["tables"]:
        players: dict[int, WsPlayer] = {}
        for seat in table["seats"]:
            if seat["kind"] != "profile":
                continue
            response = client.post(f"/api/tournaments/{tournament_id}/seat",
                                   headers={PROFILE: secrets[seat["profile"]]})
            assert response.status_code == 200, response.text
            claimed = response.json()
            assert claimed["table"] == table["table"] and claimed["seat"] == seat["seat"]
            players[seat["seat"]] = WsPlayer(client, table["table"], claimed["token"])
        if players:
            watcher = next(iter(players.values()))
            play_out(players, watcher, rng)
            for player in players.values():
                player.close()
    return wait_for(client, tournament_id,
                    lambda s: s["round"] > number or s["status"] == "finished")


def error_reply(response: Any, status: int, code: str) -> str:
    """The error reply's message, after checking its status and code."""
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    return message


def hand_standings(rounds: list[dict[str, Any]], records: dict[str, dict[str, Any]],
                   entrants: list[dict[str, Any]]) -> list[tuple[str, float, float, int]]:
    """docs/CLUB.md's standings worked out again, independently of chicago.club: per
    entrant (game points, duplicate %, score), sorted by the documented order."""
    points: dict[str, float] = {e["id"]: 0.0 for e in entrants}
    score: dict[str, int] = {e["id"]: 0 for e in entrants}
    wins: dict[str, int] = {e["id"]: 0 for e in entrants}
    mp: dict[str, float] = {e["id"]: 0.0 for e in entrants}
    comps: dict[str, int] = {e["id"]: 0 for e in entrants}
    for rnd in rounds:
        games = {}
        for table in rnd["tables"]:
            game = Game.replay(records[table["table"]])
            games[table["number"]] = (table, game)
            n = game.players
            key = [(0 if s in game.winners else 1, -game.scores[s]) for s in range(n)]
            for s, seat in enumerate(table["seats"]):
                better = sum(1 for k in key if k < key[s])
                same = sum(1 for k in key if k == key[s])
                points[seat["entrant"]] += sum(n - 1 - p for p in range(better,
                                                                      better + same)) / same
                score[seat["entrant"]] += game.scores[s]
                wins[seat["entrant"]] += int(s in game.winners)
        for number, (table, game) in games.items():
            for other, (_, theirs) in games.items():
                if other == number:
                    continue
                for deal_a, deal_b in zip(game.deal_history, theirs.deal_history,
                                          strict=False):
                    for s, seat in enumerate(table["seats"]):
                        a, b = deal_a.points[s], deal_b.points[s]
                        mp[seat["entrant"]] += 1 if a > b else 0.5 if a == b else 0
                        comps[seat["entrant"]] += 1
    order = {e["id"]: e["order"] for e in entrants}
    rows = [(e, points[e], 100 * mp[e] / comps[e] if comps[e] else 0.0, score[e])
            for e in points]
    rows.sort(key=lambda r: (-r[1], -r[2], -r[3], -wins[r[0]], order[r[0]]))
    return rows
