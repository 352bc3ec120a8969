"""Random create-table bodies (issue 14): any JSON shape, types and values, huge numbers and
unknown keys, mostly around the real fields so that many get deep into the checks. After each
one, the lobby (GET /api/tables), GET /api/info and an existing table still answer 200, and
every stored table row loads (what is stored always loads)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from server_support import close_all, create_table
from starlette.testclient import TestClient

from chicago.rules import Rules
from chicago.server import Settings, create_app
from chicago.server.core.state import build_table
from chicago.server.storage import Store

pytestmark = pytest.mark.timeout(600)

_OPTIONS = sorted(f.name for f in dataclasses.fields(Rules))
_CATEGORIES = ["PAIR", "TWO_PAIR", "STRAIGHT", "ROYAL_FLUSH", "HIGH_CARD", "pair", "NOPE"]

numbers = st.one_of(
    st.integers(-3, 600), st.integers(), st.integers(min_value=10**15, max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0, 1, 52, 500, 501]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=12),
                    st.sampled_from(["open", "bot:random", "bot:basic", "pagat", "x",
                                     "V-NEG", "staged", "hdsc"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
rules = st.dictionaries(
    st.one_of(st.sampled_from(_OPTIONS), st.text(max_size=10)),
    st.one_of(json_values, st.dictionaries(st.sampled_from(_CATEGORIES), numbers, max_size=3)),
    max_size=5)
near_valid = st.fixed_dictionaries({
    "seats": st.sampled_from([["open", "open"], ["open", "bot:random", "open"],
                              ["bot:random", "bot:random"]]),
    "rules": st.dictionaries(st.sampled_from(_OPTIONS), st.one_of(
        st.integers(0, 600), st.booleans(), st.none(), st.floats(0, 2000)), max_size=2),
}, optional={"variations": st.lists(st.sampled_from(["V-NEG", "V-LARGE", "V-ROYAL"]),
                                    max_size=2),
             "clock": st.one_of(st.none(), st.floats(0, 4000))})
"""Bodies close to a valid one: many are created, and their rules reach every check."""
bodies = st.one_of(
    near_valid,
    st.fixed_dictionaries({}, optional={
        "name": st.one_of(st.text(max_size=50), json_values),
        "preset": st.one_of(st.sampled_from(["pagat", "denexa", "wikipedia", "wikipedia-42",
                                             "nope"]), json_values),
        "rules": st.one_of(rules, json_values),
        "variations": st.one_of(st.lists(st.sampled_from(
            ["V-NEG", "V-LARGE", "V-CHI-REQ3", "V-TIE-SUIT", "V-ROYAL", "v-one-up", "V-X"]),
            max_size=4), json_values),
        "seats": st.one_of(st.lists(st.sampled_from(["open", "bot:random", "random", "bot:",
                                                     "bot:nope", "OPEN"]), max_size=7),
                           json_values),
        "private": json_values, "clock": st.one_of(numbers, json_values),
        "stand_in": json_values, "bot_delay": st.one_of(numbers, json_values),
        "colour": json_values,
    }),
    json_values,
)


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"
    server = Settings(db_url=f"sqlite:///{path}", static_dir=None, seed=14,
                      create_burst=100_000, create_rate=100_000.0,
                      max_waiting_per_address=100_000, max_waiting=100_000,
                      max_bot_tables_per_address=100_000, max_bot_tables=100_000)
    with TestClient(create_app(server)) as client:
        try:
            existing = create_table(client, ["open", "open"])["id"]
            yield client, existing
        finally:
            close_all()


def _dumps(body: Any) -> bytes:
    return json.dumps(body, allow_nan=True).encode()  # NaN and Infinity as JS would not


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=bodies)
def test_random_create_bodies_never_break_the_lobby(lobby: tuple[TestClient, str],
                                                    body: Any) -> None:
    client, existing = lobby
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    stored = store.count("tables")
    response = client.post("/api/tables", content=_dumps(body),
                           headers={"content-type": "application/json"})
    assert response.status_code in (201, 400, 413), response.text
    answer = response.json()
    if response.status_code != 201:
        assert set(answer) == {"error"} and answer["error"]["message"]
        assert store.count("tables") == stored  # nothing stored
    else:
        # the one new row loads (the others did already): every stored row loads
        assert store.count("tables") == stored + 1
        loaded = store.load(answer["id"])
        assert loaded is not None
        build_table(loaded.table, loaded.entries)
        shown = client.get(f"/api/tables/{answer['id']}")
        assert shown.status_code == 200
        json.loads(shown.text, parse_constant=lambda name: pytest.fail(f"{name} in {body}"))
        event("created")
    assert client.get("/api/tables").status_code == 200
    assert client.get("/api/info").status_code == 200
    assert client.get(f"/api/tables/{existing}").status_code == 200

