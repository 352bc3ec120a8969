"""A hostile client against the real app (issue 14): each finding, one test, asserting the
reply and that the server's state did not change.

1. a create request whose rules cannot be loaded back is refused before anything is stored,
   and a stored row that cannot be loaded (an old schema, a bug) is skipped wherever rows
   are read, with one log line naming it;
2. every rule number has a range (R-END-1 target, R-HAND-1 points, R-END-2 stake …); table
   creation is rate-limited per client address, waiting tables are capped per address and
   per server, bot-only tables are capped and always end; chat lines are bounded per seat
   (a rate and a number per game);
3. every response carries a strict Content-Security-Policy and the other safe headers;
4. a websocket from another origin is refused with 403;
5. a body over the limit gets 413, with or without Content-Length, and is read no further;
6. static files are compressed and cached (versioned module URLs for a long time).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import GatedProgram, Server, WsPlayer, close_all, create_table, join, play_out
from sqlalchemy import insert
from starlette.testclient import TestClient, WebSocketDenialResponse
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from chicago.rules import Rules
from chicago.server import Settings, create_app
from chicago.server.core.state import build_table
from chicago.server.storage import Store
from chicago.server.storage.models import games as games_table
from chicago.server.storage.models import log as log_table
from chicago.server.storage.models import tables as tables_table

pytestmark = pytest.mark.timeout(180)

EVIL = "http://evil.example"


def state(client: TestClient) -> tuple[Any, ...]:
    """What a refused request must not change: the rows stored, and the lobby's answers."""
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    listed = client.get("/api/tables")
    games = client.get("/api/games")
    assert listed.status_code == 200 and games.status_code == 200
    return (store.count("tables"), store.count("games"), store.count("log"),
            [t["id"] for t in listed.json()["tables"]],
            [(g["table"], g["game"]) for g in games.json()["games"]])


def every_row_loads(client: TestClient) -> None:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        ids = [r[0] for r in conn.execute(tables_table.select().with_only_columns(
            tables_table.c.id))]
    for table_id in ids:
        loaded = store.load(table_id)
        assert loaded is not None
        build_table(loaded.table, loaded.entries)


