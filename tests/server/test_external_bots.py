"""External bot programs on the table server: the operator names them
(``chicago serve --bot NAME=COMMAND``, ``Settings.external_bots``); each NAME is then a bot
level (``GET /api/info``, seats ``bot:NAME``, ``stand_in``), played by the program over the bot
protocol (docs/BOT_PROTOCOL.md). A web client can only choose a NAME, never a command."""

from __future__ import annotations

import json
import logging
import random
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_support import Server, WsPlayer, close_all, create_table, join, play_out
from starlette.testclient import TestClient
from websockets.sync.client import connect

from chicago import Game
from chicago.bots.external import ExternalBot
from chicago.cli import main
from chicago.server import Settings, create_app

pytestmark = pytest.mark.timeout(180)

RANDOM_BOT = Path(__file__).resolve().parents[2] / "src" / "chicago" / "examples" / "random_bot.py"
HOUR = "time_ms=3600000"
"""A program's time per decision when it answers at once: an hour, which no busy machine uses
up (the default second did: a lost turn, and a test that counts none fails)."""
COMMAND = f"{HOUR} {shlex.quote(sys.executable)} {shlex.quote(str(RANDOM_BOT))}"


@pytest.fixture
def external_client(tmp_path: Path) -> Iterator[TestClient]:
    """A server that offers examples/random_bot.py as the bot level ``pyrandom``."""
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'ext.sqlite3'}", static_dir=None,
                        seed=31, external_bots={"pyrandom": COMMAND})
    with TestClient(create_app(settings)) as client:
        try:
            yield client
        finally:
            close_all()


