"""Reviews on the table server (issue 17): queued when a game ends, computed in a process pool
(never in the server's own process, whose event loop keeps answering), stored, served to
anyone who may see the replay and only for finished games, kept over a restart (also one by
SIGKILL right after the game ended), and bad input refused with nothing changed."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from server_support import (
    Server,
    WsPlayer,
    close_all,
    create_table,
    hold_until_opened,
    join,
    play_out,
    release_gate,
)
from sqlalchemy import func, select
from starlette.testclient import TestClient
from websockets.sync.client import connect

import chicago.review.core
from chicago.review import Review, json_schema, review_game
from chicago.server import Settings, create_app
from chicago.server.replay_pages import replay_steps
from chicago.server.storage import Store
from chicago.server.storage.models import reviews

pytestmark = pytest.mark.timeout(300)

LEVEL = "ev:samples=1"
WAIT = 120.0  # seconds a test waits for a review before it fails (only a hang reaches it)


@pytest.fixture
def review_settings(settings: Settings) -> Settings:
    """The server settings with one review process at a quick level."""
    return dataclasses.replace(settings, review_workers=1, review_level=LEVEL,
                               review_poll=0.5)


@pytest.fixture
def reviewing(review_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(review_settings)) as client:
        try:
            yield client
        finally:
            close_all()


def finish_game(client: TestClient, seats: list[str], *, deals: int = 1,
                private: bool = False, seed: int = 1) -> tuple[str, dict[str, Any]]:
    """A game played to its end (the open seats by random legal actions); its table and
    record."""
    info = create_table(client, seats, rules={"max_deals": deals}, private=private)
    table = info["id"]
    people = {}
    for seat, kind in enumerate(seats):
        if kind == "open":
            people[seat] = WsPlayer(client, table, join(client, table, seat))
    watcher = WsPlayer(client, table)
    play_out(people, watcher, random.Random(seed))
    record = client.get(f"/api/games/{table}/1").json()["record"]
    return table, record


def wait_for(client: TestClient, table: str, seat: int,
             until: tuple[str, ...] = ("ready",)) -> dict[str, Any]:
    # a review is made in another process and told to no socket: asked again after each
    # answer (the pause only spares the cores) until WAIT, a bound for a hang
    deadline = time.monotonic() + WAIT
    while True:
        answer: dict[str, Any] = client.get(f"/api/games/{table}/1/reviews/{seat}").json()
        if answer["status"] in until:
            return answer
        assert answer["status"] != "failed", answer
        assert time.monotonic() < deadline, f"no review in {WAIT} s: {answer}"
        time.sleep(0.05)


def review_rows(client: TestClient) -> int:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(reviews)).scalar_one())


def test_a_finished_game_is_reviewed_off_the_loop_for_its_people(
    reviewing: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Judging a decision in this process fails: the review must come from the pool's
    # processes (spawned: they import the review afresh, without this patch).
    def nowhere(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a decision was judged in the server's own process")

    monkeypatch.setattr(chicago.review.core, "value_decision", nowhere)
    table, record = finish_game(reviewing, ["open", "bot:basic", "bot:random", "bot:basic"])
    status = reviewing.get(f"/api/games/{table}/1/reviews").json()
    assert status["level"] == "ev:samples=1,exchange=0,holds=0" and status["enabled"]
    assert [s["status"] for s in status["seats"]][1:] == ["none"] * 3  # bots: on request
    assert status["seats"][0]["status"] in ("queued", "running", "ready")
    answer = wait_for(reviewing, table, 0)
    monkeypatch.undo()

    assert answer["table"] == table and answer["game"] == 1 and answer["seat"] == 0
    review = Review.from_json(answer["review"])
    jsonschema.validate(answer["review"], json_schema())
    # the review chicago review makes of the record: the same seed, level, all cards known
    assert review == review_game(record, 0, level=LEVEL, seed=0, hindsight=True)
    assert answer["done"] == answer["total"] == len(review.decisions) > 0
    assert answer["accuracy"] == review.summary.accuracy
    assert answer["loss"] == review.summary.loss
    assert reviewing.get("/api/health").json()["reviews"] == 1

    # It names no card but the seat's own (cards the replay of the finished game shows).
    held = {c for deal in replay_steps(record, 0) for step in deal
            for c in step["state"].get("hand", [])}
    for decision in answer["review"]["decisions"]:
        named = set(decision["hand"])
        for alt in decision["alternatives"]:
            named |= {w for w in alt["action"].split() if len(w) == 2 and w[1] in "cdhs"}
            named |= set(alt["keep"] or [])
        assert named <= held, decision["step"]


def test_the_event_loop_answers_while_a_review_runs(
    review_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = dataclasses.replace(review_settings, review_level="ev")
    seen: list[tuple[str, int, int | None]] = []  # (status, done, total) between pongs
    pongs_while_running = 0
    with TestClient(create_app(settings)) as client:
        try:
            table, _record = finish_game(
                client, ["open", "bot:basic", "bot:basic", "bot:basic"], deals=6)
            ws = WsPlayer(client, table)
            while True:
                answer = client.get(f"/api/games/{table}/1/reviews/0").json()
                seen.append((answer["status"], answer["done"], answer["total"]))
                if answer["status"] == "ready":
                    break
                assert answer["status"] != "failed", answer
                ws.send(type="ping")
                assert ws.until(lambda f: f["type"] == "pong")["type"] == "pong"
                if answer["status"] == "running":
                    pongs_while_running += 1
                time.sleep(0.06)  # within the connection's rate limit
        finally:
            close_all()
    assert pongs_while_running > 0
    # the progress was shown as it went: it only grew, and was seen between 0 and the end
    running = [(done, total) for status, done, total in seen if status == "running"]
    dones = [done for done, _ in running]
    assert dones == sorted(dones)
    total = seen[-1][2]
    assert total is not None and any(0 < done < total for done in dones), seen


def test_a_bots_seat_is_reviewed_when_asked_for(reviewing: TestClient) -> None:
    table, record = finish_game(reviewing, ["bot:basic", "bot:random"], deals=1)
    assert reviewing.get(f"/api/games/{table}/1/reviews/1").json()["status"] == "none"
    asked = reviewing.post(f"/api/games/{table}/1/reviews/1")
    assert asked.status_code == 202 and asked.json()["status"] in ("queued", "running")
    answer = wait_for(reviewing, table, 1)
    assert Review.from_json(answer["review"]) == review_game(record, 1, level=LEVEL,
                                                             hindsight=True)
    again = reviewing.post(f"/api/games/{table}/1/reviews/1")
    assert again.status_code == 200 and again.json()["status"] == "ready"
    assert reviewing.get("/api/health").json()["reviews"] == 1  # computed once


def test_reviews_follow_the_replays_access_rule(reviewing: TestClient) -> None:
    public, _ = finish_game(reviewing, ["bot:basic", "bot:basic"])
    private, _ = finish_game(reviewing, ["bot:basic", "bot:basic"], private=True)
    playing = create_table(reviewing, ["open", "bot:basic"])["id"]  # its game is in play
    cases = [(public, 1), (private, 1), (playing, 1), (public, 2), ("nosuchtable", 1)]
    for table, number in cases:
        replay = reviewing.get(f"/api/web/replay/{table}/{number}").status_code
        for path in (f"/api/games/{table}/{number}/reviews",
                     f"/api/games/{table}/{number}/reviews/0"):
            answer = reviewing.get(path)
            assert answer.status_code == replay, (table, number, path, answer.text)
        asked = reviewing.post(f"/api/games/{table}/{number}/reviews/0")
        assert (asked.status_code in (200, 202)) == (replay == 200)
        if replay != 200:
            assert asked.status_code == 404 and asked.json()["error"]["code"] == "unknown_game"


def test_bad_input_is_refused_and_changes_nothing(reviewing: TestClient) -> None:
    table, _ = finish_game(reviewing, ["bot:basic", "bot:basic", "bot:basic"])
    playing = create_table(reviewing, ["open", "bot:basic"])["id"]
    refused = {
        f"/api/games/{table}/1/reviews/3": (400, "bad_request", "seat must be 0-2, not 3"),
        f"/api/games/{table}/1/reviews/6": (400, "bad_request", "seat"),
        f"/api/games/{table}/1/reviews/-1": (400, "bad_request", "seat"),
        f"/api/games/{table}/1/reviews/one": (400, "bad_request", "seat"),
        f"/api/games/{table}/0/reviews/0": (400, "bad_request", "number"),
        f"/api/games/{table}/99999999999/reviews/0": (400, "bad_request", "number"),
        f"/api/games/{table}/2/reviews/0": (404, "unknown_game", "no finished game 2"),
        f"/api/games/{playing}/1/reviews/0": (404, "unknown_game", "no finished game 1"),
        "/api/games/nosuchtable/1/reviews/0": (404, "unknown_game", "nosuchtable"),
    }
    for path, (status, code, words) in refused.items():
        for method in ("GET", "POST"):
            answer = reviewing.request(method, path)
            assert answer.status_code == status, (method, path, answer.text)
            error = answer.json()["error"]
            assert error["code"] == code and words in error["message"], (method, path, error)
    assert review_rows(reviewing) == 0
    assert reviewing.get(f"/api/games/{playing}/1/reviews").status_code == 404


def test_a_full_queue_refuses_more_requests(review_settings: Settings) -> None:
    settings = dataclasses.replace(review_settings, review_queue=1)
    with TestClient(create_app(settings)) as client:
        try:
            table, _ = finish_game(client, ["bot:basic", "bot:basic", "bot:basic"])
            manager = client.app.state.manager  # type: ignore[attr-defined]
            client.portal.call(manager.reviews.stop)  # nothing runs: the queue stays full
            assert client.post(f"/api/games/{table}/1/reviews/0").status_code == 202
            busy = client.post(f"/api/games/{table}/1/reviews/1")
            assert busy.status_code == 503 and busy.headers["Retry-After"] == "30"
            assert busy.json()["error"]["code"] == "review_busy"
            assert review_rows(client) == 1
            answer = client.get(f"/api/games/{table}/1/reviews/0").json()
            assert (answer["status"], answer["ahead"]) == ("queued", 0)
        finally:
            close_all()


def test_a_server_without_reviews_says_so(client: TestClient) -> None:
    table, _ = finish_game(client, ["open", "bot:basic"])  # review_workers=0: none due
    status = client.get(f"/api/games/{table}/1/reviews").json()
    assert not status["enabled"] and {s["status"] for s in status["seats"]} == {"none"}
    off = client.post(f"/api/games/{table}/1/reviews/0")
    assert off.status_code == 503 and off.json()["error"]["code"] == "no_reviews"
    assert review_rows(client) == 0


def test_a_review_stopped_with_the_server_goes_on_and_stored_ones_outlast_restarts(
    review_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    with TestClient(create_app(review_settings)) as client:
        try:
            service = client.app.state.manager.reviews  # type: ignore[attr-defined]
            # The review process is kept busy until the server stops its pool: the review
            # is claimed (running) but cannot be done when the server stops, however slow
            # the machine (a gate, not a time).
            gate = tmp_path / "gate"
            os.mkfifo(gate)
            pool = client.portal.call(service._ensure_pool)
            pool.submit(hold_until_opened, str(gate))
            shutdown = pool.shutdown

            def release_then_shut_down(*args: Any, **kwargs: Any) -> None:
                release_gate(gate)
                shutdown(*args, **kwargs)

            monkeypatch.setattr(pool, "shutdown", release_then_shut_down)
            table, record = finish_game(client, ["open", "bot:basic", "bot:basic"])
            wait_for(client, table, 0, until=("running",))
        finally:
            close_all()
    store = Store(review_settings.db_url)
    with store.engine.connect() as conn:
        states = conn.execute(select(reviews.c.seat, reviews.c.status, reviews.c.attempts)
                              .where(reviews.c.table_id == table)).all()
    store.close()
    assert [tuple(r) for r in states] == [(0, "queued", 0)]  # back in the queue, unrun
    with TestClient(create_app(review_settings)) as client:
        first = wait_for(client, table, 0)
        assert Review.from_json(first["review"]) == review_game(record, 0, level=LEVEL,
                                                                hindsight=True)
        assert client.get("/api/health").json()["reviews"] == 1
    with TestClient(create_app(review_settings)) as client:
        assert wait_for(client, table, 0) == first  # stored: served as it was
        assert client.get("/api/health").json()["reviews"] == 0  # not computed again


def _play_to_the_end(server: Server, table: str, token: str, seat: int) -> None:
    """Random legal actions for ``seat`` over a real websocket until ``game_over``."""
    rng = random.Random(seat)
    with connect(f"{server.ws}/ws/{table}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "last_seq": None}))
        view: dict[str, Any] | None = None
        acted = -1
        seq = 0
        while True:
            frame = json.loads(ws.recv(30))
            seq = max(seq, frame["seq"])
            if frame["type"] == "snapshot":
                view = frame["view"]
            elif frame["type"] == "update" and frame["state"] is not None:
                assert view is not None
                view.update(frame["state"])
            elif frame["type"] == "game_over":
                return
            if (view is not None and view["to_act"] == seat and view["legal_actions"]
                    and acted != seq):
                acted = seq
                ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal_actions"]),
                                    "seq": seq}))


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc: Linux; elsewhere none)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_a_game_that_ended_just_before_sigkill_is_reviewed_after_the_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "killed.sqlite3"
    # a review at this level takes longer than the kill below
    server = Server(db, "--review-level", "expert:samples=128")
    try:
        table = server.post("/api/tables", {"seats": ["open", "bot:basic", "bot:basic"],
                                            "bot_delay": 0, "rules": {"max_deals": 1}})["id"]
        token = server.post(f"/api/tables/{table}/join", {"seat": 0})["token"]
        _play_to_the_end(server, table, token, 0)
        # the kernel's list of child processes tells nobody: looked at until a deadline
        deadline = time.monotonic() + WAIT
        while len(pool := _children(server.proc.pid)) < 2:  # a review process and its tracker
            assert time.monotonic() < deadline, "no review process started"
            time.sleep(0.01)
    finally:
        server.kill()
    # The review processes end with the server, though no shutdown code ran.
    # processes of another process's tree: no event reaches the test when they end
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in pool):
        assert time.monotonic() < deadline, f"review processes {pool} outlived the server"
        time.sleep(0.1)
    store = Store(f"sqlite:///{db}")
    with store.engine.connect() as conn:
        states = conn.execute(select(reviews.c.status)).scalars().all()
    game = store.game(table, 1)
    store.close()
    assert game is not None and game.status == "finished" and game.record is not None
    assert "ready" not in states  # killed before the review was made
    server = Server(db, "--review-level", LEVEL)
    try:
        deadline = time.monotonic() + WAIT  # the review: asked again, as in wait_for
        while True:
            answer = httpx.get(f"{server.http}/api/games/{table}/1/reviews/0").json()
            if answer["status"] == "ready":
                break
            assert answer["status"] != "failed" and time.monotonic() < deadline, answer
            time.sleep(0.1)
    finally:
        server.kill()
    review = Review.from_json(answer["review"])
    assert review == review_game(game.record, 0, level=review.level, hindsight=True)


@pytest.mark.parametrize(("options", "words"), [
    (["--review-workers", "-1"], "--review-workers must be 0-64"),
    (["--review-level", "grandmaster"], "unknown review level 'grandmaster'"),
    (["--review-level", "ev:samples=0"], "out of range"),
])
def test_serve_refuses_bad_review_options(options: list[str], words: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from chicago.cli import main

    code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--port", "0",
                 *options])
    assert code == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()  # refused before anything was made


def test_a_profile_page_links_the_review_of_the_profiles_seat(reviewing: TestClient) -> None:
    """Club play's profile pages (docs/CLUB.md) link a game's review: the replay with the
    Review view of the seat the profile held."""
    created = reviewing.post("/api/profiles", json={"name": "Anna"}).json()
    profile, secret = created["profile"]["id"], created["secret"]
    table = create_table(reviewing, ["bot:basic", "open"], rules={"max_deals": 1})["id"]
    joined = reviewing.post(f"/api/tables/{table}/join", json={"seat": 1},
                            headers={"X-Chicago-Profile": secret}).json()
    player = WsPlayer(reviewing, table, joined["token"])
    play_out({1: player}, player, random.Random(3))
    games = reviewing.get(f"/api/profiles/{profile}").json()["games"]
    assert games[0]["review"] == f"#/replay/{table}/1?review=1"
    wait_for(reviewing, table, 1)  # the review it links is made