class FromAddress:
    """The app, seeing each request come from the address in its ``x-test-address``
    header (as uvicorn gives the peer's address, or a trusted proxy's X-Forwarded-For)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        for name, value in scope.get("headers", ()):
            if name == b"x-test-address":
                scope = {**scope, "client": (value.decode(), 5000)}
        await self.app(scope, receive, send)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)


def sent_from(address: str) -> dict[str, str]:
    """The headers that make a request come from ``address`` (:class:`FromAddress`)."""
    return {"x-test-address": address}


@pytest.fixture
def app_with(settings: Settings) -> Iterator[Any]:
    """``app_with(**changes)``: a running app with those settings changed (closed after)."""
    opened: list[TestClient] = []

    def start(**changes: Any) -> TestClient:
        client = TestClient(FromAddress(create_app(dataclasses.replace(settings, **changes))))
        client.__enter__()
        opened.append(client)
        return client

    yield start
    close_all()
    for client in opened:
        client.__exit__(None, None, None)


# ---------------------------------------------------------------------- 1. validation
@pytest.mark.parametrize(("rules", "words"), [
    ({"preset_name": "x"}, ["preset_name", "pagat, denexa, wikipedia, wikipedia-42"]),
    ({"preset_name": 7}, ["preset_name", "must be str"]),
    ({"points": {"PAIR": "one"}}, ["points for PAIR", "must be an int"]),
    ({"suit_order": "xxxx"}, ["suit_order", "c, d, h, s"]),
    ({"tie_mode": "dice"}, ["tie_mode", "'staged', 'category'"]),
])
def test_1_rules_that_cannot_load_are_refused_before_anything_is_stored(
        client: TestClient, rules: dict[str, Any], words: list[str]) -> None:
    """The whole spec is built through the constructors that loading uses first: the
    request that broke the lobby for everyone ({"rules": {"preset_name": "x"}}) is a 400
    naming the field and the valid values, and nothing is stored."""
    create_table(client, ["open", "open"])
    before = state(client)
    response = client.post("/api/tables", json={"rules": rules})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_rules"
    for word in words:
        assert word in error["message"], (word, error["message"])
    assert state(client) == before
    every_row_loads(client)


def _store_broken_rows(store: Store) -> list[str]:
    """Rows no version of the server could load: a waiting public table whose rules name no
    preset, one whose JSON is cut short, and a finished game whose record is not one."""
    now = time.time()
    row = dict(name="", players=2, preset="pagat", variations="[]",
               seats='["open", "open"]', options="{}", private=False, secret="s" * 22,
               status="waiting", open_seats=2, game=1, created_at=now, updated_at=now)
    with store.engine.begin() as conn:
        conn.execute(insert(tables_table).values(id="brokenRules", rules='{"preset_name": "x"}',
                                                 **row))
        conn.execute(insert(tables_table).values(id="brokenJson", rules='{"preset_',
                                                 **row))
        conn.execute(insert(tables_table).values(
            id="brokenGame", rules=json.dumps(Rules.preset("pagat").to_dict()),
            **{**row, "status": "finished", "open_seats": 0}))
        conn.execute(insert(games_table).values(
            table_id="brokenGame", number=1, seed=1, rules="{}", players=2,
            status="finished", started_at=now, finished_at=now, names="[null, null]",
            result='"not a result"', record='{"not": "a record"}'))
        for table_id in ("brokenRules", "brokenJson"):
            conn.execute(insert(log_table).values(
                table_id=table_id, seq=1, game=1, kind="game", seat=None,
                data='{"number": 1, "seed": 1}', created_at=now))
    return ["brokenRules", "brokenJson", "brokenGame"]


def test_1_stored_rows_that_cannot_load_are_skipped_everywhere(
        settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    """List, games, resume and replay skip a row that cannot be loaded, with one log line
    naming it; the other rows are served as before, and the broken one itself answers a
    JSON error."""
    with TestClient(create_app(settings)) as client:
        good = create_table(client, ["open", "open"])["id"]
        finished = create_table(client, ["open", "bot:random"])["id"]
        token = join(client, finished, 0)
        _play_out(client, finished, token)
        before = state(client)
        broken = _store_broken_rows(client.app.state.store)  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING, logger="chicago.server"), \
            TestClient(create_app(settings), raise_server_exceptions=False) as client:
        for _ in range(2):  # twice: still one line per row
            listed = client.get("/api/tables")
            assert listed.status_code == 200
            assert [t["id"] for t in listed.json()["tables"]] == [good]
            games = client.get("/api/games")
            assert games.status_code == 200
            assert [g["table"] for g in games.json()["games"]] == [finished]
        assert state(client)[3:] == before[3:]
        response = client.get("/api/tables/brokenRules")
        assert response.status_code == 500
        assert "brokenRules" in response.json()["error"]["message"]
        assert client.get("/api/web/replay/brokenGame/1").status_code == 500
        assert client.get(f"/api/web/replay/{finished}/1").status_code == 200
    for table_id in broken:
        lines = [r for r in caplog.records if table_id in r.getMessage()]
        assert len(lines) == 1, (table_id, [r.getMessage() for r in lines])
        assert "\n" not in lines[0].getMessage()


def _play_out(client: TestClient, table_id: str, token: str) -> None:
    """Seat 0 plays seeded random legal actions until the game is over, waiting for the
    table's frames (before: up to 2000 looks at its status, 10 ms apart)."""
    player = WsPlayer(client, table_id, token)
    try:
        play_out({0: player}, player, random.Random(0))
    finally:
        player.close()


