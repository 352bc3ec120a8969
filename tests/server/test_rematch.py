"""Play again by agreement (issue 26): after a game every person at the table is asked; the
next game starts when all agree (bots always do); a person who declines leaves and their seat
is open again; a timeout releases the seats of those who do not answer; when nobody who
agreed is left the table closes. Over the real app, with a clock the tests move forward.

The finding reproduced first: one person's Play again dealt a new game to everyone at once
(``test_one_persons_play_again_deals_nothing_to_the_others``).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from server_support import WsPlayer, close_all, create_table, join, play_out
from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.clock import ShiftedClock

pytestmark = pytest.mark.timeout(180)

ONE_DEAL = {"max_deals": 1}


@pytest.fixture
def client(clocked_client: TestClient) -> TestClient:
    return clocked_client


def _finished_table(client: TestClient, seats: list[str], names: list[str],
                    **options: Any) -> tuple[str, dict[int, str], dict[int, WsPlayer]]:
    """A table of ``seats`` whose open seats are joined by ``names``, its one-deal game played
    out: its id, the tokens and the players by seat."""
    info = create_table(client, seats, rules=ONE_DEAL, **options)
    tokens = {}
    for seat, spec in enumerate(seats):
        if spec == "open":
            tokens[seat] = join(client, info["id"], seat, names[len(tokens)])
    players = {seat: WsPlayer(client, info["id"], token) for seat, token in tokens.items()}
    first = players[min(players)]
    play_out(players, first, random.Random(7))
    for player in players.values():
        if not player.over:
            player.until(lambda f: f["type"] == "game_over")
    return info["id"], tokens, players


def _info(client: TestClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}")
    assert response.status_code == 200
    info: dict[str, Any] = response.json()
    return info


def test_one_persons_play_again_deals_nothing_to_the_others(client: TestClient) -> None:
    """The finding: Anna's Play again started game 2 for Bo too. Now Bo is asked: his window
    stays (no snapshot), he sees who agreed; the game starts when he agrees too."""
    table_id, _, players = _finished_table(client, ["open", "open", "bot:random"],
                                           ["Anna", "Bo"])
    anna, bo = players[0], players[1]
    asked = _info(client, table_id)["rematch"]
    assert asked["agreed"] == [] and asked["waiting"] == [0, 1] and asked["ms"] > 0
    anna.send(type="rematch")
    frame = bo.until(lambda f: f["type"] in ("rematch", "snapshot"))
    assert frame["type"] == "rematch" and frame["seat"] == 0
    assert frame["rematch"]["agreed"] == [0] and frame["rematch"]["waiting"] == [1]
    info = _info(client, table_id)
    assert info["game"] == 1 and info["status"] == "finished"
    bo.send(type="rematch")
    for player in (anna, bo):
        snap = player.until(lambda f: f["type"] == "snapshot")
        assert snap["reason"] == "rematch" and snap["table"]["game"] == 2
        assert snap["table"]["rematch"] is None and snap["view"]["deal"] == 1
    assert _info(client, table_id)["status"] == "playing"


def test_a_person_who_declines_leaves_and_a_newcomer_starts_the_next_game(
        client: TestClient) -> None:
    """Bo declines: his seat is open, his connection watches on (no hand in its frames) and
    his token stops working; Anna, who agreed, waits; the table is listed as waiting; Cleo
    takes the seat and the game starts with her (taking a seat after a game is agreeing)."""
    table_id, tokens, players = _finished_table(client, ["open", "open", "bot:random"],
                                                ["Anna", "Bo"])
    anna, bo = players[0], players[1]
    anna.send(type="rematch")
    bo.until(lambda f: f["type"] == "rematch")
    bo.send(type="leave")
    seats = anna.until(lambda f: f["type"] == "seats")
    assert seats["change"] == "leave" and seats["seat"] == 1
    assert seats["seats"][1]["kind"] == "open" and seats["status"] == "waiting"
    assert seats["rematch"]["agreed"] == [0] and seats["rematch"]["waiting"] == []
    bo.until(lambda f: f["type"] == "seats")
    info = _info(client, table_id)
    assert info["status"] == "waiting" and info["seats"][1]["name"] is None
    assert table_id in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    headers = {"Authorization": f"Bearer {tokens[1]}"}
    refused = client.post(f"/api/tables/{table_id}/rematch", headers=headers)
    assert refused.status_code == 401  # the released seat's token is no seat's any more
    bo.send(type="rematch")
    assert bo.until(lambda f: f["type"] == "error")["code"] == "not_seated"
    cleo = join(client, table_id, None, "Cleo")
    for player in (anna, bo):
        snap = player.until(lambda f: f["type"] == "snapshot")
        assert snap["reason"] == "rematch" and snap["table"]["game"] == 2
    assert snap["you"] is None and snap["view"]["hand"] == []  # Bo watches
    assert [s["name"] for s in snap["table"]["seats"]] == ["Anna", "Cleo", "random"]
    assert WsPlayer(client, table_id, cleo).you == 1


def test_the_timeout_releases_who_did_not_answer_and_bots_fill_on_request(
        client: TestClient, clock: ShiftedClock) -> None:
    """Anna agrees, Bo does not answer: when the time to answer (120 s) has passed, Bo's
    seat is open; Anna gives it to a bot and the next game starts."""
    table_id, _, players = _finished_table(client, ["open", "open"], ["Anna", "Bo"])
    anna, bo = players[0], players[1]
    anna.send(type="fill")
    assert anna.until(lambda f: f["type"] == "error")["code"] == "not_agreed"
    anna.send(type="rematch")
    anna.until(lambda f: f["type"] == "rematch")
    clock.advance(60)
    anna.send(type="ping")
    anna.until(lambda f: f["type"] == "pong")
    assert _info(client, table_id)["seats"][1]["kind"] == "human"  # not yet
    clock.advance(61)
    seats = anna.until(lambda f: f["type"] == "seats")
    assert seats["change"] == "leave" and seats["seat"] == 1 and seats["rematch"]["ms"] is None
    assert bo.until(lambda f: f["type"] == "seats")["seats"][1]["kind"] == "open"
    anna.send(type="fill")
    filled = anna.until(lambda f: f["type"] == "seats")
    assert filled["change"] == "fill" and filled["seats"][1]["kind"] == "bot"
    snap = anna.until(lambda f: f["type"] == "snapshot")
    assert snap["reason"] == "rematch" and snap["table"]["status"] == "playing"


def test_a_table_nobody_wants_closes(client: TestClient, clock: ShiftedClock) -> None:
    """Nobody answers: every seat is released and the table closes; it cannot be joined
    nor played again."""
    table_id, _tokens, players = _finished_table(client, ["open", "bot:random"], ["Anna"])
    clock.advance(121)
    closed = players[0].until(lambda f: f["type"] == "rematch")
    assert closed["closed"] is True and closed["rematch"] is None
    info = _info(client, table_id)
    assert info["closed"] is True and info["status"] == "finished"
    response = client.post(f"/api/tables/{table_id}/join", json={})
    assert response.status_code == 409 and response.json()["error"]["code"] == "table_closed"
    assert table_id not in [t["id"] for t in client.get("/api/tables").json()["tables"]]


def test_a_play_again_that_arrives_after_the_time_is_refused_and_changes_nothing(
        client: TestClient, clock: ShiftedClock) -> None:
    """The order behind a flaky browser test: Anna's page shows her Play again at once, but
    the time to answer runs out before the server has it. Then neither answered in time:
    both seats are released and the table closes; her answer, arriving after, is refused as
    a spectator's and stores nothing."""
    table_id, _, players = _finished_table(client, ["open", "open"], ["Anna", "Bo"])
    anna = players[0]
    clock.advance(121)
    closed = anna.until(lambda f: f["type"] == "rematch")
    assert closed["closed"] is True
    store = client.app.state.store  # type: ignore[attr-defined]
    before = store.count("log")
    anna.send(type="rematch")
    assert anna.until(lambda f: f["type"] == "error")["code"] == "not_seated"
    assert store.count("log") == before
    info = _info(client, table_id)
    assert [s["kind"] for s in info["seats"]] == ["open", "open"] and info["closed"] is True


