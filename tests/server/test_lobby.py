"""The lobby's HTTP API: info, create (preset, rule overrides, variations, seats), list,
join (unguessable tokens), records of finished games (JSON and text notation), and its
answers to bad requests (a JSON error naming the problem, nothing created)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import sqlalchemy
from server_support import WsPlayer, close_all, create_table, join, play_out
from starlette.testclient import TestClient

from chicago import Game
from chicago.record import read_text
from chicago.rules import PRESETS, VARIATIONS
from chicago.server import Settings, create_app
from chicago.server.lobby import LIMITS
from chicago.tui.replayer import Replayer

pytestmark = pytest.mark.timeout(120)


def test_info_lists_the_choices(client: TestClient) -> None:
    info = client.get("/api/info").json()
    assert info["presets"] == list(PRESETS)
    assert set(info["variations"]) == set(VARIATIONS)
    assert info["bot_levels"][0] == "random" and "basic" in info["bot_levels"]
    assert info["rules"]["pagat"]["target"] == 52
    assert client.get("/api/health").json()["ok"] is True


def test_create_with_preset_overrides_and_variations(client: TestClient) -> None:
    """R-EX-5 lock_at override, V-ONE-UP and V-NEG on the wikipedia preset."""
    info = create_table(client, ["open", "bot:basic", "open"], preset="wikipedia",
                        rules={"lock_at": 42}, variations=["v-one-up", "V-NEG"],
                        name="  Fredag  kväll ", clock=30, stand_in="bot:random")
    assert info["status"] == "waiting" and info["players"] == 3
    assert info["rules"]["lock_at"] == 42 and info["rules"]["one_up"] is True
    assert info["rules"]["negative_scores"] is True
    assert info["variations"] == ["V-ONE-UP", "V-NEG"]
    assert info["name"] == "Fredag kväll"
    assert info["clock"] == 30 and info["stand_in"] == "random"
    assert [s["kind"] for s in info["seats"]] == ["open", "bot", "open"]
    assert info["seats"][1]["level"] == "basic"
    assert len(info["id"]) >= 20
    assert client.get(f"/api/tables/{info['id']}").json()["id"] == info["id"]


def test_ids_and_tokens_are_unguessable(client: TestClient) -> None:
    ids = {create_table(client, ["open", "open"])["id"] for _ in range(5)}
    assert len(ids) == 5 and all(len(i) >= 20 for i in ids)
    table = next(iter(ids))
    tokens = {join(client, table, seat) for seat in (0, 1)}
    assert len(tokens) == 2 and all(len(t) >= 32 for t in tokens)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"preset": "nope"}, 400, "unknown preset 'nope'"),
        ({"rules": {"lock_att": 3}}, 400, "lock_att"),
        ({"rules": {"exchanges": 9}}, 400, "exchanges must be 1-5"),
        ({"variations": ["V-NOPE"]}, 400, "unknown variation 'V-NOPE'"),
        ({"seats": ["open"]}, 400, "seats"),
        ({"seats": ["open"] * 7}, 400, "seats"),
        ({"seats": ["open"] * 5}, 400, "V-LARGE"),
        ({"seats": ["open", "bot:genius"]}, 400, "seat 1: 'bot:genius'"),
        ({"seats": "open"}, 400, "seats"),
        ({"clock": 0.1}, 400, "clock"),
        ({"bot_delay": 60}, 400, "bot_delay"),
        ({"stand_in": "genius"}, 400, "stand_in 'genius'"),
        ({"colour": "red"}, 400, "colour"),
        ({"name": "a\u0007b"}, 400, "control characters"),
    ],
)
def test_bad_create_requests(client: TestClient, body: dict[str, object], status: int,
                             words: str) -> None:
    before = client.get("/api/tables").json()["tables"]
    response = client.post("/api/tables", json=body)
    assert response.status_code == status
    error = response.json()["error"]
    assert words in error["message"], error
    assert error["code"] in ("bad_request", "bad_rules")
    assert client.get("/api/tables").json()["tables"] == before


def test_not_json_and_too_large_bodies(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"{nope", headers={
        "content-type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"
    response = client.post("/api/tables", content=b'{"name": "' + b"x" * 20000 + b'"}',
                           headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"


def test_unknown_tables_and_games_are_404(client: TestClient) -> None:
    for url in ("/api/tables/nope", "/api/tables/" + "x" * 40, "/api/games/nope/1",
                "/api/games/nope/1/text"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "error" in response.json()
    assert client.post("/api/tables/nope/join", json={}).status_code == 404


def test_list_open_tables_hides_private_and_full_ones(client: TestClient) -> None:
    public = create_table(client, ["open", "open"], name="public")
    private = create_table(client, ["open", "open"], name="private", private=True)
    full = create_table(client, ["open", "bot:random"], name="full", bot_delay=5)
    join(client, full["id"], 0)
    listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
    assert public["id"] in listed
    assert private["id"] not in listed and full["id"] not in listed
    assert client.get(f"/api/tables/{private['id']}").status_code == 200  # by link


def test_join_seats(client: TestClient) -> None:
    info = create_table(client, ["open", "bot:random", "open"], bot_delay=5)
    table = info["id"]
    response = client.post(f"/api/tables/{table}/join", json={"name": "Anna"})
    body = response.json()
    assert body["seat"] == 0 and body["table"]["seats"][0]["name"] == "Anna"
    assert "token" not in str(body["table"])
    for request, status, code in [
        ({"seat": 0}, 409, "seat_taken"),
        ({"seat": 1}, 409, "seat_taken"),
        ({"seat": 3}, 400, "bad_request"),
        ({"seat": -1}, 400, "bad_request"),
        ({"seat": "two"}, 400, "bad_request"),
        ({"name": "x" * 41}, 400, "bad_request"),
    ]:
        response = client.post(f"/api/tables/{table}/join", json=request)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code)
    body = client.post(f"/api/tables/{table}/join", json={}).json()
    # no name given: null, so that every client names the seat in its own language
    assert body["seat"] == 2 and body["table"]["seats"][2]["name"] is None
    assert body["table"]["status"] == "playing"
    response = client.post(f"/api/tables/{table}/join", json={})
    assert response.status_code == 409 and "every seat" in response.json()["error"]["message"]


def test_finished_games_and_their_records(client: TestClient) -> None:
    info = create_table(client, ["open", "bot:basic", "bot:random"], name="record me")
    token = join(client, info["id"], 0, "Anna")
    # a record of a game in play would show its seed, so it is not served
    assert client.get(f"/api/games/{info['id']}/1").status_code == 404
    me = WsPlayer(client, info["id"], token)
    play_out({0: me}, me, random.Random(5))
    games = client.get("/api/games").json()["games"]
    mine = [g for g in games if g["table"] == info["id"]]
    assert len(mine) == 1
    summary = mine[0]
    assert summary["names"] == ["Anna", "basic", "random"] and summary["name"] == "record me"
    assert summary["seats"] == [
        {"seat": 0, "kind": "human", "level": None, "name": "Anna"},
        {"seat": 1, "kind": "bot", "level": "basic", "name": "basic"},
        {"seat": 2, "kind": "bot", "level": "random", "name": "random"}]
    body = client.get(f"/api/games/{info['id']}/1").json()
    record = body["record"]
    game = Game.replay(record)
    assert game.is_over and game.scores == summary["scores"] and game.winners == summary["winners"]
    final = me.state
    assert final["scores"] == game.scores
    updates = [f for f in me.frames if f["type"] == "update"]
    assert len(updates) == len(record["actions"])
    for (seat, text), frame in zip(record["actions"], updates, strict=True):
        # others' discards are secret (R-EX-2): only their kind reaches seat 0
        assert frame["seat"] == seat
        assert frame["action"] == (text if seat == 0 or not text.startswith("discard ")
                                   else None)
        assert text.startswith(frame["kind"]) or (text, frame["kind"]) == ("keep", "discard")
    text = client.get(f"/api/games/{info['id']}/1/text")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    parsed = read_text(text.text)
    assert not parsed.errors
    assert parsed.tags["Names"] == "Anna, basic, random"
    later = client.get("/api/games", params={"before": summary["finished"]}).json()["games"]
    assert all(g["table"] != info["id"] for g in later)
    assert client.get("/api/games", params={"before": "yesterday"}).status_code == 400


def _finished_game(client: TestClient) -> tuple[str, list[WsPlayer]]:
    """A finished game at a table of a person who called themselves "basic" (seat 0), a basic
    bot (seat 1) and a person who gave no name (seat 2), who chatted."""
    info = create_table(client, ["open", "bot:basic", "open"], rules={"max_deals": 1})
    table = info["id"]
    players = [WsPlayer(client, table, join(client, table, 0, "basic")),
               WsPlayer(client, table, join(client, table, 2))]
    players[1].send(type="chat", text="hej")
    chat = players[1].until(lambda f: f["type"] == "chat")
    assert chat["seat"] == 2 and chat["name"] is None
    play_out({0: players[0], 2: players[1]}, players[0], random.Random(8))
    return table, players


def test_finished_games_tell_bots_from_people_and_name_no_one_player_n(
        client: TestClient) -> None:
    """``GET /api/games`` gives each seat's kind and level (a person called "basic" is not a
    bot) and null for a person who gave no name; ``names`` stay texts for other programs
    ("Player 3"), as do the text notation's tags, one per seat as ``chicago play`` writes
    them, so ``chicago replay`` names the seats."""
    table, players = _finished_game(client)
    assert players[0].frames[0]["table"]["seats"][2]["name"] is None
    summary = next(g for g in client.get("/api/games").json()["games"] if g["table"] == table)
    assert summary["seats"] == [
        {"seat": 0, "kind": "human", "level": None, "name": "basic"},
        {"seat": 1, "kind": "bot", "level": "basic", "name": "basic"},
        {"seat": 2, "kind": "human", "level": None, "name": None}]
    assert summary["names"] == ["basic", "basic", "Player 3"]
    assert client.get(f"/api/games/{table}/1").json()["game"] == summary
    page = client.get(f"/api/web/replay/{table}/1").json()
    assert page["seats"] == summary["seats"] and page["names"] == summary["names"]
    text = client.get(f"/api/games/{table}/1/text").text
    parsed = read_text(text)
    assert not parsed.errors and parsed.tags["Names"] == "basic, basic, Player 3"
    assert [parsed.tags[f"Name{s}"] for s in range(3)] == ["basic", "basic", "Player 3"]
    replayer = Replayer(parsed.record, None, parsed.tags)
    assert replayer.names == ["basic", "basic", "Player 3"]


def test_names_stored_by_earlier_versions_read_as_no_name(tmp_path: Path) -> None:
    """Earlier versions stored "Player N" for a person at seat N-1 who gave no name (in the
    join entry and in the game's names): such a table and game read back with null."""
    db = tmp_path / "old.sqlite3"
    settings = Settings(db_url=f"sqlite:///{db}", static_dir=None, seed=9)
    with TestClient(create_app(settings)) as client:
        try:
            table, _ = _finished_game(client)
        finally:
            close_all()
    engine = sqlalchemy.create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        sql = sqlalchemy.text
        rows = conn.execute(sql("SELECT seq, data FROM log WHERE kind = 'join' AND seat = 2 "
                                "AND table_id = :t"), {"t": table}).all()
        assert len(rows) == 1 and json.loads(rows[0][1])["name"] is None
        data = {**json.loads(rows[0][1]), "name": "Player 3"}
        conn.execute(sql("UPDATE log SET data = :d WHERE table_id = :t AND seq = :s"),
                     {"d": json.dumps(data), "t": table, "s": rows[0][0]})
        names = conn.execute(sql("SELECT names FROM games WHERE table_id = :t"),
                             {"t": table}).scalar_one()
        assert json.loads(names) == ["basic", "basic", None]
        conn.execute(sql("UPDATE games SET names = :n WHERE table_id = :t"),
                     {"n": json.dumps(["basic", "basic", "Player 3"]), "t": table})
    engine.dispose()
    with TestClient(create_app(settings)) as client:
        info = client.get(f"/api/tables/{table}").json()
        assert [s["name"] for s in info["seats"]] == ["basic", "basic", None]
        summary = client.get(f"/api/games/{table}/1").json()["game"]
        assert [s["name"] for s in summary["seats"]] == ["basic", "basic", None]
        assert summary["names"] == ["basic", "basic", "Player 3"]


HUGE = "99999999999999999999"  # beyond every integer column (SQLite raised OverflowError)


@pytest.mark.parametrize("number", [HUGE, "-1", "0", "1e3", "x"])
@pytest.mark.parametrize("path", ["/api/games/{t}/{n}", "/api/games/{t}/{n}/text",
                                  "/api/web/replay/{t}/{n}", "/api/web/record/{t}/{n}"])
def test_game_numbers_out_of_range_are_a_json_400(client: TestClient, path: str,
                                                   number: str) -> None:
    table = create_table(client, ["open", "open"])["id"]
    response = client.get(path.format(t=table, n=number))
    assert response.status_code == 400, response.text
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "bad_request" and "number" in error["message"]


def test_a_replay_deal_out_of_range_is_a_json_400(client: TestClient) -> None:
    table = create_table(client, ["open", "open"])["id"]
    response = client.get(f"/api/web/replay/{table}/1?deal={HUGE}")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"


def test_the_store_answers_none_for_impossible_game_numbers(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    table = create_table(client, ["open", "open"])["id"]
    assert store.game(table, 1) is not None
    for number in (0, -5, 2**31, int(HUGE)):
        assert store.game(table, number) is None


def test_an_unforeseen_server_error_is_still_json(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """The general guard: whatever fails inside a request handler, the answer is the JSON
    error form with status 500 (here the store raises what SQLite raised for huge ints)."""
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        table = create_table(client, ["open", "open"])["id"]
        store = client.app.state.store  # type: ignore[attr-defined]

        def overflow(*args: object) -> None:
            raise OverflowError("Python int too large to convert to SQLite INTEGER")

        monkeypatch.setattr(store, "game", overflow)
        for path in (f"/api/games/{table}/1", f"/api/web/replay/{table}/1",
                     f"/api/web/record/{table}/1"):
            response = client.get(path)
            assert response.status_code == 500
            assert response.headers["content-type"].startswith("application/json")
            assert response.json()["error"]["code"] == "internal"


def test_the_limits_in_protocol_md_are_the_served_ones(client: TestClient) -> None:
    """docs/PROTOCOL.md shows GET /api/info's "limits" exactly as the server serves them."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text()
    line = next(x for x in doc.splitlines() if x.lstrip().startswith('"limits"'))
    shown, _ = json.JSONDecoder().raw_decode(line.split(":", 1)[1].strip())
    assert shown == client.get("/api/info").json()["limits"] == LIMITS
