"""Practice on the table server (issue 25), as hostile as tests/server/test_hostile.py: who may
call each endpoint (a profile for its own exercises; anyone who may see the finished game for
an answer or the daily exercise), strict types and caps, nothing of a game in play, no card
an exercise's seat did not see; answers graded as the review grades them."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from server_support import WsPlayer, close_all, create_table, play_out
from starlette.testclient import TestClient
from test_reviews import LEVEL, finish_game, wait_for

from chicago.review import Review
from chicago.review.grades import grade_of
from chicago.review.model import rounded
from chicago.server import Settings, create_app
from chicago.server.practice import PER_MINUTE

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def server(settings: Settings) -> Iterator[TestClient]:
    settings = dataclasses.replace(settings, review_workers=1, review_level=LEVEL,
                                   review_poll=0.5)
    with TestClient(create_app(settings)) as client:
        try:
            yield client
        finally:
            close_all()


def _profile_game(client: TestClient, seed: int = 3) -> tuple[str, str, str]:
    """A profile that played seat 1 of a finished one-deal game (random legal play, so it
    makes mistakes); its id, its secret and the table. The seat's review is ready."""
    created = client.post("/api/profiles", json={"name": f"Anna{seed}"}).json()
    profile, secret = created["profile"]["id"], created["secret"]
    table = create_table(client, ["bot:basic", "open"], rules={"max_deals": 1})["id"]
    joined = client.post(f"/api/tables/{table}/join", json={"seat": 1},
                         headers={"X-Chicago-Profile": secret}).json()
    player = WsPlayer(client, table, joined["token"])
    play_out({1: player}, player, random.Random(seed))
    wait_for(client, table, 1)
    return profile, secret, table


def _cards(data: Any) -> set[str]:
    return set(re.findall(r"\b[2-9TJQKA][cdhs]\b", json.dumps(data)))


def _mine(client: TestClient, secret: str) -> list[dict[str, Any]]:
    answer = client.get("/api/practice/mine", headers={"X-Chicago-Profile": secret})
    assert answer.status_code == 200, answer.text
    exercises: list[dict[str, Any]] = answer.json()["exercises"]
    return exercises


def test_a_profiles_exercises_are_its_own_and_show_only_what_it_saw(server: TestClient):
    _, secret, table = _profile_game(server)
    exercises = _mine(server, secret)
    review = Review.from_json(server.get(f"/api/games/{table}/1/reviews/1").json()["review"])
    costly = [d for d in review.decisions if d.grade.value in ("inaccuracy", "mistake",
                                                                "blunder")]
    assert [e["step"] for e in exercises] == [d.step for d in costly]
    assert costly, "random play makes mistakes"
    for exercise in exercises:
        assert exercise["ref"].startswith(f"{table}/1/1/") and exercise["seat"] == 1
        text = json.dumps(exercise)
        assert '"value"' not in text and '"loss"' not in text and '"grade"' not in text
        assert "played" not in exercise and "best" not in exercise
        seen = set(exercise["hand"]) | {p["card"] for p in exercise["trick"]}
        assert _cards(exercise) <= seen
    # another profile has none of them
    other = server.post("/api/profiles", json={"name": "Bo"}).json()["secret"]
    assert _mine(server, other) == []


def test_mine_needs_the_profiles_secret(server: TestClient):
    for headers in ({}, {"X-Chicago-Profile": "nope"}, {"X-Chicago-Profile": "x" * 500}):
        answer = server.get("/api/practice/mine", headers=headers)
        assert answer.status_code in (400, 401), answer.text
        assert answer.json()["error"]["code"] in ("bad_profile", "bad_request")


def test_answers_are_graded_as_the_review_grades_each_choice(server: TestClient):
    _, secret, table = _profile_game(server, seed=4)
    review = Review.from_json(server.get(f"/api/games/{table}/1/reviews/1").json()["review"])
    exercises = _mine(server, secret)
    assert exercises
    for exercise in exercises:
        decision = review.decision(exercise["step"])
        best = decision.alternatives[0].value
        for choice in exercise["choices"]:
            answer = server.post("/api/practice/answer",
                                 json={"exercise": exercise["ref"], "action": choice["action"]})
            assert answer.status_code == 200, answer.text
            graded = answer.json()["answer"]
            value = decision.alternative(choice["action"]).value
            assert graded["loss"] == rounded(max(0.0, best - value))
            assert graded["grade"] == grade_of(graded["loss"]).value
            assert answer.json()["best"] == decision.best
        done = server.post("/api/practice/answer",
                           json={"exercise": exercise["ref"], "action": decision.action})
        assert done.json()["answer"]["grade"] == decision.grade.value