def test_a_restart_keeps_the_question_and_its_time(settings: Settings, tmp_path: Path) -> None:
    """Anna agreed, Bo had not answered, the server restarted: the question is as it was,
    and Bo's time still runs out after the restart (the table is resumed)."""
    clock = ShiftedClock()
    with TestClient(create_app(settings, clock=clock)) as client:
        table_id, _, players = _finished_table(client, ["open", "open"], ["Anna", "Bo"])
        players[0].send(type="rematch")
        players[1].until(lambda f: f["type"] == "rematch")
        close_all()
    with TestClient(create_app(settings, clock=clock)) as client:
        asked = _info(client, table_id)["rematch"]
        assert asked["agreed"] == [0] and asked["waiting"] == [1]
        watcher = WsPlayer(client, table_id)
        clock.advance(200)
        watcher.until(lambda f: f["type"] == "seats" and f["change"] == "leave")
        assert _info(client, table_id)["seats"][1]["kind"] == "open"
        close_all()


def test_hostile_requests_after_a_game_are_refused_and_change_nothing(
        client: TestClient) -> None:
    """Who may answer: only a person seated at the table, only after its game, only once;
    a spectator, a wrong token, a bot's seat, giving seats to bots before agreeing or with
    no open seat: each refused with its code and the table's log as it was."""
    info = create_table(client, ["open", "open"], rules=ONE_DEAL)
    tokens = [join(client, info["id"], s, n) for s, n in ((0, "Anna"), (1, "Bo"))]
    anna = WsPlayer(client, info["id"], tokens[0])
    for kind in ("rematch", "leave", "fill"):  # before the game is over
        anna.send(type=kind)
        assert anna.until(lambda f: f["type"] == "error")["code"] == "not_over"
    url = f"/api/tables/{info['id']}"
    assert client.post(url + "/leave").status_code == 401
    bad = client.post(url + "/leave", headers={"Authorization": "Bearer " + "x" * 32})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_token"
    bo = WsPlayer(client, info["id"], tokens[1])
    play_out({0: anna, 1: bo}, anna, random.Random(5))
    if not bo.over:
        bo.until(lambda f: f["type"] == "game_over")
    spectator = WsPlayer(client, info["id"])
    store = client.app.state.store  # type: ignore[attr-defined]
    before = store.count("log")
    for kind in ("rematch", "leave", "fill"):
        spectator.send(type=kind)
        assert spectator.until(lambda f: f["type"] == "error")["code"] == "not_seated"
    anna.send(type="fill")
    assert anna.until(lambda f: f["type"] == "error")["code"] == "not_agreed"
    assert store.count("log") == before
    anna.send(type="rematch")
    anna.until(lambda f: f["type"] == "rematch")
    anna.send(type="rematch")  # said already: nothing stored, no error
    anna.send(type="fill")
    assert anna.until(lambda f: f["type"] == "error")["code"] == "no_open_seat"
    assert store.count("log") == before + 1
    left = client.post(url + "/leave", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert left.status_code == 200 and left.json()["seats"][1]["kind"] == "open"
    again = client.post(url + "/leave", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert again.status_code == 401  # the seat is no longer Bo's