def _spy_bots(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every bot the table manager makes, in order."""
    scheduler = client.app.state.manager.scheduler  # type: ignore[attr-defined]
    made: list[object] = []
    original = scheduler.bot

    def spy(table: object, seat: int, level: str) -> object:
        bot = original(table, seat, level)
        if bot not in made:
            made.append(bot)
        return bot

    monkeypatch.setattr(scheduler, "bot", spy)
    return made


def test_a_named_external_bot_is_a_level_and_plays_a_whole_game(
        external_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    client = external_client
    levels = client.get("/api/info").json()["bot_levels"]
    assert levels[-1] == "pyrandom" and "basic" in levels
    made = _spy_bots(client, monkeypatch)
    info = create_table(client, ["open", "bot:pyrandom"], rules={"max_deals": 2})
    assert info["seats"][1] == {**info["seats"][1], "kind": "bot", "level": "pyrandom"}
    me = WsPlayer(client, info["id"], join(client, info["id"], 0))
    play_out({0: me}, me, random.Random(3))
    moves = [f for f in me.frames if f["type"] == "update" and f["seat"] == 1]
    assert moves and all(f["by"] == "bot" for f in moves)
    programs = [b for b in made if isinstance(b, ExternalBot)]
    assert len(programs) == 1
    bot = programs[0]
    assert bot.decisions == len(moves)
    assert bot.failures == {"crash": 0, "timeout": 0, "illegal": 0}, bot.last_error
    record = client.get(f"/api/games/{info['id']}/1").json()["record"]
    assert Game.replay(record).is_over
    manager = client.app.state.manager  # type: ignore[attr-defined]
    assert manager.tables[info["id"]].bots == {}  # the program was stopped with the game


def test_a_named_external_bot_as_stand_in(external_client: TestClient,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    client = external_client
    made = _spy_bots(client, monkeypatch)
    info = create_table(client, ["open", "open"], clock=600, stand_in="pyrandom",
                        rules={"max_deals": 1})
    assert info["stand_in"] == "pyrandom"
    table = info["id"]
    tokens = [join(client, table, seat) for seat in (0, 1)]
    watcher = WsPlayer(client, table)
    seat = watcher.state["to_act"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    other = WsPlayer(client, table, tokens[1 - seat])
    rng = random.Random(4)
    stand_in = 0  # the program's moves: one per clock that runs out
    while stand_in < 3 and not watcher.over:
        if watcher.state["to_act"] == seat:
            assert client.portal.call(manager.expire_clock, table)  # type: ignore[union-attr]
        elif watcher.state["to_act"] == 1 - seat:
            other.sync(watcher.seq)
            other.send(type="act", action=rng.choice(other.state["legal_actions"]))
        frame = watcher.until(lambda f: f["type"] in ("update", "game_over"))
        if frame["type"] == "update" and frame["by"] in ("clock", "stand-in"):
            stand_in += 1
    assert stand_in >= 1
    programs = [b for b in made if isinstance(b, ExternalBot)]
    assert programs and programs[0].failures["crash"] == 0


@pytest.mark.parametrize("seats", [["open", "bot:cmd:python x.py"], ["open", "cmd:echo"],
                                   ["open", "bot:nosuch"]])
def test_a_client_cannot_name_a_command(external_client: TestClient,
                                        seats: list[str]) -> None:
    response = external_client.post("/api/tables", json={"seats": seats})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_request" and "pyrandom" in error["message"]
    response = external_client.post("/api/tables", json={"seats": ["open", "open"],
                                                         "stand_in": "cmd:echo"})
    assert response.status_code == 400 and "stand_in" in response.json()["error"]["message"]


def test_a_table_whose_named_bot_is_gone_is_played_by_basic(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A table stored with bot:NAME on a server started later without that --bot: the
    server logs it and ``basic`` plays the seat, so the game goes on."""
    db = f"sqlite:///{tmp_path / 'gone.sqlite3'}"
    with TestClient(create_app(Settings(db_url=db, static_dir=None, seed=32,
                                        external_bots={"pyrandom": COMMAND}))) as client:
        table = create_table(client, ["open", "bot:pyrandom"])["id"]
        token = join(client, table, 0)
    with caplog.at_level(logging.ERROR, logger="chicago.server"), \
            TestClient(create_app(Settings(db_url=db, static_dir=None))) as client:
        try:
            assert "pyrandom" not in client.get("/api/info").json()["bot_levels"]
            me = WsPlayer(client, table, token)
            play_out({0: me}, me, random.Random(5))
            assert client.get(f"/api/games/{table}/1").status_code == 200
        finally:
            close_all()
    assert any("'pyrandom' cannot play here" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(("option", "words"), [
    ("nameonly", "NAME=COMMAND"),
    ("Big=echo", "lower-case"),
    ("basic=echo", "built-in level"),
    ("x=no-such-program-anywhere --flag", "cannot find the program"),
    ("x=time_ms=abc echo", "needs a number"),
])
def test_serve_refuses_bad_bot_options(option: str, words: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--port", "0",
                 "--bot", option])
    assert code == 2
    assert words in capsys.readouterr().err


def test_chicago_serve_bot_option_plays_a_whole_game(tmp_path: Path) -> None:
    """A real ``chicago serve --bot ext=…`` process: ``ext`` is listed and plays a seat of a
    whole game to its end (watched by a spectator)."""
    server = Server(tmp_path / "serve.sqlite3", "--bot", f"ext={COMMAND}")
    try:
        assert "ext" in httpx.get(f"{server.http}/api/info").json()["bot_levels"]
        info = server.post("/api/tables", {"seats": ["bot:ext", "bot:random", "bot:ext"],
                                           "bot_delay": 0, "rules": {"max_deals": 1}})
        with connect(f"{server.ws}/ws/{info['id']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello"}))
            while True:
                frame = json.loads(ws.recv(60))
                if frame["type"] == "game_over" or (
                        frame["type"] == "snapshot" and frame["view"]["over"]):
                    break
        response = httpx.get(f"{server.http}/api/games/{info['id']}/1")
        assert response.status_code == 200
        record = response.json()["record"]
        assert Game.replay(record).is_over
        assert {seat for seat, _ in record["actions"]} == {0, 1, 2}
        # the program made every one of its moves: no lost turn, no error was logged
        assert not any("lost its turn" in line or "cannot play here" in line
                       or "Traceback" in line for line in server.output), server.output
    finally:
        server.kill()


GARBAGE = HOUR + " " + shlex.join([
    sys.executable, "-c", "import sys\nfor line in sys.stdin:\n    print('garbage', flush=True)"])


def test_a_program_that_answers_garbage_loses_its_turns_and_the_game_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'garbage.sqlite3'}", static_dir=None,
                        seed=33, external_bots={"garbage": GARBAGE})
    with caplog.at_level(logging.WARNING, logger="chicago.server"), \
            TestClient(create_app(settings)) as client:
        try:
            info = create_table(client, ["open", "bot:garbage"], rules={"max_deals": 1})
            me = WsPlayer(client, info["id"], join(client, info["id"], 0))
            play_out({0: me}, me, random.Random(6))
            assert client.get(f"/api/games/{info['id']}/1").status_code == 200
        finally:
            close_all()
    lost = [r.getMessage() for r in caplog.records if "lost its turn" in r.getMessage()]
    assert lost and all("the garbage program" in m and "not an action" in m for m in lost)