# ---------------------------------------------------------------------- 2. bounded work
@pytest.mark.parametrize(("body", "words"), [
    ('{"rules": {"target": 1000000000000000000000000000000}}', "target must be 1-500"),
    ('{"rules": {"points": {"PAIR": 100000000000000000000}}}', "points for PAIR must be 0-500"),
    ('{"rules": {"stake": NaN}}', "stake must be 0-1000"),
    ('{"rules": {"target": 1e400}}', "'target' must be int"),
    ('{"rules": {"max_deals": 0}}', "max_deals must be 1-1000 or None"),
    ('{"clock": NaN}', "clock"),
    ('{"bot_delay": Infinity}', "bot_delay"),
])
def test_2_rule_numbers_out_of_range_are_refused(client: TestClient, body: str,
                                                 words: str) -> None:
    before = state(client)
    response = client.post("/api/tables", content=body.encode(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]["message"]
    assert state(client) == before


def test_2_table_creation_is_rate_limited_per_address(app_with: Any) -> None:
    client = app_with(create_burst=3, create_rate=1.0)
    for _ in range(3):
        create_table(client, ["open", "open"])
    before = state(client)
    response = client.post("/api/tables", json={"seats": ["open", "open"]})
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert "tables per minute" in response.json()["error"]["message"]
    assert state(client) == before
    assert client.post("/api/tables", json={"seats": ["open", "open"]},
                       headers=sent_from("192.0.2.7")).status_code == 201  # another address


def test_2_a_creation_refused_by_a_cap_takes_nothing_from_the_rate_limit(
        app_with: Any) -> None:
    """The bucket is taken before the caps are checked and given back when a cap refuses
    (chicago.server.admission.Admission.admit): only tables actually created count."""
    client = app_with(create_burst=3, create_rate=1.0, max_waiting_per_address=2)
    for _ in range(2):
        create_table(client, ["open", "open"])
    for _ in range(3):
        response = client.post("/api/tables", json={"seats": ["open", "open"]})
        assert response.json()["error"]["code"] == "too_many_tables"
    create_table(client, ["bot:random", "bot:random"])  # the burst's third
    response = client.post("/api/tables", json={"seats": ["bot:random", "bot:random"]})
    assert response.json()["error"]["code"] == "rate_limited"


def test_2_waiting_tables_are_capped_per_address_and_per_server(app_with: Any) -> None:
    client = app_with(max_waiting_per_address=2, max_waiting=3)
    for _ in range(2):
        create_table(client, ["open", "open"])
    before = state(client)
    response = client.post("/api/tables", json={"seats": ["open", "open"]})
    assert response.status_code == 429 and int(response.headers["retry-after"]) >= 1
    assert response.json()["error"]["code"] == "too_many_tables"
    assert "2 tables waiting for players" in response.json()["error"]["message"]
    assert state(client) == before
    assert client.post("/api/tables", json={"seats": ["open", "open"]},
                       headers=sent_from("192.0.2.8")).status_code == 201
    third = sent_from("2001:db8::1")
    before = state(client)
    response = client.post("/api/tables", json={"seats": ["open", "open"]}, headers=third)
    assert response.status_code == 429 and "this server" in response.json()["error"]["message"]
    assert state(client) == before
    # a table that fills up no longer waits, and no longer counts
    table = before[3][-1] if before[3] else None
    assert table is not None
    for seat in (0, 1):
        join(client, table, seat)
    assert client.post("/api/tables", json={"seats": ["open", "open"]},
                       headers=third).status_code == 201


def test_2_bot_only_tables_are_capped_and_always_end(app_with: Any, tmp_path: Path) -> None:
    """A table of bots only cannot be stopped by its players: its game ends after at most
    Settings.max_bot_deals deals (its max_deals is lowered to it), even with the largest
    target; and one address may run only so many at once. A table with people keeps its
    rules as they were asked for."""
    with GatedProgram(tmp_path) as program:
        client = app_with(max_bot_deals=2, max_bot_tables_per_address=1,
                          external_bots={"gated": f"time_ms=3600000 {program.command}"})
        # one of its bots thinks until the test lets it answer: the game is in play when
        # the second table is asked for, however fast or slow the machine (before: a tenth
        # of a second a bot move, and a game that had to last until then)
        info = create_table(client, ["bot:gated", "bot:random"], rules={"target": 500})
        assert info["rules"]["max_deals"] == 2 and info["rules"]["target"] == 500
        program.asked(1)
        before = state(client)
        response = client.post("/api/tables", json={"seats": ["bot:random", "bot:random"]})
        assert response.status_code == 429
        assert "1 table of bots only" in response.json()["error"]["message"]
        assert state(client)[:2] == before[:2]
        watcher = WsPlayer(client, info["id"])
        program.open_gate()
        if not watcher.over:  # its game_over frame: the event, not the status asked again
            watcher.until(lambda f: f["type"] == "game_over")
        game = client.get(f"/api/games/{info['id']}/1").json()["game"]
        assert game["deals"] == 2
        # it ended: the address may start another (a lower limit of the table's own is kept)
        smaller = create_table(client, ["bot:random", "bot:random"], rules={"max_deals": 1})
        assert smaller["rules"]["max_deals"] == 1
        people = create_table(client, ["open", "bot:random"], rules={"target": 500})
        assert people["rules"]["max_deals"] is None


def _chat_lines(client: TestClient, table_id: str) -> int:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    loaded = store.load(table_id)
    assert loaded is not None
    return sum(1 for entry in loaded.entries if entry.kind == "chat")


def test_2_chat_lines_are_rate_limited_per_seat(app_with: Any) -> None:
    """A seated player's chat lines go into the table's log for good: a seat gets bursts of
    ``chat_burst`` and ``chat_per_minute`` after that; a line over it is refused with
    ``chat_limited`` and not stored, and another seat may still talk."""
    client = app_with(chat_burst=3, chat_per_minute=0.5, chat_per_game=100)
    table_id = create_table(client, ["open", "open"], bot_delay=5)["id"]
    talker = WsPlayer(client, table_id, join(client, table_id, 0))
    other = WsPlayer(client, table_id, join(client, table_id, 1))
    for n in range(3):
        talker.send(type="chat", text=f"line {n}", id=f"c{n}")
        talker.until(lambda f: f["type"] == "chat")
    before = (state(client), _chat_lines(client, table_id))
    talker.send(type="chat", text="one too many", id="c3")
    error = talker.until(lambda f: f["type"] == "error")
    assert (error["code"], error["id"]) == ("chat_limited", "c3")
    assert "chat lines a minute" in error["message"] and "try again in" in error["message"]
    assert (state(client), _chat_lines(client, table_id)) == before
    other.send(type="chat", text="my turn to talk")
    # ``other`` has the talker's three lines queued before its own: wait for its own line.
    other.until(lambda f: f["type"] == "chat" and f["text"] == "my turn to talk")
    assert _chat_lines(client, table_id) == 4


def test_2_chat_lines_are_capped_per_seat_and_game_also_after_a_restart(
        app_with: Any) -> None:
    """At most ``chat_per_game`` lines a seat in one game, counted from the stored log, so
    a restart does not open the chat again."""
    client = app_with(chat_burst=100, chat_per_minute=6000, chat_per_game=4)
    table_id = create_table(client, ["open", "open"], bot_delay=5)["id"]
    token = join(client, table_id, 0)
    join(client, table_id, 1)
    talker = WsPlayer(client, table_id, token)
    for n in range(4):
        talker.send(type="chat", text=f"line {n}")
        talker.until(lambda f: f["type"] == "chat")
    talker.send(type="chat", text="a fifth", id="five")
    error = talker.until(lambda f: f["type"] == "error")
    assert (error["code"], error["id"]) == ("chat_limited", "five")
    assert "4 chat lines a player in one game" in error["message"]
    talker.close()
    close_all()
    again = app_with(chat_burst=100, chat_per_minute=6000, chat_per_game=4)
    before = (state(again), _chat_lines(again, table_id))
    talker = WsPlayer(again, table_id, token)
    talker.send(type="chat", text="after the restart", id="six")
    error = talker.until(lambda f: f["type"] == "error")
    assert error["code"] == "chat_limited"
    assert (state(again), _chat_lines(again, table_id)) == before == (before[0], 4)


def test_2_a_new_game_opens_the_chat_again(app_with: Any) -> None:
    """The per-game bound counts the lines of the current game: after a rematch a seat whose
    lines were used up may chat again."""
    client = app_with(chat_burst=100, chat_per_minute=6000, chat_per_game=2)
    table_id = create_table(client, ["open", "bot:random"], rules={"max_deals": 1})["id"]
    me = WsPlayer(client, table_id, join(client, table_id, 0, "Anna"))
    for n in range(2):
        me.send(type="chat", text=f"line {n}")
        me.until(lambda f: f["type"] == "chat")
    me.send(type="chat", text="a third", id="three")
    assert me.until(lambda f: f["type"] == "error")["code"] == "chat_limited"
    play_out({0: me}, me, random.Random(5))
    me.send(type="rematch")
    me.until(lambda f: f["type"] == "snapshot" and f["reason"] == "rematch")
    me.send(type="chat", text="good game, again?")
    line = me.until(lambda f: f["type"] == "chat")
    assert line["text"] == "good game, again?"


# ---------------------------------------------------------------------- 3. headers
CSP_PARTS = ("default-src 'self'", "script-src 'self'", "style-src 'self'",
             "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'")


def _assert_safe_headers(response: httpx.Response) -> None:
    csp = response.headers.get("content-security-policy", "")
    for part in CSP_PARTS:
        assert part in csp, (response.url, part, csp)
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response.headers.get("x-content-type-options") == "nosniff"
    assert response.headers.get("x-frame-options") == "DENY"
    assert response.headers.get("referrer-policy") == "no-referrer"
    policy = response.headers.get("permissions-policy", "")
    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
        assert feature in policy, (response.url, policy)


def test_3_every_response_carries_the_security_headers(app_with: Any) -> None:
    client = app_with(static_dir=Settings().static_dir, create_burst=1)
    table = create_table(client, ["open", "open"])["id"]
    answers = [
        client.get("/"), client.get("/index.html"), client.get("/js/app.js"),
        client.get("/css/app.css"), client.get("/favicon.svg"), client.get("/nope.js"),
        client.get("/api/info"), client.get("/api/health"), client.get("/api/tables"),
        client.get(f"/api/tables/{table}"), client.get("/api/tables/nope"),
        client.get("/api/games"), client.get("/api/games/nope/1"), client.get("/api/docs"),
        client.get("/api/openapi.json"), client.delete("/api/tables"),
        client.post("/api/tables", content=b"{bad"),
        client.post("/api/tables", json={"seats": ["open", "open"]}),  # 429
        client.post("/api/tables", content=b"x" * 20000),  # 413
    ]
    assert {r.status_code for r in answers} >= {200, 400, 404, 405, 413, 429}
    for response in answers:
        _assert_safe_headers(response)
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and "<script" not in docs.text
    assert "/api/tables" in docs.text and "/api/openapi.json" in docs.text


# ---------------------------------------------------------------------- 4. origins
def test_4_websockets_from_other_origins_are_refused(app_with: Any) -> None:
    """The server's own origin (and a client that sends none: not a browser) is welcome;
    any other origin, ``null`` too, gets 403 and never reaches the table."""
    client = app_with(allowed_origins=["https://front.example"])
    table = create_table(client, ["open", "open"])["id"]
    before = state(client)
    for origin in (EVIL, "null", "http://testserver.evil.example", "https://testserver"):
        with pytest.raises(WebSocketDenialResponse) as denied, \
                client.websocket_connect(f"/ws/{table}", headers={"origin": origin}):
            pass
        assert denied.value.status_code == 403, origin
        assert denied.value.json()["error"]["code"] == "bad_origin"
        _assert_safe_headers(denied.value)
    for origin in ("http://testserver", "https://front.example", None):
        headers = {"origin": origin} if origin else {}
        with client.websocket_connect(f"/ws/{table}", headers=headers) as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "snapshot"
    assert state(client) == before


def test_4_public_origin_behind_a_reverse_proxy(app_with: Any) -> None:
    """Behind a proxy the Host the server sees is not the page's: the public origin set
    by the operator is then the server's own."""
    client = app_with(public_origin="https://chicago.example.org")
    table = create_table(client, ["open", "open"])["id"]
    with client.websocket_connect(f"/ws/{table}",
                                  headers={"origin": "https://chicago.example.org"}) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "snapshot"
    with pytest.raises(WebSocketDenialResponse), \
            client.websocket_connect(f"/ws/{table}", headers={"origin": "http://testserver"}):
        pass


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``chicago serve`` (uvicorn), admitting one other front end."""
    running = Server(tmp_path_factory.mktemp("hostile") / "hostile.sqlite3",
                     "--allow-origin", "https://front.example")
    try:
        yield running
    finally:
        running.kill()


def test_4_a_real_server_answers_403_to_other_origins(real: Server) -> None:
    table = real.post("/api/tables", {"seats": ["open", "open"]})["id"]
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{real.ws}/ws/{table}", origin=EVIL, open_timeout=10)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    for origin in (real.http, "https://front.example"):
        with connect(f"{real.ws}/ws/{table}", origin=origin,  # type: ignore[arg-type]
                     open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(10))["type"] == "snapshot"
    # --allow-origin also lets that front end use the JSON API from its pages (CORS)
    answer = httpx.get(f"{real.http}/api/info", headers={"origin": "https://front.example"})
    assert answer.headers.get("access-control-allow-origin") == "https://front.example"
    answer = httpx.get(f"{real.http}/api/info", headers={"origin": EVIL})
    assert "access-control-allow-origin" not in answer.headers


# ---------------------------------------------------------------------- 5. bodies
def test_5_a_large_body_without_content_length_gets_413(client: TestClient) -> None:
    before = state(client)

    def chunks() -> Iterator[bytes]:
        for _ in range(64):
            yield b"x" * 16384

    response = client.post("/api/tables", content=chunks(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    response = client.post("/api/tables", content=b"{}" + b" " * 20000,
                           headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert state(client) == before


def test_5_a_real_server_reads_no_further_than_the_limit(real: Server) -> None:
    """100 MiB sent chunked without Content-Length: the answer is 413 as soon as the
    limit is passed, and the server closes the connection: the rest is never read."""
    host, port = real.http.removeprefix("http://").split(":")
    chunk = b"x" * 65536
    sent = 0
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        try:
            while sent < 100 * 1024 * 1024:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except OSError:  # the server closed the connection
            pass
        answer = b""
        try:
            while b"\r\n\r\n" not in answer:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
        except OSError:
            pass
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < 16 * 1024 * 1024, f"{sent} bytes went in before the server stopped reading"
    assert httpx.get(f"{real.http}/api/health").status_code == 200


# ---------------------------------------------------------------------- 6. static files
def test_6_static_files_are_compressed_and_cached(app_with: Any) -> None:
    client = app_with(static_dir=Settings().static_dir)
    page = client.get("/", headers={"accept-encoding": "gzip"})
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
    assert page.headers.get("etag")
    module = re.search(r'src="(v/[0-9a-f]+/js/app\.js)"', page.text)
    style = re.search(r'href="(v/[0-9a-f]+/css/app\.css)"', page.text)
    assert module and style, page.text
    raw = client.get("/" + module[1], headers={"accept-encoding": "identity"})
    packed = client.get("/" + module[1], headers={"accept-encoding": "gzip, br"})
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["vary"] == "Accept-Encoding"
    assert packed.content == raw.content  # (httpx unpacks it)
    assert int(packed.headers["content-length"]) < len(raw.content) / 2
    assert "immutable" in packed.headers["cache-control"]
    assert "max-age=31536000" in packed.headers["cache-control"]
    assert packed.headers["content-type"].startswith("text/javascript")
    plain = client.get("/js/app.js")
    assert plain.content == raw.content and plain.headers["cache-control"] == "no-cache"
    for response in (packed, plain, page):
        tag = response.headers["etag"]
        url = str(response.url)
        again = client.get(url, headers={"if-none-match": tag,
                                         "accept-encoding": "gzip"})
        assert again.status_code == 304 and again.content == b""
        since = client.get(url, headers={"if-modified-since": response.headers[
            "last-modified"]})
        assert since.status_code == 304
    # a module from an older version of the app is still served, but not kept for long
    old = client.get("/v/0123456789ab/js/app.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    assert client.get("/v/0123456789ab/js/nope.js").status_code == 404
    css = client.get("/" + style[1], headers={"accept-encoding": "gzip"})
    assert css.headers["content-encoding"] == "gzip" and css.text.startswith("/*") is not None
    assert "immutable" in css.headers["cache-control"]
    assert client.get("/../pyproject.toml").status_code == 404


def test_6_the_app_works_from_a_path_other_than_its_own(tmp_path: Path,
                                                        app_with: Any) -> None:
    """A directory of static files (an operator's own front end, say) is served the same
    way; a page that names no versioned module is left as it is."""
    (tmp_path / "index.html").write_text("<!doctype html><p>hej</p>", encoding="utf-8")
    (tmp_path / "a.txt").write_text("a" * 5000, encoding="utf-8")
    client = app_with(static_dir=tmp_path)
    assert client.get("/").text == "<!doctype html><p>hej</p>"
    packed = client.get("/a.txt", headers={"accept-encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip" and packed.text == "a" * 5000