def test_bad_answers_are_refused_and_nothing_of_a_game_in_play_is_used(server: TestClient):
    _, secret, table = _profile_game(server, seed=5)
    exercise = _mine(server, secret)[0]
    ref, action = exercise["ref"], exercise["choices"][0]["action"]
    playing = create_table(server, ["open", "bot:basic"])["id"]  # its game is in play
    step = exercise["step"]
    refused: list[tuple[Any, int, str]] = [
        ({"exercise": ref, "action": 7}, 400, "bad_request"),
        ({"exercise": ref}, 400, "bad_request"),
        ({"exercise": ref, "action": action, "extra": 1}, 400, "bad_request"),
        ({"exercise": ref, "action": "x" * 41}, 400, "bad_request"),
        ({"exercise": "x" * 61, "action": action}, 400, "bad_request"),
        ({"exercise": [ref], "action": action}, 400, "bad_request"),
        ({"exercise": "../etc/passwd", "action": action}, 400, "bad_request"),
        ({"exercise": f"{table}/1/1/0", "action": action}, 400, "bad_request"),
        ({"exercise": f"{table}/1/6/{step}", "action": action}, 400, "bad_request"),
        ({"exercise": f"{table}/1/3/{step}", "action": action}, 400, "bad_request"),
        ({"exercise": f"{table}/2/1/{step}", "action": action}, 404, "unknown_game"),
        ({"exercise": f"{playing}/1/0/1", "action": "keep"}, 404, "unknown_game"),
        ({"exercise": f"nosuchtable/1/1/{step}", "action": action}, 404, "unknown_game"),
        ({"exercise": f"{table}/1/0/{step}", "action": action}, 404, "unknown_exercise"),
        ({"exercise": f"{table}/1/1/999999", "action": action}, 404, "unknown_exercise"),
        ({"exercise": ref, "action": "play Zz"}, 400, "bad_action"),
        ({"exercise": ref, "action": "reset 3"}, 400, "bad_action"),
    ]
    for body, status, code in refused:
        answer = server.post("/api/practice/answer", json=body)
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["error"]["code"] == code, (body, answer.text)
    assert server.post("/api/practice/answer", content=b"not json",
                       headers={"Content-Type": "application/json"}).status_code == 400
    assert server.get("/api/practice/answer").status_code == 405


def test_the_daily_exercise_comes_from_a_reviewed_finished_game(server: TestClient):
    empty = server.get("/api/practice/daily").json()
    assert empty["exercise"] is None and re.fullmatch(r"\d{4}-\d\d-\d\d", empty["date"])
    create_table(server, ["open", "bot:basic"])  # a game in play: never an exercise
    table, _ = finish_game(server, ["open", "bot:basic"], seed=6)
    server.post(f"/api/games/{table}/1/reviews/0")
    wait_for(server, table, 0)
    daily = server.get("/api/practice/daily").json()
    exercise = daily["exercise"]
    assert exercise is not None and exercise["ref"].startswith(f"{table}/1/0/")
    assert _cards(exercise) <= set(exercise["hand"]) | {p["card"] for p in exercise["trick"]}
    assert server.get("/api/practice/daily").json() == daily  # the same all day
    choice = exercise["choices"][0]["action"]
    graded = server.post("/api/practice/answer", json={"exercise": exercise["ref"],
                                                       "action": choice})
    assert graded.status_code == 200


def test_practice_requests_are_rate_limited_per_address(server: TestClient):
    statuses = [server.post("/api/practice/answer",
                            json={"exercise": "bad", "action": "keep"}).status_code
                for _ in range(PER_MINUTE + 1)]
    assert statuses[:PER_MINUTE] == [400] * PER_MINUTE
    last = server.post("/api/practice/answer", json={"exercise": "bad", "action": "keep"})
    assert last.status_code == 429 and last.json()["error"]["code"] == "rate_limited"
    assert int(last.headers["Retry-After"]) >= 1
    assert server.get("/api/practice/daily").status_code == 429
